"""Road Mode (AO-6) on road lines: ``line_map`` rows with a road along the whole row."""

from __future__ import annotations

import pytest

from rules.commands import ENTER_ROAD_MODE, EndPhase, Move
from rules.engine import Applied, apply
from rules.events import RoadModeChanged, UnitEliminated
from rules.movement import legal_moves
from rules.rejection import Rejection
from rules.roadmode import check_phase, road_mode_cost, road_mode_strength
from rules.state import UnitState
from tests.enginekit import board, costs, ended, line_map, make_map, outcome, position, unit


def road(n: int, codes: str | None = None, **kw: list[str]):  # type: ignore[no-untyped-def]
    hexes = [f"{c:02d}01" for c in range(1, n + 1)]
    return line_map(codes or " ".join(["."] * n), roads=["-".join(hexes)], **kw)


def rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    return UnitState(id=uid, hex=hex_id, road_mode=True, **kw)  # type: ignore[arg-type]


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
def test_road_mode_crosses_rivers_only_by_intact_bridges() -> None:
    m = road(5, bridges=["0201/0301"], fords=["0401/0501"])
    b = board(m, [unit("g", ma=8)])
    s = position({"g": rm("g", "0101")})
    assert outcome(b, s, "g", "0201 0301 0401") == 2
    assert outcome(b, s, "g", "0201 0301 0401 0501") == "AO-6.5F"  # a ford is no bridge
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
