"""Reinforcements (AO-14, AO-4.2b, AO-4.2g, AO-17.d) on the small ring map of :mod:`tests.kit.ring`,
worked out by hand (drawn there). Neighbours used below: 0502 touches 0601 (and 0501), 0702 touches
0701, 0202 touches 0301, 0703 touches 0803.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao import reinforcements as rf
from rules.ao.commands import EndPhase, Move, Place, Roll
from rules.ao.engine import Applied, apply
from rules.ao.gamemap import ALLIED_SECTIONS
from rules.ao.scenario import Arrival
from rules.ao.state import Board, GameState, UnitState, VictoryPoints
from rules.ao.supply import supply_judgment
from rules.ao.units import Side
from rules.dice import ScriptedDice
from rules.rejection import Rejection
from scenarios import load_scenario
from tests.kit.engine import (
    attack,
    ended,
    make_map,
    meuse,
    ok,
    outcome,
    position,
    refused,
    rm,
    scenario_start,
    unit,
    with_phase,
)
from tests.kit.realmap import RealScenario
from tests.kit.ring import B, state

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


@pytest.mark.rule("AO-14.1A")
def test_every_section_has_entry_hexes_at_the_start_of_scenario_1(
    real_scenario: RealScenario,
) -> None:
    board, st = real_scenario(1)
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
def test_the_schedules_drive_due(real_scenario: RealScenario, number: int) -> None:
    board, st = real_scenario(number)
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
def test_historical_game_turn_2_arrivals(real_scenario: RealScenario) -> None:
    board, st = real_scenario(1)
    assert rf.due(board, st, "allied", 2) == tuple(
        sorted(
            [(u, "NE") for u in ("us-cca7", "us-ccb7", "us-ccr7", "us-39-i", "us-47-i")]
            + [("us-26-i", "NE"), ("us-517-pi", "NE")]
            + [(u, "SE") for u in ("us-cca10", "us-ccb10", "us-ccr10")]
        )
    )
    assert rf.due(board, st, "german", 1) == (("de-1-a", "east"),)
    # de-1-a not placed on GT1 (no entry hex open to it, say) is still due on GT2
    assert rf.due(board, st, "german", 2) == (("de-1-a", "east"), ("de-2-a", "east"))
    _b2, st2 = real_scenario(2)
    assert rf.due(_b2, st2, "german", 2) == (
        ("de-1-a", "east"),
        ("de-2-a", "east"),
        ("de-2ss-a", "east"),
        ("de-3ss-ai", "east"),
        ("de-fe", "east"),
    )


# == found by the rule audit: reinforcements (AO-14, AO-17.d) on the ring map =====================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
# Units neither placed nor on the schedule count as eliminated in ``ring_state``.
#
# Found by these tests, since fixed: the staging penalty of AO-14.2B counted units that entered
# on an earlier Game-Turn, and a West-bank release reached by the running VP was undone by a lower
# tabulation (AO-14.3C).

RING, ring_state = B, state  # the names the tests below and tests/rules/test_paradrop.py use


@pytest.mark.audit
@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-17.d")
def test_hostile_placements_are_refused_with_their_case() -> None:
    """AO-14.1A: Allied reinforcements "appear on any map edge hex adjacent to a road hex-side
    on the designated map edge section"; AO-14.1b: "never ... through an Enemy occupied or
    controlled hex"; AO-17.d: each unit on its own Game-Turn, set-up units never."""
    s = ring_state({"ga": "0502"})  # GT2 Allied Reinforcement Phase; 0502 controls 0601
    assert refused(RING, s, Place(unit="a1", hex="0606")) == "AO-14.1A"  # the SE exit
    assert refused(RING, s, Place(unit="a1", hex="0501")) == "AO-14.1A"  # NE edge, no road
    assert refused(RING, s, Place(unit="a1", hex="0602")) == "AO-14.1A"  # a live hex
    assert refused(RING, s, Place(unit="a1", hex="0803")) == "AO-14.1A"  # the German entry
    assert refused(RING, s, Place(unit="a1", hex="0601")) == "AO-14.1b"  # German ZOC
    assert refused(RING, s, Place(unit="a1", hex="9999")) == "AO-14.1A"  # no such hex
    assert refused(RING, s, Place(unit="a1", hex="ab12")) == "AO-14.1A"  # no hex id at all
    assert refused(RING, s, Place(unit="s1", hex="0606")) == "AO-17.d"  # due on GT3
    assert refused(RING, s, Place(unit="vdh", hex="0701")) == "AO-14.1A"  # German
    assert refused(RING, s, Place(unit="g2", hex="0803")) == "AO-14.1A"  # German, Allied phase
    assert refused(RING, s, Place(unit="ax", hex="0701")) == "AO-17.d"  # not a reinforcement
    a = ok(RING, s, Place(unit="a1", hex="0701"))
    row = a.state.unit("a1")
    assert (row.hex, row.status, row.road_mode, row.staging) == ("0701", "on_map", True, 0)


@pytest.mark.audit
@pytest.mark.rule("AO-14.1A")
def test_a_reinforcement_enters_once() -> None:
    """AO-14.1A: reinforcements "come into the game" once; a unit on the map, or eliminated
    after entering, is no longer due and cannot be placed again."""
    s = ok(RING, ring_state({}), Place(unit="a1", hex="0701")).state
    assert refused(RING, s, Place(unit="a1", hex="0601")) == "AO-14.1A"
    assert refused(RING, s, Place(unit="a1", hex="0701")) == "AO-14.1A"
    assert [u for u, _sec in rf.due(RING, s, "allied", 2)] == ["a0", "a2"]
    dead = s.replace_units([UnitState(id="a1", status="eliminated")])
    assert refused(RING, dead, Place(unit="a1", hex="0701")) == "AO-14.1A"
    later = msgspec.structs.replace(dead, turn=3)
    assert "a1" not in dict(rf.due(RING, later, "allied", 3))


@pytest.mark.audit
@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-4.1b")
def test_reinforcements_are_placed_only_in_their_own_reinforcement_phase() -> None:
    """AO-4.1b: in the Reinforcement Phase "the Phasing Player places all new units"; AO-14.1A:
    they "appear on the indicated map edge section" then - not in a later phase of the turn,
    nor in the enemy's player-turn."""
    for phase in ("supply_judgment", "initial_movement", "combat", "mechanized_movement"):
        s = with_phase(ring_state({}), phase)
        r = apply(RING, s, Place(unit="a1", hex="0701"))
        assert isinstance(r, Rejection), phase
    german = ring_state({}, side="german")
    assert refused(RING, german, Place(unit="a1", hex="0701")) == "AO-14.1A"


@pytest.mark.audit
@pytest.mark.rule("AO-4.2g")
@pytest.mark.rule("AO-14.1A")
def test_no_allied_reinforcements_on_game_turn_1_they_come_on_game_turn_2() -> None:
    """AO-4.2g: "Allied Reinforcement Phase: There are no Allied reinforcements" on GT1; a unit
    the schedule brings on GT1 (a0) cannot be placed then, the phase ends without it, and it
    is due - not voluntarily delayable (AO-14.1A) - on GT2."""
    s = ring_state({}, turn=1)
    assert refused(RING, s, Place(unit="a0", hex="0601")) == "AO-4.2g"
    assert ok(RING, s, EndPhase()).state.phase == "supply_judgment"
    s2 = ring_state({})
    assert [u for u, _sec in rf.due(RING, s2, "allied", 2)] == ["a0", "a1", "a2"]
    assert refused(RING, s2, EndPhase()) == "AO-14.1A"


@pytest.mark.audit
@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-14.3C")
def test_a_delayed_west_bank_unit_falls_back_from_the_west_section() -> None:
    """AO-14.3C: WB units "enter on the West section"; AO-14.1b: when the German controls all
    of its road exits they are "delayed one Game-Turn and then enter on the adjacent map edge
    segment" (W -> NW, rules notes). ga at 0203 controls the only W exit, 0103."""
    s = ring_state({"ga": "0203"}, turn=5)
    assert rf.blocked(RING, s, "W")
    assert "w1" not in dict(rf.due(RING, s, "allied", 5))
    delays = rf.delays_for_phase(RING, s, "allied", 5)
    assert [d for d in delays if d.unit == "w1"] == [
        rf.Delay(unit="w1", turn=6, section="W", delays=1)
    ]
    assert (
        refused(RING, msgspec.structs.replace(s, delayed=delays), Place(unit="w1", hex="0301"))
        == "AO-14.1b"
    )
    gt6 = ring_state({}, turn=6, delayed=delays)
    assert dict(rf.due(RING, gt6, "allied", 6))["w1"] == "NW"
    assert refused(RING, gt6, Place(unit="w1", hex="0103")) == "AO-14.1A"
    assert ok(RING, gt6, Place(unit="w1", hex="0301")).state.delayed == tuple(
        d for d in delays if d.unit != "w1"
    )


@pytest.mark.audit
@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-14.2B")
@pytest.mark.rule("AO-15.a")
def test_german_units_due_from_earlier_turns_enter_on_the_east_edge_only() -> None:
    """AO-14.1A: German reinforcements "appear on any map edge hex adjacent to a road hex-side
    on the East edge of the map; also in Road Mode" (one that could not enter stays due);
    AO-14.1b: never through an enemy-occupied or -controlled hex; AO-15.a: von der Heydte
    enters only by his drop."""
    s = ring_state({}, turn=4, side="german")  # g1 (GT1) not entered yet, g2 (GT4) due
    assert dict(rf.due(RING, s, "german", 4)) == {"g1": "east", "g2": "east"}
    assert refused(RING, s, Place(unit="g2", hex="0601")) == "AO-14.1A"  # an Allied exit
    assert refused(RING, s, Place(unit="g2", hex="0802")) == "AO-14.1A"  # east edge, no road
    assert refused(RING, s, Place(unit="vdh", hex="0803")) == "AO-15.a"  # he drops
    s = ok(RING, s, Place(unit="g1", hex="0803")).state
    a = ok(RING, s, Place(unit="g2", hex="0803"))
    assert (a.state.unit("g1").staging, a.state.unit("g2").staging) == (0, 2)
    # an Allied unit on the entry hex, or controlling it from 0703: refused
    occupied = ring_state({"ax": "0803"}, turn=4, side="german")
    assert refused(RING, occupied, Place(unit="g2", hex="0803")) == "AO-14.1b"
    controlled = ring_state({"ax": "0703"}, turn=4, side="german")
    assert refused(RING, controlled, Place(unit="g2", hex="0803")) == "AO-14.1b"


@pytest.mark.audit
@pytest.mark.rule("AO-14.2B")
def test_staging_counts_per_entry_hex() -> None:
    """AO-14.2B: "Reinforcements which choose to use the same entry road hex ... lose two road
    hexes in movement for every unit which preceded them onto the map in that same Phase" -
    units that used another entry hex of the section do not count."""
    s = ring_state({})
    s = ok(RING, s, Place(unit="a0", hex="0601")).state
    s = ok(RING, s, Place(unit="a1", hex="0701")).state
    s = ok(RING, s, Place(unit="a2", hex="0601")).state
    assert [s.unit(u).staging for u in ("a0", "a1", "a2")] == [0, 0, 2]


@pytest.mark.audit
@pytest.mark.rule("AO-14.2B")
def test_staging_counts_only_units_that_entered_in_the_same_phase() -> None:
    """AO-14.2B: the loss is "two road hexes ... for every unit which preceded them onto the
    map in that same Phase". g1 entered on an earlier Game-Turn and has waited on the entry hex
    0803 since (alone there, so it stays, ``staging == 0``); g2 enters there on Game-Turn 4 as
    the first unit of that Reinforcement Phase: it loses nothing."""
    gone = {u: UnitState(id=u, status="eliminated") for u in ("a0", "a1", "a2", "s1", "w1")}
    s = ring_state({"g1": rm("g1", "0803", staging=0), **gone}, turn=3, side="german")
    s = ended(RING, with_phase(s, "mechanized_movement"), 6)  # to the GT4 German phase
    assert (s.turn, s.side, s.phase) == (4, "german", "reinforcement")
    assert s.unit("g1").hex == "0803"
    a = ok(RING, s, Place(unit="g2", hex="0803"))
    assert a.state.unit("g2").staging == 0


@pytest.mark.audit
@pytest.mark.rule("AO-14.1b")
def test_a_section_controlled_by_an_unsupplied_german_is_still_blocked() -> None:
    """AO-14.1b: reinforcements are delayed when the German "has occupied or controls all of
    the road exit hexes" of their section; control is the Zone of Control (AO-7.0), which
    supply does not affect (AO-12.6 changes strength and movement only). ga at 0602 controls
    both NE exits 0601 and 0701; the Allied ax on the German source 0803 leaves ga without
    supply."""
    s = ring_state({"ga": "0602", "ax": "0803"})
    assert supply_judgment(RING, s, "german") == {"ga": "unsupplied"}
    assert rf.blocked(RING, s, "NE")
    assert rf.due(RING, s, "allied", 2) == ()
    assert [
        (d.unit, d.turn, d.section, d.delays) for d in rf.delays_for_phase(RING, s, "allied", 2)
    ] == [
        ("a0", 3, "NE", 1),
        ("a1", 3, "NE", 1),
        ("a2", 3, "NE", 1),
    ]
    # the phase may end: nothing can enter (AO-14.1A obliges only units that can)
    entered = ok(RING, with_phase(s, "mechanized_movement", side="german"), EndPhase()).state
    assert (entered.side, entered.phase) == ("allied", "reinforcement")
    assert ok(RING, entered, EndPhase()).state.phase == "supply_judgment"


# A one-row map with a Meuse bridge 0201/0301 on the road, for the West-bank unit w.
WB_MAP = meuse(
    make_map(". . . .", roads=["0101-0201-0301-0401"], bridges=["0201/0301"]), "0201/0301"
)


def wb_board() -> Board:
    units = [unit("w", "allied", ma=8), unit("g1"), unit("a1", "allied")]
    return Board(WB_MAP, units, arrivals=[Arrival("w", 5, "WB")])


@pytest.mark.audit
@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_enter_on_the_west_section_and_keep_off_the_meuse_bridges() -> None:
    """AO-14.3C: WB units "enter on the West section of the map. They may not cross the Meuse
    River until the German Player accumulates 25 or more Victory Points. They may attack Enemy
    units which cross the Meuse and those Enemy units adjacent to it." A bridge is a way
    across the river, in Road Mode or not."""
    s = ring_state({}, turn=5)
    assert dict(rf.due(RING, s, "allied", 5))["w1"] == "W"
    assert refused(RING, s, Place(unit="w1", hex="0301")) == "AO-14.1A"  # NW
    assert refused(RING, s, Place(unit="w1", hex="0701")) == "AO-14.1A"  # NE
    assert ok(RING, s, Place(unit="w1", hex="0103")).state.unit("w1").hex == "0103"
    b = wb_board()
    move = position({"w": "0201", "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, move, "w", "0301") == "AO-14.3C"
    road = position({"w": rm("w", "0201"), "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, road, "w", "0301") == "AO-14.3C"
    back = position({"w": "0301", "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, back, "w", "0201") == "AO-14.3C"
    assert outcome(b, msgspec.structs.replace(move, wb_released=True), "w", "0301") == 1
    # the attack across the Meuse bridge is allowed
    fight = position({"w": "0201", "g1": "0301"}, turn=6, side="allied", phase="combat")
    ok(b, fight, attack(["w"], ["0301"]))


@pytest.mark.audit
@pytest.mark.rule("AO-14.3C")
@pytest.mark.rule("AO-16.E")
def test_a_west_bank_release_by_the_running_vp_is_for_good() -> None:
    """AO-14.3C: WB units "may not cross the Meuse River until the German Player accumulates
    25 or more Victory Points"; rules notes (AO-14.3C, engine): released "once a tabulation
    shows 25 German VP ..., and also at any moment the running VP reach 25 (kills score at
    once); a later drop under 25 does not lock them again". Kills brought the running total
    to 25 in GT6 (w1 may cross then); the GT6 tabulation, the exits lost, shows 2."""
    s = ring_state({"w1": "0303", "ga": "0705"}, turn=6, vp=VictoryPoints(german=25, allied=0))
    ok(RING, with_phase(s, "initial_movement"), Move(unit="w1", path=("0403",)))
    r = apply(RING, with_phase(s, "mechanized_movement"), EndPhase())
    assert isinstance(r, Applied)
    assert r.state.vp.german == 2  # ax and ai lost
    rolled = apply(RING, r.state, Roll(), ScriptedDice([6], start=0))  # the GT7 CRT switch
    assert isinstance(rolled, Applied)
    gt7 = with_phase(rolled.state, "initial_movement", turn=7, side="allied")
    ok(RING, gt7, Move(unit="w1", path=("0403",)))


@pytest.mark.audit
@pytest.mark.rule("AO-17.d")
@pytest.mark.rule("AO-18.a*")
def test_each_scenario_brings_its_units_on_its_own_schedule() -> None:
    """AO-17.d and the errata lists: 39 i arrives on GT2 at the historical rate and on GT3 at
    the slowed rate (scenario 4); 2ss a on GT4 historically and on GT2 at the accelerated rate
    (scenario 2, errata 18.0); ccr5 (historical GT6) never arrives at the slowed rate."""

    def at_gt2(n: int, side: Side) -> tuple[Board, GameState]:
        b, s = scenario_start(n)
        return b, msgspec.structs.replace(s, turn=2, side=side, phase="reinforcement")

    b1, s1 = at_gt2(1, "allied")
    assert rf.check_entry(b1, s1, "us-39-i", "3001") is None
    b4, s4 = at_gt2(4, "allied")
    bad = rf.check_entry(b4, s4, "us-39-i", "3001")
    assert bad is not None and bad.case == "AO-17.d"
    assert "us-ccr5" not in rf.schedule(b4) and "us-ccr5" in rf.schedule(b1)
    b1g, s1g = at_gt2(1, "german")
    bad = rf.check_entry(b1g, s1g, "de-2ss-a", "4219")
    assert bad is not None and bad.case == "AO-17.d"
    b2g, s2g = at_gt2(2, "german")
    assert rf.check_entry(b2g, s2g, "de-2ss-a", "4219") is None
