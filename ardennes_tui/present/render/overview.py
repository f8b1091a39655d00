"""The overview: one text line per hex row, two cells per hex.

Hex ``(col, row)`` takes cell ``x = LEFT + 2*(col-1)`` (one more on shifted rows), and the
cell after it stands for its east and south-east hexsides (``~`` river, ``=`` bridge,
``:`` ford, ``*`` start line), so a river running along a row shows as a line of ``~``.
The hex cell shows, first that applies: units (``%`` German, ``@`` Allied), the town, road
exit (``$``), fortification (``w`` Westwall, ``f`` fortified), road (``+``), terrain (``.``
clear, ``^`` rough, ``#`` impassable). A town takes its hex cell and the cell after it for
its two-letter code, unique on the map (``Ba`` Bastogne, ``Bo`` Bouillon, ``Bi`` Bitburg,
``Bu`` Buellingen, ``SV`` St. Vith: :func:`ardennes_tui.present.render.names.town_codes`); units on
it hide it. :func:`ardennes_tui.present.render.legend.overview_legend_lines` is its legend.
"""

from __future__ import annotations

from typing import Final

from ardennes_tui.present.render import palette as P
from ardennes_tui.present.render.counters import UnitsByHex
from ardennes_tui.present.render.names import town_codes
from ardennes_tui.present.render.picture import Canvas, Picture, Span
from rules import hexgrid
from rules.ao import GameMap, HexsideData
from rules.hexgrid import HexId

LEFT: Final = 3
TOP: Final = 2


def origin(col: int, row: int) -> tuple[int, int]:
    """``(x, y)`` of the cell of hex ``(col, row)``."""
    return LEFT + 2 * (col - 1) + (1 if hexgrid.is_shifted(row) else 0), TOP + row - 1


def size(columns: int, rows: int) -> tuple[int, int]:
    return LEFT + 2 * columns + 1, TOP + rows


def _gap(sides: list[HexsideData]) -> tuple[str, str]:
    best: tuple[str, str] = (" ", "")
    rank = 0
    for s in sides:
        if s.river is not None:
            cand = (
                (3, P.BRIDGE, "bridge")
                if s.crossing == "bridge"
                else (3, P.FORD, "ford")
                if s.crossing == "ford"
                else (2, P.RIVER, "river")
            )
        elif s.start_line:
            cand = (1, P.START_LINE, "start")
        else:
            continue
        if cand[0] > rank:
            rank, best = cand[0], (cand[1], cand[2])
    return best


def draw_overview(game_map: GameMap, units: UnitsByHex | None = None) -> Picture:
    """Draw the whole map in the overview layout (with column and row numbers)."""
    width, height = size(game_map.columns, game_map.rows)
    canvas = Canvas(width, height)
    codes = town_codes(game_map, 2)
    spans: dict[HexId, tuple[Span, ...]] = {}
    for c in range(1, game_map.columns + 1):
        x = LEFT + 2 * (c - 1)
        canvas.put(x, 0, str(c // 10), "margin")
        canvas.put(x, 1, str(c % 10), "margin")
    for r in range(1, game_map.rows + 1):
        canvas.text(0, TOP + r - 1, f"{r:02d}", "margin")
    for hex_id in game_map:
        col, row = hexgrid.parse(hex_id)
        x, y = origin(col, row)
        h = game_map.hex(hex_id)
        stack = units.get(hex_id, ()) if units else ()
        glyph: str
        style: str
        nbrs = hexgrid.neighbours(hex_id)
        sides = [game_map.side(hex_id, n) for n in (nbrs[1], nbrs[2]) if n in game_map and n]
        g, s = _gap(sides)
        if stack:
            glyph, style = P.OVERVIEW_UNITS[stack[0].side], stack[0].side
        elif h.town is not None:
            code = codes[h.town]
            glyph, style = code[0], "town"
            g, s = code[1], "town"
        elif h.exit_vp is not None:
            glyph, style = P.OVERVIEW_EXIT, "exit"
        elif h.fortification is not None:
            glyph, style = P.OVERVIEW_FORTIFICATION[h.fortification], "fort"
        elif game_map.is_road_hex(hex_id):
            glyph, style = P.OVERVIEW_ROAD, "road"
        else:
            glyph, style = P.OVERVIEW_TERRAIN[h.terrain], h.terrain
        canvas.put(x, y, glyph, style)
        canvas.put(x + 1, y, g, s)
        spans[hex_id] = ((y, x, x + 1),)
    return canvas.freeze(spans)
