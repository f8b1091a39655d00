"""Movement in the Operation Phases (7.5-7.7, 13.5, G13): one step, a path, every reachable hex.

A step is one hex; its operation cost (13.5, BA-13.5a-k) is, all added together (G13):

* the ground: in normal mode the terrain of the hex entered, mobile / non-mobile (clear 3/3,
  rough 6/3, forest 8/3, town 4/3; from 24 December the freeze figures, 4, 6 and 4 for mobile
  units in rough, forest and town); in travel mode the road, 1 a hex and 2 into a town, and
  only along a road hexside (BA-7.7d);
* a river hexside: with a standing bridge, the bridge's +2 per German unit that crossed it
  before this turn, nothing for Americans (BA-6.7g); without one, non-mobile units 5,
  panzergrenadiers 8, engineers 3, every other mobile unit may not cross (BA-6.7f), and with
  an engineer in either hex of the crossing the engineer rate (3; panzergrenadiers 4)
  (BA-7.6f); travel mode crosses only by a standing bridge (a road);
* 1 to enter an enemy hex (owned by the enemy, BA-4.1d);
* 4 to leave an enemy ZOC (6 in travel mode) and 2 to enter one (BA-7.6b); a unit in normal
  mode moving from one enemy-ZOC hex into another then has its points reduced to zero
  (BA-7.6c, C16); the 150th Panzer Brigade pays none of this through 17 December (BA-7.6d);
* 1 for a unit in travel mode entering a hex with friendly units in it (BA-7.6h, C27).

Prohibited (``None``): off the map, an enemy unit in the hex (that is an attack, 7.9),
German units into hexrow 0 (BA-1.4h), unmarked American units into the corridor while it is
in force (BA-7.6e), more than three stacking points (BA-7.6g), two travel-mode units together
(BA-7.7e). A unit without the points for a step does not move, unless it has not moved yet
this turn and the hex entered is not adjacent to an enemy unit: then it moves and its points
drop to zero (BA-7.5b). Every hex moved into costs efficiency (8.1b), sets the fortification
level to zero (BA-7.8c), returns half of the unit's artillery to its pool (BA-6.4f) and takes
the hex for the unit's side (BA-1.4f).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough import efficiency
from rules.breakthrough.profile import Profile
from rules.breakthrough.units import MAX_STACK, Side, Terrain, Unit, enemy_of
from rules.hexgrid import HexId, Hexside
from rules.rejection import Rejection

TERRAIN_COST: Final[Mapping[Terrain, tuple[int, int]]] = {
    "clear": (3, 3),
    "rough": (6, 3),
    "town": (4, 3),
    "forest": (8, 3),
}
"""13.5: mobile / non-mobile cost of the hex entered in normal mode (BA-13.5b-e)."""
FREEZE_COST: Final[Mapping[Terrain, tuple[int, int]]] = {
    "clear": (3, 3),
    "rough": (4, 3),
    "town": (4, 3),
    "forest": (6, 3),
}
"""13.5 "(Freeze)": the same from 24 December, turn 9 (BA-9.0b)."""
FREEZE_TURN: Final = 9
ROAD_COST: Final = 1
ROAD_TOWN_COST: Final = 2
"""13.5 "Road (Town) 1(2) 1(2)", travel mode only (BA-13.5f)."""
BRIDGE_STEP: Final = 2
"""13.5 "Bridge +2": per German unit that crossed before this turn (BA-13.5g, BA-6.7g)."""
RIVER_NON_MOBILE: Final = 5
RIVER_ENGINEER_RATE: Final = 3
RIVER_PZGR: Final = 8
RIVER_PZGR_ENGINEER: Final = 4
"""13.5 "River (Engineers) N/A(3) 5(3)", note 7: panzergrenadiers 4 / 8 (BA-13.5h, C13)."""
ENEMY_HEX: Final = 1
ENTER_ZOC: Final = 2
LEAVE_ZOC: Final = 4
LEAVE_ZOC_TRAVEL: Final = 6
"""13.5 "Enter Enemy Hex 1 1", "Enter Enemy ZOC 2 2", "Leave Enemy ZOC (T. Mode) 4(6) 4(6)"."""
TRAVEL_STACK: Final = 1
"""7.6: "Units in travel mode pay one more operation point to stack with friendly units"."""
INFILTRATION_LAST_TURN: Final = 2
"""7.6: the 150th "does not pay ZOC costs through December 17th (turn two)"."""
CORRIDOR_LAST_TURN: Final = 7
"""7.6: the corridor is closed "through December 22nd (turn seven)" (BA-7.6e, C3)."""


@dataclass(frozen=True)
class Board:
    """The map and the turn's movement state as plain values.

    ``bridges`` are the standing bridges (sites not blown, BA-6.7a); ``crossed`` the German
    units that crossed each bridge this turn (BA-6.7g); ``corridor`` the corridor's hexes,
    empty when it is not in force (see :func:`corridor_in_force`); ``no_german`` hexrow 0.
    """

    terrain: Mapping[HexId, Terrain]
    owner: Mapping[HexId, Side]
    roads: frozenset[Hexside] = frozenset()
    rivers: frozenset[Hexside] = frozenset()
    bridges: frozenset[Hexside] = frozenset()
    no_german: frozenset[HexId] = frozenset()
    corridor: frozenset[HexId] = frozenset()
    turn: int = 2
    crossed: Mapping[Hexside, frozenset[str]] = field(default_factory=dict)


def corridor_in_force(historical: bool, turn: int) -> bool:
    """The corridor restriction holds in a historical game through turn 7 (BA-7.6e, BA-2.1f)."""
    return historical and turn <= CORRIDOR_LAST_TURN


def enemy_zoc(side: Side, units: Sequence[Unit]) -> frozenset[HexId]:
    """Hexes in the ZOC of ``side``'s enemies: the six around each enemy unit (BA-7.6a).

    G13 reading: a ZOC reaches across rivers and into every neighbouring hex, friendly units
    do not cancel it."""
    out: set[HexId] = set()
    for u in units:
        if u.side != side and u.strength > 0:
            out.update(_around(u.hex))
    return frozenset(out)


@cache
def _around(hex_id: HexId) -> tuple[HexId, ...]:
    """The on-grid neighbours of ``hex_id`` (cached: ZOCs are asked for at every step)."""
    return tuple(h for h in hexgrid.neighbours(hex_id) if h is not None)


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One hex moved into: its cost and what it did to the unit."""

    unit: str
    origin: HexId
    to: HexId
    cost: int
    """Operation points spent (all that were left under BA-7.5b or BA-7.6c)."""
    op_left: int
    artillery_returned: int
    """To the unit's pool (BA-6.4f)."""
    bridge: Hexside | None = None
    """The bridge crossed, if any (counts for later German crossings, BA-6.7g)."""


def _river_cost(
    unit: Unit,
    profile: Profile,
    side: Hexside,
    board: Board,
    units: Sequence[Unit],
    profiles: Mapping[str, Profile],
) -> int | None:
    """The extra of crossing the river hexside ``side``, or None where it may not be crossed
    (BA-6.7f-g, BA-7.6f, BA-13.5g-h, C13)."""
    if side in board.bridges and (unit.mode == "travel" or not profile.mobile or _wades(profile)):
        if unit.side != "german":
            return 0
        others = board.crossed.get(side, frozenset()) - {unit.id}
        return BRIDGE_STEP * len(others)
    if unit.mode == "travel":
        return None
    engineer_near = any(
        u.side == unit.side
        and u.id != unit.id
        and u.strength > 0
        and u.hex in side
        and (p := profiles.get(u.id)) is not None
        and p.engineer
        for u in units
    )
    if profile.type == "PZGR":
        return RIVER_PZGR_ENGINEER if engineer_near else RIVER_PZGR
    if profile.engineer:
        return RIVER_ENGINEER_RATE
    if profile.mobile:
        return None
    return RIVER_ENGINEER_RATE if engineer_near else RIVER_NON_MOBILE


def _wades(profile: Profile) -> bool:
    """Engineers and panzergrenadiers cross rivers in normal mode (BA-6.7f)."""
    return profile.engineer or profile.type == "PZGR"


def step_cost(
    unit: Unit,
    profile: Profile,
    to: HexId,
    board: Board,
    units: Sequence[Unit],
    profiles: Mapping[str, Profile],
    zoc: frozenset[HexId] | None = None,
) -> tuple[int, bool] | Rejection:
    """The cost of moving ``unit`` from its hex into the adjacent ``to``, and whether the move
    reduces its points to zero (BA-7.6c), or why it may not move there at all. ``zoc`` is
    :func:`enemy_zoc` of the unit's side if the caller has it already."""
    a = unit.hex
    if not hexgrid.adjacent(a, to) or to not in board.terrain:
        return Rejection("BA-7.5a", f"{unit.id}: {to} is not a map hex next to {a}")
    here = [u for u in units if u.hex == to and u.strength > 0 and u.id != unit.id]
    if any(u.side != unit.side for u in here):
        return Rejection("BA-7.9b", f"{unit.id}: {to} holds enemy units: that is an attack")
    if unit.side == "german" and to in board.no_german:
        return Rejection("BA-1.4h", f"{unit.id}: German units may never enter hexrow 0 ({to})")
    if unit.side == "american" and to in board.corridor and not profile.corridor:
        return Rejection("BA-7.6e", f"{unit.id}: only units marked * may enter the corridor")
    if sum(u.stack for u in here) + unit.stack > MAX_STACK:
        return Rejection("BA-7.6g", f"{unit.id}: more than three stacking points in {to}")
    if unit.mode == "travel" and any(u.mode == "travel" for u in here):
        return Rejection("BA-7.7e", f"{unit.id}: travel-mode units may not stack together")
    side = hexgrid.hexside(a, to)
    terrain = board.terrain[to]
    if unit.mode == "travel":
        if side not in board.roads:
            return Rejection("BA-7.7d", f"{unit.id}: in travel mode only along a road")
        cost = ROAD_TOWN_COST if terrain == "town" else ROAD_COST
    else:
        table = FREEZE_COST if board.turn >= FREEZE_TURN else TERRAIN_COST
        cost = table[terrain][0 if profile.mobile else 1]
    if side in board.rivers:
        extra = _river_cost(unit, profile, side, board, units, profiles)
        if extra is None:
            return Rejection(
                "BA-6.7f", f"{unit.id}: may cross this river only in travel mode by a bridge"
            )
        cost += extra
    if board.owner.get(to) == enemy_of(unit.side):
        cost += ENEMY_HEX
    zeroed = False
    if not (profile.infiltrator and board.turn <= INFILTRATION_LAST_TURN):
        if zoc is None:
            zoc = enemy_zoc(unit.side, units)
        if a in zoc:
            cost += LEAVE_ZOC_TRAVEL if unit.mode == "travel" else LEAVE_ZOC
        if to in zoc:
            cost += ENTER_ZOC
            zeroed = a in zoc and unit.mode == "normal"
    if unit.mode == "travel" and here:
        cost += TRAVEL_STACK
    return cost, zeroed


def _next_to_enemy(hex_id: HexId, side: Side, units: Sequence[Unit]) -> bool:
    return any(u.side != side and u.strength > 0 and hexgrid.adjacent(u.hex, hex_id) for u in units)


def move(
    unit: Unit,
    to: HexId,
    board: Board,
    units: Sequence[Unit],
    profiles: Mapping[str, Profile],
    has_moved: bool,
    zoc: frozenset[HexId] | None = None,
) -> Step | Rejection:
    """One step of ``unit`` into the adjacent ``to`` (BA-7.5a-b, BA-7.6a-h, BA-7.7d-e)."""
    profile = profiles[unit.id]
    priced = step_cost(unit, profile, to, board, units, profiles, zoc)
    if isinstance(priced, Rejection):
        return priced
    cost, zeroed = priced
    if cost > unit.op:
        if has_moved or _next_to_enemy(to, unit.side, units):
            return Rejection(
                "BA-7.5b", f"{unit.id}: {to} costs {cost} operation points; {unit.op} left"
            )
        cost, zeroed = unit.op, True
    op_left = 0 if zeroed else unit.op - cost
    side = hexgrid.hexside(unit.hex, to)
    bridge = side if side in board.rivers and side in board.bridges else None
    return Step(unit.id, unit.hex, to, unit.op - op_left, op_left, _half_up(unit.artillery), bridge)


def _half_up(artillery: int) -> int:
    """6.4f "returns half of its artillery": the odd point goes back too (G19)."""
    return (artillery + 1) // 2


def apply_step(unit: Unit, step: Step) -> Unit:
    """``unit`` after ``step``: in its new hex with the points left, efficiency lost in normal
    mode (BA-8.1b), fortification zero (BA-7.8c), half its artillery gone (BA-6.4f)."""
    return msgspec.structs.replace(
        unit,
        hex=step.to,
        op=step.op_left,
        fort=0,
        efficiency=efficiency.after_move(unit.efficiency, unit.mode),
        artillery=unit.artillery - step.artillery_returned,
    )


def after_step(board: Board, unit: Unit, step: Step) -> Board:
    """The board after ``step``: the hex taken (BA-1.4f) and a German bridge crossing
    counted (BA-6.7g)."""
    owner = dict(board.owner)
    owner[step.to] = unit.side
    crossed = dict(board.crossed)
    if step.bridge is not None and unit.side == "german":
        crossed[step.bridge] = crossed.get(step.bridge, frozenset()) | {unit.id}
    return _replace_board(board, owner, crossed)


def _replace_board(
    board: Board, owner: Mapping[HexId, Side], crossed: Mapping[Hexside, frozenset[str]]
) -> Board:
    return Board(
        board.terrain,
        owner,
        board.roads,
        board.rivers,
        board.bridges,
        board.no_german,
        board.corridor,
        board.turn,
        crossed,
    )


class Walk(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A path carried out: the unit at its end, each step, and the board after."""

    unit: Unit
    steps: tuple[Step, ...]
    artillery_returned: int


def walk(
    unit: Unit,
    path: Sequence[HexId],
    board: Board,
    units: Sequence[Unit],
    profiles: Mapping[str, Profile],
    has_moved: bool,
) -> tuple[Walk, Board] | Rejection:
    """Check and carry out ``path`` (the hexes entered, in order) step by step; the first
    step refused refuses the whole path, naming the hex (BA-7.5a-b)."""
    if not path:
        return Rejection("BA-7.5a", f"{unit.id}: an empty path")
    cur = unit
    steps: list[Step] = []
    others = [u for u in units if u.id != unit.id]
    zoc = enemy_zoc(unit.side, others)  # the enemy does not move during a walk
    for i, to in enumerate(path):
        step = move(cur, to, board, [*others, cur], profiles, has_moved or i > 0, zoc)
        if isinstance(step, Rejection):
            return Rejection(step.case, f"step {i + 1}: {step.detail}")
        board = after_step(board, cur, step)
        cur = apply_step(cur, step)
        steps.append(step)
    returned = sum(s.artillery_returned for s in steps)
    return Walk(cur, tuple(steps), returned), board


_Key = tuple[int, int, tuple[HexId, ...]]
"""Dijkstra's order: cost, steps, the hexes of the path."""


class Reach(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hex the unit can reach now: the points it costs, what is left, the path taken."""

    hex: HexId
    cost: int
    op_left: int
    path: tuple[HexId, ...]


def legal_moves(
    unit: Unit,
    board: Board,
    units: Sequence[Unit],
    profiles: Mapping[str, Profile],
    has_moved: bool,
) -> dict[HexId, Reach]:
    """Every hex ``unit`` can move into now, with its cheapest path (BA-7.5a-b).

    Dijkstra over (hex, can-go-on) states; among paths of equal cost the one with fewer steps,
    then the one whose hexes come first in id order, so the answer is deterministic. A step
    that reduces the points to zero (BA-7.5b, BA-7.6c) ends the path. The hex's own start is
    not listed. Bridge extras are those of the board as given (a unit's own crossings never
    raise its cost).
    """
    best: dict[tuple[HexId, bool], _Key] = {}
    frontier: dict[tuple[HexId, bool], _Key] = {(unit.hex, True): (0, 0, ())}
    others = [u for u in units if u.id != unit.id]
    zoc = enemy_zoc(unit.side, others)
    out: dict[HexId, Reach] = {}
    while frontier:
        state = min(frontier, key=lambda s: (frontier[s], s))
        cost, steps, path = frontier.pop(state)
        best[state] = (cost, steps, path)
        hex_id, live = state
        if path:
            left = unit.op - cost
            reach = Reach(hex_id, cost, left, path)
            old = out.get(hex_id)
            if old is None or (reach.cost, len(reach.path), reach.path) < (
                old.cost,
                len(old.path),
                old.path,
            ):
                out[hex_id] = reach
        if not live:
            continue
        here = msgspec.structs.replace(unit, hex=hex_id, op=unit.op - cost)
        for to in sorted(h for h in hexgrid.neighbours(hex_id) if h is not None):
            step = move(here, to, board, [*others, here], profiles, has_moved or bool(path), zoc)
            if isinstance(step, Rejection):
                continue
            nxt = (to, step.op_left > 0)
            key = (cost + step.cost, steps + 1, (*path, to))
            if nxt in best or to == unit.hex:
                continue
            if nxt not in frontier or key < frontier[nxt]:
                frontier[nxt] = key
    return dict(sorted(out.items()))


def regular_cost(
    board: Board, profiles: Mapping[str, Profile]
) -> Callable[[Unit, HexId, HexId], int | None]:
    """The movement cost a retreat or an advance pays (``retreat.Ground.move_cost``): regular
    movement's cost without ZOC costs, ``None`` where regular movement is prohibited
    (BA-8.4f-g). Other units are left out: the retreat rules check stacking and enemies."""

    def cost(unit: Unit, a: HexId, b: HexId) -> int | None:
        here = msgspec.structs.replace(unit, hex=a)
        got = step_cost(here, profiles[unit.id], b, board, [here], profiles, frozenset())
        return None if isinstance(got, Rejection) else got[0]

    return cost
