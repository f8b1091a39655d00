"""The map against real geography: projection, town hexes, distances, rivers by their towns.

The projection is re-implemented here from ``grid.toml`` (independently of the compiler), and
town hexes are recomputed from the lat/lon in ``places.toml``, not read from the JSON alone.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from rules import hexgrid
from rules.ao.gamemap import GameMap
from scenarios import build, load_map

GEO = Path(build.__file__).resolve().parent / "ardennes" / "geo"


@pytest.fixture(scope="module")
def gmap() -> GameMap:
    return load_map("ardennes")


@pytest.fixture(scope="module")
def geo() -> build.Geography:
    return build.load_geography()


def _grid() -> dict[str, float]:
    with (GEO / "grid.toml").open("rb") as f:
        return {k: float(v) for k, v in tomllib.load(f)["projection"].items()}


def project(lat: float, lon: float) -> tuple[float, float]:
    """Equirectangular projection to hex units, straight from grid.toml."""
    g = _grid()
    k_lat = math.pi * g["earth_radius_km"] / 180.0
    k_lon = k_lat * math.cos(math.radians(g["ref_lat"]))
    return (
        (lon - g["origin_lon"]) * k_lon / g["hex_km"],
        (g["origin_lat"] - lat) * k_lat / g["hex_km"],
    )


def haversine_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    la1, lo1, la2, lo2 = map(math.radians, (*a, *b))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def test_projection_constants() -> None:
    g = _grid()
    assert g["hex_km"] == 3.15  # AO-2.2
    proj = build.projection_of(build.load_geography())
    assert proj.km_per_deg_lat == pytest.approx(111.19493, abs=1e-5)
    assert proj.km_per_deg_lon == pytest.approx(111.19493 * math.cos(math.radians(50.13)))
    for lat, lon in [(50.0, 5.7), (50.634, 5.567), (49.61, 6.133)]:
        assert proj.to_xy(lat, lon) == pytest.approx(project(lat, lon))
        assert proj.to_latlon(*proj.to_xy(lat, lon)) == pytest.approx((lat, lon))


def test_every_town_is_in_the_hex_containing_its_coordinates(
    gmap: GameMap, geo: build.Geography
) -> None:
    towns = {n: p for n, p in geo.places.items() if p.town}
    assert set(towns) == set(gmap.towns())
    for name, p in towns.items():
        expected = hexgrid.make(*hexgrid.at_point(*project(p.lat, p.lon)))
        assert gmap.town_hex(name) == expected, name
        # and the town really is inside that hex: within a hex's circumradius of its centre
        cx, cy = hexgrid.center(expected)
        x, y = project(p.lat, p.lon)
        assert math.hypot(x - cx, y - cy) <= 1 / math.sqrt(3) + 1e-9, name


PAIRS = [
    ("Bastogne", "St. Vith"),
    ("Bastogne", "Liège"),
    ("Dinant", "Bastogne"),
    ("Monschau", "Echternach"),
    ("Namur", "Luxembourg"),
    ("Givet", "Prüm"),
    ("Liège", "Arlon"),
    ("Eupen", "Sedan"),
    ("Marche", "Malmedy"),
    ("Houffalize", "Wiltz"),
    ("Bitburg", "Huy"),
    ("Stavelot", "Trois-Ponts"),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_town_distances_match_the_real_ones(
    gmap: GameMap, geo: build.Geography, a: str, b: str
) -> None:
    pa, pb = geo.places[a], geo.places[b]
    real_hexes = haversine_km((pa.lat, pa.lon), (pb.lat, pb.lon)) / 3.15
    ha, hb = gmap.town_hex(a), gmap.town_hex(b)
    (xa, ya), (xb, yb) = hexgrid.center(ha), hexgrid.center(hb)
    # Straight-line distance between the two hex centres: within one hex of the real one
    # (each town is at most 0.58 hex from its hex centre; the projection adds < 1.2 %).
    assert math.hypot(xb - xa, yb - ya) == pytest.approx(real_hexes, abs=1.0)
    # Counted in hex steps the distance is longer off the grid's three axes: a hex path is
    # at most 2/sqrt(3) = 1.155 times the straight line. Within one hex of those bounds.
    steps = hexgrid.distance(ha, hb)
    assert real_hexes - 1 <= steps <= real_hexes * 2 / math.sqrt(3) + 1


def test_extent_covers_the_campaign(gmap: GameMap, geo: build.Geography) -> None:
    towns = gmap.towns()
    for t in ["Givet", "Dinant", "Namur", "Huy", "Liège", "Verviers", "Eupen", "Monschau"]:
        assert t in towns
    for t in ["Prüm", "Bitburg", "Arlon", "Luxembourg", "Bastogne", "St. Vith"]:
        assert t in towns
    # Liège, Eupen on the north; Luxembourg and Arlon on the south; Bitburg on the east.
    assert hexgrid.parse(towns["Liège"])[1] <= 3
    assert hexgrid.parse(towns["Eupen"])[1] <= 3
    assert hexgrid.parse(towns["Luxembourg"])[1] >= gmap.rows - 2
    assert hexgrid.parse(towns["Bitburg"])[0] >= gmap.columns - 3
    assert hexgrid.parse(towns["Givet"])[0] <= 4
    # the off-sheet destinations of exit roads really are off the live map
    for name, p in geo.places.items():
        col, row = hexgrid.at_point(*project(p.lat, p.lon))
        inside = 1 < col < gmap.columns and 1 < row < gmap.rows
        assert inside != name.startswith("@"), name


RIVER_TOWNS = {
    "Meuse": ["Givet", "Dinant", "Namur", "Andenne", "Huy", "Liège", "Sedan"],
    "Ourthe": ["La Roche", "Hotton", "Durbuy", "Houffalize"],
    "Amblève": ["Stavelot", "Trois-Ponts"],
    "Salm": ["Vielsalm"],
    "Sauer": ["Martelange", "Ettelbruck", "Diekirch", "Echternach"],
    "Wiltz": ["Wiltz"],
    "Clerve": ["Clervaux"],
    "Vesdre": ["Eupen", "Verviers"],
    "Alzette": ["Luxembourg", "Mersch"],
    "Lesse": [],
}


@pytest.mark.rule("AO-11.c")
@pytest.mark.parametrize("river", sorted(RIVER_TOWNS))
def test_rivers_run_past_their_towns(gmap: GameMap, river: str) -> None:
    for town in RIVER_TOWNS[river]:
        h = gmap.town_hex(town)
        near = [n for n in hexgrid.within(h, 1) if n in gmap]
        sides = {gmap.side(x, y).river for x in near for y in gmap.neighbours(x)}
        assert river in sides, (river, town)


@pytest.mark.rule("AO-11.e")
def test_rough_and_clear_where_history_says(gmap: GameMap, geo: build.Geography) -> None:
    def terrain_at(name: str) -> str:
        p = geo.places[name]
        return gmap.hex(hexgrid.make(*hexgrid.at_point(*project(p.lat, p.lon)))).terrain

    assert terrain_at("Baraque Michel") == "rough"  # Hohes Venn
    assert terrain_at("Manderfeld") == "clear"  # the Losheim Gap
    assert terrain_at("Elsenborn") == "clear"  # Elsenborn ridge
    assert terrain_at("Bastogne") == "clear"  # the Bastogne plateau
    assert terrain_at("Marche") == "clear"  # the Famenne
    rough = sum(h.terrain == "rough" for h in gmap.data.hexes)
    assert 0.10 < rough / len(gmap.data.hexes) < 0.30


@pytest.mark.rule("AO-11.h")
def test_west_wall_follows_the_border_belt(gmap: GameMap, geo: build.Geography) -> None:
    ww = {h.id for h in gmap.data.hexes if h.fortification == "westwall"}
    for name in ["Wahlerscheid", "Hollerath", "Udenbreth", "Dasburg"]:
        p = geo.places[name]
        h = hexgrid.make(*hexgrid.at_point(*project(p.lat, p.lon)))
        assert {h, *(n for n in hexgrid.neighbours(h) if n)} & ww, name
    # nothing of it west of the Our/Sauer line or in the Ardennes proper
    for h in ww:
        lat = gmap.hex(h).lat
        lon = gmap.hex(h).lon
        assert lon > 6.12 or (lat > 50.45 and lon > 6.1), h


@pytest.mark.rule("AO-11.g")
def test_no_impassable_hex_inside_the_map_only_the_m1_corners(gmap: GameMap) -> None:
    # AO-11.g / errata M7: we place no impassable hex inside the map (scenarios/ardennes/
    # README.md, "Impassable hexes"); the only ones are the errata-M1 corners on the first
    # and last rows, beyond the German flanks: 3801-4201 and 3945-4245, nine hexes.
    impassable = sorted(h.id for h in gmap.data.hexes if h.terrain == "impassable")
    assert impassable == [
        "3801", "3901", "3945", "4001", "4045", "4101", "4145", "4201", "4245",
    ]  # fmt: skip


@pytest.mark.rule("AO-11.g")
@pytest.mark.rule("AO-11.e")
def test_the_hohes_venn_is_rough_and_enterable_not_impassable(
    gmap: GameMap, geo: build.Geography
) -> None:
    # Every hex whose centre lies in the Hohes Venn polygon of terrain.toml is rough (2 MP on
    # foot, 4 mechanized), none impassable; the roads over it (Eupen-Malmedy by Baraque Michel,
    # Eupen-Monschau) cross it, and the core between them carries none.
    from scenarios.mapcompiler.geometry import point_in_polygon

    area = next(a for a in geo.areas if a["name"].startswith("Hohes Venn"))
    ring = [project(lat, lon) for lat, lon in area["polygon"]]
    venn = [h for h in gmap.data.hexes if point_in_polygon(hexgrid.center(h.id), ring)]
    assert len(venn) >= 20
    assert all(h.terrain == "rough" for h in venn)
    roadless = sorted(h.id for h in venn if not gmap.is_road_hex(h.id))
    assert {"3106", "3108", "3206", "3207", "3208"} <= set(roadless)
    baraque = geo.places["Baraque Michel"]
    hx = hexgrid.make(*hexgrid.at_point(*project(baraque.lat, baraque.lon)))
    assert gmap.is_road_hex(hx) and gmap.hex(hx).terrain == "rough"


@pytest.mark.rule("AO-11.g")
def test_a_unit_walks_into_the_venn_core_and_never_into_a_corner() -> None:
    # On the real map, GT3, nothing else on it: the foot regiment de-15-pt in 3107 (Baraque
    # Michel, on the Eupen-Malmedy road) steps off the road into the roadless 3106 (rough:
    # 2 MP) and on to 3206 (2 more); the M1 corner 4201 is refused as impassable.
    from rules.ao.movement import trace_path
    from rules.ao.state import GameState, UnitState
    from rules.rejection import Rejection
    from scenarios import load_board

    b = load_board(1)

    def at(hex_id: str) -> GameState:
        return GameState(
            scenario=1,
            turn=3,
            side="german",
            phase="initial_movement",
            units=(UnitState(id="de-15-pt", hex=hex_id),),
        )

    r = trace_path(b, at("3107"), "de-15-pt", ["3106", "3206"])
    assert not isinstance(r, Rejection) and r.cost == 2 + 2
    r2 = trace_path(b, at("4102"), "de-15-pt", ["4201"])
    assert isinstance(r2, Rejection) and r2.case == "AO-11.g"
