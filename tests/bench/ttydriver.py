"""The real ``ardennes`` app in a pseudo-terminal, driven by keys, every output byte counted.

:class:`Tty` starts a command under a pty of a given size (``TIOCSWINSZ``) and ``TERM``, as an
SSH session would, and reads what the app writes: :meth:`Tty.settle` reads until the output
has been quiet for a while (the frame is complete), :meth:`Tty.press` sends one key and returns
its :class:`Cost` (bytes written in answer, time to the first byte, time to the settled frame).
The benchmark (``tests/bench/test_bench_tty.py``) uses it to measure what a key costs on the
wire; nothing here is timed in the normal suite.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import rules.ao
import scenarios
from rules.ao.bots import BotRng, bots_for

QUIET: Final = 0.15
"""Seconds without output after which a frame counts as complete."""
KEYS: Final[dict[str, bytes]] = {
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
}


@dataclass(frozen=True)
class Cost:
    """What one key cost: ``nbytes`` written in answer, ``first`` seconds to the first byte
    (None: nothing was written), ``settled`` seconds until the output was quiet."""

    key: str
    nbytes: int
    first: float | None
    settled: float


def app_env(home: Path) -> dict[str, str]:
    """A clean environment for the app under test: ``home`` as HOME, its store inside."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "ARDENNES_HOME": str(home / "store"),
        "LANG": "C.UTF-8",
    }


class Tty:
    """``argv`` running under a pty of ``cols`` x ``rows``."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cols: int = 80,
        rows: int = 24,
        term: str = "xterm-256color",
    ) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full = {**env, "TERM": term, "COLUMNS": str(cols), "LINES": str(rows)}
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=full,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.screen = bytearray()
        """Everything written so far."""

    def _read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return b""

    def settle(self, quiet: float = QUIET, limit: float = 15.0) -> tuple[int, float | None, float]:
        """Read until nothing came for ``quiet`` seconds (at most ``limit``): bytes read, the
        time to the first of them, the time to the last."""
        start = time.monotonic()
        first: float | None = None
        last = start
        n = 0
        while time.monotonic() - start < limit:
            chunk = self._read(quiet)
            if not chunk:
                if n or time.monotonic() - start > limit / 3:
                    break
                continue
            now = time.monotonic()
            if first is None:
                first = now - start
            last = now
            n += len(chunk)
            self.screen += chunk
        return n, first, last - start

    def wait_for(self, text: bytes, limit: float = 20.0) -> float:
        """Read until ``text`` has appeared in the output; seconds since the start."""
        deadline = time.monotonic() + limit
        while text not in self.screen:
            if time.monotonic() > deadline:
                tail = bytes(self.screen[-300:])
                raise TimeoutError(f"{text!r} never appeared; last output {tail!r}")
            self.screen += self._read(0.05)
        return time.monotonic() - self.started

    def press(self, key: str) -> Cost:
        """Send ``key`` (a name of :data:`KEYS` or literal characters) and read its answer."""
        os.write(self.master, KEYS.get(key, key.encode()))
        n, first, settled = self.settle()
        return Cost(key, n, first, settled)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        os.close(self.master)


WHERE = (2, "allied", "initial_movement")


def record_at(path: Path) -> Path:
    """A hot-seat record of scenario 1 played by the bots up to :data:`WHERE`."""
    board = scenarios.load_board(1)
    seed = b"tty-bench"
    game = rules.ao.Game.new(
        board, dice=rules.SeededDice(seed), dice_spec=rules.DiceSpec.seeded(seed)
    )
    bots = bots_for(BotRng(b"tty-bench"))
    while (game.state.turn, game.state.side, game.state.phase) != WHERE:
        side = rules.ao.acting_side(game.state)
        assert side is not None
        r = game.push(bots[side].choose(game))
        assert not isinstance(r, rules.Rejection), r
    path.write_bytes(rules.record.encode(game.record()))
    return path
