"""The combat state and its decision protocol, shared by the steps of :mod:`rules.ao.combat`.

``GameState.combat`` (:class:`rules.ao.state.CombatState`) holds the declared batch, the attack
being resolved (``current``, a :class:`rules.ao.state.Resolution`) and the decision it waits for
(``pending``, a :class:`rules.ao.state.Decision`). The helpers here edit it; :func:`ask` stops the
loop on a decision and reports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import msgspec

from rules.ao.events import DecisionPending, Event
from rules.ao.state import Board, Decision, DecisionKind, GameState, Resolution
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection

PENDING: Final = "decision-pending"
"""Pseudo case id: the command does not fit the state of the combat protocol."""


def side_of(board: Board, uid: str) -> Side:
    return board.defs[uid].side


def in_play(state: GameState, uid: str) -> bool:
    u = state.find(uid)
    return u is not None and u.in_play


def set_combat(state: GameState, **changes: object) -> GameState:
    return msgspec.structs.replace(state, combat=msgspec.structs.replace(state.combat, **changes))


def set_current(state: GameState, **changes: object) -> GameState:
    cur = state.combat.current
    assert cur is not None
    return set_combat(state, current=msgspec.structs.replace(cur, **changes))


def ask(state: GameState, decision: Decision, events: list[Event]) -> GameState:
    """Stop the resolution on ``decision`` (``combat.pending``) and report it."""
    events.append(
        DecisionPending(
            side=decision.side,
            kind=decision.kind,
            unit=decision.unit,
            hex=decision.hex,
            case=decision.case,
            choices=decision.choices,
            need=decision.need,
        )
    )
    return set_combat(state, pending=decision)


def answered(
    state: GameState, kind: DecisionKind, refusal: str | None = None
) -> tuple[Decision, Resolution] | Rejection:
    """The pending decision of ``kind`` and the attack it stops, or the refusal of an answer
    that fits no pending decision (default ``no <kind> decision is pending``)."""
    p, r = state.combat.pending, state.combat.current
    if p is None or p.kind != kind or r is None:
        return Rejection(PENDING, refusal or f"no {kind} decision is pending")
    return p, r


def busy(state: GameState) -> Rejection | None:
    """Refusal while an attack is being resolved (a step or a decision under way)."""
    c = state.combat
    if c.pending is not None or c.current is not None:
        return Rejection(PENDING, "an attack is being resolved: answer its decision first")
    return None


def reserved(state: GameState) -> tuple[set[str], set[HexId]]:
    """The attacking units and the defending hexes of the attacks declared in the batch."""
    units: set[str] = set()
    hexes: set[HexId] = set()
    for a in state.combat.declared:
        units.update(a.attackers)
        hexes.update(a.defenders)
    return units, hexes


def defending_units(state: GameState, hexes: Iterable[HexId]) -> list[str]:
    """The units in play in ``hexes``, hex by hex in sorted order."""
    return [u.id for h in sorted(set(hexes)) for u in state.at(h)]


def begin_advance(
    state: GameState, vacated: Iterable[HexId], advancing: Iterable[str]
) -> GameState:
    """Go to the ``advance`` step (AO-9.6N): offer the hexes of ``vacated`` left empty, in
    order, to ``advancing``."""
    return set_current(
        state,
        step="advance",
        cleared=tuple(h for h in sorted(set(vacated)) if not state.at(h)),
        advancing=tuple(advancing),
    )
