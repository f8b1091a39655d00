"""Road-column contacts left by retreats (AO-6.7N, AO-6.5G): the moves owed at the next
Initial Movement Phase, on small synthetic maps worked out by hand.

``LINE``: eight hexes in a row, a road through all of them to the German source 0801 (east
edge): German units on it are supplied. Each hex's road neighbours are its W and E neighbours.
"""

from __future__ import annotations

import pytest

from rules.ao.column import column_contacts, contact_fixes
from rules.ao.commands import LEAVE_ROAD_MODE, EndPhase, Move
from rules.ao.engine import Applied, apply
from rules.ao.events import RoadColumnContact, RoadModeChanged, UnitEliminated
from rules.ao.state import UnitState
from rules.rejection import Rejection
from tests.kit.engine import board, cpos, ended, fight, make_map, ok, position, retreats, unit

LINE = make_map(". . . . . . . E", roads=["0101-0201-0301-0401-0501-0601-0701-0801"])


def rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    return UnitState(id=uid, hex=hex_id, road_mode=True, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("AO-6.7N")
@pytest.mark.rule("AO-6.5G")
@pytest.mark.rule("AO-6.7L*")
def test_two_road_mode_units_left_side_by_side_by_a_retreat_must_be_moved_apart() -> None:
    """AO-6.7N: a Road Mode unit "which ends its retreat adjacent to another unit on the Road,
    is not eliminated; however, one or both of the units must be moved at the beginning of the
    next Friendly Initial Movement Phase, in order to conform to Case G"."""
    b = board(
        LINE,
        [
            unit("x", mech=True, ma=10),
            unit("y", mech=True, ma=10),
            unit("a", "allied", strength=4),
        ],
    )
    # Allied Combat Phase: a (4) on x in Road Mode (4 halved: 2, AO-6.6K), 2-1, Standard die
    # 1: Dr1. x's only hex one away is 0401 (0201 is Allied), next to y (Road Mode) in 0501.
    s = cpos({"a": "0201", "x": rm("x", "0301"), "y": rm("y", "0501")}, side="allied")
    r = fight(b, s, ["a"], ["0301"], [1])
    assert retreats(r) == [("x", ("0401",))]
    assert RoadColumnContact(unit="x", other="y", hex="0401") in r.events
    # to the German Initial Movement Phase of GT3: x leaves Road Mode (AO-6.7L*, 6 of its
    # 10 MP); y is still in Road Mode next to it on the road
    im = ended(b, r.state, 4)
    assert (im.turn, im.side, im.phase) == (3, "german", "initial_movement")
    assert (im.unit("x").road_mode, im.unit("x").mp_spent, im.unit("y").road_mode) == (
        False,
        6,
        True,
    )
    assert column_contacts(b, im, "german") == (("y", "x"),)
    refusal = apply(b, im, EndPhase())
    assert isinstance(refusal, Rejection) and refusal.case == "AO-6.7N"
    assert "x and y" in refusal.detail
    # the fixes: y out of Road Mode in place (6 MP) or along the road out of x's reach; x
    # away off y's road neighbours (0301, 0201 with its 4 MP left)
    fixes = {(f.unit, f.hex, f.reach.road_mode) for f in contact_fixes(b, im)}
    assert {("y", "0501", False), ("y", "0601", True), ("x", "0301", False)} <= fixes
    assert ("x", "0401", True) not in fixes  # back into Road Mode: 6 MP, it has 4
    # either way the phase may then end
    for cmd in (Move("y", (LEAVE_ROAD_MODE,)), Move("y", ("0601",)), Move("x", ("0301",))):
        after = ok(b, im, cmd).state
        assert column_contacts(b, after, "german") == ()
        assert isinstance(apply(b, after, EndPhase()), Applied)


@pytest.mark.rule("AO-6.7N")
def test_a_contact_that_no_move_can_break_does_not_hold_the_phase() -> None:
    # a2 in 0601 cuts the road to the source: x and y are unsupplied (MA halved, AO-12.6).
    # x (mech, MA 12 -> 6) spends all 6 MP leaving Road Mode (AO-6.7L*); y (infantry, MA 2 ->
    # 1) cannot pay the 3 MP to leave it, and may not leave a2's zone of control (AO-7.1A)
    b = board(LINE, [unit("x", mech=True, ma=12), unit("y", ma=2), unit("a2", "allied")])
    s = position(
        {"x": rm("x", "0401", must_leave_road_mode=True), "y": rm("y", "0501"), "a2": "0601"},
        phase="reinforcement",
    )
    r = apply(b, ended(b, s), EndPhase())  # Supply Judgment, then Initial Movement
    assert isinstance(r, Applied)
    im = r.state
    assert RoadModeChanged(unit="x", hex="0401", road_mode=False, cost=6, forced=True) in r.events
    assert (im.unit("x").supply, im.unit("y").supply) == ("unsupplied", "unsupplied")
    assert column_contacts(b, im, "german") == (("y", "x"),)
    assert contact_fixes(b, im) == ()
    assert isinstance(apply(b, im, EndPhase()), Applied)


@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-6.5G")
@pytest.mark.rule("AO-6.7N")
def test_a_retreat_may_end_next_to_a_friendly_road_column_but_not_in_it() -> None:
    """AO-10.2b: units are eliminated when they cannot retreat "because of the interposition of
    Enemy-controlled hexes, the position of Impassable hexes, and/or because the violation of
    Stacking limitations" - ending next to a friendly Road Mode unit is none of these."""
    b = board(LINE, [unit("g", strength=8), unit("a", "allied"), unit("a2", "allied")])
    # g (8) on a (4): 2-1, Initial die 2: Dr1. a's only hex one away is 0401 (0201 is German),
    # next to a2 in Road Mode in 0501 along the road: a retreats there
    s = cpos({"g": "0201", "a": "0301", "a2": rm("a2", "0501")})
    r = fight(b, s, ["g"], ["0301"], [2])
    assert retreats(r) == [("a", ("0401",))]
    assert RoadColumnContact(unit="a", other="a2", hex="0401") in r.events
    # the Allied Initial Movement Phase that follows: one or both must be moved (AO-6.7N)
    im = ended(b, r.state, 4)
    assert (im.side, im.phase) == ("allied", "initial_movement")
    assert column_contacts(b, im, "allied") == (("a2", "a"),)
    refusal = apply(b, im, EndPhase())
    assert isinstance(refusal, Rejection) and refusal.case == "AO-6.7N"
    after = ok(b, im, Move("a2", (LEAVE_ROAD_MODE,))).state
    assert isinstance(apply(b, after, EndPhase()), Applied)
    # a2 in 0401 itself: a may not stack with a Road Mode unit (AO-6.5G, a stacking
    # limitation): no retreat, eliminated
    s2 = cpos({"g": "0201", "a": "0301", "a2": rm("a2", "0401")})
    r2 = fight(b, s2, ["g"], ["0301"], [2])
    assert UnitEliminated(unit="a", hex="0301", case="AO-6.5G") in r2.events
