"""The detailed map: pointy-topped ASCII hexes with every hexside drawn.

Geometry (``docs/hex-grid.md``): a hex is 6 cells wide and its rows are 3 lines apart; rows
that are shifted east on the map are drawn 3 cells further east. A hex with its west side at
column ``x`` and its middle line at ``y`` looks like this (``.`` = its 13 interior cells)::

       / \\          y-2   top apex      (x+3)
      /...\\         y-1   upper line    (x+2 .. x+4)
     |.....|        y     middle line   (x+1 .. x+5)
      \\.../         y+1   lower line    (x+2 .. x+4)
       \\ /          y+2   bottom apex   (x+3)

Each hexside cell belongs to exactly one hexside (diagonal sides take two cells, vertical
sides one), so neighbouring hexes share their side glyphs and the picture tiles with no gaps.

Interior: the middle line holds the town abbreviation (or the top unit counter); roads are
drawn from the centre towards each road hexside with ``.``; the cell above the centre holds the
fortification (``W``/``F``), the lower line the road-exit victory points; other cells are
filled with the terrain glyph. A hex with units shows its top counter (``A6-10``, ``i4-4``)
on the middle line, never cut: a counter too wide for the hex's five cells (``A10-10``) has
its type letter on the upper line, west of the centre. On the upper line too, a town under
units keeps a three-letter code (``Bas`` Bastogne, ``StV`` St. Vith). The lower line holds
the stack size (``+2``: two more units) after ``r`` when a unit of the stack is in Road
Mode::

       / \\              / \\
      /Bas\\            /A.W\\
     |i4-4 |          |10-10|
      \\r+1/            \\.  /
       \\ /              \\ /
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from ardennes_tui.present.render import palette as P
from ardennes_tui.present.render.counters import (
    UnitsByHex,
    counter_short,
    counter_values,
    type_letter,
)
from ardennes_tui.present.render.names import town_abbreviations, town_codes
from ardennes_tui.present.render.picture import Canvas, Picture, Span
from rules import hexgrid
from rules.ao import GameMap
from rules.hexgrid import HexId

ROAD_MODE_MARK: Final = "r"
"""On the lower line of a hex where a unit is in Road Mode (AO-6)."""
HEX_W: Final = 6
ROW_H: Final = 3
SHIFT: Final = 3
LEFT: Final = 6
"""Left margin: edge section (3) and row number (2) and a blank."""
TOP: Final = 2
"""Top margin: edge sections, then column numbers."""
RIGHT: Final = 8
BOTTOM: Final = 2

# Hexside cells relative to (x, y), per direction (index into hexgrid.DIRECTIONS).
_SIDE_CELLS: Final[tuple[tuple[tuple[int, int, str], ...], ...]] = (
    ((4, -2, "\\"), (5, -1, "\\")),  # NE
    ((6, 0, "|"),),  # E
    ((5, 1, "/"), (4, 2, "/")),  # SE
    ((1, 1, "\\"), (2, 2, "\\")),  # SW
    ((0, 0, "|"),),  # W
    ((1, -1, "/"), (2, -2, "/")),  # NW
)
# The interior cell next to each hexside, where a road leaves the hex.
_ROAD_CELLS: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    ((4, -1),),  # NE
    ((4, 0), (5, 0)),  # E
    ((4, 1),),  # SE
    ((2, 1),),  # SW
    ((1, 0), (2, 0)),  # W
    ((2, -1),),  # NW
)
INTERIOR: Final[tuple[tuple[int, int, int], ...]] = (
    (-2, 3, 4),
    (-1, 2, 5),
    (0, 1, 6),
    (1, 2, 5),
    (2, 3, 4),
)
"""Interior spans ``(dy, dx_start, dx_end)`` of a hex, top to bottom."""


def origin(col: int, row: int) -> tuple[int, int]:
    """``(x, y)`` of the west side of hex ``(col, row)`` on its middle line."""
    x = LEFT + HEX_W * (col - 1) + (SHIFT if hexgrid.is_shifted(row) else 0)
    y = TOP + 2 + ROW_H * (row - 1)
    return x, y


def size(columns: int, rows: int) -> tuple[int, int]:
    """``(width, height)`` of the whole picture, margins included."""
    return LEFT + HEX_W * columns + SHIFT + 1 + RIGHT, TOP + ROW_H * rows + 2 + BOTTOM


def side_glyph(game_map: GameMap, a: HexId, b: HexId | None, plain: str) -> tuple[str, str]:
    """Glyph and style name of the hexside between ``a`` and ``b`` (``b`` off the map: plain)."""
    if b is None or b not in game_map:
        return plain, "side"
    s = game_map.side(a, b)
    if s.river is not None:
        if s.crossing == "bridge":
            return P.BRIDGE, "bridge"
        if s.crossing == "ford":
            return P.FORD, "ford"
        return P.RIVER, "river"
    if s.start_line:
        return P.START_LINE, "start"
    return plain, "side"


def draw_detail(
    game_map: GameMap, units: UnitsByHex | None = None, road: Collection[str] = ()
) -> Picture:
    """Draw the whole map in the detailed layout, margins and edge sections included;
    ``road``: the ids of the units in Road Mode (marked ``r``)."""
    width, height = size(game_map.columns, game_map.rows)
    canvas = Canvas(width, height)
    names = _Names(town_abbreviations(game_map), town_codes(game_map, 3))
    spans: dict[HexId, tuple[Span, ...]] = {}
    for hex_id in game_map:
        col, row = hexgrid.parse(hex_id)
        x, y = origin(col, row)
        _draw_hex(canvas, game_map, hex_id, x, y, names, units)
        _draw_stack(canvas, game_map, hex_id, x, y, names, units, road)
        spans[hex_id] = tuple((y + dy, x + a, x + b) for dy, a, b in INTERIOR)
    _draw_margins(canvas, game_map)
    return canvas.freeze(spans)


class _Names:
    """The town names a hex has room for: five letters alone, three above a counter."""

    def __init__(self, abbrev: dict[str, str], codes: dict[str, str]) -> None:
        self.abbrev = abbrev
        self.codes = codes


def _draw_hex(
    canvas: Canvas,
    game_map: GameMap,
    hex_id: HexId,
    x: int,
    y: int,
    names: _Names,
    units: UnitsByHex | None,
) -> None:
    h = game_map.hex(hex_id)
    nbrs = hexgrid.neighbours(hex_id)
    for d, cells in enumerate(_SIDE_CELLS):
        for dx, dy, plain in cells:
            glyph, style = side_glyph(game_map, hex_id, nbrs[d], plain)
            canvas.put(x + dx, y + dy, glyph, style)
    fill = P.TERRAIN_FILL[h.terrain]
    for dy, a, b in INTERIOR:
        for dx in range(a, b):
            canvas.put(x + dx, y + dy, fill, h.terrain)
    road = False
    for d, road_cells in enumerate(_ROAD_CELLS):
        n = nbrs[d]
        if n is not None and n in game_map and game_map.side(hex_id, n).road:
            road = True
            for dx, dy in road_cells:
                canvas.put(x + dx, y + dy, P.ROAD, "road")
    if road:
        canvas.put(x + 3, y, P.ROAD, "road")
    if h.fortification is not None:
        canvas.put(x + 3, y - 1, P.FORTIFICATION[h.fortification], "fort")
    if h.exit_vp is not None:
        vp = str(h.exit_vp)[:3]
        canvas.text(x + 2 + (3 - len(vp)) // 2, y + 1, vp, "exit")
    stack = units.get(hex_id, ()) if units else ()
    if not stack and h.town is not None:
        name = names.abbrev[h.town]
        canvas.text(x + 1 + (5 - len(name)) // 2, y, name, "town")


def _draw_stack(
    canvas: Canvas,
    game_map: GameMap,
    hex_id: HexId,
    x: int,
    y: int,
    names: _Names,
    units: UnitsByHex | None,
    road: Collection[str],
) -> None:
    """The top counter, whole; the town's code above it; the stack size and the Road Mode
    mark under it."""
    stack = units.get(hex_id, ()) if units else ()
    if not stack:
        return
    top = stack[0]
    town = game_map.hex(hex_id).town
    label = counter_short(top)
    letter = ""
    if len(label) > 5:
        label, letter = counter_values(top), type_letter(top)
    canvas.text(x + 1 + (5 - len(label)) // 2, y, label, top.side)
    if town is not None:
        code = names.codes[town]
        canvas.text(x + 2 + len(letter), y - 1, code[: 3 - len(letter)], "town")
    if letter:
        canvas.put(x + 2, y - 1, letter, top.side)
    if len(stack) > 1:
        canvas.text(x + 2, y + 1, f"+{len(stack) - 1}"[:3].rjust(3), top.side)
    if any(u.id in road for u in stack):
        canvas.put(x + 2, y + 1, ROAD_MODE_MARK, top.side)


def _edge_runs(labels: Sequence[str | None]) -> list[tuple[int, int, str]]:
    """Runs ``(start, end, label)`` of equal non-None labels."""
    runs: list[tuple[int, int, str]] = []
    i = 0
    while i < len(labels):
        lab = labels[i]
        j = i + 1
        while j < len(labels) and labels[j] == lab:
            j += 1
        if lab is not None:
            runs.append((i, j, lab))
        i = j
    return runs


def _draw_margins(canvas: Canvas, game_map: GameMap) -> None:
    cols, rows = game_map.columns, game_map.rows
    right_x = LEFT + HEX_W * cols + SHIFT + 2
    bottom_y = TOP + ROW_H * rows + 2
    for c in range(1, cols + 1):
        x = LEFT + HEX_W * (c - 1) + 3
        canvas.text(x, TOP - 1, f"{c:02d}", "margin")
        canvas.text(x, bottom_y, f"{c:02d}", "margin")
    for r in range(1, rows + 1):
        _, y = origin(1, r)
        canvas.text(LEFT - 3, y, f"{r:02d}", "margin")
        canvas.text(right_x, y, f"{r:02d}", "margin")
        west = game_map.hex(hexgrid.make(1, r)).edge
        east = game_map.hex(hexgrid.make(cols, r)).edge
        if west is not None:
            canvas.text(0, y, west[:4], "edge")
        if east is not None:
            canvas.text(right_x + 3, y, east[:5], "edge")
    for r, ly in ((1, TOP - 2), (rows, bottom_y + 1)):
        labels = [game_map.hex(hexgrid.make(c, r)).edge for c in range(1, cols + 1)]
        for start, end, lab in _edge_runs(labels):
            x0 = LEFT + HEX_W * (start) + 1
            x1 = LEFT + HEX_W * end - 1
            text = f" {lab} ".center(x1 - x0, "-") if x1 - x0 >= len(lab) + 2 else lab
            canvas.text(x0, ly, text[: max(x1 - x0, len(lab))], "edge")
