"""Air missions (3.0-3.5, G8): interdiction, ground attack, air drops, the menu's points."""

from __future__ import annotations

import pytest

from rules.breakthrough import air, strength
from rules.breakthrough.air import AirPoints
from rules.breakthrough.units import Draws, Unit
from rules.rejection import Rejection


def de(uid: str, h: str = "0505", **kw: object) -> Unit:
    return Unit(uid, "german", h, 40, **kw)  # type: ignore[arg-type]


def us(uid: str, h: str = "0303", **kw: object) -> Unit:
    return Unit(uid, "american", h, 30, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("BA-3.4a")
def test_each_enemy_unit_in_the_hex_is_disrupted_on_50_or_less() -> None:
    units = [de("b"), de("a"), de("c", "0506"), us("x")]
    draws = Draws([50, 51])
    after, report = air.ground_attack("american", "0505", units, draws)
    assert draws.used == 2  # a and b only: c is elsewhere
    assert [(h.unit, h.disrupt_draw, h.disrupted) for h in report.hits] == [
        ("a", 50, True),
        ("b", 51, False),
    ]
    assert [u.disrupted for u in after] == [False, True, False, False]
    assert after[2] is units[2] and after[3] is units[3]


@pytest.mark.rule("BA-3.4b", "BA-3.4d", "BA-7.7f")
def test_travel_mode_units_are_also_strafed_on_33_or_less_and_go_to_normal_mode() -> None:
    units = [de("a", mode="travel"), de("b", mode="travel")]
    after, report = air.ground_attack("american", "0505", units, Draws([70, 33, 10, 34]))
    assert [(h.disrupted, h.strafe_draw, h.strafed) for h in report.hits] == [
        (False, 33, True),
        (True, 34, False),
    ]
    assert [(u.strafed, u.mode) for u in after] == [(True, "normal"), (False, "travel")]
    # a strafed unit fights with 30% of its strength (and no longer in travel mode)
    assert strength.modified_strength(after[0], "defence") == 40 * 100 * 30 // 100
    # a normal-mode unit takes no strafing draw
    _, report = air.ground_attack("american", "0505", [de("c")], Draws([99]))
    assert report.hits[0].strafe_draw is None


@pytest.mark.rule("BA-3.4c")
def test_a_disrupted_unit_fights_with_half_its_efficiency() -> None:
    (hit,), _ = air.ground_attack("german", "0303", [us("x", efficiency=80)], Draws([1]))
    assert hit.disrupted and hit.efficiency == 80
    assert strength.efficiency_used(hit) == 40
    assert strength.modified_strength(hit, "attack") == 30 * 40  # hundredths: 12.00
    # a second strike does not halve it again, and the effects end at the next Air Phase
    (again,), _ = air.ground_attack("german", "0303", [hit], Draws([100]))
    assert again.disrupted and strength.efficiency_used(again) == 40
    (clear,) = air.clear_effects([again])
    assert not clear.disrupted and strength.efficiency_used(clear) == 80


@pytest.mark.rule("BA-3.0a", "BA-3.4a")
def test_a_ground_attack_needs_an_air_point_and_an_enemy_in_the_hex() -> None:
    units = [de("a"), us("x")]
    assert air.check_ground_attack("american", 1, "0505", units) is None
    assert air.check_ground_attack("american", 0, "0505", units) == Rejection(
        "BA-3.0a", "american has no air point left for a ground attack"
    )
    r = air.check_ground_attack("american", 3, "0303", units)
    assert r is not None and r.case == "BA-3.4a"
    assert air.check_ground_attack("german", 3, "0303", units) is None


@pytest.mark.rule("BA-3.3a")
def test_interdiction_hits_each_enemy_unit_with_5_percent_a_point() -> None:
    assert [air.interdiction_chance(p) for p in (0, 1, 6, 10, 21)] == [0, 5, 30, 50, 100]
    units = [de("c"), de("a"), de("b"), us("x"), Unit("a0", "german", "0505", 0)]
    draws = Draws([30, 31, 1])
    hit = air.interdict("american", 6, units, draws)
    assert draws.used == 3  # one draw per German unit on the map, in id order a, b, c
    assert hit == {"a", "c"}
    # no points, no draws
    none = Draws([])
    assert air.interdict("american", 0, units, none) == frozenset() and none.used == 0
    # the interdicted receive half their points, after supply's cut
    assert [air.received(24, True), air.received(9, True), air.received(9, False)] == [12, 4, 9]


@pytest.mark.rule("BA-3.2a", "BA-3.0a")
def test_the_air_menu_spends_points_on_interdiction_and_missions() -> None:
    assert air.allocating_sides(6, 1) == ("american", "german")
    assert air.allocating_sides(0, 2) == ("german",)
    assert air.allocating_sides(0, 0) == ()
    pts = AirPoints(2)
    step = pts.add_interdiction()
    assert isinstance(step, AirPoints) and step.left == 1
    step = step.spend_mission()
    assert isinstance(step, AirPoints) and (step.interdiction, step.missions, step.left) == (
        1,
        1,
        0,
    )
    assert isinstance(step.add_interdiction(), Rejection)
    assert isinstance(step.spend_mission(), Rejection)


@pytest.mark.rule("BA-3.5a")
def test_air_points_left_from_the_air_phase_pay_for_air_drops() -> None:
    units = [us("x", supply="unsupplied")]
    left = AirPoints(6, interdiction=4, missions=1).left
    assert left == 1
    assert air.check_air_drop("american", left, "0303", units) is None
    r = air.check_air_drop("american", 0, "0303", units)
    assert r is not None and r.case == "BA-3.5a"


@pytest.mark.rule("BA-3.5b")
def test_an_air_drop_brings_every_friendly_unit_in_the_hex_up_one_supply_level() -> None:
    units = [
        us("x", supply="isolated"),
        us("y", supply="unsupplied"),
        us("z", supply="supplied"),
        us("w", "0304", supply="unsupplied"),
        de("g", "0505", supply="unsupplied"),
    ]
    after = air.air_drop("american", "0303", units)
    assert [u.supply for u in after] == [
        "unsupplied",
        "supplied",
        "supplied",
        "unsupplied",
        "unsupplied",
    ]
    r = air.check_air_drop("american", 1, "0303", [units[2]])
    assert r is not None and r.case == "BA-3.5b"  # nothing to gain
    r = air.check_air_drop("american", 1, "0505", units)
    assert r is not None and r.case == "BA-3.5b"  # no American unit there
    assert air.check_air_drop("german", 1, "0505", units) is None
