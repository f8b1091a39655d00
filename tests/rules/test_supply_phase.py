"""The Supply Judgment Phase and interdiction through the engine (AO-12.0, AO-12.0*, AO-12.4K,
AO-12.5L, AO-12.6, AO-13.1A, AO-13.2B/C, AO-13.b*, AO-13.c*, AO-13.4E, AO-4.2b).

Map ``BR``: ten hexes in a row, a road along all of them to the German source 1001 (east edge),
a bridge 0501/0601. An Allied unit within three hexes of 0501 or 0601 interdicts the bridge for
the German; German units west of it then trace supply only across it (AO-13.2B).
"""

from __future__ import annotations

import importlib.resources

import pytest

from rules.combat import defender_supply
from rules.commands import Advance, DeclareAttack, EndPhase, Move, ResolveAttacks
from rules.dice import ScriptedDice
from rules.engine import Applied, apply
from rules.events import InterdictionSet, SupplyChanged
from rules.movement import legal_moves, movement_allowance
from rules.start_line import german_side
from rules.state import UnitState
from tests.enginekit import board, ended, make_map, position, scenario_start, unit

BR = make_map(
    ". . . . . . . . . E",
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001"],
    bridges=["0501/0601"],
)
BRIDGE = ("0501", "0601")
B = board(
    BR,
    [
        unit("g1", ma=8),
        unit("g2", mech=True, ma=12, strength=36),
        unit("a1", "allied"),
        unit("a2", "allied"),
    ],
)
HAVE_REAL_MAP = importlib.resources.files("scenarios").joinpath("ardennes", "map.json").is_file()


@pytest.mark.rule("AO-12.0")
@pytest.mark.rule("AO-13.1A")
@pytest.mark.rule("AO-12.3G")
@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-12.4K")
def test_entering_supply_judgment_interdicts_then_judges_the_phasing_side() -> None:
    # a1 in 0301 is 2 hexes from 0501: the bridge is interdicted for the German; g1 in 0401
    # then has no supply path (0501 needs the bridge); g2 on the net east of it is supplied;
    # a2's marker is not touched in the German player-turn
    s = position(
        {"g1": "0401", "g2": "0801", "a1": "0201", "a2": "0101"},
        phase="reinforcement",
    )
    r = apply(B, s, EndPhase())
    assert isinstance(r, Applied)
    assert InterdictionSet(side="german", bridges=(BRIDGE,), case="AO-13.1A") in r.events
    assert SupplyChanged(unit="g1", supply="unsupplied", case="AO-12.3G") in r.events
    st = r.state
    assert st.interdicted.german == (BRIDGE,) and st.interdicted.allied == ()
    assert (st.unit("g1").supply, st.unit("g2").supply, st.unit("a1").supply) == (
        "unsupplied",
        "supplied",
        "supplied",
    )
    # Initial Movement: the marker halves g1's MA (8 -> 4) and the stored bridge is closed
    im = ended(B, st)
    assert movement_allowance(B.defs["g1"], im.unit("g1")) == 4
    assert max(r.cost for r in legal_moves(B, im, "g1").values()) <= 4
    assert "0501" not in legal_moves(B, im, "g2")  # only across the interdicted bridge


@pytest.mark.rule("AO-12.0*")
@pytest.mark.rule("AO-12.4K")
def test_the_judged_marker_holds_for_the_whole_player_turn() -> None:
    s = ended(B, position({"g1": "0401", "g2": "0801", "a1": "0201"}, phase="reinforcement"), 2)
    assert s.phase == "initial_movement" and s.unit("g2").supply == "supplied"
    # g2 moves: its marker does not change...
    moved = apply(B, s, Move(unit="g2", path=("0701", "0601")))
    assert isinstance(moved, Applied) and moved.state.unit("g2").supply == "supplied"
    # ...and g1 stays unsupplied whatever happens until the end of the player-turn
    c = ended(B, moved.state)
    assert c.phase == "combat" and c.unit("g1").supply == "unsupplied"
    end = ended(B, c, 2)
    assert (end.side, end.phase) == ("allied", "reinforcement")
    assert end.unit("g1").supply == "supplied"  # markers removed (AO-4.1b)


@pytest.mark.rule("AO-12.5L")
@pytest.mark.rule("AO-12.3H")
def test_isolated_units_stay_on_the_map() -> None:
    m = make_map(". . . . .")
    b = board(m, [unit("g"), unit("a1", "allied"), unit("a2", "allied")])
    s = position({"a1": "0201", "g": "0301", "a2": "0401"}, phase="reinforcement")
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied)
    assert SupplyChanged(unit="g", supply="isolated", case="AO-12.3H") in r.events
    assert r.state.unit("g").status == "on_map"


@pytest.mark.rule("AO-13.b*")
@pytest.mark.rule("AO-13.2C")
@pytest.mark.rule("AO-13.2B")
def test_interdiction_lasts_the_player_turn_then_lifts() -> None:
    s = position({"g2": "0301", "a1": "0401"}, phase="combat", interdicted_german=["0501/0601"])
    s = apply(B, s, DeclareAttack(attackers=("g2",), defenders=("0401",))).state  # type: ignore[union-attr]
    r = apply(B, s, ResolveAttacks(), ScriptedDice([1]))  # 36-4 9-1: De
    assert isinstance(r, Applied) and r.state.unit("a1").status == "eliminated"
    declined = apply(B, r.state, Advance(hex="0401"))  # g2 stays (AO-9.6N)
    assert isinstance(declined, Applied)
    mech = ended(B, declined.state)
    assert mech.phase == "mechanized_movement"
    assert mech.interdicted.german == (BRIDGE,)  # the interdicting unit is gone: still cut
    assert "0601" not in legal_moves(B, mech, "g2")
    end = apply(B, mech, EndPhase())
    assert isinstance(end, Applied)
    assert InterdictionSet(side="german", bridges=(), case="AO-13.2C") in end.events
    assert end.state.interdicted.german == ()


@pytest.mark.rule("AO-13.c*")
@pytest.mark.rule("AO-12.0")
def test_defender_supply_uses_the_attackers_interdiction_at_the_moment_of_combat() -> None:
    near = position({"g1": "0401", "a1": "0201"}, side="allied", phase="combat")
    far = position({"g1": "0401", "a1": "0101"}, side="allied", phase="combat")
    assert defender_supply(B, near, "german")["g1"] == "unsupplied"  # bridge cut by a1 now
    assert defender_supply(B, far, "german")["g1"] == "supplied"
    # the stored (stale) set does not matter
    stale = position(
        {"g1": "0401", "a1": "0101"},
        side="allied",
        phase="combat",
        interdicted_german=["0501/0601"],
    )
    assert defender_supply(B, stale, "german")["g1"] == "supplied"


@pytest.mark.rule("AO-4.2b")
def test_gt1_german_defenders_are_supplied_in_the_allied_combat() -> None:
    s = position({"g1": "0401", "a1": "0201"}, turn=1, side="allied", phase="combat")
    assert defender_supply(B, s, "german")["g1"] == "supplied"


@pytest.mark.rule("AO-13.4E")
@pytest.mark.rule("AO-13.1A")
@pytest.mark.skipif(not HAVE_REAL_MAP, reason="scenarios/ardennes/map.json not built")
def test_gt1_bridges_behind_the_german_start_line_stay_open() -> None:
    b, s = scenario_start(1)
    while s.phase != "supply_judgment":
        s = ended(b, s)
    ger = german_side(b.game_map)
    assert s.turn == 1 and s.interdicted.german
    assert all(not (x in ger and y in ger) for x, y in s.interdicted.german)
    assert all(u.supply == "supplied" for u in s.units if b.defs[u.id].side == "german")


def test_unit_state_marker_default() -> None:
    assert UnitState(id="x").supply == "supplied"
