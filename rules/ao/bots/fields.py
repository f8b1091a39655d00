"""The bots' shared scoring fields: per-board tables (towns, road junctions, the Meuse bridges,
the German objective potential) and hex distance fields. Built once per board by each bot
(:class:`rules.ao.bots.context.Context`), never kept on the board.
"""

from __future__ import annotations

import heapq
from collections.abc import Container, Iterable, Mapping
from typing import Final

from rules import HexId
from rules.ao import Board, GameMap

OBJECTIVE_TOWNS: Final[Mapping[str, int]] = {"Liège": 6, "Bastogne": 5, "St. Vith": 3}
"""German objective towns and their pull (how many hexes of detour they are worth)."""
MEUSE_BRIDGE_PULL: Final = 4
INF: Final = 10**6
"""Farther than any distance on the map."""


class Fields:
    """Per-board tables the bots score with."""

    __slots__ = ("bridge_hexes", "garrison", "junctions", "objective", "passable", "towns")

    def __init__(self, board: Board) -> None:
        m = board.game_map
        self.passable: tuple[HexId, ...] = tuple(h for h in m if m.hex(h).terrain != "impassable")
        self.towns: frozenset[HexId] = frozenset(h for h in m if m.hex(h).town is not None)
        junctions = set()
        for h in self.passable:
            roads = sum(1 for n in m.neighbours(h) if m.side(h, n).road)
            if roads >= 3:
                junctions.add(h)
        self.junctions: frozenset[HexId] = frozenset(junctions)
        bridges: set[HexId] = set()
        for s in m.sides():
            if s.river == "Meuse" and s.crossing is not None:
                bridges.update(s.hexes)
        self.bridge_hexes: frozenset[HexId] = frozenset(bridges)
        pulls: dict[HexId, int] = {}
        for d in m.exit_hexes():
            vp = d.exit_vp or 0
            pulls[d.id] = vp - (1 if d.edge in ("SE", "SW") else 0)
        towns = m.towns()
        for name, pull in OBJECTIVE_TOWNS.items():
            if name in towns:
                pulls[towns[name]] = max(pulls.get(towns[name], 0), pull)
        for h in bridges:
            pulls[h] = max(pulls.get(h, 0), MEUSE_BRIDGE_PULL)
        self.objective: dict[HexId, int] = _potential(m, self.passable, pulls)
        """The German objective potential: ``min over objectives o of (distance - pull(o))``."""
        self.garrison: frozenset[HexId] = frozenset(
            {towns[n] for n in OBJECTIVE_TOWNS if n in towns} | (bridges & self.towns)
        )


def _potential(
    m: GameMap, passable: Iterable[HexId], pulls: Mapping[HexId, int]
) -> dict[HexId, int]:
    """``min over objectives o of (distance(h, o) - pull(o))`` by a multi-source Dijkstra."""
    ok = set(passable)
    dist: dict[HexId, int] = {}
    heap = [(-p, h) for h, p in sorted(pulls.items()) if h in ok]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if h in dist:
            continue
        dist[h] = d
        for n in m.neighbours(h):
            if n in ok and n not in dist:
                heapq.heappush(heap, (d + 1, n))
    return dist


def distance_field(
    m: GameMap, sources: Iterable[HexId], through: Container[HexId] | None = None
) -> dict[HexId, int]:
    """Hex steps from the nearest of ``sources`` (breadth-first over the whole map, or only
    through the hexes of ``through``)."""
    dist: dict[HexId, int] = {}
    frontier = sorted(set(sources))
    for h in frontier:
        dist[h] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            for n in m.neighbours(h):
                if n not in dist and (through is None or n in through):
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


__all__ = ["INF", "MEUSE_BRIDGE_PULL", "OBJECTIVE_TOWNS", "Fields", "distance_field"]
