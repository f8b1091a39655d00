"""Reinforcements (AO-14) and the paratroop drop (AO-15): where the bots place what arrives.

* Every due unit (:attr:`rules.Options.reinforcements`) goes on its open entry hex nearest the
  enemy. The German places at most one unit per entry hex, and not next to a friend on the
  road, so an entry stack stays legal even if it does not move on (AO-8.0, AO-6.5G).
* Von der Heydte drops on the legal drop hex (:attr:`rules.Options.drop_hexes`) nearest the
  German objectives that is not next to an Allied unit (random among equals).
"""

from __future__ import annotations

from rules import Applied, Command, Drop, Game, Place, apply, drop_required, road_links
from rules.bots.context import Context
from rules.bots.fields import INF


def reinforce(ctx: Context, game: Game) -> Command | None:
    """The next reinforcement placement the engine accepts, or None (each unit tried once)."""
    board, state = game.board, game.state
    for due in game.options().reinforcements:
        uid = due.unit
        if uid in ctx.done:
            continue
        ctx.done.add(uid)
        entries = sorted(due.hexes, key=lambda h: (ctx.enemy_dist.get(h, INF), h))
        for h in entries:
            if ctx.side == "german" and any(
                state.at(x) for x in (h, *road_links(board.game_map, h))
            ):
                # one unit per entry hex and away from friends on the road: legal even
                # if it does not move on (AO-8.0, AO-6.5G) once staging ends
                continue
            cmd = Place(uid, h)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
    return None


def drop(ctx: Context, game: Game) -> Command | None:
    """The German paratroop drop when it is due (:func:`rules.drop_required`), else None."""
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
