"""Eliminations and Exchange losses (AO-10.1b, AO-10.1c, AO-16.A)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules.ao.combat.protocol import (
    answered,
    ask,
    begin_advance,
    in_play,
    set_combat,
    side_of,
)
from rules.ao.events import Event, UnitEliminated, VictoryPointsScored
from rules.ao.odds import check_ex_losses, ex_loss_options
from rules.ao.state import Board, Decision, GameState, Resolution, VictoryPoints, other_side
from rules.ao.units import UnitDef
from rules.rejection import Rejection


def eliminate(
    board: Board, state: GameState, uid: str, case: str, events: list[Event], *, vp: bool = True
) -> GameState:
    """Eliminate ``uid``; the enemy scores one Victory Point (AO-16.A)."""
    u = state.unit(uid)
    events.append(UnitEliminated(unit=uid, hex=u.hex, case=case))
    new = msgspec.structs.replace(
        u, status="eliminated", hex=None, road_mode=False, must_leave_road_mode=False
    )
    state = state.replace_units([new])
    if vp:
        winner = other_side(side_of(board, uid))
        v = state.vp
        v = (
            VictoryPoints(german=v.german + 1, allied=v.allied)
            if winner == "german"
            else VictoryPoints(german=v.german, allied=v.allied + 1)
        )
        state = msgspec.structs.replace(state, vp=v)
        events.append(VictoryPointsScored(side=winner, points=1, unit=uid))
    return state


def _surviving_attackers(board: Board, state: GameState, r: Resolution) -> list[UnitDef]:
    return [board.defs[uid] for uid in r.attackers if in_play(state, uid)]


def _apply_losses(
    board: Board, state: GameState, r: Resolution, units: Sequence[str], events: list[Event]
) -> GameState:
    for uid in sorted(units):
        state = eliminate(board, state, uid, "AO-10.1b", events)
    return begin_advance(state, r.cleared, (uid for uid in r.attackers if in_play(state, uid)))


def step_losses(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    """Ex: the attacker loses at least ``r.need`` face strength (AO-10.1b); asked unless one set
    is possible or his standing orders leave it to the engine (the first minimal set)."""
    options = ex_loss_options(_surviving_attackers(board, state, r), r.need)
    orders = state.combat.orders(state.side)
    if len(options) == 1 or (orders is not None and orders.losses == "engine"):
        return _apply_losses(board, state, r, options[0], events)
    return ask(
        state,
        Decision(
            side=state.side, kind="losses", case="AO-10.1b", choices=tuple(options), need=r.need
        ),
        events,
    )


def decide_losses(
    board: Board, state: GameState, units: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    """``ChooseLosses``: any set of surviving attackers reaching ``need`` (AO-10.1b)."""
    got = answered(state, "losses", "no Exchange losses are pending")
    if isinstance(got, Rejection):
        return got
    _, r = got
    bad = check_ex_losses(list(units), _surviving_attackers(board, state, r), r.need)
    if bad is not None:
        return bad
    state = set_combat(state, pending=None)
    return _apply_losses(board, state, r, units, events)
