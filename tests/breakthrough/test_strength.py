"""Modified strength and odds (8.1a, 8.2a-g, 7.7c, 3.4c): each value worked out by hand from
13.6's factors, integer hundredths of a point, one rounding down per unit (G15)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.breakthrough.strength import (
    IsolatedAttackError,
    attack_artillery,
    combat_odds,
    modified_strength,
)
from rules.breakthrough.units import Unit


def unit(strength: int, **kw: object) -> Unit:
    return Unit("u", "american", "0505", strength, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("BA-8.1a")
def test_efficiency_multiplies_strength_by_eff_percent() -> None:
    # C4: 13.6's "EFF# x .01": 50 at 80% is 40, not the text's 45.
    assert modified_strength(unit(50, efficiency=80), "attack") == 4000
    assert modified_strength(unit(50, efficiency=80), "defence") == 4000
    assert modified_strength(unit(50, efficiency=40), "attack") == 2000


@pytest.mark.rule("BA-8.2a")
def test_defender_terrain_multipliers_and_none_for_the_attacker() -> None:
    assert modified_strength(unit(30), "defence", "clear") == 3000
    assert modified_strength(unit(30), "defence", "rough") == 3900
    assert modified_strength(unit(30), "defence", "forest") == 5100
    assert modified_strength(unit(30), "defence", "town") == 6000
    assert modified_strength(unit(30), "attack", "town") == 3000


@pytest.mark.rule("BA-8.2b")
def test_attacking_across_a_river_is_cut_a_quarter() -> None:
    assert modified_strength(unit(40), "attack", across_river=True) == 3000
    assert modified_strength(unit(40), "attack", across_river=False) == 4000
    # the river is the attacker's: a defender is never cut by it
    assert modified_strength(unit(40), "defence", across_river=True) == 4000


@pytest.mark.rule("BA-8.2c", "BA-7.8d")
def test_fortification_adds_thirty_percent_a_level_in_defence_only() -> None:
    assert modified_strength(unit(20, fort=3), "defence") == 3800  # 20 x 1.9
    assert modified_strength(unit(20, fort=1), "defence", "rough") == 3380  # 20 x 1.3 x 1.3
    assert modified_strength(unit(20, fort=3), "attack") == 2000


@pytest.mark.rule("BA-8.2d", "BA-4.3c", "BA-4.3h", "BA-4.3k")
def test_supply_factors_and_isolated_units_may_not_attack() -> None:
    assert modified_strength(unit(40, supply="unsupplied"), "attack") == 2000
    assert modified_strength(unit(40, supply="unsupplied"), "defence") == 3000
    assert modified_strength(unit(40, supply="isolated"), "defence") == 2000
    with pytest.raises(IsolatedAttackError):
        modified_strength(unit(40, supply="isolated"), "attack")


@pytest.mark.rule("BA-8.2e", "BA-6.6g")
def test_divisional_bonus_comes_after_the_other_modifiers() -> None:
    # 40 x .9 x 1.3 = 46.8, then x1.25 = 58.5
    assert modified_strength(unit(40, efficiency=90, divisional=True), "defence", "rough") == 5850
    assert modified_strength(unit(40, divisional=True), "attack") == 5000


@pytest.mark.rule("BA-8.2g", "BA-8.2e")
def test_triple_cap_before_the_bonus() -> None:
    # town 2.0 x fort 5 (2.5) = 5.0: 30 would be 150, capped at 90
    assert modified_strength(unit(30, fort=5), "defence", "town") == 9000
    # town x fort 2 (1.6) = 3.2: 96 capped at 90
    assert modified_strength(unit(30, fort=2), "defence", "town") == 9000
    # the divisional bonus is outside the cap: 40 x 5.0 -> 120 -> x1.25 = 150
    assert modified_strength(unit(40, fort=5, divisional=True), "defence", "town") == 15000
    # below the cap nothing changes: 30 x 1.7 x 1.3 = 66.3
    assert modified_strength(unit(30, fort=1), "defence", "forest") == 6630


@pytest.mark.rule("BA-8.2f")
def test_attacker_artillery_halved_against_a_town_and_cut_ten_percent_a_fort_level() -> None:
    assert attack_artillery(30, town=False, fort=0) == 3000
    assert attack_artillery(30, town=True, fort=0) == 1500
    assert attack_artillery(30, town=True, fort=2) == 1200  # 30 x .8 / 2
    assert attack_artillery(30, town=False, fort=5) == 1500
    assert attack_artillery(25, town=True, fort=1) == 1125  # 25 x .9 / 2 = 11.25


@pytest.mark.rule("BA-8.0b", "BA-8.2f", "BA-8.2b")
def test_odds_of_a_combat_worked_by_hand() -> None:
    a = Unit("a", "german", "0605", 45, artillery=30)
    b = Unit("b", "german", "0504", 30, efficiency=80)
    d = Unit("d", "american", "0505", 40, fort=1, artillery=10)
    o = combat_odds([(a, False), (b, True)], [d], "forest")
    # attack: 45 + 30 x .8 x .75 = 63, artillery 30 x .9 = 27 -> 90.00
    # defence: 40 x 1.7 x 1.3 = 88.4, artillery 10 -> 98.40
    assert (o.attack, o.defence, o.ratio) == (9000, 9840, 91)
    assert o.text == "1:1.09"


@pytest.mark.rule("BA-7.7c", "BA-3.4c")
def test_travel_mode_and_disruption() -> None:
    assert modified_strength(unit(50, mode="travel"), "attack") == 3000
    assert modified_strength(unit(50, mode="travel"), "defence") == 3000
    # disrupted: half of 75% is 37% (down): 50 x .37 = 18.5
    assert modified_strength(unit(50, efficiency=75, disrupted=True), "defence") == 1850


def test_one_rounding_down_per_unit() -> None:
    # 7 x .73 x 1.7 x .75 = 6.51525 -> 6.51
    u = unit(7, efficiency=73, supply="unsupplied")
    assert modified_strength(u, "defence", "forest") == 651


units_st = st.builds(
    Unit,
    id=st.just("u"),
    side=st.just("german"),
    hex=st.just("0505"),
    strength=st.integers(0, 300),
    efficiency=st.integers(40, 100),
    mode=st.sampled_from(["normal", "travel"]),
    supply=st.sampled_from(["supplied", "unsupplied", "isolated"]),
    fort=st.integers(0, 5),
    divisional=st.booleans(),
    disrupted=st.booleans(),
    strafed=st.booleans(),
)


@given(units_st, st.sampled_from(["clear", "rough", "forest", "town"]))
def test_modified_strength_is_an_integer_within_the_cap(u: Unit, terrain: str) -> None:
    v = modified_strength(u, "defence", terrain)  # type: ignore[arg-type]
    assert type(v) is int
    assert 0 <= v <= 300 * u.strength * 125 // 100
