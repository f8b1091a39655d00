"""The German paradrop (AO-15) on a 4 x 3 map worked out by hand::

    row 1   e  .  .  x        0101 Allied Map Edge hex, 0401 impassable
    row 2   .  A  g  D        A: Allied unit at 0202; g: German regiment at 0302;
    row 3   .  .  .  E           D: German infantry division at 0402; 0403 east edge

The Allied unit at 0202 (an even row) controls 0301, 0201, 0302, 0102, 0303 and 0203.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao import paradrop
from rules.ao import paradrop as pd
from rules.ao.combat import defender_supply
from rules.ao.commands import Drop, EndPhase, Move, Roll
from rules.ao.engine import Applied, apply, drop_hexes, drop_required
from rules.ao.events import UnitEliminated, VictoryPointsScored
from rules.ao.movement import legal_moves, movement_allowance
from rules.ao.scenario import Arrival
from rules.ao.state import Board, GameState, Phase, UnitState, VictoryPoints
from rules.ao.supply import supply_judgment
from rules.ao.victory import tabulate, tally
from rules.dice import DieRoll, ScriptedDice
from rules.rejection import Rejection
from tests.kit.engine import make_map, ok, outcome, refused, rm, unit, with_phase
from tests.kit.realmap import RealScenario
from tests.kit.ring import B as RING
from tests.kit.ring import state as ring_state

GRID = """
e . . x
. . . .
. . . E
"""


def _board() -> Board:
    defs = [
        unit("vdh", "german"),
        unit("g", "german"),
        unit("div", "german", size="XX"),
        unit("a", "allied"),
    ]
    return Board(make_map(GRID), defs, arrivals=[Arrival("vdh", 2, "drop")])


B = _board()


def _state(turn: int = 2, phase: Phase = "initial_movement", dice: int = 7) -> GameState:
    return GameState(
        scenario=0,
        turn=turn,
        side="german",
        phase=phase,
        units=(
            UnitState(id="a", hex="0202"),
            UnitState(id="div", hex="0402"),
            UnitState(id="g", hex="0302"),
            UnitState(id="vdh", status="not_arrived"),
        ),
        dice_drawn=dice,
    )


@pytest.mark.rule("AO-15.a")
def test_the_drop_is_pending_at_the_start_of_the_gt2_german_initial_movement_phase() -> None:
    assert pd.drop_unit(B) == "vdh" and pd.drop_turn(B) == 2
    assert pd.drop_pending(B, _state())
    assert not pd.drop_pending(B, _state(phase="reinforcement"))
    assert not pd.drop_pending(B, _state(phase="mechanized_movement"))
    assert not pd.drop_pending(B, _state(turn=3))
    r = pd.check_not_pending(B, _state(), "any other move")
    assert isinstance(r, Rejection) and r.case == "AO-15.a"
    assert pd.check_not_pending(B, _state(turn=3), "any other move") is None


@pytest.mark.rule("AO-15.a")
def test_where_the_unit_may_drop() -> None:
    s = _state()
    # open: 0103, 0403 only; 0302 holds the German g but is in the ZOC of a (0202): no drop
    # "in an Allied Zone of Control", with no exception for a German-held hex (AO-15.a)
    assert pd.drop_hexes(B, s) == ("0103", "0403")
    cases = {
        "0202": "AO-15.a",  # Allied-occupied
        "0201": "AO-15.a",  # Allied ZOC
        "0203": "AO-15.a",
        "0302": "AO-15.a",  # Allied ZOC, German-held
        "0401": "AO-15.a",  # impassable
        "0101": "AO-5.3L",  # Allied Map Edge hex
        "0402": "AO-8.2C",  # a German infantry division stacks with nothing
    }
    for h, case in cases.items():
        r = pd.check_drop(B, s, h)
        assert r is not None and r.case == case, h
    assert pd.check_drop(B, s, "0103") is None
    r = pd.check_drop(B, _state(turn=3), "0103")
    assert r is not None and r.case == "AO-15.a"
    assert pd.drop_hexes(B, _state(turn=3)) == ()


@pytest.mark.rule("AO-15.b")
def test_a_one_or_a_two_survives_and_may_move_that_phase() -> None:
    for value in (1, 2):
        r = pd.resolve_drop(B, _state(), "0103", ScriptedDice([value], start=7))
        assert isinstance(r, pd.DropResult)
        assert r.survived
        assert (r.roll.index, r.roll.value, r.roll.purpose) == (7, value, "paradrop")
        assert r.state.dice_drawn == 8
        assert r.unit == UnitState(id="vdh", hex="0103", status="on_map", supply="supplied")
        assert r.state.unit("vdh") == r.unit
        assert not pd.drop_pending(B, r.state)
        assert outcome(B, r.state, "vdh", "0203") == 1  # it moves in that phase


@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-16.A")
def test_three_to_six_eliminates_the_unit_one_vp_to_the_allies() -> None:
    for value in (3, 4, 5, 6):
        r = pd.resolve_drop(B, _state(), "0403", ScriptedDice([value], start=7))
        assert isinstance(r, pd.DropResult)
        assert not r.survived
        assert r.unit == UnitState(id="vdh", status="eliminated")
        assert r.state.dice_drawn == 8
        assert tabulate(B, r.state).allied == 1


@pytest.mark.rule("AO-15.b")
def test_a_refused_drop_draws_no_die() -> None:
    r = pd.resolve_drop(B, _state(), "0202", ScriptedDice([], start=7))
    assert isinstance(r, Rejection) and r.case == "AO-15.a"


@pytest.mark.rule("AO-15.a")
def test_von_der_heydte_on_the_real_map(real_scenario: RealScenario) -> None:
    board, st = real_scenario(1)
    assert pd.drop_unit(board) == "de-vdh"
    gt2 = msgspec.structs.replace(st, turn=2, side="german", phase="initial_movement")
    assert pd.drop_pending(board, gt2)
    hexes = pd.drop_hexes(board, gt2)
    m = board.game_map
    assert hexes and not any(m.is_allied_edge(h) for h in hexes)
    assert not any(m.hex(h).terrain == "impassable" for h in hexes)
    allied = {u.hex for u in gt2.units if u.hex and board.defs[u.id].side == "allied"}
    assert not allied & set(hexes)
    # no hex next to an Allied unit (not in Road Mode), German-held or not (AO-15.a)
    near = {
        n
        for u in gt2.units
        if u.hex and u.status == "on_map" and not u.road_mode
        if board.defs[u.id].side == "allied" and not m.is_allied_edge(u.hex)
        for n in m.neighbours(u.hex)
    }
    assert near and not near & set(hexes)
    german_held_near = {h for h in near for o in gt2.at(h) if board.defs[o.id].side == "german"}
    assert german_held_near  # the start line: German units next to American ones
    for h in sorted(german_held_near)[:3]:
        r = pd.check_drop(board, gt2, h)
        assert r is not None and r.case == "AO-15.a", h


# == found by the rule audit: the paradrop on the ring map (AO-15) ================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
#
# Found by these tests, since fixed: von der Heydte could drop on or next to a German Road Mode
# unit (AO-6.5G).


def drop_state(
    units: dict[str, str | UnitState], *, turn: int = 2, phase: Phase = "initial_movement"
) -> GameState:
    """The German Initial Movement Phase of GT2 on the ring map, von der Heydte not dropped."""
    return with_phase(ring_state(units, turn=turn, side="german"), phase)


@pytest.mark.audit
@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-6.6J")
@pytest.mark.rule("AO-8.0")
def test_where_von_der_heydte_may_and_may_not_drop() -> None:
    """AO-15.a: "any hex which is not occupied by an Allied unit or in an Allied Zone of
    Control, with the exception of Impassable hexes"; Allied units on edge hexes have no ZOC
    (AO-7.5E), Road Mode units none beyond their hex (AO-6.6J); a German unit negates Allied
    ZOC for moving and supply (AO-7.2B, AO-12.1A) but not for the drop: the hex is still "in
    an Allied Zone of Control" (AO-15.a, rules notes); the stacking limit holds (AO-8.0)."""
    units: dict[str, str | UnitState] = {
        "ax": "0601",  # on the NE edge: no ZOC
        "ai": rm("ai", "0404"),  # Road Mode
        "a0": "0204",  # controls 0303 0304 0305 0205 0104 0203
        "ga": "0303",  # in a0's ZOC: German-held, still closed to the drop
        "gb": "0605",
        "gm": "0605",
    }
    s = drop_state(units)
    check = {h: paradrop.check_drop(RING, s, h) for h in RING.game_map}
    case = {h: (r.case if r is not None else None) for h, r in check.items()}
    assert case["0602"] is None and case["0502"] is None  # next to the edge-hex unit
    assert case["0403"] is None and case["0405"] is None  # next to the Road Mode unit
    assert case["0404"] == "AO-15.a"  # Allied-occupied
    assert case["0304"] == "AO-15.a" and case["0203"] == "AO-15.a"  # Allied ZOC
    assert case["0303"] == "AO-15.a"  # German-held, in a0's ZOC: no exception (AO-15.a)
    assert "does not negate" in str(check["0303"])
    assert case["0601"] == "AO-5.3L" and case["0101"] == "AO-5.3L"  # Allied Map Edge
    assert case["0801"] == "AO-15.a"  # impassable corner
    assert paradrop.check_drop(RING, s, "1299") is not None  # not on the map
    assert refused(RING, s, Drop(hex="ab12")) == "AO-15.a"  # no hex id at all
    # gb and gm share 0605: von der Heydte makes three regiments there, the limit; with ga
    # there too he would make four
    assert case["0605"] is None
    full = drop_state({**units, "ga": "0605"})
    r = paradrop.check_drop(RING, full, "0605")
    assert r is not None and r.case == "AO-8.0"
    # what drop_hexes offers is exactly what check_drop accepts
    assert set(drop_hexes(RING, s)) == {h for h, c in case.items() if c is None}


@pytest.mark.audit
@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-6.5G")
def test_von_der_heydte_does_not_land_in_a_road_column() -> None:
    """AO-6.5G: "A unit in Road Mode may not stack with, nor be adjacent to, any other unit on
    that Road hex, or adjacent connected Road hexes regardless of whether or not the other unit
    is in Road Mode"; the paratroop unit lands in normal mode (AO-15.b), so it may not land on
    or next to (along the road 0803-0703) a German Road Mode unit. Before the fix the drop was
    accepted and left an illegal position (found by this audit)."""
    s = drop_state({"gm": rm("gm", "0703")})
    for h in ("0703", "0803"):
        r = paradrop.check_drop(RING, s, h)
        assert r is not None and r.case == "AO-6.5G", h
        assert h not in drop_hexes(RING, s)
    assert refused(RING, s, Drop(hex="0803")) == "AO-6.5G"
    # next to it but not along a road (0603 - 0703 is no road hexside): allowed
    assert paradrop.check_drop(RING, s, "0603") is None
    # a staging reinforcement on its entry hex is a Road Mode unit as well
    staged = drop_state({"g1": rm("g1", "0803", staging=0)})
    assert {"0803", "0703"}.isdisjoint(drop_hexes(RING, staged))
    # an Allied Road Mode unit is no friend: spacing does not apply (its hex is occupied)
    allied = drop_state({"ai": rm("ai", "0703")})
    assert paradrop.check_drop(RING, allied, "0803") is None


def dropped(s: GameState, hex_id: str, dice: ScriptedDice) -> Applied:
    """``Drop(hex_id)`` (no die) then ``Roll`` (the survival die, AO-15.b): the roll's
    result."""
    named = apply(RING, s, Drop(hex=hex_id))
    assert isinstance(named, Applied) and named.state.dice_drawn == s.dice_drawn, named
    rolled = apply(RING, named.state, Roll(), dice)
    assert isinstance(rolled, Applied), rolled
    return rolled


@pytest.mark.audit
@pytest.mark.rule("AO-15.a")
def test_the_drop_comes_first_once_and_only_in_its_phase() -> None:
    """AO-15.a: "On Game-Turn 2 the German Player must drop"; it "occurs at the start of the
    Initial German Movement Phase before any other movement takes place"."""
    dice = ScriptedDice([2, 2, 2], start=0)
    s = drop_state({"ga": "0303"})
    assert drop_required(RING, s)
    assert refused(RING, s, Move(unit="ga", path=("0302",))) == "AO-15.a"
    assert refused(RING, s, EndPhase()) == "AO-15.a"
    # not in the German Reinforcement Phase, not in the Allied Initial Movement Phase
    early = drop_state({"ga": "0303"}, phase="reinforcement")
    assert refused(RING, early, Drop(hex="0503")) == "AO-15.a"
    allied = with_phase(ring_state({"ga": "0303"}), "initial_movement")
    assert refused(RING, allied, Drop(hex="0503")) == "AO-15.a"
    a = dropped(s, "0503", dice)
    assert a.state.unit("vdh").hex == "0503"
    # once: a second drop is refused; other moves go on
    assert refused(RING, a.state, Drop(hex="0403")) == "AO-15.a"
    ok(RING, a.state, Move(unit="ga", path=("0302",)))
    # Game-Turn 3, never dropped: nothing is due, the phase may end
    gt3 = drop_state({"ga": "0303"}, turn=3)
    assert not drop_required(RING, gt3)
    assert refused(RING, gt3, Drop(hex="0503")) == "AO-15.a"
    ok(RING, gt3, EndPhase())


# 0404 is two hexes from ax (0402), ai (0305) and s1 (0605), which control all six of its
# neighbours but not 0404 itself: a legal drop hex in which the unit lands cut off.
CUT_OFF = {"ax": "0402", "ai": "0305", "s1": "0605"}


@pytest.mark.audit
@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.0")
def test_a_surviving_drop_is_supplied_for_its_player_turn_then_traced_like_any_unit() -> None:
    """AO-15.b: "a 'one' or a 'two' and the unit survives. The unit is dropped in a supplied
    condition for that Player-Turn; thereafter, it must trace a supply path as a normal unit.
    If the unit survives it may move during that Movement Phase." Ringed at 0404, four hexes
    from the German exit 0803, von der Heydte is isolated as soon as he is traced."""
    s = drop_state(dict(CUT_OFF))
    assert paradrop.check_drop(RING, s, "0404") is None
    a = dropped(s, "0404", ScriptedDice([1], start=s.dice_drawn))
    row = a.state.unit("vdh")
    assert (row.status, row.supply, row.road_mode, row.moved) == (
        "on_map",
        "supplied",
        False,
        False,
    )
    assert movement_allowance(RING.defs["vdh"], row) == 8
    # it may move now: every neighbour is enemy-controlled, so one hex and stop (AO-7.1A)
    assert set(legal_moves(RING, a.state, "vdh")) == {
        "0503",
        "0504",
        "0505",
        "0405",
        "0304",
        "0403",
    }
    # the Allied player-turn: as a defender it is traced at the moment of combat - isolated
    allied = with_phase(a.state, "combat", side="allied")
    assert defender_supply(RING, allied, "german")["vdh"] == "isolated"
    # the German Supply Judgment of GT3 marks it isolated (attack zero, MA halved)
    gt3 = with_phase(a.state, "supply_judgment", turn=3)
    assert supply_judgment(RING, gt3, "german")["vdh"] == "isolated"


@pytest.mark.audit
@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-16.A")
def test_a_failed_drop_is_one_allied_vp_now_and_at_the_tabulation() -> None:
    """AO-15.b: "a 'one' or a 'two' and the unit survives" - a 3 destroys it; AO-16.A: "When a
    unit is destroyed, it is recorded as one Victory Point for the Enemy Player"."""
    s = drop_state({"ga": "0303", "gb": "0503", "gm": "0703", "ax": "0202"})
    a = dropped(s, "0404", ScriptedDice([3], start=s.dice_drawn))
    assert [type(e) for e in a.events] == [DieRoll, UnitEliminated, VictoryPointsScored]
    assert a.state.unit("vdh").status == "eliminated"
    assert a.state.vp == VictoryPoints(german=0, allied=1)
    # at the tabulation: von der Heydte is the only German unit lost; the Allied units never
    # placed (a0 a1 a2 s1 w1 not arrived) are not lost, ai (not placed, off the schedule) is
    t = tally(RING, with_phase(a.state, "mechanized_movement", side="allied"))
    assert (t.german_units_lost, t.allied_units_lost) == (1, 1)
    assert t.vp == VictoryPoints(german=1, allied=1)
