"""The start screen in a real terminal (tmux, 80x24; skipped without tmux): ``ardennes`` alone
opens it, ``n`` ``3`` starts a hot-seat game of scenario 3 in its own app, ``q`` in the game
comes back to the start screen with the game listed, Enter resumes it, ``w`` plays a record
back, and ``q`` on the start screen quits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import record_file
from tests.kit.terminal import ARDENNES, start

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed"),
    pytest.mark.usefixtures("tmux_server"),
]


@needs_real_map
@pytest.mark.skipif(not ARDENNES.is_file(), reason="the ardennes command is not installed")
def test_start_screen_new_game_back_resume_watch_quit(tmp_path: Path) -> None:
    env = {"TERM": "xterm-256color", "ARDENNES_HOME": str(tmp_path / "home")}
    path = record_file(tmp_path)
    for pane in start(env, [str(ARDENNES)], cwd=tmp_path):
        pane.wait_for("Your games", "No games yet", "n  New hot-seat")
        pane.keys("n")
        pane.wait_for("which scenario?", "German deliberate deployment")
        pane.keys("3")
        pane.wait_for("GT1 16 Dec | Allied | Set-up")
        pane.keys("q")
        pane.wait_for("Your games", "hot-seat  3   GT1 Set-up")
        pane.keys("Enter")
        pane.wait_for("resumed: 0 orders replayed and checked")
        pane.keys("q")
        pane.wait_for("Your games")
        pane.keys("w")
        pane.wait_for("Watch a record or a game")
        pane.keys(str(path), "Enter")
        pane.wait_for("Step 0 of", "Record self")
        pane.keys("Right")
        pane.wait_for("Step 1 of")
        pane.keys("Escape")
        pane.wait_for("Your games")
        pane.keys("q")
        pane.wait_closed()
