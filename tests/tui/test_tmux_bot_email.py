"""A sealed Game-Turn against the computer by email, played by keys in the real app (issue 21).

Hans (German) starts ``ardennes --email new ... --dice sealed --opponent-bot`` in tmux at
80x24: the computer (``ardennes bot``, its own key and store) accepts and sets up at once.
By keys only: the German set-up, de-1-a placed, the first attack declared, and the standing
orders it needs asked for at once (the defaults proposed: End, Enter gives them); the ten
obligatory GT1 attacks declared as one batch, sealed (``x x``) and saved (``f``); the file
given to ``ardennes bot FILE -o ANSWER`` typed in a shell (a second tmux session, as the app's
notice says), the answer imported (``i``, its path); the batch resolved (``r``) and the
player-turn ended (``e e`` twice); that packet sealed and given to the bot, whose Allied
player-turn comes back and is imported: Hans's move in Game-Turn 2. ``ardennes verify``
passes on his store and ``ardennes audit`` finds the ten combat dice.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from pbem.store import Store
from tests.kit.tmux import Pane, session
from tests.kit.tmux_email import ARDENNES, GT1_ATTACKS, IMPORT, MARKS, PLACEHOLDER

pytestmark = MARKS


def end_phase(pane: Pane) -> None:
    pane.keys("e")
    pane.wait_for("Press e again")
    pane.keys("e")
    pane.wait_gone("Press e again")
    pane.settle()


def declare(pane: Pane, target: str, attackers: tuple[str, ...]) -> None:
    pane.go(target)
    pane.keys("a")
    pane.wait_for(f"Attack on {target}")
    for hex_id in attackers:
        pane.go(hex_id)
        pane.keys("Enter")
    pane.go(target)
    pane.keys("Enter")


def seal_and_save(pane: Pane, desk: Path, game: str, seq: int) -> Path:
    """``x x`` on packet ``seq``, then ``f`` on the send screen; Escape. The file saved."""
    pane.keys("x")
    pane.wait_for(f"Press x again to sign and send packet {seq}")
    pane.keys("x")
    pane.wait_for(f"Packet {seq} of game", "BEGIN ARDENNES")
    pane.keys("f")
    pane.wait_for("Saved to ")
    pane.keys("Escape")
    pane.wait_gone("BEGIN ARDENNES")
    path = desk / f"ardennes-{game[:8]}-{seq}.txt"
    assert path.is_file(), sorted(desk.iterdir())
    return path


def bot_answers(shell: Pane, sent: Path, answer: Path) -> None:
    """``ardennes bot SENT -o ANSWER`` typed in the shell; its exit status 0."""
    marker = f"exit-{answer.stem}"
    shell.type(f"{shlex.quote(str(ARDENNES))} bot {sent.name} -o {answer.name}; echo {marker}-$?")
    shell.keys("Enter")
    shell.wait_for(f"{marker}-0", timeout=60)
    assert answer.is_file()


def import_file(pane: Pane, path: Path, *expected: str) -> None:
    """``i``, the path typed on the dialog's first line, Ctrl+S; the report; Escape."""
    pane.keys("i")
    pane.wait_for(IMPORT)
    pane.settle(escapes=True)
    pane.keys("BTab")
    pane.settle(escapes=True)
    pane.type(str(path))
    pane.wait_for(path.name)
    pane.wait_gone(PLACEHOLDER)
    pane.keys("C-s")
    pane.wait_for(*expected)
    pane.keys("Escape")
    pane.wait_gone(IMPORT)


def test_a_sealed_game_turn_against_the_computer_by_email_by_keys(tmp_path: Path) -> None:
    home, desk = tmp_path / "store", tmp_path / "desk"
    desk.mkdir()
    env = {
        "TERM": "xterm-256color",
        "ARDENNES_HOME": str(home),
        "ARDENNES_CONFIG": str(home / "config.toml"),
    }
    subprocess.run(
        [str(ARDENNES), "keygen", "hans", "--no-passphrase"],
        env={**os.environ, **env},
        capture_output=True,
        check=True,
        timeout=60,
    )
    new = ("--email", "new", "--scenario", "1", "--side", "german", "--dice", "sealed")
    with (
        session([str(ARDENNES), *new, "--opponent-bot"], env, desk) as german,
        session(["sh"], env, desk) as shell,
    ):
        german.wait_for("Your move (packet 3)", "accepted by ardennes bot", timeout=30)
        (game,) = Store(home).game_ids()
        end_phase(german)  # the German set-up
        german.wait_for("1 reinforcement due", "de-1-a")
        german.go("4237")
        german.keys("Enter")
        german.wait_for("de-1-a enters at 4237 in Road Mode")
        end_phase(german)  # the Reinforcement Phase
        end_phase(german)  # the Supply Judgment Phase; Initial Movement is lost on GT1
        german.wait_for("Initial Movement Phase lost (AO-4.2c)")
        # The first attack: the standing orders a sealed batch needs are asked at once.
        first, *rest = GT1_ATTACKS
        declare(german, *first)
        german.wait_for("Standing orders: German", "resolved only after your")
        german.keys("End", "Enter")  # Give the proposed orders
        german.wait_for("German standing orders:", "advance strongest")
        for n, (target, attackers) in enumerate(rest, 2):
            declare(german, target, attackers)
            german.wait_for(f"{n} in the batch")
        orders = seal_and_save(german, desk, game, 3)

        # The computer's reply: its standing orders, by the bot in the shell; imported.
        bot_answers(shell, orders, desk / "reply.txt")
        import_file(german, desk / "reply.txt", "packet 4 (allied reply): accepted; your move")
        german.wait_for("Your opponent replied: resolve the attacks (r)")
        german.keys("r")
        german.wait_for("CRT: die")
        end_phase(german)  # the Combat Phase
        german.wait_for("Mechanized Movement")
        end_phase(german)  # the turn passes to the Allied player
        german.wait_for("The turn passes to your opponent. Packet 5 complete")
        resolution = seal_and_save(german, desk, game, 5)

        # The computer's Allied player-turn, imported: Hans's move in Game-Turn 2.
        bot_answers(shell, resolution, desk / "allied.txt")
        import_file(german, desk / "allied.txt", "packet 6 (allied orders): accepted; your move")
        german.wait_for("Your move (packet 7)")
        german.keys("q")
        german.wait_closed()

    done = subprocess.run(
        [str(ARDENNES), "verify", game],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"OK: game {game}, scenario 1, sealed dice, 7 packets")
    assert "Game-Turn 2, German reinforcement" in done.stdout
    audit = subprocess.run(
        [str(ARDENNES), "audit", game, "--json"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    rolls = [roll["purpose"] for roll in json.loads(audit.stdout)["rolls"]]
    assert sorted(rolls) == sorted(f"combat:{t}" for t, _ in GT1_ATTACKS)
