"""Adversarial audit of the movement engine (AO-4 to AO-8, AO-11, AO-12.6).

Every expected outcome is worked out by hand from the rule text (seeds ``000_…txt`` with its
errata) or, where the text is ambiguous, from the reading in ``docs/rules-notes.md``. Maps are
tiny: one-row maps ``0101 0201 ...`` (each hex touches only its W and E neighbours) or small
grids. Grid geometry (``rules.hexgrid``): odd rows, neighbours of ``CCRR`` are NE (C, R-1),
E (C+1, R), SE (C, R+1), SW (C-1, R+1), W (C-1, R), NW (C-1, R-1); even rows are shifted half a
hex east: NE (C+1, R-1), SE (C+1, R+1), SW (C, R+1), NW (C, R-1).

Three tests here first failed and found engine defects (forced Road Mode exits before dormant
reactivation, AO-6.7L*; movement in the lost GT1 Initial Movement Phase, AO-4.2c; an
out-and-back path offered to the start hex, AO-5.1E); they pass since the engine was fixed.
"""

from __future__ import annotations

import pytest

from rules import stacking
from rules.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, Move
from rules.engine import Applied, apply
from rules.gamemap import GameMap
from rules.movement import legal_moves, movement_allowance, trace_path
from rules.rejection import Rejection
from rules.roadmode import road_rate
from rules.state import Board, GameState, UnitState
from rules.units import UnitDef
from rules.zoc import zone_of
from scenarios import load_oob
from tests.enginekit import board, costs, ended, line_map, make_map, moved, outcome, position, unit


def rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    """A unit in Road Mode."""
    return UnitState(id=uid, hex=hex_id, road_mode=True, **kw)  # type: ignore[arg-type]


def road(n: int, codes: str | None = None) -> GameMap:
    """A one-row map of ``n`` hexes with a road through all of them."""
    hexes = [f"{i:02d}01" for i in range(1, n + 1)]
    return line_map(codes or " ".join("." * n), roads=["-".join(hexes)])


GRID7x5 = "\n".join([". . . . . . ."] * 5)
# An Allied unit on 0503 controls 0502, 0603, 0504, 0404, 0403 and 0402.


# -- Terrain Effects Chart and AO-5.1D ------------------------------------------------------------


def solo(b: Board, uid: str, hex_id: str, **kw: object) -> int | str:
    """:func:`outcome` of ``uid`` alone on the map, from ``hex_id`` along ``kw['path']``."""
    path = str(kw.pop("path"))
    side = b.defs[uid].side
    s = position({uid: UnitState(id=uid, hex=hex_id, **kw)}, side=side)  # type: ignore[arg-type]
    return outcome(b, s, uid, path)


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


@pytest.mark.rule("AO-11.f")
def test_town_costs_its_other_terrain_including_west_wall() -> None:
    m = make_map(". w . r", towns={"Prum": "0201", "Clervaux": "0401"})
    b = board(m, [unit("am", "allied", mech=True, ma=12), unit("gf", ma=8)])
    assert outcome(b, position({"am": "0101"}, side="allied"), "am", "0201") == 6
    assert outcome(b, position({"gf": "0101"}), "gf", "0201 0301 0401") == 2 + 1 + 2


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


@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-6.3C")
def test_halved_allowance_and_road_mode_changes() -> None:
    b = board(road(4), [unit("am", "allied", mech=True, ma=12), unit("gm", mech=True, ma=10)])
    # 12 // 2 = 6: exactly the 6 MP to enter Road Mode, then nothing left
    sa = position({"am": UnitState(id="am", hex="0101", supply="unsupplied")}, side="allied")
    assert outcome(b, sa, "am", ENTER_ROAD_MODE) == 6
    assert outcome(b, sa, "am", f"{ENTER_ROAD_MODE} 0201") == "AO-5.2J"
    moves = legal_moves(b, sa, "am", road_mode=True)
    assert set(moves) == {"0101"} and moves["0101"].cost == 6
    # 10 // 2 = 5 < 6: may not enter Road Mode at all
    sg = position({"gm": UnitState(id="gm", hex="0101", supply="isolated")})
    assert outcome(b, sg, "gm", ENTER_ROAD_MODE) == "AO-6.3C"
    assert legal_moves(b, sg, "gm", road_mode=True) == {}


# -- Zones of control ---------------------------------------------------------------------------


def _zoc_board(*extra: UnitDef) -> Board:
    return board(
        make_map(GRID7x5, roads=["0103-0203-0303-0403"]),
        [
            unit("g", ma=8),
            unit("h", ma=8),
            unit("m", mech=True, ma=10),
            unit("a", "allied"),
            *extra,
        ],
    )


@pytest.mark.rule("AO-7.1A")
def test_stop_on_entering_nothing_after_not_even_a_mode_change() -> None:
    b = _zoc_board()
    s = position({"g": "0203", "a": "0503"})
    assert outcome(b, s, "g", "0303 0403") == 2
    assert outcome(b, s, "g", "0303 0403 0303") == "AO-7.1A"
    assert outcome(b, s, "g", f"0303 0403 {ENTER_ROAD_MODE}") == "AO-7.1A"
    # a Road Mode mover stops too
    s = position({"g": rm("g", "0203"), "a": "0503"})
    assert outcome(b, s, "g", "0303 0403") == 1
    assert outcome(b, s, "g", f"0303 0403 {LEAVE_ROAD_MODE}") == "AO-7.1A"


@pytest.mark.rule("AO-7.1A")
@pytest.mark.rule("AO-5.2G")
def test_alone_in_enemy_zoc_only_a_mode_change_in_place() -> None:
    b = _zoc_board()
    s = position({"g": "0403", "a": "0503"})
    for path in ("0303", "0402", "0404", "0404 0304"):
        assert outcome(b, s, "g", path) == "AO-7.1A"
    moves = legal_moves(b, s, "g")
    assert set(moves) == {"0403"} and moves["0403"].road_mode and moves["0403"].cost == 3
    # not on a road hex: nothing at all
    s = position({"g": "0404", "a": "0503"})
    assert legal_moves(b, s, "g") == {}


@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-8.1A")
def test_infiltration_from_a_stack_pays_destacking_and_stops_in_the_next_zone() -> None:
    b = _zoc_board()
    s = position({"g": "0403", "h": "0403", "a": "0503"})
    # out of the zone: 1 + 2 destacking
    assert outcome(b, s, "g", "0303") == 3
    assert outcome(b, s, "g", "0303 0203") == 4
    # directly into another controlled hex (0404): allowed, since h stays; stop there
    assert outcome(b, s, "g", "0404") == 3
    assert outcome(b, s, "g", "0404 0304") == "AO-7.1A"
    # the one left behind is alone in the zone and stuck
    t = moved(b, s, "g", "0404")
    assert outcome(b, t, "h", "0303") == "AO-7.1A"
    assert outcome(b, t, "g", "0304") == "AO-5.1E"


@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-7.2B")
def test_chain_of_movement_frees_a_unit_alone_in_a_zone() -> None:
    """The AO-7.4E example: a friend moves in, then the trapped unit moves out."""
    b = _zoc_board()
    s = position({"g": "0403", "h": "0303", "a": "0503"})
    assert outcome(b, s, "g", "0303") == "AO-7.1A"
    # h enters the friend-held controlled hex: 1 + 2 stacking; not enemy-controlled for it
    t = moved(b, s, "h", "0403")
    # g now leaves with h absorbing the zone: 1 + 2 destacking
    assert outcome(b, t, "g", "0303") == 3
    assert outcome(b, t, "g", "0303 0203") == 4
    # documented reading (rules notes AO-7.2B): h need not stop in 0403 and may go on into
    # another controlled hex, where it stops: (1 + 2) + (1 + 2)
    assert outcome(b, s, "h", "0403 0404") == 6
    assert outcome(b, s, "h", "0403 0404 0405") == "AO-7.1A"


@pytest.mark.rule("AO-6.6J")
def test_enemy_road_mode_units_control_only_their_own_hex() -> None:
    b = _zoc_board()
    s = position({"g": "0303", "a": rm("a", "0503")})
    assert zone_of(b, s.unit("a")) == ("0503",)
    # along three hexes adjacent to the Road Mode unit without stopping
    assert outcome(b, s, "g", "0403 0404 0504 0505") == 4
    assert outcome(b, s, "g", "0403 0503") == "AO-5.2F"
    # the same unit in normal mode stops g at once
    s = position({"g": "0303", "a": "0503"})
    assert outcome(b, s, "g", "0403 0404") == "AO-7.1A"


@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-5.3M")
def test_allied_units_on_edge_hexes_and_dormant_units_have_no_zoc() -> None:
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("g", ma=8), unit("a", "allied"), unit("n", "allied")])
    # 0201, 0202 and 0203 all touch the edge hex 0102
    for a in (UnitState(id="a", hex="0102"), UnitState(id="a", hex="0102", status="dormant")):
        s = position({"g": "0301", "a": a})
        assert zone_of(b, s.unit("a")) == ()
        assert outcome(b, s, "g", "0201 0202 0203") == 3
    # control: the same Allied unit on a live hex (0302) stops g on 0202
    s = position({"g": "0301", "a": "0302"})
    assert outcome(b, s, "g", "0201 0202 0203") == "AO-7.1A"


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


# -- Stacking -----------------------------------------------------------------------------------


@pytest.mark.rule("AO-8.1A")
@pytest.mark.rule("AO-5.2H")
def test_passing_through_a_friend_costs_stacking_and_destacking() -> None:
    b = board(
        line_map(". . . ."),
        [
            unit("m14", mech=True, ma=14),
            unit("m13", mech=True, ma=13),
            unit("f6", ma=6),
            unit("f5", ma=5),
            unit("x", ma=1),
        ],
    )
    for uid, ma_ok in (("m14", True), ("m13", False), ("f6", True), ("f5", False)):
        s = position({uid: "0101", "x": "0201"})
        expected = 14 if uid.startswith("m") else 6
        assert outcome(b, s, uid, "0201 0301") == (expected if ma_ok else "AO-5.2J")
        assert ("0301" in costs(b, s, uid)) is ma_ok


@pytest.mark.rule("AO-8.0")
def test_the_limit_holds_in_every_hex_of_a_path() -> None:
    b = board(
        line_map(". . . ."),
        [unit("m", mech=True, ma=40), unit("x"), unit("y"), unit("z")],
    )
    s = position({"m": "0101", "x": "0201", "y": "0201", "z": "0201"})
    assert outcome(b, s, "m", "0201") == "AO-8.0"
    assert outcome(b, s, "m", "0201 0301") == "AO-8.0"
    assert costs(b, s, "m") == {}
    s = position({"m": "0101", "x": "0201", "y": "0201"})
    assert outcome(b, s, "m", "0201 0301") == 14


@pytest.mark.rule("AO-8.2C")
def test_german_infantry_division_stacks_with_nothing_even_in_passing() -> None:
    b = board(
        line_map(". . . ."),
        [unit("vg", ma=40, size="XX"), unit("r", ma=40), unit("ab", "allied", ma=40, size="X")],
    )
    s = position({"r": "0101", "vg": "0201"})
    assert outcome(b, s, "r", "0201 0301") == "AO-8.2C"
    s = position({"vg": "0101", "r": "0201"})
    assert outcome(b, s, "vg", "0201 0301") == "AO-8.2C"
    assert costs(b, s, "vg") == {}


def _profiles() -> list[UnitDef]:
    """One real counter per distinct (side, mechanized, MA, size) of the order of battle."""
    seen: dict[tuple[str, bool, int, str], UnitDef] = {}
    for d in sorted(load_oob().values(), key=lambda d: d.id):
        seen.setdefault((d.side, d.mechanized, d.movement, d.size), d)
    return list(seen.values())


@pytest.mark.rule("AO-5.2H")
@pytest.mark.rule("AO-8.1A")
def test_no_real_unit_can_stack_and_unstack_in_one_phase() -> None:
    profiles = _profiles()
    assert {d.movement for d in profiles} >= {3, 4, 10, 12}
    m = road(6)  # roads make every step 1 MP: the cheapest case
    for d in profiles:
        f1 = unit("f1", d.side)
        f2 = unit("f2", d.side)
        b = board(m, [d, f1, f2])
        side = d.side
        # through a friend: never
        s = position({d.id: "0101", "f1": "0201"}, side=side)
        assert "0301" not in costs(b, s, d.id), d.id
        if d.is_german_infantry_division:
            continue  # it cannot stack at all (AO-8.2C)
        # out of one stack and into another: never
        s = position({d.id: "0101", "f1": "0101", "f2": "0201"}, side=side)
        assert "0201" not in costs(b, s, d.id), d.id


@pytest.mark.rule("AO-8.3F")
def test_no_stacking_limit_nor_destacking_cost_on_allied_edge_hexes() -> None:
    b = board(
        road(3, "e . ."),
        [unit(f"a{i}", "allied", ma=4) for i in range(5)],
    )
    s = position({f"a{i}": "0101" for i in range(5)}, side="allied")
    assert stacking.over_limit(b, s) == []
    assert outcome(b, s, "a0", "0201") == 1
    # the same five on a live hex break the limit
    s = position({f"a{i}": "0201" for i in range(5)}, side="allied")
    assert stacking.over_limit(b, s) == ["0201"]


# -- Road Mode ----------------------------------------------------------------------------------


@pytest.mark.rule("AO-6.3C")
def test_mode_changes_cost_three_or_six_and_need_a_road_hex() -> None:
    m = line_map(". . .", roads=["0201-0301"])
    b = board(m, [unit("f", ma=8), unit("m", mech=True, ma=13)])
    s = position({"f": "0101"})
    assert outcome(b, s, "f", ENTER_ROAD_MODE) == "AO-6.3C"
    assert outcome(b, s, "f", f"0201 {ENTER_ROAD_MODE}") == 4
    assert outcome(b, s, "f", f"0201 {ENTER_ROAD_MODE} 0301 {LEAVE_ROAD_MODE}") == 1 + 3 + 1 + 3
    s = position({"m": "0201"})
    assert outcome(b, s, "m", f"{ENTER_ROAD_MODE} 0301 {LEAVE_ROAD_MODE}") == 6 + 1 + 6
    s = position({"m": rm("m", "0301")})
    assert outcome(b, s, "m", LEAVE_ROAD_MODE) == 6
    assert outcome(b, s, "m", ENTER_ROAD_MODE) == "AO-6.3C"


@pytest.mark.rule("AO-6.2A")
@pytest.mark.rule("AO-6.2B")
@pytest.mark.rule("AO-5.2K")
def test_road_mode_in_the_mechanized_phase_only_for_mech_units_out_of_combat() -> None:
    b = board(road(6), [unit("m", mech=True, ma=10), unit("c", mech=True), unit("f")])
    s = position(
        {"m": "0101", "c": UnitState(id="c", hex="0401", in_combat=True), "f": rm("f", "0601")},
        phase="mechanized_movement",
    )
    assert outcome(b, s, "m", f"{ENTER_ROAD_MODE} 0201") == 7
    assert outcome(b, s, "c", ENTER_ROAD_MODE) == "AO-5.2K"
    assert outcome(b, s, "f", LEAVE_ROAD_MODE) == "AO-5.2K"
    assert outcome(b, s, "f", "0501") == "AO-5.2K"


@pytest.mark.rule("AO-6.5F")
def test_road_mode_only_through_road_or_intact_bridge_hexsides() -> None:
    m = make_map(
        ". . . . . .\n. . . . . .",
        roads=["0101-0201-0301-0401-0501-0601", "0101-0102"],
        fords=["0201/0301"],
        bridges=["0401/0501"],
        rivers=["0501/0601"],
    )
    b = board(m, [unit("g", ma=10)])
    s = position({"g": rm("g", "0101")})
    # non-road hexside (0101 -> 0202 is not adjacent; use 0101 -> 0102 by road, -> 0202 off it)
    assert outcome(b, s, "g", "0102") == 1
    assert outcome(b, s, "g", "0102 0202") == "AO-6.5F"
    # a road over a ford is closed to Road Mode (rules notes AO-6.5F)
    assert outcome(b, s, "g", "0201 0301") == "AO-6.5F"
    # an unbridged river under the road is closed too
    s = position({"g": rm("g", "0501")})
    assert outcome(b, s, "g", "0601") == "AO-6.5F"
    # an intact bridge is open, an interdicted one is not
    s = position({"g": rm("g", "0401")})
    assert outcome(b, s, "g", "0501") == 1
    s = position({"g": rm("g", "0401")}, interdicted_german=["0401/0501"])
    assert outcome(b, s, "g", "0501") == "AO-6.5F"


@pytest.mark.rule("AO-6.5H1")
@pytest.mark.rule("AO-6.5H2")
@pytest.mark.rule("AO-6.5H3")
def test_road_mode_rates_by_side_and_class() -> None:
    b = board(
        road(24),
        [
            unit("am", "allied", mech=True, ma=1),
            unit("af", "allied", ma=1),
            unit("gm", mech=True, ma=1),
            unit("gf", ma=1),
        ],
    )
    reach = {}
    for uid, side in (("am", "allied"), ("af", "allied"), ("gm", "german"), ("gf", "german")):
        s = position({uid: rm(uid, "0101")}, side=side)  # type: ignore[arg-type]
        reach[uid] = max(int(h[:2]) for h in costs(b, s, uid)) - 1
    # one MP buys 2 road hexes (mech, German foot) or 10 (Allied foot)
    assert reach == {"am": 2, "af": 10, "gm": 2, "gf": 2}
    assert [road_rate(b.defs[u]) for u in ("am", "af", "gm", "gf")] == [2, 10, 2, 2]


@pytest.mark.rule("AO-6.5G")
def test_road_mode_spacing_checked_in_the_middle_of_a_path() -> None:
    # 0301 (odd row) has 0302 as its SE neighbour; the spur road 0301-0302 connects them
    roads = ["0101-0201-0301-0401-0501-0601"]
    spur = make_map(". . . . . .\n. . . . . .", roads=[*roads, "0301-0302"])
    plain = make_map(". . . . . .\n. . . . . .", roads=roads)
    units = [unit("g", ma=6), unit("f")]
    s = position({"g": rm("g", "0101"), "f": "0302"})
    assert outcome(board(spur, units), s, "g", "0201 0301 0401 0501") == "AO-6.5G"
    assert "0501" not in costs(board(spur, units), s, "g", road_mode=True)
    # adjacent but not connected by road: allowed (rules notes AO-6.5G)
    assert outcome(board(plain, units), s, "g", "0201 0301 0401 0501") == 2


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-6.5F")
def test_west_wall_not_entered_in_road_mode_but_left() -> None:
    b = board(road(4, ". W . W"), [unit("g", ma=8)])
    s = position({"g": rm("g", "0101")})
    assert outcome(b, s, "g", "0201") == "AO-11.h"
    # a unit in a West Wall road hex may enter Road Mode there and drive out (rules notes)
    s = position({"g": "0201"})
    assert outcome(b, s, "g", f"{ENTER_ROAD_MODE} 0301") == 4
    assert outcome(b, s, "g", f"{ENTER_ROAD_MODE} 0301 0401") == "AO-11.h"
    # in normal mode along the road the West Wall costs nothing extra
    assert outcome(b, s, "g", "0301 0401") == 2


@pytest.mark.rule("AO-6.7L*")
@pytest.mark.rule("AO-12.6")
def test_forced_exit_with_real_units_eliminates_exactly_those_under_twelve_ma() -> None:
    """Errata to 6.7L: "any unit with a Movement Allowance of less than twelve cannot leave Road
    Mode if it is unsupplied or isolated ... it is eliminated"; with 12 or more it can."""
    profiles = _profiles()
    hexes = [f"{i:02d}01" for i in range(1, 2 * len(profiles) + 2)]
    m = road(len(hexes))
    for supply in ("unsupplied", "isolated", "supplied"):
        for side in ("german", "allied"):
            mine = [d for d in profiles if d.side == side]
            b = board(m, mine)
            rows = {
                d.id: rm(d.id, hexes[2 * i], must_leave_road_mode=True, supply=supply)
                for i, d in enumerate(mine)
            }
            s = position(rows, side=side, phase="supply_judgment")  # type: ignore[arg-type]
            t = ended(b, s)
            assert t.phase == "initial_movement"
            for d in mine:
                u = t.unit(d.id)
                dies = supply != "supplied" and d.movement < 12
                assert (u.status == "eliminated") is dies, (d.id, supply)
                if not dies:
                    assert not u.road_mode and u.mp_spent == (6 if d.mechanized else 3)


@pytest.mark.rule("AO-6.7L*")
def test_forced_exit_leaves_the_rest_of_the_allowance_to_move() -> None:
    b = board(road(8, ". r r r r r r r"), [unit("m", mech=True, ma=10)])
    s = position({"m": _forced_rm("m", "0101")}, phase="supply_judgment")
    t = ended(b, s)
    assert t.unit("m").mp_spent == 6 and not t.unit("m").road_mode
    c = costs(b, t, "m")
    assert c == {"0201": 1, "0301": 2, "0401": 3, "0501": 4}
    assert outcome(b, t, "m", "0201 0301 0401 0501 0601") == "AO-5.2J"


def _forced_rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    return rm(uid, hex_id, must_leave_road_mode=True, **kw)


@pytest.mark.rule("AO-6.7L*")
@pytest.mark.rule("AO-5.3M")
def test_forced_exit_elimination_comes_before_dormant_reactivation() -> None:
    m = road(4, "e . . .")
    b = board(m, [unit("d", "allied"), unit("r", "allied", ma=4)])
    s = position(
        {
            "d": UnitState(id="d", hex="0101", status="dormant"),
            # the only live Allied unit next to d: unsupplied, 4 // 2 = 2 < 3, eliminated
            "r": _forced_rm("r", "0201", supply="unsupplied"),
        },
        side="allied",
        phase="supply_judgment",
    )
    t = ended(b, s)
    assert t.unit("r").status == "eliminated"
    assert t.unit("d").status == "dormant"


# -- Sequence of play ---------------------------------------------------------------------------


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


@pytest.mark.rule("AO-4.2c")
@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-4.2f")
def test_game_turn_one_lost_phases_german_supply_and_mech_phase() -> None:
    b = board(
        line_map(". . . . . . . . . . . ."),
        [unit("m", mech=True, ma=10), unit("c", mech=True), unit("f"), unit("a", "allied")],
    )
    s = position(
        {
            "m": UnitState(id="m", hex="0101", supply="unsupplied"),
            "c": "0601",
            "f": "0801",
            "a": UnitState(id="a", hex="1201"),
        },
        turn=1,
        phase="reinforcement",
    )
    s = ended(b, s)  # supply judgment: every German unit supplied (AO-4.2b)
    assert s.unit("m").supply == "supplied"
    s = ended(b, s)  # the Initial Movement Phase is lost (AO-4.2c)
    assert s.phase == "combat"
    s = ended(b, s.replace_units([UnitState(id="c", hex="0601", in_combat=True)]))
    assert s.phase == "mechanized_movement"
    assert max(costs(b, s, "m").values()) == 4  # full MA, up to 0501 (c sits in 0601)
    assert outcome(b, s, "c", "0701") == "AO-4.2f"
    assert outcome(b, s, "f", "0901") == "AO-4.2f"
    # the Allied Initial Movement Phase is lost as well
    s = ended(b, s, 3)
    assert (s.side, s.phase) == ("allied", "combat")


@pytest.mark.rule("AO-4.2c")
def test_no_movement_in_a_lost_game_turn_one_initial_phase() -> None:
    b = board(line_map(". . ."), [unit("g")])
    s = position({"g": "0101"}, turn=1, phase="initial_movement")
    assert outcome(b, s, "g", "0201") == "AO-4.2c"
    assert legal_moves(b, s, "g") == {}


# -- legal_moves <-> apply ---------------------------------------------------------------------


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


@pytest.mark.rule("AO-6.5H2")
def test_legal_moves_and_apply_agree_with_an_exhaustive_search_allied() -> None:
    b = board(TRICKY, [unit("r", "allied", ma=4), unit("am", "allied", mech=True, ma=12)])
    s = position({"r": rm("r", "0301"), "am": "0102"}, side="allied")
    _agree(b, s, "r")
    _agree(b, s, "am")


@pytest.mark.rule("AO-6.5H2")
def test_start_hex_offered_only_for_a_mode_change() -> None:
    b = board(road(4), [unit("a", "allied", ma=4)])
    s = position({"a": rm("a", "0201")}, side="allied")
    moves = legal_moves(b, s, "a")
    assert "0201" not in moves or moves["0201"].path in (
        (LEAVE_ROAD_MODE,),
        (ENTER_ROAD_MODE,),
    )


@pytest.mark.rule("AO-6.7L*")
def test_forced_exit_of_a_foot_unit_with_a_halved_allowance_of_three_or_more() -> None:
    """Documented reading (rules notes AO-6.7L*): "cannot pay -> eliminated" for every unit, so
    an unsupplied non-mech unit with MA 6-11 pays 3 and survives, although the errata's "any unit
    with a Movement Allowance of less than twelve" would eliminate it. No real counter has such
    an MA (non-mech MAs are 3 and 4), so the readings never differ in play."""
    b = board(road(3), [unit("f", ma=8)])
    s = position({"f": _forced_rm("f", "0101", supply="unsupplied")}, phase="supply_judgment")
    t = ended(b, s)
    assert t.unit("f").status == "on_map" and t.unit("f").mp_spent == 3
    assert costs(b, t, "f") == {"0201": 1}


@pytest.mark.rule("AO-8.3F")
@pytest.mark.rule("AO-6.5G")
def test_road_mode_reinforcements_leave_a_shared_edge_hex_one_by_one() -> None:
    """Documented reading (rules notes AO-8.3F): no destacking cost and no Road Mode spacing for
    units on Allied Map Edge hexes."""
    m = road(5, "e . . . .")
    b = board(m, [unit("a1", "allied", ma=4), unit("a2", "allied", ma=4)])
    s = position({"a1": rm("a1", "0101"), "a2": rm("a2", "0101")}, side="allied")
    # 0201 is road-connected to 0101, where a2 waits: allowed, 1 MP for up to 10 road hexes
    assert outcome(b, s, "a1", "0201 0301 0401") == 1
    t = moved(b, s, "a1", "0201 0301 0401")
    # a2 may follow as far as the spacing rule allows: 0201, not 0301 (next to a1 on 0401)
    assert outcome(b, t, "a2", "0201") == 1
    assert outcome(b, t, "a2", "0201 0301") == "AO-6.5G"


@pytest.mark.rule("AO-5.1A")
def test_legal_moves_for_a_side_is_the_per_unit_answer_for_phasing_units_only() -> None:
    from rules.movement import legal_moves_for_side

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
