"""Stacking (AO-8) on one-row maps."""

from __future__ import annotations

import pytest

from rules.ao import stacking
from rules.ao.commands import Move, Place
from rules.ao.engine import Applied, apply
from rules.ao.stacking import check_stack, over_limit
from rules.ao.state import UnitState
from rules.rejection import Rejection
from tests.kit.engine import (
    board,
    costs,
    line_map,
    make_map,
    oob_profiles,
    outcome,
    position,
    road,
    unit,
)


@pytest.mark.rule("AO-8.0")
def test_at_most_three_regiments_per_hex() -> None:
    b = board(line_map(". . ."), [unit("r1"), unit("r2"), unit("r3"), unit("r4")])
    s = position({"r1": "0201", "r2": "0201", "r3": "0101", "r4": "0301"})
    assert outcome(b, s, "r3", "0201") == 1 + 2
    s3 = position({"r1": "0201", "r2": "0201", "r3": "0201", "r4": "0301"})
    r = apply(b, s3, Move(unit="r4", path=("0201",)))
    assert isinstance(r, Rejection) and r.case == "AO-8.0"
    assert "limit is 3" in r.message
    assert over_limit(b, s3) == []
    assert over_limit(b, position({"r1": "0201", "r2": "0201", "r3": "0201", "r4": "0201"})) == [
        "0201"
    ]
    # passing through a full stack is not allowed either: the limit holds at all times
    b5 = board(line_map(". . . ."), [unit("r1"), unit("r2"), unit("r3"), unit("r4", ma=20)])
    s5 = position({"r1": "0201", "r2": "0201", "r3": "0201", "r4": "0101"})
    assert outcome(b5, s5, "r4", "0201 0301") == "AO-8.0"


@pytest.mark.rule("AO-8.0")
def test_set_up_placement_respects_the_limit() -> None:
    b = board(line_map(". . ."), [unit("r1"), unit("r2"), unit("r3"), unit("r4")])
    s = position(
        {"r1": "0101", "r2": "0101", "r3": "0101", "r4": "0301"}, turn=1, phase="setup_german"
    )
    r = apply(b, s, Place(unit="r4", hex="0101"))
    assert isinstance(r, Rejection) and r.case == "AO-8.0"
    assert isinstance(apply(b, s, Place(unit="r4", hex="0201")), Applied)


@pytest.mark.rule("AO-8.1A")
def test_destacking_costs_the_same_as_stacking() -> None:
    b = board(
        line_map(". . . ."),
        [unit("g", ma=8), unit("f"), unit("m", mech=True, ma=12), unit("n", mech=True)],
    )
    s = position({"g": "0101", "f": "0101", "m": "0401", "n": "0401"})
    assert outcome(b, s, "g", "0201") == 1 + 2
    assert outcome(b, s, "m", "0301") == 1 + 6
    # rough terrain and destacking add up
    b2 = board(line_map(". r"), [unit("m", mech=True, ma=12), unit("n", mech=True)])
    assert outcome(b2, position({"m": "0101", "n": "0101"}), "m", "0201") == 4 + 6
    # alone in a hex: no destacking cost
    assert outcome(b, position({"g": "0101"}), "g", "0201") == 1


@pytest.mark.rule("AO-8.1B")
def test_stacks_never_move_together() -> None:
    b = board(line_map(". . ."), [unit("g"), unit("h")])
    s = position({"g": "0101", "h": "0101"})
    r = apply(b, s, Move(unit="g", path=("0201",)))
    assert isinstance(r, Applied)
    assert r.state.unit("g").hex == "0201" and r.state.unit("h").hex == "0101"
    assert [type(e).__name__ for e in r.events] == ["UnitMoved"]


@pytest.mark.rule("AO-8.2C")
def test_german_infantry_divisions_stack_with_nothing() -> None:
    b = board(line_map(". . ."), [unit("d", size="XX"), unit("r"), unit("x", size="X")])
    s = position({"d": "0201", "r": "0101", "x": "0301"})
    assert outcome(b, s, "r", "0201") == "AO-8.2C"
    s2 = position({"d": "0101", "r": "0201"})
    r = apply(b, s2, Move(unit="d", path=("0201",)))
    assert isinstance(r, Rejection) and r.case == "AO-8.2C"
    assert "stacks with nothing" in r.message
    # Allied divisions (size XX) are not German infantry divisions
    a = unit("ad", "allied", size="XX")
    assert check_stack(b.game_map, a, "0101", [unit("ar", "allied")]) is None


@pytest.mark.rule("AO-8.2D")
def test_status_markers_do_not_count_for_stacking() -> None:
    b = board(line_map(". . ."), [unit("r1"), unit("r2"), unit("r3")])
    s = position(
        {
            "r1": UnitState(id="r1", hex="0201", supply="isolated"),
            "r2": UnitState(id="r2", hex="0201", supply="unsupplied", must_leave_road_mode=True),
            "r3": "0101",
        }
    )
    assert outcome(b, s, "r3", "0201") == 1 + 2


@pytest.mark.rule("AO-8.3E")
def test_any_unit_of_a_stack_may_leave_it() -> None:
    b = board(line_map(". . ."), [unit("a1"), unit("b2"), unit("c3")])
    s = position({"a1": "0101", "b2": "0101", "c3": "0101"})
    for uid in ("a1", "b2", "c3"):
        assert outcome(b, s, uid, "0201") == 1 + 2


@pytest.mark.rule("AO-8.3F")
def test_no_stacking_limit_for_allied_units_on_map_edge_hexes() -> None:
    m = make_map("e . .")
    ids = [f"a{i}" for i in range(5)]
    b = board(m, [unit(i, "allied") for i in ids])
    s = position(dict.fromkeys(ids, "0101"), side="allied")
    assert over_limit(b, s) == []
    assert check_stack(m, b.defs["a0"], "0101", [b.defs[i] for i in ids[1:]]) is None
    # leaving an edge hex pays no destacking (the hex stands for a larger off-map area)
    assert outcome(b, s, "a0", "0201") == 1


# == found by the rule audit: stacking (AO-8, AO-5.2H) ============================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-5.2H")
@pytest.mark.rule("AO-8.1A")
def test_no_real_unit_can_stack_and_unstack_in_one_phase() -> None:
    profiles = oob_profiles()
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


@pytest.mark.audit
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
