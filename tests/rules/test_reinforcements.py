"""Reinforcements (AO-14, AO-4.2b, AO-4.2g, AO-17.d) on a small ring map worked out by hand.

The map, 8 columns x 6 rows (``x`` impassable corners beyond the German flank, errata M1)::

    row 1   NW NW NW NW NE NE NE x        exits: 0301 (NW), 0601 and 0701 (NE)
    row 2   W  .  .  .  .  .  .  E
    row 3   W  .  .  .  .  .  .  E        exit 0103 (W); German entry 0803
    row 4   SW .  .  .  .  .  .  E
    row 5   SW .  .  .  .  .  .  E
    row 6   SW SW SW SW SE SE SE x        exits: 0306 (SW), 0606 (SE)

Road hexsides: 0301-0302, 0601-0602, 0701-0702, 0103-0203, 0306-0305, 0606-0605, 0803-0703;
the Meuse runs between 0303 and 0403. Neighbours used below: 0502 touches 0601 (and 0501),
0702 touches 0701, 0202 touches 0301, 0703 touches 0803.
"""

from __future__ import annotations

import msgspec
import pytest

from rules import reinforcements as rf
from rules.gamemap import ALLIED_SECTIONS, GameMap
from rules.scenario import Arrival
from rules.state import Board, GameState, UnitState, VictoryPoints
from rules.units import Side
from scenarios import load_scenario
from tests.enginekit import make_map, scenario_start, unit

_State = GameState  # ``GameState.delayed`` holds the delays (AO-14.1b)


GRID = """
e e e e e e e x
e . . . . . . E
e . . . . . . E
e . . . . . . E
e . . . . . . E
e e e e e e e x
"""
SECTIONS = {
    **{f"0{c}01": "NW" for c in range(1, 5)},
    **{f"0{c}01": "NE" for c in range(5, 8)},
    "0102": "W",
    "0103": "W",
    "0104": "SW",
    "0105": "SW",
    **{f"0{c}06": "SW" for c in range(1, 5)},
    **{f"0{c}06": "SE" for c in range(5, 8)},
}


def remap(
    gmap: GameMap,
    edges: dict[str, str],
    *,
    meuse: tuple[tuple[str, str], ...] = (),
    exit_vp: dict[str, int] | None = None,
) -> GameMap:
    """``gmap`` with edge sections, exit VP and river names changed (the kit has no sections)."""
    vp = exit_vp or {}
    hexes = [
        msgspec.structs.replace(h, edge=edges.get(h.id, h.edge), exit_vp=vp.get(h.id, h.exit_vp))
        for h in gmap.data.hexes
    ]
    sides = [
        msgspec.structs.replace(s, river="Meuse") if s.hexes in meuse else s
        for s in gmap.data.hexsides
    ]
    return GameMap(msgspec.structs.replace(gmap.data, hexes=hexes, hexsides=sides))


def ring_map() -> GameMap:
    m = make_map(
        GRID,
        roads=[
            "0301-0302",
            "0601-0602",
            "0701-0702",
            "0103-0203",
            "0306-0305",
            "0606-0605",
            "0803-0703",
        ],
        rivers=["0303/0403"],
    )
    return remap(m, SECTIONS, meuse=(("0303", "0403"),))


SCHEDULE = {
    "a0": (1, "NE"),
    "a1": (2, "NE"),
    "a2": (2, "NE"),
    "s1": (3, "SE"),
    "w1": (5, "WB"),
    "g1": (1, "east"),
    "g2": (4, "east"),
    "vdh": (2, "drop"),
}


def ring_board() -> Board:
    defs = [unit(u, "allied" if u[0] in "asw" else "german") for u in SCHEDULE]
    defs += [
        unit("ga", "german"),
        unit("gb", "german"),
        unit("gm", "german", mech=True, ma=10),
        unit("ax", "allied"),
        unit("ai", "allied", ma=8),
    ]
    return Board(ring_map(), defs, arrivals=[Arrival(u, t, s) for u, (t, s) in SCHEDULE.items()])


NO_VP = VictoryPoints()


def state(
    on_map: dict[str, str | UnitState],
    *,
    turn: int = 2,
    side: Side = "allied",
    delayed: tuple[rf.Delay, ...] = (),
    vp: VictoryPoints = NO_VP,
) -> _State:
    rows = []
    for uid in sorted([*SCHEDULE, "ga", "gb", "gm", "ax", "ai"]):
        v = on_map.get(uid)
        if v is None:
            rows.append(
                UnitState(id=uid, status="not_arrived")
                if uid in SCHEDULE
                else UnitState(id=uid, status="eliminated")
            )
        else:
            rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
    return _State(
        scenario=0,
        turn=turn,
        side=side,
        phase="reinforcement",
        units=tuple(rows),
        delayed=delayed,
        vp=vp,
    )


B = ring_board()


# -- entry hexes -------------------------------------------------------------------------------


@pytest.mark.rule("AO-14.1A")
def test_entry_hexes_are_the_sections_road_edge_hexes() -> None:
    s = state({})
    assert rf.entry_hexes(B, s, "allied", "NE") == ("0601", "0701")
    assert rf.entry_hexes(B, s, "allied", "NW") == ("0301",)
    assert rf.entry_hexes(B, s, "allied", "W") == ("0103",)
    assert rf.entry_hexes(B, s, "allied", "WB") == ("0103",)
    assert rf.entry_hexes(B, s, "allied", "SW") == ("0306",)
    assert rf.entry_hexes(B, s, "allied", "SE") == ("0606",)
    assert rf.entry_hexes(B, s, "german", "east") == ("0803",)
    assert rf.entry_hexes(B, s, "german", "NE") == ()
    assert rf.entry_hexes(B, s, "allied", "east") == ()
    assert set(rf.FALLBACK) == set(ALLIED_SECTIONS)


@pytest.mark.rule("AO-14.1A")
def test_allied_placement_on_the_scheduled_section_in_road_mode() -> None:
    s = state({"a0": "0601"})
    assert rf.due(B, s, "allied", 2) == (("a1", "NE"), ("a2", "NE"))
    assert rf.check_entry(B, s, "a1", "0601") is None
    assert rf.check_entry(B, s, "a1", "0701") is None
    r = rf.check_entry(B, s, "a1", "0501")  # edge hex without a road hexside
    assert r is not None and r.case == "AO-14.1A"
    r = rf.check_entry(B, s, "a1", "0301")  # another section's exit
    assert r is not None and r.case == "AO-14.1A"
    r = rf.check_entry(B, s, "s1", "0606")  # due on Game-Turn 3
    assert r is not None and r.case == "AO-17.d"
    row = rf.placed(s, "a1", "0601")
    assert (row.hex, row.status, row.road_mode, row.moved) == ("0601", "on_map", True, False)
    assert rf.mandatory("allied") and not rf.mandatory("german")
    wrong_phase = msgspec.structs.replace(s, phase="initial_movement")
    r = rf.check_entry(B, wrong_phase, "a1", "0601")
    assert r is not None and r.case == "AO-14.1A"


@pytest.mark.rule("AO-4.2b")
def test_german_game_turn_1_reinforcement_on_the_east_edge() -> None:
    s = state({}, turn=1, side="german")
    assert rf.due(B, s, "german", 1) == (("g1", "east"),)  # von der Heydte drops: not here
    assert rf.check_entry(B, s, "g1", "0803") is None
    r = rf.check_entry(B, s, "g1", "0802")  # east edge, but no road
    assert r is not None and r.case == "AO-14.1A"
    r = rf.check_entry(B, s, "vdh", "0803")
    assert r is not None and r.case == "AO-15.a"
    assert rf.placed(s, "g1", "0803").road_mode


@pytest.mark.rule("AO-4.2g")
def test_no_allied_reinforcements_on_game_turn_1() -> None:
    s = state({}, turn=1, side="allied")
    assert rf.due(B, s, "allied", 1) == ()
    r = rf.check_entry(B, s, "a0", "0601")
    assert r is not None and r.case == "AO-4.2g"
    # a0 (scheduled GT1) comes in on GT2 with the others
    assert rf.due(B, state({}), "allied", 2) == (("a0", "NE"), ("a1", "NE"), ("a2", "NE"))


# -- blocked sections ------------------------------------------------------------------------


@pytest.mark.rule("AO-14.1b")
def test_never_through_an_enemy_controlled_hex() -> None:
    s = state({"ga": "0502"})  # controls 0601 (and 0501), not 0701
    assert rf.entry_hexes(B, s, "allied", "NE") == ("0701",)
    assert not rf.blocked(B, s, "NE")
    r = rf.check_entry(B, s, "a1", "0601")
    assert r is not None and r.case == "AO-14.1b"
    assert rf.check_entry(B, s, "a1", "0701") is None
    # an Allied unit in the exit hex negates the German ZOC (AO-7.2B, AO-16.C)
    dormant = UnitState(id="ax", hex="0601", status="dormant")
    s2 = state({"ga": "0502", "ax": dormant})
    assert rf.entry_hexes(B, s2, "allied", "NE") == ("0601", "0701")
    # Road Mode units control only their own hex (AO-6.6J)
    s3 = state({"ga": UnitState(id="ga", hex="0502", road_mode=True)})
    assert rf.entry_hexes(B, s3, "allied", "NE") == ("0601", "0701")


@pytest.mark.rule("AO-14.1b")
def test_one_blocked_section_delays_one_turn_then_the_adjacent_section() -> None:
    s = state({"ga": "0502", "gb": "0702"})  # 0601 and 0701 German-controlled
    assert rf.blocked(B, s, "NE")
    assert rf.due(B, s, "allied", 2) == ()
    delays = rf.delays_for_phase(B, s, "allied", 2)
    assert delays == (
        rf.Delay(unit="a0", turn=3, section="NE", delays=1),
        rf.Delay(unit="a1", turn=3, section="NE", delays=1),
        rf.Delay(unit="a2", turn=3, section="NE", delays=1),
    )
    r = rf.check_entry(B, s, "a1", "0601")
    assert r is not None and r.case == "AO-14.1b"
    # during the rest of GT2 they are delayed
    s2 = msgspec.structs.replace(s, delayed=delays)
    r = rf.check_entry(B, s2, "a1", "0301")
    assert r is not None and r.case == "AO-14.1b"
    # GT3: the adjacent section (NE -> NW), even though NE is open again
    s3 = state({}, turn=3, delayed=delays)
    assert rf.due(B, s3, "allied", 3) == (("a0", "NW"), ("a1", "NW"), ("a2", "NW"), ("s1", "SE"))
    assert rf.check_entry(B, s3, "a1", "0301") is None
    r = rf.check_entry(B, s3, "a1", "0601")
    assert r is not None and r.case == "AO-14.1A"
    # the records stay until the units are placed (due() reads them for the fallback)
    assert rf.delays_for_phase(B, s3, "allied", 3) == delays


@pytest.mark.rule("AO-14.1b")
def test_two_blocked_sections_delay_twice_then_the_next_clear_section() -> None:
    first = (rf.Delay(unit="a1", turn=3, section="NE", delays=1),)
    s3 = state({"a0": "0601", "a2": "0601", "gb": "0202"}, turn=3, delayed=first)  # NW blocked
    assert rf.blocked(B, s3, "NW")
    assert rf.due(B, s3, "allied", 3) == (("s1", "SE"),)
    second = rf.delays_for_phase(B, s3, "allied", 3)
    assert second == (rf.Delay(unit="a1", turn=4, section="NE", delays=2),)
    # GT4: the next clear section beyond NW is W
    s4 = state({"a0": "0601", "a2": "0601", "s1": "0606", "gb": "0202"}, turn=4, delayed=second)
    assert rf.due(B, s4, "allied", 4) == (("a1", "W"),)
    assert rf.check_entry(B, s4, "a1", "0103") is None
    # with W blocked as well (German at 0203 controls 0103), SW
    s4b = msgspec.structs.replace(s4, units=state({"gb": "0202", "ga": "0203"}).units)
    assert dict(rf.due(B, s4b, "allied", 4))["a1"] == "SW"


@pytest.mark.rule("AO-14.1b")
def test_german_reinforcements_wait_while_the_east_entries_are_allied_controlled() -> None:
    s = state({"ax": "0703"}, turn=4, side="german")
    assert rf.entry_hexes(B, s, "german", "east") == ()
    assert rf.due(B, s, "german", 4) == ()
    assert rf.delays_for_phase(B, s, "german", 4) == (
        rf.Delay(unit="g1", turn=5, section="east", delays=1),
        rf.Delay(unit="g2", turn=5, section="east", delays=1),
    )
    s2 = state({"ax": "0703", "ga": "0803"}, turn=4, side="german")  # negated by a German unit
    assert rf.entry_hexes(B, s2, "german", "east") == ("0803",)


# -- staging -----------------------------------------------------------------------------------


@pytest.mark.rule("AO-14.2B")
def test_staging_penalty_and_how_movement_charges_it() -> None:
    assert [rf.staging_penalty(n) for n in range(4)] == [0, 2, 4, 6]
    mech = B.defs["gm"]  # 2 road hexes per MP
    inf_us = B.defs["ai"]  # Allied non-mechanized: 10 per MP
    inf_de = B.defs["ga"]  # German non-mechanized: 2 per MP
    assert rf.staging_start(mech, 0) == (0, 0)
    assert rf.staging_start(mech, 2) == (1, 0)
    assert rf.staging_start(mech, 6) == (3, 0)
    assert rf.staging_start(inf_us, 2) == (1, 8)
    assert rf.staging_start(inf_us, 4) == (1, 6)
    assert rf.staging_start(inf_de, 4) == (2, 0)


# -- West-bank units ---------------------------------------------------------------------------


@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_enter_on_the_west_section() -> None:
    s = state({}, turn=5)
    assert ("w1", "W") in rf.due(B, s, "allied", 5)
    assert rf.check_entry(B, s, "w1", "0103") is None
    assert rf.is_west_bank(B, "w1") and not rf.is_west_bank(B, "a1")


@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_may_not_cross_the_meuse_before_25_german_vp() -> None:
    s = state({"w1": "0303", "a1": "0303"}, turn=6, vp=VictoryPoints(german=24, allied=3))
    r = rf.meuse_crossing_forbidden(B, s, "w1", "0303", "0403")
    assert r is not None and r.case == "AO-14.3C"
    r = rf.meuse_crossing_forbidden(B, s, "w1", "0403", "0303")  # either direction
    assert r is not None and r.case == "AO-14.3C"
    assert rf.meuse_crossing_forbidden(B, s, "w1", "0303", "0304") is None  # not the Meuse
    assert rf.meuse_crossing_forbidden(B, s, "a1", "0303", "0403") is None  # not WB
    assert rf.meuse_crossing_forbidden(B, s, "w1", "0303", "0403", released=True) is None
    s25 = msgspec.structs.replace(s, vp=VictoryPoints(german=25, allied=3))
    assert rf.meuse_crossing_forbidden(B, s25, "w1", "0303", "0403") is None


# -- the real map and schedules ------------------------------------------------------------------


def _real(number: int) -> tuple[Board, GameState]:
    return scenario_start(number)


@pytest.mark.rule("AO-14.1A")
def test_every_section_has_entry_hexes_at_the_start_of_scenario_1() -> None:
    board, st = _real(1)
    for sec in ALLIED_SECTIONS:
        assert rf.entry_hexes(board, st, "allied", sec), sec
    assert rf.entry_hexes(board, st, "allied", "NE") == ("2501", "3001", "3401")
    assert rf.entry_hexes(board, st, "allied", "SE") == ("1945", "2545", "3045", "3245")
    assert rf.entry_hexes(board, st, "allied", "W") == ("0110", "0118", "0122")
    assert rf.entry_hexes(board, st, "german", "east") == (
        "4209",
        "4215",
        "4219",
        "4229",
        "4237",
        "4239",
    )


@pytest.mark.rule("AO-17.d")
@pytest.mark.parametrize("number", [1, 2, 4])
def test_the_schedules_drive_due(number: int) -> None:
    board, st = _real(number)
    sc = load_scenario(number)
    for turn in range(1, 19):
        for side in ("german", "allied"):
            got = rf.due(board, st, side, turn)
            want = sorted(
                (a.unit, rf.entry_section_of(a.section))
                for a in sc.arrivals
                if a.turn == turn and board.defs[a.unit].side == side and a.section != "drop"
            )
            assert list(got) == want, (turn, side)
            rows = [rf.placed(st, u, rf.entry_hexes(board, st, side, sec)[0]) for u, sec in got]
            st = st.replace_units(rows)


@pytest.mark.rule("AO-17.d")
def test_historical_game_turn_2_arrivals() -> None:
    board, st = _real(1)
    assert rf.due(board, st, "allied", 2) == tuple(
        sorted(
            [(u, "NE") for u in ("us-cca7", "us-ccb7", "us-ccr7", "us-39-i", "us-47-i")]
            + [("us-26-i", "NE"), ("us-517-pi", "NE")]
            + [(u, "SE") for u in ("us-cca10", "us-ccb10", "us-ccr10")]
        )
    )
    assert rf.due(board, st, "german", 1) == (("de-1-a", "east"),)
    # de-1-a not placed on GT1 (the German may hold back) is still due on GT2
    assert rf.due(board, st, "german", 2) == (("de-1-a", "east"), ("de-2-a", "east"))
    _b2, st2 = _real(2)
    assert rf.due(_b2, st2, "german", 2) == (
        ("de-1-a", "east"),
        ("de-2-a", "east"),
        ("de-2ss-a", "east"),
        ("de-3ss-ai", "east"),
        ("de-fe", "east"),
    )
