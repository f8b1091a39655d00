"""Driving a real terminal program in tmux for end-to-end tests.

:func:`session` runs a command in a new detached tmux session of 80x24 and always kills the
session afterwards; :class:`Pane` sends keys (paced by the tests: one, then wait for its
effect), pastes text, resizes the window and polls ``tmux capture-pane`` for expected text.
Every call has a timeout: nothing here can hang a test run. Used by the email game in tmux
(``tests/tui/test_tmux_email.py``) and the OpenSSH test (``tests/ssh/``).
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from rules import hexgrid

HAVE_TMUX = shutil.which("tmux") is not None

KEY_OF_DIRECTION = {"NE": "u", "E": "l", "SE": "n", "SW": "b", "W": "h", "NW": "y"}
"""The map's cursor keys (``ardennes_tui/present/keymap.py``, ``map.*``) by hex direction."""

HEX = re.compile(r"\bHex (\d{4})\b")


def tmux(*args: str, timeout: float = 10.0) -> str:
    """Run one tmux command; its standard output."""
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=timeout
    ).stdout


def hex_keys(start: str, goal: str) -> list[str]:
    """The cursor keys that walk the map's cursor from hex ``start`` to hex ``goal``."""
    path = hexgrid.line(start, goal)
    return [
        KEY_OF_DIRECTION[hexgrid.DIRECTIONS[hexgrid.direction_to(a, b)]]
        for a, b in itertools.pairwise(path)
    ]


def shown(text: str, screen: str) -> bool:
    """Whether ``text`` is on ``screen``: on one line, or wrapped over consecutive lines (a
    wrap replaces a space; the lines are joined with one space)."""
    if text in screen:
        return True
    flat = " ".join(line.strip() for line in screen.splitlines() if line.strip())
    return text in flat


class Pane:
    """The one pane of tmux session ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cursor: str | None = None
        """Where :meth:`go` last put the map's cursor (the side panel, which names it, may be
        too long to show the name)."""

    def screen(self, escapes: bool = False) -> str:
        """The visible screen, one line a row (``escapes``: with the SGR sequences). Fails
        when the program has ended (its session with it)."""
        try:
            return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", self.name)
        except subprocess.CalledProcessError as exc:
            raise AssertionError(f"the program has ended (tmux: {exc.stderr.strip()})") from exc

    def wait_for(self, *texts: str, timeout: float = 10.0) -> str:
        """Poll until every one of ``texts`` is on screen, on one line or wrapped over several
        (a frame may arrive in pieces); the screen. Fails naming what is missing and showing
        the screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            missing = [t for t in texts if not shown(t, screen)]
            if not missing:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{missing!r} not on screen:\n{screen}")
            time.sleep(0.05)

    def wait_gone(self, text: str, timeout: float = 10.0) -> str:
        """Poll until ``text`` is no longer on screen (not even wrapped); the screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if not shown(text, screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} still on screen:\n{screen}")
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        """Send tmux key names (``e``, ``Enter``, ``Escape``, ``C-s``, ``BTab``...)."""
        tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        """Type ``text`` literally, one key a character."""
        tmux("send-keys", "-t", self.name, "-l", text)

    def paste(self, text: str) -> None:
        """Paste ``text`` as a terminal paste (bracketed when the program asks for it)."""
        buffer = f"{self.name}-paste"
        subprocess.run(
            ["tmux", "load-buffer", "-b", buffer, "-"],
            input=text,
            text=True,
            check=True,
            capture_output=True,
            timeout=10,
        )
        tmux("paste-buffer", "-p", "-d", "-b", buffer, "-t", self.name)

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the program gets SIGWINCH)."""
        tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def size(self) -> tuple[int, int]:
        width, height = tmux(
            "display-message", "-p", "-t", self.name, "#{pane_width} #{pane_height}"
        ).split()
        return int(width), int(height)

    def alternate_screen(self) -> bool:
        """Whether the program switched to the terminal's alternate screen (a full-screen app)."""
        return tmux("display-message", "-p", "-t", self.name, "#{alternate_on}").strip() == "1"

    def wait_alternate_screen(self, timeout: float = 10.0) -> None:
        """Poll until the program has switched to the alternate screen."""
        deadline = time.monotonic() + timeout
        while not self.alternate_screen():
            if time.monotonic() > deadline:
                raise AssertionError(f"no full-screen program:\n{self.screen()}")
            time.sleep(0.05)

    def cursor_hex(self) -> str:
        """The hex under the map's cursor, as the side panel names it (``Hex 2328``)."""
        found = HEX.findall(self.screen())
        assert found, f"no hex on screen:\n{self.screen()}"
        return found[0]

    def settle(self, quiet: float = 0.15, timeout: float = 10.0, escapes: bool = False) -> str:
        """Poll until the screen has not changed for ``quiet`` seconds (``escapes``: its
        colours and attributes too, such as the focus); the screen."""
        deadline = time.monotonic() + timeout
        screen, since = self.screen(escapes), time.monotonic()
        while time.monotonic() - since < quiet:
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never settled:\n{self.screen()}")
            time.sleep(0.03)
            now = self.screen(escapes)
            if now != screen:
                screen, since = now, time.monotonic()
        return self.screen() if escapes else screen

    def go(self, goal: str) -> str:
        """Walk the map's cursor to hex ``goal`` with the cursor keys, from where the last
        walk ended (else from the hex the panel names); the screen once it settles. The keys
        reach the app in order, so the next key acts on ``goal`` (the panel may be too long
        to show the hex's name: what the next key does says where the cursor is)."""
        steps = hex_keys(self.cursor or self.cursor_hex(), goal)
        for start in range(0, len(steps), 8):
            self.keys(*steps[start : start + 8])
        self.cursor = goal
        return self.settle()

    def alive(self) -> bool:
        return (
            subprocess.run(
                ["tmux", "has-session", "-t", self.name], capture_output=True, timeout=10
            ).returncode
            == 0
        )

    def wait_closed(self, timeout: float = 10.0) -> None:
        """Poll until the program has ended (its tmux session ends with it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return
            time.sleep(0.05)
        raise AssertionError(f"the program did not end:\n{self.screen()}")


@contextmanager
def session(
    argv: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    *,
    width: int = 80,
    height: int = 24,
) -> Iterator[Pane]:
    """Run ``argv`` in ``cwd`` with ``env`` added to this environment, in a new detached tmux
    session of ``width`` x ``height``; the session is killed on the way out, whatever
    happened."""
    assert os.environ.get("TMUX_TMPDIR"), "the test needs the tmux_server fixture"
    name = f"ardennes-test-{os.getpid()}-{time.monotonic_ns()}"
    settings = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    command = f"cd {shlex.quote(str(cwd))} && exec env {settings} {shlex.join(argv)}"
    tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command)
    try:
        yield Pane(name)
    finally:
        subprocess.run(
            ["tmux", "kill-session", "-t", name], capture_output=True, check=False, timeout=10
        )
