"""The sequence of play (2.3-2.4, BA-2.3a-b, BA-2.4a-e, BA-2.1h, BA-10.2a): one day's twelve
steps driven through the pure rule functions.

A turn: the day's ``dawn`` (from turn 2: the weather and the fuel draws, the American's own
roll), 1 Air (the American's menu, then the German's, each only with air points), 2 Supply, 3
Reinforcement, 4 Unit Organization (the American's, then the German's), then the American and
German 1st Operation Phases, each followed by its Combat Phase when it plotted combat, then
the 2nd. The phases that wait for a player are ``dawn``, ``air``, ``organization``,
``operation`` and ``combat`` (:data:`.state.Phase`); :func:`end_phase` (the
:class:`~.state.EndPhase` command) runs everything from the end of the acting side's phase to
the next phase that waits for a player: the ground attacks and interdiction it ordered, the
Supply and Reinforcement Phases, the allowances, a Combat Phase's resolution, the end of the
turn, the end of the game (the next turn's Supply trace scores it, 10.2a). So every die falls
inside an ``EndPhase``: of a batch the side declared, or of the dawn
(``docs/rules-notes-breakthrough.md``, "Every die in an EndPhase").

Last Seven Days (BA-2.1g) begins at turn 6's ``dawn`` and so with its Air Phase (BA-2.1h).
Turn-1 exceptions: no Air Phase (2.1h), no American Unit Organization Phase (2.4a), the
allowances of G10 (``operations.first_allowance``, 2.4b, 2.4d-e) and no German movement in
the 1st Operation Phase (2.4c, :func:`operations.may_move`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough import (
    air,
    artillery,
    efficiency,
    organization,
    reinforcements,
    resolve,
    supply,
    victory,
    weather,
)
from rules.breakthrough.air import AirPoints
from rules.breakthrough.artillery import PoolReinforcement
from rules.breakthrough.board import Board
from rules.breakthrough.operations import first_allowance, second_allowance
from rules.breakthrough.profile import Profile
from rules.breakthrough.rolls import Roller
from rules.breakthrough.state import (
    SIDES,
    AirStruck,
    BridgeBlown,
    CombatResolved,
    Event,
    GameEnded,
    InterdictionFlown,
    PhaseBegan,
    Reinforced,
    State,
    SupplyTraced,
    TurnEnded,
    Verdict,
    WeatherDrawn,
)
from rules.breakthrough.units import Draws, Side, Unit, enemy_of
from rules.dice import DiceSource
from rules.hexgrid import HexId

REPLACE = msgspec.structs.replace
BLOW_CHANCE: Final = {True: 50, False: 35}
"""6.7: an engineer blows a bridge with 50%, any other unit with 35% (BA-6.7d)."""


# -- helpers ----------------------------------------------------------------------------------


def divisional_id(side: Side, division: str) -> str:
    """The id of a division's divisional unit (``de-div-116pz``): one a division (6.6a)."""
    return f"{'de' if side == 'german' else 'us'}-div-{division.lower()}"


def profiles(board: Board, state: State) -> Mapping[str, Profile]:
    """Every unit's profile: the order of battle's, and each divisional unit's from the
    regiments built into it (G21)."""
    if not state.divisions:
        return board.profiles
    out = dict(board.profiles)
    for uid, members in state.divisions:
        out[uid] = organization.divisional_profile(uid, [board.profiles[m.unit] for m in members])
    return out


def owner_of(board: Board, state: State) -> dict[HexId, Side]:
    """Who owns each hex (BA-1.4f)."""
    german = set(state.german_hexes)
    return {h: ("german" if h in german else "american") for h in board.terrain}


def with_owner(state: State, owner: dict[HexId, Side]) -> State:
    return REPLACE(state, german_hexes=tuple(sorted(h for h, s in owner.items() if s == "german")))


def pools_of(state: State) -> dict[str, int]:
    return dict(state.pools)


def with_units(state: State, units: Sequence[Unit]) -> State:
    return REPLACE(state, units=tuple(sorted(units, key=lambda u: u.id)))


def next_to_enemy(unit: Unit, units: Sequence[Unit]) -> bool:
    return any(
        u.side != unit.side and u.strength > 0 and hexgrid.adjacent(u.hex, unit.hex) for u in units
    )


def air_of(state: State, side: Side) -> AirPoints:
    return state.air[SIDES.index(side)]


def with_air(state: State, side: Side, points: AirPoints) -> State:
    pair = list(state.air)
    pair[SIDES.index(side)] = points
    return REPLACE(state, air=(pair[0], pair[1]))


def _begin(state: State, phase: str, side: Side, stage: int, events: list[Event]) -> State:
    events.append(PhaseBegan(state.turn, phase, side, stage))
    return REPLACE(state, phase=phase, side=side, stage=stage, strikes=(), plots=(), blasts=())


# -- the start of a game and of a turn -------------------------------------------------------


def new_game(board: Board) -> State:
    """The state before the first command: the scenario's first turn up to the first phase
    that waits for a player: on 16 December the German's Unit Organization Phase (no Air
    Phase, BA-2.1h); on 21 December (Last Seven Days) the day's ``dawn``, whose command draws
    the weather and opens the Air Phase. No die falls before it."""
    level = board.setup.level
    pools = {
        corps: artillery.handicapped(points, board.pool_side[corps], level)
        for corps, points in board.pools.items()
    }
    committed = [sum(u.strength for u in board.start if u.side == s) for s in SIDES]
    first, _ = board.setup.turns
    state = State(
        turn=first,
        phase="air",
        side="american",
        stage=0,
        units=board.start,
        german_hexes=tuple(sorted(h for h, s in board.owner.items() if s == "german")),
        pools=tuple(sorted(pools.items())),
        committed=(committed[0], committed[1]),
        scenario=board.setup.number,
        town_points=board.carried_towns,
        eliminated=board.carried_eliminated,
        blown=tuple(sorted(board.blown)),
    )
    events: list[Event] = []
    if first > 1:
        # Last Seven Days: "Except for the Last Seven Days scenario the game begins with the
        # Supply Phase" (2.1, BA-2.1h): its turn 6 begins with the day's weather, the
        # American's first command (every die in an EndPhase), then the Air Phase.
        return _begin(state, "dawn", "american", 0, events)
    roller = Roller(None, 0, events)
    return start_turn(board, state, roller, events, first_of_game=True)


def start_turn(
    board: Board, state: State, roller: Roller, events: list[Event], first_of_game: bool = False
) -> State:
    """The beginning of a turn: effects of the last Air Phase end (G8), efficiency recovers
    or falls by the supply status and the points left unused (BA-8.1d-e, G6), artillery goes
    back to
    the pools (BA-6.4c), the pools take their points (BA-6.4h), the weather and air points
    (BA-9.0a, BA-3.1a-c); then the Air Phase, or straight to Supply on the scenario's first
    turn (BA-2.1h)."""
    units = air.clear_effects(state.units)
    # The scenario's first turn keeps the set-up's efficiency (the morning's, G25).
    if not first_of_game and state.turn != board.setup.turns[0]:
        units = [
            REPLACE(u, efficiency=efficiency.at_turn_start(u.efficiency, u.supply, u.op))
            for u in units
        ]
    units, pools = artillery.return_all(units, profiles(board, state), pools_of(state))
    for side in SIDES:
        mine = {c: p for c, p in pools.items() if board.pool_side[c] == side}
        schedule = [PoolReinforcement(c, p, t) for c, p, t in board.pool_schedule if c in mine]
        mine = artillery.at_turn_start(mine, side, state.turn, schedule, board.setup.level)
        pools.update(mine)
    state = REPLACE(
        with_units(state, units),
        pools=tuple(sorted(pools.items())),
        moved=(),
        crossed=(),
        blow_tries=(),
        interdicted=(),
        air=(AirPoints(0), AirPoints(0)),
        weather="overcast",
    )
    if first_of_game:
        return after_air(board, state, roller, events)
    draw = roller.one(f"weather:{state.turn}") if weather.needs_draw(state.turn) else None
    kind = weather.weather(state.turn, draw)
    level = board.setup.level
    points = [weather.air_points(s, state.turn, kind, level) for s in SIDES]
    events.append(WeatherDrawn(state.turn, kind, points[0], points[1]))
    state = REPLACE(state, weather=kind, air=(AirPoints(points[0]), AirPoints(points[1])))
    due = fuel_due(board, state)
    if due:
        d = roller.draws()
        state = REPLACE(state, fuel=tuple(d.next() for _ in due))
        roller.commit(d, [f"fuel:{u}" for u in due])
    sides = air.allocating_sides(points[0], points[1])
    if sides:
        return _begin(state, "air", sides[0], 0, events)
    return after_air(board, state, roller, events)


def after_air(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """After the Air Phase (its interdiction flown with each side's menu, BA-3.3a): the
    Supply Phase (BA-4.0a, 4.4), the
    Reinforcement Phase (BA-5.0a-5.2c), the first allowances (BA-7.4a) and the Unit
    Organization Phase (not the American's on 16 December, BA-2.4a)."""
    hit = set(state.interdicted)
    state = supply_phase(board, state, roller, events)
    state = reinforcement_phase(board, state, events)
    prof = profiles(board, state)
    units = [
        REPLACE(
            u,
            op=air.received(
                first_allowance(u, prof[u.id], state.turn, next_to_enemy(u, state.units)),
                u.id in hit,
            ),
        )
        for u in state.units
    ]
    state = with_units(state, units)
    first_side: Side = "german" if state.turn == 1 else "american"
    return begin_organization(board, state, first_side, events)


def fuel_due(board: Board, state: State) -> tuple[str, ...]:
    """The German units that take a fuel draw this turn (BA-4.4b), in draw order."""
    if state.turn < supply.FUEL_FIRST_TURN:
        return ()
    ground = board.supply_ground(frozenset(state.blown))
    return supply.fuel_rolls(state.turn, state.units, ground, owner_of(board, state))


def supply_phase(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """BA-4.0a: every unit's status traced on the same position; from turn 5 the fuel draws,
    drawn with the turn's weather (the position the Supply Phase traces is the one the turn
    began with: the Air Phase moves nobody), so that every die of the turn's start falls in
    one command (``docs/rules-notes-breakthrough.md``, "Every die in an EndPhase")."""
    ground = board.supply_ground(frozenset(state.blown))
    d = Draws(state.fuel)
    units, changes = supply.supply_phase(state.turn, state.units, ground, owner_of(board, state), d)
    if d.used != len(state.fuel):
        raise AssertionError("the fuel draws of the turn's start do not match its Supply Phase")
    shown = tuple(c for c in changes if c.before != c.after or c.fuel_draw is not None)
    events.append(SupplyTraced(shown))
    return REPLACE(with_units(state, units), fuel=())


def reinforcement_phase(board: Board, state: State, events: list[Event]) -> State:
    """BA-5.0a-5.2c: each side's units due this turn, and those delayed before."""
    units = list(state.units)
    delayed: list[str] = []
    cancelled = list(state.cancelled)
    committed = list(state.committed)
    exited = sum(e.strength for e in state.exited)
    for side in SIDES:
        due = [
            a
            for a in board.arrivals
            if a.unit.side == side and (a.turn == state.turn or a.unit.id in state.delayed)
        ]
        if not due:
            continue
        got = reinforcements.reinforce(
            side,
            due,
            units,
            board.edge_roads[side],
            exited_strength=exited if side == "american" else 0,
            cancelled_before=len(state.cancelled),
        )
        units += got.entered
        delayed += [a.unit.id for a in got.delayed]
        cancelled += got.cancelled
        committed[SIDES.index(side)] += sum(u.strength for u in got.entered)
        events.append(
            Reinforced(
                side,
                tuple(u.id for u in got.entered),
                tuple(a.unit.id for a in got.delayed),
                got.cancelled,
            )
        )
    state = REPLACE(
        state,
        delayed=tuple(sorted(delayed)),
        cancelled=tuple(cancelled),
        committed=(committed[0], committed[1]),
    )
    return with_units(state, units)


def begin_organization(board: Board, state: State, side: Side, events: list[Event]) -> State:
    """A side's Unit Organization Phase, with this turn's replacement points (BA-6.5a-d:
    never carried over)."""
    points = organization.replacement_points(side, board.setup.level, state.turn)
    return REPLACE(_begin(state, "organization", side, 0, events), replacements=points)


# -- the end of each phase ---------------------------------------------------------------------


def end_phase(board: Board, state: State, dice: DiceSource | None) -> tuple[State, list[Event]]:
    """The acting side ends its phase: everything up to the next phase that waits."""
    events: list[Event] = []
    roller = Roller(dice, state.dice_drawn, events)
    if state.phase == "air":
        state = _fly_strikes(state, roller, events)
        german = air_of(state, "german").received
        if state.side == "american" and german > 0:
            state = _begin(state, "air", "german", 0, events)
        else:
            state = after_air(board, state, roller, events)
    elif state.phase == "organization":
        state = _blow_bridges(board, state, roller, events)
        if state.side == "american":
            state = begin_organization(board, state, "german", events)
        else:
            state = begin_operation(board, state, "american", 1, events)
    elif state.phase == "operation" and state.plots:
        state = _begin(
            combat_phase(board, state, roller, events), "combat", state.side, state.stage, events
        )
    elif state.phase == "dawn":
        state = start_turn(board, state, roller, events)
    else:
        state = next_operation(board, state, roller, events)
    return REPLACE(state, dice_drawn=roller.drawn), events


def _fly_strikes(state: State, roller: Roller, events: list[Event]) -> State:
    """The ground attacks the side ordered, in order (BA-3.4a-d, G8), then its interdiction
    (BA-3.3a: each enemy unit, id order, one draw)."""
    units = list(state.units)
    for target in state.strikes:
        d = roller.draws()
        units, report = air.ground_attack(state.side, target, units, d)
        roller.commit(d, f"ground_attack:{target}")
        events.append(AirStruck(report))
    state = REPLACE(with_units(state, units), strikes=())
    points = air_of(state, state.side).interdiction
    if not points:
        return state
    d = roller.draws()
    got = air.interdict(state.side, points, state.units, d)
    roller.commit(d, f"interdiction:{state.side}")
    events.append(InterdictionFlown(state.side, points, tuple(sorted(got))))
    return REPLACE(state, interdicted=tuple(sorted({*state.interdicted, *got})))


def next_operation(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """After an Operation Phase (and its Combat Phase): the next one, or the end of the turn."""
    if (state.side, state.stage) == ("american", 1):
        return begin_operation(board, state, "german", 1, events)
    if (state.side, state.stage) == ("german", 1):
        return begin_operation(board, state, "american", 2, events)
    if (state.side, state.stage) == ("american", 2):
        return begin_operation(board, state, "german", 2, events)
    return end_turn(board, state, roller, events)


def _blow_bridges(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """The side's bridge-blowing attempts, in order: a draw each (BA-6.7d)."""
    blown = set(state.blown)
    for uid, site in state.blasts:
        draw = roller.one(f"bridge:{site[0]}-{site[1]}")
        engineer = profiles(board, state)[uid].engineer
        standing = draw > BLOW_CHANCE[engineer]
        if not standing:
            blown.add(site)
        events.append(BridgeBlown(uid, site, standing, draw))
    return REPLACE(state, blown=tuple(sorted(blown)), blasts=())


def begin_operation(
    board: Board, state: State, side: Side, stage: int, events: list[Event]
) -> State:
    """An Operation Phase; the second one gives the side's units their second allowance,
    which replaces what they have left (BA-7.4a, BA-7.4e-i, G11)."""
    if stage == 2:
        hit = set(state.interdicted)
        prof = profiles(board, state)
        units = [
            REPLACE(
                u,
                op=air.received(second_allowance(u, prof[u.id], state.turn, u.op), u.id in hit),
            )
            if u.side == side
            else u
            for u in state.units
        ]
        state = with_units(state, units)
    return _begin(state, "operation", side, stage, events)


def combat_phase(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """The Combat Phase of the Operation Phase just ended: its plots in plotted order, with
    automatic retreats and advances (BA-2.3b, BA-8.0a, G14)."""
    if not state.plots:
        return state
    owner = owner_of(board, state)
    crossed = {site: frozenset(ids) for site, ids in state.crossed}
    mboard = board.movement_board(owner, frozenset(state.blown), state.turn, crossed)
    d = roller.draws()
    prof = profiles(board, state)
    result = resolve.resolve_phase(
        state.plots, state.units, owner, board.ground(mboard, prof), d.values
    )
    purposes = [f"combat:{r.target}" for r in result.reports for _ in r.draws]
    d.used = result.draws_used
    roller.commit(d, purposes)
    events.extend(CombatResolved(r) for r in result.reports)
    left = {u.id for u in result.units}
    gone = [u for u in state.units if u.id not in left]
    eliminated = list(state.eliminated)
    for u in gone:
        p = prof[u.id]
        eliminated.append(victory.Eliminated(u.id, u.side, u.stack, p.engineer, p.battalion))
    gone_ids = {u.id for u in gone}
    divisions = tuple(d for d in state.divisions if d[0] not in gone_ids)
    state = REPLACE(state, eliminated=tuple(eliminated), plots=(), divisions=divisions)
    return with_owner(with_units(state, result.units), dict(result.owner))


def end_turn(board: Board, state: State, roller: Roller, events: list[Event]) -> State:
    """10.1b's town points for the turn; the next turn, or the end of the game (10.2a)."""
    owner = owner_of(board, state)
    held = victory.towns_held(owner, board.towns)
    state = REPLACE(state, town_points=state.town_points + held)
    events.append(TurnEnded(state.turn, held))
    if state.turn >= board.setup.turns[1]:
        return game_end(board, state, events)
    state = REPLACE(state, turn=state.turn + 1)
    return _begin(state, "dawn", "american", 0, events)


def strength_left(state: State, side: Side) -> int:
    """A side's combat strength on the map and exited (exited units are not lost, 10.1f)."""
    on_map = sum(u.strength for u in state.units if u.side == side)
    return on_map + (sum(e.strength for e in state.exited) if side == "german" else 0)


def game_end(board: Board, state: State, events: list[Event]) -> State:
    """BA-10.0a-10.2c: the German score and the level of victory."""
    owner = owner_of(board, state)
    strengths = {
        s: victory.Strength(
            state.committed[SIDES.index(s)],
            state.committed[SIDES.index(s)] - strength_left(state, s),
        )
        for s in SIDES
    }
    score = victory.final_score(
        board.setup.scenario,
        state.town_points,
        owner,
        board.towns,
        state.exited,
        state.eliminated,
        strengths["german"],
        strengths["american"],
        board.area_roads,
        board.supply_ground(frozenset(state.blown)),
        state.units,
    )
    winner: Side | None = (
        "german"
        if score.level.startswith("german")
        else "american"
        if score.level.startswith("american")
        else None
    )
    verdict = Verdict(
        winner,
        "points",
        f"{score.level}: German score {score.total} (BA-10.2c)",
        score.level,
        score.total,
    )
    events.append(GameEnded(verdict, score))
    return REPLACE(state, phase="game_over", result=verdict, score=score, stage=0)


def enemy(side: Side) -> Side:
    return enemy_of(side)
