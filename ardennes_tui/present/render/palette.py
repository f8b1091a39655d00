"""Glyphs and colours of the map, shared by ``ardennes map`` and the map viewer.

Every glyph is ASCII, so the map reads the same with and without colour (``NO_COLOR``) and on
any terminal; colour only reinforces what the glyph already says. Two palettes:

- :data:`STYLES`, 16 colours: named from the ANSI palette only (Rich names such as
  ``bright_blue``), so they come out as the terminal's own colours over SSH (``ardennes map``,
  and the app on a terminal without 256 colours);
- :data:`STYLES_256`, used by the app where the terminal has 256 colours (``TERM``
  ``*-256color``, or true colour): field grey and olive counters, softer terrain; hexsides,
  roads and rivers stay in the 16 colours, which cost fewer bytes (``ardennes_tui/wire.py``).

Both read on dark and light backgrounds: no text in yellow, cyan, white or the dark ANSI blue
on the terminal's own background, and each side's counters on a background of their own that
is neither black nor white (German counters were black on white, invisible as counters on a
light terminal). ``tests/tui/test_palette_contrast.py`` measures it: every glyph colour has a
contrast of at least 3:1 (WCAG 2's figure for graphics) on black and on white, in xterm's
colours, but the 16-colour rough terrain (green) on white, 2.2:1 (the ``^`` says rough).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from rich.color import ColorSystem
from rich.style import Style

from ardennes_tui.present.render.picture import Line

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
    "fort": "bold black on yellow",
    "exit": "bold bright_blue",
    "margin": "",
    "edge": "bright_blue",
    "german": "bold bright_white on bright_black",
    "allied": "bold black on green",
    "heading": "bold",
}
"""Style name -> Rich style (16 ANSI colours and attributes only)."""

STYLES_256: Final[dict[str, str]] = {
    **STYLES,
    # The most frequent glyphs (hexsides, roads, rivers) keep the terminal's own 16 colours:
    # ESC[90m costs 5 bytes, ESC[38;5;245m 11, and a view jump repaints some 300 of them.
    # Roads and rivers in bright colours without bold: the colour after a hexside's grey
    # is then ESC[91m (5 bytes), not ESC[1;31m and back ESC[0;90m (7 each); a view jump
    # repaints some 200 of them.
    "road": "bright_red",
    "river": "bright_blue",
    "bridge": "bold color(231) on color(25)",
    "ford": "bold color(16) on color(44)",
    "start": "bold color(164)",
    "rough": "color(65)",
    "impassable": "color(241)",
    "fort": "bold color(16) on color(178)",
    "exit": "bold color(25)",
    "edge": "color(31)",
    "german": "bold color(255) on color(240)",
    "allied": "bold color(16) on color(107)",
}
"""The same in the 256-colour palette (mid tones that read on dark and light backgrounds)."""

CURSOR: Final = Style(reverse=True)
REACH: Final = Style(bgcolor="blue")
"""Hexes the selected unit can reach (play screen), with colour."""
REACH_MONO: Final = Style(underline=True)
"""The same without colour (``NO_COLOR``): the reachable hexes are underlined."""


@cache
def rich_style(name: str, colours: int = 16) -> Style:
    """The Rich style of a style name (``""`` -> the null style), from the palette of
    ``colours`` (16 or 256)."""
    spec = (STYLES_256 if colours >= 256 else STYLES).get(name, "")
    return Style.parse(spec) if spec else Style.null()


def colours_of(color_system: str | None) -> int:
    """The palette for a Rich console's colour system: 256 for ``256`` and ``truecolor``,
    else 16."""
    return 256 if color_system in ("256", "truecolor") else 16


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
