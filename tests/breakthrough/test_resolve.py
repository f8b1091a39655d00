"""A Combat Phase in plotted order (8.0, G14): whole combats worked out by hand.

Patch around 0505 (see test_retreat): neighbours NE 0504, E 0605, SE 0506, SW 0406, W 0405,
NW 0404. Every hex clear, movement 3 a hex.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import hexgrid
from rules.breakthrough.resolve import PhaseResult, Plot, combats, resolve_phase
from rules.breakthrough.retreat import Ground
from rules.breakthrough.units import DrawsExhaustedError, Side, Unit

PATCH = {h: "clear" for h in hexgrid.within("0505", 4)}


def cost(u: Unit, a: str, b: str) -> int | None:
    return 3 if b in PATCH else None


GROUND = Ground(PATCH, {"american": frozenset({"0105"}), "german": frozenset({"0905"})}, cost)  # type: ignore[arg-type]
OWNER: dict[str, Side] = {
    "0405": "american",
    "0404": "german",
    "0406": "german",
    "0505": "american",
}


@pytest.mark.rule("BA-8.0b", "BA-8.3a", "BA-8.3b", "BA-8.3c", "BA-8.4a", "BA-8.4e", "BA-13.5o")
def test_a_combat_from_odds_to_advance() -> None:
    g1 = Unit("g1", "german", "0605", 60, artillery=40, advance=True, op=4)
    d2 = Unit("d2", "american", "0505", 20, efficiency=60, op=5)
    result = resolve_phase([Plot("g1", "0505")], [g1, d2], OWNER, GROUND, [100, 100, 80])
    (r,) = result.reports
    # odds: (60 + artillery 40) / (20 x .6) = 100 / 12 = 8.33
    assert (r.odds.attack, r.odds.defence, r.odds.ratio) == (10000, 1200, 833)  # type: ignore[union-attr]
    # attacker: 60 x 6 x 149 / 1000 = 53 hundredths -> 1; no defending artillery
    # defender: 53 x 600 (capped) x 100 / 10000 = 318 -> 3, + 40 artillery / 20 = 2 -> 5
    assert (r.attacker_loss, r.defender_loss) == (1, 5)
    by = {x.unit: x for x in r.losses}
    assert (by["g1"].strength, by["g1"].efficiency) == (59, 98)  # 1% lost, 2 a percent
    assert (by["d2"].strength, by["d2"].efficiency) == (15, 40)  # 25% lost: 60 - 25 -> 40
    # retreat chance 2 x 25 + (100 - 40) / 2 = 80: the draw 80 retreats, to 0405 (own hex)
    (move,) = r.retreats
    assert (move.unit, move.to, move.op_spent, move.extra_loss) == ("d2", "0405", 2, 0)
    (adv,) = r.advances
    assert (adv.unit, adv.origin, adv.to, adv.op_spent) == ("g1", "0605", "0505", 3)
    units = {u.id: u for u in result.units}
    assert (units["d2"].hex, units["d2"].op, units["d2"].strength) == ("0405", 0, 15)
    assert (units["g1"].hex, units["g1"].op, units["g1"].efficiency) == ("0505", 1, 96)
    assert result.owner["0505"] == "german"
    assert r.draws == (100, 100, 80) and result.draws_used == 3


@pytest.mark.rule("BA-8.4a")
def test_a_draw_above_the_chance_holds_the_hex() -> None:
    g1 = Unit("g1", "german", "0605", 60, artillery=40, advance=True, op=4)
    d2 = Unit("d2", "american", "0505", 20, efficiency=60, op=5)
    result = resolve_phase([Plot("g1", "0505")], [g1, d2], OWNER, GROUND, [100, 100, 81])
    (r,) = result.reports
    assert r.retreats == () and r.advances == ()
    units = {u.id: u for u in result.units}
    assert (units["d2"].hex, units["d2"].op, units["g1"].hex) == ("0505", 2, "0605")


@pytest.mark.rule("BA-8.0a")
def test_combats_resolve_in_the_order_of_their_first_plot() -> None:
    plots = [Plot("a", "0505"), Plot("b", "0707"), Plot("c", "0505")]
    assert combats(plots) == [("0505", ["a", "c"]), ("0707", ["b"])]
    with pytest.raises(ValueError):
        combats([Plot("a", "0505"), Plot("a", "0504")])
    # the second combat sees the first's result: with 0404 full of Americans, d must retreat
    # from 0505 into a ZOC (g's: 0504, 0506; h's in 0306: 0405, 0406); 0405 and 0406 are two
    # hexes from g, 0405 is American: there it loses 10% more (15 -> 13), and h attacks it
    g = Unit("g", "german", "0605", 60, artillery=40)
    h = Unit("h", "german", "0306", 30)
    d = Unit("d", "american", "0505", 20, efficiency=60)
    full = [Unit(f"f{i}", "american", "0404", 10) for i in range(3)]
    plots = [Plot("g", "0505"), Plot("h", "0405")]
    result = resolve_phase(plots, [g, h, d, *full], OWNER, GROUND, [100, 100, 80, 1, 1, 100])
    first, second = result.reports
    assert (first.retreats[0].to, first.retreats[0].extra_loss) == ("0405", 2)
    # h: 30 x 6 x 50 / 1000 = 9 hundredths -> 0; d: 0; chance (100 - 40) / 2 = 30 < 100
    assert second.defenders == ("d",) and second.draws == (1, 1, 100)
    assert second.defender_strength == 13 and second.retreats == ()
    with pytest.raises(DrawsExhaustedError):
        resolve_phase(plots, [g, h, d, *full], OWNER, GROUND, [100, 100, 80])


@pytest.mark.rule("BA-4.3j")
def test_an_isolated_defender_that_surrenders_is_eliminated_and_the_hex_taken() -> None:
    g = Unit("g", "german", "0605", 60, advance=True, op=6)
    d = Unit("d", "american", "0505", 20, supply="isolated")
    result = resolve_phase([Plot("g", "0505")], [g, d], OWNER, GROUND, [40])
    (r,) = result.reports
    assert r.surrendered == ("d",) and r.eliminated == ("d",) and r.odds is None
    assert r.attacker_loss == 0 and result.draws_used == 1
    assert [u.id for u in result.units] == ["g"] and result.units[0].hex == "0505"
    # above 40: it fights (at x.5), and the phase goes on to the loss draws
    result = resolve_phase([Plot("g", "0505")], [g, d], OWNER, GROUND, [41, 1, 1, 100])
    assert result.reports[0].surrendered == () and result.reports[0].odds.defence == 1000  # type: ignore[union-attr]


@pytest.mark.rule("BA-8.3d")
def test_eliminated_units_leave_the_map() -> None:
    g = Unit("g", "german", "0605", 60, artillery=100)
    d = Unit("d", "american", "0505", 4)
    result = resolve_phase([Plot("g", "0505")], [g, d], OWNER, GROUND, [51, 51])
    (r,) = result.reports
    # 100 artillery / 20 = 5 > 4: eliminated, no retreat draw needed
    assert r.defender_loss == 4 and r.eliminated == ("d",)
    assert [u.id for u in result.units] == ["g"] and result.draws_used == 2


@pytest.mark.rule("BA-8.0c")
def test_the_report_shows_odds_losses_retreats_and_the_defenders_approximate_strength() -> None:
    g1 = Unit("g1", "german", "0605", 60, artillery=40, advance=True, op=4)
    d2 = Unit("d2", "american", "0505", 43, efficiency=60, op=5)
    (r,) = resolve_phase([Plot("g1", "0505")], [g1, d2], OWNER, GROUND, [1, 1, 100]).reports
    # 60 + 40 = 100 against 43 x .6 = 25.8: 3.87 to 1; 43 shown as 45
    assert r.odds is not None and r.odds.text == "3.87:1"
    assert (r.target, r.defender_strength, r.approximate_defender_strength) == ("0505", 43, 45)
    assert (r.attacker_loss, r.defender_loss, r.retreats) == (0, 2, ())


def test_reports_encode_canonically_and_round_trip() -> None:
    g1 = Unit("g1", "german", "0605", 60, artillery=40, advance=True, op=4)
    d2 = Unit("d2", "american", "0505", 20, efficiency=60, op=5)
    result = resolve_phase([Plot("g1", "0505")], [g1, d2], OWNER, GROUND, [100, 100, 80])
    raw = msgspec.json.encode(result, order="deterministic")
    assert msgspec.json.decode(raw, type=PhaseResult) == result
    assert raw == msgspec.json.encode(
        resolve_phase([Plot("g1", "0505")], [g1, d2], OWNER, GROUND, [100, 100, 80]),
        order="deterministic",
    )


def test_units_refuse_values_outside_the_rules() -> None:
    for bad in ({"efficiency": 39}, {"efficiency": 101}, {"fort": 6}, {"stack": 4}, {"op": -1}):
        with pytest.raises(ValueError):
            Unit("u", "german", "0505", 10, **bad)  # type: ignore[arg-type]


side_units = st.lists(
    st.tuples(st.integers(1, 120), st.integers(40, 100), st.integers(0, 5), st.integers(0, 40)),
    min_size=1,
    max_size=3,
)


@given(side_units, side_units, st.lists(st.integers(1, 100), min_size=8, max_size=8))
def test_a_combat_never_takes_more_than_the_strength_there_is(att, dfn, draws) -> None:
    attackers = [
        Unit(f"a{i}", "german", hx, s, efficiency=e, artillery=art)
        for i, ((s, e, _f, art), hx) in enumerate(zip(att, ["0605", "0504", "0506"], strict=False))
    ]
    defenders = [
        Unit(f"d{i}", "american", "0505", s, efficiency=e, fort=f, artillery=art)
        for i, (s, e, f, art) in enumerate(dfn)
    ]
    plots = [Plot(a.id, "0505") for a in attackers]
    result = resolve_phase(plots, [*attackers, *defenders], OWNER, GROUND, draws)
    (r,) = result.reports
    before = {u.id: u.strength for u in [*attackers, *defenders]}
    after = {u.id: u.strength for u in result.units}
    assert all(0 < after[i] <= before[i] for i in after)
    assert r.attacker_loss <= sum(a.strength for a in attackers)
    assert r.defender_loss <= sum(d.strength for d in defenders)
    assert all(0 <= x.loss <= before[x.unit] for x in r.losses)
    assert set(before) - set(after) == set(r.eliminated)


def test_plots_no_rule_allows_are_refused() -> None:
    g = Unit("g", "german", "0705", 60)
    d = Unit("d", "american", "0505", 20)
    with pytest.raises(ValueError, match="cannot attack"):
        resolve_phase([Plot("g", "0505")], [g, d], OWNER, GROUND, [1, 1, 1])
    with pytest.raises(ValueError, match="no such attacking unit"):
        resolve_phase([Plot("x", "0505")], [g, d], OWNER, GROUND, [1, 1, 1])
