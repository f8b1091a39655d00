"""Movement (both movement phases): each unit, nearest the enemy first, scores every hex it may
reach (:meth:`ao.Game.legal_moves`) and staying put; the best wins, random among equals.

The German pulls toward his objectives (the objective potential of
:class:`rules.ao.bots.fields.Fields`, or his plan target, :mod:`rules.ao.bots.plan`) and past Allied
stacks (:data:`BEHIND`: their retreats close); the Allies hold towns, junctions and rough
terrain near the front and garrison the objective towns. Nobody ends in Road Mode near the
enemy. See ``docs/selfplay.md`` for the weights.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from rules import HexId
from rules.ao import (
    Applied,
    Board,
    ColumnFix,
    Command,
    Game,
    GameState,
    Move,
    Reach,
    UnitState,
    apply,
    legal_moves,
    may_move,
    owed_moves,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF
from rules.ao.bots.plan import hold_gain, holders

GARRISON: Final = 40
"""The Allied bot's bonus for the first unit to end in an objective town (Liège, Bastogne,
St. Vith, the Meuse bridge towns): worth a long march away from the front."""
GOOD_TERRAIN: Final = ("rough",)
ROAD_MODE_SAFE: Final = 4
"""A unit may end a move in Road Mode only this many hexes or more from the nearest enemy."""
NEAR_FRONT: Final = 12
"""Units this close to an enemy also search normal-mode arrivals (a second search)."""
SETUP: Final = 4
"""German Initial Movement: per adjacent enemy hex no stronger than ``WEAK_RATIO`` x the unit."""
WEAK_RATIO: Final = 1
SURROUND: Final = 5
"""German Mechanized Movement: per adjacent enemy hex (its zone of control closes retreats)."""
BEHIND: Final = 100
"""German, both movement phases: per adjacent enemy hex the unit is *past* (its hex nearer the
objectives than the enemy's): its zone of control closes that enemy's retreats, so a Dr
eliminates it. Worth ten hexes of the objective pull: this is what makes the kills."""
PULL: Final = 30
"""German unit with a plan target (:mod:`rules.ao.bots.plan`): per hex of distance to it (three
times the general objective pull: a gap of four hexes is worth leaving a ``BEHIND`` post)."""
OFF_SUPPLY: Final = 150
"""German unit with a plan target: ending outside the supply zone."""
GAP: Final = 3
"""An exploiter follows its plan only when it can get this many hexes nearer its town."""
HOLD: Final = 60
"""German, holding mode: per exit VP the unit would hold that no other unit holds."""
HOLD_BASTOGNE: Final = 4
"""German, holding mode: being the German in Bastogne is worth this many exit VP."""


HexValue = Callable[[HexId, bool, bool], int]
"""``value(hex, road_mode, here)``: a unit's score for ending in ``hex``."""


def score(
    ctx: Context,
    board: Board,
    state: GameState,
    uid: str,
    h: HexId,
    road: bool,
    friends: Mapping[HexId, int],
    here: bool,
    target: HexId | None,
) -> int:
    """The value of ``uid`` ending in ``h`` (in Road Mode when ``road``; ``here``: staying
    put; ``target``: its plan target for this move, :func:`unit_target`)."""
    f = ctx.fields(board)
    e = ctx.enemy_dist.get(h, INF)
    s = 0
    if road and e < ROAD_MODE_SAFE and not board.game_map.is_allied_edge(h):
        s -= 500  # Road Mode next to the enemy (Allied Map Edge hexes see no combat)
    n_friends = friends.get(h, 0) - (1 if here else 0)
    if ctx.side == "german":
        plan = ctx.plan
        if plan is not None and target is not None:
            d = ctx.targets(board).dist[target].get(h, 60)
            if plan.hold and target in plan.exits:
                d = max(0, d - 1)  # next to the exit holds it
            s -= PULL * d
            if h not in plan.zone:
                s -= OFF_SUPPLY
        else:
            s -= 10 * f.objective.get(h, 60)
        if e == 1:
            s += contact(ctx, board, state, uid, h)
        s -= 2 * n_friends
        if plan is not None and plan.hold:
            s += HOLD * hold_gain(board, state, plan, ctx.held, uid, h, road)
            bastogne = ctx.targets(board).bastogne
            if h == bastogne and h in plan.zone and n_friends == 0:
                s += HOLD * HOLD_BASTOGNE
    else:
        town = h in f.towns
        good = town or board.game_map.hex(h).terrain in GOOD_TERRAIN
        s += 8 * town + 4 * (h in f.junctions) + 2 * good
        if f.objective.get(h, 60) < 0:
            s += 6
        if h in f.garrison and n_friends == 0:
            s += GARRISON  # one unit holds each objective town (Liège, Bastogne, ...)
        s -= 3 * max(0, min(e, 30) - 2)
        if e == 1 and not good:
            s -= 4
        s -= 5 * n_friends
        if here and town and e <= 2:
            s += 6
    return s


def contact(ctx: Context, board: Board, state: GameState, uid: str, h: HexId) -> int:
    """German bonus for ending next to the enemy: each adjacent enemy hex the unit is past
    (:data:`BEHIND`); in Initial Movement each one no stronger than the unit
    (:data:`SETUP`, an attack next phase), in Mechanized Movement each one
    (:data:`SURROUND`, its retreats close)."""
    m = board.game_map
    f = ctx.fields(board)
    mine = board.defs[uid].strength
    s = 0
    for n in m.neighbours(h):
        es = ctx.enemy_strength.get(n, 0)
        if es <= 0:
            continue
        if BEHIND and f.objective.get(h, INF) < f.objective.get(n, INF):
            s += BEHIND  # past the enemy toward the objectives: its retreats close
        if state.phase == "mechanized_movement":
            s += SURROUND
        elif es <= WEAK_RATIO * mine:
            s += SETUP
    return s


def unit_target(
    ctx: Context, board: Board, uid: str, here: HexId, reach: Mapping[HexId, Reach]
) -> HexId | None:
    """The unit's plan target for this move, if it can get nearer it: an exploiter must
    gain :data:`GAP` hexes (a gap in the front), a holder one; else it fights (v2)."""
    plan = ctx.plan
    target = plan.targets.get(uid) if plan is not None else None
    if plan is None or target is None:
        return None
    field = ctx.targets(board).dist[target]
    now = field.get(here, INF)
    if now == 0:
        return target
    best = min((field.get(h, INF) for h in reach if h in plan.zone), default=INF)
    need = 1 if plan.hold else GAP
    return target if now - best >= need else None


def owed(ctx: Context, game: Game) -> Command | None:
    """A move the engine wants before the movement phase ends: of its road-column fixes
    (AO-6.7N) and moves of reinforcements off a crowded entry hex (AO-14.2B)
    (:func:`ao.owed_moves`), the one this bot scores best (random among equals); None when
    nothing is owed."""
    board, state = game.board, game.state
    fixes = owed_moves(board, state)
    if not fixes:
        return None
    friends: dict[HexId, int] = {}
    for u in state.units:
        if u.hex is not None and u.in_play and board.defs[u.id].side == ctx.side:
            friends[u.hex] = friends.get(u.hex, 0) + 1

    def value(f: ColumnFix) -> int:
        here = f.hex == state.unit(f.unit).hex
        return score(ctx, board, state, f.unit, f.hex, f.reach.road_mode, friends, here, None)

    best = max(value(f) for f in fixes)
    pick = ctx.rng.choice([f for f in fixes if value(f) == best])
    ctx.done.add(pick.unit)
    return pick.command


def move(ctx: Context, game: Game) -> Command | None:
    """The next move the engine accepts: of the units that may move (:func:`ao.may_move`)
    and were not yet considered this phase, the front first (they open the roads), then by
    id; None when every unit stays."""
    board, state = game.board, game.state
    friends: dict[HexId, int] = {}
    movers: list[UnitState] = []
    for u in state.units:
        if u.hex is None or not u.in_play or board.defs[u.id].side != ctx.side:
            continue
        friends[u.hex] = friends.get(u.hex, 0) + 1
        if u.id not in ctx.done and may_move(board, state, u.id) is None:
            movers.append(u)
    if ctx.plan is not None and ctx.plan.hold:
        ctx.held = holders(board, state, ctx.plan.exits)
    movers.sort(key=lambda u: (ctx.enemy_dist.get(u.hex or "", INF), u.id))
    for u in movers:
        ctx.done.add(u.id)
        reach = reach_of(ctx, game, u)
        if not reach:
            continue
        assert u.hex is not None
        target = unit_target(ctx, board, u.id, u.hex, reach)

        def value(
            h: HexId, road: bool, here: bool, uid: str = u.id, t: HexId | None = target
        ) -> int:
            return score(ctx, board, state, uid, h, road, friends, here, t)

        pick = best_reach(ctx, u, reach, value)
        if pick is None:
            continue
        cmd = Move(u.id, pick.path)
        if isinstance(apply(board, state, cmd), Applied):
            return cmd
    return None


def reach_of(ctx: Context, game: Game, u: UnitState) -> dict[HexId, Reach]:
    """Where ``u`` may move (:meth:`ao.Game.legal_moves`) and, when it is near the enemy,
    the normal-mode arrivals next to him too (a road move may not end there)."""
    board, state = game.board, game.state
    assert u.hex is not None
    reach: dict[HexId, Reach] = dict(game.legal_moves(u.id))
    if reach and ctx.enemy_dist.get(u.hex, INF) <= NEAR_FRONT:
        for h, r in legal_moves(board, state, u.id, road_mode=False).items():
            if ctx.enemy_dist.get(h, INF) < ROAD_MODE_SAFE:
                reach[h] = r
    return reach


def best_reach(
    ctx: Context, u: UnitState, reach: Mapping[HexId, Reach], value: HexValue
) -> Reach | None:
    """The move of ``reach`` (in its order) that ``value(hex, road_mode, here)`` scores best,
    random among equals, or None when staying put scores as well or better (a mode change in
    place is not worth a move)."""
    assert u.hex is not None
    best = value(u.hex, u.road_mode, True)
    top: list[Reach | None] = [None]
    for h, r in reach.items():
        if h == u.hex:
            continue
        sc = value(h, r.road_mode, False)
        if sc > best:
            best, top = sc, [r]
        elif sc == best:
            top.append(r)
    return ctx.rng.choice(top)


__all__ = [
    "BEHIND",
    "GAP",
    "HOLD",
    "NEAR_FRONT",
    "PULL",
    "ROAD_MODE_SAFE",
    "best_reach",
    "contact",
    "move",
    "owed",
    "reach_of",
    "score",
    "unit_target",
]
