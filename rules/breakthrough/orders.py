"""One command of the acting player, checked and applied (BA-3.2a, BA-6.0a, BA-7.0a).

:func:`apply` is the ruleset's ``apply``: a command of the phase that waits (the Air
Phase's interdiction and ground attacks, 3.2; the Unit Organization Phase's artillery,
replacements, bridges and air drops, 6.3; the Operation Phase's moves, mode changes,
fortification, plots, advance flags and exits, 7.3) through the pure rule functions, or
:class:`~.state.EndPhase` through :func:`.sequence.end_phase`. A refusal names its case
and changes nothing.
"""

from __future__ import annotations

import msgspec.structs

from rules import hexgrid
from rules.breakthrough import air, artillery, bridges, movement, operations, organization, supply
from rules.breakthrough import victory as vp
from rules.breakthrough.board import Board
from rules.breakthrough.reinforcements import UNIT_LIMIT
from rules.breakthrough.rolls import NoDiceError
from rules.breakthrough.sequence import (
    air_of,
    divisional_id,
    end_phase,
    owner_of,
    pools_of,
    profiles,
    with_air,
    with_owner,
    with_units,
)
from rules.breakthrough.state import (
    Advance,
    AirDrop,
    AirDropped,
    Applied,
    Artillery,
    Attack,
    BlowBridge,
    BreakDown,
    BridgeBlown,
    BuildBridge,
    BuildUp,
    ChangeMode,
    Command,
    EndPhase,
    Event,
    Exit,
    Fortify,
    Interdict,
    MaxArtillery,
    Move,
    Plotted,
    Replace,
    State,
    Strike,
    UnitChanged,
    UnitExited,
)
from rules.breakthrough.units import Unit
from rules.dice import DiceSource
from rules.rejection import Rejection

REPLACE = msgspec.structs.replace

AIR_COMMANDS = (Interdict, Strike)
ORGANIZATION_COMMANDS = (
    AirDrop,
    Artillery,
    MaxArtillery,
    Replace,
    BlowBridge,
    BuildBridge,
    BuildUp,
    BreakDown,
)
OPERATION_COMMANDS = (Move, ChangeMode, Fortify, Attack, Advance, Exit)
PHASE_OF: dict[type, str] = {
    **{c: "air" for c in AIR_COMMANDS},
    **{c: "organization" for c in ORGANIZATION_COMMANDS},
    **{c: "operation" for c in OPERATION_COMMANDS},
}
CASE_OF = {"air": "BA-3.0a", "organization": "BA-6.0a", "operation": "BA-7.0a"}


def apply(
    board: Board, state: State, command: Command, dice: DiceSource | None
) -> Applied | Rejection:
    """Apply ``command`` in ``state`` (pure)."""
    if state.phase == "game_over":
        return Rejection("BA-10.2a", "the game is over")
    if isinstance(command, EndPhase):
        try:
            new, events = end_phase(board, state, dice)
        except NoDiceError:
            return Rejection("dice-needed", "ending this phase rolls dice: no dice given")
        return Applied(new, tuple(events))
    phase = PHASE_OF.get(type(command))
    if phase is None:
        return Rejection("not-implemented", f"unknown command {command!r}")
    if phase != state.phase:
        return Rejection(
            CASE_OF[phase],
            f"{type(command).__name__} is a command of the {phase} phase, not the {state.phase}",
        )
    got = _command(board, state, command)
    if isinstance(got, Rejection):
        return got
    return Applied(got[0], tuple(got[1]))


def _own(state: State, unit_id: str) -> Unit | Rejection:
    for u in state.units:
        if u.id == unit_id:
            if u.side != state.side:
                return Rejection("BA-2.0a", f"{unit_id} is not a {state.side} unit")
            return u
    return Rejection("BA-1.5a", f"no unit {unit_id} on the map")


def _put(state: State, unit: Unit) -> State:
    return with_units(state, [unit if u.id == unit.id else u for u in state.units])


Result = tuple[State, list[Event]] | Rejection


def _command(board: Board, state: State, cmd: Command) -> Result:
    if isinstance(cmd, Interdict):
        got = air_of(state, state.side).add_interdiction()
        if isinstance(got, Rejection):
            return got
        return with_air(state, state.side, got), []
    if isinstance(cmd, Strike):
        points = air_of(state, state.side)
        why = air.check_ground_attack(state.side, points.left, cmd.hex, state.units)
        if why is not None:
            return why
        spent = points.spend_mission()
        assert not isinstance(spent, Rejection)
        new = with_air(state, state.side, spent)
        return REPLACE(new, strikes=(*state.strikes, cmd.hex)), []
    if isinstance(cmd, AirDrop):
        return _air_drop(state, cmd)
    if isinstance(cmd, (Artillery, MaxArtillery, Replace)):
        return _organize(board, state, cmd)
    if isinstance(cmd, (BlowBridge, BuildBridge)):
        return _bridge(board, state, cmd)
    if isinstance(cmd, BuildUp):
        return _build_up(board, state, cmd)
    if isinstance(cmd, BreakDown):
        return _break_down(board, state, cmd)
    if isinstance(cmd, EndPhase):  # pragma: no cover - apply takes it before
        return Rejection("not-implemented", "EndPhase is the sequence's")
    unit = _own(state, cmd.unit)
    if isinstance(unit, Rejection):
        return unit
    if isinstance(cmd, Move):
        return _move(board, state, unit, cmd)
    if isinstance(cmd, ChangeMode):
        if state.turn == 1 and state.stage == 1 and unit.side == "german":
            return Rejection("BA-2.4c", f"{unit.id}: German units may not move on 16 December")
        changed = operations.change_mode(unit, profiles(board, state)[unit.id])
        if isinstance(changed, Rejection):
            return changed
        return _put(state, changed), [UnitChanged("mode", changed)]
    if isinstance(cmd, Fortify):
        why = supply.check_work(unit, "fortify")
        if why is not None:
            return why
        dug = operations.fortify(unit, state.units, profiles(board, state))
        if isinstance(dug, Rejection):
            return dug
        return _put(state, dug), [UnitChanged("fort", dug)]
    if isinstance(cmd, Attack):
        plotted = operations.plot_attack(
            unit, cmd.target, state.units, 1 if state.stage == 1 else 2, state.plots
        )
        if isinstance(plotted, Rejection):
            return plotted
        after, plot = plotted
        new = REPLACE(_put(state, after), plots=(*state.plots, plot))
        return new, [Plotted(unit.id, cmd.target)]
    if isinstance(cmd, Advance):
        got_unit = REPLACE(unit, advance=not unit.advance)
        return _put(state, got_unit), [UnitChanged("advance", got_unit)]
    return _exit(board, state, unit)


def _move(board: Board, state: State, unit: Unit, cmd: Move) -> Result:
    """7.5-7.7 (BA-7.5a-b): a path, step by step; 2.4c on 16 December."""
    why = operations.may_move(unit, state.turn, 1 if state.stage == 1 else 2)
    if why is not None:
        return why
    if any(p.unit == unit.id for p in state.plots):
        return Rejection("BA-7.9c", f"{unit.id} has plotted an attack: it stays to fight")
    owner = owner_of(board, state)
    crossed = {site: frozenset(ids) for site, ids in state.crossed}
    mboard = board.movement_board(owner, frozenset(state.blown), state.turn, crossed)
    got = movement.walk(
        unit, cmd.path, mboard, state.units, profiles(board, state), unit.id in state.moved
    )
    if isinstance(got, Rejection):
        return got
    walk, after = got
    pools = artillery.returned_on_move(
        pools_of(state), profiles(board, state)[unit.id].pool, walk.artillery_returned
    )
    new = with_owner(_put(state, walk.unit), dict(after.owner))
    new = REPLACE(
        new,
        pools=tuple(sorted(pools.items())),
        moved=tuple(sorted({*state.moved, unit.id})),
        crossed=tuple(sorted((site, tuple(sorted(ids))) for site, ids in after.crossed.items())),
    )
    return new, [UnitChanged("moved", walk.unit)]


def _exit(board: Board, state: State, unit: Unit) -> Result:
    """7.10 (BA-7.10a-b): the unit leaves for good; its strength and turn are kept."""
    if any(p.unit == unit.id for p in state.plots):
        return Rejection("BA-7.9c", f"{unit.id} has plotted an attack: it stays to fight")
    got = operations.exit_map(unit, board.exits, state.turn)
    if isinstance(got, Rejection):
        return got
    gone = vp.Exited(unit.id, unit.strength, state.turn, unit.hex)
    new = with_units(state, [u for u in state.units if u.id != unit.id])
    pools = artillery.returned_on_move(
        pools_of(state), profiles(board, state)[unit.id].pool, unit.artillery
    )
    new = REPLACE(new, exited=(*state.exited, gone), pools=tuple(sorted(pools.items())))
    return new, [UnitExited(unit.id, unit.hex, unit.strength)]


def _air_drop(state: State, cmd: AirDrop) -> Result:
    """3.5 (BA-3.5a-b): one air point left over from the Air Phase a drop."""
    points = air_of(state, state.side)
    why = air.check_air_drop(state.side, points.left, cmd.hex, state.units)
    if why is not None:
        return why
    spent = points.spend_mission()
    assert not isinstance(spent, Rejection)
    units = air.air_drop(state.side, cmd.hex, state.units)
    return with_units(with_air(state, state.side, spent), units), [AirDropped(state.side, cmd.hex)]


def _organize(board: Board, state: State, cmd: Artillery | MaxArtillery | Replace) -> Result:
    """6.4-6.5: artillery transfers (BA-6.4a-e) and replacements (BA-6.5a-d)."""
    unit = _own(state, cmd.unit)
    if isinstance(unit, Rejection):
        return unit
    profile = profiles(board, state)[unit.id]
    if isinstance(cmd, Replace):
        got = organization.replace(unit, profile, cmd.points, state.replacements, state.turn)
        if isinstance(got, Rejection):
            return got
        after, left = got
        committed = list(state.committed)
        committed[0 if unit.side == "american" else 1] += cmd.points
        new = REPLACE(_put(state, after), replacements=left, committed=(committed[0], committed[1]))
        return new, [UnitChanged("replacements", after)]
    why = supply.check_artillery_transfer(unit)
    if why is not None:
        return why
    if isinstance(cmd, MaxArtillery):
        moved = artillery.max_artillery(unit, profile, pools_of(state), state.turn)
    else:
        moved = artillery.transfer(unit, profile, pools_of(state), cmd.points, state.turn)
    if isinstance(moved, Rejection):
        return moved
    after, pools = moved
    new = REPLACE(_put(state, after), pools=tuple(sorted(pools.items())))
    return new, [UnitChanged("artillery", after)]


def _bridge(board: Board, state: State, cmd: BlowBridge | BuildBridge) -> Result:
    """6.7 (BA-6.7a-e): a blowing attempt waits for its draw until the side quits the phase
    (every die falls in an ``EndPhase``); building always succeeds."""
    unit = _own(state, cmd.unit)
    if isinstance(unit, Rejection):
        return unit
    if not hexgrid.adjacent(unit.hex, cmd.to):
        return Rejection("BA-6.7a", f"{unit.id}: {cmd.to} is not next to {unit.hex}")
    why = supply.check_work(
        unit, "blow a bridge" if isinstance(cmd, BlowBridge) else "build a bridge"
    )
    if why is not None:
        return why
    site = hexgrid.hexside(unit.hex, cmd.to)
    standing = board.sites - frozenset(state.blown)
    profile = profiles(board, state)[unit.id]
    tried = frozenset(state.blow_tries)
    if isinstance(cmd, BlowBridge):
        if any(s == site for _, s in state.blasts):
            return Rejection("BA-6.7d", f"an attempt on the bridge {site} is already ordered")
        got = bridges.blow(unit, profile, site, board.sites, standing, tried, 100)
        if isinstance(got, Rejection):
            return got
        new = REPLACE(
            _put(state, got.unit),
            blow_tries=tuple(sorted({*state.blow_tries, unit.id})),
            blasts=(*state.blasts, (unit.id, site)),
        )
        return new, [UnitChanged("blow_ordered", got.unit)]
    built = bridges.build(unit, profile, site, board.sites, standing, state.units)
    if isinstance(built, Rejection):
        return built
    new = REPLACE(_put(state, built.unit), blown=tuple(s for s in state.blown if s != site))
    return new, [BridgeBlown(unit.id, site, True)]


def _build_up(board: Board, state: State, cmd: BuildUp) -> Result:
    """6.6 (BA-6.6a, BA-6.6c-e, G21): regiments of one division in one hex build into its
    divisional unit (one a division), or join the one in their hex."""
    issuer = _own(state, cmd.unit)
    if isinstance(issuer, Rejection):
        return issuer
    joining: list[Unit] = []
    for uid in cmd.joining:
        j = _own(state, uid)
        if isinstance(j, Rejection):
            return j
        joining.append(j)
    prof = profiles(board, state)
    division = prof[issuer.id].division
    if division is None or issuer.divisional:
        return Rejection("BA-6.6a", f"{issuer.id}: not a regiment of a division")
    did = divisional_id(issuer.side, division)
    members = dict(state.divisions).get(did)
    existing = None
    if members is not None:
        there = next(u for u in state.units if u.id == did)
        if there.hex != issuer.hex:
            return Rejection(
                "BA-6.6a", f"the {division} divisional unit is at {there.hex}, not {issuer.hex}"
            )
        existing = organization.Formation(there, members)
    built = organization.build_up(issuer, joining, prof, did, existing)
    if isinstance(built, Rejection):
        return built
    gone = {issuer.id, *cmd.joining, did}
    new = with_units(state, [*(u for u in state.units if u.id not in gone), built.unit])
    divisions = dict(state.divisions)
    divisions[did] = built.members
    new = REPLACE(new, divisions=tuple(sorted(divisions.items())))
    return new, [UnitChanged("built_up", built.unit)]


def _break_down(board: Board, state: State, cmd: BreakDown) -> Result:
    """6.6 (BA-6.6b, BA-6.6d): a divisional unit into its regiments, within the unit limit."""
    unit = _own(state, cmd.unit)
    if isinstance(unit, Rejection):
        return unit
    members = dict(state.divisions).get(unit.id)
    if members is None:
        return Rejection("BA-6.6b", f"{unit.id} is not a divisional unit")
    on_map = sum(1 for u in state.units if u.side == unit.side)
    parts = organization.break_down(
        organization.Formation(unit, members), UNIT_LIMIT[unit.side], on_map
    )
    if isinstance(parts, Rejection):
        return parts
    new = with_units(state, [*(u for u in state.units if u.id != unit.id), *parts])
    new = REPLACE(new, divisions=tuple(d for d in state.divisions if d[0] != unit.id))
    return new, [UnitChanged("broken_down", p) for p in parts]
