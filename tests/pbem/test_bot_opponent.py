"""``ardennes bot``: the computer as an email opponent, a player of its own (its own key and
store, ``pbem.opponent``). A human plays through files only - ``invite``, ``orders`` (his
commands chosen by the heuristic bot on a thrown-away draft, as in ``test_email_cli``),
``import`` - and the bot answers each mailing through ``ardennes bot FILE -o FILE``; the game is
verified at the end with ``ardennes verify``, sealed dice (commit-reveal with a real
counterpart) and open."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules.ao
from pbem.opponent import BotOpponent
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.email_players import Player, bot_commands
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture
def hans(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Player:
    return Player("hans", tmp_path, monkeypatch, capsys)


def bot(hans: Player, bot_home: Path, sent: Path) -> Path:
    """``ardennes bot SENT --home BOT -o ANSWER``: the answer's file."""
    hans.files += 1
    answer = hans.home / f"answer-{hans.files}.txt"
    code, out, err = hans.run("bot", sent, "--home", bot_home, "-o", answer)
    assert code == 0, err
    assert out == "" and f"written to {answer}" in err
    return answer


def play(hans: Player, bot_home: Path, game_id: str, turns: int) -> int:
    """Hans plays his packets through ``orders`` and mails them to the bot, imports its answers,
    until Game-Turn ``turns`` is over; the number of mailings."""
    bots = bots_for(BotRng(b"human-vs-bot"))
    mailings = 0
    while True:
        g = hans.service().load(game_id)
        want = g.expects()
        assert g.game is not None
        if want is None or g.game.state.turn > turns:
            return mailings
        assert want[0] == "german", want  # the bot never leaves a packet of its own unwritten
        cmds = bot_commands(hans.service(), game_id, hans.me, bots)
        jsonl = hans.file("".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds))
        sent = hans.home / f"sent-{mailings}.txt"
        hans.ok("orders", game_id[:8], "--commands", jsonl, "-o", sent)
        answer = bot(hans, bot_home, sent)
        for line in hans.ok("import", answer).splitlines():
            assert ": accepted; " in line, line
        mailings += 1


@pytest.mark.parametrize(("dice", "turns"), [("sealed", 2), ("open", 2)])
def test_a_game_against_the_bot_by_email(
    hans: Player, tmp_path: Path, dice: str, turns: int
) -> None:
    bot_home = tmp_path / "bot"
    inv = hans.home / "invitation.txt"
    code, _, err = hans.run(
        "invite",
        "--scenario",
        1,
        "--side",
        "german",
        "--dice",
        dice,
        "--opponent",
        "bot",
        "-o",
        inv,
    )
    assert code == 0, err
    game_id = err.split()[1].rstrip(":")
    answer = bot(hans, bot_home, inv)
    report = hans.ok("import", answer)
    assert report.startswith(f"game {game_id[:8]} packet 1 (allied acceptance): accepted")
    # the bot plays the Allied set-up at once: it is in the same answer
    assert f"game {game_id[:8]} packet 2 (allied " in report
    mailings = play(hans, bot_home, game_id, turns)
    assert mailings >= (8 if dice == "sealed" else 2)
    # the same packets in both stores, and the whole game verifies
    assert Store(hans.home).packets(game_id) == Store(bot_home).packets(game_id)
    ok = hans.ok("verify", game_id[:8])
    assert ok.startswith(f"OK: game {game_id}, scenario 1, {dice} dice, "), ok
    assert f"Game-Turn {turns + 1}" in ok
    bot_key = BotOpponent(bot_home).identity().fingerprint
    assert f"Allied key {bot_key}" in ok


def test_the_bot_accepts_and_says_so(hans: Player, tmp_path: Path) -> None:
    inv = hans.home / "invitation.txt"
    code, _, err = hans.run(
        "invite", "--scenario", 3, "--side", "allied", "--dice", "sealed", "-o", inv
    )
    assert code == 0, err
    game_id = err.split()[1].rstrip(":")
    code, out, err = hans.run("bot", inv, "--home", tmp_path / "b")
    assert code == 0
    assert "-----BEGIN ARDENNES PACKET-----" in out
    lines = err.splitlines()
    assert lines[0] == (
        f"game {game_id[:8]}: accepted, scenario 3, the bot plays the German, sealed dice"
    )
    assert lines[-1] == f"game {game_id[:8]}: waiting for the allied player (you): Allied set-up"
    # nothing new: --game writes again what the human has not seen
    code, again, err = hans.run("bot", "--game", game_id[:6], "--home", tmp_path / "b")
    assert code == 0 and again == out


def test_usage_and_refusals(hans: Player, tmp_path: Path) -> None:
    code, out, err = hans.run("bot", "--home", tmp_path / "b")
    assert code == 2 and "bot needs FILE" in err
    junk = hans.file("no packets here\n")
    code, out, err = hans.run("bot", junk, "--home", tmp_path / "b")
    assert code == 1 and out == "" and "no armoured packet found" in err
    code, out, err = hans.run("bot", "--game", "abcdef", "--home", tmp_path / "b")
    assert code == 1 and err.startswith("ardennes: ")
