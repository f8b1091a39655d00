"""Road Mode (AO-6) on road lines: ``line_map`` rows with a road along the whole row."""

from __future__ import annotations

import pytest

from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, EndPhase, Move
from rules.ao.engine import Applied, apply
from rules.ao.events import RoadModeChanged, UnitEliminated
from rules.ao.movement import legal_moves
from rules.ao.roadmode import check_phase, road_mode_cost, road_mode_strength, road_rate
from rules.ao.state import UnitState
from rules.rejection import Rejection
from tests.kit.engine import (
    board,
    costs,
    ended,
    line_map,
    make_map,
    moved,
    oob_profiles,
    outcome,
    position,
    rm,
    road,
    unit,
)
from tests.kit.realmap import needs_real_map


@pytest.mark.rule("AO-6.2A")
def test_non_mech_use_road_mode_only_in_the_initial_movement_phase() -> None:
    b = board(road(6), [unit("g", ma=8)])
    s = position({"g": "0101"})
    assert outcome(b, s, "g", "enter_road_mode 0201 0301") == 3 + 1
    r = check_phase(b.defs["g"], "mechanized_movement")
    assert r is not None and r.case == "AO-6.2A"
    sm = position({"g": rm("g", "0101")}, phase="mechanized_movement")
    assert outcome(b, sm, "g", "0201") == "AO-5.2K"


@pytest.mark.rule("AO-6.2B")
def test_mech_also_in_the_mechanized_phase_unless_in_combat() -> None:
    b = board(road(8), [unit("m", mech=True, ma=12), unit("c", mech=True, ma=12)])
    s = position(
        {"m": "0101", "c": UnitState(id="c", hex="0801", in_combat=True)},
        phase="mechanized_movement",
    )
    assert check_phase(b.defs["m"], "mechanized_movement") is None
    assert outcome(b, s, "m", "enter_road_mode 0201 0301 0401") == 6 + 2
    assert outcome(b, s, "c", "enter_road_mode") == "AO-5.2K"


@pytest.mark.rule("AO-6.3C")
def test_changing_mode_costs_three_or_six_on_a_road_hex() -> None:
    m = make_map(". . .\n. . .", roads=["0101-0201-0301"])
    b = board(m, [unit("g", ma=8), unit("m", mech=True, ma=12), unit("s", ma=4)])
    s = position({"g": "0101", "m": "0301", "s": "0102"})
    assert outcome(b, s, "g", "enter_road_mode") == 3
    assert outcome(b, s, "g", "enter_road_mode leave_road_mode") == 6
    assert outcome(b, s, "m", "enter_road_mode") == 6
    assert outcome(b, s, "m", "enter_road_mode leave_road_mode") == 12
    r = apply(b, s, Move(unit="s", path=("enter_road_mode",)))
    assert isinstance(r, Rejection) and r.case == "AO-6.3C"
    assert "must be on a road hex" in r.message
    s2 = position({"g": rm("g", "0101", mp_spent=6)})
    assert outcome(b, s2, "g", "leave_road_mode") == "AO-6.3C"  # 3 needed, 2 left
    assert outcome(b, s2, "g", "enter_road_mode") == "AO-6.3C"  # already in Road Mode


@pytest.mark.rule("AO-6.4D")
def test_road_mode_lasts_until_left() -> None:
    b = board(road(4), [unit("g", ma=8), unit("a", "allied")])
    s = position({"g": rm("g", "0101"), "a": "0401"})
    s = ended(b, s, 9)  # through the rest of this game-turn and into the next
    assert (s.turn, s.side, s.phase) == (3, "german", "supply_judgment")
    assert s.unit("g").road_mode
    r = apply(b, ended(b, s), Move(unit="g", path=("leave_road_mode",)))
    assert isinstance(r, Applied) and not r.state.unit("g").road_mode
    assert r.events[0] == RoadModeChanged(unit="g", hex="0101", road_mode=False, cost=3)


@pytest.mark.rule("AO-6.4E")
def test_never_forced_into_road_mode() -> None:
    b = board(road(5), [unit("g", ma=8), unit("a", "allied")])
    s = position({"g": "0101", "a": "0501"})
    r = apply(b, s, Move(unit="g", path=("0201", "0301")))
    assert isinstance(r, Applied) and not r.state.unit("g").road_mode
    # a whole game-turn of phases, including both Initial Movement Phases: nobody changes mode
    t = ended(b, r.state, 10)
    assert (t.turn, t.phase) == (3, "initial_movement")
    assert not any(u.road_mode for u in t.units)
    # the cheapest way to every hex keeps the normal mode; Road Mode only when asked for
    offered = legal_moves(b, s, "g")
    del offered["0101"]  # the start hex is "reached" only by a mode change in place
    assert offered and all(not reach.road_mode for reach in offered.values())
    assert all(ENTER_ROAD_MODE in r.path for r in legal_moves(b, s, "g", road_mode=True).values())


@pytest.mark.rule("AO-6.5F")
def test_road_mode_only_along_roads_and_bridges() -> None:
    # road 0101-0201-0301; 0401 off the road (no road hexside 0301-0401)
    m = make_map(". r . .", roads=["0101-0201-0301"])
    b = board(m, [unit("g", ma=2)])
    s = position({"g": rm("g", "0101")})
    assert outcome(b, s, "g", "0201") == 1  # rough ignored in Road Mode
    assert outcome(b, s, "g", "0201 0301 0401") == "AO-6.5F"
    assert costs(b, s, "g") == {"0201": 1, "0301": 1}


@pytest.mark.rule("AO-6.5F")
@pytest.mark.rule("AO-11.b")
def test_road_mode_crosses_rivers_by_intact_bridges_and_road_fords() -> None:
    m = road(6, bridges=["0201/0301"], fords=["0401/0501"], rivers=["0501/0601"])
    b = board(m, [unit("g", ma=8)])
    s = position({"g": rm("g", "0101")})
    assert outcome(b, s, "g", "0201 0301 0401") == 2
    # the road crosses the ford: still a road hexside, open to Road Mode; 4 hexes at 2 a MP
    # = 2, and the ford's +1 (non-mechanized, AO-11.b): a hexside is not "terrain in Road
    # hexes" (AO-6.5F), and roads negate hex terrain only, in either mode (AO-11.j)
    assert outcome(b, s, "g", "0201 0301 0401 0501") == 2 + 1
    # an unbridged river under the road is no crossing at all
    assert outcome(b, s, "g", "0201 0301 0401 0501 0601") == "AO-6.5F"
    si = position({"g": rm("g", "0101")}, interdicted_german=["0201/0301"])
    r = apply(b, si, Move(unit="g", path=("0201", "0301")))
    assert isinstance(r, Rejection) and r.case == "AO-6.5F"
    assert "interdicted" in r.message
    # an interdicted bridge is closed in normal mode too (AO-13.2B, rules notes)
    sn = position({"g": "0101"}, interdicted_german=["0201/0301"])
    assert outcome(b, sn, "g", "0201 0301") == "AO-13.2B"
    # interdiction is per side: the same bridge open for the Allies
    sa = position({"a": rm("a", "0101")}, side="allied", interdicted_german=["0201/0301"])
    ba = board(m, [unit("a", "allied", ma=8)])
    assert outcome(ba, sa, "a", "0201 0301") == 1


@pytest.mark.rule("AO-6.5G")
def test_road_mode_unit_keeps_apart_from_friends_on_connected_road_hexes() -> None:
    # road along row 1; 0302 (row 2) touches 0301 and 0401 but not by road
    m = make_map(". . . . . .\n. . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g", ma=8), unit("f"), unit("n", ma=8), unit("a", "allied")])
    s = position({"g": rm("g", "0101"), "f": "0401"})
    assert outcome(b, s, "g", "0201") == 1
    r = apply(b, s, Move(unit="g", path=("0201", "0301")))
    assert isinstance(r, Rejection) and r.case == "AO-6.5G"
    # next to a friend that is not on a connected road hex: allowed
    s = position({"g": rm("g", "0101"), "f": "0302"})
    assert outcome(b, s, "g", "0201 0301 0401 0501") == 2
    # a normal-mode unit may not come next to a friendly Road Mode unit along the road ...
    s = position({"g": rm("g", "0401"), "n": "0101"})
    assert outcome(b, s, "n", "0201") == 1
    assert outcome(b, s, "n", "0201 0301") == "AO-6.5G"
    # ... nor may a unit enter Road Mode next to a friend on the road
    s = position({"g": "0201", "f": "0301"})
    assert outcome(b, s, "g", "enter_road_mode") == "AO-6.5G"
    # enemy units do not count (rules notes): only ZOC governs contact with them
    s = position({"g": rm("g", "0101"), "a": rm("a", "0401")})
    assert outcome(b, s, "g", "0201 0301") == 1


@pytest.mark.rule("AO-6.5H1")
def test_mechanized_road_mode_two_hexes_per_mp() -> None:
    b = board(road(10), [unit("m", mech=True, ma=3)])
    s = position({"m": rm("m", "0101")})
    assert costs(b, s, "m") == {
        "0201": 1,
        "0301": 1,
        "0401": 2,
        "0501": 2,
        "0601": 3,
        "0701": 3,
    }
    assert outcome(b, s, "m", "0201 0301 0401 0501 0601 0701 0801") == "AO-5.2J"
    assert road_mode_cost(b.defs["m"], 5) == 3


@pytest.mark.rule("AO-6.5H2")
def test_allied_non_mech_road_mode_ten_hexes_per_mp() -> None:
    b = board(road(23), [unit("a", "allied", ma=2)])
    s = position({"a": rm("a", "0101")}, side="allied")
    c = costs(b, s, "a")
    # 0201..1101 (10 hexes) for 1 MP, 1201..2101 for the second; the 21st hex would need 3
    assert [c[f"{i:02d}01"] for i in range(2, 22)] == [1] * 10 + [2] * 10
    assert "2201" not in c
    assert road_mode_cost(b.defs["a"], 21) == 3


@pytest.mark.rule("AO-6.5H3")
def test_german_non_mech_road_mode_two_hexes_per_mp() -> None:
    b = board(road(8), [unit("g", ma=2)])
    s = position({"g": rm("g", "0101")})
    assert costs(b, s, "g") == {"0201": 1, "0301": 1, "0401": 2, "0501": 2}


@pytest.mark.rule("AO-6.5H1")
def test_road_mode_in_the_middle_of_a_path_counts_each_stretch() -> None:
    b = board(road(8, ". . . . . . . ."), [unit("g", ma=10)])
    s = position({"g": "0101"})
    # 1 + enter 3 + (3 hexes: 2 MP) + leave 3 = 9
    assert outcome(b, s, "g", "0201 enter_road_mode 0301 0401 0501 leave_road_mode") == 9
    moves = legal_moves(b, s, "g", road_mode=True)
    assert moves["0801"].cost == 3 + 4  # enter at 0101, 7 road hexes = 4 MP


@pytest.mark.rule("AO-6.6K")
def test_road_mode_halves_strength_fractions_up() -> None:
    assert road_mode_strength(9) == 5
    assert road_mode_strength(8) == 4
    assert road_mode_strength(1) == 1


def _forced(uid: str, hex_id: str, **kw: object) -> UnitState:
    return rm(uid, hex_id, must_leave_road_mode=True, **kw)


@pytest.mark.rule("AO-6.7L*")
def test_forced_exit_at_the_start_of_the_initial_movement_phase() -> None:
    b = board(
        road(6),
        [
            unit("m", mech=True, ma=12),
            unit("w", mech=True, ma=10),
            unit("i", ma=4),
            unit("j", ma=4),
            unit("a", "allied"),
        ],
    )
    s = position(
        {
            "m": _forced("m", "0101", supply="unsupplied"),  # 12 // 2 = 6: can pay 6
            "w": _forced("w", "0301", supply="unsupplied"),  # 10 // 2 = 5 < 6: eliminated
            "i": _forced("i", "0501", supply="isolated"),  # 4 // 2 = 2 < 3: eliminated
            "j": _forced("j", "0601"),  # supplied: 4 >= 3, leaves and has 1 MP left
            "a": _forced("a", "0201"),  # Allied: not its player-turn
        },
        phase="supply_judgment",
    )
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied)
    t = r.state
    assert t.phase == "initial_movement"
    assert not t.unit("m").road_mode and t.unit("m").mp_spent == 6
    assert t.unit("w").status == "eliminated" and t.unit("w").hex is None
    assert t.unit("i").status == "eliminated"
    assert not t.unit("j").road_mode and t.unit("j").mp_spent == 3
    assert t.unit("a").road_mode and t.unit("a").must_leave_road_mode
    kinds = [type(e).__name__ for e in r.events]
    # the eliminations come first thing in the phase, before any other activity
    assert kinds[0] == "PhaseBegan"
    assert UnitEliminated(unit="w", hex="0301", case="AO-6.7L*") in r.events
    # j has 1 MP left for its move; m has 0 (unsupplied: 6 of 6 spent)
    assert outcome(b, t, "j", "0501") == 1
    assert outcome(b, t, "j", "0501 0401") == "AO-5.2J"
    assert costs(b, t, "m") == {}


# == found by the rule audit: Road Mode (AO-6, AO-12.6, AO-8.3F) ==================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
# Found by these tests, since fixed: forced Road Mode exits before dormant reactivation
# (AO-6.7L*).


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-6.5F")
def test_road_mode_only_through_road_intact_bridge_or_road_ford_hexsides() -> None:
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
    # a road over a ford is a road hexside: open to Road Mode at road rate, 2 hexes = 1 MP,
    # plus the ford's +1 (non-mechanized, AO-11.b), as the normal mode pays 1 + 1 + 1
    assert outcome(b, s, "g", "0201 0301") == 1 + 1
    assert outcome(b, position({"g": "0101"}), "g", "0201 0301") == 1 + 1 + 1
    # an unbridged river under the road is closed too
    s = position({"g": rm("g", "0501")})
    assert outcome(b, s, "g", "0601") == "AO-6.5F"
    # an intact bridge is open, an interdicted one is not
    s = position({"g": rm("g", "0401")})
    assert outcome(b, s, "g", "0501") == 1
    s = position({"g": rm("g", "0401")}, interdicted_german=["0401/0501"])
    assert outcome(b, s, "g", "0501") == "AO-6.5F"


@pytest.mark.rule("AO-6.5F")
@pytest.mark.rule("AO-11.b")
@pytest.mark.rule("AO-11.j")
def test_a_road_ford_costs_its_extra_mp_in_both_modes() -> None:
    # road 0101-...-0601, the ford on 0301/0401. The chart: "Ford hex-side: Mechanized units:3
    # additional MPs to cross Non-Mechanized units:1 additional MP to cross"; "Road hex: 1 MP
    # regardles of terrain. Units do not have to be in road mode for roads to negate
    # terrain": the road negates the hex's terrain in either mode, the ford (a hexside) in
    # neither. Mechanized m (MA 12) in Road Mode, 2 road hexes a MP: 0201 (1 MP, 1 hex of
    # credit), 0301 (credit), 0401 (1 MP for a new pair, + 3 for the ford), 0501 (credit):
    # 1 + 0 + 4 + 0 = 5; the credit outlives the ford (one Road Mode stretch, AO-6.5H)
    m = road(6, fords=["0301/0401"])
    b = board(m, [unit("m", mech=True, ma=12), unit("f", ma=4)])
    sm = position({"m": rm("m", "0101")})
    assert outcome(b, sm, "m", "0201 0301 0401 0501") == 1 + 0 + (1 + 3) + 0
    assert outcome(b, sm, "m", "0201 0301 0401 0501 0601") == 5 + 1
    # in normal mode along the same road: 1 a hex, + 3 at the ford
    assert outcome(b, position({"m": "0101"}), "m", "0201 0301 0401 0501") == 1 + 1 + 4 + 1
    # non-mechanized f (German, 2 road hexes a MP) pays + 1 at the ford in either mode
    sf = position({"f": rm("f", "0101")})
    assert outcome(b, sf, "f", "0201 0301 0401") == 1 + 0 + (1 + 1)
    assert outcome(b, position({"f": "0101"}), "f", "0201 0301 0401") == 1 + 1 + (1 + 1)
    # a ford the unit cannot pay closes the way: m with 3 MP left at 0301 cannot cross
    low = position({"m": rm("m", "0301", mp_spent=9)})
    assert outcome(b, low, "m", "0401") == "AO-5.2J"
    assert "0401" not in costs(b, low, "m")


@pytest.mark.rule("AO-6.5F")
@pytest.mark.rule("AO-11.b")
def test_a_ford_off_the_road_stays_closed_to_road_mode() -> None:
    # two rows: the road runs 0101-0201-0301 and 0102-0202; the ford 0201/0202 has no road
    # (0201 and 0202 are neighbours: row 2 is shifted east)
    m = make_map(". . .\n. . .", roads=["0101-0201-0301", "0102-0202"], fords=["0201/0202"])
    b = board(m, [unit("g", ma=6), unit("m", mech=True, ma=12)])
    s = position({"g": rm("g", "0201")})
    assert outcome(b, s, "g", "0202") == "AO-6.5F"
    # no Road Mode arrival in 0202 (leaving, the ford and entering again: 3 + 2 + 3 > 6)
    assert "0202" not in costs(b, s, "g", road_mode=True)
    # in normal mode the ford is open: 1 MP + 1 (foot) / + 3 (mechanized), AO-11.b
    assert outcome(b, position({"g": "0201"}), "g", "0202") == 1 + 1
    assert outcome(b, position({"m": "0201"}), "m", "0202") == 1 + 3


@needs_real_map
@pytest.mark.rule("AO-6.5F")
@pytest.mark.rule("AO-11.b")
def test_road_mode_crosses_the_our_ford_at_roth_paying_the_ford() -> None:
    # The map's only ford: the Our between 3531 (east bank, West Wall, German) and 3432, with
    # the road 3631-3531-3432-3431 over it (scenarios/ardennes/README.md, "Bridges and fords").
    from scenarios import load_board

    b = load_board(1)
    side = b.game_map.side("3531", "3432")
    assert (side.river, side.crossing, side.road) == ("Our", "ford", True)
    # GT3, nothing else on the map: the mechanized de-2-ai in Road Mode, 2 road hexes a MP
    # (1 MP for both hexes) and the ford's +3 (mechanized, AO-11.b): 4
    s = position({"de-2-ai": rm("de-2-ai", "3531")}, turn=3)
    assert outcome(b, s, "de-2-ai", "3432 3431") == 1 + 3
    # in normal mode the ford costs on the road too: 1 + 3 (mechanized, AO-11.b) + 1
    assert outcome(b, position({"de-2-ai": "3531"}, turn=3), "de-2-ai", "3432 3431") == 5
    # the foot de-15-pt: Road Mode 1 + 1 (the ford, non-mechanized); normal mode 1 + 1 + 1
    s = position({"de-15-pt": rm("de-15-pt", "3531")}, turn=3)
    assert outcome(b, s, "de-15-pt", "3432 3431") == 1 + 1
    assert outcome(b, position({"de-15-pt": "3531"}, turn=3), "de-15-pt", "3432 3431") == 3
    # eastward an Allied column may use the ford too, but not enter the West Wall in Road
    # Mode (AO-11.h)
    s = position({"us-109-i": rm("us-109-i", "3431")}, turn=3, side="allied")
    assert outcome(b, s, "us-109-i", "3432") == 1
    assert outcome(b, s, "us-109-i", "3432 3531") == "AO-11.h"


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-6.7L*")
@pytest.mark.rule("AO-12.6")
def test_forced_exit_with_real_units_eliminates_exactly_those_under_twelve_ma() -> None:
    """Errata to 6.7L: "any unit with a Movement Allowance of less than twelve cannot leave Road
    Mode if it is unsupplied or isolated ... it is eliminated"; with 12 or more it can."""
    profiles = oob_profiles()
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
            s = position(rows, side=side, phase="supply_judgment")
            t = ended(b, s)
            assert t.phase == "initial_movement"
            for d in mine:
                u = t.unit(d.id)
                dies = supply != "supplied" and d.movement < 12
                assert (u.status == "eliminated") is dies, (d.id, supply)
                if not dies:
                    assert not u.road_mode and u.mp_spent == (6 if d.mechanized else 3)


@pytest.mark.rule("AO-6.7L*")
def test_unsupplied_under_twelve_cannot_leave_road_mode_even_with_the_mp() -> None:
    """Errata to 6.7L: "any unit with a Movement Allowance of less than twelve cannot leave Road
    Mode if it is unsupplied or isolated. If such an unsupplied unit is required to leave Road
    Mode it is eliminated" - also one whose halved allowance would pay the 3 MP (no counter of
    the order of battle is such a unit: the rule and the MP test agree for all of them)."""
    b = board(road(4), [unit("i", ma=8), unit("k", ma=12), unit("s", ma=8)])
    s = position(
        {
            "i": _forced("i", "0101", supply="unsupplied"),  # 8 // 2 = 4 >= 3, but 8 < 12
            "k": _forced("k", "0301", supply="isolated"),  # 12: leaves, 6 - 3 = 3 MP left
            "s": _forced("s", "0401"),  # supplied: leaves, 8 - 3 = 5 MP left
        },
        phase="supply_judgment",
    )
    t = ended(b, s)
    assert t.unit("i").status == "eliminated"
    assert (t.unit("k").road_mode, t.unit("k").mp_spent) == (False, 3)
    assert (t.unit("s").road_mode, t.unit("s").mp_spent) == (False, 3)


@pytest.mark.audit
@pytest.mark.rule("AO-6.7L*")
def test_forced_exit_leaves_the_rest_of_the_allowance_to_move() -> None:
    b = board(road(8, ". r r r r r r r"), [unit("m", mech=True, ma=10)])
    s = position({"m": _forced("m", "0101")}, phase="supply_judgment")
    t = ended(b, s)
    assert t.unit("m").mp_spent == 6 and not t.unit("m").road_mode
    c = costs(b, t, "m")
    assert c == {"0201": 1, "0301": 2, "0401": 3, "0501": 4}
    assert outcome(b, t, "m", "0201 0301 0401 0501 0601") == "AO-5.2J"


@pytest.mark.audit
@pytest.mark.rule("AO-6.7L*")
@pytest.mark.rule("AO-5.3M")
def test_forced_exit_elimination_comes_before_dormant_reactivation() -> None:
    m = road(4, "e . . .")
    b = board(m, [unit("d", "allied"), unit("r", "allied", ma=4)])
    s = position(
        {
            "d": UnitState(id="d", hex="0101", status="dormant"),
            # the only live Allied unit next to d: unsupplied, 4 // 2 = 2 < 3, eliminated
            "r": _forced("r", "0201", supply="unsupplied"),
        },
        side="allied",
        phase="supply_judgment",
    )
    t = ended(b, s)
    assert t.unit("r").status == "eliminated"
    assert t.unit("d").status == "dormant"


@pytest.mark.audit
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
