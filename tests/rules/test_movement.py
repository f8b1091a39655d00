"""Movement (AO-5) and the movement half of the Terrain Effects Chart (AO-11).

Most maps here are one hex row (``0101 0201 0301 ...``), so a path is a walk east and every
expected cost can be added up by hand from the chart.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, EndPhase, Move
from rules.ao.engine import Applied, apply
from rules.ao.movement import legal_moves, movement_allowance, trace_path
from rules.ao.roadmode import road_rate
from rules.ao.state import Board, GameState, UnitState
from rules.rejection import Rejection
from tests.kit.engine import (
    board,
    costs,
    ended,
    line_map,
    make_map,
    moved,
    outcome,
    position,
    rm,
    road,
    unit,
)

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


# == found by the rule audit: terrain, allowances, phases (AO-5, 11, 12.6, 4.1) ===================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
# Found by these tests, since fixed: an out-and-back path offered to the start hex (AO-5.1E).


def solo(b: Board, uid: str, hex_id: str, **kw: object) -> int | str:
    """:func:`outcome` of ``uid`` alone on the map, from ``hex_id`` along ``kw['path']``."""
    path = str(kw.pop("path"))
    side = b.defs[uid].side
    s = position({uid: UnitState(id=uid, hex=hex_id, **kw)}, side=side)  # type: ignore[arg-type]
    return outcome(b, s, uid, path)


@pytest.mark.audit
@pytest.mark.rule("AO-5.1D")
@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-11.e")
def test_west_wall_rough_through_non_road_hexside_six_allied_armor_four_german() -> None:
    b = board(
        line_map(". w"),
        [
            unit("am6", "allied", mech=True, ma=6),
            unit("am5", "allied", mech=True, ma=5),
            unit("af", "allied", ma=4),
            unit("af3", "allied", ma=3),
            unit("gm", mech=True, ma=4),
            unit("gm3", mech=True, ma=3),
            unit("gf", ma=2),
        ],
    )
    # rough 4 + West Wall 2 = 6 for Allied armor: exactly its MA; one short is refused
    assert solo(b, "am6", "0101", path="0201") == 6
    assert solo(b, "am5", "0101", path="0201") == "AO-5.2J"
    # Allied infantry: rough 2 + West Wall 2
    assert solo(b, "af", "0101", path="0201") == 4
    assert solo(b, "af3", "0101", path="0201") == "AO-5.2J"
    # German: no West Wall cost, rough only
    assert solo(b, "gm", "0101", path="0201") == 4
    assert solo(b, "gm3", "0101", path="0201") == "AO-5.2J"
    assert solo(b, "gf", "0101", path="0201") == 2


@pytest.mark.audit
@pytest.mark.rule("AO-11.j")
@pytest.mark.rule("AO-5.1D")
def test_road_hexside_into_west_wall_rough_costs_one_for_everyone() -> None:
    # documented reading (rules notes AO-11.j): the road negates both rough and the West Wall
    b = board(
        line_map(". w .", roads=["0101-0201"]),
        [unit("am", "allied", mech=True, ma=1), unit("af", "allied", ma=1), unit("gm", mech=True)],
    )
    assert solo(b, "am", "0101", path="0201") == 1
    assert solo(b, "af", "0101", path="0201") == 1
    # leaving the road (0201 -> 0301, no road hexside) into clear: 1
    assert solo(b, "gm", "0101", path="0201 0301") == 2


@pytest.mark.audit
@pytest.mark.rule("AO-11.c")
@pytest.mark.rule("AO-5.1D")
def test_river_cumulative_with_rough_and_west_wall() -> None:
    b = board(
        line_map(". w . .", rivers=["0101/0201", "0301/0401"]),
        [
            unit("am", "allied", mech=True, ma=12),
            unit("gm", mech=True, ma=10),
            unit("gm9", mech=True, ma=9),
            unit("gf", ma=5),
            unit("af", "allied", ma=7),
        ],
    )
    # Allied armor: rough 4 + West Wall 2 + river 6 = 12, exactly its MA
    assert solo(b, "am", "0101", path="0201") == 12
    # Allied infantry: 2 + 2 + 3 = 7
    assert solo(b, "af", "0101", path="0201") == 7
    # German armor 4 + 6 = 10; a 9-MA unit cannot
    assert solo(b, "gm", "0101", path="0201") == 10
    assert solo(b, "gm9", "0101", path="0201") == "AO-5.2J"
    # German infantry 2 + 3 = 5
    assert solo(b, "gf", "0101", path="0201") == 5
    # clear across a river: 1 + 6 / 1 + 3
    assert solo(b, "gm", "0301", path="0401") == 7
    assert solo(b, "gf", "0301", path="0401") == 4


@pytest.mark.audit
@pytest.mark.rule("AO-11.b")
def test_ford_exact_and_short_and_on_a_road() -> None:
    b = board(
        line_map(". . . .", fords=["0101/0201", "0301/0401"], roads=["0301-0401"]),
        [unit("m4", mech=True, ma=4), unit("m3", mech=True, ma=3), unit("f2", ma=2)],
    )
    assert solo(b, "m4", "0101", path="0201") == 4
    assert solo(b, "m3", "0101", path="0201") == "AO-5.2J"
    assert solo(b, "f2", "0101", path="0201") == 2
    # a road crossing a ford still pays the ford (rules notes AO-11.j): 1 + 3
    assert solo(b, "m4", "0301", path="0401") == 4


@pytest.mark.audit
@pytest.mark.rule("AO-11.d")
@pytest.mark.rule("AO-13.2B")
def test_bridge_no_river_cost_but_closed_when_interdicted() -> None:
    m = line_map(". r r", bridges=["0101/0201", "0201/0301"], roads=["0101-0201"])
    b = board(m, [unit("gm", mech=True, ma=5), unit("am", "allied", mech=True, ma=5)])
    s = position({"gm": "0101"})
    # road + bridge into rough: 1; bridge without road into rough: 4 (no river cost)
    assert outcome(b, s, "gm", "0201") == 1
    assert outcome(b, s, "gm", "0201 0301") == 5
    # interdicted for the German player: no movement across it in normal mode either
    s = position({"gm": "0101"}, interdicted_german=["0101/0201"])
    assert outcome(b, s, "gm", "0201") == "AO-13.2B"
    assert costs(b, s, "gm") == {}
    # interdiction is per side: open for the Allies
    sa = position({"am": "0101"}, side="allied", interdicted_german=["0101/0201"])
    assert outcome(b, sa, "am", "0201") == 1


@pytest.mark.audit
@pytest.mark.rule("AO-11.f")
def test_town_costs_its_other_terrain_including_west_wall() -> None:
    m = make_map(". w . r", towns={"Prum": "0201", "Clervaux": "0401"})
    b = board(m, [unit("am", "allied", mech=True, ma=12), unit("gf", ma=8)])
    assert outcome(b, position({"am": "0101"}, side="allied"), "am", "0201") == 6
    assert outcome(b, position({"gf": "0101"}), "gf", "0201 0301 0401") == 2 + 1 + 2


@pytest.mark.audit
@pytest.mark.rule("AO-11.g")
def test_impassable_never_even_along_a_road() -> None:
    m = road(3, ". x .")
    b = board(m, [unit("g", ma=20), unit("a", "allied", ma=20)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "0201") == "AO-11.g"
    assert costs(b, s, "g", road_mode=False) == {}
    # nor in Road Mode
    s = position({"g": rm("g", "0101")})
    assert outcome(b, s, "g", "0201") == "AO-11.g"


@pytest.mark.audit
@pytest.mark.rule("AO-11.k")
@pytest.mark.rule("AO-5.3L")
@pytest.mark.rule("AO-5.3M")
def test_allied_map_edge_never_entered_by_movement_even_by_road() -> None:
    m = road(3, ". . e")
    b = board(m, [unit("g", ma=20), unit("a", "allied", ma=20), unit("r", "allied", ma=20)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "0201 0301") == "AO-5.3L"
    assert costs(b, s, "g", road_mode=False) == {"0201": 1}
    sa = position({"a": "0201"}, side="allied")
    assert outcome(b, sa, "a", "0301") == "AO-5.3M"
    assert costs(b, sa, "a", road_mode=False) == {"0101": 1}
    sa = position({"r": rm("r", "0201")}, side="allied")
    assert outcome(b, sa, "r", "0301") == "AO-5.3M"
    assert "0301" not in costs(b, sa, "r")


@pytest.mark.audit
@pytest.mark.rule("AO-5.1C")
@pytest.mark.rule("AO-5.2J")
def test_allowance_never_exceeded_exact_arrivals_allowed() -> None:
    b = board(line_map(". r . r ."), [unit("m", mech=True, ma=5)])
    s = position({"m": "0101"})
    assert outcome(b, s, "m", "0201 0301") == 5
    assert outcome(b, s, "m", "0201 0301 0401") == "AO-5.2J"
    c = costs(b, s, "m")
    assert c == {"0201": 4, "0301": 5}
    assert max(c.values()) == movement_allowance(b.defs["m"], s.unit("m"))


@pytest.mark.audit
@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-5.1C")
def test_unsupplied_and_isolated_allowance_halved_fractions_dropped() -> None:
    b = board(
        line_map(". r . . . ."),
        [unit("m9", mech=True, ma=9), unit("m7", mech=True, ma=7), unit("f5", ma=5)],
    )
    # 9 // 2 = 4, 7 // 2 = 3, 5 // 2 = 2
    s = position(
        {
            "m9": UnitState(id="m9", hex="0101", supply="unsupplied"),
            "f5": UnitState(id="f5", hex="0301", supply="unsupplied"),
        }
    )
    assert outcome(b, s, "m9", "0201") == 4
    assert outcome(b, s, "f5", "0401 0501") == 2
    assert outcome(b, s, "f5", "0401 0501 0601") == "AO-5.2J"
    s = position({"m7": UnitState(id="m7", hex="0101", supply="isolated")})
    assert outcome(b, s, "m7", "0201") == "AO-5.2J"
    assert movement_allowance(b.defs["m7"], s.unit("m7")) == 3


@pytest.mark.audit
@pytest.mark.rule("AO-4.1b")
@pytest.mark.rule("AO-5.1A")
def test_units_move_only_in_movement_phases_of_their_own_side() -> None:
    b = board(line_map(". . ."), [unit("g"), unit("a", "allied")])
    s = position({"g": "0101", "a": "0301"}, phase="reinforcement")
    seen = []
    for _ in range(5):
        seen.append(s.phase)
        moving = s.phase in ("initial_movement", "mechanized_movement")
        r = outcome(b, s, "g", "0201")
        assert (r == 1) is (moving and s.phase == "initial_movement"), s.phase
        if not moving:
            assert r == "AO-4.1b"
        assert outcome(b, s, "a", "0201") in ("AO-4.1b", "AO-5.1A")
        s = ended(b, s)
    assert seen == [
        "reinforcement",
        "supply_judgment",
        "initial_movement",
        "combat",
        "mechanized_movement",
    ]
    assert s.side == "allied" and s.phase == "reinforcement"


@pytest.mark.audit
@pytest.mark.rule("AO-5.1E")
@pytest.mark.rule("AO-5.2K")
def test_once_per_phase_and_mech_units_again_in_the_mechanized_phase() -> None:
    b = board(road(6), [unit("m", mech=True, ma=10), unit("f", ma=8)])
    s = position({"m": "0101", "f": "0601"})
    t = moved(b, s, "m", "0201")
    assert outcome(b, t, "m", "0301") == "AO-5.1E"
    # a mode change alone is a move too
    t = moved(b, t, "f", ENTER_ROAD_MODE)
    assert outcome(b, t, "f", "0501") == "AO-5.1E"
    t = ended(b, t, 2)
    assert t.phase == "mechanized_movement"
    # full allowance again; non-mech may not move at all
    # 0501 is next to the Road Mode unit f on the road (AO-6.5G); 0201 offers a mode change
    assert costs(b, t, "m") == {"0101": 1, "0201": 6, "0301": 1, "0401": 2}
    assert outcome(b, t, "f", "0501") == "AO-5.2K"


@pytest.mark.audit
@pytest.mark.rule("AO-5.3M")
def test_dormant_units_do_not_move_and_reactivate_only_next_to_a_live_allied_unit() -> None:
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("d", "allied"), unit("e2", "allied"), unit("n", "allied"), unit("g")])
    dormant = UnitState(id="d", hex="0102", status="dormant")
    s = position({"d": dormant, "e2": "0103"}, side="allied")
    assert outcome(b, s, "d", "0202") == "AO-5.3M"
    # another unit on an edge hex (0103) next to it does not reactivate it
    t = ended(b, position({"d": dormant, "e2": "0103"}, side="allied", phase="supply_judgment"))
    assert t.phase == "initial_movement" and t.unit("d").status == "dormant"
    # a live Allied unit next to it (0202) does
    t = ended(b, position({"d": dormant, "n": "0202"}, side="allied", phase="supply_judgment"))
    assert t.unit("d").status == "on_map"
    assert outcome(b, t, "d", "0203") == 1


@pytest.mark.audit
@pytest.mark.rule("AO-5.3M")
def test_dormant_units_reactivate_at_the_allied_movement_phase_next_to_a_live_unit() -> None:
    m = line_map("e . . . .")
    b = board(m, [unit("a", "allied"), unit("f", "allied"), unit("g")])
    dormant = UnitState(id="a", hex="0101", status="dormant")
    s = position({"a": dormant, "f": "0201", "g": "0501"}, side="allied", phase="supply_judgment")
    assert ended(b, s).unit("a").status == "on_map"
    s2 = position({"a": dormant, "f": "0301", "g": "0501"}, side="allied", phase="supply_judgment")
    assert ended(b, s2).unit("a").status == "dormant"


# == found by the rule audit: legal_moves against an exhaustive search of trace_path ==============


def _brute(b: Board, s: GameState, uid: str) -> dict[tuple[str, bool], int]:
    """Cheapest accepted cost of every (end hex, mode), by trying every path with the engine's
    own ``trace_path`` as the only judge (label-correcting search on (hex, mode, credit))."""
    d = b.defs[uid]
    rate = road_rate(d)
    us = s.unit(uid)
    assert us.hex is not None
    best: dict[tuple[str, bool, int], int] = {(us.hex, us.road_mode, 0): 0}
    reach: dict[tuple[str, bool], int] = {}
    todo: list[tuple[tuple[str, ...], str, bool, int, int]] = [((), us.hex, us.road_mode, 0, 0)]
    while todo:
        path, h, _mode, credit, _cost = todo.pop()
        for step in (*b.game_map.neighbours(h), ENTER_ROAD_MODE, LEAVE_ROAD_MODE):
            p = (*path, step)
            r = trace_path(b, s, uid, p)
            if isinstance(r, Rejection):
                continue
            if step in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE) or not r.road_mode:
                nc = 0
            else:
                nc = credit - 1 if credit > 0 else rate - 1
            key = (r.end, r.road_mode, nc)
            if key in best and best[key] <= r.cost:
                continue
            best[key] = r.cost
            rk = (r.end, r.road_mode)
            reach[rk] = min(reach.get(rk, r.cost), r.cost)
            todo.append((p, r.end, r.road_mode, nc, r.cost))
    return reach


def _agree(b: Board, s: GameState, uid: str) -> None:
    brute = _brute(b, s, uid)
    for mode in (None, True, False):
        want: dict[str, int] = {}
        for (h, md), c in brute.items():
            if mode is None or md == mode:
                want[h] = min(want.get(h, c), c)
        got = legal_moves(b, s, uid, mode)
        assert {h: r.cost for h, r in got.items()} == want, (uid, mode)
        for h, reach in got.items():
            r = apply(b, s, Move(unit=uid, path=reach.path))
            assert isinstance(r, Applied), (uid, h, reach, r)
            u = r.state.unit(uid)
            assert (u.hex, u.road_mode) == (h, reach.road_mode)
            assert u.mp_spent - s.unit(uid).mp_spent == reach.cost


TRICKY = make_map(
    "\n".join([". r w . . .", ". . r . W .", ". . . r . ."]),
    roads=["0101-0201-0301-0401-0501-0601", "0401-0402-0403", "0102-0202"],
    bridges=["0401/0501"],
    fords=["0102/0202"],
    rivers=["0202/0302", "0302/0303"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-6.5H1")
@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-8.1A")
def test_legal_moves_and_apply_agree_with_an_exhaustive_search_german() -> None:
    b = board(
        TRICKY,
        [
            unit("m", mech=True, ma=12),
            unit("f", ma=4),
            unit("g", ma=10),
            unit("a", "allied"),
        ],
    )
    # m leaves a stack in the Allied zone (a on 0502 controls 0401, 0501, 0602, 0503, 0403 ...)
    s = position({"m": "0402", "f": "0402", "g": "0101", "a": "0502"})
    _agree(b, s, "m")
    _agree(b, s, "g")
    # with a forced exit already paid, and unsupplied
    s2 = position(
        {"m": UnitState(id="m", hex="0101", mp_spent=3, supply="unsupplied"), "a": "0603"}
    )
    _agree(b, s2, "m")


@pytest.mark.audit
@pytest.mark.rule("AO-6.5H2")
def test_legal_moves_and_apply_agree_with_an_exhaustive_search_allied() -> None:
    b = board(TRICKY, [unit("r", "allied", ma=4), unit("am", "allied", mech=True, ma=12)])
    s = position({"r": rm("r", "0301"), "am": "0102"}, side="allied")
    _agree(b, s, "r")
    _agree(b, s, "am")


@pytest.mark.audit
@pytest.mark.rule("AO-6.5H2")
def test_start_hex_offered_only_for_a_mode_change() -> None:
    b = board(road(4), [unit("a", "allied", ma=4)])
    s = position({"a": rm("a", "0201")}, side="allied")
    moves = legal_moves(b, s, "a")
    assert "0201" not in moves or moves["0201"].path in (
        (LEAVE_ROAD_MODE,),
        (ENTER_ROAD_MODE,),
    )


@pytest.mark.audit
@pytest.mark.rule("AO-5.1A")
def test_legal_moves_for_a_side_is_the_per_unit_answer_for_phasing_units_only() -> None:
    from rules.ao.movement import legal_moves_for_side

    b = board(
        TRICKY,
        [unit("m", mech=True, ma=10), unit("g", ma=4), unit("a", "allied", ma=4)],
    )
    s = position({"m": "0101", "g": "0103", "a": "0603"})
    side = legal_moves_for_side(b, s)
    assert set(side) == {"m", "g"}
    for uid in ("m", "g"):
        assert side[uid] == legal_moves(b, s, uid)
    assert legal_moves(b, s, "a") == {}
