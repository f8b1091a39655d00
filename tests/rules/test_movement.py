"""Movement (AO-5) and the movement half of the Terrain Effects Chart (AO-11).

Most maps here are one hex row (``0101 0201 0301 ...``), so a path is a walk east and every
expected cost can be added up by hand from the chart.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.commands import EndPhase, Move
from rules.engine import Applied, apply
from rules.movement import legal_moves, movement_allowance
from rules.rejection import Rejection
from rules.state import UnitState
from tests.enginekit import board, costs, ended, line_map, make_map, moved, outcome, position, unit

# -- Terrain Effects Chart ---------------------------------------------------------------------


@pytest.mark.rule("AO-11.a")
def test_clear_costs_one() -> None:
    b = board(line_map(". . . . ."), [unit("g", ma=3), unit("m", mech=True, ma=3)])
    s = position({"g": "0101", "m": "0501"})
    assert costs(b, s, "g") == {"0201": 1, "0301": 2, "0401": 3}
    assert outcome(b, s, "m", "0401 0301 0201") == 3


@pytest.mark.rule("AO-11.e")
@pytest.mark.rule("AO-5.1B")
def test_rough_costs_four_mech_two_foot() -> None:
    b = board(line_map(". r . ."), [unit("g", ma=8), unit("m", mech=True, ma=8)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "0201") == 2
    assert outcome(b, s, "g", "0201 0301") == 3
    s = position({"m": "0101"})
    assert outcome(b, s, "m", "0201") == 4
    assert outcome(b, s, "m", "0201 0301 0401") == 6


@pytest.mark.rule("AO-11.b")
def test_ford_adds_three_mech_one_foot() -> None:
    b = board(
        line_map(". . r", fords=["0101/0201", "0201/0301"]),
        [unit("g"), unit("m", mech=True, ma=12)],
    )
    assert outcome(b, position({"g": "0101"}), "g", "0201") == 1 + 1
    assert outcome(b, position({"m": "0101"}), "m", "0201") == 1 + 3
    # cumulative with rough on the far side (AO-5.1D): 4 + 3
    assert outcome(b, position({"m": "0101"}), "m", "0201 0301") == 4 + 7


@pytest.mark.rule("AO-11.c")
def test_river_adds_six_mech_three_foot() -> None:
    b = board(line_map(". . .", rivers=["0101/0201"]), [unit("g"), unit("m", mech=True, ma=12)])
    assert outcome(b, position({"g": "0101"}), "g", "0201") == 1 + 3
    assert outcome(b, position({"m": "0101"}), "m", "0201") == 1 + 6
    # A road along an unbridged river hexside still pays the river (our reading, rules notes).
    b = board(
        line_map(". r .", rivers=["0101/0201"], roads=["0101-0201"]),
        [unit("m", mech=True, ma=12)],
    )
    assert outcome(b, position({"m": "0101"}), "m", "0201") == 1 + 6


@pytest.mark.rule("AO-11.d")
def test_bridge_cancels_the_river_cost() -> None:
    b = board(line_map(". . r", bridges=["0101/0201", "0201/0301"]), [unit("m", mech=True, ma=12)])
    assert outcome(b, position({"m": "0101"}), "m", "0201") == 1
    # no river cost, but a bridge without a road does not negate rough terrain
    assert outcome(b, position({"m": "0101"}), "m", "0201 0301") == 1 + 4


@pytest.mark.rule("AO-11.f")
def test_town_costs_the_other_terrain_in_the_hex() -> None:
    m = make_map(". r .", towns={"Clervaux": "0201", "Wiltz": "0301"})
    b = board(m, [unit("m", mech=True, ma=12), unit("g")])
    assert outcome(b, position({"m": "0101"}), "m", "0201") == 4
    assert outcome(b, position({"m": "0101"}), "m", "0201 0301") == 5
    assert outcome(b, position({"g": "0101"}), "g", "0201") == 2


@pytest.mark.rule("AO-11.g")
def test_impassable_hexes_are_never_entered() -> None:
    b = board(line_map(". x ."), [unit("g", ma=20)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "0201") == "AO-11.g"
    assert costs(b, s, "g") == {}


@pytest.mark.rule("AO-11.h")
def test_west_wall_costs_allied_two_more_german_nothing() -> None:
    b = board(line_map(". W w"), [unit("g", ma=12), unit("a", "allied", ma=12)])
    assert outcome(b, position({"g": "0101"}), "g", "0201 0301") == 1 + 2
    s = position({"a": "0101"}, side="allied")
    assert outcome(b, s, "a", "0201") == 1 + 2
    assert outcome(b, s, "a", "0201 0301") == 3 + 2 + 2


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-6.5F")
def test_west_wall_is_closed_to_road_mode() -> None:
    m = line_map(". . W .", roads=["0101-0201-0301-0401"])
    b = board(m, [unit("g", ma=2), unit("a", "allied", ma=12)])
    s = position({"g": UnitState(id="g", hex="0101", road_mode=True)})
    assert outcome(b, s, "g", "0201") == 1
    assert outcome(b, s, "g", "0201 0301") == "AO-11.h"
    assert costs(b, s, "g") == {"0201": 1}  # too few MP to leave Road Mode (3)
    # In normal mode the road negates the West Wall cost for the Allies too (AO-11.j, AO-5.1D).
    sa = position({"a": "0101"}, side="allied")
    assert outcome(b, sa, "a", "0201 0301") == 2


@pytest.mark.rule("AO-11.i")
def test_fortified_terrain_costs_nothing_extra() -> None:
    b = board(line_map(". F F"), [unit("a", "allied", mech=True, ma=12), unit("g")])
    assert outcome(b, position({"a": "0101"}, side="allied"), "a", "0201 0301") == 2
    assert outcome(b, position({"g": "0101"}), "g", "0201 0301") == 2


@pytest.mark.rule("AO-11.j")
def test_road_costs_one_whatever_the_terrain_in_either_mode() -> None:
    m = line_map(". r w r .", roads=["0101-0201-0301"])
    b = board(m, [unit("a", "allied", mech=True, ma=12), unit("g", mech=True, ma=12)])
    sa = position({"a": "0101"}, side="allied")
    # along the road: 1 + 1 (rough and West Wall negated); off it: rough 4
    assert outcome(b, sa, "a", "0201 0301") == 2
    assert outcome(b, sa, "a", "0201 0301 0401") == 2 + 4
    # road mode on the same road: 2 road hexes for 1 MP (AO-6.5H1)
    s = position({"g": UnitState(id="g", hex="0101", road_mode=True)})
    assert outcome(b, s, "g", "0201") == 1


@pytest.mark.rule("AO-11.k")
@pytest.mark.rule("AO-5.3L")
def test_allied_map_edge_hexes_are_never_entered_by_movement() -> None:
    b = board(line_map("e . ."), [unit("g", ma=12), unit("a", "allied", ma=12)])
    assert outcome(b, position({"g": "0201"}), "g", "0101") == "AO-5.3L"
    sa = position({"a": "0201"}, side="allied")
    assert outcome(b, sa, "a", "0101") == "AO-5.3M"
    assert "0101" not in costs(b, sa, "a")


# -- AO-5 ------------------------------------------------------------------------------------


@pytest.mark.rule("AO-5.1A")
def test_only_phasing_units_move_and_moving_is_voluntary() -> None:
    b = board(line_map(". . . . ."), [unit("g"), unit("a", "allied")])
    s = position({"g": "0101", "a": "0501"})
    r = apply(b, s, Move(unit="a", path=("0401",)))
    assert isinstance(r, Rejection) and r.case == "AO-5.1A"
    assert "only the phasing player's units move" in r.message
    assert legal_moves(b, s, "a") == {}
    # nobody has to move: the phase simply ends
    assert isinstance(apply(b, s, EndPhase()), Applied)
    # and no movement outside the movement phases
    r = apply(b, position({"g": "0101"}, phase="combat"), Move(unit="g", path=("0201",)))
    assert isinstance(r, Rejection) and r.case == "AO-4.1b"


@pytest.mark.rule("AO-5.1C")
def test_movement_allowance_is_never_exceeded_nor_carried_over() -> None:
    b = board(line_map(". . . . . . ."), [unit("m", mech=True, ma=4)])
    s = position({"m": "0101"})
    assert max(costs(b, s, "m").values()) == 4
    assert outcome(b, s, "m", "0201 0301 0401 0501 0601") == "AO-5.2J"
    s = moved(b, s, "m", "0201")  # spends 1 of 4
    s = ended(b, s, 2)  # combat, then the mechanized phase: a fresh allowance of 4, not 7
    assert s.phase == "mechanized_movement"
    assert max(costs(b, s, "m").values()) == 4


@pytest.mark.rule("AO-5.1C")
def test_unsupplied_halves_the_allowance_fractions_dropped() -> None:
    d = unit("g", ma=7)
    assert movement_allowance(d, UnitState(id="g", supply="unsupplied")) == 3
    assert movement_allowance(d, UnitState(id="g", supply="isolated")) == 3
    b = board(line_map(". . . . . ."), [d])
    s = position({"g": UnitState(id="g", hex="0101", supply="unsupplied")})
    assert max(costs(b, s, "g").values()) == 3


@pytest.mark.rule("AO-5.1D")
def test_terrain_costs_are_cumulative_west_wall_rough_example() -> None:
    # "an Allied armor unit ... West Wall hex through a non-road hexside ... rough: 6"
    m = line_map(". w w", roads=["0201-0301"])
    b = board(m, [unit("a", "allied", mech=True, ma=12), unit("g", mech=True, ma=12)])
    sa = position({"a": "0101"}, side="allied")
    assert outcome(b, sa, "a", "0201") == 6
    assert outcome(b, sa, "a", "0201 0301") == 7  # then along the road: 1
    assert outcome(b, position({"g": "0101"}), "g", "0201") == 4  # German: no West Wall cost


@pytest.mark.rule("AO-5.1E")
def test_each_unit_moves_once_per_phase_hex_by_hex() -> None:
    b = board(line_map(". . . . ."), [unit("g"), unit("h")])
    s = position({"g": "0101", "h": "0101"})
    s = moved(b, s, "g", "0201")
    r = apply(b, s, Move(unit="g", path=("0301",)))
    assert isinstance(r, Rejection) and r.case == "AO-5.1E"
    assert "already moved" in r.message
    assert legal_moves(b, s, "g") == {}
    # the other unit of the former stack did not move with it
    assert s.unit("h").hex == "0101" and not s.unit("h").moved
    # paths go hex by hex
    assert outcome(b, s, "h", "0301") == "AO-5.1E"
    assert outcome(b, s, "h", []) == "AO-5.1E"
    assert outcome(b, s, "h", "zz") == "AO-5.1E"


@pytest.mark.rule("AO-5.2F")
def test_never_enter_an_enemy_occupied_hex() -> None:
    b = board(make_map(". . .\n. . ."), [unit("g", ma=12), unit("a", "allied")])
    s = position({"g": "0101", "a": "0201"})
    assert outcome(b, s, "g", "0201") == "AO-5.2F"
    assert "0201" not in costs(b, s, "g")


@pytest.mark.rule("AO-5.2H")
@pytest.mark.rule("AO-8.1A")
def test_entering_and_leaving_friendly_units_costs_the_stacking_cost() -> None:
    b = board(
        line_map(". . . . . . ."),
        [unit("g", ma=8), unit("f"), unit("m", mech=True, ma=20), unit("n", mech=True)],
    )
    s = position({"g": "0101", "f": "0301", "m": "0501", "n": "0601"})
    assert outcome(b, s, "g", "0201 0301") == 1 + 1 + 2
    # moving through: enter +2, leave +2 (non-mech)
    assert outcome(b, s, "g", "0201 0301 0401") == 1 + 3 + 3
    # mechanized: +6 in, +6 out
    assert outcome(b, s, "m", "0601") == 1 + 6
    assert outcome(b, s, "m", "0601 0701") == 7 + 1 + 6


@pytest.mark.rule("AO-5.2H")
def test_moving_through_friends_is_in_effect_prohibited_for_a_four_ma_unit() -> None:
    b = board(line_map(". . ."), [unit("g", ma=4), unit("f")])
    s = position({"g": "0101", "f": "0201"})
    assert outcome(b, s, "g", "0201 0301") == "AO-5.2J"  # 3 + 3 > 4


@pytest.mark.rule("AO-5.2J")
def test_a_unit_without_the_mp_may_not_enter() -> None:
    b = board(line_map(". . . r"), [unit("g", ma=3)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "0201 0301") == 2
    r = apply(b, s, Move(unit="g", path=("0201", "0301", "0401")))
    assert isinstance(r, Rejection) and r.case == "AO-5.2J"
    assert "needs 2 MP to enter 0401 and has 1 of 3 left" in r.message
    assert "0401" not in costs(b, s, "g")


@pytest.mark.rule("AO-5.2K")
def test_mechanized_phase_only_mech_units_not_in_the_preceding_combat() -> None:
    b = board(line_map(". . . . ."), [unit("m", mech=True), unit("c", mech=True), unit("f")])
    s = position(
        {"m": "0101", "c": UnitState(id="c", hex="0301", in_combat=True), "f": "0501"},
        phase="mechanized_movement",
    )
    assert outcome(b, s, "m", "0201") == 1
    assert outcome(b, s, "c", "0201") == "AO-5.2K"
    assert outcome(b, s, "f", "0401") == "AO-5.2K"
    assert legal_moves(b, s, "c") == {} and legal_moves(b, s, "f") == {}


@pytest.mark.rule("AO-5.2K")
def test_in_combat_flags_clear_when_the_player_turn_ends() -> None:
    b = board(line_map(". . . . ."), [unit("c", mech=True), unit("a", "allied")])
    s = position(
        {"c": UnitState(id="c", hex="0101", in_combat=True), "a": "0501"},
        phase="mechanized_movement",
    )
    s = ended(b, s)
    assert s.side == "allied" and not s.unit("c").in_combat


@pytest.mark.rule("AO-5.3M")
def test_dormant_units_do_not_move_and_reactivate_next_to_an_allied_unit() -> None:
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("d", "allied"), unit("k", "allied"), unit("a", "allied"), unit("g")])
    # d dormant on 0101 (edge); k dormant on 0103; a in play on 0201 next to d only; g German
    s = position(
        {
            "d": UnitState(id="d", hex="0101", status="dormant"),
            "k": UnitState(id="k", hex="0103", status="dormant"),
            "a": "0201",
            "g": "0403",
        },
        side="allied",
    )
    r = apply(b, s, Move(unit="d", path=("0201",)))
    assert isinstance(r, Rejection) and r.case == "AO-5.3M"
    # dormant units have no ZOC: the German moves next to k without stopping
    sg = position(
        {"k": UnitState(id="k", hex="0103", status="dormant"), "g": "0403"}, side="german"
    )
    assert outcome(b, sg, "g", "0303 0203 0202") == 3
    # start of the Allied Initial Movement Phase: d (next to a) re-enters, k stays dormant
    s2 = ended(b, msgspec.structs.replace(s, phase="supply_judgment"))
    assert s2.phase == "initial_movement"
    assert s2.unit("d").status == "on_map" and s2.unit("k").status == "dormant"
    # re-activated, d moves off the edge normally
    assert outcome(b, s2, "d", "0201") == 1 + 2  # stacking with a; no destacking off the edge
