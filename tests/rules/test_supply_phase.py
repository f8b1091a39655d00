"""The Supply Judgment Phase and interdiction through the engine (AO-12.0, AO-12.0*, AO-12.4K,
AO-12.5L, AO-12.6, AO-13.1A, AO-13.2B/C, AO-13.b*, AO-13.c*, AO-13.4E, AO-4.2b).

Map ``BR``: ten hexes in a row, a road along all of them to the German source 1001 (east edge),
a bridge 0501/0601. An Allied unit within three hexes of 0501 or 0601 interdicts the bridge for
the German; German units west of it then trace supply only across it (AO-13.2B).
"""

from __future__ import annotations

import pytest

from rules.ao.combat import defender_supply, preview_attack
from rules.ao.commands import Advance, DeclareAttack, EndPhase, Move, ResolveAttacks
from rules.ao.engine import Applied, apply
from rules.ao.events import InterdictionSet, SupplyChanged
from rules.ao.movement import legal_moves, movement_allowance
from rules.ao.start_line import german_side
from rules.ao.state import UnitState
from rules.dice import ScriptedDice
from rules.rejection import Rejection
from tests.kit.engine import (
    attack,
    board,
    cpos,
    declared,
    ended,
    make_map,
    ok,
    place_due,
    position,
    unit,
)
from tests.kit.realmap import RealScenario

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
    # g in 0302 (all six neighbours on the map) between a1 (0202) and a2 (0402), which hold
    # two of them and control the other four: surrounded, no source, no friend - isolated
    m = make_map(". . . . .\n. . . . .\n. . . . .")
    b = board(m, [unit("g"), unit("a1", "allied"), unit("a2", "allied")])
    s = position({"a1": "0202", "g": "0302", "a2": "0402"}, phase="reinforcement")
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
def test_gt1_bridges_behind_the_german_start_line_stay_open(real_scenario: RealScenario) -> None:
    b, s = real_scenario(1)
    while s.phase != "supply_judgment":
        s = ended(b, place_due(b, s))
    ger = german_side(b.game_map)
    assert s.turn == 1 and s.interdicted.german
    assert all(not (x in ger and y in ger) for x, y in s.interdicted.german)
    assert all(u.supply == "supplied" for u in s.units if b.defs[u.id].side == "german")


def test_unit_state_marker_default() -> None:
    assert UnitState(id="x").supply == "supplied"


# == found by the rule audit: supply at the moment of combat (AO-12.4K, AO-12.3) ==================
# Adversarial cases on small synthetic maps with scripted dice, every outcome worked out by hand
# from the rule text (AO-4.2, AO-6.6-6.7, AO-7.3, AO-9 to AO-13 and the errata). Maps carry no
# supply sources unless they have an ``E`` hex with a road, so a defender is unsupplied at the
# moment of combat (defence normal) unless all six of its neighbours are on the map and
# enemy-held or enemy-controlled and no supplied friend is within three hexes, when it is
# isolated (defence halved, AO-12.3H; a hex of a one-row map is never surrounded). ``LINE8`` is
# the eight-hex line ``0101``-``0801``.
#
# German Initial CRT rows (1-2 1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1 9-1):
#     1  Ar1 Dr1 Dr2 Dr3 Ex  Ex  De  De  De  De
#     2  Ar1 Dr1 Dr1 Dr2 Ex  Ex  Ex  De  De  De
#     4  Ar2 Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De
#     6  Ar2 Ar2 Dr1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De
# Standard CRT rows:
#     1  Ar1 Dr1 Dr1 Dr2 Dr3 Ex  Ex  Ex  De  De
#     4  Ar3 Ar2 Ar1 Dr1 Dr2 Dr2 Dr2 Dr3 Ex  De


# Five by three; the middle row carries a road 0102-0202-0302-0402-0502 to the German source
# 0502 (east edge).
ROAD5 = make_map(
    """
    . . . . .
    . . . . E
    . . . . .
    """,
    roads=["0102-0202-0302-0402-0502"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.4K")
@pytest.mark.rule("AO-12.0")
@pytest.mark.rule("AO-12.6")
def test_attack_reads_the_judged_marker_defence_is_traced_at_the_moment_of_combat() -> None:
    """AO-12.4K: the attack effect "is determined during the Supply Judgment Phase, and applies
    ... throughout ... the Combat Phase"; the defence effect "is determined at the moment of
    combat"; AO-12.6: unsupplied attack halved (rounding up), isolated defence halved."""
    b = board(ROAD5, [unit("g1", strength=6), unit("g2"), unit("a1", "allied", strength=4)])
    # g1 on the road to its source (a fresh trace: supplied) but judged unsupplied: 6 -> 3.
    # a1 carries a stale "isolated" marker, but at 0202 with 0102, 0201 and 0203 open it is
    # only unsupplied now: defence 4. 3 against 4 is 1-2.
    s = position(
        {
            "g1": UnitState(id="g1", hex="0302", supply="unsupplied"),
            "a1": UnitState(id="a1", hex="0202", supply="isolated"),
        },
        phase="combat",
    )
    p = preview_attack(b, s, ["g1"], ["0202"])
    assert not isinstance(p, Rejection), p
    assert (p.attack, p.defence, p.column) == (3, 4, "1-2")
    # a1 with a clean marker and g2 in 0102: g1 and g2 hold two of its neighbours and control
    # the other four (0301, 0303 from g1; 0201, 0203 from g2); no source, no friend - isolated
    # now, defence halved 4 -> 2; g1 supplied: 6 against 2 is 3-1
    s2 = position({"g1": "0302", "g2": "0102", "a1": "0202"}, phase="combat")
    p2 = preview_attack(b, s2, ["g1"], ["0202"])
    assert not isinstance(p2, Rejection), p2
    assert (p2.attack, p2.defence, p2.column) == (6, 2, "3-1")


@pytest.mark.audit
@pytest.mark.rule("AO-12.1A")
@pytest.mark.rule("AO-12.4K")
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.3J")
def test_defender_supply_is_traced_at_the_moment_of_combat() -> None:
    # Allied source: the road exit hexside 0102(edge)/0202; road 0102-0202-0302-0402.
    # a in 0602 reaches the road hex 0402 in two steps (0502, 0402): supplied, defends 4.
    m = make_map(
        """
        . . . . . . . . .
        e . . . . . . . .
        . . . . . . . . .
        """,
        roads=["0102-0202-0302-0402"],
    )
    b = board(m, [unit("g", strength=8), unit("g2"), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"a": "0602", "g": "0702"}), attack(["g"], ["0602"]))
    assert declared(r).defence == 4
    # g2 in 0502: g and g2 hold two of a's neighbours and control the other four (0701, 0703;
    # 0601, 0603) - no path; four hexes from the exit hexside: isolated, 4 -> 2
    r2 = ok(b, cpos({"a": "0602", "g": "0702", "g2": "0502"}), attack(["g"], ["0602"]))
    assert declared(r2).defence == 2
    # the same ring three hexes from the exit hexside (0502 to 0202): never isolated
    r3 = ok(b, cpos({"a": "0502", "g": "0602", "g2": "0402"}), attack(["g"], ["0502"]))
    assert declared(r3).defence == 4
