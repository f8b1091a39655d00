"""What the side panel says about one hex: terrain, town, edge, hexsides and units."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from ardennes_tui.render.counters import UnitsByHex, counter_long
from ardennes_tui.render.names import wrap_list
from ardennes_tui.render.palette import rich_style
from rules import GameMap, HexsideData, hexgrid
from rules.hexgrid import HexId


def side_features(side: HexsideData) -> list[str]:
    """The features of a hexside as words, e.g. ``["river Ourthe", "bridge", "road"]``."""
    out: list[str] = []
    if side.river is not None:
        out.append(f"river {side.river}")
    if side.crossing is not None:
        out.append(side.crossing)
    if side.road:
        out.append("road")
    if side.start_line:
        out.append("start line")
    return out


def describe_hex(
    game_map: GameMap,
    hex_id: HexId,
    units: UnitsByHex | None = None,
    *,
    width: int = 26,
    notes: Mapping[str, str] | None = None,
    selected: str | None = None,
) -> Text:
    """A multi-line description of ``hex_id`` for the side panel (``width`` cells wide).

    In play, ``notes`` (unit id -> e.g. ``"road, moved, 4 MP"``) add a line under a unit and
    the ``selected`` unit is marked with ``>``.
    """
    h = game_map.hex(hex_id)
    text = Text()
    text.append(f"Hex {hex_id}", "bold")
    text.append(f"  {h.terrain}\n")
    # Always the same rows, so the panel's layout is stable from hex to hex (and a cursor
    # move repaints only the rows that differ).
    fort = {"westwall": "Westwall", "fortified": "fortified", None: "-"}[h.fortification]
    if h.edge is None:
        edge = "-"
    else:
        edge = "German east edge" if h.edge == "east" else f"Allied {h.edge} section"
    rows = (
        ("Town", h.town or "-"),
        ("Fort", fort),
        ("Edge", edge),
        ("Exit", "-" if h.exit_vp is None else f"{h.exit_vp} VP road exit"),
    )
    for label, value in rows:
        text.append(f"{label} ", "bold")
        text.append(f"{value}\n")
    text.append("Hexsides\n", "bold")
    for d, n in enumerate(hexgrid.neighbours(hex_id)):
        name = hexgrid.DIRECTIONS[d]
        if n is None or n not in game_map:
            words = ["off map"]
        else:
            words = side_features(game_map.side(hex_id, n)) or ["-"]
        text.append(f" {name:<2} ", "bold")
        text.append("\n".join(wrap_list(words, width - 4, "    ")) + "\n")
    stack = units.get(hex_id, ()) if units else ()
    if stack:
        text.append(f"Units ({len(stack)})\n", "bold")
        for u in stack:
            mark = ">" if u.id == selected else " "
            text.append(mark + ("G " if u.side == "german" else "A "), rich_style(u.side))
            text.append(f" {counter_long(u)}\n")
            note = (notes or {}).get(u.id)
            if note:
                text.append(f"    {note}\n")
    text.rstrip()
    return text
