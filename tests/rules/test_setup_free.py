"""The free set-up validator (AO-17.b German, AO-17.c Allied) on the compiled map, and the
engine's set-up checks: ``Place`` during a set-up step and the end of the step (AO-17.a-c).

Each rejection test makes one concrete violation and checks that it is the only problem
reported (or the refusal), for the right reason.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ao.commands import EndPhase, Place
from rules.ao.engine import Applied, apply, setup_hexes
from rules.ao.events import UnitPlaced
from rules.ao.setup_rules import validate_free_setup
from rules.ao.start_line import front_line, own_side, rear_area
from rules.ao.state import Board, GameState
from rules.ao.units import Side
from rules.rejection import Rejection
from scenarios import load_board, load_map
from scenarios.setup import front_line_units
from tests.kit.engine import scenario_start
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture(scope="module")
def free() -> Board:
    return load_board(10)  # both sides free (AO-18.a)


def mine(sc: Board, side: Side) -> dict[str, str]:
    return {uid: h for uid, h in sc.setup.items() if sc.defs[uid].side == side}


def free_hex(sc: Board, pool: frozenset[str]) -> str:
    """The first hex of ``pool`` that no unit occupies."""
    taken = set(sc.setup.values())
    return min(h for h in pool if h not in taken)


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
@pytest.mark.rule("AO-17.a")
@pytest.mark.parametrize("number", [1, 3, 4, 10])
@pytest.mark.parametrize("side", ["german", "allied"])
def test_the_historical_setup_is_accepted(number: int, side: Side) -> None:
    sc = load_board(number)
    assert validate_free_setup(sc, side, mine(sc, side)) == []


@pytest.mark.rule("AO-17.b")
def test_rearranging_along_the_front_line_is_allowed(free: Board) -> None:
    p = mine(free, "german")
    p["de-27-i"], p["de-62-i"] = p["de-62-i"], p["de-27-i"]  # swap two front-line units
    p["de-1ss-a"], p["de-13-pt"] = p["de-13-pt"], p["de-1ss-a"]  # and two rear units
    p["de-48-i"] = free_hex(free, front_line(load_map(), "german"))
    assert validate_free_setup(free, "german", p) == []


@pytest.mark.rule("AO-17.b")
def test_front_line_unit_moved_behind(free: Board) -> None:
    p = mine(free, "german")
    h = free_hex(free, rear_area(load_map(), "german"))
    p["de-62-i"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 62 i is a front-line unit and must stay on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
def test_rear_unit_moved_onto_the_front_line(free: Board) -> None:
    p = mine(free, "german")
    h = free_hex(free, front_line(load_map(), "german"))
    p["de-2ss-ai"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 2ss ai is a rear unit and may not be placed on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.c")
def test_allied_rear_unit_moved_onto_the_front_line(free: Board) -> None:
    p = mine(free, "allied")
    h = free_hex(free, front_line(load_map(), "allied"))
    p["us-23-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 23 i is a rear unit and may not be placed on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.c")
def test_allied_front_line_unit_moved_behind(free: Board) -> None:
    p = mine(free, "allied")
    h = free_hex(free, rear_area(load_map(), "allied"))
    p["us-422-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 422 i is a front-line unit and must stay on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-8.2C")
def test_stacking_two_units(free: Board) -> None:
    p = mine(free, "german")
    h = p["de-48-i"]
    p["de-27-i"] = h  # both front-line units, so only the stack is wrong
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 27 i, 48 i are stacked in hex {h}; a free set-up allows one unit a hex"
    ]


@pytest.mark.rule("AO-17.c")
def test_crossing_the_start_line(free: Board) -> None:
    p = mine(free, "allied")
    h = free_hex(free, front_line(load_map(), "german"))
    p["us-394-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 394 i must set up on the Allied side of the start line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
def test_german_crossing_the_start_line(free: Board) -> None:
    p = mine(free, "german")
    h = free_hex(free, rear_area(load_map(), "allied"))
    p["de-1ss-a"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 1ss a must set up on the German side of the start line (hex {h})"
    ]


@pytest.mark.rule("AO-11.g")
def test_impassable_hex(free: Board) -> None:
    gm = load_map()
    impassable = frozenset(h for h in gm if gm.hex(h).terrain == "impassable")
    if not impassable:
        pytest.skip("the map has no impassable hex")
    h = free_hex(free, impassable)
    p = mine(free, "allied")
    p["us-23-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-11.g: 23 i may not set up in impassable hex {h}"
    ]


@pytest.mark.rule("AO-5.3M")
def test_allied_map_edge_hex(free: Board) -> None:
    """Allied units enter the Allied Map Edge hexes only by retreat (AO-5.3M): not at set-up
    (the same case the engine's per-Place check cites)."""
    gm = load_map()
    h = free_hex(free, frozenset(h for h in gm if gm.is_allied_edge(h)))
    p = mine(free, "allied")
    p["us-23-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-5.3M: 23 i may not set up in Allied map-edge hex {h}"
    ]


@pytest.mark.rule("AO-17.b")
def test_missing_unit(free: Board) -> None:
    p = mine(free, "german")
    del p["de-326-i"]
    assert validate_free_setup(free, "german", p) == ["AO-17.b: 326 i is not placed"]


@pytest.mark.rule("AO-17.b")
def test_unit_of_the_other_side(free: Board) -> None:
    p = mine(free, "german")
    p["us-23-i"] = free.setup["us-23-i"]
    assert validate_free_setup(free, "german", p) == [
        "AO-17.b: 23 i is an Allied unit; the German player places only German units"
    ]


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-15.a")
def test_reinforcements_and_von_der_heydte_do_not_set_up(free: Board) -> None:
    p = mine(free, "german")
    territory = own_side(load_map(), "german")
    p["de-vdh"] = free_hex(free, rear_area(load_map(), "german") & territory)
    assert validate_free_setup(free, "german", p) == [
        "AO-17.b: Von der Heydte does not set up on the map; it enters as a reinforcement"
    ]


def test_off_the_map_and_unknown(free: Board) -> None:
    p = mine(free, "allied")
    p["us-23-i"] = "9999"
    p["zz-nobody"] = "0101"
    assert validate_free_setup(free, "allied", p) == [
        "AO-17.c: 23 i is placed off the map (hex 9999)",
        "AO-17.c: zz-nobody is not a unit of scenario 10",
    ]


@pytest.mark.rule("AO-17.a")
def test_a_historical_side_has_no_choice() -> None:
    sc = load_board(3)  # Allied historical, German free
    p = mine(sc, "allied")
    p["us-422-i"], p["us-423-i"] = p["us-423-i"], p["us-422-i"]  # a legal free rearrangement
    problems = validate_free_setup(sc, "allied", p)
    assert problems == [
        f"AO-17.a: scenario 3 uses the historical Allied set-up: 422 i sets up in hex "
        f"{sc.setup['us-422-i']}, not {p['us-422-i']}",
        f"AO-17.a: scenario 3 uses the historical Allied set-up: 423 i sets up in hex "
        f"{sc.setup['us-423-i']}, not {p['us-423-i']}",
    ]
    g = mine(sc, "german")
    g["de-27-i"], g["de-62-i"] = g["de-62-i"], g["de-27-i"]
    assert validate_free_setup(sc, "german", g) == []


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
@settings(max_examples=40)
@given(data=st.data(), side=st.sampled_from(["german", "allied"]))
def test_any_reshuffle_within_the_lines_is_legal(data: st.DataObject, side: Side) -> None:
    """Front-line units anywhere on the front line, rear units anywhere behind it, one a hex."""
    sc = load_board(10)
    gm = load_map()
    units = sc.defs
    front_ids = sorted(u for u in sc.setup if units[u].side == side and u in front_line_units())
    rear_ids = sorted(u for u in sc.setup if units[u].side == side and u not in front_line_units())
    fronts = data.draw(st.permutations(sorted(front_line(gm, side))))
    rears = data.draw(st.permutations(sorted(rear_area(gm, side))))
    p = dict(zip(front_ids, fronts, strict=False)) | dict(zip(rear_ids, rears, strict=False))
    assert validate_free_setup(sc, side, p) == []
    # and moving any one unit across to the other line breaks it, for that reason only
    uid = data.draw(st.sampled_from(front_ids + rear_ids))
    spare = fronts[len(front_ids) :] if uid in rear_ids else rears[len(rear_ids) :]
    p[uid] = spare[0]
    (problem,) = validate_free_setup(sc, side, p)
    assert units[uid].designation in problem and "front line" in problem


# -- the engine: Place during set-up (AO-17.a-c) and the end of a set-up step ------------------


def _game(number: int, side: Side = "allied") -> tuple[Board, GameState]:
    """Scenario ``number`` at the ``side`` set-up step (the Allied player deploys first)."""
    b, s = scenario_start(number)
    if side == "german":
        r = apply(b, s, EndPhase())
        assert isinstance(r, Applied), r
        s = r.state
    assert s.phase == f"setup_{side}"
    return b, s


def _empty(s: GameState, pool: frozenset[str]) -> str:
    """The first hex of ``pool`` with no unit on it now."""
    taken = {u.hex for u in s.units if u.hex is not None}
    return min(h for h in pool if h not in taken)


def _refused(b: Board, s: GameState, unit: str, hex_id: str) -> Rejection:
    r = apply(b, s, Place(unit=unit, hex=hex_id))
    assert isinstance(r, Rejection), f"Place({unit}, {hex_id}) was accepted"
    return r


def _placed(b: Board, s: GameState, unit: str, hex_id: str) -> GameState:
    r = apply(b, s, Place(unit=unit, hex=hex_id))
    assert isinstance(r, Applied), r
    assert r.state.unit(unit).hex == hex_id
    assert r.events == (UnitPlaced(unit=unit, hex=hex_id),)
    return r.state


@pytest.mark.rule("AO-17.a")
@pytest.mark.parametrize(("number", "side"), [(1, "allied"), (1, "german"), (3, "allied")])
def test_engine_refuses_any_rearranging_of_a_historical_side(number: int, side: Side) -> None:
    b, s = _game(number, side)
    name = side.capitalize()
    uid = "us-102-ac" if side == "allied" else "de-62-i"
    # even a move that a free set-up would allow (a rear unit deeper in the rear, a front-line
    # unit along the front line) is refused
    pool = rear_area(load_map(), side) if side == "allied" else front_line(load_map(), side)
    r = _refused(b, s, uid, _empty(s, pool))
    assert (r.case, r.detail) == (
        "AO-17.a",
        f"scenario {number} uses the historical {name} set-up: the {name} units may not be "
        "rearranged",
    )
    assert setup_hexes(b, s, uid) == frozenset()


@pytest.mark.rule("AO-17.a")
@pytest.mark.rule("AO-17.b")
def test_scenario_3_german_rearranges_after_the_historical_allied_set_up() -> None:
    b, s = _game(3, "german")
    h = _empty(s, front_line(load_map(), "german"))
    s = _placed(b, s, "de-62-i", h)
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied) and r.state.phase == "reinforcement"


@pytest.mark.rule("AO-17.b")
def test_engine_front_line_unit_moves_along_the_front_line() -> None:
    b, s = _game(10, "german")
    h = _empty(s, front_line(load_map(), "german"))
    assert h in setup_hexes(b, s, "de-62-i")
    s = _placed(b, s, "de-62-i", h)
    r = apply(b, s, EndPhase())  # and the whole set-up is still legal
    assert isinstance(r, Applied) and r.state.phase == "reinforcement"


@pytest.mark.rule("AO-17.c")
def test_engine_allied_front_and_rear_units_rearranged() -> None:
    b, s = _game(10)
    gm = load_map()
    s = _placed(b, s, "us-422-i", _empty(s, front_line(gm, "allied")))
    s = _placed(b, s, "us-102-ac", _empty(s, rear_area(gm, "allied")))
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied) and r.state.phase == "setup_german"


@pytest.mark.rule("AO-17.b")
def test_engine_front_line_unit_may_not_go_behind_the_front_line() -> None:
    b, s = _game(10, "german")
    h = _empty(s, rear_area(load_map(), "german"))
    r = _refused(b, s, "de-62-i", h)
    assert (r.case, r.detail) == (
        "AO-17.b",
        f"de-62-i is a front-line unit: it may only be rearranged along the German front "
        f"line, {h} is behind it",
    )


@pytest.mark.rule("AO-17.c")
def test_engine_allied_front_line_unit_may_not_go_behind_the_front_line() -> None:
    b, s = _game(10)
    h = _empty(s, rear_area(load_map(), "allied"))
    r = _refused(b, s, "us-422-i", h)
    assert r.case == "AO-17.c" and r.detail.startswith("us-422-i is a front-line unit")


@pytest.mark.rule("AO-17.b")
def test_engine_rear_unit_may_not_enter_the_front_line() -> None:
    b, s = _game(10, "german")
    h = _empty(s, front_line(load_map(), "german"))
    r = _refused(b, s, "de-2ss-ai", h)
    assert (r.case, r.detail) == (
        "AO-17.b",
        f"de-2ss-ai is a rear unit: it may not enter the German front line ({h} is on it)",
    )


@pytest.mark.rule("AO-17.c")
def test_engine_allied_rear_unit_may_not_enter_the_front_line() -> None:
    b, s = _game(10)
    h = _empty(s, front_line(load_map(), "allied"))
    r = _refused(b, s, "us-23-i", h)
    assert (r.case, r.detail) == (
        "AO-17.c",
        f"us-23-i is a rear unit: it may not enter the Allied front line ({h} is on it)",
    )


@pytest.mark.rule("AO-17.c")
def test_engine_allied_unit_may_not_cross_the_start_line() -> None:
    b, s = _game(10)
    gm = load_map()
    for uid, pool in (
        ("us-394-i", front_line(gm, "german")),  # a front-line unit onto the German front
        ("us-102-ac", rear_area(gm, "german")),  # a rear unit deep behind the German lines
    ):
        h = _empty(s, pool)
        r = _refused(b, s, uid, h)
        assert (r.case, r.detail) == (
            "AO-17.c",
            f"{uid} must set up on the Allied side of the start line: {h} is on the German side",
        )


@pytest.mark.rule("AO-17.b")
def test_engine_german_unit_may_not_cross_the_start_line() -> None:
    b, s = _game(10, "german")
    h = _empty(s, rear_area(load_map(), "allied"))
    r = _refused(b, s, "de-1ss-a", h)
    assert (r.case, r.detail) == (
        "AO-17.b",
        f"de-1ss-a must set up on the German side of the start line: {h} is on the Allied side",
    )


@pytest.mark.rule("AO-17.b")
def test_engine_no_stacking_and_a_swap_goes_through_an_empty_hex() -> None:
    b, s = _game(10, "german")
    a, c = s.unit("de-27-i").hex, s.unit("de-48-i").hex
    assert a is not None and c is not None
    r = _refused(b, s, "de-27-i", c)
    assert (r.case, r.detail) == (
        "AO-17.b",
        f"{c} already holds de-48-i: a free set-up allows one unit a hex (no stacking)",
    )
    assert c not in setup_hexes(b, s, "de-27-i")
    spare = _empty(s, front_line(load_map(), "german"))
    s = _placed(b, s, "de-27-i", spare)
    s = _placed(b, s, "de-48-i", a)
    s = _placed(b, s, "de-27-i", c)
    r2 = apply(b, s, EndPhase())
    assert isinstance(r2, Applied)


@pytest.mark.rule("AO-17.c")
def test_engine_allied_no_stacking() -> None:
    b, s = _game(10)
    c = s.unit("us-23-i").hex
    assert c is not None
    r = _refused(b, s, "us-102-ac", c)
    assert r.case == "AO-17.c" and r.detail == (
        f"{c} already holds us-23-i: a free set-up allows one unit a hex (no stacking)"
    )


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-15.a")
def test_engine_reinforcements_and_von_der_heydte_do_not_set_up() -> None:
    b, s = _game(10, "german")
    h = _empty(s, rear_area(load_map(), "german"))
    r = _refused(b, s, "de-vdh", h)
    assert (r.case, r.detail) == (
        "AO-17.b",
        "de-vdh does not set up: it drops on Game-Turn 2 (AO-15.a)",
    )
    r = _refused(b, s, "de-2ss-a", h)
    turn = b.arrival_turn["de-2ss-a"]
    assert (r.case, r.detail) == (
        "AO-17.b",
        f"de-2ss-a does not set up: it enters as a reinforcement on Game-Turn {turn}",
    )
    assert setup_hexes(b, s, "de-vdh") == frozenset()


@pytest.mark.rule("AO-17.c")
def test_engine_allied_reinforcement_does_not_set_up() -> None:
    b, s = _game(10)
    r = _refused(b, s, "us-cca7", _empty(s, rear_area(load_map(), "allied")))
    assert r.case == "AO-17.c" and r.detail.startswith(
        "us-cca7 does not set up: it enters as a reinforcement on Game-Turn"
    )


@pytest.mark.rule("AO-4.2a")
def test_engine_the_other_side_does_not_place_in_a_free_set_up() -> None:
    b, s = _game(10)  # the Allied step: German units wait
    r = _refused(b, s, "de-62-i", _empty(s, front_line(load_map(), "german")))
    assert r.case == "AO-4.2a" and "the allied player is deploying" in r.detail
    assert setup_hexes(b, s, "de-62-i") == frozenset()


@pytest.mark.rule("AO-11.g")
def test_engine_impassable_hex() -> None:
    b, s = _game(10, "german")
    gm = load_map()
    h = min(x for x in own_side(gm, "german") if gm.hex(x).terrain == "impassable")
    r = _refused(b, s, "de-2ss-ai", h)
    assert (r.case, r.detail) == ("AO-11.g", f"{h} is impassable")


@pytest.mark.rule("AO-5.3M")
def test_engine_allied_map_edge_hex() -> None:
    b, s = _game(10)
    gm = load_map()
    h = min(x for x in gm if gm.is_allied_edge(x))
    r = _refused(b, s, "us-102-ac", h)
    assert (r.case, r.detail) == ("AO-5.3M", f"{h} is an Allied Map Edge hex")


@pytest.mark.rule("AO-4.2a")
def test_engine_hex_off_the_map() -> None:
    b, s = _game(10)
    r = _refused(b, s, "us-102-ac", "9999")
    assert (r.case, r.detail) == ("AO-4.2a", "9999 is not on the map")
    assert _refused(b, s, "us-102-ac", "x").case == "AO-4.2a"


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
@pytest.mark.parametrize(
    ("side", "unit"),
    [("german", "de-62-i"), ("german", "de-2ss-ai"), ("allied", "us-422-i"), ("allied", "us-23-i")],
)
def test_setup_hexes_are_exactly_the_hexes_the_engine_accepts(side: Side, unit: str) -> None:
    b, s = _game(10, side)
    gm = load_map()
    accepted = {
        h
        for h in gm
        if h != s.unit(unit).hex and isinstance(apply(b, s, Place(unit=unit, hex=h)), Applied)
    }
    assert setup_hexes(b, s, unit) == accepted
    pool = front_line(gm, side) if unit in front_line_units() else rear_area(gm, side)
    occupied = {u.hex for u in s.units if u.hex is not None}
    assert accepted == set(pool) - occupied


@pytest.mark.rule("AO-17.a")
@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_both_historical_set_ups_end_their_steps(number: int) -> None:
    b, s = _game(number, "german")
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied) and r.state.phase == "reinforcement"


@pytest.mark.rule("AO-17.c")
def test_end_of_a_free_set_up_step_checks_the_whole_placement() -> None:
    b, s = _game(10)
    h = _empty(s, front_line(load_map(), "allied"))
    hand = s.replace_units([msgspec.structs.replace(s.unit("us-23-i"), hex=h)])
    r = apply(b, hand, EndPhase())
    assert isinstance(r, Rejection)
    assert r.message == (
        f"AO-17.c: 23 i is a rear unit and may not be placed on the front line (hex {h})"
    )


@pytest.mark.rule("AO-17.a")
def test_end_of_a_historical_set_up_step_checks_the_historical_hexes() -> None:
    b, s = _game(1)
    h = _empty(s, rear_area(load_map(), "allied"))
    was = s.unit("us-102-ac").hex
    hand = s.replace_units([msgspec.structs.replace(s.unit("us-102-ac"), hex=h)])
    r = apply(b, hand, EndPhase())
    assert isinstance(r, Rejection)
    assert r.message == (
        f"AO-17.a: scenario 1 uses the historical Allied set-up: 102 ac sets up in hex {was}, "
        f"not {h}"
    )
