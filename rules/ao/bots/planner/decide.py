"""The planner's combat decisions: retreats and advances chosen by their effect on supply and
zones of control (AO-10.2a, AO-9.6N), looking one position ahead.

* **Retreat** (the victor picks among the paths tied for the best AO-10.2a rank, so it is
  always the *enemy's* unit): the end hex that leaves it worst off - lacking retreats next
  time (:data:`TRAP` per missing 1-, 2- or 3-hex retreat, AO-10.2b), out of supply
  (:data:`CUT`, AO-12.1A), not in a town (:data:`TOWN`: immune to Dr there, AO-11.f), and a
  German pushed away from his objectives (:data:`AWAY` a hex).
* **Advance** (one mechanized unit of the combat into the cleared hex, or none): each choice is
  valued on the position after it - the enemy stacks next to the hex that would lack
  retreats (:data:`CLOSE` per missing retreat gained: a later Dr kills them), the unit's own
  supply there (:data:`CUT`) and, Allied, the town/junction hold (:data:`HOLD`) less its
  own missing retreats (:data:`EXPOSED` each); declining is worth 0. The German first
  advances as the heuristic bot does (toward his objectives, into towns: the roads open) and
  otherwise only to close retreats.
* **Losses** (Ex, AO-10.1b): the minimal set of least printed strength; **immunity**: never
  waived (AO-11.f*).
"""

from __future__ import annotations

from typing import Final

from rules import HexId
from rules.ao import (
    Advance,
    AdvanceDecision,
    Board,
    Command,
    GameState,
    PendingDecision,
    RetreatDecision,
    other_side,
    supply_net,
)
from rules.ao.bots.context import Context
from rules.ao.bots.decisions import decide as heuristic_decide
from rules.ao.bots.planner.lookahead import moved, retreats_lacking, supplied_at

TRAP: Final = 30
CUT: Final = 40
TOWN: Final = 25
AWAY: Final = 4
CLOSE: Final = 12
EXPOSED: Final = 10
"""Allied advance: per retreat the unit would lack in the hex (the German attacks next; he
counts his own exposure only through the CRT, as the heuristic bot does)."""
HOLD: Final = 10


def decide(ctx: Context, board: Board, state: GameState, d: PendingDecision) -> Command:
    """The planner's answer to the pending decision ``d`` (its own command,
    :mod:`rules.ao.decisions`)."""
    if isinstance(d, RetreatDecision):
        return d.answer(retreat(ctx, board, state, d.unit, d.paths))
    if isinstance(d, AdvanceDecision):
        return advance(ctx, board, state, d.hex, list(d.units))
    return heuristic_decide(ctx, board, state, d)  # as the heuristic bot: never, the weakest


def retreat(
    ctx: Context,
    board: Board,
    state: GameState,
    uid: str,
    paths: tuple[tuple[HexId, ...], ...],
) -> tuple[HexId, ...]:
    """The path of the enemy's ``uid`` that leaves it worst off (see the module docstring);
    random among equals."""
    if len(paths) == 1:
        return paths[0]
    side = board.defs[uid].side
    net = supply_net(board, state, side)
    obj = ctx.fields(board).objective
    town = ctx.fields(board).towns
    scored: list[tuple[int, tuple[HexId, ...]]] = []
    for p in paths:
        end = p[-1]
        after = moved(state, [(uid, end)])
        s = TRAP * retreats_lacking(board, after, uid)
        if not supplied_at(board, net.closed, net.net, end):
            s += CUT
        if end not in town:
            s += TOWN
        if side == "german":
            s += AWAY * min(obj.get(end, 60), 60)
        scored.append((s, p))
    top = max(s for s, _ in scored)
    return ctx.rng.choice([p for s, p in scored if s == top])


def advance(ctx: Context, board: Board, state: GameState, h: HexId, units: list[str]) -> Command:
    """The German advances as the heuristic bot does (:func:`rules.ao.bots.decisions.decide`:
    the strongest unit that gets nearer his objectives, or into a town) and otherwise when the
    advance closes enemy retreats; the Allies advance the unit whose move into ``h`` scores
    best, or decline when none scores above 0 (see the module docstring)."""
    if not units:
        return Advance(h)
    side = board.defs[units[0]].side
    if side == "german":
        usual = heuristic_decide(
            ctx,
            board,
            state,
            AdvanceDecision(side=side, case="AO-9.6N", hex=h, units=tuple(units)),
        )
        if isinstance(usual, Advance) and usual.unit is not None:
            return usual
    enemy = other_side(side)
    m = board.game_map
    f = ctx.fields(board)
    near = sorted(
        {
            u.hex
            for n in m.neighbours(h)
            for u in state.at(n)
            if board.defs[u.id].side == enemy and u.hex is not None
        }
    )
    before = {x: _lacking(board, state, x) for x in near}
    net = supply_net(board, state, side)
    supplied = supplied_at(board, net.closed, net.net, h)
    best: list[tuple[int, str | None]] = [(0, None)]
    for uid in sorted(units):
        after = moved(state, [(uid, h)])
        closes = sum(_lacking(board, after, x) - before[x] for x in near)
        s = CLOSE * closes - (0 if supplied else CUT)
        if side == "german":
            if closes <= 0:
                continue
        else:
            s -= EXPOSED * retreats_lacking(board, after, uid)
            s += HOLD * ((h in f.towns) + (h in f.junctions) + (h in f.garrison))
        if s > best[0][0]:
            best = [(s, uid)]
        elif s == best[0][0]:
            best.append((s, uid))
    pick = ctx.rng.choice([u for _, u in best])
    return Advance(h) if pick is None else Advance(h, pick)


def _lacking(board: Board, state: GameState, h: HexId) -> int:
    """Missing retreats summed over the units in ``h``."""
    return sum(retreats_lacking(board, state, u.id) for u in state.at(h))


__all__ = ["advance", "decide", "retreat"]
