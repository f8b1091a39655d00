"""The ruleset's sequence of play on the real board (BA-2.3a-b, BA-2.4a, BA-2.1h, BA-1.4a,
BA-2.1b-g, BA-2.2a): phases, turn-1 exceptions, levers, scenarios, phase-bound commands."""

from __future__ import annotations

import msgspec
import pytest

import rules.breakthrough as bt
from rules import hexgrid
from rules.breakthrough.organization import Member
from rules.breakthrough.state import (
    Advance,
    AirStruck,
    Attack,
    BlowBridge,
    BreakDown,
    BridgeBlown,
    BuildUp,
    ChangeMode,
    CombatResolved,
    EndPhase,
    Exit,
    Fortify,
    GameEnded,
    Interdict,
    InterdictionFlown,
    MaxArtillery,
    Move,
    PhaseBegan,
    Replace,
    Strike,
    TurnEnded,
    WeatherDrawn,
)
from rules.dice import DieRoll, SeededDice
from rules.rejection import Rejection
from scenarios.breakthrough.board import load_board
from scenarios.breakthrough.grid import to_hex


def game(scenario: str = "twelve-days", level: int = 3, seed: bytes = b"seq") -> bt.Game:
    return bt.Game.new(load_board(scenario, level), dice=SeededDice(seed))


def phases(g: bt.Game) -> list[tuple[int, str, str, int]]:
    return [
        (e.turn, e.phase, e.side, e.stage)
        for step in g.events
        for e in step
        if isinstance(e, PhaseBegan)
    ]


def end_until(g: bt.Game, turn: int, phase: str, side: str) -> None:
    while (g.state.turn, g.state.phase, g.state.side) != (turn, phase, side):
        assert g.outcome() is None
        r = g.push(EndPhase())
        assert not isinstance(r, Rejection), r


@pytest.mark.rule("BA-2.3a", "BA-2.4a", "BA-2.1h")
def test_the_first_turns_phases_in_order() -> None:
    g = game()
    # 16 December: no Air Phase (2.1h), no American Unit Organization (2.4a)
    assert (g.state.turn, g.state.phase, g.state.side) == (1, "organization", "german")
    end_until(g, 4, "organization", "american")
    op = [(1, "operation", "american", 1), (1, "operation", "german", 1)]
    op += [(1, "operation", "american", 2), (1, "operation", "german", 2)]
    got = phases(g)
    assert got[:4] == op
    # 17 December: the day begins (its weather, certain: no die), 100% Overcast, nobody has
    # air points: no air menu (3.2)
    t2 = [p for p in got if p[0] == 2]
    assert t2 == [
        (2, "dawn", "american", 0),
        (2, "organization", "american", 0),
        (2, "organization", "german", 0),
        *[(2, ph, s, n) for _, ph, s, n in op],
    ]
    # 18 December: the German has his two air points whatever the weather (3.1b)
    t3 = [p for p in got if p[0] == 3]
    assert t3[:3] == [
        (3, "dawn", "american", 0),
        (3, "air", "american", 0),
        (3, "air", "german", 0),
    ]
    assert t3[-6:] == [
        (3, "organization", "american", 0),
        (3, "organization", "german", 0),
        *[(3, ph, s, n) for _, ph, s, n in op],
    ]


@pytest.mark.rule("BA-1.4a", "BA-2.1g")
def test_twelve_days_end_after_turn_12_and_first_seven_after_turn_7() -> None:
    for scenario, last in (("twelve-days", 12), ("first-seven-days", 7)):
        g = game(scenario)
        while g.outcome() is None:
            g.push(EndPhase())
        ended = [e.turn for step in g.events for e in step if isinstance(e, TurnEnded)]
        assert ended == list(range(1, last + 1))
        final = [e for step in g.events for e in step if isinstance(e, GameEnded)]
        assert len(final) == 1 and final[0].verdict == g.outcome()
        assert g.state.turn == last and g.options().mode == "game_over"
        assert g.options().acting is None


@pytest.mark.rule("BA-2.1g", "BA-2.1h", "BA-2.2a")
def test_last_seven_days_begins_with_the_air_phase_of_21_december() -> None:
    # "Except for the Last Seven Days scenario the game begins with the Supply Phase" (2.1):
    # it begins with turn 6's weather (the American's first command), then the Air Phase;
    # more in test_last_seven_days.py
    g = game("last-seven-days", seed=b"a")
    assert (g.state.turn, g.state.phase, g.state.side, g.state.scenario) == (
        6,
        "dawn",
        "american",
        2,
    )
    assert load_board(2).setup == load_board("last-seven-days").setup
    g.push(EndPhase())
    assert phases(g) == [(6, "air", "american", 0)]


@pytest.mark.rule("BA-2.2a")
def test_the_historical_set_up_of_16_december() -> None:
    g = game()
    units = g.state.units
    assert len(units) == 86
    assert sum(1 for u in units if u.side == "american") == 27
    by_id = {u.id: u for u in units}
    assert by_id["us-422-106"].hex == to_hex((19, 28)) and by_id["us-422-106"].strength == 40
    assert "us-td-a" not in by_id  # arrives on the 18th
    assert all(u.efficiency == 100 and u.fort == 0 and u.supply == "supplied" for u in units)


@pytest.mark.rule("BA-2.1b", "BA-2.1c", "BA-2.1d", "BA-2.1e")
def test_levels_change_pools_replacements_and_air() -> None:
    pools = {lv: dict(game(level=lv).state.pools) for lv in (1, 2, 3, 4)}
    # 13.4: V 115, VIII 40 (American); ISS 130, LVIII 65 (German); the turn-1 pools
    assert (pools[3]["V"], pools[3]["ISS"], pools[3]["VIII"]) == (115, 130, 40)
    assert (pools[4]["V"], pools[4]["ISS"]) == (115, 195)  # German +50%
    assert (pools[2]["V"], pools[2]["ISS"], pools[2]["VIII"]) == (143, 130, 50)  # +25%
    assert (pools[1]["V"], pools[1]["ISS"], pools[1]["VIII"]) == (172, 130, 60)  # +50%
    # replacements on 19 December (turn 4): 15/10 American, 10/15 German at level 3
    want = {1: ((45, 30), (10, 15)), 2: ((30, 20), (10, 15)), 3: ((15, 10), (10, 15))}
    want[4] = ((15, 10), (20, 30))
    for lv, (us, de) in want.items():
        g = game(level=lv)
        end_until(g, 4, "organization", "american")
        assert g.state.replacements == us
        g.push(EndPhase())
        assert (g.state.side, g.state.replacements) == ("german", de)
        weather = [e for step in g.events for e in step if isinstance(e, WeatherDrawn)]
        t3 = next(e for e in weather if e.turn == 3)
        assert t3.german_air == (3 if lv == 4 else 2)
        bonus = {1: 4, 2: 2}.get(lv, 0)
        for w in weather:
            assert (
                w.american_air == {"overcast": 0, "fog": 2 + bonus, "clear": 6 + bonus}[w.weather]
            )


@pytest.mark.rule("BA-6.5d")
def test_replacements_are_not_carried_over() -> None:
    g = game()
    end_until(g, 4, "organization", "american")
    weak = next(
        u
        for u in g.state.units
        if u.side == "american"
        and g.board.profiles[u.id].type == "INF"
        and g.board.profiles[u.id].division is not None
    )
    g2 = game()
    end_until(g2, 4, "organization", "american")
    # spend nothing on turn 4: turn 5 still offers 15/10, not 30/20
    end_until(g, 5, "organization", "american")
    assert g.state.replacements == (15, 10)
    # a unit below its printed strength takes 5 points: 10 infantry points left this phase
    hurt = msgspec.structs.replace(weak, strength=weak.strength - 5)
    units = tuple(hurt if u.id == weak.id else u for u in g2.state.units)
    g3 = bt.Game(g2.board, msgspec.structs.replace(g2.state, units=units), dice=g2.dice)
    assert not isinstance(g3.push(Replace(weak.id, 5)), Rejection)
    assert g3.state.replacements == (10, 10)
    assert isinstance(g3.push(Replace(weak.id, 1)), Rejection)  # at its printed strength now


@pytest.mark.rule("BA-2.3b", "BA-7.0a")
def test_plots_resolve_in_the_combat_phase_that_ends_the_operation_phase() -> None:
    g = game()
    end_until(g, 1, "operation", "german")
    assert g.state.stage == 1
    target = "2627"  # us-28-3, 15 points, next to the 5th FJ's three regiments at 2626
    opts = g.options()
    assert (opts.mode, opts.acting, opts.stage) == ("operation", "german", 1)
    assert target in opts.targets and "2518" in opts.targets  # us-112-28, next to 2619
    assert all(u.startswith("de-") for u in opts.units)
    for uid in ("de-13-5fj", "de-14-5fj"):
        assert not isinstance(g.push(Attack(uid, target)), Rejection)
    assert not isinstance(g.push(Advance("de-13-5fj")), Rejection)
    assert [p.unit for p in g.state.plots] == ["de-13-5fj", "de-14-5fj"]
    # 13.5p: 6 points a plot in the first phase, 12 - 6 left; a second plot is refused
    assert {u.id: u.op for u in g.state.units}["de-13-5fj"] == 6
    again = g.push(Attack("de-13-5fj", target))
    assert isinstance(again, Rejection) and again.case == "BA-7.9c"
    # 2.4c: no German moves on 16 December's first phase, whatever the points
    stay = g.push(Move("de-15-5fj", ("2526",)))
    assert isinstance(stay, Rejection) and stay.case == "BA-2.4c"
    wait = g.ruleset.dice_wait(g.board, g.state)
    assert (wait.kind, wait.purpose, wait.resolver) == ("batch", "combat", EndPhase())
    drawn = g.state.dice_drawn
    r = g.push(EndPhase())
    assert not isinstance(r, Rejection)
    kinds = [type(e).__name__ for e in r.events]
    report = next(e.report for e in r.events if isinstance(e, CombatResolved))
    rolls = [e for e in r.events if isinstance(e, DieRoll)]
    assert report.target == target and report.attackers == ("de-13-5fj", "de-14-5fj")
    assert [d.purpose for d in rolls] == [f"combat:{target}"] * len(report.draws)
    assert tuple(d.value for d in rolls) == report.draws and len(rolls) >= 2
    assert all(1 <= d.value <= 100 for d in rolls)
    assert g.state.dice_drawn == drawn + len(rolls)
    assert kinds.index("CombatResolved") < kinds.index("PhaseBegan")
    # the Combat Phase shows its results; the German ends it, and nothing waits for dice
    assert (g.state.phase, g.state.side, g.state.stage, g.state.plots) == (
        "combat",
        "german",
        1,
        (),
    )
    assert g.ruleset.dice_wait(g.board, g.state).kind == "none"
    assert isinstance(g.push(Attack("de-15-5fj", target)), Rejection)
    assert not isinstance(g.push(EndPhase()), Rejection)
    assert (g.state.phase, g.state.side, g.state.stage) == ("operation", "american", 2)
    # 7.0: operation commands belong to the Operation Phases
    end_until(g, 2, "organization", "american")
    u = next(x for x in g.state.units if x.side == "american")
    refused = g.push(Fortify(u.id))
    assert isinstance(refused, Rejection) and refused.case == "BA-7.0a"


@pytest.mark.rule("BA-6.0a", "BA-2.0a")
def test_organization_commands_only_in_the_organization_phase() -> None:
    g = game()
    end_until(g, 2, "organization", "american")
    front = next(u for u in g.state.units if u.id == "us-423-106")
    assert not isinstance(g.push(MaxArtillery(front.id)), Rejection)
    pools = dict(g.state.pools)
    # XVII's pool is empty until its 90 points of 18 December: nothing to give
    assert {u.id: u.artillery for u in g.state.units}[front.id] == 0 and pools["XVII"] == 0
    v_unit = next(u for u in g.state.units if g.board.profiles[u.id].pool == "V")
    assert not isinstance(g.push(MaxArtillery(v_unit.id)), Rejection)
    assert {u.id: u.artillery for u in g.state.units}[v_unit.id] == 30  # 30 a stacking point
    assert dict(g.state.pools)["V"] == 115 - 30
    german = next(u for u in g.state.units if u.side == "german")
    wrong = g.push(MaxArtillery(german.id))
    assert isinstance(wrong, Rejection) and wrong.case == "BA-2.0a"
    end_until(g, 2, "operation", "american")
    late = g.push(MaxArtillery(v_unit.id))
    assert isinstance(late, Rejection) and late.case == "BA-6.0a"


@pytest.mark.rule("BA-7.10b")
def test_an_exited_unit_never_comes_back() -> None:
    g = game()
    end_until(g, 2, "operation", "german")
    exit_hex = sorted(g.board.exits)[0]
    unit = next(u for u in g.state.units if u.id == "de-150")
    moved = msgspec.structs.replace(unit, hex=exit_hex)
    units = tuple(moved if u.id == unit.id else u for u in g.state.units)
    g = bt.Game(g.board, msgspec.structs.replace(g.state, units=units), dice=g.dice)
    assert not isinstance(g.push(Exit("de-150")), Rejection)
    assert "de-150" not in {u.id for u in g.state.units}
    assert [(e.unit, e.strength, e.turn, e.hex) for e in g.state.exited] == [
        ("de-150", 40, 2, exit_hex)
    ]
    again = g.push(Move("de-150", (hexgrid.neighbours(exit_hex)[0] or exit_hex,)))
    assert isinstance(again, Rejection) and again.case == "BA-1.5a"
    while g.outcome() is None:
        g.push(EndPhase())
        assert "de-150" not in {u.id for u in g.state.units}


@pytest.mark.rule("BA-3.0a", "BA-3.2a")
def test_air_missions_fly_when_the_side_quits_its_menu() -> None:
    g = game()
    end_until(g, 3, "air", "american")
    assert g.state.weather == "fog" and g.state.air[0].received == 2  # 3.1a: Fog, two
    target = min(u.hex for u in g.state.units if u.side == "german")
    hit = sorted(u.id for u in g.state.units if u.hex == target)
    drawn = g.state.dice_drawn
    assert not isinstance(g.push(Strike(target)), Rejection)
    assert not isinstance(g.push(Interdict()), Rejection)
    none_left = g.push(Interdict())
    assert isinstance(none_left, Rejection) and none_left.case == "BA-3.2a"
    assert g.state.dice_drawn == drawn and g.state.strikes == (target,)
    wait = g.ruleset.dice_wait(g.board, g.state)
    assert (wait.kind, wait.purpose, wait.extendable) == ("batch", "air", True)
    germans = sorted(u.id for u in g.state.units if u.side == "german")
    r = g.push(EndPhase())
    assert not isinstance(r, Rejection)
    struck = next(e.report for e in r.events if isinstance(e, AirStruck))
    assert [h.unit for h in struck.hits] == hit
    rolls = [e for e in r.events if isinstance(e, DieRoll)]
    assert all(d.faces == 100 and 1 <= d.value <= 100 for d in rolls)
    mine = [d for d in rolls if d.purpose == f"ground_attack:{target}"]
    assert len(mine) == sum(1 + (h.strafe_draw is not None) for h in struck.hits)
    assert [h.disrupted for h in struck.hits] == [h.disrupt_draw <= 50 for h in struck.hits]
    # the one point on interdiction flies with the American's menu: every German unit draws
    # once, in id order, against 5% (3.3, G8)
    flown = next(e for e in r.events if isinstance(e, InterdictionFlown))
    assert (flown.side, flown.points) == ("american", 1)
    draws = [d for d in rolls if d.purpose == "interdiction:american"]
    assert len(draws) == len(germans) and rolls[-len(draws) :] == draws
    hit_ids = tuple(u for u, d in zip(germans, draws, strict=True) if d.value <= 5)
    assert flown.units == hit_ids and g.state.interdicted == hit_ids
    assert (g.state.phase, g.state.side) == ("air", "german")
    assert g.ruleset.dice_wait(g.board, g.state).kind == "none"  # nothing declared yet


@pytest.mark.rule("BA-6.7d")
def test_a_bridge_blowing_attempt_draws_when_the_phase_ends() -> None:
    g = game()
    end_until(g, 3, "organization", "american")
    eng = next(u for u in g.state.units if u.id == "us-1111")
    assert eng.hex == "1808" and g.board.profiles[eng.id].engineer
    assert not isinstance(g.push(BlowBridge(eng.id, "1708")), Rejection)
    after = next(u for u in g.state.units if u.id == eng.id)
    assert after.op == eng.op - 5  # 13.5n: non-mobile 5
    again = g.push(BlowBridge(eng.id, "1807"))
    assert isinstance(again, Rejection) and again.case == "BA-6.7d"
    r = g.push(EndPhase())
    assert not isinstance(r, Rejection)
    blast = next(e for e in r.events if isinstance(e, BridgeBlown))
    roll = next(e for e in r.events if isinstance(e, DieRoll))
    assert roll.purpose == "bridge:1708-1808" and blast.draw == roll.value
    assert blast.standing == (roll.value > 50)  # an engineer: 50%
    assert (("1708", "1808") in g.state.blown) == (not blast.standing)


@pytest.mark.rule("BA-6.6a", "BA-6.6b", "BA-6.6f", "BA-13.3c")
def test_building_up_and_breaking_down_in_the_organization_phase() -> None:
    g = game()
    assert (g.state.turn, g.state.phase, g.state.side) == (1, "organization", "german")
    # 13.3's example: 60/116 (45) and 156/116 (60), the two units that start at 13,25
    assert not isinstance(g.push(BuildUp("de-60-116pz", ("de-156-116pz",))), Rejection)
    by_id = {u.id: u for u in g.state.units}
    div = by_id["de-div-116pz"]
    assert "de-60-116pz" not in by_id and "de-156-116pz" not in by_id
    assert (div.hex, div.strength, div.stack, div.divisional) == ("2618", 105, 2, True)
    assert (div.op, div.mode) == (10, "normal")
    assert dict(g.state.divisions)["de-div-116pz"] == (
        Member("de-60-116pz", 45),
        Member("de-156-116pz", 60),
    )
    # 6.4d: 33 a stacking point on the first turns, 66; the LVIII pool holds 65
    assert not isinstance(g.push(MaxArtillery("de-div-116pz")), Rejection)
    assert {u.id: u.artillery for u in g.state.units}["de-div-116pz"] == 65
    assert dict(g.state.pools)["LVIII"] == 0
    # the 16th regiment is not in the hex: it cannot join (6.6a)
    far = g.push(BuildUp("de-16-116pz"))
    assert isinstance(far, Rejection) and far.case == "BA-6.6a"
    # breakdown: strength and artillery back in proportion, 45:60 (largest remainders)
    assert not isinstance(g.push(BreakDown("de-div-116pz")), Rejection)
    back = {u.id: (u.strength, u.artillery) for u in g.state.units if "116pz" in u.id}
    assert back == {"de-60-116pz": (45, 28), "de-156-116pz": (60, 37), "de-16-116pz": (55, 0)}
    assert g.state.divisions == ()
    not_div = g.push(BreakDown("de-60-116pz"))
    assert isinstance(not_div, Rejection) and not_div.case == "BA-6.6b"
    # a divisional unit may not enter travel mode (6.6f)
    g.push(BuildUp("de-60-116pz", ("de-156-116pz",)))
    end_until(g, 1, "operation", "german")
    end_until(g, 2, "operation", "german")
    travel = g.push(ChangeMode("de-div-116pz"))
    assert isinstance(travel, Rejection) and travel.case == "BA-6.6f"


@pytest.mark.rule("BA-8.1d", "BA-8.1e")
def test_efficiency_at_the_beginning_of_a_turn() -> None:
    g = game()
    while (g.state.turn, g.state.side, g.state.stage) != (1, "german", 2):
        g.push(EndPhase())
    rested, cut = "us-422-106", "us-423-106"
    units = tuple(
        msgspec.structs.replace(u, efficiency=80, op=7)
        if u.id == rested
        else msgspec.structs.replace(u, efficiency=80, op=7, supply="unsupplied")
        if u.id == cut
        else u
        for u in g.state.units
    )
    g = bt.Game(g.board, msgspec.structs.replace(g.state, units=units), dice=g.dice)
    assert not isinstance(g.push(EndPhase()), Rejection)
    assert (g.state.turn, g.state.phase) == (2, "dawn")
    assert not isinstance(g.push(EndPhase()), Rejection)
    assert (g.state.turn, g.state.phase) == (2, "organization")
    eff = {u.id: u.efficiency for u in g.state.units}
    # supplied: +5 and +1 a point left unused (80 + 5 + 7); unsupplied: -5, nothing back
    assert (eff[rested], eff[cut]) == (92, 75)
