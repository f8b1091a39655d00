"""Whether a defender has any legal retreat (the German bot's kill estimate), without ranking.

:func:`ao.retreat_options` finds *and ranks* every legal retreat; the ranking traces
supply and the bridges interdicted at that moment, which is most of its cost. The bot only
needs to know whether a path exists (a Dr n eliminates a unit with none, AO-10.2b), so this
module walks the same legality rules - the most direct path, no impassable, enemy-occupied or
enemy-controlled hex (friendly units negate control), the stacking limit at every step and at
the end, Road Mode units along roads and never into friends, no unit into a friendly Road
Mode unit's hex, German units never onto Allied Map Edge hexes, an Allied unit onto one only as
a last resort - and stops at the first legal path. ``tests/bots/test_bots.py`` checks it against
``retreat_options`` on real positions.
"""

from __future__ import annotations

from rules import HexId, hexgrid
from rules.ao import (
    Board,
    GameState,
    Side,
    check_stack,
    enemy_controlled,
    other_side,
    road_mode_passable,
    stacks_with_road_mode,
)


class RetreatContext:
    """The per-position tables of one side's retreats (enemy hexes, enemy control, friends)."""

    __slots__ = ("controlled", "enemy_hexes", "friends", "side")

    def __init__(self, board: Board, state: GameState, side: Side) -> None:
        enemy = other_side(side)
        self.side: Side = side
        self.enemy_hexes: frozenset[HexId] = frozenset(
            x.hex
            for x in state.units
            if x.hex is not None
            and x.status in ("on_map", "dormant")
            and board.defs[x.id].side == enemy
        )
        self.controlled = enemy_controlled(board, state, side)
        friends: dict[HexId, list[str]] = {}
        for x in state.units:
            if (
                x.hex is not None
                and x.status in ("on_map", "dormant")
                and board.defs[x.id].side == side
            ):
                friends.setdefault(x.hex, []).append(x.id)
        self.friends = friends


def has_retreat(
    board: Board,
    state: GameState,
    uid: str,
    retreat_distance: int,
    ctx: RetreatContext | None = None,
) -> bool:
    """True when ``uid`` has a legal retreat of ``retreat_distance`` hexes
    (``retreat_options(...).paths`` is not empty)."""
    m = board.game_map
    d = board.defs[uid]
    u = state.unit(uid)
    start = u.hex
    assert start is not None
    if ctx is None or ctx.side != d.side:
        ctx = RetreatContext(board, state, d.side)
    friends = {h: [o for o in v if o != uid] for h, v in ctx.friends.items()}
    edge_ok = False

    def walk(here: HexId, depth: int) -> bool:
        nonlocal edge_ok
        if depth == retreat_distance:
            others = [board.defs[o] for o in friends.get(here, [])]
            return check_stack(m, d, here, others) is None
        for n in sorted(m.neighbours(here)):
            if hexgrid.distance(start, n) != depth + 1:
                continue
            if m.hex(n).terrain == "impassable" or n in ctx.enemy_hexes or n in ctx.controlled:
                continue
            fr = friends.get(n)
            if u.road_mode and (not road_mode_passable(m, here, n) or fr):
                continue
            if m.is_allied_edge(n):
                if d.side == "allied":
                    edge_ok = True
                continue
            if fr and check_stack(m, d, n, [board.defs[o] for o in fr]):
                continue
            if fr and not u.road_mode and stacks_with_road_mode(board, state, uid, n):
                continue
            if walk(n, depth + 1):
                return True
        return False

    return walk(start, 0) or edge_ok


def trapped(
    board: Board, state: GameState, h: HexId, ctx: RetreatContext | None = None
) -> tuple[int, int, int]:
    """How many units in ``h`` have no legal retreat of 1, 2 and 3 hexes."""
    out = [0, 0, 0]
    for u in state.at(h):
        for n in (1, 2, 3):
            if not has_retreat(board, state, u.id, n, ctx):
                out[n - 1] += 1
    return (out[0], out[1], out[2])


__all__ = ["RetreatContext", "has_retreat", "trapped"]
