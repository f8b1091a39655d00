"""Pending combat decisions (:attr:`ao.Options.decision`): immunity, Ex losses, retreats and
advances after combat."""

from __future__ import annotations

from rules.ao import (
    AdvanceDecision,
    Board,
    Command,
    GameState,
    LossesDecision,
    PendingDecision,
    RetreatDecision,
    WaiveDecision,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF


def decide(ctx: Context, board: Board, state: GameState, d: PendingDecision) -> Command:
    """Never waive immunity; the engine's best-ranked retreat (random among the tied best);
    the weakest minimal Ex loss; advance the strongest mechanized unit into a cleared
    town or objective, else decline. Each answer is the decision's own command
    (:mod:`rules.ao.decisions`)."""
    defs = board.defs
    if isinstance(d, WaiveDecision):
        return d.answer(())
    if isinstance(d, LossesDecision):
        scored = [(sum(defs[u].strength for u in c), len(c), c) for c in d.sets]
        low = min(scored)[:2]
        return d.answer(ctx.rng.choice([c for s, n, c in scored if (s, n) == low]))
    if isinstance(d, RetreatDecision):
        return d.answer(ctx.rng.choice(d.paths))
    return advance(ctx, board, state, d)


def advance(ctx: Context, board: Board, state: GameState, d: AdvanceDecision) -> Command:
    """The heuristic advance (see :func:`decide`)."""
    defs = board.defs
    f = ctx.fields(board)
    units = list(d.units)
    if ctx.side == "german":
        # the German also advances a unit that gets nearer its objectives (the front moves)
        ahead = f.objective.get(d.hex, INF)
        units = [u for u in units if ahead < f.objective.get(state.unit(u).hex or "", -INF)]
        if units and d.hex not in f.towns:
            top = max(defs[u].strength for u in units)
            return d.answer(ctx.rng.choice([u for u in units if defs[u].strength == top]))
        units = list(d.units)
    if units and (d.hex in f.towns or (d.hex in f.objective and f.objective[d.hex] < 0)):
        top = max(defs[u].strength for u in units)
        return d.answer(ctx.rng.choice([u for u in units if defs[u].strength == top]))
    return d.answer(None)


__all__ = ["decide"]
