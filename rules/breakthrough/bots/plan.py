"""The German plan and the map reading the bots steer by (pure; issue 24).

* :data:`AXES`: the historical axes of the offensive on the Breakthrough map. Sixth Panzer Army
  (I and II SS Panzer Corps, LXVII Corps and the 150th Brigade) drives north-west by Malmedy,
  Stavelot, Trois Ponts, Stoumont and Werbomont towards the Meuse at Huy and Liège: the north
  edge's exits (BA-7.10a: 04,01 Huy, 09,01, 11,01). Fifth Panzer Army (LVIII and XLVII Panzer
  Corps, LXVI Corps) goes through the centre, St. Vith and Bastogne, to Hotton, Marche and
  Rochefort and the west edge's exits (01,12, 01,16, 01,02). Seventh Army (LXXXV) covers the
  southern flank at Bastogne.
* :func:`route_field`: the cost of the way from every hex to a set of goal hexes, over the fixed
  map (roads cheap, forest and rough dear, a river without a bridge site dearer): a unit walks
  down it, so it goes round a river instead of stopping at its bank as a straight-line distance
  would make it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from rules import hexgrid
from rules.breakthrough.board import Board
from rules.hexgrid import HexId

ROAD_STEP: Final = 1
TERRAIN_STEP: Final = {"clear": 2, "town": 2, "rough": 3, "forest": 3}
RIVER_STEP: Final = 5
"""Extra cost of a river hexside without a bridge site (the field's price, not 13.5's)."""
UNREACHED: Final = 10**6


@dataclass(frozen=True)
class Axis:
    """One army's line of advance: the victory towns in order, then its exit hexes."""

    name: str
    corps: frozenset[str]
    towns: tuple[HexId, ...]
    exits: tuple[HexId, ...]


AXES: Final = (
    Axis(
        "north",
        frozenset({"ISS", "IISS", "LXVII", ""}),
        # Elsenborn, Malmedy, Stavelot, Trois Ponts, Stoumont, Spa, Werbomont, Aywaille, Huy
        ("2604", "2205", "2007", "1808", "1706", "1703", "1308", "1403", "0401"),
        ("0401", "0901", "1101"),
    ),
    Axis(
        "centre",
        frozenset({"LVIII", "XLVII", "LXVI"}),
        # St. Vith, Bastogne, Manhay, Hotton, Durbuy, Marche, Rochefort, Ouffet, Havelange
        ("2412", "1424", "1411", "0813", "0809", "0514", "0317", "0805", "0207"),
        ("0112", "0116", "0102"),
    ),
    Axis(
        "south",
        frozenset({"LXXXV", "LXXX"}),
        # Bastogne, then the centre's western towns
        ("1424", "0514", "0317"),
        ("0116", "0112"),
    ),
)
"""The historical axes (Cole, ch. V-XIV; the manual's 2.1 names the 116th and 2nd Panzer's
drive on Houffalize and across the Ourthe). Corps ``""`` is the independent 150th Brigade."""


def axis_of(corps: str) -> Axis:
    """The axis of a German unit's corps (13.2's corps column); the centre for any other."""
    return next((a for a in AXES if corps in a.corps), AXES[1])


def _step_costs(board: Board) -> dict[HexId, list[tuple[HexId, int]]]:
    out: dict[HexId, list[tuple[HexId, int]]] = {}
    for h in sorted(board.terrain):
        edges: list[tuple[HexId, int]] = []
        for n in hexgrid.neighbours(h):
            if n is None or n not in board.terrain:
                continue
            side = hexgrid.hexside(h, n)
            if side in board.roads:
                cost = ROAD_STEP
            else:
                cost = TERRAIN_STEP[board.terrain[n]]
                if side in board.rivers:
                    cost += RIVER_STEP
            edges.append((n, cost))
        out[h] = edges
    return out


class Fields:
    """Route fields over one board, computed once per goal set and kept."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._steps = _step_costs(board)
        self._cache: dict[tuple[HexId, ...], Mapping[HexId, int]] = {}

    def to(self, goals: Iterable[HexId]) -> Mapping[HexId, int]:
        """Each hex's route cost from the nearest of ``goals``, each step priced by the hex it
        enters (Dijkstra with a bucket a cost: the step costs are small integers)."""
        key = tuple(sorted(set(goals)))
        got = self._cache.get(key)
        if got is not None:
            return got
        dist: dict[HexId, int] = {g: 0 for g in key if g in self._steps}
        buckets: dict[int, list[HexId]] = {0: sorted(dist)}
        d = 0
        while buckets:
            for h in buckets.pop(d, []):
                if dist[h] != d:
                    continue  # reached more cheaply since it was queued
                for n, cost in self._steps[h]:
                    nd = d + cost
                    if nd < dist.get(n, UNREACHED):
                        dist[n] = nd
                        buckets.setdefault(nd, []).append(n)
            d += 1
        self._cache[key] = dist
        return dist

    def cost(self, goals: Iterable[HexId], h: HexId) -> int:
        return self.to(goals).get(h, UNREACHED)
