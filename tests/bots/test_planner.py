"""The planner bot (``rules.ao.bots.planner``): the exact expected values it chooses attacks by,
worked out by hand from the printed CRTs (AO-10.0a), the allocation of attackers (AO-9.1C),
the German free set-up against the historical one (AO-17.a/b), and whole games: legal,
deterministic, replayable."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import msgspec
import pytest

import rules.ao
import scenarios
from rules.ao import Applied, apply, front_line_units
from rules.ao.bots import BotRng, HeuristicBot
from rules.ao.bots.planner import PlannerBot
from rules.ao.bots.planner.allied import CUT_UNIT, EXIT, AlliedPlan
from rules.ao.bots.planner.attacks import Candidate, allocate, orders
from rules.ao.bots.planner.bot import GERMAN_WEIGHTS
from rules.ao.bots.planner.expected import (
    BatchItem,
    Outcome,
    Sides,
    Weights,
    batch_value,
    expected,
    expected_numerator,
    outcomes,
)
from rules.ao.bots.planner.moves import friends_of
from rules.ao.bots.planner.setup import SetupValue, german_orders, improved
from rules.ao.bots.registry import make_bot
from rules.ao.bots.selfplay import encode, play, replay
from rules.ao.supply import supply_of
from scenarios import load_board
from tests.kit.realmap import needs_real_map

W = Weights(kill=1000, loss=600, ground=250, repulse=150, clear=0)


@pytest.mark.rule("AO-10.0a")
def test_outcomes_of_an_attack_read_off_the_standard_crt() -> None:
    # Standard CRT, 3-1 column: 1 Dr2, 2-4 Dr1, 5-6 Ar1. Two defenders, one of which has no
    # 2-hex retreat; three attackers that can all retreat.
    s = Sides(
        defenders=2, trapped=(0, 1, 2), immune=False, ex_loss=1, attackers=3, att_trapped=(0, 0, 1)
    )
    outs = outcomes("standard", "3-1", s)
    assert outs == (
        Outcome(1, "Dr2", 1, 0, 2, 0, True, False),
        Outcome(3, "Dr1", 0, 0, 2, 0, True, False),
        Outcome(2, "Ar1", 0, 0, 0, 3, False),
    )
    # 1 x (1000 + 2 x 250) + 3 x (2 x 250) + 2 x (-3 x 150) = 1500 + 1500 - 900
    assert expected_numerator(outs, W) == 2100
    assert expected(outs, W) == Fraction(350)


@pytest.mark.rule("AO-11.f")
def test_a_town_is_immune_to_dr_and_an_exchange_costs_the_attacker() -> None:
    # German Initial CRT, 5-1 column: 1-2 Ex, 3 Dr3, 4 Dr3, 5-6 Dr2.
    s = Sides(
        defenders=1, trapped=(0, 0, 0), immune=True, ex_loss=2, attackers=2, att_trapped=(0, 0, 0)
    )
    outs = outcomes("initial", "5-1", s)
    assert outs == (
        Outcome(2, "Ex", 1, 2, 0, 0, True, True),
        Outcome(2, "Dr3", 0, 0, 0, 0, False),
        Outcome(2, "Dr2", 0, 0, 0, 0, False),
    )
    assert expected_numerator(outs, W) == 2 * (1000 - 1200)


def test_a_batch_of_independent_attacks_is_worth_the_sum() -> None:
    a = BatchItem(
        hex="0101",
        weights=W,
        given=lambda c: (
            Outcome(3, "De", 1, 0, 0, 0, True, True),
            Outcome(3, "Ar1", 0, 0, 0, 1, False),
        ),
    )
    b = BatchItem(hex="0103", weights=W, given=lambda c: (Outcome(6, "Dr1", 0, 0, 1, 0, True),))
    # a: (3 x 1000 - 3 x 150) / 6 = 425; b: 250
    assert batch_value([a, b]) == batch_value([b, a]) == Fraction(675)


def test_an_attack_that_clears_its_hex_first_is_worth_more_to_the_next() -> None:
    cleared_first = Outcome(6, "De", 2, 0, 0, 0, True, True)
    pushed = Outcome(6, "Dr1", 0, 0, 1, 0, True)

    def b_given(cleared: frozenset[str]) -> Sequence[Outcome]:
        return (cleared_first,) if "0101" in cleared else (pushed,)

    a = BatchItem(
        hex="0101",
        weights=W,
        given=lambda c: (
            Outcome(3, "De", 1, 0, 0, 0, True, True),
            Outcome(3, "Ar1", 0, 0, 0, 0, False),
        ),
    )
    b = BatchItem(hex="0102", weights=W, given=b_given, relevant=frozenset({"0101"}))
    # a first: 500 + half the time b kills two (2000), half the time it pushes one (250)
    assert batch_value([a, b]) == Fraction(500 + 1000 + 125)
    # b first sees nothing cleared: 250 + 500
    assert batch_value([b, a]) == Fraction(750)
    # b blind to a (``relevant`` empty): the batch is the sum
    blind = BatchItem(hex="0102", weights=W, given=b_given)
    assert batch_value([a, blind]) == Fraction(750)


def _c(h: str, attackers: tuple[str, ...], num: int, empty: int = 0) -> Candidate:
    return Candidate(h, attackers, "3-1", None, num, empty)


@pytest.mark.rule("AO-9.1C")
def test_allocation_gives_each_attacker_one_attack_and_maximises_the_sum() -> None:
    options = {
        "0101": [_c("0101", ("a", "b"), 60), _c("0101", ("a",), 40)],
        "0202": [_c("0202", ("b",), 30)],
        "0303": [_c("0303", ("c",), -10)],
    }
    found = allocate(options)
    value, best = found[0]
    assert value == 70
    assert {(c.hex, c.attackers) for c in best} == {("0101", ("a",)), ("0202", ("b",))}
    for _v, batch in found:
        used = [a for c in batch for a in c.attackers]
        assert len(used) == len(set(used))
        assert all(c.hex != "0303" for c in batch)  # never an attack of negative value
    assert [v for v, _ in found] == sorted((v for v, _ in found), reverse=True)


def test_orders_try_the_most_valuable_and_the_most_likely_to_clear_first() -> None:
    rich = _c("0101", ("a",), 90, empty=1)
    sure = _c("0202", ("b",), 60, empty=4)
    assert orders([sure, rich]) == [(rich, sure), (sure, rich)]
    assert orders([_c("0101", ("a",), 90, 3), _c("0202", ("b",), 60, 1)]) == [
        (_c("0101", ("a",), 90, 3), _c("0202", ("b",), 60, 1))
    ]


def _german_setup(n: int) -> tuple[rules.ao.Board, rules.ao.GameState]:
    b = load_board(n)
    g = rules.ao.Game.new(b, dice=rules.SeededDice(b"setup"))
    allied = HeuristicBot("allied", BotRng(b"a"))
    while g.state.phase != "setup_german":
        assert not isinstance(g.push(allied.choose(g)), rules.Rejection)
    return b, g.state


@needs_real_map
@pytest.mark.rule("AO-17.b")
@pytest.mark.parametrize("n", [3, 5])
def test_the_free_set_up_is_worth_more_than_the_historical_one(n: int) -> None:
    b, s = _german_setup(n)
    sv = SetupValue(b, s, GERMAN_WEIGHTS)
    fl = front_line_units(b)
    hist = {
        u.hex: u.id
        for u in s.units
        if u.status == "on_map"
        and u.id in fl
        and u.hex in sv.targets
        and b.defs[u.id].side == "german"
    }
    new = improved(b, s, GERMAN_WEIGHTS)
    assert sorted(new) == sorted(hist.values())  # the same units, one a hex
    assert len(set(new.values())) == len(new)
    assert sv.value({h: u for u, h in new.items()}) > sv.value(hist)
    st = s
    for cmd in german_orders(b, s, GERMAN_WEIGHTS):  # every order legal, in order
        r = apply(b, st, cmd)
        assert isinstance(r, Applied), (cmd, r)
        st = r.state
    assert {u.id: u.hex for u in st.units if u.id in new} == new


@needs_real_map
def test_planner_hist_keeps_the_historical_set_up() -> None:
    b, s = _german_setup(3)
    bot = make_bot("planner-hist", "german", 3, BotRng(b"h"))
    assert isinstance(bot, PlannerBot) and bot.name == "planner-hist"
    assert bot.choose(rules.ao.Game(b, s)) == rules.ao.EndPhase()
    free = make_bot("planner", "german", 3, BotRng(b"h"))
    assert isinstance(free.choose(rules.ao.Game(b, s)), rules.ao.Place)


@needs_real_map
@pytest.mark.parametrize(("german", "allied"), [("planner", "heuristic"), ("heuristic", "planner")])
def test_planner_games_are_legal_deterministic_and_replay(german: str, allied: str) -> None:
    a = play(load_board(3), "pl", turns=3, german=german, allied=allied)
    again = play(load_board(3), "pl", turns=3, german=german, allied=allied)
    assert encode(a) == encode(again)
    assert a.record.header.players["german"].name == german
    assert a.record.header.players["allied"].name == allied
    assert replay(encode(a), load_board).ok
    attacks = [c for c in a.commands if isinstance(c, rules.ao.DeclareAttack)]
    assert attacks  # both sides fight in three Game-Turns


@needs_real_map
def test_at_level_four_the_planner_thinks_no_move_ahead() -> None:
    spec = scenarios.scenario_specs()[3]
    four = rules.ao.levels.level_for(spec, 4, "german")
    three = rules.ao.levels.level_for(spec, 3, "german")
    easy = play(load_board(3), "eff", 2, level=four, german="planner")
    plain = play(load_board(3), "eff", 2, level=four, german="heuristic")
    full = play(load_board(3), "eff", 2, level=three, german="planner")
    assert easy.commands == plain.commands
    assert easy.record.header.players["german"].label == "bot planner/2 level 4"
    assert full.commands != plain.commands
    bot = make_bot("planner", "german", 4, BotRng(b"x"))
    assert isinstance(bot, PlannerBot) and not bot.lookahead
    assert all(
        make_bot("planner", "german", n, BotRng(b"x")).lookahead  # type: ignore[attr-defined]
        for n in (1, 2, 3)
    )


def _lone_pair(
    german_hex: str, allied_hex: str
) -> tuple[rules.ao.Board, rules.ao.GameState, str, str]:
    """The real map with one German infantry unit and one US mechanized unit, GT3, the Allied
    Initial Movement Phase."""
    from tests.kit.engine import position, scenario_start

    b0, _ = scenario_start(1)
    de = next(u for u, d in sorted(b0.defs.items()) if d.side == "german" and not d.mechanized)
    us = next(
        u
        for u, d in sorted(b0.defs.items())
        if d.side == "allied" and d.mechanized and d.nationality == "US"
    )
    b = rules.ao.Board(b0.game_map, [b0.defs[de], b0.defs[us]])
    s = position({de: german_hex, us: allied_hex}, turn=3, side="allied", phase="initial_movement")
    return b, s, de, us


def _allied_plan(b: rules.ao.Board, s: rules.ao.GameState) -> AlliedPlan:
    bot = PlannerBot("allied", BotRng(b"plan"))
    bot.ctx.start_phase(b, s)
    return AlliedPlan(bot.ctx, b, s)


@needs_real_map
@pytest.mark.rule("AO-12.1A")
def test_the_allied_plan_sees_a_supply_line_cut_as_the_engine_judges_it() -> None:
    # A German unit at 0208, in the north-west corner: an Allied unit at 0409 closes his road.
    b, s, de, us = _lone_pair("0208", "0813")
    assert supply_of(b, s, de) == "supplied"
    plan = _allied_plan(b, s)
    assert plan.cut("0409") == CUT_UNIT  # one unit cut off, no exit VP next to it
    after = msgspec.structs.replace(
        s, units=(s.unit(de), msgspec.structs.replace(s.unit(us), hex="0409"))
    )
    assert supply_of(b, after, de) == "unsupplied"
    assert plan.cut("0813") == 0  # far from his road: nothing cut


@needs_real_map
@pytest.mark.rule("AO-16.C")
def test_the_allied_plan_contests_the_exits_the_german_threatens() -> None:
    # A German unit two hexes from the West exit 0110 (6 VP); SW exits count half while he is
    # not at Bastogne (AO-16.D): 0138 (3 VP) becomes 2.
    b, s, _, us = _lone_pair("0310", "0413")
    plan = _allied_plan(b, s)
    assert plan.exits == {"0110": 6}
    fr = friends_of(rules.ao.Game(b, s), "allied")
    free = plan.score(us, "0110", False, fr, False)
    plan.claimed["0110"] = "someone else"  # another Allied unit already stands there
    assert free - plan.score(us, "0110", False, fr, False) == EXIT * 6 + plan.cut("0110")
    b, s, _, us = _lone_pair("0338", "0641")
    assert _allied_plan(b, s).exits == {"0138": 2}
