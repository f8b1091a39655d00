"""Zones of control (AO-7).

A unit in play controls the six hexes around it (AO-7.0), with three exceptions:

* a unit in Road Mode controls only the hex it occupies (AO-6.6J);
* an Allied unit on an Allied Map Edge hex controls nothing (AO-7.5E), and dormant units are
  not in play at all (AO-5.3M);
* German control does extend *into* Allied Map Edge hexes (AO-7.5E, AO-5.3N): the neighbour
  set is every on-map neighbour, edge hexes included.

Control is negated in any hex that holds a friendly unit (AO-7.2B): a hex is *enemy-controlled
for side S* when it is in the ZOC of a unit of the other side and holds no unit of S. For a
moving unit the hex it is leaving counts its stack-mates but not itself, which is what lets a
unit slip out of a stack whose other units absorb the enemy ZOC (AO-7.4E).
"""

from __future__ import annotations

from rules.hexgrid import HexId
from rules.rejection import Rejection
from rules.state import Board, GameState, UnitState, other_side
from rules.units import Side


def exerts_zoc(board: Board, unit: UnitState) -> bool:
    """Whether ``unit`` has a zone of control beyond its own hex."""
    if not unit.in_play or unit.hex is None or unit.road_mode:
        return False
    d = board.defs[unit.id]
    return not (d.side == "allied" and board.game_map.is_allied_edge(unit.hex))


def zone_of(board: Board, unit: UnitState) -> tuple[HexId, ...]:
    """The hexes ``unit`` controls, sorted: its six neighbours, only its own hex in Road Mode
    (AO-6.6J), none for an Allied unit on a Map Edge hex (AO-7.5E) or a unit not in play."""
    if not unit.in_play or unit.hex is None:
        return ()
    d = board.defs[unit.id]
    if d.side == "allied" and board.game_map.is_allied_edge(unit.hex):
        return ()
    if unit.road_mode:
        return (unit.hex,)
    return tuple(sorted(board.game_map.neighbours(unit.hex)))


def zoc_of_side(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Every hex in the zone of control of ``side``'s units (before negation)."""
    out: set[HexId] = set()
    for u in state.units:
        if u.status == "on_map" and board.defs[u.id].side == side:
            out.update(zone_of(board, u))
    return frozenset(out)


def occupied_by(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes holding at least one unit of ``side`` (dormant units included: they are there)."""
    return frozenset(
        u.hex
        for u in state.units
        if u.hex is not None and u.status in ("on_map", "dormant") and board.defs[u.id].side == side
    )


def enemy_controlled(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes controlled by ``side``'s enemy and not negated by a unit of ``side`` (AO-7.2B)."""
    return zoc_of_side(board, state, other_side(side)) - occupied_by(board, state, side)


def is_enemy_controlled(
    board: Board, state: GameState, side: Side, hex_id: HexId, ignoring: str | None = None
) -> bool:
    """Whether ``hex_id`` is enemy-controlled for ``side``; ``ignoring`` names a unit whose own
    presence does not count (the unit that is about to leave the hex)."""
    if hex_id not in zoc_of_side(board, state, other_side(side)):
        return False
    return not any(u.id != ignoring and board.defs[u.id].side == side for u in state.at(hex_id))


# -- zone of control in retreats and supply paths (used by the combat and supply issues) --------


def check_retreat_step(
    board: Board, state: GameState, side: Side, start: HexId, to: HexId
) -> Rejection | None:
    """The ZOC part of one retreat step of a ``side`` unit from ``start`` into ``to``.

    Retreating *out of* an enemy-controlled hex is allowed (AO-7.3C); retreating *into* one is
    not (AO-7.3D) - including an Allied Map Edge hex in German ZOC (AO-5.3N). Friendly units in
    ``to`` negate the control (AO-7.2B).
    """
    del start  # AO-7.3C: where the retreat starts does not matter
    if to in enemy_controlled(board, state, side):
        return Rejection(
            "AO-7.3D", f"a {side} unit may not retreat into the enemy-controlled hex {to}"
        )
    return None


def supply_path_open(board: Board, state: GameState, side: Side, hex_id: HexId) -> bool:
    """Whether a ``side`` supply path may pass ``hex_id`` as far as ZOC goes (AO-7.3D):
    not through an enemy-controlled hex, but through one that a friendly unit holds (AO-12.1A)."""
    return hex_id not in enemy_controlled(board, state, side)
