"""The compiled Breakthrough map: recompile, terrain, towns, rivers, roads, edges, exits, owner,
the road-scoring area, the corridor, the strict loader and the text drawing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import deque
from pathlib import Path

import msgspec
import pytest

from scenarios.breakthrough import grid
from scenarios.breakthrough.compile import Compiled, build, compile_map, load_inputs
from scenarios.breakthrough.grid import Coord
from scenarios.breakthrough.mapdata import (
    MAP_PATH,
    BreakthroughMap,
    MapDataError,
    decode_map,
    encode_map,
    load_map,
    render,
)
from scenarios.breakthrough.oob import OrderOfBattle, load_oob

REPO = Path(__file__).resolve().parents[3]

VICTORY_TOWNS = {
    "Rochefort": (14, 2),
    "Hotton": (18, 7),
    "Marche": (17, 4),
    "Ouffet": (26, 7),
    "Elsenborn": (27, 25),
    "Durbuy": (22, 7),
    "St. Vith": (19, 23),
    "Aywaille": (28, 13),
    "Malmedy": (26, 21),
    "Spa": (28, 16),
    "Stavelot": (24, 19),
    "Stoumont": (25, 16),
    "Trois Ponts": (23, 17),
    "Havelange": (24, 1),
    "Manhay": (20, 13),
    "Huy": (30, 3),
    "Werbomont": (23, 12),
}
"""10.1's LOCATIONS as printed (Aywaille's "8,13" corrected), worked out from the manual."""


@pytest.fixture(scope="module")
def compiled() -> Compiled:
    return compile_map(load_inputs())


@pytest.fixture(scope="module")
def m(compiled: Compiled) -> BreakthroughMap:
    """The map as the compiler makes it now (the committed file is the same bytes: tested)."""
    return BreakthroughMap(compiled.data)


@pytest.fixture(scope="module")
def oob() -> OrderOfBattle:
    return load_oob()


def _at(compiled: Compiled, lat: float, lon: float) -> Coord:
    col, row = compiled.projection.hex_of(lat, lon)
    return (grid.X_COUNT - row, col - 1)


def test_the_committed_map_is_a_fresh_compile(tmp_path: Path) -> None:
    out = tmp_path / "map.json"
    raw = build(out)
    assert raw == MAP_PATH.read_bytes() == out.read_bytes()


@pytest.mark.rule("BA-1.4d")
def test_every_hex_has_one_of_the_four_terrains_from_the_forest_and_relief_data(
    m: BreakthroughMap, compiled: Compiled
) -> None:
    terrains = {h.terrain for h in m}
    assert terrains == {"clear", "rough", "forest", "town"}
    # Points inside the shared geography's areas (scenarios/ardennes/geo/terrain.toml):
    forest = {
        "Saint-Hubert forest": (50.07, 5.40),
        "Forêt de Freyr": (50.12, 5.30),
        "Schnee Eifel": (50.27, 6.39),
        "Krinkelter Wald": (50.44, 6.33),
        "Plateau des Tailles": (50.26, 5.78),
    }
    relief = {"Amblève gorge at La Gleize": (50.40, 5.85), "Hohes Venn": (50.52, 6.10)}
    for name, ll in forest.items():
        assert m.hex(_at(compiled, *ll)).terrain == "forest", name
    for name, ll in relief.items():
        assert m.hex(_at(compiled, *ll)).terrain == "rough", name
    # The Famenne between Rochefort and Marche is open country.
    assert m.hex(_at(compiled, 50.20, 5.28)).terrain == "clear"


@pytest.mark.rule("BA-10.1c")
def test_the_victory_towns_are_in_their_printed_hexes_bastogne_worth_fifty(
    m: BreakthroughMap,
) -> None:
    got = m.victory_towns()
    want = {name: (c, 25) for name, c in VICTORY_TOWNS.items()} | {"Bastogne": ((7, 13), 50)}
    assert got == want
    for c, _ in want.values():
        assert m.hex(c).terrain == "town"
    # Other towns are town terrain without points: Houffalize, La Roche, St. Hubert, Wiltz ...
    towns = m.towns()
    assert {"Houffalize", "La Roche", "Saint-Hubert", "Wiltz", "Vielsalm"} <= set(towns)
    assert all(m.hex(c).victory == 0 for n, c in towns.items() if n not in want)


@pytest.mark.rule("BA-1.4e")
def test_rivers_and_roads_are_hexsides_and_bridge_sites_are_where_they_cross(
    m: BreakthroughMap,
) -> None:
    sides = m.data.hexsides
    rivers = {s.river for s in sides if s.river}
    assert {"Ourthe", "Amblève", "Salm", "Our", "Clerve", "Sauer", "Wiltz"} <= rivers
    assert all(s.bridge == (s.road and s.river is not None) for s in sides)
    bridged = {s.river for s in sides if s.bridge}
    # 12.0: "Blow the bridges across the Ourthe River"; the Salm line of the Goose Egg.
    assert sum(1 for s in sides if s.bridge and s.river == "Ourthe") >= 5
    assert {"Ourthe", "Salm", "Amblève", "Our"} <= bridged
    # Lookups are symmetric.
    s = next(s for s in sides if s.bridge)
    assert m.bridge(s.a, s.b) and m.bridge(s.b, s.a) and m.road(s.b, s.a)
    assert m.river(s.a, s.b) == s.river


def test_the_road_net_joins_every_town_of_the_victory_list(m: BreakthroughMap) -> None:
    start = (7, 13)
    seen = {start}
    q = deque([start])
    while q:
        c = q.popleft()
        for n in grid.neighbours(c):
            if n not in seen and m.road(c, n):
                seen.add(n)
                q.append(n)
    assert set(VICTORY_TOWNS.values()) <= seen
    # 11.0, 12.0: Bastogne, St. Vith and Houffalize are road centres.
    for c in ((7, 13), (19, 23), m.towns()["Houffalize"]):
        assert sum(1 for n in grid.neighbours(c) if m.road(c, n)) >= 3


@pytest.mark.rule("BA-4.1c")
def test_each_friendly_map_edge_has_road_hexes(m: BreakthroughMap) -> None:
    us = m.edge_road_hexes("american")
    de = m.edge_road_hexes("german")
    assert {c[1] for c in de} == {31}
    assert any(c[0] == 30 for c in us) and any(c[0] == 0 for c in us)
    assert any(c[1] == 0 for c in us)
    assert not any(c[1] == 31 and c[0] not in (0, 30) for c in us)
    assert m.hex((0, 0)).edges == ("south", "west") and m.hex((30, 31)).edges == ("north", "east")


@pytest.mark.rule("BA-1.4i")
def test_exits_are_road_hexes_of_the_northern_west_edge_and_the_north_edge_west_of_the_ourthe(
    m: BreakthroughMap,
) -> None:
    exits = m.exits()
    roads = m.road_hexes()
    assert exits and set(exits) <= roads
    for c in exits:
        assert (c[1] == 0 and c[0] >= 14) or (c[0] == 30 and m.hex(c).road_score)
    assert any(c[1] == 0 for c in exits) and any(c[0] == 30 for c in exits)
    # Every road hex of the west edge from Rochefort's hexrow north is an exit.
    assert {c for c in roads if c[1] == 0 and c[0] >= 14} <= set(exits)
    assert (30, 3) in exits  # Huy, the Meuse bridge


def test_each_start_hex_is_owned_by_its_units_side(m: BreakthroughMap, oob: OrderOfBattle) -> None:
    for u in oob.units:
        if u.at_start:
            assert m.hex(u.coord).owner == u.side, u.id
    german = {(h.x, h.y) for h in m if h.owner == "german"}
    assert {(x, 31) for x in range(31)} <= german  # the east edge is German
    assert not any(c[1] < 20 for c in german)  # nothing German west of the front


def test_road_scoring_area_is_north_of_st_hubert_and_west_of_the_ourthe(
    m: BreakthroughMap,
) -> None:
    area = {(h.x, h.y) for h in m if h.road_score}
    sh = m.towns()["Saint-Hubert"]
    assert sh == (8, 5)
    assert all(c[0] > 8 for c in area)
    assert {(17, 4), (14, 2), (18, 7), (30, 3)} <= area  # Marche, Rochefort, Hotton, Huy
    assert not {(20, 13), (7, 13), (23, 12), (13, 15)} & area  # Manhay, Bastogne ...
    # No hexside of the area's border east is crossed without crossing the Ourthe.
    for c in area:
        for n in grid.neighbours(c):
            if n[0] > 8 and n not in area:
                assert m.river(c, n) == "Ourthe", (c, n)


@pytest.mark.rule("BA-13.2d")
def test_the_corridor_is_hexrows_11_to_17_through_22_december(
    m: BreakthroughMap, oob: OrderOfBattle
) -> None:
    cor = m.data.corridor
    assert (cor.x_from, cor.x_to, cor.until_day) == (11, 17, 22)
    assert m.in_corridor((11, 0)) and m.in_corridor((17, 31))
    assert not m.in_corridor((10, 5)) and not m.in_corridor((18, 5))
    # C3: no unmarked American unit starts or enters in it, under either reading.
    for u in oob.side("american"):
        if m.in_corridor(u.coord):
            assert u.corridor, u.id


@pytest.mark.rule("BA-13.2b")
def test_start_and_entry_hexes_fit_the_map_edges(oob: OrderOfBattle) -> None:
    for u in oob.units:
        x, y = u.coord
        if u.side == "german":
            assert x != 0, u.id
            if not u.at_start:
                assert y == 31, u.id
        elif not u.at_start:
            assert x in (0, 30) or y == 0, u.id


def test_the_loader_refuses_bad_bytes() -> None:
    raw = MAP_PATH.read_bytes()
    data = decode_map(raw)
    assert encode_map(data) == raw
    with pytest.raises(MapDataError, match="over"):
        decode_map(b" " * (1024 * 1024 + 1))
    with pytest.raises(MapDataError, match="not a Breakthrough map"):
        decode_map(raw.replace(b'"hex_km"', b'"hex_mm"', 1))
    short = msgspec.structs.replace(data, hexes=data.hexes[:-1])
    with pytest.raises(MapDataError, match="every x,y"):
        decode_map(encode_map(short))
    far = msgspec.structs.replace(data.hexsides[0], b=(30, 31))
    with pytest.raises(MapDataError, match="not between neighbours"):
        decode_map(encode_map(msgspec.structs.replace(data, hexsides=(far,))))
    with pytest.raises(MapDataError, match="cannot read"):
        load_map(Path("/nonexistent/map.json"))


@pytest.mark.rule("BA-1.4c")
def test_the_drawing_puts_west_at_the_top_and_north_to_the_right(m: BreakthroughMap) -> None:
    lines = render(m)
    assert len(lines) == 2 + 2 * 32 + 3
    assert max(len(line) for line in lines[:-3]) <= 4 + 3 * 31

    def cell(c: Coord) -> str:
        line = lines[2 + 2 * c[1] + c[0] % 2]
        return line[4 + 3 * c[0] : 6 + 3 * c[0]]

    assert cell((7, 13))[0] == "B"  # Bastogne
    assert cell((19, 23))[0] == "V"  # St. Vith
    assert cell((28, 29))[0] == "F"  # German-held forest (the Krinkelter Wald's east)
    assert cell((15, 0)) == ".X"  # a west-edge exit
    assert lines[2].startswith(" 0  ") and lines[2 + 2 * 31].startswith("31  ")


def test_which_entry_hexes_are_road_hexes(m: BreakthroughMap, oob: OrderOfBattle) -> None:
    # README "Edges, entries, exits": the printed entry hexes and our road net.
    roads = m.road_hexes()
    entries: dict[str, set[Coord]] = {"american": set(), "german": set()}
    for u in oob.units:
        if not u.at_start:
            entries[u.side].add(u.coord)
    assert len(entries["american"]) == 16 and len(entries["german"]) == 4
    assert sorted(entries["american"] & roads) == [
        (0, 14),
        (0, 23),
        (19, 0),
        (30, 12),
        (30, 16),
        (30, 22),
    ]
    assert sorted(entries["german"] & roads) == [(14, 31), (16, 31)]
    for side, cs in entries.items():
        edge_roads = m.edge_road_hexes("american" if side == "american" else "german")
        assert max(min(grid.distance(c, e) for e in edge_roads) for c in cs) <= 3


def test_the_compile_is_independent_of_the_hash_seed(tmp_path: Path) -> None:
    # Two processes with other string-hash seeds: no set or dict order may leak into the bytes.
    committed = MAP_PATH.read_bytes()
    for seed in ("1", "2"):
        out = tmp_path / f"map{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "scenarios.breakthrough.compile", "--out", str(out)],
            check=True,
            env=env,
            cwd=REPO,
            capture_output=True,
        )
        assert out.read_bytes() == committed
