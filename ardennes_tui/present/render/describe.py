"""What the side panel says about one hex: terrain, town, edge, hexsides and units."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from ardennes_tui.present.render import palette as P
from ardennes_tui.present.render.counters import UnitsByHex, counter_long
from ardennes_tui.present.render.names import wrap_list
from ardennes_tui.present.render.palette import rich_style
from rules import hexgrid
from rules.ao import GameMap, HexsideData, UnitDef
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


def side_mark(side: str) -> str:
    """The mark of a side, the same in the panel and on the overview: ``%`` German, ``@``
    Allied (never a unit-type letter)."""
    return P.OVERVIEW_UNITS.get(side, "?")


def units_lines(
    stack: Sequence[UnitDef],
    *,
    notes: Mapping[str, str] | None = None,
    selected: str | None = None,
) -> Text:
    """The units of one hex: a heading naming their side (``Units (2) % German``; a hex holds
    one side's units only), then a line per unit (``>`` marks the selected one) and its
    notes."""
    text = Text()
    if not stack:
        return text
    text.append(f"Units ({len(stack)})", "bold")
    for side in sorted({u.side for u in stack}):
        text.append(" ")
        text.append(f"{side_mark(side)} {side.capitalize()}", rich_style(side))
    text.append("\n")
    for u in stack:
        mark = ">" if u.id == selected else " "
        text.append(mark)
        text.append(side_mark(u.side), rich_style(u.side))
        text.append(f" {counter_long(u)}\n")
        note = (notes or {}).get(u.id)
        if note:
            text.append(f"    {note}\n")
    return text


def describe_hex(
    game_map: GameMap,
    hex_id: HexId,
    units: UnitsByHex | None = None,
    *,
    width: int = 26,
    notes: Mapping[str, str] | None = None,
    selected: str | None = None,
    header: Text | None = None,
) -> Text:
    """A multi-line description of ``hex_id`` for the side panel (``width`` cells wide).

    The hex, its town and its units come first, so that nothing pushes them out of sight;
    then ``header`` (in play: the mode's lines, e.g. the attack being built or a decision's
    choices), then the fortification, edge, exit and the six hexsides. In play, ``notes``
    (unit id -> e.g. ``"road, moved, 4 MP"``) add a line under a unit and the ``selected``
    unit is marked with ``>``.
    """
    h = game_map.hex(hex_id)
    text = Text()
    text.append(f"Hex {hex_id}", "bold")
    text.append(f"  {h.terrain}\n")
    text.append("Town ", "bold")
    text.append(f"{h.town or '-'}\n", rich_style("town") if h.town else "")
    stack = units.get(hex_id, ()) if units else ()
    text.append_text(units_lines(stack, notes=notes, selected=selected))
    if header is not None and header.plain.strip():
        head = header.copy()
        head.rstrip()
        text.append_text(head)
        text.append("\n")
    fort = {"westwall": "Westwall", "fortified": "fortified", None: "-"}[h.fortification]
    if h.edge is None:
        edge = "-"
    else:
        edge = "German east edge" if h.edge == "east" else f"Allied {h.edge} section"
    rows = (
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
    text.rstrip()
    return text
