"""Compile the Breakthrough map from the project's geography: ``make map-breakthrough``.

The same sources and method as the AO map (:mod:`scenarios.mapcompiler`): the places, rivers,
roads, terrain areas and start line of ``scenarios/ardennes/geo/``, projected with the AO
projection onto the manual's grid as placed by the town fit (``geo.toml``, :mod:`.fit`).
Rivers and the start line are snapped to hex corners by the AO compiler's own steps
(:func:`~scenarios.mapcompiler.hexsides.build_rivers`,
:func:`~scenarios.mapcompiler.hexsides.build_start_line`); roads are routed leg by leg with its
:func:`~scenarios.mapcompiler.roads.road_leg`. What differs is Breakthrough's own:

* terrain: clear, rough, forest, town (BA-1.4d): the AO rough areas split by their ``cover``;
* the victory towns sit in the hexes the manual prints (Aywaille and Bastogne reconstructed),
  and the roads through them are routed through those hexes;
* roads are clipped to the map (a road may enter and leave it anywhere);
* every road hexside over a river is a bridge site (BA-6.7a);
* owner on 16 December, edges, exits, the road-scoring area and the corridor.

Deterministic: inputs in file order, sets sorted, floats rounded (``README.md``).
"""

from __future__ import annotations

import copy
import itertools
import math
import sys
import tomllib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import hexgrid
from rules.hexgrid import HexId, Hexside
from scenarios.breakthrough import grid
from scenarios.breakthrough.fit import Fit, errors, fit
from scenarios.breakthrough.grid import Coord
from scenarios.breakthrough.mapdata import (
    MAP_PATH,
    Corridor,
    Edge,
    HexData,
    HexsideData,
    MapData,
    Side,
    Terrain,
    decode_map,
    encode_map,
)
from scenarios.breakthrough.oob import OrderOfBattle, load_oob
from scenarios.mapcompiler.draft import Draft
from scenarios.mapcompiler.geography import (
    GEO_DIR,
    GeoError,
    Geography,
    Place,
    load_geography,
    resolve_point,
)
from scenarios.mapcompiler.geometry import point_in_polygon, sample_polyline
from scenarios.mapcompiler.hexsides import build_crossings, build_rivers, build_start_line
from scenarios.mapcompiler.projection import LatLon, Point, Projection
from scenarios.mapcompiler.roads import road_leg

GEO_TOML = Path(__file__).resolve().parent / "geo.toml"

SAMPLE_OFFSETS = [(0.0, 0.0)] + [
    (0.35 * math.cos(math.radians(30 + 60 * k)), 0.35 * math.sin(math.radians(30 + 60 * k)))
    for k in range(6)
]
"""The AO compiler's seven sample points of a hex (its centre and six points 0.35 hex out)."""


@dataclass(frozen=True)
class Town:
    """A town of ``geo.toml``: the manual's victory towns and Bastogne."""

    name: str
    place: str
    printed: str
    hex: Coord
    fit: bool
    victory: int


@dataclass(frozen=True)
class Inputs:
    """Everything the compile reads."""

    geo: Geography
    bita: dict[str, Any]
    towns: tuple[Town, ...]
    oob: OrderOfBattle


@dataclass(frozen=True)
class Compiled:
    """The compiled map and the intermediate results tests check."""

    data: MapData
    fit: Fit
    """The fit recomputed from the towns (``geo.toml`` stores it rounded)."""
    projection: Projection
    """The projection used (``geo.toml``'s rounded values)."""


def load_inputs(geo_dir: Path = GEO_DIR, geo_toml: Path = GEO_TOML) -> Inputs:
    """Read the shared geography and ``geo.toml``."""
    geo = load_geography(geo_dir)
    with geo_toml.open("rb") as f:
        bita = tomllib.load(f)
    towns = []
    for t in bita["town"]:
        if t["place"] not in geo.places:
            raise GeoError(f"town {t['name']}: unknown place {t['place']!r}")
        towns.append(
            Town(
                name=str(t["name"]),
                place=str(t["place"]),
                printed=str(t["printed"]),
                hex=grid.parse_label(str(t["hex"])),
                fit=bool(t.get("fit", True)),
                victory=int(t.get("victory", 25)),
            )
        )
    return Inputs(geo, bita, tuple(towns), load_oob())


def fit_inputs(inp: Inputs) -> list[tuple[str, Coord, LatLon]]:
    """The towns that take part in the fit: (name, printed hex, real position)."""
    return [
        (t.name, t.hex, (inp.geo.places[t.place].lat, inp.geo.places[t.place].lon))
        for t in inp.towns
        if t.fit
    ]


def projection_of(bita: dict[str, Any]) -> Projection:
    """The projection of ``geo.toml``'s ``[grid]``."""
    g = bita["grid"]
    return Projection(
        origin_lat=float(g["origin_lat"]),
        origin_lon=float(g["origin_lon"]),
        ref_lat=float(g["ref_lat"]),
        hex_km=float(g["hex_km"]),
        earth_radius_km=float(g["earth_radius_km"]),
    )


def _draft(inp: Inputs, proj: Projection) -> Draft:
    """An AO compiler draft on the Breakthrough grid (its own copy of the geography)."""
    geo = copy.deepcopy(inp.geo)
    g = inp.bita["grid"]
    geo.grid = {
        "map": "breakthrough",
        "projection": {
            k: g[k] for k in ("hex_km", "earth_radius_km", "ref_lat", "origin_lat", "origin_lon")
        },
        "grid": {"columns": grid.COLUMNS, "rows": grid.ROWS},
    }
    d = Draft(geo)
    assert d.proj == proj
    # Only the listed crossings on this map (the Meuse bridges at Huy and Andenne): roads may
    # cross the Meuse nowhere else (rivers.toml, listed_crossings_only).
    geo.crossings = [c for c in inp.geo.crossings if d.hex_at(resolve_point(geo, c["at"]))]
    return d


def _terrain(d: Draft) -> dict[HexId, Terrain]:
    """Forest or rough where most of a hex's seven sample points lie in such areas."""
    polys: dict[str, list[list[Point]]] = {}
    for a in d.geo.areas:
        kind = a["kind"] if a["kind"] != "rough" else a["cover"]
        polys.setdefault(kind, []).append(d.points(a["polygon"]))

    def inside(kind: str, p: Point) -> bool:
        return any(point_in_polygon(p, pts) for pts in polys.get(kind, []))

    out: dict[HexId, Terrain] = {}
    for h in d.ids:
        cx, cy = d.centre[h]
        forest = relief = 0
        for dx, dy in SAMPLE_OFFSETS:
            p = (cx + dx, cy + dy)
            if inside("clear", p):
                continue
            forest += inside("forest", p)
            relief += inside("relief", p) and not inside("forest", p)
        if forest + relief >= 4:
            out[h] = "forest" if forest >= relief else "rough"
        else:
            out[h] = "clear"
    return out


def _towns(d: Draft, inp: Inputs) -> dict[HexId, tuple[str, int]]:
    """Victory towns at their hexes, then every other on-map town not sharing a hex."""
    out: dict[HexId, tuple[str, int]] = {}
    named = {t.place for t in inp.towns}
    for t in inp.towns:
        h = grid.to_hex(t.hex)
        if h in out:
            raise GeoError(f"towns {out[h][0]} and {t.name} in the same hex {grid.label(t.hex)}")
        out[h] = (t.name, t.victory)
    for p in d.geo.places.values():
        if not p.town or p.name in named:
            continue
        at = d.hex_at((p.lat, p.lon))
        if at is not None and at not in out:
            out[at] = (p.name, 0)
    return out


def _route_roads(d: Draft, inp: Inputs) -> None:
    """Road hexsides, each road clipped to the map; victory towns routed through their hexes."""
    geo = d.geo
    saved = geo.places
    geo.places = dict(saved)
    for t in inp.towns:  # roads go through the hex the manual prints for the town
        lat, lon = d.proj.to_latlon(*hexgrid.center(grid.to_hex(t.hex)))
        p = saved[t.place]
        geo.places[t.place] = Place(p.name, lat, lon, p.town, p.country, p.held)
    try:
        for r in geo.roads:
            for run in _runs_on_map(d, [d.xy(resolve_point(geo, p)) for p in r["via"]]):
                _route_run(d, run, str(r.get("name", r["via"][0])))
    finally:
        geo.places = saved


def _runs_on_map(d: Draft, pts: Sequence[Point]) -> list[list[Point]]:
    """The parts of a polyline on the map: each its first point on the map, the waypoints
    between and its last point on the map (sampled every 0.05 hex)."""
    samples: list[tuple[Point, bool]] = [(pts[0], True)]
    for a, b in itertools.pairwise(pts):
        seg = sample_polyline([a, b], 0.05)[1:]
        samples += [(q, False) for q in seg[:-1]] + [(seg[-1], True)]
    runs: list[list[Point]] = []
    cur: list[Point] = []
    last: Point | None = None
    for p, waypoint in [*samples, ((math.inf, math.inf), True)]:
        if math.isfinite(p[0]) and d.hex_id(*hexgrid.at_point(*p)) is not None:
            if not cur or waypoint:
                cur.append(p)
            last = p
        elif cur:
            assert last is not None
            if cur[-1] != last:
                cur.append(last)
            runs.append(cur)
            cur = []
    return runs


def _route_run(d: Draft, run: list[Point], name: str) -> None:
    hexes = [d.hex_id(*hexgrid.at_point(*p)) for p in run]
    for i in range(len(run) - 1):
        a, b = hexes[i], hexes[i + 1]
        assert a is not None and b is not None
        if a == b:
            continue
        try:
            leg = road_leg(d, a, b, run[i], run[i + 1], exit_target=True)
        except GeoError as exc:
            raise GeoError(f"road {name}: {exc}") from None
        for x, y in itertools.pairwise(leg):
            d.road.add(hexgrid.hexside(x, y))


def _flood(d: Draft, start: list[HexId], blocked: set[Hexside], allowed: set[HexId]) -> set[HexId]:
    seen = set(start)
    q = deque(sorted(start))
    while q:
        h = q.popleft()
        for n in d.neighbours(h):
            if n in seen or n not in allowed or hexgrid.hexside(h, n) in blocked:
                continue
            seen.add(n)
            q.append(n)
    return seen


def start_owners(oob: OrderOfBattle) -> dict[Coord, Side]:
    """The hexes of the units on the map on 16 December, each owned by its units' side: 4.1d's
    "An enemy hex is one that either contains an enemy unit or ..." comes before the start line
    (README "Owner on 16 December")."""
    out: dict[Coord, Side] = {}
    for u in oob.units:
        if not u.at_start:
            continue
        if out.setdefault(u.coord, u.side) != u.side:
            raise GeoError(f"units of both sides start in {u.hex}")
    return out


def _edges(c: Coord) -> tuple[Edge, ...]:
    out: list[Edge] = []
    if c[0] == 0:
        out.append("south")
    if c[0] == grid.X_COUNT - 1:
        out.append("north")
    if c[1] == 0:
        out.append("west")
    if c[1] == grid.Y_COUNT - 1:
        out.append("east")
    return tuple(out)


def compile_map(inp: Inputs) -> Compiled:
    """Compile the inputs into the map."""
    proj = projection_of(inp.bita)
    d = _draft(inp, proj)
    build_rivers(d)
    build_start_line(d)
    build_crossings(d)
    _route_roads(d, inp)
    terrain = _terrain(d)
    towns = _towns(d, inp)
    road_hexes = {h for s in d.road for h in s}
    coord = {h: grid.from_hex(h) for h in d.ids}
    # Road-scoring area (BA-10.1g): north of St. Hubert's hexrow and west of the Ourthe (what
    # the west edge reaches in those rows without crossing the Ourthe).
    ourthe = {s for s, r in d.river.items() if r == inp.bita["map"]["ourthe"]}
    sh = inp.geo.places[inp.bita["map"]["st_hubert"]]
    sh_hex = d.hex_at((sh.lat, sh.lon))
    if sh_hex is None:
        raise GeoError("St. Hubert is off the map")
    north = {h for h in d.ids if coord[h][0] > coord[sh_hex][0]}
    score = _flood(d, [h for h in north if coord[h][1] == 0], ourthe, north)
    if any(coord[h][1] == grid.Y_COUNT - 1 for h in score):
        raise GeoError("the Ourthe does not close the road-scoring area")
    # Exits (BA-7.10a): west-edge road hexes from exits.west_from_x north, and north-edge road
    # hexes west of the Ourthe.
    exits = {
        h
        for h in road_hexes
        if (coord[h][1] == 0 and coord[h][0] >= int(inp.bita["exits"]["west_from_x"]))
        or (coord[h][0] == grid.X_COUNT - 1 and h in score)
    }
    owner: dict[HexId, Side] = {h: "german" if h in d.german else "american" for h in d.ids}
    for c, side in start_owners(inp.oob).items():
        owner[grid.to_hex(c)] = side
    hexes = []
    for h in sorted(d.ids, key=lambda i: coord[i]):
        c = coord[h]
        lat, lon = d.proj.to_latlon(*d.centre[h])
        town = towns.get(h)
        hexes.append(
            HexData(
                x=c[0],
                y=c[1],
                terrain="town" if town else terrain[h],
                town=town[0] if town else None,
                victory=town[1] if town else 0,
                edges=_edges(c),
                owner=owner[h],
                exit=h in exits,
                road_score=h in score,
                lat=round(lat, 4),
                lon=round(lon, 4),
            )
        )
    sides = []
    for s in set(d.river) | d.road | d.start:
        a, b = sorted((coord[s[0]], coord[s[1]]))
        river = d.river.get(s)
        sides.append(
            HexsideData(
                a=a,
                b=b,
                river=river,
                road=s in d.road,
                bridge=river is not None and s in d.road,
                start_line=s in d.start,
            )
        )
    sides.sort(key=lambda s: (s.a, s.b))
    cor = inp.bita["corridor"]
    data = MapData(
        map="breakthrough",
        hex_km=proj.hex_km,
        origin_lat=proj.origin_lat,
        origin_lon=proj.origin_lon,
        x_count=grid.X_COUNT,
        y_count=grid.Y_COUNT,
        corridor=Corridor(int(cor["x_from"]), int(cor["x_to"]), int(cor["until_day"])),
        hexes=tuple(hexes),
        hexsides=tuple(sides),
    )
    g = inp.bita["grid"]
    fresh = fit(fit_inputs(inp), float(g["ref_lat"]), float(g["earth_radius_km"]))
    return Compiled(data, fresh, proj)


def town_errors(inp: Inputs, proj: Projection) -> tuple[tuple[str, float], ...]:
    """Every town of ``geo.toml`` (fitted or not) and its distance to its hex's centre, km."""
    places = inp.geo.places
    return errors(
        proj, [(t.name, t.hex, (places[t.place].lat, places[t.place].lon)) for t in inp.towns]
    )


def build(out: Path = MAP_PATH) -> bytes:
    """Compile and write ``map.json``; return the bytes written."""
    raw = encode_map(compile_map(load_inputs()).data)
    decode_map(raw)  # the loader must accept what we write
    out.write_bytes(raw)
    return raw


def main(argv: Sequence[str] = ()) -> int:
    """``python -m scenarios.breakthrough.compile [--out PATH]``."""
    args = list(argv)
    out = Path(args[args.index("--out") + 1]) if "--out" in args else MAP_PATH
    raw = build(out)
    print(f"wrote {out} ({len(raw)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
