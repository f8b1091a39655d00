"""Bridges and interdiction (AO-13).

A bridge is a hexside with ``crossing == "bridge"`` (AO-11.d). A bridge is *interdicted for*
side S when either of its two hexes is within three hexes (straight hex distance, whatever lies
between) of an **interdicting** unit of S's enemy (AO-13.1A): a unit in play (not dormant, not
eliminated, not waiting to arrive) and not in Road Mode (AO-13.3D). Friendly units never
negate it (AO-13.a*: "do not confuse Zones of Control with Bridge Interdiction"). Interdiction
is per side (AO-13.5F): the two sides' sets are computed from different units and stored apart
(``GameState.interdicted.german`` / ``.allied``).

Game-Turn 1 (AO-13.4E with errata 13.2): Allied units do not interdict bridges that lie
*entirely* on the German side of the start line (both hexes on the German side,
:func:`rules.ao.start_line.german_side`); a bridge bisected by the start line is interdicted as
usual, and so is any bridge with a hex on the Allied side.

How the integrator calls these functions (AO-13.1A, AO-13.2C, AO-13.b*, AO-13.c*):

1. At the start of side S's Supply Judgment Phase, ``interdiction_for(board, state, S,
   state.turn)`` and store the result in ``state.interdicted`` for S, *then* judge supply
   (:func:`rules.ao.supply.supply_judgment` reads the stored set). Movement reads the stored set
   too (``rules.ao.movement``). Nothing recomputes it during S's player-turn: an interdicting
   unit eliminated or retreated in the Combat Phase leaves the bridge interdicted for S's
   Mechanized Movement Phase, and an enemy unit retreated or advanced into range does not
   interdict for that phase (AO-13.b*).
2. At the very end of S's player-turn (phase 6), ``lift_interdiction(board, state, S)`` and
   store it for S: bridges no longer within three hexes of an interdicting enemy unit are
   freed; nothing is added (AO-13.2C). The other side's set is not touched (AO-13.5F).
3. When S attacks, the *defender's* supply is judged at the moment of combat with the bridges
   that S's units interdict for the defender *now*: ``interdiction_at_combat(board, state,
   defender_side)`` (AO-13.c*; :func:`rules.ao.supply.supply_of` does this by default). It is not
   stored.
"""

from __future__ import annotations

from rules import hexgrid
from rules.ao.gamemap import GameMap
from rules.ao.start_line import german_side
from rules.ao.state import Board, GameState, other_side
from rules.ao.units import Side
from rules.hexgrid import HexId, Hexside

INTERDICTION_RANGE = 3
"""Bridges within three hexes of an enemy unit are interdicted (AO-13.1A)."""


def bridges(game_map: GameMap) -> tuple[Hexside, ...]:
    """Every bridge hexside of the map, sorted."""
    return tuple(s.hexes for s in game_map.sides() if s.crossing == "bridge")


def _bridges(board: Board) -> tuple[Hexside, ...]:
    return board.game_map.derived("interdiction.bridges", bridges)


class _Reach:
    """Per-board table for the range test of AO-13.1A: for every map hex, the indices (into
    :func:`_bridges`) of the bridges with either hex within :data:`INTERDICTION_RANGE` of it,
    and the bridges entirely on the German side of the start line (AO-13.4E). Built once per
    board from the cached three-hex discs (:func:`rules.hexgrid.disc`); the same answers as
    testing every bridge against the discs around the interdicting units."""

    __slots__ = ("bridges", "by_hex", "exempt_gt1", "index")

    def __init__(self, board: Board) -> None:
        m = board.game_map
        self.bridges: tuple[Hexside, ...] = _bridges(board)
        self.index: dict[Hexside, int] = {b: i for i, b in enumerate(self.bridges)}
        near: dict[HexId, set[int]] = {}
        for i, (a, b) in enumerate(self.bridges):
            for h in hexgrid.disc(a, INTERDICTION_RANGE) | hexgrid.disc(b, INTERDICTION_RANGE):
                if h in m:
                    near.setdefault(h, set()).add(i)
        self.by_hex: dict[HexId, frozenset[int]] = {h: frozenset(v) for h, v in near.items()}
        ger = german_side(m)
        self.exempt_gt1: frozenset[int] = frozenset(
            i for i, (a, b) in enumerate(self.bridges) if a in ger and b in ger
        )

    def hit(self, centres: frozenset[HexId]) -> set[int]:
        """Indices of the bridges in range of one of ``centres``."""
        out: set[int] = set()
        by_hex = self.by_hex
        for c in centres:
            near = by_hex.get(c)
            if near:
                out |= near
        return out


def _reach(board: Board) -> _Reach:
    return board.derived("interdiction.reach", _Reach)


def interdicting_hexes(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes of ``side``'s units that interdict bridges: in play (``on_map``; not dormant,
    AO-5.3M) and not in Road Mode (AO-13.3D)."""
    return frozenset(
        u.hex
        for u in state.units
        if u.status == "on_map"
        and u.hex is not None
        and not u.road_mode
        and board.defs[u.id].side == side
    )


def _in_range(board: Board, centres: frozenset[HexId]) -> frozenset[HexId]:
    """Every map hex within :data:`INTERDICTION_RANGE` of one of ``centres``."""
    m = board.game_map
    out: set[HexId] = set()
    for c in centres:
        out.update(h for h in hexgrid.disc(c, INTERDICTION_RANGE) if h in m)
    return frozenset(out)


def _interdicted(board: Board, state: GameState, side: Side, turn: int) -> tuple[Hexside, ...]:
    r = _reach(board)
    hit = r.hit(interdicting_hexes(board, state, other_side(side)))
    if turn == 1 and side == "german":
        hit -= r.exempt_gt1
    return tuple(b for i, b in enumerate(r.bridges) if i in hit)


def interdiction_for(board: Board, state: GameState, side: Side, turn: int) -> tuple[Hexside, ...]:
    """The bridges interdicted *for* ``side``'s movement and supply, sorted: every bridge with
    either hex within three hexes of an interdicting enemy unit (AO-13.1A, AO-13.3D), friendly
    units notwithstanding (AO-13.a*); on Game-Turn 1 Allied units do not interdict bridges
    entirely behind the German start line (AO-13.4E). Call it at ``side``'s Supply Judgment."""
    return _interdicted(board, state, side, turn)


def lift_interdiction(board: Board, state: GameState, side: Side) -> tuple[Hexside, ...]:
    """``side``'s interdicted bridges at the very end of its player-turn (AO-13.2C): those of
    ``state.interdicted`` for ``side`` still within three hexes of an interdicting enemy unit.
    Never adds a bridge; the enemy's set is not affected (AO-13.5F)."""
    stored = state.interdicted.for_side(side)
    if not stored:
        return ()
    r = _reach(board)
    centres = interdicting_hexes(board, state, other_side(side))
    hit = r.hit(centres)
    reach: frozenset[HexId] | None = None
    kept: list[Hexside] = []
    for b in stored:
        i = r.index.get(b)
        if i is not None:
            if i in hit:
                kept.append(b)
            continue
        if reach is None:  # not a bridge of the map: the plain range test
            reach = _in_range(board, centres)
        if b[0] in reach or b[1] in reach:
            kept.append(b)
    return tuple(sorted(kept))


def interdiction_at_combat(
    board: Board, state: GameState, defending_side: Side
) -> tuple[Hexside, ...]:
    """The bridges the attacker's units interdict for ``defending_side`` at the moment of
    combat, for the defender's supply (AO-13.c*, AO-12.0); same rules as
    :func:`interdiction_for` on the current Game-Turn (AO-13.4E included)."""
    return _interdicted(board, state, defending_side, state.turn)
