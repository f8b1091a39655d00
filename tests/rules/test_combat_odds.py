"""Combat strengths, odds and exchange losses (``rules.odds``), worked out by hand.

Test map (one row): 0101 clear, 0201 West Wall, 0301 second fortified terrain, 0401 and 0501
clear. A unit's hex, supply and Road Mode come from its ``UnitState``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import sequence
from rules.crt import ODDS_COLUMNS
from rules.odds import (
    Combatant,
    attack_strength,
    attack_strength_in,
    check_ex_losses,
    defence_strength,
    defence_strength_in,
    ex_loss_options,
    face_total,
    halve_up,
    odds_column,
    reduce_odds,
)
from rules.rejection import Rejection
from rules.state import Supply, UnitState
from rules.units import Side, UnitDef
from tests.enginekit import board, make_map, position, unit

MAP = make_map(". W F . .")
CLEAR, WW, FORT, CLEAR2, CLEAR3 = "0101", "0201", "0301", "0401", "0501"


def c(
    uid: str,
    strength: int,
    hex_id: str = CLEAR,
    *,
    side: Side = "german",
    supply: Supply = "supplied",
    road_mode: bool = False,
) -> Combatant:
    return (
        unit(uid, side, strength=strength),
        UnitState(id=uid, hex=hex_id, supply=supply, road_mode=road_mode),
    )


def att(units: Sequence[Combatant], turn: int = 2) -> int:
    return attack_strength(units, MAP, turn=turn)


def dfn(
    units: Sequence[Combatant],
    turn: int = 2,
    supply: dict[str, Supply] | None = None,
    retreated: Sequence[str] = (),
) -> int:
    sup: dict[str, Supply] = {d.id: "supplied" for d, _ in units}
    sup.update(supply or {})
    return defence_strength(units, MAP, turn=turn, supply=sup, retreated=retreated)


# -- halving and supply -------------------------------------------------------------------------


@pytest.mark.rule("AO-9.3J")
def test_halving_rounds_up() -> None:
    assert [halve_up(n) for n in (0, 1, 2, 8, 9)] == [0, 1, 1, 4, 5]
    with pytest.raises(ValueError):
        halve_up(-1)


@pytest.mark.rule("AO-9.3J")
def test_supply_is_applied_before_terrain() -> None:
    # Unsupplied 9 attacking out of the West Wall: halved to 5, then doubled = 10
    # (terrain first would give 18 halved = 9).
    assert att([c("g", 9, WW, supply="unsupplied")]) == 10
    # Isolated 7 defending the West Wall: halved to 4, then tripled = 12 (not 21 halved = 11).
    assert dfn([c("g", 7, WW)], supply={"g": "isolated"}) == 12


@pytest.mark.rule("AO-12.6")
def test_supply_effects_chart() -> None:
    assert att([c("g", 7)]) == 7
    assert att([c("g", 7, supply="unsupplied")]) == 4
    assert att([c("g", 7, supply="isolated")]) == 0
    assert dfn([c("a", 7, side="allied")], supply={"a": "unsupplied"}) == 7
    assert dfn([c("a", 7, side="allied")], supply={"a": "isolated"}) == 4


@pytest.mark.rule("AO-12.6")
def test_isolated_attackers_add_nothing_and_zero_attack_is_impossible() -> None:
    assert att([c("g", 7, CLEAR, supply="isolated"), c("h", 3, CLEAR2)]) == 3
    r = odds_column(0, 5)
    assert isinstance(r, Rejection) and r.case == "AO-12.6"


@pytest.mark.rule("AO-12.6")
def test_defence_supply_is_judged_at_the_moment_of_combat_not_from_the_marker() -> None:
    # The marker on the unit says isolated; the caller's judgment at the moment of combat wins.
    g = (unit("g", strength=6), UnitState(id="g", hex=CLEAR, supply="isolated"))
    assert defence_strength([g], MAP, turn=2, supply={"g": "supplied"}) == 6
    with pytest.raises(ValueError, match="moment of combat"):
        defence_strength([g], MAP, turn=2, supply={})


@pytest.mark.rule("AO-9.5M")
def test_stacks_are_halved_as_a_total() -> None:
    # Two unsupplied 3s: 6 halved = 3, not 2 + 2.
    assert att([c("g", 3, supply="unsupplied"), c("h", 3, supply="unsupplied")]) == 3
    # Three isolated 5s in defence: 15 halved = 8, not 3 + 3 + 3.
    units = [c("a", 5, side="allied"), c("b", 5, side="allied"), c("d", 5, side="allied")]
    assert dfn(units, supply=dict.fromkeys(("a", "b", "d"), "isolated")) == 8
    # Different hexes are different stacks: 3 -> 2 and 3 -> 2.
    assert att([c("g", 3, CLEAR, supply="unsupplied"), c("h", 3, CLEAR2, supply="unsupplied")]) == 4


# -- Road Mode ----------------------------------------------------------------------------------


@pytest.mark.rule("AO-6.6K")
def test_road_mode_halves_fractions_up() -> None:
    assert att([c("g", 9, road_mode=True)]) == 5
    assert dfn([c("a", 7, side="allied", road_mode=True)]) == 4
    # With an unsupplied attacker: 9 -> 5 -> 3 (ceil(9/4), whichever halving comes first).
    assert att([c("g", 9, road_mode=True, supply="unsupplied")]) == 3
    # A Road Mode unit next to a normal one in another hex: 9 -> 5, plus 4.
    assert att([c("g", 9, CLEAR, road_mode=True), c("h", 4, CLEAR2)]) == 9


# -- terrain ------------------------------------------------------------------------------------


@pytest.mark.rule("AO-11.h")
def test_west_wall_triples_german_defence_doubles_german_attack_out_of_it() -> None:
    assert dfn([c("g", 4, WW)]) == 12
    assert dfn([c("g", 4, WW), c("h", 2, WW)]) == 18
    assert att([c("g", 4, WW)]) == 8
    # Only the units attacking out of the West Wall hex are doubled.
    assert att([c("g", 4, WW), c("h", 4, CLEAR)]) == 12


@pytest.mark.rule("AO-11.h")
def test_west_wall_gives_allied_units_nothing() -> None:
    assert dfn([c("a", 4, WW, side="allied")]) == 4
    assert att([c("a", 4, WW, side="allied")]) == 4


@pytest.mark.rule("AO-11.i")
def test_fortified_terrain_doubles_german_defence_only() -> None:
    assert dfn([c("g", 4, FORT)]) == 8
    assert att([c("g", 4, FORT)]) == 4
    assert dfn([c("a", 4, FORT, side="allied")]) == 4
    # Supply first: isolated 5 -> 3, doubled = 6 (not 10 halved = 5).
    assert dfn([c("g", 5, FORT)], supply={"g": "isolated"}) == 6


# -- Game-Turn 1 --------------------------------------------------------------------------------


@pytest.mark.rule("AO-4.2d")
def test_game_turn_one_german_attack_tripled_never_more() -> None:
    assert att([c("g", 4)], turn=1) == 12
    # Out of the West Wall on GT1: tripled, not doubled and tripled (24).
    assert att([c("g", 4, WW)], turn=1) == 12
    assert att([c("g", 4, WW), c("h", 5, CLEAR)], turn=1) == 27
    assert att([c("a", 4, side="allied")], turn=1) == 4
    assert att([c("g", 4)], turn=2) == 4
    s = position({}, turn=1, side="german", phase="combat")
    assert sequence.german_attack_multiplier(s) == 3  # the engine's view agrees


@pytest.mark.rule("AO-4.2e")
def test_game_turn_one_german_defence_tripled_never_more() -> None:
    assert dfn([c("g", 4)], turn=1) == 12
    # West Wall (x3) and fortified (x2) do not multiply with the GT1 tripling.
    assert dfn([c("g", 4, WW)], turn=1) == 12
    assert dfn([c("g", 4, FORT)], turn=1) == 12
    # Supply first: isolated 5 -> 3, tripled = 9.
    assert dfn([c("g", 5)], turn=1, supply={"g": "isolated"}) == 9
    assert dfn([c("a", 4, side="allied")], turn=1) == 4
    s = position({}, turn=1, side="allied", phase="combat")
    assert sequence.german_defence_multiplier(s) == 3


# -- units retreated into a stack -----------------------------------------------------------------


@pytest.mark.rule("AO-9.2F*")
def test_unit_retreated_into_a_stack_adds_no_defence() -> None:
    units = [c("a", 4, side="allied"), c("b", 3, side="allied")]
    assert dfn(units) == 7
    assert dfn(units, retreated=["b"]) == 4
    g = [c("g", 4, WW), c("h", 6, WW)]
    assert dfn(g, retreated=["h"]) == 12
    # ...but it still counts for the printed strength an Ex takes from the attacker.
    assert face_total(d for d, _ in units) == 7


# -- odds ---------------------------------------------------------------------------------------


@pytest.mark.rule("AO-9.3K")
def test_odds_rounded_in_the_defenders_favour() -> None:
    assert odds_column(26, 9) == "2-1"
    assert odds_column(27, 9) == "3-1"
    assert odds_column(9, 9) == "1-1"
    assert odds_column(17, 9) == "1-1"
    # Between 1-2 and 1-1: rounded down to 1-2 (5-9 is worse than 1-1).
    assert odds_column(5, 9) == "1-2"
    assert odds_column(8, 9) == "1-2"
    assert odds_column(89, 10) == "8-1"
    assert odds_column(90, 10) == "9-1"


@pytest.mark.rule("AO-9.4L")
def test_attacker_may_only_lower_the_odds() -> None:
    assert reduce_odds("5-1", "3-1", "allied") == "3-1"
    assert reduce_odds("5-1", "5-1", "allied") == "5-1"
    assert reduce_odds("5-1", "1-2", "allied") == "1-2"
    r = reduce_odds("3-1", "5-1", "allied")
    assert isinstance(r, Rejection) and r.case == "AO-9.4L"
    r = reduce_odds("3-1", "4-1", "german")
    assert isinstance(r, Rejection) and r.case == "AO-9.4L"


@pytest.mark.rule("AO-9.4L*")
def test_german_never_reduces_below_two_to_one() -> None:
    assert reduce_odds("5-1", "3-1", "german") == "3-1"
    assert reduce_odds("5-1", "2-1", "german") == "2-1"
    for wanted in ("1-1", "1-2"):
        r = reduce_odds("5-1", wanted, "german")
        assert isinstance(r, Rejection) and r.case == "AO-9.4L*"
    # Real odds already below 2-1: he may attack at them, not reduce further.
    assert reduce_odds("1-1", "1-1", "german") == "1-1"
    assert reduce_odds("1-2", "1-2", "german") == "1-2"
    r = reduce_odds("1-1", "1-2", "german")
    assert isinstance(r, Rejection) and r.case == "AO-9.4L*"


# -- exchange losses ----------------------------------------------------------------------------


def u(uid: str, strength: int) -> UnitDef:
    return unit(uid, strength=strength)


ATTACKERS = [u("a6", 6), u("b4", 4), u("c3", 3), u("d2", 2)]


@pytest.mark.rule("AO-10.1b")
def test_ex_options_are_the_minimal_sets_reaching_the_printed_strength() -> None:
    # Defenders printed 7: {b4,c3}=7, {a6,d2}=8, {a6,c3}=9, {a6,b4}=10; {b4,c3,d2} is not
    # minimal ({b4,c3} suffices), {b4,d2}=6 and {a6} fall short.
    assert ex_loss_options(ATTACKERS, 7) == [
        ("b4", "c3"),
        ("a6", "d2"),
        ("a6", "c3"),
        ("a6", "b4"),
    ]
    assert ex_loss_options(ATTACKERS, 2) == [("d2",), ("c3",), ("b4",), ("a6",)]
    # All together fall short: all of them go.
    assert ex_loss_options([u("x", 2), u("y", 2)], 7) == [("x", "y")]


@pytest.mark.rule("AO-10.1b")
def test_ex_uses_face_values_not_modified_strengths() -> None:
    # A German 4 in the West Wall defends at 12, but an Ex costs the attacker only 4.
    g = c("g", 4, WW)
    assert dfn([g]) == 12
    need = face_total([g[0]])
    assert need == 4
    assert ex_loss_options([u("a", 3), u("b", 1), u("d", 9)], need) == [("a", "b"), ("d",)]


@pytest.mark.rule("AO-10.1b")
def test_check_ex_losses() -> None:
    assert check_ex_losses(["b4", "c3"], ATTACKERS, 7) is None
    assert check_ex_losses(["b4", "c3", "d2"], ATTACKERS, 7) is None  # "at least"
    for bad in (["b4", "d2"], ["a6"], ["b4", "b4", "c3"], ["b4", "c3", "zz"], []):
        r = check_ex_losses(bad, ATTACKERS, 7)
        assert isinstance(r, Rejection) and r.case == "AO-10.1b", bad
    short = [u("x", 2), u("y", 2)]
    assert check_ex_losses(["x", "y"], short, 7) is None
    r = check_ex_losses(["x"], short, 7)
    assert isinstance(r, Rejection)


# -- engine-facing wrappers -----------------------------------------------------------------------


def test_wrappers_read_board_and_state() -> None:
    b = board(MAP, [unit("g", strength=4), unit("h", strength=5), unit("a", "allied", strength=6)])
    s = position(
        {
            "g": UnitState(id="g", hex=WW),
            "h": UnitState(id="h", hex=WW, supply="unsupplied"),
            "a": CLEAR2,
        },
        turn=3,
        side="allied",
        phase="combat",
    )
    assert attack_strength_in(b, s, ["a"]) == 6
    # Defence: the "unsupplied" marker is irrelevant; judged supplied now: (4 + 5) x 3.
    assert defence_strength_in(b, s, [WW], supply={"g": "supplied", "h": "supplied"}) == 27
    assert defence_strength_in(b, s, [WW], supply={"g": "isolated", "h": "isolated"}) == 15


def test_mixed_sides_and_off_map_units_are_refused() -> None:
    with pytest.raises(ValueError):
        att([c("g", 4), c("a", 4, side="allied")])
    with pytest.raises(ValueError):
        att([(unit("g"), UnitState(id="g", status="not_arrived"))])


# -- properties ---------------------------------------------------------------------------------

strengths = st.integers(min_value=0, max_value=30)
supplies = st.sampled_from(["supplied", "unsupplied", "isolated"])


@st.composite
def combatants(draw: st.DrawFn, side: Side | None = None) -> list[Combatant]:
    n = draw(st.integers(min_value=1, max_value=6))
    s: Side = side or draw(st.sampled_from(["german", "allied"]))
    out = []
    for i in range(n):
        out.append(
            c(
                f"u{i}",
                draw(strengths),
                draw(st.sampled_from([CLEAR, WW, FORT, CLEAR2])),
                side=s,
                supply=draw(supplies),
                road_mode=draw(st.booleans()),
            )
        )
    return out


@given(st.integers(min_value=1, max_value=300), st.integers(min_value=0, max_value=300))
def test_odds_never_exceed_the_true_ratio(attack: int, defence: int) -> None:
    col = odds_column(attack, defence)
    assert isinstance(col, str) and col in ODDS_COLUMNS
    a, d = (int(x) for x in col.split("-"))
    if col == "1-2":
        assert attack < defence
    else:
        assert a * defence <= d * attack  # never above the true ratio
        if col != "9-1":
            assert attack < (a + 1) * defence  # and the best column below it


@given(combatants(), st.integers(min_value=0, max_value=5), st.integers(min_value=1, max_value=3))
def test_strengths_are_monotone(units: list[Combatant], i: int, turn: int) -> None:
    i %= len(units)
    d, s = units[i]
    stronger = [*units[:i], (unit(d.id, d.side, strength=d.strength + 1), s), *units[i + 1 :]]
    sup = {x.id: x_state.supply for x, x_state in units}
    assert att(stronger, turn) >= att(units, turn)
    assert dfn(stronger, turn, sup) >= dfn(units, turn, sup)
    fewer = units[:i] + units[i + 1 :]
    if fewer:
        assert att(fewer, turn) <= att(units, turn)
        assert dfn(fewer, turn, sup) <= dfn(units, turn, sup)
        assert dfn(units, turn, sup, retreated=[d.id]) == dfn(fewer, turn, sup)


OPEN = make_map(". . . . . .")


@given(st.lists(strengths, min_size=1, max_size=6))
def test_halving_a_stack_total_is_at_most_the_sum_of_halves(values: list[int]) -> None:
    assert halve_up(sum(values)) <= sum(halve_up(v) for v in values)
    stacked = [c(f"u{i}", v, CLEAR, supply="unsupplied") for i, v in enumerate(values)]
    spread = [c(f"u{i}", v, f"0{i + 1}01", supply="unsupplied") for i, v in enumerate(values)]
    assert attack_strength(stacked, OPEN, turn=2) == halve_up(sum(values))
    assert attack_strength(stacked, OPEN, turn=2) <= attack_strength(spread, OPEN, turn=2)
    iso = dict.fromkeys((f"u{i}" for i in range(len(values))), "isolated")
    together = defence_strength(stacked, OPEN, turn=2, supply=iso)  # type: ignore[arg-type]
    apart = defence_strength(spread, OPEN, turn=2, supply=iso)  # type: ignore[arg-type]
    assert together <= apart


@given(
    st.sampled_from(ODDS_COLUMNS),
    st.sampled_from(ODDS_COLUMNS),
    st.sampled_from(["german", "allied"]),
)
def test_reduced_odds_never_above_real_and_german_floor(real: str, wanted: str, side: Side) -> None:
    r = reduce_odds(real, wanted, side)
    if isinstance(r, Rejection):
        return
    assert ODDS_COLUMNS.index(r) <= ODDS_COLUMNS.index(real)
    if side == "german" and r != real:
        assert ODDS_COLUMNS.index(r) >= ODDS_COLUMNS.index("2-1")


@given(st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=8), st.integers(0, 40))
def test_ex_options_are_minimal_and_accepted(values: list[int], need: int) -> None:
    attackers = [u(f"u{i}", v) for i, v in enumerate(values)]
    by_id = {d.id: d.strength for d in attackers}
    options = ex_loss_options(attackers, need)
    assert options and len(set(options)) == len(options)
    for opt in options:
        assert check_ex_losses(opt, attackers, need) is None
        total = sum(by_id[x] for x in opt)
        if sum(values) >= need:
            assert total >= need
            assert all(total - by_id[x] < need for x in opt)
        else:
            assert set(opt) == set(by_id)
