"""The German paradrop (AO-15) on a 4 x 3 map worked out by hand::

    row 1   e  .  .  x        0101 Allied Map Edge hex, 0401 impassable
    row 2   .  A  g  D        A: Allied unit at 0202; g: German regiment at 0302;
    row 3   .  .  .  E           D: German infantry division at 0402; 0403 east edge

The Allied unit at 0202 (an even row) controls 0301, 0201, 0302, 0102, 0303 and 0203.
"""

from __future__ import annotations

import msgspec
import pytest

from rules import paradrop as pd
from rules.dice import ScriptedDice
from rules.rejection import Rejection
from rules.scenario import Arrival
from rules.state import Board, GameState, Phase, UnitState
from rules.victory import tabulate
from tests.enginekit import make_map, outcome, scenario_start, unit

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
    # open: 0103, 0403; 0302 (German-held: its unit negates the Allied ZOC, AO-7.2B)
    assert pd.drop_hexes(B, s) == ("0103", "0302", "0403")
    cases = {
        "0202": "AO-15.a",  # Allied-occupied
        "0201": "AO-15.a",  # Allied ZOC
        "0203": "AO-15.a",
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
def test_von_der_heydte_on_the_real_map() -> None:
    board, st = scenario_start(1)
    assert pd.drop_unit(board) == "de-vdh"
    gt2 = msgspec.structs.replace(st, turn=2, side="german", phase="initial_movement")
    assert pd.drop_pending(board, gt2)
    hexes = pd.drop_hexes(board, gt2)
    m = board.game_map
    assert hexes and not any(m.is_allied_edge(h) for h in hexes)
    assert not any(m.hex(h).terrain == "impassable" for h in hexes)
    allied = {u.hex for u in gt2.units if u.hex and board.defs[u.id].side == "allied"}
    assert not allied & set(hexes)
