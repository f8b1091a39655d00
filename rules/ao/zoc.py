"""Zones of control (AO-7).

A unit in play controls the six hexes around it (AO-7.0), with three exceptions:

* a unit in Road Mode controls only the hex it occupies (AO-6.6J);
* an Allied unit on an Allied Map Edge hex controls nothing (AO-7.5E), and dormant units are
  not in play at all (AO-5.3M);
* German control does extend *into* Allied Map Edge hexes (AO-7.5E, AO-5.3N): the neighbour
  set is every on-map neighbour, edge hexes included. It blocks retreats and supply paths
  there, but does not hold a (reactivated) Allied unit in its edge hex: movement lets it leave
  (:mod:`rules.ao.movement.step`; ``docs/rules-notes.md``, AO-7.5E / AO-5.3N).

Control is negated in any hex that holds a friendly unit (AO-7.2B): a hex is *enemy-controlled
for side S* when it is in the ZOC of a unit of the other side and holds no unit of S. For a
moving unit the hex it is leaving counts its stack-mates but not itself, which is what lets a
unit slip out of a stack whose other units absorb the enemy ZOC (AO-7.4E).
"""

from __future__ import annotations

from rules.ao.state import Board, GameState, UnitState, other_side
from rules.ao.units import Side
from rules.hexgrid import HexId


def zone_of(board: Board, unit: UnitState) -> tuple[HexId, ...]:
    """The hexes ``unit`` controls, sorted: its six neighbours, only its own hex in Road Mode
    (AO-6.6J), none for an Allied unit on a Map Edge hex (AO-7.5E) or a unit not in play."""
    return tuple(sorted(_zone(board, unit)))


def _zone(board: Board, unit: UnitState) -> tuple[HexId, ...]:
    """:func:`zone_of` in the map's neighbour order (for sets: no sort)."""
    h = unit.hex
    if h is None or unit.status != "on_map":
        return ()
    if board.defs[unit.id].side == "allied" and board.game_map.is_allied_edge(h):
        return ()
    if unit.road_mode:
        return (h,)
    return board.game_map.neighbours(h)


def zoc_of_side(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Every hex in the zone of control of ``side``'s units (before negation); computed once
    per state (:meth:`Board.for_state`)."""
    return board.for_state(f"zoc.{side}", state, lambda b, s: _zoc_of_side(b, s, side))


class _Zones:
    """How many ``side`` units control each hex in the state whose unit rows are ``units``,
    and those hexes: the next state's zones follow from the rows that changed (a command
    changes a few; the rows it leaves alone are the same objects,
    :meth:`GameState.replace_units`)."""

    __slots__ = ("count", "hexes", "units")

    def __init__(
        self, units: tuple[UnitState, ...], count: dict[HexId, int], hexes: frozenset[HexId]
    ) -> None:
        self.units = units
        self.count = count
        self.hexes = hexes


def _zoc_of_side(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    key = f"zoc.count.{side}"
    defs = board.defs
    last = board.cache.get(key)
    units = state.units
    count: dict[HexId, int] | None = None
    if isinstance(last, _Zones) and len(last.units) == len(units):
        changed: list[tuple[UnitState, UnitState]] = []
        for old, new in zip(last.units, units, strict=True):
            if old is new:
                continue
            if old.id != new.id:  # another game's rows: count afresh
                changed = []
                count = _count(board, units, side)
                break
            if defs[old.id].side == side:
                changed.append((old, new))
        else:
            if not changed:  # no row of this side changed: the same zones
                board.cache[key] = _Zones(units, last.count, last.hexes)
                return last.hexes
            count = dict(last.count)  # a copy: the last state's count stays as it was
            for old, new in changed:
                for h in _zone(board, old):
                    n = count[h] - 1
                    if n:
                        count[h] = n
                    else:
                        del count[h]
                for h in _zone(board, new):
                    count[h] = count.get(h, 0) + 1
    if count is None:
        count = _count(board, units, side)
    hexes = frozenset(count)
    board.cache[key] = _Zones(units, count, hexes)
    return hexes


def _count(board: Board, units: tuple[UnitState, ...], side: Side) -> dict[HexId, int]:
    count: dict[HexId, int] = {}
    defs = board.defs
    for u in units:
        if defs[u.id].side == side:
            for h in _zone(board, u):
                count[h] = count.get(h, 0) + 1
    return count


def occupied_by(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes holding at least one unit of ``side`` (dormant units included: they are there);
    computed once per state."""
    return board.for_state(f"occupied.{side}", state, lambda b, s: _occupied_by(b, s, side))


def _occupied_by(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    return frozenset(
        u.hex
        for u in state.units
        if u.hex is not None and u.status in ("on_map", "dormant") and board.defs[u.id].side == side
    )


def enemy_controlled(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes controlled by ``side``'s enemy and not negated by a unit of ``side`` (AO-7.2B);
    computed once per state."""
    return board.for_state(
        f"enemy_controlled.{side}",
        state,
        lambda b, s: zoc_of_side(b, s, other_side(side)) - occupied_by(b, s, side),
    )
