"""Glyphs and colours of the map, shared by ``ardennes map`` and the map viewer.

Every glyph is ASCII, so the map reads the same with and without colour (``NO_COLOR``) and on
any terminal; colour only reinforces what the glyph already says. Colours are named from the
16-colour ANSI palette only (Rich names such as ``bright_blue``), so they come out as the
terminal's own colours over SSH.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from rich.color import ColorSystem
from rich.style import Style

from ardennes_tui.render.picture import Line

# -- hexside glyphs (one per hexside cell; a plain hexside keeps its geometric / \ |) ----------
RIVER: Final = "~"
BRIDGE: Final = "="
FORD: Final = ":"
START_LINE: Final = "*"

# -- hex interior glyphs ------------------------------------------------------------------------
ROAD: Final = "."
TERRAIN_FILL: Final = {"clear": " ", "rough": "^", "impassable": "#"}
OVERVIEW_TERRAIN: Final = {"clear": ".", "rough": "^", "impassable": "#"}
FORTIFICATION: Final = {"westwall": "W", "fortified": "F"}
OVERVIEW_FORTIFICATION: Final = {"westwall": "w", "fortified": "f"}
OVERVIEW_ROAD: Final = "+"
OVERVIEW_EXIT: Final = "$"
OVERVIEW_UNITS: Final = {"german": "%", "allied": "@"}

STYLES: Final[dict[str, str]] = {
    "side": "bright_black",
    "river": "bold bright_blue",
    "bridge": "bold bright_white on blue",
    "ford": "bold black on cyan",
    "start": "bold magenta",
    "road": "bold red",
    "clear": "",
    "rough": "green",
    "impassable": "bright_black",
    "town": "bold",
    "fort": "bold yellow",
    "exit": "bold cyan",
    "margin": "",
    "edge": "cyan",
    "german": "bold black on white",
    "allied": "bold black on green",
    "heading": "bold",
}
"""Style name -> Rich style (16 ANSI colours and attributes only)."""

CURSOR: Final = Style(reverse=True)
REACH: Final = Style(bgcolor="blue")
"""Hexes the selected unit can reach (play screen), with colour."""
REACH_MONO: Final = Style(underline=True)
"""The same without colour (``NO_COLOR``): the reachable hexes are underlined."""


@cache
def rich_style(name: str) -> Style:
    """The Rich style of a style name (``""`` -> the null style)."""
    spec = STYLES.get(name, "")
    return Style.parse(spec) if spec else Style.null()


def ansi_line(line: Line) -> str:
    """One line with 16-colour ANSI escape sequences (SGR), reset after every styled run."""
    out: list[str] = []
    for text, name in line:
        if name and STYLES.get(name):
            out.append(rich_style(name).render(text, color_system=ColorSystem.STANDARD))
        else:
            out.append(text)
    return "".join(out).rstrip(" ")


def ansi_lines(lines: Iterable[Line]) -> list[str]:
    return [ansi_line(line) for line in lines]
