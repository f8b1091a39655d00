"""A whole email game of *Tiny* (``tests/kit/tiny.py``) between two stores through the real
``ardennes`` command line (issue 23, phase 2): ``invite --ruleset tiny``, ``import``,
``accept``, ``orders``, ``export``, ``status``, ``show``, ``verify`` and ``audit``; every
packet passes between the players as armoured text only, with sealed dice. Tiny's email kit
(``tests/kit/tiny_kit.py``) is registered as the program registers the AO's.

The game is ``tests/pbem/test_tiny_by_email.py``'s, played here through the store, the service
and the command line: the same keys (``rosa`` Red, ``bert`` Blue), the same game id (``7a`` x
16) and the same commands in the same packets, so the same dice: Red picks morale 2, Blue 3;
turn 1 Red moves to 0201, Blue to 0301; turn 2 Red strikes blue-1 (its die waits for Blue's
reply), rolls a 2 in his resolution (2 + 2 < 4 + 3: blue-1 holds) and ends his turn; Blue
strikes red-1, Red replies, Blue rolls a 3 (3 + 3 >= 4 + 2): red-1 is eliminated, Blue wins.

Then the refusals: an invitation of a ruleset the program does not have, or has no email kit
for, in a hostile mail beside a good packet (one clear line each, exit 1, the good packet
stored, nothing stored lost), and ``--ruleset`` for a ruleset without an email kit.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import cover, exchange, games, kits, snapshots
from pbem.core import dicemodes, packets
from pbem.core.headers import armor_packets
from pbem.store import Store
from rules import record, registry
from rules.dice import DieRoll
from tests.kit import tiny, tiny_email, tiny_percent
from tests.kit.email_players import Player
from tests.kit.players import PlayerKey
from tests.kit.tiny_kit import TINY_KIT

GAME_ID = "7a" * 16
SHORT = GAME_ID[:8]


def _key(name: str) -> Ed25519PrivateKey:
    """``PlayerKey(name)``'s private key (``tests/kit/players.py``), for the key store."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())


@pytest.fixture
def players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> dict[str, Player]:
    monkeypatch.setattr(games, "new_game_id", lambda: GAME_ID)
    assert kits.get("tiny") is TINY_KIT
    return {
        "red": Player("rosa", tmp_path, monkeypatch, capsys, key=_key("rosa")),
        "blue": Player("bert", tmp_path, monkeypatch, capsys, key=_key("bert")),
    }


def jsonl(player: Player, *cmds: Any) -> Path:
    return player.file("".join(msgspec.json.encode(c).decode() + "\n" for c in cmds), ".jsonl")


def send(sender: Player, reader: Player, *cmds: Any) -> tuple[str, str, str]:
    """``sender``'s ``orders`` (``cmds`` as a JSONL file; none: only what it kept), the
    armoured text it printed imported by ``reader``: (text, sender's stderr, import report)."""
    argv: list[str | Path] = ["orders", SHORT]
    if cmds:
        argv += ["--commands", jsonl(sender, *cmds)]
    code, text, err = sender.run(*argv)
    assert code == 0, err
    return text, err, reader.ok("import", reader.file(text))


def test_a_sealed_tiny_game_through_the_command_line(players: dict[str, Player]) -> None:
    rosa, bert = players["red"], players["blue"]
    assert (rosa.me.public_line, bert.me.public_line) == (
        PlayerKey("rosa").public_line,
        PlayerKey("bert").public_line,
    )
    mails: list[str] = []
    inv = rosa.home / "invitation.txt"
    code, out, err = rosa.run(
        "invite", "--ruleset", "tiny", "--scenario", 1, "--side", "red", "--dice", "sealed",
        "--opponent", "bert", "-o", inv,
    )  # fmt: skip
    assert code == 0 and out == "", err
    assert err.startswith(f"game {GAME_ID}: invitation to scenario 1, you play the Red, sealed ")
    mails.append(inv.read_text())
    subject, note = cover.mail_cover(games.Service(Store(rosa.home)), GAME_ID)
    assert subject == (
        f"Ardennes {SHORT}: The Red player invites you to a game by email (scenario 1, sealed "
        "dice, you play the Blue)"
    )
    assert note.startswith(
        "The Red player sent an invitation to a game of Tiny (the test ruleset)\nby"
    )
    assert '"ruleset":"tiny"' in packets.decode(Store(rosa.home).packet(GAME_ID, 0)).signed.decode()
    report = bert.ok("import", inv)
    assert report.startswith(f"game {SHORT} packet 0 (red invitation): invitation: scenario 1, ")
    assert "playing the red; kept in the store: accept it with: ardennes accept 7a7a7a7a" in report
    code, acceptance, err = bert.run("accept", SHORT, "--opponent", "rosa")
    assert code == 0, err
    assert err.startswith(f"game {GAME_ID}: accepted, scenario 1, you play the Blue, sealed dice")
    assert f"opponent's key {rosa.me.fingerprint}: compare it out of band" in err
    mails.append(acceptance)
    assert rosa.ok("import", rosa.file(acceptance)) == (
        f"game {SHORT} packet 1 (blue acceptance): accepted; your move (Red set-up)\n"
    )

    def step(sender: Player, reader: Player, *cmds: Any) -> tuple[str, str]:
        text, err, report = send(sender, reader, *cmds)
        mails.append(text)
        return err, report

    _, said = step(rosa, bert, tiny.Pick(2))
    assert said == f"game {SHORT} packet 2 (red orders): accepted; your move (Blue set-up)\n"
    _, said = step(bert, rosa, tiny.Pick(3))
    assert said == f"game {SHORT} packet 3 (blue orders): accepted; your move (Red play)\n"
    step(rosa, bert, tiny.Move("red-1", "0201"), tiny.EndPhase())
    step(bert, rosa, tiny.Move("blue-1", "0301"), tiny.EndPhase())
    # turn 2: Red's strike waits for Blue's reply; its die and the end of his turn are kept
    err, said = step(rosa, bert, tiny.Strike("blue-1"), tiny.Roll(), tiny.EndPhase())
    assert f"game {SHORT}: packet 6 sealed and stored" in err
    assert f"game {SHORT}: 2 command(s) kept for packet 8, after the Blue reply" in err
    assert cover.mail_cover(games.Service(Store(rosa.home)), GAME_ID, "rosa") == (
        f"Ardennes {SHORT}: rosa (Red) sent the turn 2 orders: your reply to the strike is due",
        f"rosa (Red) sent the turn 2 orders (packet 6 of game {SHORT}): your\nreply to the "
        "strike is due. Import it with `ardennes import` or `i` in\nthe app.",
    )
    assert said == (
        f"game {SHORT} packet 6 (red orders): accepted; your move (Blue reply to the strike)\n"
    )
    show = json.loads(bert.ok("show", SHORT, "--json"))
    assert show["pending"] == [
        {
            "kind": "batch",
            "what": "strike",
            "side": "red",
            "waits_for": "blue reply",
            "target": "blue-1",
        }
    ]
    assert (show["expects"], show["ours"], show["players"]) == (
        "reply",
        True,
        {"blue": bert.me.fingerprint, "red": "rosa"},
    )
    assert show["position"]["strike"] == "blue-1" and show["position"]["morale"] == [2, 3]
    _, said = step(bert, rosa)  # the reply: nothing to decide in Tiny
    assert said == (
        f"game {SHORT} packet 7 (blue reply): accepted; your move (Red strike resolution)\n"
    )
    err, said = step(rosa, bert)  # the die (a 2: blue-1 holds) and the end of the turn
    assert f"game {SHORT}: the 2 command(s) kept for packet 8 first" in err
    assert said == f"game {SHORT} packet 8 (red resolution): accepted; your move (Blue play)\n"
    step(bert, rosa, tiny.Strike("red-1"), tiny.Roll())
    step(rosa, bert)
    _, said = step(bert, rosa)  # Blue's die, a 3: red-1 eliminated
    over = "game over: Blue wins (elimination): red-1 eliminated (TINY-4, TINY-5)"
    assert said == f"game {SHORT} packet 11 (blue resolution): accepted; {over}\n"

    # both stores hold the same 12 packets; status and show say how it ended
    assert Store(rosa.home).packets(GAME_ID) == Store(bert.home).packets(GAME_ID)
    kinds = [packets.decode(b).body for b in Store(rosa.home).packets(GAME_ID)]
    assert [(b.author, b.kind) for b in kinds] == [
        ("red", "invitation"), ("blue", "acceptance"), ("red", "orders"), ("blue", "orders"),
        ("red", "orders"), ("blue", "orders"), ("red", "orders"), ("blue", "reply"),
        ("red", "resolution"), ("blue", "orders"), ("red", "reply"), ("blue", "resolution"),
    ]  # fmt: skip
    assert [b.dice for b in kinds] == [""] * 8 + ["2", "", "", "3"]
    assert rosa.ok("status", SHORT).splitlines() == [
        f"game {GAME_ID}: scenario 1, sealed dice, you play the Red",
        f"Blue: {bert.me.fingerprint} (bert)",
        f"Red: {rosa.me.fingerprint}",
        "GT2 game over, 12 packets",
        over,
        dicemodes.ALLOWS["sealed"],
    ]
    text = rosa.ok("show", SHORT)
    assert text.splitlines()[:4] == [
        f"Game {SHORT}: scenario 1, sealed dice, you play the Red against bert; 12",
        "  packets",
        "Game over, Blue wins (elimination)",
        over[:1].upper() + over[1:],
    ]
    assert text.splitlines()[-1].startswith('Position: {"units":[{"id":"blue-1"')

    # the store's snapshot is Tiny's state, read back with the kit's state type (no replay)
    snap = snapshots.read(Store(bert.home), GAME_ID, 12)
    assert isinstance(snap, tiny.State) and tiny.state_hash(snap) == tiny.state_hash(
        games.Service(Store(bert.home)).load(GAME_ID).game.state  # type: ignore[union-attr]
    )

    # the mails, in one file, verify and audit; so does each store
    everything = rosa.file("".join(mails))
    line = rosa.ok("verify", everything)
    assert line.startswith(f"OK: game {GAME_ID}, scenario 1, sealed dice, 12 packets, 11 ")
    assert "game over, Blue wins (elimination)" in line
    assert bert.ok("verify", SHORT) == line.replace(str(everything), f"game {GAME_ID}")
    audit = json.loads(bert.ok("audit", SHORT, "--json"))
    assert [(r["packet"], r["author"], r["value"], r["effect"]) for r in audit["rolls"]] == [
        (8, "red", 2, "blue-1 holds"),
        (11, "blue", 3, "red-1 eliminated"),
    ]
    text = rosa.ok("audit", everything)
    assert "#8 Red resolution, batch 1: Red " in text
    assert "Standing:    game over, Blue wins (elimination)\n" in text

    # the record: every command, the dice listed, the players as the store labels them
    record = rosa.home / "tiny.jsonl"
    rosa.ok("export", SHORT, "--record", "-o", record)
    head = json.loads(record.read_bytes().splitlines()[0])
    assert head["ruleset"] == "tiny"
    assert head["dice"] == {"kind": "listed", "detail": {"values": "23"}}
    assert head["players"] == {
        "blue": {"name": "bert"},  # kind human, the default, left out
        "red": {"name": rosa.me.fingerprint},
    }
    assert rosa.ok("verify", record).startswith("OK: ")


def _invitation(ruleset: str, key: str = "mallory") -> str:
    """A well-signed invitation to a game of ``ruleset``, armoured as mail carries it."""
    body: packets.Body[Any] = packets.Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=f"{ruleset}/1",
        game="5c" * 16,
        seq=0,
        prev="",
        author="red",
        kind="invitation",
        turn=1,
        phase="setup",
        scenario=1,
        ruleset=ruleset,
        mode="sealed",
        key=PlayerKey(key).public_line,
        commitment="00" * 32,
    )
    return armor_packets([packets.sign(body, PlayerKey(key).sign)], ruleset)


class _NoKit:
    """A ruleset this program's engine has (registered for one test) but no email kit for."""

    id = "nokit"
    version = "nokit/1"
    sides = ("red", "blue")
    command_type = tiny.Command

    def new_game(self, board: Any) -> Any:
        raise AssertionError("never reached: no email kit, no board")

    def where(self, state: Any) -> tuple[int, str]:
        raise AssertionError("never reached: no email kit, no board")


def test_a_hostile_mail_of_unknown_rulesets_is_refused_line_by_line(
    players: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two invitations of rulesets the program cannot play, before a good packet in one mail:
    one line each, exit 1, the good packet stored, the store's game untouched otherwise."""
    monkeypatch.setitem(registry._RULESETS, "nokit", _NoKit())  # this test's only
    rosa, bert = players["red"], players["blue"]
    inv = rosa.home / "invitation.txt"
    rosa.ok("invite", "--ruleset", "tiny", "--scenario", 1, "--side", "red", "--dice", "open",
            "-o", inv)  # fmt: skip
    rosa.ok("import", rosa.file(bert.ok("accept", inv)))
    before = Store(bert.home).packets(GAME_ID)
    code, text, err = rosa.run("orders", SHORT, "--commands", jsonl(rosa, tiny.Pick(1)))
    assert code == 0, err
    hostile = bert.file(_invitation("chess") + _invitation("nokit") + text)
    code, out, err = bert.run("import", hostile)
    assert code == 1 and err == ""
    # what the process has registered (the rulesets earlier tests of this worker imported too)
    has, plays = ", ".join(registry.ids()), ", ".join(kits.ids())
    assert {"ao", "nokit", "tiny", "tinyd100"} <= set(registry.ids()) and "nokit" not in plays
    assert out.splitlines() == [
        f"game {'5c' * 4} packet 0 (red invitation): refused: packet 0: the game is played "
        f"with the ruleset 'chess', which this program does not have (it has {has})",
        f"game {'5c' * 4} packet 0 (red invitation): refused: this program cannot play the "
        f"ruleset 'nokit' by email (it plays: {plays})",
        f"game {SHORT} packet 2 (red orders): accepted; your move (Blue set-up)",
    ]
    assert Store(bert.home).game_ids() == [GAME_ID]  # nothing of the hostile games kept
    assert Store(bert.home).packets(GAME_ID)[:2] == before and Store(bert.home).count(GAME_ID) == 3


def test_a_ruleset_without_an_email_kit_is_one_line(
    players: dict[str, Player], capsys: pytest.CaptureFixture[str]
) -> None:
    rosa = players["red"]
    with pytest.raises(SystemExit) as stop:
        rosa.run("invite", "--ruleset", "nokit", "--scenario", 1, "--side", "red",
                 "--dice", "open")  # fmt: skip
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "" and len(err.splitlines()) == 1
    choices = "(choose from 'ao', 'breakthrough', 'tiny', 'tinyd100')"
    assert f"argument --ruleset: invalid choice: 'nokit' {choices}" in err
    code, _, err = rosa.run("invite", "--ruleset", "tiny", "--scenario", 1, "--side", "german",
                            "--dice", "open")  # fmt: skip
    assert (code, err) == (2, "ardennes: --side: a side of tiny is blue or red\n")
    code, _, err = rosa.run("invite", "--ruleset", "tiny", "--scenario", 2, "--side", "red",
                            "--dice", "open")  # fmt: skip
    assert (code, err) == (1, "ardennes: there is no scenario 2\n")
    code, _, err = rosa.run("selfplay", "--ruleset", "tiny", "--scenario", "1", "--seed", "1",
                            "-o", rosa.home / "x")  # fmt: skip
    assert code == 2 and "--ruleset tiny plays by email only" in err


@pytest.mark.parametrize(
    ("ruleset", "dice"),
    [("tiny", "sealed"), ("tiny", "open"), ("tiny", "local"), ("tinyd100", "sealed")],
)
def test_tiny_self_play_by_email_verifies(
    players: dict[str, Player], ruleset: str, dice: str
) -> None:
    """``ardennes selfplay --ruleset tiny --dice``: Tiny's bots (red morale 2, blue 3) play
    a whole game by email; the file of its packets verifies, and its audit lists each die
    with its faces (*Tiny percent*: a d100 to hit, then on a hit a d6)."""
    rosa = players["red"]
    out = rosa.home / f"{ruleset}-{dice}.txt"
    line = rosa.ok("selfplay", "--ruleset", ruleset, "--scenario", "1", "--seed", "7",
                   "--dice", dice, "-o", out)  # fmt: skip
    assert line.startswith(f"scenario 1 seed 7 ({dice} dice, game ")
    assert ", no score, hash " in line and line.endswith(f" -> {out}\n")
    verified = rosa.ok("verify", out)
    assert verified.startswith("OK: game ") and f"{dice} dice" in verified
    rolls = json.loads(rosa.ok("audit", out, "--json"))["rolls"]
    kinds = [(r["purpose"].partition(":")[0], r["faces"]) for r in rolls]
    if ruleset == "tiny":
        assert kinds and set(kinds) == {("strike", 6)}
    else:  # each strike: its d100 ("strike"), then on a hit a d6 ("kill", TINY-P1)
        assert (
            kinds and kinds[0] == ("strike", 100) and set(kinds) <= {("strike", 100), ("kill", 6)}
        )
        assert all(
            d != ("kill", 6) or prev == ("strike", 100) for prev, d in itertools.pairwise(kinds)
        )


def test_the_computer_opponent_plays_tiny_by_email(
    players: dict[str, Player], tmp_path: Path
) -> None:
    """``ardennes bot``: the computer accepts a Tiny invitation and answers with Tiny's bot
    (the email kit's ``opponent_bot``, whatever ``--kind`` says for the AO): its morale, then
    in turn 1 it closes in on red-1 (0401 to 0301) and strikes it, which waits for the reply."""
    rosa = players["red"]
    bot_home = tmp_path / "bot"

    def to_bot(text_file: Path) -> str:
        code, answer, err = rosa.run("bot", text_file, "--home", bot_home)
        assert code == 0, err
        return rosa.ok("import", rosa.file(answer))

    inv = rosa.home / "invitation.txt"
    rosa.ok("invite", "--ruleset", "tiny", "--scenario", 1, "--side", "red", "--dice", "sealed",
            "-o", inv)  # fmt: skip
    assert to_bot(inv) == (
        f"game {SHORT} packet 1 (blue acceptance): accepted; your move (Red set-up)\n"
    )

    assert rosa.run("orders", SHORT) == (
        1,
        "",
        "ardennes: no command for packet 2 (red orders): it ends only where the turn passes "
        "to the other player (GT1 setup); nothing stored\n",
    )

    def orders(*cmds: Any) -> Path:
        code, text, err = rosa.run("orders", SHORT, "--commands", jsonl(rosa, *cmds))
        assert code == 0, err
        return rosa.file(text)

    assert to_bot(orders(tiny.Pick(2))) == (
        f"game {SHORT} packet 3 (blue orders): accepted; your move (Red play)\n"
    )
    assert to_bot(orders(tiny.Move("red-1", "0201"), tiny.EndPhase())) == (
        f"game {SHORT} packet 5 (blue orders): accepted; your move (Red reply to the strike)\n"
    )
    game = games.Service(Store(rosa.home)).load(GAME_ID).game
    assert game is not None
    assert [type(s.command).__name__ for s in game.history] == [
        "Pick", "Pick", "Move", "EndPhase", "Move", "Strike",
    ]  # fmt: skip
    assert game.state.unit("blue-1").hex == "0301" and game.state.strike == "red-1"


def test_a_percent_dice_game_exports_a_record_that_replays() -> None:
    """``export --record`` (:func:`pbem.exchange.game_record`) lists the dice of any faces from
    the game's own draws: *Tiny percent*'s d100s and d6s as decimals (``DiceSpec.listed``),
    and the record replays to the same state."""
    red = tiny_email.play("e4" * 16, "tinyd100", "sealed")[0]["red"]
    assert red.game is not None
    drawn = [e for s in red.game.history for e in s.events if isinstance(e, DieRoll)]
    assert {e.faces for e in drawn} == {6, 100} and [e.index for e in drawn] == list(
        range(len(drawn))
    )
    data = exchange.game_record(red, {"red": "rosa", "blue": "bert"})
    rec = record.decode(data)
    assert rec.header.dice == record.DiceSpec.listed([e.value for e in drawn])
    assert "list" in rec.header.dice.detail  # a die over 9: decimals, comma-separated
    again = tiny_percent.PercentGame.replay(rec, tiny.Board())
    assert again.ok and again.game.state_hash() == red.game.state_hash()
