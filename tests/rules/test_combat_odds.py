"""Combat strengths, odds and exchange losses (``rules.ao.odds``), worked out by hand.

Test map (one row): 0101 clear, 0201 West Wall, 0301 second fortified terrain, 0401 and 0501
clear. A unit's hex, supply and Road Mode come from its ``UnitState``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ao import sequence
from rules.ao.combat import preview_attack
from rules.ao.crt import ODDS_COLUMNS
from rules.ao.engine import Applied, apply
from rules.ao.odds import (
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
from rules.ao.state import Supply, UnitState
from rules.ao.units import Side, UnitDef
from rules.rejection import Rejection
from tests.kit.engine import (
    LINE8,
    attack,
    board,
    cpos,
    declared,
    ended,
    fight,
    line_map,
    make_map,
    ok,
    position,
    refused,
    resolved,
    unit,
)

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
@pytest.mark.rule("AO-9.3J")
def test_game_turn_one_german_defence_tripled_times_the_terrain() -> None:
    assert dfn([c("g", 4)], turn=1) == 12
    # West Wall x3 and the GT1 tripling are cumulative (AO-9.3J): 4 x 3 x 3 = 36.
    assert dfn([c("g", 4, WW)], turn=1) == 36
    # Fortified x2 and the GT1 tripling: 4 x 2 x 3 = 24.
    assert dfn([c("g", 4, FORT)], turn=1) == 24
    # Supply first: isolated 5 -> 3, tripled = 9; in the West Wall 3 x 9 = 27; fortified 18.
    assert dfn([c("g", 5)], turn=1, supply={"g": "isolated"}) == 9
    assert dfn([c("g", 5, WW)], turn=1, supply={"g": "isolated"}) == 27
    assert dfn([c("g", 5, FORT)], turn=1, supply={"g": "isolated"}) == 18
    # A stack of 3 + 4 isolated in the West Wall: 7 halved as a total = 4, x9 = 36 (AO-9.5M).
    both: dict[str, Supply] = {"g": "isolated", "h": "isolated"}
    assert dfn([c("g", 3, WW), c("h", 4, WW)], turn=1, supply=both) == 36
    # Two hexes on GT1: 4 x 9 + 5 x 3 = 51.
    assert dfn([c("g", 4, WW), c("h", 5, CLEAR)], turn=1) == 51
    # From Game-Turn 2 on the terrain alone: x3, x2.
    assert dfn([c("g", 4, WW)], turn=2) == 12
    assert dfn([c("g", 4, FORT)], turn=2) == 8
    assert dfn([c("a", 4, WW, side="allied")], turn=1) == 4
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
supplies: st.SearchStrategy[Supply] = st.sampled_from(["supplied", "unsupplied", "isolated"])


@st.composite
def combatants(draw: st.DrawFn, side: Side | None = None) -> list[Combatant]:
    n = draw(st.integers(min_value=1, max_value=6))
    s: Side = side if side is not None else draw(st.sampled_from(["german", "allied"]))
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


# == found by the rule audit: odds, strengths, voluntary reduction (AO-9.3-9.5, 11, 12.6) =========
# Adversarial cases on small synthetic maps with scripted dice, every outcome worked out by hand
# from the rule text (AO-4.2, AO-6.6-6.7, AO-7.3, AO-9 to AO-13 and the errata). Maps carry no
# supply sources unless they have an ``E`` hex with a road, so a defender is unsupplied at the
# moment of combat (defence normal) unless all six of its neighbours are on the map and
# enemy-held or enemy-controlled and no supplied friend is within three hexes, when it is
# isolated (defence halved, AO-12.3H; a hex of a one-row map is never surrounded). ``LINE8`` is
# the eight-hex line ``0101``-``0801``.
#
# German Initial CRT rows (1-2 1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1 9-1):
#     1  Ar1 Dr1 Dr2 Dr3 Ex  Ex  De  De  De  De
#     2  Ar1 Dr1 Dr1 Dr2 Ex  Ex  Ex  De  De  De
#     4  Ar2 Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De
#     6  Ar2 Ar2 Dr1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De
# Standard CRT rows:
#     1  Ar1 Dr1 Dr1 Dr2 Dr3 Ex  Ex  Ex  De  De
#     4  Ar3 Ar2 Ar1 Dr1 Dr2 Dr2 Dr2 Dr3 Ex  De


def odds_of(att: int, dfn: int) -> str:
    b = board(LINE8, [unit("g", strength=att), unit("a", "allied", strength=dfn)])
    p = preview_attack(b, cpos({"g": "0201", "a": "0301"}), ["g"], ["0301"])
    assert not isinstance(p, Rejection), p
    assert (p.attack, p.defence) == (att, dfn)  # a unsupplied (0401 open): defence normal
    return p.column


@pytest.mark.audit
@pytest.mark.rule("AO-9.3K")
@pytest.mark.rule("AO-10.0a")
def test_odds_round_down_for_the_defender_and_clamp_to_the_table() -> None:
    # 26-9 is 2-1 (the rule's own example); 17-9 is 1-1; 18-9 exactly 2-1
    assert odds_of(26, 9) == "2-1"
    assert odds_of(17, 9) == "1-1"
    assert odds_of(18, 9) == "2-1"
    assert odds_of(9, 9) == "1-1"
    # 8-9 lies between 1-2 and 1-1: rounded down, 1-2; 4-9 is below 1-2: treated as 1-2
    assert odds_of(8, 9) == "1-2"
    assert odds_of(4, 9) == "1-2"
    assert odds_of(1, 9) == "1-2"
    # 90-9 is 10-1, 200-9 is 22-1: treated as 9-1
    assert odds_of(89, 9) == "9-1"
    assert odds_of(90, 9) == "9-1"
    assert odds_of(200, 9) == "9-1"


@pytest.mark.audit
@pytest.mark.rule("AO-10.0a")
@pytest.mark.rule("AO-10.1c")
def test_far_below_and_far_above_the_table_read_the_end_columns() -> None:
    # 1-9 on 1-2, Initial die 6: Ar2; g goes two hexes back west
    b = board(LINE8, [unit("g", strength=1), unit("a", "allied", strength=9)])
    done = fight(b, cpos({"g": "0401", "a": "0501"}), ["g"], ["0501"], [6])
    assert (resolved(done).column, resolved(done).result) == ("1-2", "Ar2")
    assert done.state.unit("g").hex == "0201"
    # 40-1 on 9-1, Initial die 6: De
    b2 = board(LINE8, [unit("g", strength=40), unit("a", "allied", strength=1)])
    done2 = fight(b2, cpos({"g": "0201", "a": "0301"}), ["g"], ["0301"], [6])
    assert (resolved(done2).column, resolved(done2).result) == ("9-1", "De")
    assert done2.state.unit("a").status == "eliminated"


RING3 = """
. . . . .
. . W . .
. . . . .
"""
"""Five by three; 0302 (West Wall) has all six neighbours on the map: units in 0202 and 0402
hold two of them and control the other four."""


@pytest.mark.audit
@pytest.mark.rule("AO-9.3J")
@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-12.6")
def test_supply_halving_first_then_the_west_wall_tripling() -> None:
    # g (5) in the West Wall 0302, ringed by the Allied a (0402) and a2 (0202), which hold two
    # of its neighbours and control the other four: isolated (AO-12.3H).
    # Supply first: 5 -> 3, then x3 = 9 (terrain first would give 15 -> 8). 18-9 is 2-1.
    m = make_map(RING3)
    b = board(m, [unit("g", strength=5), unit("a", "allied", strength=18), unit("a2", "allied")])
    s = cpos({"g": "0302", "a": "0402", "a2": "0202"}, side="allied")
    r = ok(b, s, attack(["a"], ["0302"]))
    assert (declared(r).defence, declared(r).column) == (9, "2-1")


@pytest.mark.audit
@pytest.mark.rule("AO-9.5M")
@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-9.2F")
def test_an_isolated_defending_stack_is_halved_as_a_total() -> None:
    # a1 (3) + a2 (3) in 0302, ringed by g (0402) and h (0202): isolated (AO-12.3H).
    # The stack total 6 halved is 3 (unit by unit 2 + 2 = 4); 9-3 is 3-1 (9-4 would be 2-1)
    m = make_map(RING3.replace("W", "."))
    b = board(
        m,
        [
            unit("g", strength=9),
            unit("h"),
            unit("a1", "allied", strength=3),
            unit("a2", "allied", strength=3),
        ],
    )
    s = cpos({"g": "0402", "h": "0202", "a1": "0302", "a2": "0302"})
    r = ok(b, s, attack(["g"], ["0302"]))
    assert (declared(r).defence, declared(r).column) == (3, "3-1")


@pytest.mark.audit
@pytest.mark.rule("AO-9.5M")
@pytest.mark.rule("AO-12.6")
def test_an_unsupplied_attacking_stack_is_halved_as_a_total_mixed_states_apart() -> None:
    b = board(
        LINE8,
        [
            unit("u1", strength=3),
            unit("u2", strength=3),
            unit("u3", strength=3),
            unit("a", "allied", strength=1),
        ],
    )
    s = cpos(
        {
            "u1": UnitState(id="u1", hex="0201", supply="unsupplied"),
            "u2": UnitState(id="u2", hex="0201", supply="unsupplied"),
            "u3": UnitState(id="u3", hex="0201"),
            "a": "0301",
        }
    )
    # unsupplied u1 + u2: 6 -> 3 (not 2 + 2); supplied u3: 3; total 6
    assert declared(ok(b, s, attack(["u1", "u2", "u3"], ["0301"]))).attack == 6


AS = [unit(f"a{i}", "allied") for i in range(1, 5)]


@pytest.mark.audit
@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-9.3J")
def test_an_unsupplied_stack_is_halved_as_a_total() -> None:
    """AO-12.6: "Combat Strength for attack and defense is cut in half rounding up fractions.
    The total Combat Strength of a stack is computed and then halved." Two unsupplied 3s in
    one hex attack with 3 (not 2 + 2); from two hexes they are two stacks: 2 + 2; a supplied
    and an unsupplied 3 in one hex: 3 + 2 (the halving applies to the unsupplied total)."""
    b = board(make_map(". . . . ."), [unit("g1", strength=3), unit("g2", strength=3), *AS])

    def att(g1: str, g2: str, g1_supply: Supply = "unsupplied") -> int:
        units: dict[str, str | UnitState] = {
            "g1": UnitState(id="g1", hex=g1, supply=g1_supply),
            "g2": UnitState(id="g2", hex=g2, supply="unsupplied"),
            "a1": "0301",
        }
        p = preview_attack(b, position(units, phase="combat"), ["g1", "g2"], ["0301"])
        assert not isinstance(p, Rejection), p
        return p.attack

    assert att("0201", "0201") == 3
    assert att("0201", "0401") == 4
    assert att("0201", "0201", "supplied") == 5


@pytest.mark.audit
@pytest.mark.rule("AO-6.6K")
def test_road_mode_halves_an_attacker_rounding_up() -> None:
    m = line_map(". . . .", roads=["0101-0201-0301-0401"])
    b = board(m, [unit("g", strength=7), unit("a", "allied", strength=2)])
    s = cpos({"g": UnitState(id="g", hex="0201", road_mode=True), "a": "0301"})
    r = ok(b, s, attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (4, "2-1")  # 7 -> 4 (3.5 up)


@pytest.mark.audit
@pytest.mark.rule("AO-11.h")
def test_west_wall_rough_hex_triples_the_german_defender() -> None:
    b = board(make_map(". w . ."), [unit("g", strength=4), unit("a", "allied", strength=12)])
    r = ok(b, cpos({"a": "0101", "g": "0201"}, side="allied"), attack(["a"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (12, "1-1")


@pytest.mark.audit
@pytest.mark.rule("AO-11.i")
def test_audit_fortified_terrain_doubles_german_defence_only() -> None:
    m = make_map(". F . .")
    # a German attacking out of the fortified hex is not doubled (the chart: "on defense")
    b = board(m, [unit("g", strength=4), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (4, "1-1")
    # an Allied unit defending it gets nothing
    r2 = ok(b, cpos({"g": "0101", "a": "0201"}), attack(["g"], ["0201"]))
    assert declared(r2).defence == 4


@pytest.mark.audit
@pytest.mark.rule("AO-11.h")
def test_an_allied_attacker_in_the_west_wall_gets_no_doubling_and_no_immunity() -> None:
    # a (2) in the West Wall 0201 attacks g (4) in the open: 2-4 1-2, Standard die 4: Ar3
    b = board(make_map(". . . W . . ."), [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0401", "g": "0501"}, side="allied"), ["a"], ["0501"], [4])
    assert (resolved(done).attack, resolved(done).result) == (2, "Ar3")
    assert done.state.unit("a").hex == "0101"


@pytest.mark.audit
@pytest.mark.rule("AO-4.2d")
@pytest.mark.rule("AO-11.h")
def test_gt1_german_attacking_out_of_the_west_wall_is_never_more_than_tripled() -> None:
    b = board(make_map(". W . ."), [unit("g", strength=4), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}, turn=1), attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (12, "3-1")  # not 24 (x2 x3)


@pytest.mark.audit
@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-9.3J")
@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-11.i")
def test_gt1_german_defence_in_the_west_wall_or_fortified_terrain_multiplies() -> None:
    b = board(
        make_map(". W . F ."),
        [
            unit("g", strength=4),
            unit("g2", strength=4),
            unit("a", "allied", strength=12),
            unit("a2", "allied", strength=12),
        ],
    )
    s = cpos({"a": "0101", "g": "0201", "g2": "0401", "a2": "0501"}, turn=1, side="allied")
    # West Wall: 4 x 3 (AO-11.h) x 3 (AO-4.2e) = 36; 12 against 36 is read as 1-2
    r = declared(ok(b, s, attack(["a"], ["0201"])))
    assert (r.defence, r.column) == (36, "1-2")
    # fortified: 4 x 2 (AO-11.i) x 3 (AO-4.2e) = 24; 12 against 24 is 1-2
    r = declared(ok(b, s, attack(["a2"], ["0401"])))
    assert (r.defence, r.column) == (24, "1-2")
    # the same hexes on Game-Turn 2: 12 and 8 (12-12 1-1, 12-8 1-1)
    s2 = cpos({"a": "0101", "g": "0201", "g2": "0401", "a2": "0501"}, turn=2, side="allied")
    assert declared(ok(b, s2, attack(["a"], ["0201"]))).defence == 12
    assert declared(ok(b, s2, attack(["a2"], ["0401"]))).defence == 8


@pytest.mark.audit
@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-4.2d")
def test_gt1_every_german_is_supplied_so_none_attacks_at_zero() -> None:
    # the Supply Judgment of GT1 marks g supplied although it is ringed in (AO-4.2b): its
    # attack is 4 x 3 = 12 (isolated would be 0: no attack)
    m = make_map("x . . .")
    b = board(m, [unit("g", strength=4), unit("a", "allied", strength=4)])
    s = position({"g": "0201", "a": "0301"}, turn=1, phase="supply_judgment")
    s = ended(b, s)  # Initial Movement lost (AO-4.2c): Combat
    assert s.phase == "combat" and s.unit("g").supply == "supplied"
    r = ok(b, s, attack(["g"], ["0301"]))
    assert declared(r).attack == 12


@pytest.mark.audit
@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-4.2b")
def test_gt1_a_ringed_german_defends_supplied_and_tripled() -> None:
    # g (4) ringed by the impassable 0101 and the Allied a: on GT1 every German is supplied
    # (AO-4.2b, the whole Game-Turn), so 4 x 3 = 12, not isolated (2 x 3 = 6)
    b = board(make_map("x . . ."), [unit("g", strength=4), unit("a", "allied", strength=12)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}, turn=1, side="allied"), attack(["a"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (12, "1-1")


@pytest.mark.audit
@pytest.mark.rule("AO-9.4L")
@pytest.mark.rule("AO-9.4L*")
def test_voluntary_reduction_and_the_german_two_to_one_floor() -> None:
    b = board(LINE8, [unit("g", strength=20), unit("a", "allied", strength=4)])
    s = cpos({"g": "0201", "a": "0301"})
    assert refused(b, s, attack(["g"], ["0301"], odds="1-1")) == "AO-9.4L*"  # 5-1 to 1-1
    assert refused(b, s, attack(["g"], ["0301"], odds="6-1")) == "AO-9.4L"  # above real odds
    done = fight(b, s, ["g"], ["0301"], [1], odds="2-1")  # Initial 2-1 die 1: Dr2 (5-1: Ex)
    assert (resolved(done).column, resolved(done).result) == ("2-1", "Dr2")
    assert done.state.unit("a").hex == "0501" and done.state.unit("g").status == "on_map"
    # the German at real odds of 1-1 may attack at 1-1, never reduce to 1-2
    b2 = board(LINE8, [unit("g", strength=4), unit("a", "allied", strength=4)])
    s2 = cpos({"g": "0201", "a": "0301"})
    assert isinstance(apply(b2, s2, attack(["g"], ["0301"], odds="1-1")), Applied)
    assert refused(b2, s2, attack(["g"], ["0301"], odds="1-2")) == "AO-9.4L*"
    # the Allied player may go down to 1-2: 12-4 (3-1) on 1-2, Standard die 1: Ar1
    b3 = board(LINE8, [unit("a", "allied", strength=12), unit("g", strength=4)])
    done3 = fight(b3, cpos({"a": "0201", "g": "0301"}, side="allied"), ["a"], ["0301"], [1], "1-2")
    assert (resolved(done3).column, resolved(done3).result) == ("1-2", "Ar1")
    assert done3.state.unit("a").hex == "0101"
