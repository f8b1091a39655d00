"""The engine: ``apply(board, state, command, dice) -> Applied | Rejection``, replay as a fold.

``apply`` is a pure function. It never mutates its inputs; a rejected command changes nothing
and emits no events. Commands are dispatched on their type:

* :class:`~rules.ao.commands.Move` - checked and costed by :func:`rules.ao.movement.trace_path`, the
  same code :func:`rules.ao.movement.legal_moves` searches with;
* :class:`~rules.ao.commands.Place` - set-up placement (AO-4.2a, AO-17.a-c:
  :func:`rules.ao.setup_rules.check_setup_place`) and reinforcements (AO-14.1A);
* :class:`~rules.ao.commands.EndPhase` - :func:`rules.ao.sequence.end_phase`;
* combat commands - :mod:`rules.ao.combat` (declaration, batch resolution, decisions).

Dice come only from the ``dice`` argument (a :class:`rules.dice.DiceSource`), drawn at
``state.dice_drawn`` and recorded as ``die_rolled`` events; a command that needs a die without
one is refused (``dice-needed``). While a combat decision is pending only its command is accepted.

Typical use (what ``ardennes rules apply`` does)::

    board = scenarios.load_board(1)      # the data is read by scenarios/, never here
    state = new_game(board)
    dice = SeededDice(seed)
    for cmd in decode_jsonl(text):
        result = apply(board, state, cmd, dice)
        if isinstance(result, Rejection):
            print(result.message)
        else:
            state = result.state
            print(result.events)
    print(position.dumps(state))
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from rules.ao import combat, decisions, paradrop, reinforcements, rolls, sequence, setup_rules
from rules.ao.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    Command,
    DeclareAttack,
    Drop,
    EndPhase,
    Move,
    Place,
    ResolveAttacks,
    Roll,
    StandingOrders,
    WaiveImmunity,
)
from rules.ao.events import (
    Event,
    RoadModeChanged,
    StandingOrdersSet,
    UnitMoved,
    UnitPlaced,
)
from rules.ao.movement import trace_path
from rules.ao.state import (
    Attack,
    Board,
    Decision,
    GameState,
    Orders,
    initial_state,
    state_hash,
)
from rules.dice import DiceSource
from rules.rejection import NOT_IMPLEMENTED, RejectedError, Rejection


class Applied(msgspec.Struct, frozen=True):
    """The result of an accepted command: the new state and what happened, in order."""

    state: GameState
    events: tuple[Event, ...]


def apply(
    board: Board, state: GameState, command: Command, dice: DiceSource | None = None
) -> Applied | Rejection:
    """Apply ``command`` to ``state``: the new state and its events, or why it was refused.

    ``dice`` is the game's dice stream. The engine never rolls by itself: a command that needs
    dice draws ``dice.uniform(state.dice_drawn, 6)``, ``dice.uniform(state.dice_drawn + 1, 6)``,
    ... and advances ``state.dice_drawn``; each draw is a ``die_rolled`` event. Without ``dice``
    such a command is refused (case ``dice-needed``). While a combat decision is pending
    (:func:`pending_decision`) only its command (or ``StandingOrders``) is accepted."""
    pending = state.combat.pending
    if pending is not None and not isinstance(command, StandingOrders):
        expected = decisions.COMMANDS[pending.kind]
        if not isinstance(command, expected):
            return Rejection(
                combat.PENDING,
                f"the {pending.side} player must first decide ({pending.kind}"
                + (f" of {pending.unit}" if pending.unit else "")
                + (f" into {pending.hex}" if pending.hex else "")
                + f") with {expected.__name__}",
            )
    if isinstance(command, Roll):
        rolled = rolls.roll(board, state, dice)
        if isinstance(rolled, Rejection):
            return rolled
        return Applied(state=rolled[0], events=tuple(rolled[1]))
    if not isinstance(command, StandingOrders):
        due = rolls.check_due(state)
        if due is not None:
            return due
    if isinstance(command, Move):
        return _move(board, state, command)
    if isinstance(command, Place):
        return _place(board, state, command)
    if isinstance(command, Drop):
        return _drop(board, state, command)
    if isinstance(command, EndPhase):
        r = sequence.end_phase(board, state)
        if isinstance(r, Rejection):
            return r
        return Applied(state=r[0], events=tuple(r[1]))
    if isinstance(command, DeclareAttack):
        d = combat.declare(
            board,
            state,
            Attack(
                attackers=command.attackers,
                defenders=command.defenders,
                odds=command.odds,
                waive=command.waive,
            ),
        )
        if isinstance(d, Rejection):
            return d
        return Applied(state=d[0], events=(d[1],))
    return _combat(board, state, command, dice)


def pending_decision(board: Board, state: GameState) -> Decision | None:
    """The combat decision the engine waits for (side, kind, legal choices), if any."""
    del board
    return state.combat.pending


def _combat(
    board: Board, state: GameState, command: Command, dice: DiceSource | None
) -> Applied | Rejection:
    events: list[Event] = []
    s: GameState | Rejection
    if isinstance(command, StandingOrders):
        orders = (
            None
            if command.clear
            else Orders(
                waive=tuple(sorted(command.waive)),
                retreat=command.retreat,
                losses=command.losses,
                advance=command.advance,
            )
        )
        field = "german_orders" if command.side == "german" else "allied_orders"
        s = msgspec.structs.replace(
            state, combat=msgspec.structs.replace(state.combat, **{field: orders})
        )
        events.append(StandingOrdersSet(side=command.side))
        p = s.combat.pending
        if p is not None and p.side == command.side and orders is not None:
            # the new orders take the pending decision: re-run that step
            s = msgspec.structs.replace(s, combat=msgspec.structs.replace(s.combat, pending=None))
    elif isinstance(command, ResolveAttacks):
        if state.phase != "combat":
            return Rejection("AO-4.1b", f"attacks are resolved in the Combat Phase ({state.phase})")
        if state.combat.current is None and not state.combat.declared:
            return Rejection(combat.PENDING, "no declared attack to resolve")
        s = state
    elif isinstance(command, WaiveImmunity):
        s = combat.decide_waive(board, state, command.hexes, events)
    elif isinstance(command, ChooseLosses):
        s = combat.decide_losses(board, state, command.units, events)
    elif isinstance(command, ChooseRetreat):
        s = combat.decide_retreat(board, state, command.unit, command.path, events)
    elif isinstance(command, Advance):
        s = combat.decide_advance(board, state, command.hex, command.unit, events)
    else:
        return Rejection(NOT_IMPLEMENTED, f"unknown command {command!r}")
    if isinstance(s, Rejection):
        return s
    if isinstance(command, StandingOrders) and s.combat.current is None:
        return Applied(state=s, events=tuple(events))
    # a decision continues its attack and the rest of the batch being resolved
    roller = combat.Roller(dice, s.dice_drawn, events)
    try:
        s = combat.run(board, s, roller, events)
    except combat.DiceNeeded as exc:
        return Rejection(
            combat.DICE_NEEDED, f"this command rolls a die ({exc.purpose}): no dice given"
        )
    s = msgspec.structs.replace(s, dice_drawn=roller.index)
    return Applied(state=s, events=tuple(events))


def _move(board: Board, state: GameState, cmd: Move) -> Applied | Rejection:
    route = trace_path(board, state, cmd.unit, cmd.path)
    if isinstance(route, Rejection):
        return route
    us = state.unit(cmd.unit)
    events: list[Event] = []
    for _i, h, mode, cost in route.mode_changes:
        events.append(RoadModeChanged(unit=cmd.unit, hex=h, road_mode=mode, cost=cost))
    events.append(
        UnitMoved(
            unit=cmd.unit,
            start=route.start,
            end=route.end,
            path=tuple(cmd.path),
            cost=route.cost,
            road_mode=route.road_mode,
        )
    )
    new = msgspec.structs.replace(
        us, hex=route.end, road_mode=route.road_mode, moved=True, mp_spent=route.spent, staging=None
    )
    return Applied(state=state.replace_units([new]), events=tuple(events))


def _reinforce(board: Board, state: GameState, cmd: Place) -> Applied | Rejection:
    """A reinforcement enters (AO-14.1A): on an open entry hex of its section, in Road Mode,
    losing 2 road hexes per unit placed on that hex before it in this phase (AO-14.2B)."""
    bad = reinforcements.check_entry(board, state, cmd.unit, cmd.hex)
    if bad is not None:
        return bad
    k = sum(1 for u in state.at(cmd.hex) if u.staging is not None)
    row = msgspec.structs.replace(
        reinforcements.placed(state, cmd.unit, cmd.hex),
        staging=reinforcements.staging_penalty(k),
    )
    new = state.replace_units([row])
    if any(d.unit == cmd.unit for d in state.delayed):
        new = msgspec.structs.replace(
            new, delayed=tuple(d for d in state.delayed if d.unit != cmd.unit)
        )
    return Applied(
        state=new,
        events=(UnitPlaced(unit=cmd.unit, hex=cmd.hex, case="AO-14.1A", staging=row.staging),),
    )


def _drop(board: Board, state: GameState, cmd: Drop) -> Applied | Rejection:
    """The paratroop drop (AO-15.a): the hex is named; ``Roll`` then rolls for survival
    (AO-15.b, :mod:`rules.ao.rolls`)."""
    bad = paradrop.check_drop(board, state, cmd.hex)
    if bad is not None:
        return bad
    events: list[Event] = []
    return Applied(state=rolls.drop_declared(state, cmd.hex, events), events=tuple(events))


def _place(board: Board, state: GameState, cmd: Place) -> Applied | Rejection:
    d = board.defs.get(cmd.unit)
    us = state.find(cmd.unit)
    if d is None or us is None:
        return Rejection("AO-4.2a", f"there is no unit {cmd.unit!r} in this game")
    if state.phase == "reinforcement":
        if not sequence.reinforcements_allowed(state):
            return Rejection("AO-4.2g", "there are no Allied reinforcements on Game-Turn 1")
        return _reinforce(board, state, cmd)
    # set-up (AO-4.2a; AO-17.a-c on a scenario board): rules.ao.setup_rules decides, the same
    # check that lights a UI's set-up hexes (setup_rules.setup_hexes)
    bad = setup_rules.check_setup_place(board, state, cmd.unit, cmd.hex)
    if bad is not None:
        return bad
    new = msgspec.structs.replace(us, hex=cmd.hex, status="on_map")
    return Applied(
        state=state.replace_units([new]), events=(UnitPlaced(unit=cmd.unit, hex=cmd.hex),)
    )


def replay(
    board: Board,
    state: GameState,
    commands: Iterable[Command],
    dice: DiceSource | None = None,
) -> GameState:
    """Fold :func:`apply` over ``commands`` with the same ``dice``; raises
    :class:`RejectedError` at the first refusal."""
    for i, cmd in enumerate(commands):
        r = apply(board, state, cmd, dice)
        if isinstance(r, Rejection):
            raise RejectedError(i, r)
        state = r.state
    return state


def replay_hashes(
    board: Board,
    state: GameState,
    commands: Iterable[Command],
    dice: DiceSource | None = None,
) -> list[str]:
    """The state hash after every command (the checkups of a verified log)."""
    out: list[str] = []
    for i, cmd in enumerate(commands):
        r = apply(board, state, cmd, dice)
        if isinstance(r, Rejection):
            raise RejectedError(i, r)
        state = r.state
        out.append(state_hash(state))
    return out


__all__ = [
    "Applied",
    "Rejection",
    "apply",
    "drop_hexes",
    "drop_required",
    "new_game",
    "pending_decision",
    "pending_reinforcements",
    "replay",
    "replay_hashes",
    "setup_hexes",
]


def new_game(board: Board) -> GameState:
    """The state of a new game on ``board`` (``scenarios.load_board(n)``) before the Allied
    set-up: its set-up units on their hexes, the reinforcements not yet arrived (AO-4.2a)."""
    return initial_state(board)


# -- what a UI or a bot may do now --------------------------------------------------------------


def pending_reinforcements(board: Board, state: GameState) -> list[tuple[str, tuple[str, ...]]]:
    """``(unit, entry hexes open to it now)`` for every reinforcement of the phasing side that
    may be placed in this Reinforcement Phase (AO-14.1A, AO-14.1b), sorted by unit; empty in
    any other phase. The Allied player must place them all before ``EndPhase`` (AO-14.1A)."""
    if state.phase != "reinforcement" or not sequence.reinforcements_allowed(state):
        return []
    out: list[tuple[str, tuple[str, ...]]] = []
    for uid, section in reinforcements.due(board, state, state.side, state.turn):
        hexes = reinforcements.entry_hexes(board, state, state.side, section)
        if hexes:
            out.append((uid, hexes))
    return out


def setup_hexes(board: Board, state: GameState, unit: str) -> frozenset[str]:
    """Where ``Place(unit, hex)`` is accepted in this set-up step, the unit's own hex aside
    (:func:`rules.ao.setup_rules.setup_hexes`, the same check as the engine's): empty outside
    set-up, for the other side's units and on a historical side (AO-17.a)."""
    return setup_rules.setup_hexes(board, state, unit)


def drop_hexes(board: Board, state: GameState) -> tuple[str, ...]:
    """Where the paratroop unit may drop now (AO-15.a); empty unless the drop is due. While it
    is due (:func:`drop_required`) moves and ``EndPhase`` are refused."""
    return paradrop.drop_hexes(board, state)


def drop_required(board: Board, state: GameState) -> bool:
    """The German must send ``Drop(hex)`` (one of :func:`drop_hexes`) before anything else."""
    return paradrop.drop_required(board, state)
