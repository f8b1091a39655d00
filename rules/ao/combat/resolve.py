"""Resolving the batch: the loop over declared attacks, the dice, the roll step (AO-9.4,
AO-10.1, AO-12.4K, AO-13.c*, AO-6.7L*), and the end of the Combat Phase (AO-4.2h*)."""

from __future__ import annotations

from typing import Final

import msgspec

from rules import hexgrid
from rules.ao.combat.advance import step_advance
from rules.ao.combat.declare import defender_strength
from rules.ao.combat.gt1 import gt1_unmet
from rules.ao.combat.immunity import immunity_case, step_waive
from rules.ao.combat.losses import eliminate, step_losses
from rules.ao.combat.protocol import (
    PENDING,
    begin_advance,
    busy,
    defending_units,
    in_play,
    set_combat,
    set_current,
    side_of,
)
from rules.ao.combat.retreat import step_retreat
from rules.ao.crt import crt_for, resolve
from rules.ao.events import AttackCancelled, CombatResolved, Event, ResultIgnored
from rules.ao.odds import attack_strength_in, column_rank, face_total, odds_column, reduce_odds
from rules.ao.state import Board, CombatState, GameState, Resolution
from rules.dice import DiceSource, draw
from rules.rejection import Rejection

DICE_NEEDED: Final = "dice-needed"
"""Pseudo case id: the command needs a die and ``apply`` was given no dice source."""


class DiceNeeded(Exception):
    """Raised inside a command that must roll when no dice source was given."""

    def __init__(self, purpose: str) -> None:
        super().__init__(purpose)
        self.purpose = purpose


class Roller:
    """Draws dice for one command: ``source.uniform(index, 6)``, index from
    ``GameState.dice_drawn``."""

    __slots__ = ("events", "index", "source")

    def __init__(self, source: DiceSource | None, index: int, events: list[Event]) -> None:
        self.source = source
        self.index = index
        self.events = events

    def roll(self, purpose: str) -> int:
        if self.source is None:
            raise DiceNeeded(purpose)
        rec, self.index = draw(self.source, self.index, purpose)
        self.events.append(rec)
        return rec.value


def _start_next(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Take the first declared attack; re-check who can still take part (earlier results of
    the batch may have moved or eliminated units)."""
    c = state.combat
    attack, rest = c.declared[0], c.declared[1:]
    state = set_combat(state, declared=rest)
    defenders = [
        uid for uid in defending_units(state, attack.defenders) if side_of(board, uid) != state.side
    ]
    dhexes = {state.unit(uid).hex or "" for uid in defenders}
    attackers = [
        uid
        for uid in attack.attackers
        if in_play(state, uid)
        and all(hexgrid.adjacent(state.unit(uid).hex or "", h) for h in dhexes)
    ]
    reason = None
    if not defenders:
        reason = "no defending unit is left in the attacked hexes"
    elif not attackers:
        reason = "no attacking unit is left next to the defenders"
    elif attack_strength_in(board, state, attackers) == 0:
        reason = "the remaining attackers have no attack strength (AO-12.6)"
    if reason is not None:
        events.append(
            AttackCancelled(attackers=attack.attackers, defenders=attack.defenders, reason=reason)
        )
        return state
    return set_combat(
        state,
        current=Resolution(
            attack=attack,
            step="waive",
            attackers=tuple(sorted(attackers)),
            defenders=tuple(sorted(defenders)),
        ),
    )


def _flag(state: GameState, r: Resolution) -> GameState:
    """Mark the units of the attack (AO-9.1C); Road Mode units must leave it (AO-6.7L*)."""
    rows = []
    for units, flag in ((r.attackers, "attacked"), (r.defenders, "was_attacked")):
        for uid in units:
            u = state.unit(uid)
            changes = {
                flag: True,
                "in_combat": True,
                "must_leave_road_mode": u.must_leave_road_mode or u.road_mode,
            }
            rows.append(msgspec.structs.replace(u, **changes))
    return state.replace_units(rows)


def _step_roll(
    board: Board, state: GameState, r: Resolution, roller: Roller, events: list[Event]
) -> GameState:
    dhexes = sorted({state.unit(uid).hex or "" for uid in r.defenders})
    att = attack_strength_in(board, state, r.attackers)
    dfn = defender_strength(board, state, r.defenders, dhexes)
    real = odds_column(att, dfn)
    assert not isinstance(real, Rejection)  # zero attack strength is cancelled before
    column = real
    wanted = r.attack.odds
    if wanted is not None and column_rank(wanted) < column_rank(real):
        ok = reduce_odds(real, wanted, state.side)
        column = ok if isinstance(ok, str) else column
    table = crt_for(state)
    state = _flag(state, r)
    die = roller.roll(f"combat:{','.join(dhexes)}")
    res = resolve(table, column, die)
    events.append(
        CombatResolved(
            attackers=r.attackers,
            defenders=r.defenders,
            attack=att,
            defence=dfn,
            column=column,
            table=table,
            die=die,
            result=str(res),
        )
    )
    ahexes = sorted({state.unit(uid).hex or "" for uid in r.attackers})
    # ``cleared`` holds the hexes the result may vacate until the advance step filters them.
    vacated = tuple(ahexes if res.kind == "Ar" else dhexes)
    state = set_current(state, column=column, result=str(res), cleared=vacated)
    if res.kind in ("Ex", "De"):
        need = face_total(board.defs[uid] for uid in r.defenders)
        for uid in r.defenders:
            state = eliminate(
                board, state, uid, "AO-10.1b" if res.kind == "Ex" else "AO-10.1c", events
            )
        if res.kind == "Ex":
            return set_current(state, step="losses", need=need)
        return begin_advance(state, dhexes, r.attackers)
    movers = r.defenders if res.kind == "Dr" else r.attackers
    waived = set(r.waived) if res.kind == "Dr" else set(r.attack.waive)
    retreating = []
    for uid in movers:
        if not in_play(state, uid):
            continue
        case = immunity_case(board, state, uid)
        h = state.unit(uid).hex or ""
        if case is not None and h not in waived:
            events.append(ResultIgnored(unit=uid, hex=h, case=case))
            continue
        retreating.append(uid)
    return set_current(
        state, step="retreat", retreating=tuple(retreating), retreat_distance=res.hexes
    )


def run(board: Board, state: GameState, roller: Roller, events: list[Event]) -> GameState:
    """Resolve the batch until it is done or a decision is pending."""
    while True:
        c = state.combat
        if c.pending is not None:
            return state
        r = c.current
        if r is None:
            if not c.declared:
                return state
            state = _start_next(board, state, events)
            continue
        if r.step == "waive":
            state = step_waive(board, state, r, events)
        elif r.step == "roll":
            state = _step_roll(board, state, r, roller, events)
        elif r.step == "losses":
            state = step_losses(board, state, r, events)
        elif r.step == "retreat":
            state = step_retreat(board, state, r, events)
        else:
            state = step_advance(board, state, r, events)


def end_of_combat_check(board: Board, state: GameState) -> Rejection | None:
    """Whether the Combat Phase may end: nothing declared or being resolved; on GT1 the German
    obligations met (AO-4.2h*)."""
    refused = busy(state)
    if refused is not None:
        return refused
    if state.combat.declared:
        return Rejection(PENDING, "declared attacks are waiting: resolve them first")
    if state.turn == 1 and state.side == "german":
        us_left, de_left = gt1_unmet(board, state)
        if us_left or de_left:
            parts = []
            if us_left:
                parts.append("American units not yet attacked: " + ", ".join(us_left))
            if de_left:
                parts.append("German units that have not attacked: " + ", ".join(de_left))
            return Rejection("AO-4.2h*", "; ".join(parts))
    return None


def cleared_for_next_phase(state: GameState) -> CombatState:
    """The combat state after the Combat Phase: only the standing orders stay."""
    c = state.combat
    return CombatState(german_orders=c.german_orders, allied_orders=c.allied_orders)
