"""The free set-up validator (AO-17.b German, AO-17.c Allied) on the compiled map.

Each rejection test makes one concrete violation and checks that it is the only problem
reported, for the right reason.
"""

from __future__ import annotations

import importlib.resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.gamemap import load_map
from rules.scenario import Scenario, front_line_units, load_scenario, validate_free_setup
from rules.start_line import front_line, own_side, rear_area
from rules.units import Side

HAVE_REAL_MAP = importlib.resources.files("scenarios").joinpath("ardennes", "map.json").is_file()
pytestmark = pytest.mark.skipif(not HAVE_REAL_MAP, reason="scenarios/ardennes/map.json not built")


@pytest.fixture(scope="module")
def free() -> Scenario:
    return load_scenario(10)  # both sides free (AO-18.a)


def mine(sc: Scenario, side: Side) -> dict[str, str]:
    units = {u.id: u for u in sc.units}
    return {uid: h for uid, h in sc.setup.items() if units[uid].side == side}


def free_hex(sc: Scenario, pool: frozenset[str]) -> str:
    """The first hex of ``pool`` that no unit occupies."""
    taken = set(sc.setup.values())
    return min(h for h in pool if h not in taken)


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
@pytest.mark.rule("AO-17.a")
@pytest.mark.parametrize("number", [1, 3, 4, 10])
@pytest.mark.parametrize("side", ["german", "allied"])
def test_the_historical_setup_is_accepted(number: int, side: Side) -> None:
    sc = load_scenario(number)
    assert validate_free_setup(sc, side, mine(sc, side)) == []


@pytest.mark.rule("AO-17.b")
def test_rearranging_along_the_front_line_is_allowed(free: Scenario) -> None:
    p = mine(free, "german")
    p["de-27-i"], p["de-62-i"] = p["de-62-i"], p["de-27-i"]  # swap two front-line units
    p["de-1ss-a"], p["de-13-pt"] = p["de-13-pt"], p["de-1ss-a"]  # and two rear units
    p["de-48-i"] = free_hex(free, front_line(load_map(), "german"))
    assert validate_free_setup(free, "german", p) == []


@pytest.mark.rule("AO-17.b")
def test_front_line_unit_moved_behind(free: Scenario) -> None:
    p = mine(free, "german")
    h = free_hex(free, rear_area(load_map(), "german"))
    p["de-62-i"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 62 i is a front-line unit and must stay on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
def test_rear_unit_moved_onto_the_front_line(free: Scenario) -> None:
    p = mine(free, "german")
    h = free_hex(free, front_line(load_map(), "german"))
    p["de-2ss-ai"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 2ss ai is a rear unit and may not be placed on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.c")
def test_allied_rear_unit_moved_onto_the_front_line(free: Scenario) -> None:
    p = mine(free, "allied")
    h = free_hex(free, front_line(load_map(), "allied"))
    p["us-23-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 23 i is a rear unit and may not be placed on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.c")
def test_allied_front_line_unit_moved_behind(free: Scenario) -> None:
    p = mine(free, "allied")
    h = free_hex(free, rear_area(load_map(), "allied"))
    p["us-422-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 422 i is a front-line unit and must stay on the front line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-8.2C")
def test_stacking_two_units(free: Scenario) -> None:
    p = mine(free, "german")
    h = p["de-48-i"]
    p["de-27-i"] = h  # both front-line units, so only the stack is wrong
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 27 i, 48 i are stacked in hex {h}; a free set-up allows one unit a hex"
    ]


@pytest.mark.rule("AO-17.c")
def test_crossing_the_start_line(free: Scenario) -> None:
    p = mine(free, "allied")
    h = free_hex(free, front_line(load_map(), "german"))
    p["us-394-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-17.c: 394 i must set up on the Allied side of the start line (hex {h})"
    ]


@pytest.mark.rule("AO-17.b")
def test_german_crossing_the_start_line(free: Scenario) -> None:
    p = mine(free, "german")
    h = free_hex(free, rear_area(load_map(), "allied"))
    p["de-1ss-a"] = h
    assert validate_free_setup(free, "german", p) == [
        f"AO-17.b: 1ss a must set up on the German side of the start line (hex {h})"
    ]


@pytest.mark.rule("AO-11.g")
def test_impassable_hex(free: Scenario) -> None:
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


@pytest.mark.rule("AO-5.3L")
def test_allied_map_edge_hex(free: Scenario) -> None:
    gm = load_map()
    h = free_hex(free, frozenset(h for h in gm if gm.is_allied_edge(h)))
    p = mine(free, "allied")
    p["us-23-i"] = h
    assert validate_free_setup(free, "allied", p) == [
        f"AO-5.3L: 23 i may not set up in Allied map-edge hex {h}"
    ]


@pytest.mark.rule("AO-17.b")
def test_missing_unit(free: Scenario) -> None:
    p = mine(free, "german")
    del p["de-326-i"]
    assert validate_free_setup(free, "german", p) == ["AO-17.b: 326 i is not placed"]


@pytest.mark.rule("AO-17.b")
def test_unit_of_the_other_side(free: Scenario) -> None:
    p = mine(free, "german")
    p["us-23-i"] = free.setup["us-23-i"]
    assert validate_free_setup(free, "german", p) == [
        "AO-17.b: 23 i is an Allied unit; the German player places only German units"
    ]


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-15.a")
def test_reinforcements_and_von_der_heydte_do_not_set_up(free: Scenario) -> None:
    p = mine(free, "german")
    territory = own_side(load_map(), "german")
    p["de-vdh"] = free_hex(free, rear_area(load_map(), "german") & territory)
    assert validate_free_setup(free, "german", p) == [
        "AO-17.b: Von der Heydte does not set up on the map; it enters as a reinforcement"
    ]


def test_off_the_map_and_unknown(free: Scenario) -> None:
    p = mine(free, "allied")
    p["us-23-i"] = "9999"
    p["zz-nobody"] = "0101"
    assert validate_free_setup(free, "allied", p) == [
        "AO-17.c: 23 i is placed off the map (hex 9999)",
        "AO-17.c: zz-nobody is not a unit of scenario 10",
    ]


@pytest.mark.rule("AO-17.a")
def test_a_historical_side_has_no_choice() -> None:
    sc = load_scenario(3)  # Allied historical, German free
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
    sc = load_scenario(10)
    gm = load_map()
    units = {u.id: u for u in sc.units}
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
