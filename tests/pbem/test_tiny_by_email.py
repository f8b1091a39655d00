"""A whole email game of *Tiny* (``tests/kit/tiny.py``), the test ruleset: invite, accept,
orders, a sealed strike and its reply and resolution, through the ``pbem`` services that
know no ruleset (issue 23, phase 2); then the packets armoured as mail carries them, read back,
verified and audited, their signatures checked by the real ``ssh-keygen -Y verify``, and the
independent dice checker agreeing with the audit roll for roll.

The game (sealed dice, Red invites, game id ``7a7a...``): Red picks morale 2, Blue 3 (TINY-2);
turn 1 Red moves to 0201, Blue to 0301; turn 2 Red strikes blue-1 (TINY-4): the strike waits
for Blue's reply, then Red's resolution rolls its die, a 2 (2 + 2 < 4 + 3: blue-1 holds; both
morales are revealed), and Red ends his turn; Blue strikes red-1, Red replies, Blue's
resolution rolls a 3 (3 + 3 >= 4 + 2): red-1 is eliminated and Blue wins (TINY-5). The dice
follow from the players' chains (section 4), so a change of the protocol's seeds shows here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem import audit, sources
from pbem.core import armor, authoring, packets, zdict
from pbem.core.packets import Packet
from pbem.core.protocol import EmailGame, Refused
from rules.dice import DieRoll
from tests.kit import tiny, tiny_email
from tests.kit.dicecheck import dice_check, needs_system_python
from tests.pbem import needs_ssh_keygen, ssh_keygen

GAME_ID = "7a" * 16
KEYS = tiny_email.KEYS
board_for = tiny_email.board_for


def play() -> tuple[dict[str, EmailGame], list[Packet]]:
    """The game of the module docstring to its end (:func:`tests.kit.tiny_email.play`)."""
    return tiny_email.play(GAME_ID)


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, EmailGame], list[Packet]]:
    return play()


def test_the_invitation_names_the_ruleset_and_the_acceptance_follows_it(game: Any) -> None:
    games, sent = game
    inv = sent[0]
    assert b'"ruleset":"tiny"' in inv.signed and inv.body.ruleset == "tiny"
    assert (inv.body.rules, inv.body.turn, inv.body.phase) == ("tiny/1", 1, "setup")
    assert (sent[1].body.author, sent[1].body.kind, sent[1].body.phase) == (
        "blue",
        "acceptance",
        "setup",
    )
    for g in games.values():
        assert g.ruleset is tiny.TINY and isinstance(g.game, tiny.Game)


def test_both_copies_agree_and_each_strike_went_by_reply_and_resolution(game: Any) -> None:
    games, sent = game
    red, blue = games["red"], games["blue"]
    assert red.hashes == blue.hashes and red.game.state_hash() == blue.game.state_hash()
    kinds = [(p.body.author, p.body.kind) for p in sent]
    assert kinds == [
        ("red", "invitation"),
        ("blue", "acceptance"),
        ("red", "orders"),
        ("blue", "orders"),
        ("red", "orders"),
        ("blue", "orders"),
        ("red", "orders"),  # Strike: sent as it waits for the reply
        ("blue", "reply"),
        ("red", "resolution"),  # Roll, EndPhase
        ("blue", "orders"),  # Strike
        ("red", "reply"),
        ("blue", "resolution"),  # Roll: the game ends
    ]
    assert [p.body.reveal is not None for p in sent[2:]] == [False] * 5 + [True] * 2 + [
        False,
        True,
        True,
    ]
    assert [p.body.dice for p in sent] == [""] * 8 + ["2", "", "", "3"]
    assert {p.body.version for p in sent} == {3}  # d6 only: version 3, as before version 4
    s = red.game.state
    assert s.morale == (2, 3) and s.shown == ("red", "blue")  # the first strike revealed both
    assert s.unit("red-1").hex is None and s.unit("blue-1").hex == "0301"
    want = tiny.Verdict("blue", "elimination", "red-1 eliminated (TINY-4, TINY-5)")
    assert red.verdict == blue.verdict == want and red.expects() is None


def test_a_strike_is_not_resolved_before_the_reply(game: Any) -> None:
    """Sealed dice: Red may not roll his strike's die in the packet that declares it."""
    red = EmailGame.replay(game[1][:6], board_for)
    d = authoring.draft(red, KEYS["red"], "red")
    assert not isinstance(d.push(tiny.Strike("blue-1")), str)
    assert d.ended()  # nothing can be added to a strike: the packet is sent
    assert d.push(tiny.Roll()) == (
        "a batch is resolved only after the opponent's reply: send the packet now"
    )


def test_a_packet_of_another_rulesets_commands_is_refused(game: Any) -> None:
    """A Tiny game decodes its commands with Tiny's types: an AO command is no command of it."""
    import rules.ao

    sent = game[1]
    red = EmailGame.replay(sent[:2], board_for)
    body: packets.Body[Any] = packets.Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules="tiny/1",
        game=GAME_ID,
        seq=2,
        prev=sent[1].hash,
        author="red",
        kind="orders",
        turn=1,
        phase="setup",
        commands=(packets.Step(command=rules.ao.Drop("3508"), hash="0" * 32),),
    )
    alien = packets.decode(packets.encode(packets.sign(body, KEYS["red"].sign)))
    with pytest.raises(Refused, match=r"^packet 2: not a command of tiny \("):
        red.receive(alien)
    assert red.seq == 2  # nothing changed


def test_an_invitation_of_an_unknown_ruleset_is_refused() -> None:
    body: packets.Body[Any] = packets.Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules="chess/1",
        game=GAME_ID,
        seq=0,
        prev="",
        author="white",
        kind="invitation",
        turn=1,
        phase="setup",
        scenario=1,
        ruleset="chess",
        mode="sealed",
        key=KEYS["red"].public_line,
        commitment="00" * 32,
    )
    inv = packets.sign(body, KEYS["red"].sign)
    with pytest.raises(Refused, match=r"^packet 0: the game is played with the ruleset 'chess'"):
        EmailGame.start(inv, board_for)


@pytest.mark.parametrize(
    ("ruleset", "why"),
    [("ao", "the ruleset 'ao' is not an id (the AO's is left out)"), ("Tiny", "is not an id")],
)
def test_the_ruleset_field_has_one_spelling(ruleset: str, why: str) -> None:
    """The AO is named by leaving the field out, never as "ao"; an id is lowercase."""
    body: packets.Body[Any] = packets.Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules="tiny/1",
        game=GAME_ID,
        seq=0,
        prev="",
        author="red",
        kind="invitation",
        turn=1,
        phase="setup",
        scenario=1,
        ruleset=ruleset,
        mode="sealed",
        key=KEYS["red"].public_line,
        commitment="00" * 32,
    )
    with pytest.raises(packets.PacketError, match=re.escape(why)):
        packets.sign(body, KEYS["red"].sign)


def _file(sent: list[Packet], tmp_path: Path) -> Path:
    return tiny_email.mail_file(sent, tmp_path)


def test_the_packets_are_armoured_without_the_aos_dictionary(game: Any, tmp_path: Path) -> None:
    """Tiny has no preset dictionary of its own: plain deflate (zdict.written_for)."""
    assert zdict.written_for("tiny") == "deflate" and zdict.written_for("ao") == "deflate+dict2"
    text = _file(game[1], tmp_path).read_text()
    assert "Encoding: deflate+dict" not in text
    assert text.count("Encoding: deflate\n") >= 5  # the longer packets shrink
    assert [a.payload for a in armor.dearmor_all(text)] == [p.wire for p in game[1]]


def test_the_game_verifies_and_audits_from_the_mail(game: Any, tmp_path: Path) -> None:
    games, sent = game
    source = sources.load_source(str(_file(sent, tmp_path)))
    v = audit.verify(source, board_for)
    assert v.ok, v.line
    red = games["red"]
    assert v.line.startswith(f"OK: game {GAME_ID}, scenario 1, sealed dice, 12 packets, 11 ")
    assert "game over, Blue wins (elimination)" in v.line
    assert f"final state {red.game.state_hash()}" in v.line
    assert "Blue key " in v.line and "Red key " in v.line
    a = audit.audit(v)
    first, second = a.rolls
    assert (first.packet, first.author, first.derivation, first.batch) == (8, "red", "batch", 1)
    assert (first.value, first.index, first.of, first.side, first.turn) == (2, 0, "red", "red", 2)
    assert first.purpose == "strike:0301" and first.described == "the strike on 0301"
    assert first.effect == "blue-1 holds"
    assert (second.packet, second.author, second.derivation, second.batch) == (
        11,
        "blue",
        "batch",
        2,
    )
    assert (second.value, second.index, second.of, second.side) == (3, 1, "blue", "blue")
    assert second.purpose == "strike:0201" and second.effect == "red-1 eliminated"
    assert [(s.who, s.n, s.counts) for s in a.stats] == [
        ("blue", 1, (0, 0, 1, 0, 0, 0)),
        ("red", 1, (0, 1, 0, 0, 0, 0)),
        ("all", 2, (0, 1, 1, 0, 0, 0)),
    ]
    text = audit.format_audit(a)
    assert "Standing:    game over, Blue wins (elimination)\n" in text
    assert "Blue key:    " in text and "Red key:     " in text
    assert (
        "#8 Red resolution, batch 1: Red " in text and "#11 Blue resolution, batch 2: Blue " in text
    )
    assert v.game is not None
    history = [type(step.command).__name__ for step in v.game.history]
    turn_1 = ["Pick", "Pick", "Move", "EndPhase", "Move", "EndPhase"]
    assert history == [*turn_1, "Strike", "Roll", "EndPhase", "Strike", "Roll"]
    assert isinstance(v.game.history[7].events[0], DieRoll)


@needs_system_python
def test_the_dice_checker_agrees_with_the_audit(game: Any, tmp_path: Path) -> None:
    _, sent = game
    path = _file(sent, tmp_path)
    r = dice_check(path, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = json.loads(r.stdout)
    rolls = audit.audit(audit.verify(sources.load_source(str(path)), board_for)).rolls
    assert len(mine) == len(rolls) == 2
    for d, roll in zip(mine, rolls, strict=True):
        assert (d["packet"], d["draw"], d["value"], d["kind"], d["batch"]) == (
            roll.packet,
            roll.index,
            roll.value,
            roll.derivation,
            roll.batch,
        )
        assert d["seed"] == roll.seed and d["author"] == roll.author
        assert d["author_link"].startswith(roll.author_link)
        assert d["other_link"].startswith(roll.other_link) and d["reply"].startswith(roll.reply)
    lines = dice_check(path).stdout.splitlines()
    assert lines[-1] == "OK: 12 packets, 2 dice, each as its packet lists it"


@needs_system_python
@needs_ssh_keygen
def test_ssh_keygen_verifies_every_packet(game: Any, tmp_path: Path) -> None:
    """The checker's --ssh files: each packet's signed bytes, checked by the real ssh-keygen
    against the allowed_signers of the two keys the invitation and the acceptance carry."""
    _, sent = game
    folder = tmp_path / "ssh"
    assert dice_check(_file(sent, tmp_path), "--ssh", str(folder)).returncode == 0
    signers = folder / "allowed_signers"
    assert signers.read_text().splitlines()[0].startswith('red namespaces="ardennes" ssh-ed25519')
    for p in sent:
        name = f"{p.body.seq:06d}"
        r = ssh_keygen(
            "-Y", "verify", "-f", str(signers), "-I", p.body.author, "-n", "ardennes",
            "-s", str(folder / f"{name}.sig"), stdin=(folder / f"{name}.bin").read_bytes(),
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
    r = ssh_keygen(
        "-Y", "verify", "-f", str(signers), "-I", "blue", "-n", "ardennes",
        "-s", str(folder / "000000.sig"), stdin=(folder / "000000.bin").read_bytes(),
    )  # fmt: skip
    assert r.returncode != 0  # Red's invitation is not Blue's
