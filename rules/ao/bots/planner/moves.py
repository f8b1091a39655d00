"""The planner's movement loop: the heuristic bot's (:func:`rules.ao.bots.movement.move`) with the
hex scoring given by the caller.

Each unit that may move (:func:`ao.may_move`) and was not considered yet this phase, the
front first, scores every hex :meth:`ao.Game.legal_moves` offers (near the enemy also the
normal-mode arrivals, as the heuristic bot does) and staying put; the best wins, random among
equals, and the move is checked with :func:`ao.apply` before it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rules import HexId
from rules.ao import (
    ENTER_ROAD_MODE,
    LEAVE_ROAD_MODE,
    Applied,
    Command,
    Game,
    Move,
    UnitState,
    apply,
    may_move,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF
from rules.ao.bots.movement import best_reach, reach_of

Scorer = Callable[[str, HexId, bool, Mapping[HexId, int], bool], int]
"""``scorer(unit, hex, road_mode, friends, here)``: the value of ``unit`` ending in ``hex``
(``friends``: own units per hex now; ``here``: staying put)."""


def friends_of(game: Game, side: str) -> dict[HexId, int]:
    """Own units in play per hex."""
    board, state = game.board, game.state
    out: dict[HexId, int] = {}
    for u in state.units:
        if u.hex is not None and u.in_play and board.defs[u.id].side == side:
            out[u.hex] = out.get(u.hex, 0) + 1
    return out


def move(
    ctx: Context,
    game: Game,
    scorer: Scorer,
    chosen: Callable[[str, HexId], None],
    first: Sequence[str] = (),
) -> Command | None:
    """The next move the engine accepts (``chosen(unit, hex)`` is told the pick, staying put
    included), or None when every unit stays. The units of ``first`` move first, in its
    order (the Allied strikes, :mod:`rules.ao.bots.planner.counter`), then the front first."""
    board, state = game.board, game.state
    friends = friends_of(game, ctx.side)
    movers: list[UnitState] = [
        u
        for u in state.units
        if u.hex is not None
        and u.in_play
        and board.defs[u.id].side == ctx.side
        and u.id not in ctx.done
        and may_move(board, state, u.id) is None
    ]
    rank = {uid: i for i, uid in enumerate(first)}
    movers.sort(
        key=lambda u: (rank.get(u.id, len(rank)), ctx.enemy_dist.get(u.hex or "", INF), u.id)
    )
    for u in movers:
        ctx.done.add(u.id)
        assert u.hex is not None
        reach = reach_of(ctx, game, u)
        if not reach:
            chosen(u.id, u.hex)
            continue

        def value(h: HexId, road: bool, here: bool, uid: str = u.id) -> int:
            return scorer(uid, h, road, friends, here)

        pick = best_reach(ctx, u, dict(sorted(reach.items())), value)
        if pick is None:
            chosen(u.id, u.hex)
            continue
        cmd = Move(u.id, pick.path)
        if isinstance(apply(board, state, cmd), Applied):
            chosen(u.id, end_hex(pick.path, u.hex))
            return cmd
        chosen(u.id, u.hex)
    return None


def end_hex(path: tuple[str, ...], start: HexId) -> HexId:
    """Where a move's ``path`` ends (its mode changes, :data:`ao.ENTER_ROAD_MODE` and
    :data:`ao.LEAVE_ROAD_MODE`, are not hexes)."""
    hexes = [x for x in path if x not in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE)]
    return hexes[-1] if hexes else start


__all__ = ["Scorer", "end_hex", "friends_of", "move"]
