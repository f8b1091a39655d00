"""Sides of the start line, front line and rear area, and the historical set-up (AO-17.a)."""

from __future__ import annotations

import math
from pathlib import Path

import msgspec
import pytest

from rules import hexgrid
from rules.ao.gamemap import GameMap, HexsideData
from rules.ao.start_line import (
    front_line,
    german_side,
    own_side,
    rear_area,
    side_of,
    start_line_problems,
)
from scenarios.loader import load_map, load_oob, setup_entries
from scenarios.placement import PlacementError, Spot, km_between, place
from scenarios.setup import front_line_units, historical_setup
from tests.kit.maps import fixture_map, fixture_map_data
from tests.kit.realmap import needs_real_map

# -- start line on the fixture map (start line between columns 10 and 11) ---------------------


def col(h: str) -> int:
    return hexgrid.parse(h)[0]


@pytest.mark.rule("AO-17.a")
def test_flood_fill_splits_the_fixture_map_at_the_start_line() -> None:
    gm = fixture_map()
    assert german_side(gm) == {h for h in gm if col(h) >= 11}
    assert side_of(gm, "1105") == "german"
    assert side_of(gm, "1005") == "allied"
    assert own_side(gm, "allied") == {h for h in gm if col(h) <= 10}


@pytest.mark.rule("AO-17.b")
@pytest.mark.rule("AO-17.c")
def test_front_line_is_the_band_touching_the_start_line() -> None:
    gm = fixture_map()
    # row 1 and row 10 are Allied map-edge hexes (NE/SE), never usable for a set-up
    assert front_line(gm, "german") == {hexgrid.make(11, r) for r in range(2, 10)}
    assert front_line(gm, "allied") == {hexgrid.make(10, r) for r in range(2, 10)}
    assert "1205" in rear_area(gm, "german")  # the east edge is German rear
    assert "0905" in rear_area(gm, "allied")
    assert "0909" not in rear_area(gm, "allied")  # impassable
    assert "0104" not in rear_area(gm, "allied")  # Allied W edge
    assert "0105" in rear_area(gm, "allied")  # its road exit hex is a live hex (AO-16.H)
    assert not front_line(gm, "german") & rear_area(gm, "german")


def test_a_start_line_with_a_gap_leaks() -> None:
    data = fixture_map_data()
    sides = [s for s in data.hexsides if not (s.start_line and "1005" in s.hexes)]
    gm = GameMap(msgspec.structs.replace(data, hexsides=sides))
    assert "1005" in german_side(gm)
    assert any("does not close" in p for p in start_line_problems(gm))


def test_start_line_problems_on_a_closed_line() -> None:
    data = fixture_map_data()
    # make the fixture's corner edge hexes plain so that the line closes cleanly
    hexes = [
        msgspec.structs.replace(h, edge=None) if h.id in ("1101", "1110") else h for h in data.hexes
    ]
    gm = GameMap(msgspec.structs.replace(data, hexes=hexes))
    assert start_line_problems(gm) == []
    extra = HexsideData(
        hexes=("0504", "0505"), river=None, crossing=None, road=False, start_line=True
    )
    gm2 = GameMap(msgspec.structs.replace(data, hexes=hexes, hexsides=[*data.hexsides, extra]))
    assert any("same side" in p for p in start_line_problems(gm2))


# -- placement on the fixture map --------------------------------------------------------------


def hex_pos(gm: GameMap, h: str) -> tuple[float, float]:
    return gm.hex(h).lat, gm.hex(h).lon


def test_placement_takes_the_nearest_free_allowed_hex() -> None:
    gm = fixture_map()
    lat, lon = hex_pos(gm, "0805")
    spots = [
        Spot("a", "allied", "rear", lat, lon, None),
        Spot("b", "allied", "rear", lat, lon, None),  # same spot: goes next door
        Spot("c", "allied", "front", lat, lon, None),  # front: nearest column-10 hex
        Spot("d", "german", "rear", lat, lon, None),  # wrong side of the line: pushed east
    ]
    got = place(gm, spots)
    assert got["a"] == "0805"
    assert hexgrid.distance(got["b"], "0805") == 1
    assert col(got["c"]) == 10
    assert col(got["d"]) == 12
    assert len(set(got.values())) == 4
    assert place(gm, list(reversed(spots)))["a"] != "0805"  # order matters, and is fixed
    assert place(gm, spots) == got  # deterministic


def test_town_pins_win_and_are_checked() -> None:
    gm = fixture_map()
    lat, lon = hex_pos(gm, "1003")
    spots = [
        Spot("x", "allied", "front", lat, lon, None),
        Spot("sv", "allied", "front", 0.0, 0.0, "St. Vith"),
    ]
    assert place(gm, spots)["sv"] == "1003"
    assert place(gm, [Spot("b", "allied", None, 0.0, 0.0, "Bastogne")])["b"] == "0605"
    with pytest.raises(PlacementError, match="other side of the start line"):
        place(gm, [Spot("m", "german", None, 0.0, 0.0, "Bastogne")])
    with pytest.raises(PlacementError, match="no town"):
        place(gm, [Spot("sv", "allied", None, 0.0, 0.0, "Atlantis")])
    with pytest.raises(PlacementError, match="already taken"):
        place(gm, [Spot(u, "allied", None, 0.0, 0.0, "Bastogne") for u in "ab"])
    with pytest.raises(PlacementError, match="needs a line"):
        place(gm, [Spot("z", "allied", None, 0.0, 0.0, None)])


def test_km_between() -> None:
    assert km_between(50.0, 6.0, 50.0, 6.0) == 0
    assert km_between(50.0, 6.0, 51.0, 6.0) == pytest.approx(111.2)
    assert km_between(50.0, 6.0, 50.0, 7.0) == pytest.approx(111.2 * math.cos(math.radians(50)))


# -- the historical set-up on the compiled map --------------------------------------------------


@needs_real_map
def test_the_real_start_line_closes() -> None:
    assert start_line_problems(load_map("ardennes")) == []


@pytest.mark.rule("AO-17.a")
@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-8.2C")
@pytest.mark.rule("AO-11.g")
@pytest.mark.rule("AO-5.3L")
@needs_real_map
def test_historical_setup_is_legal() -> None:
    gm = load_map("ardennes")
    oob = load_oob()
    setup = historical_setup()
    assert set(setup) == {e.id for e in setup_entries()}
    assert len(set(setup.values())) == len(setup)  # one unit a hex: no stacks at all
    for uid, h in setup.items():
        u = oob[uid]
        hx = gm.hex(h)
        assert hx.terrain != "impassable", uid
        assert not gm.is_allied_edge(h), uid
        assert side_of(gm, h) == u.side, uid  # own side of the start line
        in_front = h in front_line(gm, u.side)
        assert in_front == (uid in front_line_units()), uid


@pytest.mark.rule("AO-17.a")
@needs_real_map
def test_units_are_near_their_historical_positions() -> None:
    gm = load_map("ardennes")
    setup = historical_setup()
    far = []
    for e in setup_entries():
        hx = gm.hex(setup[e.id])
        d = km_between(e.lat, e.lon, hx.lat, hx.lon)
        if d > 15.0:
            far.append((e.id, round(d, 1)))
    assert far == []


@pytest.mark.rule("AO-17.a")
@needs_real_map
def test_monschau_and_st_vith_each_hold_an_american_unit() -> None:
    """Errata M6: an American unit is deployed IN Monschau and IN St. Vith."""
    gm = load_map("ardennes")
    setup = historical_setup()
    oob = load_oob()
    by_hex = {h: uid for uid, h in setup.items()}
    for town in ("Monschau", "St. Vith"):
        uid = by_hex.get(gm.town_hex(town))
        assert uid is not None, town
        assert oob[uid].nationality == "US"


@pytest.mark.rule("AO-15.a")
def test_von_der_heydte_is_not_on_the_map_at_the_start() -> None:
    assert "de-vdh" not in {e.id for e in setup_entries()}


@pytest.mark.rule("AO-17.a")
def test_setup_counts() -> None:
    oob = load_oob()
    ids = [e.id for e in setup_entries()]
    assert sum(oob[i].side == "allied" for i in ids) == 25
    assert sum(oob[i].side == "german" for i in ids) == 39
    kinds = {oob[i].type for i in ids if oob[i].side == "allied"}
    assert {"engineer", "armored_cavalry", "infantry", "armor"} <= kinds


@needs_real_map
def test_placement_does_not_depend_on_hash_seed() -> None:
    """The set-up is computed at load time: it must be the same in every process."""
    import json
    import os
    import subprocess
    import sys

    code = "import json; from scenarios import historical_setup as h; print(json.dumps(h()))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == historical_setup()


# Breakthrough in the Ardennes 10.1 town grid references ("a,b": a north, b east) and the
# towns' coordinates from ../shared/reference/ardennes-facts.md 1 (Aywaille's "8,13" is a
# misprint for 28,13 and is left out of the fit).
BITA_TOWNS = {
    "Rochefort": ((14, 2), (50.163, 5.222)),
    "Hotton": ((18, 7), (50.267, 5.446)),
    "Marche": ((17, 4), (50.227, 5.344)),
    "Ouffet": ((26, 7), (50.439, 5.466)),
    "Elsenborn": ((27, 25), (50.458, 6.219)),
    "Durbuy": ((22, 7), (50.353, 5.456)),
    "St. Vith": ((19, 23), (50.281, 6.127)),
    "Malmedy": ((26, 21), (50.427, 6.028)),
    "Spa": ((28, 16), (50.484, 5.867)),
    "Stavelot": ((24, 19), (50.395, 5.931)),
    "Stoumont": ((25, 16), (50.407, 5.808)),
    "Trois-Ponts": ((23, 17), (50.371, 5.871)),
    "Havelange": ((24, 1), (50.389, 5.238)),
    "Manhay": ((20, 13), (50.292, 5.676)),
    "Huy": ((30, 3), (50.519, 5.233)),
    "Werbomont": ((23, 12), (50.381, 5.682)),
}


def bita_to_latlon(a: float, b: float) -> tuple[float, float]:
    """The affine transform documented in setup.toml and oob.md."""
    return (
        49.85467 + 0.0223188 * a + 0.0000499 * b,
        5.15558 + 0.0000818 * a + 0.0419416 * b,
    )


def test_bita_grid_transform_fits_its_towns() -> None:
    for town, ((a, b), (lat, lon)) in BITA_TOWNS.items():
        assert km_between(*bita_to_latlon(a, b), lat, lon) < 4.0, town
    assert km_between(*bita_to_latlon(28, 13), 50.474, 5.677) < 4.0  # Aywaille as 28,13


@pytest.mark.rule("AO-17.a")
def test_positions_agree_with_bita_start_hexes() -> None:
    """Positions refined from Cole stay within 15 km of BitA's start hex (CCR 9th Armored:
    Trois-Vierges on 16 Dec, BitA shows it on 18 Dec near Allerborn)."""
    for e in setup_entries():
        if e.bita is not None:
            a, b = (int(t) for t in e.bita.split(","))
            assert km_between(*bita_to_latlon(a, b), e.lat, e.lon) < 15.0, e.id


@pytest.mark.rule("AO-17.a")
def test_committed_setup_is_the_compiled_one(tmp_path: Path) -> None:
    """`python -m scenarios.build` writes the set-up snapped to the committed map; the
    committed file is exactly what it writes, so every machine starts from the same hexes."""
    from rules.ao.gamemap import encode_map
    from scenarios.build import SETUP_PATH, build_setup
    from scenarios.setup import compile_setup, encode_setup

    game_map = load_map()
    out = tmp_path / "setup.json"
    raw = build_setup(encode_map(game_map.data), out)
    assert raw == SETUP_PATH.read_bytes() == out.read_bytes()
    assert historical_setup() == compile_setup(game_map) == historical_setup(game_map)
    assert raw == encode_setup(historical_setup())
