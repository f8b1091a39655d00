"""The sequence of play (AO-4): set-up steps, player-turns, phases and the Game-Turn 1 rules.

Order (AO-4.1a, AO-4.1b, AO-4.2a)::

    setup_allied -> setup_german ->
    GT1..18: German player-turn, then Allied player-turn, each
        reinforcement -> supply_judgment -> initial_movement -> combat -> mechanized_movement
        -> (phase 6: remove the phasing side's supply markers; clear per-turn flags)
    -> game_over

``EndPhase`` is the only way forward; automatic steps happen on entering a phase and are
reported as events:

* entering a movement phase resets every unit's ``moved``/``mp_spent`` (AO-5.1C, AO-5.1E) and,
  in Allied movement phases, reactivates dormant Allied units next to an in-play Allied unit on
  the live map (AO-5.3M);
* entering an Initial Movement Phase makes the phasing units marked ``must_leave_road_mode``
  leave Road Mode, paying its MP, or eliminates them when they cannot pay (AO-6.7L*), before
  anything else in the phase; ending it needs the road-column contacts a retreat left moved
  apart where a move can do it (AO-6.7N, :mod:`rules.ao.column`);
* entering a Supply Judgment Phase stores the phasing side's bridge interdiction (AO-13.1A)
  and sets its supply markers (AO-12.0; all Germans supplied on GT1, AO-4.2b); the end of the
  player-turn removes the markers (AO-4.1b) and lifts interdiction (AO-13.2C);
* entering a Game-Turn from GT6 leaves the German CRT switch die due (``Roll``, AO-10.3a,
  :mod:`rules.ao.rolls`) while he uses the Initial CRT;
* entering the German GT1 Combat Phase fixes the AO-4.2h* obligations; ending any Combat
  Phase needs the declared attacks resolved (``rules.ao.combat``);
* Game-Turn 1 (AO-4.2b-g): both Initial Movement Phases are skipped, and the combat
  multipliers of ``rules.ao.gameturn1`` apply.
"""

from __future__ import annotations

import msgspec

from rules.ao import column, combat, paradrop, reinforcements, roadmode, rolls, victory
from rules.ao.events import (
    DormantReactivated,
    Event,
    GameEnded,
    InterdictionSet,
    PhaseBegan,
    PhaseSkipped,
    ReinforcementDelayed,
    ReinforcementWithdrawn,
    RoadModeChanged,
    SupplyChanged,
    VictoryPointsTabulated,
)
from rules.ao.gameturn1 import (
    german_always_supplied,
    german_attack_multiplier,
    german_defence_multiplier,
    reinforcements_allowed,
)
from rules.ao.interdiction import interdiction_for, lift_interdiction
from rules.ao.movement import movement_allowance
from rules.ao.setup_rules import setup_end_check
from rules.ao.state import (
    LAST_TURN,
    PLAYER_TURN_PHASES,
    Board,
    GameState,
    Interdiction,
    Phase,
    UnitState,
    phase_is_lost,
)
from rules.ao.supply import supply_judgment, with_supply_markers
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection

# -- Game-Turn 1 special rules (AO-4.2), defined in rules.ao.gameturn1 ---------------------------

__all__ = [
    "end_phase",
    "forced_road_mode_exits",
    "german_always_supplied",
    "german_attack_multiplier",
    "german_defence_multiplier",
    "next_phase",
    "paradrop_due",
    "reinforcement_end_check",
    "reinforcements_allowed",
]


def next_phase(turn: int, side: Side, phase: Phase) -> tuple[int, Side, Phase]:
    """The position in the sequence after ``phase`` (lost phases included, AO-4.2c)."""
    if phase == "setup_allied":
        return 1, "german", "setup_german"
    if phase == "setup_german":
        return 1, "german", "reinforcement"
    if phase == "game_over":
        return turn, side, phase
    i = PLAYER_TURN_PHASES.index(phase)
    if i + 1 < len(PLAYER_TURN_PHASES):
        return turn, side, PLAYER_TURN_PHASES[i + 1]
    if side == "german":
        return turn, "allied", "reinforcement"
    if turn >= LAST_TURN:
        return turn, side, "game_over"
    return turn + 1, "german", "reinforcement"


# -- automatic steps ----------------------------------------------------------------------------


def _set(state: GameState, rows: dict[str, UnitState]) -> GameState:
    return state.replace_units(rows[k] for k in sorted(rows))


def withdraw_crowded_reinforcements(
    board: Board, state: GameState, events: list[Event]
) -> GameState:
    """At the end of a movement phase, reinforcements that never left a live entry hex they
    share with other units go back off the map, due again next Reinforcement Phase.

    Staging lets several Road Mode reinforcements wait on one entry hex while they drive off it
    (AO-14.2B), but the stacking limit and Road Mode spacing hold "at ALL times" (AO-8.0,
    AO-6.5G): a crowd may not outlast the phase. The phase may not end while one of them can
    still move off (:func:`rules.ao.column.crowd_end_check`), so only units that could not get
    onto the map are left: they have not entered, and are due again (and must be placed again,
    AO-4.1b), as a unit that finds no open entry hex waits. The unit that entered first (lowest
    staging penalty, then id) stays; Allied Map Edge hexes have no limit (AO-8.3F) and are left
    alone.
    """
    m = board.game_map
    by_hex: dict[HexId, list[UnitState]] = {}
    for u in state.units:
        if u.status == "on_map" and u.hex is not None and not m.is_allied_edge(u.hex):
            by_hex.setdefault(u.hex, []).append(u)
    rows: dict[str, UnitState] = {}
    for h in sorted(by_hex):
        units = by_hex[h]
        staged = sorted(
            (u for u in units if u.staging is not None and board.defs[u.id].side == state.side),
            key=lambda u: (u.staging or 0, u.id),
        )
        if len(units) < 2 or not staged:
            continue
        keep = 0 if len(staged) == len(units) else -1  # a unit that moved in keeps the hex
        for i, u in enumerate(staged):
            if i == keep:
                continue
            rows[u.id] = UnitState(id=u.id, status="not_arrived")
            events.append(ReinforcementWithdrawn(unit=u.id, hex=h, case="AO-6.5G"))
    return _set(state, rows)


def _end_player_turn(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Phase 6 of AO-4.1b: remove the phasing side's supply markers; clear per-turn flags.

    A reinforcement still waiting on its entry hex stops staging here: the penalty of AO-14.2B
    counts only the units that entered "in that same Phase", so it is an ordinary unit for the
    next Reinforcement Phase's entries."""
    rows: dict[str, UnitState] = {}
    for u in state.units:
        new = u
        mine = board.defs[u.id].side == state.side
        if mine and u.supply != "supplied":
            new = msgspec.structs.replace(new, supply="supplied")
            events.append(SupplyChanged(unit=u.id, supply="supplied", case="AO-4.1b"))
        if mine and new.staging is not None:
            new = msgspec.structs.replace(new, staging=None)
        if new.moved or new.mp_spent or new.attacked or new.was_attacked or new.in_combat:
            new = msgspec.structs.replace(
                new, moved=False, mp_spent=0, attacked=False, was_attacked=False, in_combat=False
            )
        if new is not u:
            rows[u.id] = new
    state = _set(state, rows)
    return _set_interdiction(state, lift_interdiction(board, state, state.side), "AO-13.2C", events)


def _set_interdiction(
    state: GameState, bridges: tuple[tuple[str, str], ...], case: str, events: list[Event]
) -> GameState:
    side = state.side
    if bridges == state.interdicted.for_side(side):
        return state
    events.append(InterdictionSet(side=side, bridges=bridges, case=case))
    i = state.interdicted
    new = (
        Interdiction(german=bridges, allied=i.allied)
        if side == "german"
        else Interdiction(german=i.german, allied=bridges)
    )
    return msgspec.structs.replace(state, interdicted=new)


def _supply_judgment(board: Board, state: GameState, events: list[Event]) -> GameState:
    """The phasing side's Supply Judgment Phase: its bridge interdiction (AO-13.1A, AO-13.4E,
    AO-13.a*), then its supply markers (AO-12.0, AO-12.3; all Germans on GT1, AO-4.2b),
    which hold for the whole player-turn (AO-12.4K, AO-12.0*)."""
    side = state.side
    state = _set_interdiction(
        state, interdiction_for(board, state, side, state.turn), "AO-13.1A", events
    )
    judgment = supply_judgment(board, state, side)
    gt1 = side == "german" and german_always_supplied(state)
    for uid, supply in judgment.items():
        if state.unit(uid).supply != supply:
            case = {"supplied": "AO-4.2b" if gt1 else "AO-12.0", "unsupplied": "AO-12.3G"}.get(
                supply, "AO-12.3H"
            )
            events.append(SupplyChanged(unit=uid, supply=supply, case=case))
    return with_supply_markers(state, judgment)


def _reset_movement(state: GameState) -> GameState:
    rows = {
        u.id: msgspec.structs.replace(u, moved=False, mp_spent=0)
        for u in state.units
        if u.moved or u.mp_spent
    }
    return _set(state, rows)


def _reactivate_dormant(board: Board, state: GameState, events: list[Event]) -> GameState:
    """AO-5.3M: dormant Allied units next to an in-play Allied unit on the live map re-enter."""
    m = board.game_map
    live: set[str] = {
        u.hex
        for u in state.units
        if u.in_play
        and u.hex is not None
        and board.defs[u.id].side == "allied"
        and not m.is_allied_edge(u.hex)
    }
    rows: dict[str, UnitState] = {}
    for u in state.units:
        if (
            u.status == "dormant"
            and u.hex is not None
            and any(n in live for n in m.neighbours(u.hex))
        ):
            rows[u.id] = msgspec.structs.replace(u, status="on_map")
            events.append(DormantReactivated(unit=u.id, hex=u.hex))
    return _set(state, rows)


def forced_road_mode_exits(board: Board, state: GameState, events: list[Event]) -> GameState:
    """AO-6.7L*: at the start of the phasing side's Initial Movement Phase, every unit marked
    ``must_leave_road_mode`` leaves Road Mode, paying 3/6 MP out of its (possibly halved)
    Movement Allowance; a unit that cannot pay, or that is unsupplied or isolated with a printed
    Movement Allowance under twelve, is eliminated
    (:func:`rules.ao.roadmode.can_leave_when_forced`).
    """
    rows: dict[str, UnitState] = {}
    eliminated: list[str] = []
    for u in state.units:
        d = board.defs[u.id]
        if d.side != state.side or not u.must_leave_road_mode:
            continue
        if not u.road_mode or not u.in_play:
            rows[u.id] = msgspec.structs.replace(u, must_leave_road_mode=False)
            continue
        cost = roadmode.mode_change_cost(d)
        if not roadmode.can_leave_when_forced(d, u.supply, movement_allowance(d, u) - u.mp_spent):
            eliminated.append(u.id)
        else:
            rows[u.id] = msgspec.structs.replace(
                u, road_mode=False, must_leave_road_mode=False, mp_spent=u.mp_spent + cost
            )
            events.append(
                RoadModeChanged(unit=u.id, hex=u.hex or "", road_mode=False, cost=cost, forced=True)
            )
    state = _set(state, rows)
    for uid in eliminated:
        state = combat.eliminate(board, state, uid, "AO-6.7L*", events)
    return state


def _reinforcement_phase(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Start of a Reinforcement Phase: units due on a blocked section are delayed (AO-14.1b)."""
    before = state.delayed
    after = reinforcements.delays_for_phase(board, state, state.side, state.turn)
    for d in reinforcements.newly_delayed(before, after):
        events.append(
            ReinforcementDelayed(unit=d.unit, turn=d.turn, section=d.section, delays=d.delays)
        )
    if after == before:
        return state
    return msgspec.structs.replace(state, delayed=after)


def _clear_staging(state: GameState) -> GameState:
    """The entry penalty of AO-14.2B is lost once the Initial Movement Phase of the player-turn
    of entry is over; a unit still waiting on its entry hex keeps ``staging = 0`` (its
    exemption on that hex) until it moves or its player-turn ends (:func:`_end_player_turn`)."""
    rows = {u.id: msgspec.structs.replace(u, staging=0) for u in state.units if u.staging}
    return _set(state, rows)


def _end_of_game_turn(board: Board, state: GameState, events: list[Event]) -> GameState:
    """End of a complete Game-Turn (after the Allied player-turn): tabulate the VP (AO-16.E),
    release the West-bank units at 25 German VP for good (AO-14.3C), and end the game when
    there is a verdict (AO-16.1-3; always after Game-Turn 18)."""
    t = victory.tally(board, state)
    vp = t.vp
    # AO-14.3C: released for good once reached, by the running VP before this tabulation
    # (which may show less: exits lost) or by the tabulation itself
    released = reinforcements.west_bank_released(state) or vp.german >= reinforcements.WB_RELEASE_VP
    events.append(
        VictoryPointsTabulated(
            turn=state.turn,
            german=vp.german,
            allied=vp.allied,
            exit_vp=sum(e.vp for e in t.exits),
            wb_released=released,
        )
    )
    state = msgspec.structs.replace(state, vp=vp, wb_released=released)
    v = victory.verdict_for(state.turn, vp)
    if v is not None:
        state = msgspec.structs.replace(state, phase="game_over", result=v)
    return state


def _enter(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Automatic steps on entering ``state.phase``; skips lost phases (AO-4.2c)."""
    while True:
        if state.phase == "game_over":
            events.append(GameEnded(turn=state.turn, verdict=state.result))
            return state
        if phase_is_lost(state.turn, state.phase):
            events.append(
                PhaseSkipped(turn=state.turn, side=state.side, phase=state.phase, case="AO-4.2c")
            )
            turn, side, phase = next_phase(state.turn, state.side, state.phase)
            state = msgspec.structs.replace(state, turn=turn, side=side, phase=phase)
            continue
        break
    events.append(PhaseBegan(turn=state.turn, side=state.side, phase=state.phase))
    if state.phase == "reinforcement":
        state = _reinforcement_phase(board, state, events)
    if state.phase in ("combat", "mechanized_movement"):
        state = _clear_staging(state)
    if state.phase == "supply_judgment":
        state = _supply_judgment(board, state, events)
    if state.phase == "combat" and state.turn == 1 and state.side == "german":
        state = msgspec.structs.replace(
            state,
            combat=msgspec.structs.replace(state.combat, obliged=combat.gt1_obliged(board, state)),
        )
    if state.phase in ("initial_movement", "mechanized_movement"):
        state = _reset_movement(state)
        # Forced Road Mode exits come "before any other activity" of the Initial Movement
        # Phase (AO-6.7L*), so before dormant units reactivate (AO-5.3M).
        if state.phase == "initial_movement":
            state = forced_road_mode_exits(board, state, events)
        if state.side == "allied":
            state = _reactivate_dormant(board, state, events)
    return state


def reinforcement_end_check(board: Board, state: GameState) -> Rejection | None:
    """No player may end his Reinforcement Phase while a unit is due with an entry hex open to
    it: "the Phasing Player places all new units on the game map" (AO-4.1b phase 1; on
    Game-Turn 1 "The German places his reinforcements on the map edge", AO-4.2b), and the
    Allied ones "may not be voluntarily delayed" (AO-14.1A). A unit with no open entry hex is
    not due now (:func:`rules.ao.reinforcements.due`): it waits, and is not delayed by choice."""
    left = reinforcements.due(board, state, state.side, state.turn)
    if not left:
        return None
    names = ", ".join(f"{u} ({s})" for u, s in left)
    if state.side == "allied":
        return Rejection(
            "AO-14.1A",
            f"Allied reinforcements may not be delayed voluntarily: place {names} first",
        )
    case = "AO-4.2b" if state.turn == 1 else "AO-4.1b"
    return Rejection(case, f"the German places all new units on the map: place {names} first")


def paradrop_due(board: Board, state: GameState) -> bool:
    """The paratroop drop must happen now (AO-15.a): pending and some hex can take it. When no
    hex on the map can take it the drop lapses and the unit never enters (no VP)."""
    return paradrop.drop_required(board, state)


def end_phase_check(board: Board, state: GameState) -> Rejection | None:
    """Why ``EndPhase`` is refused now, else None. The checks of :func:`end_phase`, without
    its automatic steps."""
    if state.phase == "game_over":
        return Rejection("AO-4.1a", f"the game ended after Game-Turn {state.turn}")
    due = rolls.check_due(state)
    if due is not None:
        return due
    if state.phase == "combat":
        bad = combat.end_of_combat_check(board, state)
        if bad is not None:
            return bad
    if state.phase == "reinforcement":
        bad = reinforcement_end_check(board, state)
        if bad is not None:
            return bad
    if state.phase in ("setup_allied", "setup_german"):
        # AO-17.a-c: the deploying side's whole set-up, a last check (rules.ao.setup_rules)
        bad = setup_end_check(board, state)
        if bad is not None:
            return bad
    if state.phase == "initial_movement" and paradrop_due(board, state):
        return paradrop.check_not_pending(board, state, "the end of the phase") or Rejection(
            "AO-15.a", "the paratroop unit must drop first"
        )
    if state.phase == "initial_movement":
        bad = column.contact_end_check(board, state)  # AO-6.7N
        if bad is not None:
            return bad
    if state.phase in ("initial_movement", "mechanized_movement"):
        return column.crowd_end_check(board, state)  # AO-14.2B
    return None


def end_phase(board: Board, state: GameState) -> tuple[GameState, list[Event]] | Rejection:
    """End the current phase and enter the next one (with its automatic steps). Entering a
    Game-Turn from GT6 on may leave the CRT switch die due (AO-10.3a, ``Roll``). Ending a
    Combat Phase needs every declared attack resolved and, on Game-Turn 1, the German
    obligations met (AO-4.2h*); ending a set-up step, a legal set-up of the deploying side
    (AO-17.a-c, :func:`rules.ao.setup_rules.setup_end_check`). Never rolls a die."""
    bad = end_phase_check(board, state)
    if bad is not None:
        return bad
    events: list[Event] = []
    if state.phase == "combat":
        state = msgspec.structs.replace(state, combat=combat.cleared_for_next_phase(state))
    if state.phase in ("initial_movement", "mechanized_movement"):
        state = withdraw_crowded_reinforcements(board, state, events)
    if state.phase == "mechanized_movement":
        state = _end_player_turn(board, state, events)
        if state.side == "allied":
            state = _end_of_game_turn(board, state, events)
            if state.phase == "game_over":
                events.append(GameEnded(turn=state.turn, verdict=state.result))
                return state, events
    turn, side, phase = next_phase(state.turn, state.side, state.phase)
    new_turn = turn != state.turn
    state = msgspec.structs.replace(state, turn=turn, side=side, phase=phase)
    if phase in ("setup_german",):
        events.append(PhaseBegan(turn=turn, side=side, phase=phase))
        return state, events
    state = _enter(board, state, events)
    if new_turn and phase != "game_over":
        state = rolls.switch_due(state, events)
    return state, events
