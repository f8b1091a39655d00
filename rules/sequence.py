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
  anything else in the phase;
* Game-Turn 1 (AO-4.2b-g): all German units are in supply in the German Supply Judgment Phase,
  both Initial Movement Phases are skipped, and the combat multipliers below apply.

Phases whose content belongs to later issues (reinforcement placement, supply judgment,
combat) are entered and left with ``EndPhase``; their state changes arrive with those issues.
"""

from __future__ import annotations

import msgspec

from rules import roadmode
from rules.events import (
    DormantReactivated,
    Event,
    GameEnded,
    PhaseBegan,
    PhaseSkipped,
    RoadModeChanged,
    SupplyChanged,
    UnitEliminated,
)
from rules.movement import movement_allowance
from rules.rejection import Rejection
from rules.state import (
    LAST_TURN,
    PLAYER_TURN_PHASES,
    Board,
    GameState,
    Phase,
    UnitState,
    phase_is_lost,
)
from rules.units import Side

# -- Game-Turn 1 special rules (AO-4.2), for the combat, supply and reinforcement issues ---------


def german_attack_multiplier(state: GameState) -> int:
    """3 in the German GT1 Combat Phase (AO-4.2d: tripled, never more), else 1."""
    return 3 if state.turn == 1 and state.side == "german" else 1


def german_defence_multiplier(state: GameState) -> int:
    """3 for German defenders in the Allied GT1 Combat Phase (AO-4.2e), else 1."""
    return 3 if state.turn == 1 and state.side == "allied" else 1


def german_always_supplied(state: GameState) -> bool:
    """All German units are in supply on Game-Turn 1 (AO-4.2b)."""
    return state.turn == 1


def reinforcements_allowed(state: GameState) -> bool:
    """No Allied reinforcements on Game-Turn 1 (AO-4.2g)."""
    return not (state.turn == 1 and state.side == "allied")


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


def _end_player_turn(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Phase 6 of AO-4.1b: remove the phasing side's supply markers; clear per-turn flags."""
    rows: dict[str, UnitState] = {}
    for u in state.units:
        new = u
        if board.defs[u.id].side == state.side and u.supply != "supplied":
            new = msgspec.structs.replace(new, supply="supplied")
            events.append(SupplyChanged(unit=u.id, supply="supplied", case="AO-4.1b"))
        if new.moved or new.mp_spent or new.attacked or new.was_attacked or new.in_combat:
            new = msgspec.structs.replace(
                new, moved=False, mp_spent=0, attacked=False, was_attacked=False, in_combat=False
            )
        if new is not u:
            rows[u.id] = new
    return _set(state, rows)


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
    Movement Allowance; a unit that cannot pay is eliminated."""
    rows: dict[str, UnitState] = {}
    for u in state.units:
        d = board.defs[u.id]
        if d.side != state.side or not u.must_leave_road_mode:
            continue
        if not u.road_mode or not u.in_play:
            rows[u.id] = msgspec.structs.replace(u, must_leave_road_mode=False)
            continue
        cost = roadmode.mode_change_cost(d)
        if movement_allowance(d, u) - u.mp_spent < cost:
            rows[u.id] = msgspec.structs.replace(
                u, status="eliminated", hex=None, road_mode=False, must_leave_road_mode=False
            )
            events.append(UnitEliminated(unit=u.id, hex=u.hex, case="AO-6.7L*"))
        else:
            rows[u.id] = msgspec.structs.replace(
                u, road_mode=False, must_leave_road_mode=False, mp_spent=u.mp_spent + cost
            )
            events.append(
                RoadModeChanged(unit=u.id, hex=u.hex or "", road_mode=False, cost=cost, forced=True)
            )
    return _set(state, rows)


def _gt1_german_supply(board: Board, state: GameState, events: list[Event]) -> GameState:
    rows: dict[str, UnitState] = {}
    for u in state.units:
        if board.defs[u.id].side == "german" and u.supply != "supplied":
            rows[u.id] = msgspec.structs.replace(u, supply="supplied")
            events.append(SupplyChanged(unit=u.id, supply="supplied", case="AO-4.2b"))
    return _set(state, rows)


def _enter(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Automatic steps on entering ``state.phase``; skips lost phases (AO-4.2c)."""
    while True:
        if state.phase == "game_over":
            events.append(GameEnded(turn=state.turn))
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
    if state.phase == "supply_judgment" and state.side == "german" and state.turn == 1:
        state = _gt1_german_supply(board, state, events)
    if state.phase in ("initial_movement", "mechanized_movement"):
        state = _reset_movement(state)
        # Forced Road Mode exits come "before any other activity" of the Initial Movement
        # Phase (AO-6.7L*), so before dormant units reactivate (AO-5.3M).
        if state.phase == "initial_movement":
            state = forced_road_mode_exits(board, state, events)
        if state.side == "allied":
            state = _reactivate_dormant(board, state, events)
    return state


def end_phase(board: Board, state: GameState) -> tuple[GameState, list[Event]] | Rejection:
    """End the current phase and enter the next one (with its automatic steps)."""
    if state.phase == "game_over":
        return Rejection("AO-4.1a", f"the game ended after Game-Turn {state.turn}")
    events: list[Event] = []
    if state.phase == "mechanized_movement":
        state = _end_player_turn(board, state, events)
    turn, side, phase = next_phase(state.turn, state.side, state.phase)
    state = msgspec.structs.replace(state, turn=turn, side=side, phase=phase)
    if phase in ("setup_german",):
        events.append(PhaseBegan(turn=turn, side=side, phase=phase))
        return state, events
    return _enter(board, state, events), events
