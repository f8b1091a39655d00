"""Operation points, modes, fortification, plotting and exits (7.4, 7.7-7.10, 13.5), by hand."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.breakthrough.operations import (
    Exited,
    change_mode,
    exit_map,
    first_allowance,
    fortify,
    fortify_cost,
    may_move,
    plot_attack,
    second_allowance,
)
from rules.breakthrough.profile import Profile
from rules.breakthrough.resolve import Plot
from rules.breakthrough.units import Supply, Unit
from rules.rejection import Rejection

PZ = Profile("PZ", True, 24, 10, division="116PZ")
PIPER = Profile("PZ", True, 32, 10, division="1SS")
VG = Profile("VG", False, 12, 6, division="18")
ENG = Profile("ENG", True, 20, 10)
INF = Profile("INF", False, 9, 9, division="99")
ARM = Profile("ARM", True, 15, 20, division="7A")
CAV = Profile("CAV", True, 20, 20, division="14C")


def de(supply: Supply = "supplied", **kw: object) -> Unit:
    return Unit("de", "german", "0505", 50, supply=supply, **kw)  # type: ignore[arg-type]


def us(supply: Supply = "supplied", **kw: object) -> Unit:
    return Unit("us", "american", "0505", 45, supply=supply, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("BA-7.4a", "BA-7.4b", "BA-7.4c", "BA-7.4d", "BA-7.4g", "BA-7.4h")
def test_first_allowance_by_class_mode_supply_and_interdiction() -> None:
    assert first_allowance(de(), PZ, 3, False) == 24
    assert first_allowance(de(), PIPER, 3, False) == 32
    assert first_allowance(de(), VG, 3, False) == 12
    assert first_allowance(us(), ARM, 3, False) == 15
    assert first_allowance(us(), CAV, 3, False) == 20
    assert first_allowance(us(), INF, 3, False) == 9
    assert first_allowance(us(mode="travel"), INF, 3, False) == 18  # 7.4g
    assert first_allowance(us(mode="travel"), ARM, 3, False) == 15  # mobile: not doubled
    assert first_allowance(de("unsupplied"), VG, 3, False) == 6
    assert first_allowance(us("unsupplied"), INF, 3, False) == 4  # 9 / 2 rounded down
    assert first_allowance(de("isolated"), PZ, 3, False) == 0
    assert first_allowance(de(), PZ, 3, False, interdiction=5) == 19
    assert first_allowance(de("unsupplied"), VG, 3, False, interdiction=9) == 0


@pytest.mark.rule("BA-7.4e", "BA-7.4f", "BA-7.4i")
def test_second_allowance_carry_over_cap_and_no_second_allowance_on_16_december() -> None:
    assert second_allowance(de(), PZ, 3, unused_first=9) == 10 + 4
    assert second_allowance(de(), PZ, 3, unused_first=30) == 20  # 10 + 15, capped
    assert second_allowance(us(), ARM, 3, unused_first=10) == 24  # 20 + 5, capped at 24
    assert second_allowance(us(), CAV, 3, unused_first=6) == 23
    assert second_allowance(de(), VG, 3, unused_first=12) == 12  # 6 + 6
    assert second_allowance(de(), VG, 3, unused_first=14) == 12  # 6 + 7, capped
    assert second_allowance(us(mode="travel"), INF, 3, unused_first=8) == 24  # 13 -> 12, x2
    assert second_allowance(de(), VG, 1, unused_first=12) == 6  # carry-over only (C20)
    assert second_allowance(de(), PZ, 1, unused_first=0) == 0
    assert second_allowance(de("unsupplied"), PZ, 3, unused_first=9) == 7
    assert second_allowance(de("isolated"), PZ, 3, unused_first=9) == 0


@pytest.mark.rule("BA-2.4b", "BA-2.4d", "BA-2.4e")
def test_first_and_second_turn_allowances_g10() -> None:
    assert first_allowance(us(), INF, 1, True) == 0
    assert first_allowance(us(), ARM, 1, False) == 7  # half of 15
    assert first_allowance(us(), CAV, 1, True) == 10
    assert first_allowance(de(), VG, 1, next_to_enemy=True) == 12
    assert first_allowance(de(), VG, 1, next_to_enemy=False) == 0
    assert first_allowance(de(), PZ, 1, next_to_enemy=True) == 12
    assert first_allowance(us(), INF, 2, True) == 4
    assert first_allowance(us(), ARM, 2, True) == 15
    assert first_allowance(de(), VG, 2, False) == 12


@pytest.mark.rule("BA-2.4c")
def test_no_german_movement_in_the_first_phase_of_16_december() -> None:
    refused = may_move(de(), 1, 1)
    assert isinstance(refused, Rejection) and refused.case == "BA-2.4c"
    assert may_move(de(), 1, 2) is None
    assert may_move(us(), 1, 1) is None
    assert may_move(de(), 2, 1) is None
    target = Unit("t", "american", "0605", 30)
    assert not isinstance(plot_attack(de(op=12), "0605", [target], 1), Rejection)


@pytest.mark.rule("BA-7.7a", "BA-7.7b", "BA-13.5l", "BA-4.3f", "BA-6.6f")
def test_mode_changes_cost_and_limits() -> None:
    t = change_mode(de(op=20), PZ)
    assert isinstance(t, Unit) and (t.mode, t.op) == ("travel", 13)
    back = change_mode(t, PZ)
    assert isinstance(back, Unit) and (back.mode, back.op) == ("normal", 6)
    assert change_mode(de(op=12), VG) == de(op=9, mode="travel")
    a = change_mode(us(op=15), ARM)
    assert isinstance(a, Unit) and a.op == 5
    foot = change_mode(us(op=9), INF)  # pays 6, then 3 left doubled
    assert isinstance(foot, Unit) and (foot.mode, foot.op) == ("travel", 6)
    leave = change_mode(us(op=12, mode="travel"), INF)
    assert isinstance(leave, Unit) and leave.op == 0  # twelve to leave travel mode
    short = change_mode(us(op=11, mode="travel"), INF)
    assert isinstance(short, Rejection) and short.case == "BA-7.7a"
    for supply in ("unsupplied", "isolated"):
        no = change_mode(de(supply, op=20), PZ)
        assert isinstance(no, Rejection) and no.case == "BA-7.7a"
    out = change_mode(de("unsupplied", op=20, mode="travel"), PZ)  # back to normal is allowed
    assert isinstance(out, Unit) and out.mode == "normal"
    div = change_mode(de(op=20, divisional=True, stack=2), PZ)
    assert isinstance(div, Rejection) and div.case == "BA-6.6f"


@pytest.mark.rule("BA-7.8a", "BA-7.8b", "BA-13.5q", "BA-13.5r", "BA-4.3e")
def test_fortify_costs_with_engineers_and_enemies() -> None:
    p = {"de": PZ, "vg": VG, "eng": ENG}
    pz = de(op=24)
    enemy = Unit("us", "american", "0605", 30)
    eng = Unit("eng", "german", "0505", 10)
    assert fortify_cost(pz, [pz], p) == 10
    assert fortify_cost(pz, [pz, eng], p) == 5
    assert fortify_cost(pz, [pz, enemy], p) == 20
    assert fortify_cost(pz, [pz, enemy, eng], p) == 10
    vg = Unit("vg", "german", "0505", 25, op=12)
    assert fortify_cost(vg, [vg], p) == 6
    assert fortify_cost(vg, [vg, eng], p) == 3
    assert fortify_cost(vg, [vg, enemy], p) == 12
    assert fortify_cost(vg, [vg, enemy, eng], p) == 6
    eng_travel = msgspec.structs.replace(eng, mode="travel")
    assert fortify_cost(vg, [vg, eng_travel], p) == 6  # in normal mode only
    me = Unit("eng", "german", "0505", 10, op=20)
    assert fortify_cost(me, [me], p) == 5  # an engineer fortifying itself
    up = fortify(pz, [pz], p)
    assert isinstance(up, Unit) and (up.fort, up.op) == (1, 14)
    top = fortify(de(op=24, fort=5), [pz], p)
    assert isinstance(top, Rejection) and top.case == "BA-7.8a"
    poor = fortify(de(op=9), [pz], p)
    assert isinstance(poor, Rejection) and poor.case == "BA-7.8a"
    cut = fortify(de("unsupplied", op=24), [pz], p)
    assert isinstance(cut, Rejection) and cut.case == "BA-4.3e"


@pytest.mark.rule("BA-7.9a", "BA-7.9b", "BA-7.9c", "BA-13.5p", "BA-4.3k")
def test_plotting_an_attack() -> None:
    target = Unit("t", "american", "0605", 30)
    got = plot_attack(de(op=8), "0605", [target], 1)
    assert not isinstance(got, Rejection)
    unit, plot = got
    assert unit.op == 2 and plot == Plot("de", "0605")
    second = plot_attack(de(op=17), "0605", [target], 2)
    assert not isinstance(second, Rejection) and second[0].op == 0
    for bad, case in (
        (plot_attack(de(op=5), "0605", [target], 1), "BA-7.9b"),
        (plot_attack(de("isolated", op=20), "0605", [target], 1), "BA-4.3k"),
        (plot_attack(de(op=20), "0705", [target], 1), "BA-7.9b"),
        (plot_attack(de(op=20), "0604", [target], 1), "BA-7.9b"),
        (plot_attack(de(op=20), "0605", [target], 1, [Plot("de", "0604")]), "BA-7.9c"),
    ):
        assert isinstance(bad, Rejection) and bad.case == case


@pytest.mark.rule("BA-7.10a")
def test_exits_from_exit_hexes_only_and_only_germans() -> None:
    exits = frozenset({"0505"})
    assert exit_map(de(), exits, 6) == Exited("de", "0505", 50, 6)
    far = exit_map(msgspec.structs.replace(de(), hex="0605"), exits, 6)
    assert isinstance(far, Rejection) and far.case == "BA-7.10a"
    ami = exit_map(us(), exits, 6)
    assert isinstance(ami, Rejection) and ami.case == "BA-7.10a"


@given(
    st.integers(0, 40),
    st.sampled_from([PZ, PIPER, VG, ENG, INF, ARM, CAV]),
    st.sampled_from(["supplied", "unsupplied", "isolated"]),
    st.sampled_from(["normal", "travel"]),
    st.integers(2, 12),
)
def test_second_phase_points_within_the_maxima(
    unused: int, profile: Profile, supply: Supply, mode: str, turn: int
) -> None:
    """7.4f: never above 24 / 20 / 12, except an American foot unit in travel mode (7.4g)."""
    side = "american" if profile.type in {"INF", "ARM", "CAV"} else "german"
    u = Unit("u", side, "0505", 30, supply=supply, mode=mode)  # type: ignore[arg-type]
    got = second_allowance(u, profile, turn, unused)
    cap = 12 if not profile.mobile else 24 if side == "american" else 20
    if side == "american" and not profile.mobile and mode == "travel":
        cap *= 2
    assert 0 <= got <= cap
    assert got >= min(profile.second, cap) // (2 if supply == "unsupplied" else 1) or (
        supply == "isolated"
    )
