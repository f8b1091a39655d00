"""The static per-board tables of movement costs (AO-11, AO-6.5F) and the per-state snapshot
of occupancy and zones of control (AO-7, AO-8, AO-14.2B), both cached in ``board.cache``."""

from __future__ import annotations

from typing import Final

from rules import reinforcements, roadmode
from rules.gamemap import ALLIED_SECTIONS, GameMap
from rules.hexgrid import HexId, Hexside
from rules.state import Board, GameState, UnitState
from rules.units import Side
from rules.zoc import zone_of

# -- static tables (per board) ------------------------------------------------------------------

_MECH_RIVER: Final = 6
_FOOT_RIVER: Final = 3
_MECH_FORD: Final = 3
_FOOT_FORD: Final = 1

Link = tuple[HexId, tuple[int, int, int, int], bool, Hexside | None]
"""``(neighbour, normal-mode cost by class, road-mode passable, bridge hexside or None)``.

Class index: ``2 * allied + mechanized``.
"""


class Tables:
    __slots__ = ("edge", "impassable", "links", "meuse", "road_hex", "road_links", "westwall")

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
                    )
                )
            self.links[a] = tuple(out)
        self.meuse: frozenset[Hexside] = frozenset(meuse)


def board_tables(board: Board) -> Tables:
    return board.derived("movement.tables", lambda b: Tables(b.game_map))


# -- per-state snapshot -------------------------------------------------------------------------


class Snapshot:
    """Occupancy and zones of control of one state, computed once and shared by all movers.

    ``staging``: hexes holding only reinforcements that have not moved since they were placed,
    on an entry hex (the German east edge, the Allied road exit hexes; Allied Map Edge hexes
    are exempt anyway): they are exempt from road-column spacing and destacking costs while
    they are there (AO-14.2B)."""

    __slots__ = ("by_hex", "staging", "state", "zoc")

    def __init__(self, board: Board, state: GameState) -> None:
        self.state = state
        self.by_hex: dict[Side, dict[HexId, tuple[UnitState, ...]]] = {"german": {}, "allied": {}}
        zoc: dict[Side, set[HexId]] = {"german": set(), "allied": set()}
        for u in state.units:
            if u.hex is None or u.status not in ("on_map", "dormant"):
                continue
            side = board.defs[u.id].side
            d = self.by_hex[side]
            d[u.hex] = (*d.get(u.hex, ()), u)
            zoc[side].update(zone_of(board, u))
        self.zoc: dict[Side, frozenset[HexId]] = {s: frozenset(v) for s, v in zoc.items()}
        entry = frozenset(
            h
            for section in (reinforcements.EAST, *ALLIED_SECTIONS)
            for h in reinforcements.road_entry_hexes(board, section)
        )
        self.staging: frozenset[HexId] = frozenset(
            h
            for side in ("german", "allied")
            for h, units in self.by_hex[side].items()
            if h in entry and all(u.staging is not None for u in units)
        )


def state_snapshot(board: Board, state: GameState) -> Snapshot:
    return board.for_state("movement.snapshot", state, Snapshot)
