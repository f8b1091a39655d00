"""Immunity to Ar/Dr results and its waiver (AO-11.f, AO-11.h, AO-11.i, AO-11.f*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.ao.combat.protocol import PENDING, ask, in_play, set_combat, set_current, side_of
from rules.ao.events import Event, ImmunityWaived
from rules.ao.state import Board, Decision, GameState, Resolution, other_side
from rules.hexgrid import HexId
from rules.rejection import Rejection


def immunity_case(board: Board, state: GameState, uid: str) -> str | None:
    """Why Ar/Dr would not affect ``uid`` where it stands: town (AO-11.f) for any unit, West
    Wall (AO-11.h) or fortified terrain (AO-11.i) for a German unit; None if it would."""
    u = state.unit(uid)
    if u.hex is None:
        return None
    h = board.game_map.hex(u.hex)
    if h.town is not None:
        return "AO-11.f"
    if side_of(board, uid) == "german":
        if h.fortification == "westwall":
            return "AO-11.h"
        if h.fortification == "fortified":
            return "AO-11.i"
    return None


def immune_hexes(board: Board, state: GameState, units: Iterable[str]) -> tuple[HexId, ...]:
    """The hexes of ``units`` (those in play) immune to Ar/Dr results (AO-11.f, AO-11.h,
    AO-11.i), sorted: what a defender may waive before the roll, or an attacker in his
    declaration (AO-11.f*)."""
    out = {
        state.unit(uid).hex
        for uid in units
        if in_play(state, uid) and immunity_case(board, state, uid) is not None
    }
    return tuple(sorted(h for h in out if h is not None))


def step_waive(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    """Before the die the defender may waive the immunity of his immune hexes (AO-11.f*): by
    his standing orders, or asked."""
    dside = other_side(state.side)
    immune = immune_hexes(board, state, r.defenders)
    if not immune:
        return set_current(state, step="roll")
    orders = state.combat.orders(dside)
    if orders is not None:
        waived = tuple(h for h in immune if h in orders.waive)
        if waived:
            events.append(ImmunityWaived(side=dside, hexes=waived))
        return set_current(state, step="roll", waived=waived)
    return ask(
        state,
        Decision(
            side=dside, kind="waive_immunity", case="AO-11.f*", choices=tuple((h,) for h in immune)
        ),
        events,
    )


def decide_waive(
    board: Board, state: GameState, hexes: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    """``WaiveImmunity``: any subset of the offered hexes (AO-11.f*)."""
    p = state.combat.pending
    if p is None or p.kind != "waive_immunity":
        return Rejection(PENDING, "no immunity decision is pending")
    allowed = {c[0] for c in p.choices}
    bad = sorted(set(hexes) - allowed)
    if bad:
        return Rejection("AO-11.f*", f"no immunity to waive in {', '.join(bad)}")
    waived = tuple(sorted(set(hexes)))
    if waived:
        events.append(ImmunityWaived(side=p.side, hexes=waived))
    state = set_combat(state, pending=None)
    return set_current(state, step="roll", waived=waived)
