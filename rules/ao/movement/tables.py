"""The static per-board tables of movement costs (AO-11, AO-6.5F) and the per-state snapshot
of occupancy and zones of control (AO-7, AO-8, AO-14.2B), both cached in ``board.cache``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules.ao import reinforcements, roadmode
from rules.ao.gamemap import ALLIED_SECTIONS, GameMap
from rules.ao.state import Board, GameState, UnitState
from rules.ao.units import Side
from rules.ao.zoc import zoc_of_side
from rules.hexgrid import HexId, Hexside

# -- static tables (per board) ------------------------------------------------------------------

_MECH_RIVER: Final = 6
_FOOT_RIVER: Final = 3
_MECH_FORD: Final = 3
_FOOT_FORD: Final = 1

Link = tuple[HexId, tuple[int, int, int, int], bool, Hexside | None, int]
"""``(neighbour, normal-mode cost by class, road-mode passable, bridge hexside or None, ford
class)``: the ford class is 0 off a ford, else 1 (the ford's extra MP, paid in either mode:
:data:`FORD_COST` by class).

Class index: ``2 * allied + mechanized``.
"""

FORD_COST: Final = (_FOOT_FORD, _MECH_FORD, _FOOT_FORD, _MECH_FORD)
"""The extra MP of crossing a ford by class (AO-11.b), in normal mode and in Road Mode
(AO-6.5F, AO-11.j)."""


class Tables:
    __slots__ = (
        "column_hexes",
        "edge",
        "impassable",
        "links",
        "meuse",
        "road_hex",
        "road_links",
        "steps",
        "westwall",
    )

    def __init__(self, m: GameMap) -> None:
        self.impassable: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).terrain == "impassable"
        )
        self.edge: frozenset[HexId] = frozenset(h for h in m if m.is_allied_edge(h))
        self.westwall: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).fortification == "westwall"
        )
        self.road_hex: frozenset[HexId] = frozenset(h for h in m if m.is_road_hex(h))
        self.road_links: dict[HexId, tuple[HexId, ...]] = {h: roadmode.road_links(m, h) for h in m}
        # a hex and the road hexes connected to it: what a unit there bars (AO-6.5G)
        self.column_hexes: dict[HexId, frozenset[HexId]] = {
            h: frozenset((h, *links)) for h, links in self.road_links.items()
        }
        self.links: dict[HexId, tuple[Link, ...]] = {}
        meuse: set[Hexside] = set()
        for a in m:
            out: list[Link] = []
            for b in m.neighbours(a):
                s = m.side(a, b)
                hb = m.hex(b)
                costs: list[int] = []
                for allied in (False, True):
                    for mech in (False, True):
                        if s.road:
                            c = 1  # AO-11.j: road negates the hex terrain
                        else:
                            c = (4 if mech else 2) if hb.terrain == "rough" else 1
                            if allied and hb.fortification == "westwall":
                                c += 2  # AO-11.h
                        if s.river is not None and s.crossing != "bridge":
                            if s.crossing == "ford":
                                c += _MECH_FORD if mech else _FOOT_FORD  # AO-11.b
                            else:
                                c += _MECH_RIVER if mech else _FOOT_RIVER  # AO-11.c
                        costs.append(c)
                bridge = (min(a, b), max(a, b)) if s.crossing == "bridge" else None
                if s.river == "Meuse":
                    meuse.add((min(a, b), max(a, b)))
                out.append(
                    (
                        b,
                        (costs[0], costs[1], costs[2], costs[3]),
                        roadmode.road_mode_passable(m, a, b),
                        bridge,
                        1 if s.crossing == "ford" else 0,
                    )
                )
            self.links[a] = tuple(out)
        self.meuse: frozenset[Hexside] = frozenset(meuse)
        # what the search tries from a hex, by the mover's mode: every link (only those a
        # Road Mode unit may cross, AO-6.5F), then None for the mode change in place
        self.steps: tuple[dict[HexId, tuple[Link | None, ...]], ...] = (
            {h: (*out, None) for h, out in self.links.items()},
            {h: (*(lk for lk in out if lk[2]), None) for h, out in self.links.items()},
        )


def board_tables(board: Board) -> Tables:
    return board.game_map.derived("movement.tables", Tables)


def _entry_hexes(board: Board) -> frozenset[HexId]:
    """Every reinforcement entry hex, German and Allied (AO-14.1A)."""
    return frozenset(
        h
        for section in (reinforcements.EAST, *ALLIED_SECTIONS)
        for h in reinforcements.road_entry_hexes(board, section)
    )


# -- per-state snapshot -------------------------------------------------------------------------


class Snapshot:
    """Occupancy and zones of control of one state, computed once and shared by all movers.

    ``staging``: hexes holding only reinforcements that have not moved since they were placed,
    on an entry hex (the German east edge, the Allied road exit hexes; Allied Map Edge hexes
    are exempt anyway): they are exempt from road-column spacing and destacking costs while
    they are there (AO-14.2B)."""

    __slots__ = ("_blocks", "_closed", "by_hex", "staging", "state", "t", "zoc")

    def __init__(self, board: Board, state: GameState) -> None:
        self.state = state
        self.t = board_tables(board)
        self._closed: dict[Side, frozenset[HexId]] = {}
        self._blocks: dict[tuple[Side, bool], tuple[frozenset[HexId], Mapping[HexId, int]]] = {}
        self.by_hex: dict[Side, dict[HexId, tuple[UnitState, ...]]] = {"german": {}, "allied": {}}
        for u in state.units:
            if u.hex is None or u.status not in ("on_map", "dormant"):
                continue
            side = board.defs[u.id].side
            d = self.by_hex[side]
            d[u.hex] = (*d.get(u.hex, ()), u)
        self.zoc: dict[Side, frozenset[HexId]] = {
            s: zoc_of_side(board, state, s) for s in ("german", "allied")
        }
        entry = board.derived("movement.entry", _entry_hexes)
        self.staging: frozenset[HexId] = frozenset(
            h
            for side in ("german", "allied")
            for h, units in self.by_hex[side].items()
            if h in entry and all(u.staging is not None for u in units)
        )

    def closed(self, side: Side) -> frozenset[HexId]:
        """Hexes no ``side`` unit may enter: impassable, Allied Map Edge, enemy-occupied."""
        hit = self._closed.get(side)
        if hit is None:
            enemy = self.by_hex["allied" if side == "german" else "german"]
            hit = self._closed[side] = self.t.impassable | self.t.edge | frozenset(enemy)
        return hit

    def column_contribution(
        self, h: HexId, units: tuple[UnitState, ...], road_mode: bool
    ) -> frozenset[HexId]:
        """The hexes that the friendly ``units`` in ``h`` bar to a mover in that mode (AO-6.5G):
        in Road Mode, any friend's hex and the road hexes connected to it; in normal mode, those
        of a friendly Road Mode unit. Allied Map Edge hexes do not count (AO-8.3F), nor
        reinforcements waiting on their entry hex (AO-14.2B)."""
        if not units or h in self.t.edge or h in self.staging:
            return frozenset()
        if not road_mode and not any(u.road_mode for u in units):
            return frozenset()
        return self.t.column_hexes[h]

    def column_blocks(
        self, side: Side, road_mode: bool
    ) -> tuple[frozenset[HexId], Mapping[HexId, int]]:
        """The hexes barred to a ``side`` mover in that mode by every ``side`` unit (the mover
        included), and how many friendly hexes bar each: a mover takes its own hex's part out
        (:class:`rules.ao.movement.mover.Mover`)."""
        hit = self._blocks.get((side, road_mode))
        if hit is None:
            count: dict[HexId, int] = {}
            edge, staging, column = self.t.edge, self.staging, self.t.column_hexes
            for h, units in self.by_hex[side].items():
                if h in edge or h in staging:
                    continue
                if not road_mode and not any(u.road_mode for u in units):
                    continue
                for x in column[h]:
                    count[x] = count.get(x, 0) + 1
            hit = self._blocks[(side, road_mode)] = (frozenset(count), count)
        return hit


def state_snapshot(board: Board, state: GameState) -> Snapshot:
    return board.for_state("movement.snapshot", state, Snapshot)
