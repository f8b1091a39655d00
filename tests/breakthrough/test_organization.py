"""The Unit Organization Phase's rules (6.4-6.7, 13.4, G19-G21, G23), worked by hand."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.breakthrough.artillery import (
    PoolReinforcement,
    at_turn_start,
    handicapped,
    holding_limit,
    max_artillery,
    return_all,
    transfer,
)
from rules.breakthrough.bridges import BridgeResult, blow, build
from rules.breakthrough.organization import (
    Formation,
    Member,
    break_down,
    build_up,
    divisional_profile,
    free_slots,
    replace,
    replacement_points,
    split,
)
from rules.breakthrough.profile import Profile
from rules.breakthrough.units import Unit
from rules.hexgrid import hexside
from rules.rejection import Rejection

R16 = Profile("PZ", True, 24, 10, division="116PZ", pool="LVIII", full=55)
R60 = Profile("PZGR", True, 20, 10, division="116PZ", pool="LVIII", full=45)
R156 = Profile("PZGR", True, 20, 10, division="116PZ", pool="LVIII", full=60)
DIV = Profile("PZGR", True, 20, 10, division="116PZ", pool="LVIII", full=160)
OTHER = Profile("VG", False, 12, 6, division="18", pool="LXVI", full=25)
ENG = Profile("ENG", True, 20, 10, full=10)
US_INF = Profile("INF", False, 9, 9, division="99", pool="V", full=45)
US_ENG = Profile("ENG", False, 9, 9, full=10)
PROFILES = {"16": R16, "60": R60, "156": R156, "div": DIV, "18": OTHER, "eng": ENG}


def de(uid: str, strength: int, **kw: object) -> Unit:
    return Unit(uid, "german", "1325", strength, **kw)  # type: ignore[arg-type]


# -- artillery (6.4, 13.4) ------------------------------------------------------------------


@pytest.mark.rule("BA-6.4d")
def test_holding_limits_per_stacking_point() -> None:
    assert holding_limit("american", 1, 9) == 30
    assert holding_limit("american", 3, 1) == 90
    assert holding_limit("german", 1, 3) == 33
    assert holding_limit("german", 2, 3) == 66
    assert holding_limit("german", 1, 4) == 15
    assert holding_limit("german", 3, 12) == 45


@pytest.mark.rule("BA-6.4a", "BA-6.4b", "BA-4.3d")
def test_transfers_only_for_supplied_units_of_a_division() -> None:
    pools = {"LVIII": 65}
    got = transfer(de("60", 45), R60, pools, 30, 2)
    assert not isinstance(got, Rejection)
    unit, left = got
    assert unit.artillery == 30 and left == {"LVIII": 35}
    back = transfer(unit, R60, left, -10, 2)
    assert not isinstance(back, Rejection) and back[0].artillery == 20 and back[1] == {"LVIII": 45}
    for bad, case in (
        (transfer(de("eng", 10), ENG, pools, 5, 2), "BA-6.4a"),
        (transfer(de("60", 45, supply="isolated"), R60, pools, 5, 2), "BA-6.4b"),
        (transfer(de("60", 45, supply="unsupplied"), R60, pools, 5, 2), "BA-6.4b"),
        (transfer(de("60", 45), R60, pools, 34, 2), "BA-6.4d"),
        (transfer(de("60", 45), R60, pools, 16, 4), "BA-6.4d"),
        (transfer(de("60", 45), R60, {"LVIII": 10}, 11, 2), "BA-6.4a"),
        (transfer(de("60", 45, artillery=3), R60, pools, -4, 2), "BA-6.4a"),
    ):
        assert isinstance(bad, Rejection) and bad.case == case


@pytest.mark.rule("BA-6.4e")
def test_max_artillery_fills_to_the_limit_or_empties_the_pool() -> None:
    full = max_artillery(de("60", 45, artillery=5), R60, {"LVIII": 65}, 2)
    assert not isinstance(full, Rejection) and full[0].artillery == 33 and full[1]["LVIII"] == 37
    thin = max_artillery(de("60", 45), R60, {"LVIII": 20}, 2)
    assert not isinstance(thin, Rejection) and thin[0].artillery == 20 and thin[1]["LVIII"] == 0


@pytest.mark.rule("BA-6.4c")
def test_every_unit_returns_its_artillery_at_the_start_of_the_turn() -> None:
    units = [de("60", 45, artillery=30), de("156", 60, artillery=3), de("eng", 10)]
    after, pools = return_all(units, PROFILES, {"LVIII": 2})
    assert [u.artillery for u in after] == [0, 0, 0] and pools == {"LVIII": 35}


@pytest.mark.rule("BA-6.4h")
def test_pool_reinforcements_on_their_dates_and_the_german_early_use() -> None:
    schedule = [PoolReinforcement("V", 30, 3), PoolReinforcement("III", 60, 6)]
    assert at_turn_start({"V": 115, "III": 0}, "american", 3, schedule) == {"V": 145, "III": 0}
    assert at_turn_start({"V": 115, "III": 0}, "american", 6, schedule) == {"V": 115, "III": 60}
    assert at_turn_start({"V": 0}, "american", 3, schedule, level=1) == {"V": 45}
    assert at_turn_start({"V": 0}, "american", 3, schedule, level=2) == {"V": 37}  # 37.5 down
    ger = [PoolReinforcement("IISS", 15, 4)]
    assert at_turn_start({"ISS": 130, "IISS": 0}, "german", 2, ger) == {"ISS": 117, "IISS": 0}
    assert at_turn_start({"ISS": 117, "IISS": 0}, "german", 4, ger) == {"ISS": 106, "IISS": 15}
    assert at_turn_start({"ISS": 106}, "german", 5, ger) == {"ISS": 106}
    assert handicapped(130, "german", 4) == 195 and handicapped(130, "german", 3) == 130
    assert handicapped(115, "american", 4) == 115


# -- build-up and breakdown (6.6, G21) ------------------------------------------------------


@pytest.mark.rule("BA-6.6a", "BA-6.6c", "BA-6.6d", "BA-6.6e", "BA-13.3c")
def test_two_regiments_build_up_13_3_example() -> None:
    """13.3's example: 60/116 (45) and 156/116 (60) at 13,25 make the 116th at 105."""
    a = de("60", 45, efficiency=80, fort=2, artillery=10, op=12, mode="travel")
    b = de("156", 60, efficiency=100, fort=0, artillery=5, op=20, supply="unsupplied")
    f = build_up(a, [b], PROFILES, "div")
    assert isinstance(f, Formation)
    u = f.unit
    # efficiency (80x45 + 100x60) / 105 = 91.4 -> 91; fort (2x45) / 105 = 0.86 -> 0
    assert (u.strength, u.efficiency, u.fort, u.artillery, u.op) == (105, 91, 0, 15, 12)
    assert (u.stack, u.divisional, u.mode, u.supply) == (2, True, "normal", "supplied")
    assert f.members == (Member("60", 45), Member("156", 60))
    c = de("16", 55, fort=4)
    three = build_up(c, [], PROFILES, "div", existing=f)
    assert isinstance(three, Formation) and three.unit.stack == 3 and three.unit.strength == 160
    assert three.unit.fort == 220 // 160  # (0x105 + 4x55) / 160 = 1.4 -> 1
    fourth = build_up(de("x", 20), [], {**PROFILES, "x": R60}, "div", existing=three)
    assert isinstance(fourth, Rejection) and fourth.case == "BA-6.6e"
    alone = build_up(a, [], PROFILES, "div")
    assert isinstance(alone, Rejection) and alone.case == "BA-6.6a"
    mixed = build_up(a, [de("18", 25)], PROFILES, "div")
    assert isinstance(mixed, Rejection) and mixed.case == "BA-6.6a"
    apart = build_up(a, [Unit("156", "german", "1326", 60)], PROFILES, "div")
    assert isinstance(apart, Rejection) and apart.case == "BA-6.6a"


@pytest.mark.rule("BA-6.6b", "BA-6.6d")
def test_breakdown_shares_strength_by_the_members_and_respects_the_limit() -> None:
    d = de(
        "div",
        70,
        divisional=True,
        stack=2,
        efficiency=85,
        fort=3,
        artillery=9,
        op=7,
        supply="unsupplied",
        mode="normal",
    )
    f = Formation(d, (Member("60", 45), Member("156", 60)))
    parts = break_down(f, 70, 69)
    assert isinstance(parts, list)
    # 70 x 45/105 = 30, 70 x 60/105 = 40; artillery 9 -> 3.86, 5.14 -> 4, 5 (largest remainder)
    assert [(u.id, u.strength, u.artillery) for u in parts] == [("60", 30, 4), ("156", 40, 5)]
    assert {(u.efficiency, u.fort, u.op, u.supply, u.mode, u.stack) for u in parts} == {
        (85, 3, 7, "unsupplied", "normal", 1)
    }
    assert not any(u.divisional for u in parts)
    full = break_down(f, 70, 70)
    assert isinstance(full, Rejection) and full.case == "BA-6.6b"
    assert free_slots(70, 68) == 2 and free_slots(57, 60) == 0


def test_divisional_profile_slowest_member() -> None:
    p = divisional_profile("div", [R16, R60, OTHER])
    assert (p.mobile, p.first, p.second, p.full) == (False, 12, 6, 55 + 45 + 25)
    q = divisional_profile("div", [R16, R60, R156])
    assert (q.mobile, q.first, q.second, q.full, q.pool) == (True, 20, 10, 160, "LVIII")


@given(st.integers(0, 500), st.lists(st.integers(0, 99), min_size=1, max_size=3))
def test_split_shares_exactly_and_fairly(total: int, weights: list[int]) -> None:
    shares = split(total, weights)
    assert sum(shares) == total and all(s >= 0 for s in shares)
    whole = sum(weights) or len(weights)
    for s, w in zip(shares, weights or [1], strict=False):
        exact = total * (w if sum(weights) else 1)
        assert s * whole <= exact + whole and exact <= s * whole + whole  # within one point


# -- replacements (6.5, G20) ----------------------------------------------------------------


@pytest.mark.rule("BA-6.5a", "BA-6.5c")
def test_replacement_points_by_side_level_and_turn() -> None:
    assert replacement_points("american", 3, 3) == (0, 0)
    assert replacement_points("american", 3, 4) == (15, 10)
    assert replacement_points("german", 3, 4) == (10, 15)
    assert replacement_points("german", 4, 5) == (20, 30)
    assert replacement_points("american", 2, 5) == (30, 20)
    assert replacement_points("american", 1, 5) == (45, 30)
    assert replacement_points("german", 1, 5) == (10, 15)


@pytest.mark.rule("BA-6.5a", "BA-6.5b")
def test_replacements_go_to_supplied_divisional_units_up_to_their_printed_strength() -> None:
    got = replace(de("60", 30), R60, 10, (10, 15), 4)
    assert not isinstance(got, Rejection) and got[0].strength == 40 and got[1] == (10, 5)
    vg = replace(de("18", 20), OTHER, 5, (10, 15), 4)
    assert not isinstance(vg, Rejection) and vg[0].strength == 25 and vg[1] == (5, 15)
    bat = Profile("PZ", True, 20, 10, division="116PZ", battalion=True, full=40)
    for bad, case in (
        (replace(de("60", 30), R60, 10, (10, 15), 3), "BA-6.5a"),
        (replace(de("eng", 5), ENG, 5, (10, 15), 4), "BA-6.5b"),
        (replace(de("b", 5), bat, 5, (10, 15), 4), "BA-6.5b"),
        (replace(de("60", 30, supply="unsupplied"), R60, 5, (10, 15), 4), "BA-6.5b"),
        (replace(de("60", 30), R60, 16, (10, 15), 4), "BA-6.5c"),
        (replace(de("18", 20), OTHER, 6, (10, 15), 4), "BA-6.5a"),  # 26 > 25
    ):
        assert isinstance(bad, Rejection) and bad.case == case


# -- bridges (6.7, G23) ---------------------------------------------------------------------

SITE = hexside("0505", "0605")
SITES = frozenset({SITE})


@pytest.mark.rule("BA-6.7a", "BA-6.7d", "BA-13.5n")
def test_blowing_a_bridge_chances_costs_and_one_attempt() -> None:
    eng = Unit("eng", "german", "0505", 10, op=20)
    inf = Unit("us", "american", "0605", 45, op=9)
    ok = blow(eng, ENG, SITE, SITES, SITES, frozenset(), 50)
    assert isinstance(ok, BridgeResult) and not ok.standing and ok.unit.op == 5
    assert isinstance(r := blow(eng, ENG, SITE, SITES, SITES, frozenset(), 51), BridgeResult)
    assert r.standing
    assert isinstance(r := blow(inf, US_INF, SITE, SITES, SITES, frozenset(), 35), BridgeResult)
    assert not r.standing and r.unit.op == 4  # non-mobile: 5 points
    assert isinstance(r := blow(inf, US_INF, SITE, SITES, SITES, frozenset(), 36), BridgeResult)
    assert r.standing
    for bad, case in (
        (blow(eng, ENG, SITE, SITES, SITES, frozenset({"eng"}), 1), "BA-6.7d"),
        (
            blow(msgspec.structs.replace(eng, op=14), ENG, SITE, SITES, SITES, frozenset(), 1),
            "BA-6.7a",
        ),
        (
            blow(msgspec.structs.replace(eng, hex="0705"), ENG, SITE, SITES, SITES, frozenset(), 1),
            "BA-6.7a",
        ),
        (blow(eng, ENG, SITE, SITES, frozenset(), frozenset(), 1), "BA-6.7a"),
    ):
        assert isinstance(bad, Rejection) and bad.case == case


@pytest.mark.rule("BA-6.7b", "BA-6.7c", "BA-6.7e", "BA-13.5m")
def test_building_a_bridge() -> None:
    eng = Unit("eng", "german", "0505", 10, op=20)
    vg = Unit("vg", "german", "0505", 25, op=12)
    inf = Unit("us", "american", "0605", 45, op=9)
    ok = build(eng, ENG, SITE, SITES, frozenset(), [eng])
    assert isinstance(ok, BridgeResult) and ok.standing and ok.unit.op == 0
    us_ok = build(inf, US_INF, SITE, SITES, frozenset(), [inf])
    assert isinstance(us_ok, BridgeResult) and us_ok.standing
    enemy = Unit("x", "american", "0405", 20)
    for bad, case in (
        (build(vg, OTHER, SITE, SITES, frozenset(), [vg]), "BA-6.7b"),
        (build(eng, ENG, SITE, SITES, frozenset(), [eng, enemy]), "BA-6.7e"),
        (
            build(
                msgspec.structs.replace(eng, supply="isolated"), ENG, SITE, SITES, frozenset(), []
            ),
            "BA-6.7c",
        ),
        (
            build(msgspec.structs.replace(eng, mode="travel"), ENG, SITE, SITES, frozenset(), []),
            "BA-6.7c",
        ),
        (build(msgspec.structs.replace(eng, op=0), ENG, SITE, SITES, frozenset(), []), "BA-13.5m"),
        (build(eng, ENG, SITE, SITES, SITES, [eng]), "BA-6.7a"),
    ):
        assert isinstance(bad, Rejection) and bad.case == case
    blown = blow(
        Unit("b", "german", "0505", 10, op=20, supply="unsupplied"),
        ENG,
        SITE,
        SITES,
        SITES,
        frozenset(),
        1,
    )
    assert isinstance(blown, Rejection) and blown.case == "BA-6.7c"
