"""End to end in a real terminal: the app inside tmux at 80x24 (skipped without tmux).

The viewer runs on the fixture map; a hot-seat game runs the real ``ardennes`` command on the
shipped map. The tests poll ``tmux capture-pane`` for expected text (keys are paced: one, then
wait for its effect).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules.ao
from pbem.store import Store
from rules import record
from tests.kit.realmap import needs_real_map
from tests.kit.terminal import ARDENNES, Pane, start

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed"),
    pytest.mark.usefixtures("tmux_server"),
]


@pytest.fixture
def pane() -> Iterator[Pane]:
    yield from start({"TERM": "xterm-256color"})


@pytest.fixture
def plain_pane() -> Iterator[Pane]:
    yield from start({"TERM": "xterm", "NO_COLOR": "1"})


def test_viewer_in_tmux(pane: Pane) -> None:
    pane.wait_for("Hex 0605", "Town Bastogne", "| detail |", "p6-3", "W  07")
    pane.keys("l")
    pane.wait_for("Hex 0705")
    pane.keys("z")
    pane.wait_for("| overview |", "05 $ + +=+ + @", "10  . . .~.")
    pane.keys("q")
    pane.wait_closed()


def test_no_color_xterm(plain_pane: Pane) -> None:
    plain_pane.wait_for("Hex 0605", "| detail |", "p6-3", "W  07", "Units (1)")
    colours = re.findall(r"\x1b\[([0-9;]*)m", plain_pane.screen(escapes=True))
    codes = {c for seq in colours for c in seq.split(";") if c}
    # Only attributes (bold, reverse, reset) and the default colours: no colour at all.
    assert codes <= {"0", "1", "7", "22", "27", "39", "49"}, codes


@needs_real_map
@pytest.mark.skipif(not ARDENNES.is_file(), reason="the ardennes command is not installed")
def test_hot_seat_game_in_the_store_quit_and_resumed(tmp_path: Path) -> None:
    """``ardennes --scenario 1 --seed 7``: both historical set-ups accepted (``e`` ``e``
    twice), the German GT1 Reinforcement Phase is shown, and the game is already in the store
    (``$ARDENNES_HOME``); ``s`` names it, ``q`` quits; ``ardennes games`` lists it and says how
    to resume; ``ardennes --resume`` goes on in the same phase with the game's seed, and ``s``
    ``s`` exports a copy to ``ardennes-s1.jsonl``, which ``ardennes --load`` opens (its seed
    wins over ``--seed``) without ever writing it."""
    home = tmp_path / "home"
    env = {"TERM": "xterm-256color", "ARDENNES_HOME": str(home)}
    store = Store(home)
    log = tmp_path / "ardennes-s1.jsonl"
    # on Bastogne the whole position line is too long for 80 columns: its short form
    position = "GT1 16 Dec | German | Reinf. | VP G 0, A 0"
    due = "1 reinforcement due: ] jumps to an entry hex, Enter places de-1-a"
    panel = ("Reinforcements GT1", ">de-1-a (6 hexes)")
    exported = "Saved 2 orders to ardennes-s1.jsonl (ardennes --load ardennes-s1.jsonl)"

    game = start(env, [str(ARDENNES), "--scenario", "1", "--seed", "7"], cwd=tmp_path)
    pane = next(game)
    try:
        pane.wait_for(
            "GT1 16 Dec | Allied | Set-up | VP German 0, Allied 0", "Dice seed 7.", timeout=20
        )
        pane.wait_for("Allied set-up placed (historical): e accepts it")
        pane.keys("e")
        pane.wait_for("Press e again to accept the Allied set-up")
        pane.keys("e")
        pane.wait_for("German player's turn: hand over, press Enter")  # the map is hidden
        pane.keys("Enter")
        pane.wait_for(
            "GT1 16 Dec | German | Set-up | VP German 0, Allied 0", "German set-up placed"
        )
        pane.keys("e")
        pane.wait_for("Press e again to accept the German set-up")
        pane.keys("e")
        # the phase's hint is longer than a line: it wraps under the position line
        pane.wait_for(due, *panel)
        (info,) = store.list_local()  # saved after every order, no key needed
        name = info.name[:8]
        rec = record.decode(store.load_local(info.name))  # the game record (rules.record)
        assert (rec.header.scenario, rec.header.dice.text) == (1, "7")
        assert rec.commands == (rules.ao.EndPhase(), rules.ao.EndPhase())
        pane.keys("s")
        pane.wait_for(f"Saved in the store as {name} after every order (ardennes --resume")
        assert not log.exists()
        pane.keys("q")
        pane.wait_closed()
    finally:
        game.close()

    listed = subprocess.run(
        [str(ARDENNES), "games"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=20,
    ).stdout
    assert f"\n{name}  1   Both  -     GT1 Reinforcement  " in listed
    assert "ardennes --resume NAME" in listed

    game = start(env, [str(ARDENNES), "--resume"], cwd=tmp_path)
    pane = next(game)
    try:
        # a long message: it wraps under the position line
        pane.wait_for(f"Hot-seat game {name} resumed: 2 orders replayed", *panel, timeout=20)
        pane.keys("s")
        pane.wait_for("s again exports a copy to ardennes-s1.jsonl")
        pane.keys("s")
        screen = pane.wait_for(exported, f" {position} ")
        lines = screen.splitlines()  # the position line, then the message area (2 lines)
        assert f" {position} " in lines[-3] and exported in lines[-2]
        assert record.decode(log.read_bytes()).commands == rec.commands
        pane.keys("q")
        pane.wait_closed()
    finally:
        game.close()

    before = log.read_bytes()
    argv = [str(ARDENNES), "--load", log.name, "--seed", "other"]
    game = start(env, argv, cwd=tmp_path)
    pane = next(game)
    try:
        pane.wait_for("Dice seed 7. " + due, *panel, timeout=20)
        pane.keys("s")
        pane.wait_for("s again exports a copy to ardennes-s1-2.jsonl")
        pane.keys("q")
        pane.wait_closed()
    finally:
        game.close()
    assert log.read_bytes() == before  # a loaded file is never written
    assert len(store.list_local()) == 2  # the loaded game went on under a name of its own
