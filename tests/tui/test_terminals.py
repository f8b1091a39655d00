"""The real ``ardennes`` in tmux at 80x24 (issue 11, "Terminals"): 256 colours where the
terminal has them, 16 where it has not, none with ``NO_COLOR``; ASCII only on screen; a
resize to 79x24 and back keeps the cursor keys; the hand-over screen between the sides of a
hot-seat game. Skipped without tmux."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ardennes_tui.games import saves
from tests.kit.app import gt1_german_combat
from tests.kit.realmap import needs_real_map
from tests.kit.terminal import ARDENNES, Pane, start, tmux

pytestmark = [
    needs_real_map,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed"),
    pytest.mark.usefixtures("tmux_server"),
    pytest.mark.skipif(not ARDENNES.is_file(), reason="the ardennes command is not installed"),
]

POSITION = "GT1 16 Dec | German | Combat | VP German 0, Allied 0"


def sgr_codes(screen: str) -> set[str]:
    """Every SGR parameter on the screen (``38;5;245`` counts as ``38;5;245``)."""
    out: set[str] = set()
    for seq in re.findall(r"\x1b\[([0-9;]*)m", screen):
        parts = seq.split(";")
        i = 0
        while i < len(parts):
            if parts[i] in ("38", "48") and i + 2 < len(parts) and parts[i + 1] == "5":
                out.add(";".join(parts[i : i + 3]))
                i += 3
            else:
                out.add(parts[i])
                i += 1
    return out - {""}


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A game of scenario 1 at the German GT1 Combat Phase, ten attacks declared."""
    path = tmp_path / "gt1.jsonl"
    saves.save_game(gt1_german_combat("d"), path, None)
    return path


def app_pane(record: Path, **env: str) -> Iterator[Pane]:
    home = record.parent / "home"
    settings = {"ARDENNES_HOME": str(home), **env}
    yield from start(settings, [str(ARDENNES), "--load", record.name], cwd=record.parent)


@pytest.mark.parametrize(
    ("term", "colours"),
    [("xterm-256color", 256), ("xterm", 16)],
)
def test_colours_follow_the_terminal(record: Path, term: str, colours: int) -> None:
    for pane in app_pane(record, TERM=term):
        pane.wait_for(POSITION, "Units (1) @ Allied", timeout=20)
        codes = sgr_codes(pane.screen(escapes=True))
        extended = {c for c in codes if c.startswith(("38;5;", "48;5;"))}
        if colours == 256:
            # Allied counters and rough terrain from the 256-colour palette; hexsides, roads and
            # rivers, the most frequent glyphs, in the terminal's own 16 (fewer bytes, wire.py),
            # roads and rivers bright without bold (issue 21: fewer bytes again)
            assert {"48;5;107", "38;5;65"} <= extended
            assert {"90", "91"} <= codes
        else:
            assert not extended, extended
            assert codes & {"31", "32", "90"}  # roads, rough, hexsides
        assert pane.screen().isascii()


def test_no_color_has_no_colour_and_reads(record: Path) -> None:
    for pane in app_pane(record, TERM="xterm-256color", NO_COLOR="1"):
        screen = pane.wait_for(POSITION, "Units (1) @ Allied", timeout=20)
        codes = sgr_codes(pane.screen(escapes=True))
        assert codes <= {"0", "1", "2", "4", "7", "22", "24", "27", "39", "49"}, codes
        assert screen.isascii() and "e1-4" in screen


def test_the_command_palette_and_help_are_ascii(record: Path) -> None:
    """Ctrl+P (before: Textual's half-block edges and an ellipsis) and ``?``."""
    for pane in app_pane(record, TERM="xterm-256color"):
        pane.wait_for(POSITION, timeout=20)
        pane.keys("C-p")
        screen = pane.wait_for("Search for commands...")
        assert screen.isascii(), [line for line in screen.splitlines() if not line.isascii()]
        pane.keys("Escape")
        pane.wait_for(POSITION)
        pane.keys("?")
        screen = pane.wait_for("Help")
        assert screen.isascii(), [line for line in screen.splitlines() if not line.isascii()]


def test_a_resize_to_79x24_and_back_keeps_the_cursor_keys(record: Path) -> None:
    """Before: after 79x24 and back, arrows, hjkl and the keypad did nothing until ``?``."""
    for pane in app_pane(record, TERM="xterm-256color"):
        pane.wait_for(POSITION, "2328  clear Bastogne", timeout=20)
        tmux("resize-window", "-t", pane.session, "-x", "79", "-y", "24")
        pane.wait_for("Terminal too small")
        tmux("resize-window", "-t", pane.session, "-x", "80", "-y", "24")
        pane.wait_for(POSITION)
        pane.keys("l")
        pane.wait_for("2428  clear")
        pane.keys("Left")
        pane.wait_for("2328  clear Bastogne")
        pane.keys("KP_6")  # the keypad, Num Lock off or on
        pane.wait_for("2428  clear")


def test_the_hand_over_screen_hides_the_map(tmp_path: Path) -> None:
    """``ardennes --scenario 1``: accepting the Allied set-up passes the turn to the German;
    a screen asks to hand over, the map hidden, and Enter shows the German set-up."""
    env = {"TERM": "xterm-256color", "ARDENNES_HOME": str(tmp_path / "home")}
    for pane in start(env, [str(ARDENNES), "--scenario", "1", "--seed", "7"], cwd=tmp_path):
        pane.wait_for("GT1 16 Dec | Allied | Set-up", timeout=20)
        pane.keys("e")
        pane.wait_for("Press e again")
        pane.keys("e")
        screen = pane.wait_for("German player's turn: hand over, press Enter")
        assert "Units (" not in screen and "Hexsides" not in screen  # the map is hidden
        pane.keys("Enter")
        pane.wait_for("GT1 16 Dec | German | Set-up", "German set-up placed")
