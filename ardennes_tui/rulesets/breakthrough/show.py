"""``ardennes show GAME`` for a *Breakthrough* game: the position in lines a player reads (the
day's weather and air points, the plots of a waiting batch, each side's units with strength,
efficiency and hex), where other rulesets without a map here print their position as JSON.
``ardennes show --json`` keeps the whole state.
"""

from __future__ import annotations

import textwrap
from typing import Any, Final

import msgspec

from ardennes_tui.rulesets.breakthrough.queries import xy
from rules.breakthrough.state import State
from rules.breakthrough.units import Unit

__all__ = ["MARKS", "position_lines"]

WIDTH: Final = 80
MARKS: Final = "(t travel mode, f<n> fort level, u unsupplied, i isolated, d disrupted)"


def _unit(u: Unit) -> str:
    """``us-102 40 100% 30,27`` and its marks (travel mode, fort, supply, disruption)."""
    marks = ""
    if u.mode == "travel":
        marks += "t"
    if u.fort:
        marks += f"f{u.fort}"
    marks += {"supplied": "", "unsupplied": "u", "isolated": "i"}.get(u.supply, "")
    if u.disrupted:
        marks += "d"
    return f"{u.id} {u.strength} {u.efficiency}% {xy(u.hex)}" + (f" {marks}" if marks else "")


def position_lines(position: Any, pending: list[dict[str, Any]]) -> list[str]:
    """The lines of ``show``'s position (``position``: the state as JSON data)."""
    s = msgspec.convert(position, State)
    american, german = s.air
    out = [
        f"Weather {s.weather}; air points American {american.received}, German "
        f"{german.received}; German town points so far {s.town_points}"
    ]
    for item in pending:
        for p in item.get("plots", []):
            out.append(f"  plot: {p['unit']} -> {p['target']} ({xy(p['target'])})")
        for h in item.get("strikes", []):
            out.append(f"  ground attack on {h} ({xy(h)})")
    for side in ("german", "american"):
        units = [_unit(u) for u in s.units if u.side == side]
        head = f"{side.capitalize()} on the map ({len(units)}): "
        out += textwrap.wrap(head + ", ".join(units), WIDTH, subsequent_indent="  ")
    out.append(MARKS)
    return out
