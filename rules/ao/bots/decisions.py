"""Pending combat decisions (:attr:`rules.Options.decision`): immunity, Ex losses, retreats and
advances after combat."""

from __future__ import annotations

from rules import (
    Advance,
    Board,
    ChooseLosses,
    ChooseRetreat,
    Command,
    Decision,
    GameState,
    WaiveImmunity,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF


def decide(ctx: Context, board: Board, state: GameState, d: Decision) -> Command:
    """Never waive immunity; the engine's best-ranked retreat (random among the tied best);
    the weakest minimal Ex loss; advance the strongest mechanized unit into a cleared
    town or objective, else decline."""
    defs = board.defs
    if d.kind == "waive_immunity":
        return WaiveImmunity(())
    if d.kind == "losses":
        scored = [(sum(defs[u].strength for u in c), len(c), c) for c in d.choices]
        low = min(scored)[:2]
        return ChooseLosses(ctx.rng.choice([c for s, n, c in scored if (s, n) == low]))
    if d.kind == "retreat":
        assert d.unit is not None
        return ChooseRetreat(d.unit, ctx.rng.choice(d.choices))
    assert d.hex is not None
    f = ctx.fields(board)
    units = [c[0] for c in d.choices if c]
    if ctx.side == "german":
        # the German also advances a unit that gets nearer its objectives (the front moves)
        ahead = f.objective.get(d.hex, INF)
        units = [u for u in units if ahead < f.objective.get(state.unit(u).hex or "", -INF)]
        if units and d.hex not in f.towns:
            top = max(defs[u].strength for u in units)
            return Advance(d.hex, ctx.rng.choice([u for u in units if defs[u].strength == top]))
        units = [c[0] for c in d.choices if c]
    if units and (d.hex in f.towns or (d.hex in f.objective and f.objective[d.hex] < 0)):
        top = max(defs[u].strength for u in units)
        return Advance(d.hex, ctx.rng.choice([u for u in units if defs[u].strength == top]))
    return Advance(d.hex)


__all__ = ["decide"]
