"""The two sides of the 16 December start line, and the front line and rear area of each side.

The start line (errata M5) is a chain of hexsides with ``start_line`` set. The German side is
every hex reachable from the German east-edge hexes without crossing a start-line hexside (a
flood fill; impassable hexes are crossed too, since they are still on one side or the other);
every other hex is on the Allied side.

Front line and rear area (AO-17.b, AO-17.c): the free set-up rules speak of units "in the front
line" and "behind the front line" without defining them for hexes. We define the **front line**
of a side as its own hexes that have at least one start-line hexside (the hexes whose units
face the enemy across the dotted line on the printed map), and its **rear area** as the rest
of its own hexes. Neither includes impassable hexes (AO-11.g) or Allied Map Edge hexes
(AO-5.3L), where no unit may set up; German east-edge hexes are ordinary German rear hexes.
"""

from __future__ import annotations

import functools
from collections import deque

from rules.ao.gamemap import GameMap
from rules.ao.units import Side
from rules.hexgrid import HexId


@functools.cache
def german_side(gmap: GameMap) -> frozenset[HexId]:
    """Hexes on the German side of the start line: flood fill from the east edge."""
    seen: set[HexId] = {h for h in gmap if gmap.hex(h).edge == "east"}
    queue: deque[HexId] = deque(sorted(seen))
    while queue:
        h = queue.popleft()
        for n in gmap.neighbours(h):
            if n not in seen and not gmap.side(h, n).start_line:
                seen.add(n)
                queue.append(n)
    return frozenset(seen)


def side_of(gmap: GameMap, hex_id: HexId) -> Side:
    """The side of the start line ``hex_id`` lies on."""
    return "german" if hex_id in german_side(gmap) else "allied"


def own_side(gmap: GameMap, side: Side) -> frozenset[HexId]:
    """Every hex on ``side``'s side of the start line."""
    ger = german_side(gmap)
    if side == "german":
        return ger
    return frozenset(h for h in gmap if h not in ger)


def _usable(gmap: GameMap, hex_id: HexId) -> bool:
    """A hex where a unit may set up at all: not impassable, not an Allied Map Edge hex."""
    return gmap.hex(hex_id).terrain != "impassable" and not gmap.is_allied_edge(hex_id)


def touches_start_line(gmap: GameMap, hex_id: HexId) -> bool:
    """True when one of the hex's hexsides is part of the start line."""
    return any(gmap.side(hex_id, n).start_line for n in gmap.neighbours(hex_id))


@functools.cache
def front_line(gmap: GameMap, side: Side) -> frozenset[HexId]:
    """``side``'s front-line hexes: own side, usable, with a start-line hexside."""
    return frozenset(
        h for h in own_side(gmap, side) if _usable(gmap, h) and touches_start_line(gmap, h)
    )


@functools.cache
def rear_area(gmap: GameMap, side: Side) -> frozenset[HexId]:
    """``side``'s hexes behind the front line: own side, usable, not on the front line."""
    front = front_line(gmap, side)
    return frozenset(h for h in own_side(gmap, side) if _usable(gmap, h) and h not in front)


def start_line_problems(gmap: GameMap) -> list[str]:
    """Why the map's start line does not split it into two sides (empty when it does)."""
    problems: list[str] = []
    ger = german_side(gmap)
    if not ger:
        problems.append("the map has no east-edge hexes to flood the German side from")
    leaked = sorted(h for h in ger if gmap.is_allied_edge(h))
    if leaked:
        problems.append(
            f"the start line does not close: the German side reaches Allied edge hexes "
            f"{', '.join(leaked[:5])}"
        )
    for s in gmap.sides():
        if s.start_line:
            a, b = s.hexes
            if (a in ger) == (b in ger):
                problems.append(f"start-line hexside {a}-{b} has the same side on both hexes")
    return problems
