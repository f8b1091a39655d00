"""Reinforcements (AO-14) and the paratroop drop (AO-15): where the bots place what arrives.

* Every due unit (:attr:`ao.Options.reinforcements`) is placed (AO-4.1b: "the Phasing
  Player places all new units"): on the open entry hex with the fewest units already on it,
  then the fewest friends next to it on the road, then nearest the enemy - so a column spreads
  over the entry roads and each unit can drive off in the Initial Movement Phase (a unit that
  cannot goes back off the map, AO-14.2B, :mod:`rules.ao.column`).
* Von der Heydte drops on the legal drop hex (:attr:`ao.Options.drop_hexes`) nearest the
  German objectives that is not next to an Allied unit (random among equals).
"""

from __future__ import annotations

from rules import HexId
from rules.ao import (
    Applied,
    Command,
    Drop,
    Game,
    Place,
    apply,
    drop_required,
    road_links,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF


def reinforce(ctx: Context, game: Game) -> Command | None:
    """The next reinforcement placement the engine accepts, or None (each unit tried once)."""
    board, state = game.board, game.state
    m = board.game_map

    def crowding(h: HexId) -> tuple[int, int, int, HexId]:
        near = sum(len(state.at(x)) for x in road_links(m, h))
        return (len(state.at(h)), near, ctx.enemy_dist.get(h, INF), h)

    for due in game.options().reinforcements:
        uid = due.unit
        if uid in ctx.done:
            continue
        ctx.done.add(uid)
        for h in sorted(due.hexes, key=crowding):
            cmd = Place(uid, h)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
    return None


def drop(ctx: Context, game: Game) -> Command | None:
    """The German paratroop drop when it is due (:func:`ao.drop_required`), else None."""
    if ctx.side != "german" or not drop_required(game.board, game.state):
        return None
    obj = ctx.fields(game.board).objective
    hexes = game.options().drop_hexes
    safe = [h for h in hexes if ctx.enemy_dist.get(h, INF) >= 2] or list(hexes)
    if not safe:
        return None
    best = min(obj.get(h, INF) for h in safe)
    return Drop(ctx.rng.choice([x for x in safe if obj.get(x, INF) == best]))


__all__ = ["drop", "reinforce"]
