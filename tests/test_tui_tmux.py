"""End to end in a real terminal: the viewer inside tmux at 80x24 (skipped without tmux).

The app runs on the fixture map; the test polls ``tmux capture-pane`` for expected text
(keys are paced: one, then wait for its effect).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = (
    "from tests.fixtures_maps import fixture_map, fixture_units; "
    "from ardennes_tui.app import ArdennesApp; "
    "ArdennesApp(fixture_map(), fixture_units(), cursor='0605').run()"
)

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=10
    ).stdout


class Pane:
    def __init__(self, session: str) -> None:
        self.session = session

    def screen(self, escapes: bool = False) -> str:
        return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", self.session)

    def wait_for(self, *texts: str, timeout: float = 8.0) -> str:
        """Poll until every one of ``texts`` is on screen (a frame may arrive in pieces)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{texts!r} not on screen:\n{screen}")
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        tmux("send-keys", "-t", self.session, *keys)


def start(env: dict[str, str]) -> Iterator[Pane]:
    session = f"ardennes-test-{os.getpid()}-{time.monotonic_ns()}"
    settings = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    command = (
        f"cd {shlex.quote(str(ROOT))} && env {settings} {sys.executable} -c {shlex.quote(LAUNCH)}"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        yield Pane(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)


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
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if subprocess.run(
            ["tmux", "has-session", "-t", pane.session], capture_output=True
        ).returncode:
            break  # the app quit and the session ended
        time.sleep(0.05)
    else:
        raise AssertionError("q did not quit")


def test_no_color_xterm(plain_pane: Pane) -> None:
    plain_pane.wait_for("Hex 0605", "| detail |", "p6-3", "W  07", "Units (1)")
    colours = re.findall(r"\x1b\[([0-9;]*)m", plain_pane.screen(escapes=True))
    codes = {c for seq in colours for c in seq.split(";") if c}
    # Only attributes (bold, reverse, reset) and the default colours: no colour at all.
    assert codes <= {"0", "1", "7", "22", "27", "39", "49"}, codes
