"""The app in a real terminal: a command in a detached tmux session of 80x24 (the tests'
own tmux server: the ``tmux_server`` fixture), polled with ``tmux capture-pane``."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Generator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARDENNES = Path(sys.executable).with_name("ardennes")
"""The ``ardennes`` console script of this environment."""
LAUNCH = (
    "from tests.kit.maps import fixture_map, fixture_units; "
    "import ardennes_tui.rulesets; from ardennes_tui.app import ArdennesApp; "
    "ArdennesApp(fixture_map(), fixture_units(), cursor='0605').run()"
)


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

    def wait_closed(self, timeout: float = 5.0) -> None:
        """Poll until the app has quit (its tmux session ends with it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if subprocess.run(
                ["tmux", "has-session", "-t", self.session], capture_output=True
            ).returncode:
                return
            time.sleep(0.05)
        raise AssertionError(f"the app did not quit:\n{self.screen()}")


def start(
    env: dict[str, str], argv: list[str] | None = None, cwd: Path = ROOT
) -> Generator[Pane, None, None]:
    """Run ``argv`` (default: the viewer on the fixture map) in ``cwd`` in a new detached
    tmux session of 80x24; kill the session afterwards."""
    assert os.environ.get("TMUX_TMPDIR"), "the test needs the tmux_server fixture"
    session = f"ardennes-test-{os.getpid()}-{time.monotonic_ns()}"
    settings = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    argv = argv or [sys.executable, "-c", LAUNCH]
    command = f"cd {shlex.quote(str(cwd))} && env {settings} {shlex.join(argv)}"
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        yield Pane(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
