"""The compiled Ardennes map: structure, edges, rivers, roads, bridges, start line, recompile.

These check ``scenarios/ardennes/map.json`` as committed (what the game loads), and that the
compiler in ``scenarios/build.py`` reproduces it byte for byte from the geography.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter, deque
from collections.abc import Iterable
from pathlib import Path

import pytest

from rules import hexgrid
from rules.ao.gamemap import ALLIED_SECTIONS, GameMap
from rules.hexgrid import HexId, Hexside
from scenarios import build, load_map
from scenarios.mapcompiler import geometry

REPO = Path(__file__).resolve().parents[2]

MEUSE_BRIDGE_TOWNS = ("Givet", "Dinant", "Namur", "Andenne", "Huy", "Liège", "Sedan")
"""The Meuse towns whose bridges are the only Meuse crossings (rivers.toml)."""


@pytest.fixture(scope="module")
def gmap() -> GameMap:
    return load_map("ardennes")


@pytest.fixture(scope="module")
def compiled() -> build.Compiled:
    return build.compile_geography(build.load_geography())


def _components(edges: Iterable[tuple[HexId, HexId]]) -> list[set[HexId]]:
    adj: dict[HexId, set[HexId]] = {}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    seen: set[HexId] = set()
    comps: list[set[HexId]] = []
    for start in sorted(adj):
        if start in seen:
            continue
        comp = {start}
        q = deque([start])
        while q:
            h = q.popleft()
            for n in adj[h]:
                if n not in comp:
                    comp.add(n)
                    q.append(n)
        seen |= comp
        comps.append(comp)
    return comps


def _vertices(side: Hexside) -> frozenset[tuple[int, int]]:
    """The two hex vertices (as lattice points) at the ends of a hexside."""
    a, b = side
    ca = {geometry.vertex_xy(v) for v in geometry.hex_vertices(*hexgrid.parse(a))}
    cb = {geometry.vertex_xy(v) for v in geometry.hex_vertices(*hexgrid.parse(b))}
    shared = ca & cb
    assert len(shared) == 2, side
    return frozenset((round(x * 2), round(y / geometry.U)) for x, y in shared)


def _side_chain_components(sides: list[Hexside]) -> int:
    """Number of groups of hexsides connected through shared vertices."""
    verts = {s: _vertices(s) for s in sides}
    parent = {s: s for s in sides}

    def find(s: Hexside) -> Hexside:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    by_vertex: dict[tuple[int, int], list[Hexside]] = {}
    for s, vs in verts.items():
        for v in vs:
            by_vertex.setdefault(v, []).append(s)
    for group in by_vertex.values():
        for s in group[1:]:
            parent[find(s)] = find(group[0])
    return len({find(s) for s in sides})


# -- recompiling ----------------------------------------------------------------------------


def test_recompile_gives_identical_bytes(tmp_path: Path) -> None:
    committed = (REPO / "scenarios" / "ardennes" / "map.json").read_bytes()
    out = tmp_path / "map.json"
    assert build.build(out=out) == committed
    assert out.read_bytes() == committed


def test_compiler_is_independent_of_hash_seed(tmp_path: Path) -> None:
    # Two processes with different string-hash seeds: set/dict order must not leak into bytes.
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"map{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "scenarios.build", "--out", str(out)],
            cwd=REPO,
            env=env,
            check=True,
            capture_output=True,
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == (REPO / "scenarios" / "ardennes" / "map.json").read_bytes()


# -- the grid -------------------------------------------------------------------------------


def test_grid_size_and_scale(gmap: GameMap) -> None:
    assert gmap.name == "ardennes"
    assert gmap.data.hex_km == 3.15
    assert (gmap.columns, gmap.rows) == (42, 45)
    assert gmap.columns <= 42  # the one-line-per-row overview fits ~84 characters
    assert len(gmap.data.hexes) == gmap.columns * gmap.rows


def test_hex_centre_coordinates_come_from_the_projection(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    proj = compiled.projection
    for h in gmap.data.hexes:
        lat, lon = proj.to_latlon(*hexgrid.center(h.id))
        assert (h.lat, h.lon) == (round(lat, 4), round(lon, 4))
        # and the centre projects back into its own hex
        assert hexgrid.make(*proj.hex_of(h.lat, h.lon)) == h.id


# -- edges ----------------------------------------------------------------------------------


@pytest.mark.rule("AO-5.3L")
def test_allied_edge_is_one_ring_on_north_west_south(gmap: GameMap) -> None:
    for h in gmap.data.hexes:
        col, row = hexgrid.parse(h.id)
        on_ring = row in (1, gmap.rows) or col == 1
        if h.edge in ALLIED_SECTIONS:
            assert on_ring, h.id
        elif on_ring:
            # the only ring hexes that are not Allied edge hexes: errata M1 corners
            assert h.edge is None and h.terrain == "impassable", h.id
    counts = Counter(h.edge for h in gmap.data.hexes)
    assert all(counts[s] >= 10 for s in ALLIED_SECTIONS), counts


@pytest.mark.rule("AO-14.1b")
def test_sections_run_in_order_around_the_map(gmap: GameMap) -> None:
    # Walk the ring from the north-east end of the north edge, westward, down the west edge,
    # then eastward along the south edge: the sections must come in order NE, NW, W, SW, SE.
    ring = [hexgrid.make(c, 1) for c in range(gmap.columns, 0, -1)]
    ring += [hexgrid.make(1, r) for r in range(2, gmap.rows + 1)]
    ring += [hexgrid.make(c, gmap.rows) for c in range(2, gmap.columns + 1)]
    seq: list[str] = []
    for h in ring:
        e = gmap.hex(h).edge
        if e is not None and e != "east" and (not seq or seq[-1] != e):
            seq.append(e)
    assert seq == list(ALLIED_SECTIONS)
    # Historical anchors: Liège's exits are NW, Eupen's NE, the Meuse crossings' W,
    # Sedan's SW, Luxembourg's SE.
    anchors = {"Liège": "NW", "Eupen": "NE", "Dinant": "W", "Sedan": "SW", "Luxembourg": "SE"}
    for town, section in anchors.items():
        h = gmap.town_hex(town)
        near = {gmap.hex(n).edge for n in hexgrid.within(h, 4) if n in gmap}
        assert section in near, (town, near)


@pytest.mark.rule("AO-5.3L")
def test_errata_m1_corners_are_impassable_and_on_the_german_side(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    corners = [h for h in gmap.data.hexes if h.terrain == "impassable"]
    assert corners, "the German flanks of the north and south edges"
    for h in corners:
        _col, row = hexgrid.parse(h.id)
        assert row in (1, gmap.rows), h.id
        assert h.id in compiled.german_side
        assert h.edge is None and h.town is None and h.exit_vp is None
    # and every hex of those two rows beyond the start line is such a corner
    for h in gmap.data.hexes:
        _col, row = hexgrid.parse(h.id)
        if row in (1, gmap.rows) and h.id in compiled.german_side:
            assert h.terrain == "impassable", h.id


@pytest.mark.rule("AO-11.g")
def test_nothing_lives_in_impassable_hexes(gmap: GameMap) -> None:
    for h in gmap.data.hexes:
        if h.terrain != "impassable":
            continue
        assert h.town is None and h.fortification is None
        assert not gmap.is_road_hex(h.id), h.id
    for h in gmap.data.hexes:
        if h.edge is not None:
            assert h.terrain != "impassable", h.id


@pytest.mark.rule("AO-12.2D")
@pytest.mark.rule("AO-14.1A")
def test_german_east_edge_has_several_roads(gmap: GameMap, compiled: build.Compiled) -> None:
    east = [h for h in gmap.data.hexes if h.edge == "east"]
    assert all(hexgrid.parse(h.id)[0] == gmap.columns for h in east)
    assert all(h.id in compiled.german_side for h in east)
    road_east = [
        h.id
        for h in east
        if any(gmap.side(h.id, n).road and gmap.hex(n).edge is None for n in gmap.neighbours(h.id))
    ]
    assert len(road_east) >= 5, road_east
    rows = sorted(hexgrid.parse(h)[1] for h in road_east)
    assert rows[-1] - rows[0] >= 20  # spread from the Eifel (Hellenthal) to Trier


# -- exits and VP ---------------------------------------------------------------------------


@pytest.mark.rule("AO-16.B")
@pytest.mark.rule("AO-12.2F")
def test_every_exit_hex_is_an_allied_edge_hex_on_a_road_leaving_the_map(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    exits = gmap.exit_hexes()
    assert exits
    for h in exits:
        assert h.edge in ALLIED_SECTIONS, h.id
        assert h.exit_vp is not None and h.exit_vp >= 1
        live = [n for n in gmap.neighbours(h.id) if gmap.hex(n).edge is None]
        assert any(gmap.side(h.id, n).road for n in live), f"{h.id}: no road onto the live map"
        assert h.id in compiled.exits  # built from a road whose last waypoint is off the sheet
    assert sorted(compiled.exits) == sorted(h.id for h in exits)
    # every section can receive reinforcements: it has at least one road exit (AO-14.1A)
    assert {h.edge for h in exits} == set(ALLIED_SECTIONS)


@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-16.F")
def test_roads_touch_the_allied_edge_only_at_exit_hexes(gmap: GameMap) -> None:
    # Reinforcements enter, and Allied supply is traced, at edge hexes next to a road
    # hexside: on this map those are exactly the road exit hexes.
    exits = {h.id for h in gmap.exit_hexes()}
    for h in gmap.data.hexes:
        if h.edge in ALLIED_SECTIONS and gmap.is_road_hex(h.id):
            assert h.id in exits, h.id


@pytest.mark.rule("AO-16.B")
@pytest.mark.rule("AO-16.D")
@pytest.mark.rule("AO-16.2")
@pytest.mark.rule("AO-16.3")
def test_exit_vp_weights_follow_the_german_objectives(gmap: GameMap) -> None:
    vp: Counter[str] = Counter()
    for h in gmap.exit_hexes():
        assert h.edge is not None and h.exit_vp is not None
        vp[h.edge] += h.exit_vp
    # Liège and the Meuse crossings were the objectives; the north shoulder next; the south
    # exits (which need Bastogne, AO-16.D) least.
    assert vp["NW"] > vp["NE"] and vp["W"] > vp["NE"]
    assert vp["SW"] + vp["SE"] < vp["NW"]
    # Not one section alone reaches 35; the north and west together are needed (see README).
    assert max(vp.values()) < 35
    assert 50 <= sum(vp.values()) <= 80


# -- rivers, bridges, roads -----------------------------------------------------------------


@pytest.mark.rule("AO-11.c")
def test_each_river_is_one_connected_chain_of_hexsides(gmap: GameMap) -> None:
    by_river: dict[str, list[Hexside]] = {}
    for s in gmap.sides():
        if s.river is not None:
            by_river.setdefault(s.river, []).append(s.hexes)
    expected = {"Meuse", "Ourthe", "Amblève", "Salm", "Our", "Sauer", "Clerve", "Wiltz"}
    expected |= {"Lesse", "Vesdre", "Alzette", "Moselle", "Lienne", "Semois"}
    assert set(by_river) == expected
    for river, sides in by_river.items():
        # The Meuse leaves the sheet west of Givet and comes back at Sedan: two reaches.
        assert _side_chain_components(sides) == (2 if river == "Meuse" else 1), river


@pytest.mark.rule("AO-11.c")
def test_tributaries_meet_their_rivers(gmap: GameMap) -> None:
    joins = {
        "Ourthe": "Meuse",
        "Amblève": "Ourthe",
        "Salm": "Amblève",
        "Our": "Sauer",
        "Wiltz": "Sauer",
        "Clerve": "Wiltz",
        "Vesdre": "Ourthe",
        "Lesse": "Meuse",
        "Alzette": "Sauer",
        "Sauer": "Moselle",
    }
    verts: dict[str, set[tuple[int, int]]] = {}
    for s in gmap.sides():
        if s.river is not None:
            verts.setdefault(s.river, set()).update(_vertices(s.hexes))
    for trib, main in joins.items():
        assert verts[trib] & verts[main], (trib, main)


@pytest.mark.rule("AO-11.d")
@pytest.mark.rule("AO-11.b")
def test_every_crossing_is_a_road_over_a_river(gmap: GameMap) -> None:
    kinds: Counter[str] = Counter()
    for s in gmap.sides():
        if s.crossing is not None:
            assert s.river is not None and s.road, s.hexes
            kinds[s.crossing] += 1
        if s.road and s.river is not None:
            assert s.crossing is not None, f"road crosses the {s.river} at {s.hexes} unbridged"
    assert kinds["bridge"] >= 30
    assert kinds["ford"] >= 1


@pytest.mark.rule("AO-11.d")
@pytest.mark.rule("AO-14.3C")
def test_the_meuse_is_crossed_only_at_the_bridge_towns(gmap: GameMap) -> None:
    towns = {gmap.town_hex(t) for t in MEUSE_BRIDGE_TOWNS}
    crossed = set()
    for s in gmap.sides():
        if s.river == "Meuse" and s.crossing is not None:
            assert s.crossing == "bridge"
            a, b = s.hexes
            hit = towns & {a, b}
            assert hit, f"Meuse bridge {s.hexes} is at no bridge town"
            crossed |= hit
    assert crossed == towns  # and every bridge town has its bridge


@pytest.mark.rule("AO-11.j")
def test_road_net_is_connected(gmap: GameMap) -> None:
    comps = _components(s.hexes for s in gmap.sides() if s.road)
    assert len(comps) == 1
    for town in gmap.towns():
        assert gmap.is_road_hex(gmap.town_hex(town)), town


@pytest.mark.rule("AO-11.j")
@pytest.mark.parametrize("town", ["Bastogne", "St. Vith", "Houffalize", "Marche"])
def test_road_junctions(gmap: GameMap, town: str) -> None:
    h = gmap.town_hex(town)
    assert sum(gmap.side(h, n).road for n in gmap.neighbours(h)) >= 4


@pytest.mark.rule("AO-11.j")
def test_road_sides_join_adjacent_hexes_off_impassable(gmap: GameMap) -> None:
    for s in gmap.sides():
        if s.road:
            a, b = s.hexes
            assert hexgrid.adjacent(a, b)
            assert gmap.hex(a).terrain != "impassable" and gmap.hex(b).terrain != "impassable"
            # a road never runs along the Allied edge ring: at most one end is an edge hex
            assert not (gmap.is_allied_edge(a) and gmap.is_allied_edge(b)), s.hexes


# -- towns, fortifications, start line ------------------------------------------------------


@pytest.mark.rule("AO-11.f")
def test_towns_are_on_the_live_map(gmap: GameMap) -> None:
    assert len(gmap.towns()) >= 40
    for name, h in gmap.towns().items():
        hx = gmap.hex(h)
        assert hx.edge is None and hx.terrain != "impassable", name


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-11.i")
def test_fortifications_are_behind_the_german_start_line(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    ww = [h.id for h in gmap.data.hexes if h.fortification == "westwall"]
    fort = [h for h in gmap.data.hexes if h.fortification == "fortified"]
    assert len(ww) >= 30
    for h in ww:
        assert h in compiled.german_side, h
        assert gmap.hex(h).edge is None
    # the West Wall belt touches the start line from Monschau to the Sauer
    on_line = [h for h in ww if any(gmap.side(h, n).start_line for n in gmap.neighbours(h))]
    assert len(on_line) >= 15
    # AO-11.i reading: the German towns of the Eifel behind the line
    assert {h.town for h in fort} == {"Prüm", "Bitburg", "Waxweiler", "Stadtkyll"}
    assert all(h.id in compiled.german_side for h in fort)


def test_start_line_is_one_chain_from_north_edge_to_south_edge(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    sides = [s.hexes for s in gmap.sides() if s.start_line]
    assert _side_chain_components(sides) == 1
    rows = {hexgrid.parse(h)[1] for s in sides for h in s}
    assert 1 in rows and gmap.rows in rows
    # it separates the map: west column Allied, east column German
    for r in range(1, gmap.rows + 1):
        assert hexgrid.make(1, r) not in compiled.german_side
        assert hexgrid.make(gmap.columns, r) in compiled.german_side
    # and the engine's own flood fill (rules.ao.start_line) agrees, if that module is present
    start_line = pytest.importorskip("rules.ao.start_line")
    assert start_line.german_side(gmap) == compiled.german_side


@pytest.mark.rule("AO-13.4E")
def test_start_line_bridges_on_the_our_and_sauer(gmap: GameMap) -> None:
    # The German assault crossings (Dasburg, Gemünd, Echternach...) are bisected by the line.
    on_line = [s for s in gmap.sides() if s.start_line and s.crossing is not None]
    assert len(on_line) >= 4
    assert {s.river for s in on_line} <= {"Our", "Sauer", "Moselle"}


def test_sides_of_the_line_match_who_held_the_towns(
    gmap: GameMap, compiled: build.Compiled
) -> None:
    geo = build.load_geography()
    for name, h in gmap.towns().items():
        held = geo.places[name].held
        assert (h in compiled.german_side) == (held == "german"), name
    assert gmap.town_hex("Monschau") not in compiled.german_side  # errata M6
    assert gmap.town_hex("Echternach") not in compiled.german_side
    assert gmap.town_hex("Prüm") in compiled.german_side
