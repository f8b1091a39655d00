"""The Breakthrough grid (manual x,y on rules.hexgrid) and the fit of its 17 towns."""

from __future__ import annotations

import pytest

from rules import hexgrid
from scenarios.breakthrough import grid
from scenarios.breakthrough.compile import Inputs, fit_inputs, load_inputs, projection_of
from scenarios.breakthrough.fit import fit
from scenarios.mapcompiler.projection import haversine_km


@pytest.fixture(scope="module")
def inp() -> Inputs:
    return load_inputs()


@pytest.mark.rule("BA-1.4b")
def test_the_grid_has_31_hexrows_of_32_hexes() -> None:
    coords = grid.all_coords()
    assert len(coords) == 31 * 32 == 992
    assert coords[0] == (0, 0) and coords[-1] == (30, 31)
    assert {grid.from_hex(grid.to_hex(c)) for c in coords} == set(coords)
    assert grid.to_hex((0, 0)) == "0131" and grid.to_hex((30, 31)) == "3201"
    for bad in ((31, 0), (0, 32), (-1, 5)):
        with pytest.raises(grid.CoordError):
            grid.to_hex(bad)
    assert grid.parse_label("23,31") == (23, 31)
    for text in ("31,0", "1,", "a,b", "1,2,3", " 1,2"):
        with pytest.raises(grid.CoordError):
            grid.parse_label(text)


@pytest.mark.rule("BA-1.4c")
def test_x_runs_north_y_runs_east_and_odd_hexrows_sit_half_a_hex_east() -> None:
    # Hex centres in the rules.hexgrid frame: x east, y south.
    x0, y0 = hexgrid.center(grid.to_hex((10, 5)))
    xn, yn = hexgrid.center(grid.to_hex((12, 5)))  # two hexrows north (right on the screen)
    xe, ye = hexgrid.center(grid.to_hex((10, 6)))  # one hex east (down the screen)
    assert (xn, yn) == (x0, y0 - 3**0.5) and (xe, ye) == (x0 + 1, y0)
    assert hexgrid.center(grid.to_hex((11, 5)))[0] == x0 + 0.5  # odd hexrow: half a hex east
    # So an even hexrow meets the odd ones at y-1 and y, an odd one meets the even at y and y+1.
    assert grid.neighbours((2, 5)) == [(1, 4), (1, 5), (2, 4), (2, 6), (3, 4), (3, 5)]
    assert grid.neighbours((1, 5)) == [(0, 5), (0, 6), (1, 4), (1, 6), (2, 5), (2, 6)]
    assert grid.neighbours((0, 0)) == [(0, 1), (1, 0)]
    assert grid.distance((0, 0), (30, 31)) == 46


@pytest.mark.rule("BA-10.1c", "BA-1.4b")
def test_geo_toml_holds_the_least_squares_fit_of_the_sixteen_printed_towns(inp: Inputs) -> None:
    g = inp.bita["grid"]
    f = fit(fit_inputs(inp), float(g["ref_lat"]), float(g["earth_radius_km"]))
    p = f.projection
    assert len(f.errors_km) == 16
    assert (round(p.hex_km, 3), round(p.origin_lat, 4), round(p.origin_lon, 4)) == (
        g["hex_km"],
        g["origin_lat"],
        g["origin_lon"],
    )
    # "represents an area of about two miles": 2.93 km is 1.82 miles.
    assert 2.9 < p.hex_km < 3.0
    errs = dict(f.errors_km)
    assert 1.8 < f.rms_km < 1.85
    assert max(errs.values()) == errs["Huy"]
    assert 3.6 < errs["Huy"] < 3.7
    assert errs["St. Vith"] < 0.5


def test_the_other_shift_of_the_hexrows_fits_worse(inp: Inputs) -> None:
    # Moving every town one hexrow south swaps which hexrows are shifted (the translation
    # absorbs the rest): the odd-shifted grid is the better fit, 1.82 km against 2.13 km.
    g = inp.bita["grid"]
    ours = fit(fit_inputs(inp), float(g["ref_lat"]), float(g["earth_radius_km"]))
    moved = [(n, (c[0] - 1, c[1]), ll) for n, c, ll in fit_inputs(inp)]
    other = fit(moved, float(g["ref_lat"]), float(g["earth_radius_km"]))
    assert 2.1 < other.rms_km < 2.15
    assert ours.rms_km < other.rms_km - 0.25


@pytest.mark.rule("BA-10.1c")
def test_aywaille_is_28_13_not_the_printed_8_13(inp: Inputs) -> None:
    p = projection_of(inp.bita)
    ay = inp.geo.places["Aywaille"]
    town = next(t for t in inp.towns if t.name == "Aywaille")
    assert (town.printed, town.hex, town.fit) == ("8,13", (28, 13), False)

    def km(c: grid.Coord) -> float:
        return haversine_km((ay.lat, ay.lon), p.to_latlon(*hexgrid.center(grid.to_hex(c))))

    assert km((8, 13)) > 49  # the printed hex is beside Bastogne
    assert km((28, 13)) < 1.6
    # A dropped "2": Aywaille itself falls in 28,13 under the fit of the other sixteen.
    assert grid.from_hex(hexgrid.make(*p.hex_of(ay.lat, ay.lon))) == (28, 13)


@pytest.mark.rule("BA-10.1c")
def test_bastogne_is_the_hex_its_position_falls_in(inp: Inputs) -> None:
    p = projection_of(inp.bita)
    b = inp.geo.places["Bastogne"]
    col, row = p.hex_of(b.lat, b.lon)
    town = next(t for t in inp.towns if t.name == "Bastogne")
    assert (town.printed, town.victory) == ("", 50)
    assert grid.from_hex(hexgrid.make(col, row)) == town.hex == (7, 13)
    # The VIII Corps engineers of 13.2 that may enter the corridor start there: "1102/-/VIII
    # ENG 10 16th 7,13* N".
    assert inp.oob.unit("us-1102").coord == (7, 13)
