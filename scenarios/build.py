"""Compile the reconstructed Ardennes map from real geography: ``python -m scenarios.build``.

Reads the TOML files of ``scenarios/ardennes/geo/`` (places, rivers, roads, terrain, start
line, grid) and writes ``scenarios/ardennes/map.json`` with :func:`rules.gamemap.encode_map`.
Everything is deterministic: inputs are walked in file order, sets are sorted before use and
the only floats written are hex-centre coordinates rounded to four decimals.

Projection (``grid.toml``): equirectangular on a sphere of radius ``earth_radius_km`` about the
reference latitude ``ref_lat``::

    km_per_deg_lat = pi * R / 180
    km_per_deg_lon = km_per_deg_lat * cos(ref_lat)
    x = (lon - origin_lon) * km_per_deg_lon / hex_km      # hex units, east
    y = (origin_lat - lat) * km_per_deg_lat / hex_km      # hex units, south

so that ``(x, y)`` is directly the frame of :func:`rules.hexgrid.center` (hex ``0101`` centred
on ``origin_lat, origin_lon``). ``scenarios/ardennes/README.md`` documents every judgement call.

Geometry of features:

* Rivers and the start line run along hexsides. A polyline is projected, sampled every
  ``SAMPLE_STEP`` hex, each sample is snapped to the nearest hex *vertex*, consecutive vertices
  are joined by a shortest walk in the vertex graph and loops are cut; every edge of the walk is
  the hexside between the two hexes it separates. A tributary stops where it first touches its
  parent. So each river is one connected chain (a tree, with its branches) of hexsides.
* Roads run through hex centres: each leg between two waypoints is a cheapest path over the
  hexes near the leg; crossing a river costs extra (so valley roads keep to one bank) and is
  only possible at listed crossings on rivers marked ``listed_crossings_only`` (the Meuse).
* Areas (rough, clear, impassable) are lat/lon polygons; a hex is rough when most of seven
  sample points of it lie in rough polygons and not in a clear one.
"""

from __future__ import annotations

import heapq
import itertools
import math
import sys
import time
import tomllib
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import gamemap, hexgrid
from rules.gamemap import HexData, HexsideData, MapData
from rules.hexgrid import HexId, Hexside

GEO_DIR = Path(__file__).resolve().parent / "ardennes" / "geo"
MAP_PATH = Path(__file__).resolve().parent / "ardennes" / "map.json"
SETUP_PATH = Path(__file__).resolve().parent / "ardennes" / "setup_hexes.json"

SAMPLE_STEP = 0.05
"""Polyline sampling step, in hex units, for snapping rivers and lines to hex vertices."""

U = 1.0 / (2.0 * math.sqrt(3.0))
"""Vertical unit of the vertex lattice: a vertex ``(X, Y)`` is the point ``(X / 2, Y * U)``."""

Vertex = tuple[int, int]
Point = tuple[float, float]
LatLon = tuple[float, float]


class GeoError(ValueError):
    """The geography is inconsistent (a compile that would give a wrong map)."""


# --------------------------------------------------------------------------------------------
# projection


@dataclass(frozen=True)
class Projection:
    """Equirectangular projection about ``ref_lat`` onto hex units (see module docstring)."""

    origin_lat: float
    origin_lon: float
    ref_lat: float
    hex_km: float
    earth_radius_km: float

    @property
    def km_per_deg_lat(self) -> float:
        return math.pi * self.earth_radius_km / 180.0

    @property
    def km_per_deg_lon(self) -> float:
        return self.km_per_deg_lat * math.cos(math.radians(self.ref_lat))

    def to_xy(self, lat: float, lon: float) -> Point:
        """Hex-unit coordinates of a WGS84 point."""
        x = (lon - self.origin_lon) * self.km_per_deg_lon / self.hex_km
        y = (self.origin_lat - lat) * self.km_per_deg_lat / self.hex_km
        return x, y

    def to_latlon(self, x: float, y: float) -> LatLon:
        """Inverse of :meth:`to_xy`."""
        lon = self.origin_lon + x * self.hex_km / self.km_per_deg_lon
        lat = self.origin_lat - y * self.hex_km / self.km_per_deg_lat
        return lat, lon

    def hex_of(self, lat: float, lon: float) -> tuple[int, int]:
        """1-based ``(col, row)`` of the hex containing the point (maybe off the grid)."""
        return hexgrid.at_point(*self.to_xy(lat, lon))


def haversine_km(a: LatLon, b: LatLon, radius_km: float = 6371.0) -> float:
    """Great-circle distance between two WGS84 points on a sphere."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * radius_km * math.asin(math.sqrt(h))


# --------------------------------------------------------------------------------------------
# input


@dataclass(frozen=True)
class Place:
    name: str
    lat: float
    lon: float
    town: bool
    country: str
    held: str
    """Who held it on 16 December 1944: ``"allied"`` or ``"german"``."""


@dataclass
class Geography:
    """The parsed TOML geography (plain data, in file order)."""

    grid: dict[str, Any]
    places: dict[str, Place]
    rivers: list[dict[str, Any]]
    crossings: list[dict[str, Any]]
    roads: list[dict[str, Any]]
    areas: list[dict[str, Any]]
    westwall: list[list[Any]]
    fortified: dict[str, Any]
    start_line: list[dict[str, Any]]


def load_geography(geo_dir: Path = GEO_DIR) -> Geography:
    """Read the TOML files of ``geo_dir``."""

    def read(name: str) -> dict[str, Any]:
        with (geo_dir / name).open("rb") as f:
            return tomllib.load(f)

    grid = read("grid.toml")
    pl = read("places.toml")
    places: dict[str, Place] = {}
    for name, p in pl["place"].items():
        country = str(p["country"])
        held = str(p.get("held", "german" if country == "DE" else "allied"))
        places[name] = Place(
            name, float(p["lat"]), float(p["lon"]), bool(p.get("town", False)), country, held
        )
    rv = read("rivers.toml")
    rd = read("roads.toml")
    tr = read("terrain.toml")
    fl = read("frontline.toml")
    return Geography(
        grid=grid,
        places=places,
        rivers=rv["river"],
        crossings=rv.get("crossing", []),
        roads=rd["road"],
        areas=tr["area"],
        westwall=tr["westwall"]["trace"],
        fortified=tr["fortified"],
        start_line=fl["piece"],
    )


def projection_of(geo: Geography) -> Projection:
    g = geo.grid["projection"]
    return Projection(
        origin_lat=float(g["origin_lat"]),
        origin_lon=float(g["origin_lon"]),
        ref_lat=float(g["ref_lat"]),
        hex_km=float(g["hex_km"]),
        earth_radius_km=float(g["earth_radius_km"]),
    )


def resolve_point(geo: Geography, p: Any) -> LatLon:
    """A waypoint: a place name or an inline ``[lat, lon]``."""
    if isinstance(p, str):
        if p not in geo.places:
            raise GeoError(f"unknown place {p!r}")
        pl = geo.places[p]
        return pl.lat, pl.lon
    if isinstance(p, list) and len(p) == 2:
        return float(p[0]), float(p[1])
    raise GeoError(f"not a waypoint: {p!r}")


# --------------------------------------------------------------------------------------------
# vertex lattice


def vertex_xy(v: Vertex) -> Point:
    return v[0] / 2.0, v[1] * U


def vertex_neighbours(v: Vertex) -> tuple[Vertex, Vertex, Vertex]:
    """The three vertices joined to ``v`` by a hexside, in a fixed order."""
    x, y = v
    if y % 3 == 1:  # the top corner of the hex below it
        return (x, y - 2), (x - 1, y + 1), (x + 1, y + 1)
    if y % 3 == 2:  # the bottom corner of the hex above it
        return (x, y + 2), (x - 1, y - 1), (x + 1, y - 1)
    raise ValueError(f"not a vertex: {v}")  # pragma: no cover


def hex_vertices(col: int, row: int) -> list[Vertex]:
    """The six corners of a hex (may lie outside the id range)."""
    shift = 1 if hexgrid.is_shifted(row) else 0
    cx, cy = 2 * (col - 1) + shift, 3 * (row - 1)
    return [
        (cx, cy - 2),
        (cx + 1, cy - 1),
        (cx + 1, cy + 1),
        (cx, cy + 2),
        (cx - 1, cy + 1),
        (cx - 1, cy - 1),
    ]


def nearest_vertex(p: Point) -> Vertex:
    col, row = hexgrid.at_point(*p)
    best: tuple[float, Vertex] | None = None
    for v in hex_vertices(col, row):
        vx, vy = vertex_xy(v)
        d = (vx - p[0]) ** 2 + (vy - p[1]) ** 2
        if best is None or d < best[0] - 1e-12:
            best = (d, v)
    assert best is not None
    return best[1]


def vertex_walk(a: Vertex, b: Vertex, limit: int = 40) -> list[Vertex]:
    """A shortest walk ``a .. b`` in the vertex graph (BFS, fixed neighbour order)."""
    if a == b:
        return [a]
    prev: dict[Vertex, Vertex] = {a: a}
    q = deque([a])
    while q:
        v = q.popleft()
        for n in vertex_neighbours(v):
            if n in prev:
                continue
            prev[n] = v
            if n == b:
                out = [b]
                while out[-1] != a:
                    out.append(prev[out[-1]])
                return out[::-1]
            if len(prev) > limit * limit * 4:
                raise GeoError(f"no vertex walk from {a} to {b}")
            q.append(n)
    raise GeoError(f"no vertex walk from {a} to {b}")  # pragma: no cover


def cut_loops(path: Sequence[Vertex]) -> list[Vertex]:
    """Remove every loop from a walk, keeping the first visit of each vertex."""
    out: list[Vertex] = []
    index: dict[Vertex, int] = {}
    for v in path:
        if v in index:
            k = index[v]
            for w in out[k + 1 :]:
                del index[w]
            del out[k + 1 :]
        else:
            index[v] = len(out)
            out.append(v)
    return out


def sample_polyline(points: Sequence[Point], step: float = SAMPLE_STEP) -> list[Point]:
    out: list[Point] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]
    return out


def snap_polyline(points: Sequence[Point]) -> list[Vertex]:
    """The vertex path of a polyline: nearest vertices, joined, loops cut."""
    raw: list[Vertex] = []
    for p in sample_polyline(points):
        v = nearest_vertex(p)
        if not raw or raw[-1] != v:
            raw.append(v)
    walk: list[Vertex] = [raw[0]]
    for v in raw[1:]:
        walk += vertex_walk(walk[-1], v)[1:]
    return cut_loops(walk)


def nearest_index(path: Sequence[Vertex], p: Point) -> int:
    """Index of the vertex of ``path`` nearest to ``p`` (the first one on ties)."""

    def key(k: int) -> tuple[float, int]:
        vx, vy = vertex_xy(path[k])
        return (vx - p[0]) ** 2 + (vy - p[1]) ** 2, k

    return min(range(len(path)), key=key)


def side_hexes(a: Vertex, b: Vertex) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(col, row)`` of the two hexes on either side of the lattice edge ``a``-``b``."""
    (ax, ay), (bx, by) = vertex_xy(a), vertex_xy(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    nx, ny = -dy / n * 0.5, dx / n * 0.5
    return hexgrid.at_point(mx + nx, my + ny), hexgrid.at_point(mx - nx, my - ny)


# --------------------------------------------------------------------------------------------
# polygons and distances


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def dist_to_segment(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def dist_to_polyline(p: Point, pts: Sequence[Point]) -> float:
    return min(dist_to_segment(p, a, b) for a, b in itertools.pairwise(pts))


# --------------------------------------------------------------------------------------------
# the compiled result (with the intermediate data tests want)


@dataclass
class Compiled:
    data: MapData
    projection: Projection
    river_paths: dict[str, list[list[Vertex]]] = field(default_factory=dict)
    german_side: frozenset[HexId] = frozenset()
    exits: dict[HexId, tuple[str, int]] = field(default_factory=dict)
    """Exit hex -> (road name, VP)."""
    east_exits: dict[HexId, str] = field(default_factory=dict)
    bridges: dict[Hexside, str] = field(default_factory=dict)
    """Bridge/ford hexside -> crossing name (listed crossings only)."""


class _Builder:
    def __init__(self, geo: Geography) -> None:
        self.geo = geo
        self.proj = projection_of(geo)
        g = geo.grid["grid"]
        self.columns: int = int(g["columns"])
        self.rows: int = int(g["rows"])
        self.ids: list[HexId] = list(hexgrid.iter_grid(self.columns, self.rows))
        self.idset = frozenset(self.ids)
        self.centre: dict[HexId, Point] = {h: hexgrid.center(h) for h in self.ids}
        self.terrain: dict[HexId, str] = dict.fromkeys(self.ids, "clear")
        self.town: dict[HexId, str] = {}
        self.fort: dict[HexId, str] = {}
        self.edge: dict[HexId, str] = {}
        self.exit_vp: dict[HexId, int] = {}
        self.river: dict[Hexside, str] = {}
        self.crossing: dict[Hexside, str] = {}
        self.road: set[Hexside] = set()
        self.start: set[Hexside] = set()
        self.river_paths: dict[str, list[list[Vertex]]] = {}
        self.river_vertices: dict[str, set[Vertex]] = {}
        self.river_strict: dict[str, bool] = {}
        self.listed: dict[Hexside, tuple[str, str]] = {}
        """Listed crossing hexsides allowed for roads -> (kind, crossing name)."""
        self.crossing_hexes: dict[str, list[tuple[HexId, str, str]]] = {}
        self.german: frozenset[HexId] = frozenset()
        self.exits: dict[HexId, tuple[str, int]] = {}
        self.east_exits: dict[HexId, str] = {}

    # -- helpers ----------------------------------------------------------------------------

    def hex_id(self, col: int, row: int) -> HexId | None:
        if 1 <= col <= self.columns and 1 <= row <= self.rows:
            return hexgrid.make(col, row)
        return None

    def hex_at(self, ll: LatLon) -> HexId | None:
        return self.hex_id(*self.proj.hex_of(*ll))

    def xy(self, ll: LatLon) -> Point:
        return self.proj.to_xy(*ll)

    def side_of_edge(self, a: Vertex, b: Vertex) -> Hexside | None:
        h1, h2 = side_hexes(a, b)
        i1, i2 = self.hex_id(*h1), self.hex_id(*h2)
        if i1 is None or i2 is None:
            return None
        return hexgrid.hexside(i1, i2)

    def path_sides(self, path: Sequence[Vertex]) -> list[Hexside]:
        out: list[Hexside] = []
        for a, b in itertools.pairwise(path):
            s = self.side_of_edge(a, b)
            if s is not None:
                out.append(s)
        return out

    def points(self, pts: Iterable[Any]) -> list[Point]:
        return [self.xy(resolve_point(self.geo, p)) for p in pts]

    # -- rivers -----------------------------------------------------------------------------

    def build_rivers(self) -> None:
        for r in self.geo.rivers:
            name: str = r["name"]
            path = snap_polyline(self.points(r["course"]))
            parent = r.get("joins")
            if parent is not None:
                pv = self.river_vertices[parent]
                hit = next((i for i, v in enumerate(path) if v in pv), None)
                if hit is None:
                    end = path[-1]
                    ex, ey = vertex_xy(end)
                    target = min(
                        pv,
                        key=lambda v: (
                            (vertex_xy(v)[0] - ex) ** 2 + (vertex_xy(v)[1] - ey) ** 2,
                            v,
                        ),
                    )
                    path = cut_loops(path + vertex_walk(end, target)[1:])
                    hit = next(i for i, v in enumerate(path) if v in pv)
                path = path[: hit + 1]
            for s in self.path_sides(path):
                old = self.river.get(s)
                if old is not None and old != name:
                    raise GeoError(f"hexside {s} is on both the {old} and the {name}")
                self.river[s] = name
            self.river_paths.setdefault(name, []).append(path)
            self.river_vertices.setdefault(name, set()).update(path)
            self.river_strict[name] = self.river_strict.get(name, False) or bool(
                r.get("listed_crossings_only", False)
            )

    def build_crossings(self) -> None:
        """Listed bridges and fords: the river hexsides touching the crossing's hex."""
        for c in self.geo.crossings:
            name, river, kind = c["name"], c["river"], c["kind"]
            if kind not in ("bridge", "ford"):
                raise GeoError(f"crossing {name}: kind must be bridge or ford")
            h = self.hex_at(resolve_point(self.geo, c["at"]))
            if h is None:
                raise GeoError(f"crossing {name} is off the map")
            sides = [
                hexgrid.hexside(h, n)
                for n in hexgrid.neighbours(h)
                if n is not None
                and n in self.idset
                and self.river.get(hexgrid.hexside(h, n)) == river
            ]
            if not sides:
                raise GeoError(f"crossing {name}: the {river} does not touch hex {h}")
            for s in sides:
                if s in self.listed and self.listed[s][0] != kind:
                    raise GeoError(f"crossing {name}: hexside {s} is both bridge and ford")
                self.listed.setdefault(s, (kind, name))
            self.crossing_hexes.setdefault(river, []).append((h, kind, name))

    # -- start line, sides, edges -------------------------------------------------------------

    def build_start_line(self) -> None:
        walk: list[Vertex] = []
        for piece in self.geo.start_line:
            if "river" in piece:
                rpath = [v for p in self.river_paths[piece["river"]] for v in p]
                fa = self.xy(resolve_point(self.geo, piece["from"]))
                ta = self.xy(resolve_point(self.geo, piece["to"]))

                i, j = nearest_index(rpath, fa), nearest_index(rpath, ta)
                seg = rpath[i : j + 1] if i <= j else rpath[j : i + 1][::-1]
            else:
                seg = snap_polyline(self.points(piece["points"]))
            if walk:
                walk += vertex_walk(walk[-1], seg[0])[1:] + seg[1:]
            else:
                walk = list(seg)
        walk = cut_loops(walk)
        self.start = set(self.path_sides(walk))
        # German side: flood from the east column without crossing the start line.
        seen: set[HexId] = set()
        q = deque(h for h in self.ids if hexgrid.parse(h)[0] == self.columns)
        seen.update(q)
        while q:
            h = q.popleft()
            for n in hexgrid.neighbours(h):
                if n is None or n not in self.idset or n in seen:
                    continue
                if hexgrid.hexside(h, n) in self.start:
                    continue
                seen.add(n)
                q.append(n)
        if any(hexgrid.parse(h)[0] == 1 for h in seen):
            raise GeoError("the start line does not separate the east edge from the west edge")
        self.german = frozenset(seen)

    def build_edges(self) -> None:
        sec = self.geo.grid["sections"]
        ne_nw_lon = float(sec["north_NE_from_lon"])
        nw_w_lat = float(sec["west_NW_from_lat"])
        w_sw_lat = float(sec["west_SW_below_lat"])
        sw_se_lon = float(sec["south_SE_from_lon"])
        for h in self.ids:
            col, row = hexgrid.parse(h)
            lat, lon = self.proj.to_latlon(*self.centre[h])
            on_allied_edge = row in (1, self.rows) or col == 1
            if h in self.german:
                if row in (1, self.rows):
                    self.terrain[h] = "impassable"  # errata M1: beyond the German flank
                elif col == self.columns:
                    self.edge[h] = "east"
                continue
            if col == self.columns:
                raise GeoError(f"east-column hex {h} is on the Allied side of the start line")
            if not on_allied_edge:
                continue
            if row == 1:
                self.edge[h] = "NE" if lon >= ne_nw_lon else "NW"
            elif row == self.rows:
                self.edge[h] = "SE" if lon >= sw_se_lon else "SW"
            elif lat >= nw_w_lat:
                self.edge[h] = "NW"
            elif lat >= w_sw_lat:
                self.edge[h] = "W"
            else:
                self.edge[h] = "SW"

    # -- areas ------------------------------------------------------------------------------

    def build_terrain(self) -> None:
        polys: dict[str, list[tuple[list[Point], tuple[float, float, float, float]]]] = {}
        for a in self.geo.areas:
            pts = self.points(a["polygon"])
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            polys.setdefault(a["kind"], []).append((pts, (min(xs), min(ys), max(xs), max(ys))))

        def inside(kind: str, p: Point) -> bool:
            for pts, (x0, y0, x1, y1) in polys.get(kind, []):
                if x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and point_in_polygon(p, pts):
                    return True
            return False

        r = 0.35
        offsets = [(0.0, 0.0)] + [
            (r * math.cos(math.radians(30 + 60 * k)), r * math.sin(math.radians(30 + 60 * k)))
            for k in range(6)
        ]
        for h in self.ids:
            if self.terrain[h] == "impassable":
                continue
            cx, cy = self.centre[h]
            if inside("impassable", (cx, cy)):
                self.terrain[h] = "impassable"
                continue
            votes = sum(
                1
                for dx, dy in offsets
                if inside("rough", (cx + dx, cy + dy)) and not inside("clear", (cx + dx, cy + dy))
            )
            if votes >= 4:
                self.terrain[h] = "rough"

    # -- towns, fortifications --------------------------------------------------------------

    def build_towns(self) -> None:
        for p in self.geo.places.values():
            if not p.town:
                continue
            h = self.hex_at((p.lat, p.lon))
            if h is None:
                raise GeoError(f"town {p.name} is off the map")
            if h in self.town:
                raise GeoError(f"towns {self.town[h]} and {p.name} fall in the same hex {h}")
            if h in self.edge or self.terrain[h] == "impassable":
                raise GeoError(f"town {p.name} falls in edge/impassable hex {h}")
            if (p.held == "german") != (h in self.german):
                raise GeoError(f"town {p.name} ({p.held}) is on the wrong side of the start line")
            self.town[h] = p.name

    def build_fortifications(self) -> None:
        trace = self.points(self.geo.westwall)
        width = float(self.geo.grid["westwall"]["half_width_hexes"])
        for h in self.ids:
            if h not in self.german or h in self.edge or self.terrain[h] == "impassable":
                continue
            if dist_to_polyline(self.centre[h], trace) <= width:
                self.fort[h] = "westwall"
        # AO-11.i reading: German towns behind the start line that are not West Wall hexes.
        for h, name in sorted(self.town.items()):
            if h in self.fort:
                continue
            place = self.geo.places[name]
            if place.held == "german" and place.country in self.geo.fortified["countries"]:
                self.fort[h] = "fortified"

    # -- roads ------------------------------------------------------------------------------

    def road_leg(self, a: HexId, b: HexId, pa: Point, pb: Point, exit_target: bool) -> list[HexId]:
        """Cheapest hex path from ``a`` to ``b`` near the segment ``pa``-``pb``."""
        for corridor in (2.5, 6.0, 15.0):
            path = self._dijkstra(a, b, pa, pb, corridor, exit_target)
            if path is not None:
                return path
        raise GeoError(f"no road path from {a} to {b}")

    def _dijkstra(
        self, a: HexId, b: HexId, pa: Point, pb: Point, corridor: float, exit_target: bool
    ) -> list[HexId] | None:
        dist: dict[HexId, float] = {a: 0.0}
        prev: dict[HexId, HexId] = {}
        heap: list[tuple[float, HexId]] = [(0.0, a)]
        while heap:
            d, h = heapq.heappop(heap)
            if h == b:
                out = [b]
                while out[-1] != a:
                    out.append(prev[out[-1]])
                return out[::-1]
            if d > dist[h]:
                continue
            for n in hexgrid.neighbours(h):
                if n is None or n not in self.idset:
                    continue
                if self.terrain[n] == "impassable":
                    continue
                if n in self.edge and n != b and n != a:
                    continue
                if n == b and n in self.edge and not exit_target and n != a:
                    continue
                off = dist_to_segment(self.centre[n], pa, pb)
                if off > corridor and n != b:
                    continue
                cost = 1.0 + 0.6 * off * off
                s = hexgrid.hexside(h, n)
                rv = self.river.get(s)
                if rv is not None:
                    if s in self.listed:
                        cost += 0.5
                    elif self.river_strict[rv]:
                        continue
                    else:
                        cost += 3.0
                nd = d + cost
                if nd < dist.get(n, math.inf) - 1e-9:
                    dist[n] = nd
                    prev[n] = h
                    heapq.heappush(heap, (nd, n))
        return None

    def exit_hex(self, p_in: LatLon, p_out: LatLon) -> HexId:
        """Where the segment from an on-map point toward an off-map one leaves the live map.

        That is the first edge (or impassable) hex it meets, else its last on-grid hex.
        """
        a, b = self.xy(p_in), self.xy(p_out)
        last: HexId | None = None
        for x, y in sample_polyline([a, b], 0.02):
            h = self.hex_id(*hexgrid.at_point(x, y))
            if h is None:
                break
            last = h
            if h in self.edge or self.terrain[h] == "impassable":
                break
        if last is None:
            raise GeoError("exit road starts off the map")
        return last

    def build_roads(self) -> None:
        for r in self.geo.roads:
            name = r.get("name", "")
            pts = [resolve_point(self.geo, p) for p in r["via"]]
            label = f"road {name or r['via'][0]}-{r['via'][-1]}"
            hexes = [self.hex_at(p) for p in pts]
            exit_to: HexId | None = None
            if hexes[-1] is None or hexes[-1] in self.edge:
                if any(h is None for h in hexes[:-1]):
                    raise GeoError(f"{label}: only its last point may be off the map")
                exit_to = self.exit_hex(pts[-2], pts[-1])
                hexes[-1] = exit_to
                pts[-1] = self.proj.to_latlon(*self.centre[exit_to])
            elif any(h is None for h in hexes):
                raise GeoError(f"{label}: a waypoint is off the map")
            full: list[HexId] = []
            for i in range(len(pts) - 1):
                ha, hb = hexes[i], hexes[i + 1]
                assert ha is not None and hb is not None
                try:
                    leg = self.road_leg(
                        ha, hb, self.xy(pts[i]), self.xy(pts[i + 1]), exit_target=exit_to == hb
                    )
                except GeoError as exc:
                    raise GeoError(f"{label}: {exc}") from None
                full += leg if not full else leg[1:]
            for x, y in itertools.pairwise(full):
                self.road.add(hexgrid.hexside(x, y))
            if exit_to is not None:
                edge = self.edge.get(exit_to)
                if edge is None:
                    raise GeoError(f"{label}: leaves the map through {exit_to}, not an edge hex")
                if edge == "east":
                    if "exit_vp" in r:
                        raise GeoError(f"{label}: east-edge roads carry no VP")
                    self.east_exits[exit_to] = name or str(r["via"][0])
                    continue
                if edge != r.get("exit_section"):
                    raise GeoError(
                        f"{label}: leaves through {exit_to} in section {edge}, "
                        f"data says {r.get('exit_section')}"
                    )
                vp = int(r["exit_vp"])
                if exit_to in self.exits:
                    raise GeoError(
                        f"{label}: exit hex {exit_to} already used by {self.exits[exit_to][0]}"
                    )
                self.exits[exit_to] = (label, vp)
                self.exit_vp[exit_to] = vp
            elif "exit_vp" in r:
                raise GeoError(f"{label}: has exit_vp but does not leave the map")

    def build_bridges(self) -> None:
        used: set[str] = set()
        for s in sorted(self.road):
            rv = self.river.get(s)
            if rv is None:
                continue
            if s in self.listed:
                kind, cname = self.listed[s]
                self.crossing[s] = kind
                used.add(cname)
            elif self.river_strict[rv]:  # pragma: no cover - the path search forbids it
                raise GeoError(f"road crosses the {rv} at {s} without a listed crossing")
            else:
                self.crossing[s] = "bridge"  # 1944: every road crossing of these rivers was bridged
        unused = [c["name"] for c in self.geo.crossings if c["name"] not in used]
        if unused:
            raise GeoError(f"listed crossings not on any road: {', '.join(unused)}")

    # -- output -----------------------------------------------------------------------------

    def build(self) -> Compiled:
        self.build_rivers()
        self.build_start_line()
        self.build_edges()
        self.build_terrain()
        self.build_towns()
        self.build_fortifications()
        self.build_crossings()
        self.build_roads()
        self.build_bridges()
        hexes: list[HexData] = []
        for h in self.ids:
            lat, lon = self.proj.to_latlon(*self.centre[h])
            hexes.append(
                HexData(
                    id=h,
                    terrain=self.terrain[h],  # type: ignore[arg-type]
                    town=self.town.get(h),
                    fortification=self.fort.get(h),  # type: ignore[arg-type]
                    edge=self.edge.get(h),  # type: ignore[arg-type]
                    exit_vp=self.exit_vp.get(h),
                    lat=round(lat, 4),
                    lon=round(lon, 4),
                )
            )
        sides: list[HexsideData] = []
        for s in sorted(set(self.river) | self.road | self.start):
            sides.append(
                HexsideData(
                    hexes=s,
                    river=self.river.get(s),
                    crossing=self.crossing.get(s),  # type: ignore[arg-type]
                    road=s in self.road,
                    start_line=s in self.start,
                )
            )
        data = MapData(
            map=str(self.geo.grid["map"]),
            hex_km=self.proj.hex_km,
            columns=self.columns,
            rows=self.rows,
            hexes=hexes,
            hexsides=sides,
        )
        return Compiled(
            data=data,
            projection=self.proj,
            river_paths=self.river_paths,
            german_side=self.german,
            exits=self.exits,
            east_exits=self.east_exits,
            bridges={s: self.listed[s][1] for s in self.crossing if s in self.listed},
        )


def compile_geography(geo: Geography) -> Compiled:
    """Compile parsed geography into the map (and the intermediate data tests check)."""
    return _Builder(geo).build()


def build(geo_dir: Path = GEO_DIR, out: Path = MAP_PATH) -> bytes:
    """Compile ``geo_dir`` and write the map to ``out``; return the bytes written."""
    compiled = compile_geography(load_geography(geo_dir))
    raw = gamemap.encode_map(compiled.data)
    gamemap.decode_map(raw)  # the loader must accept what we write
    out.write_bytes(raw)
    return raw


def build_setup(map_raw: bytes, out: Path = SETUP_PATH) -> bytes:
    """Snap the historical set-up (``setup.toml``, lat/lon) to the hexes of the compiled map
    ``map_raw`` and write it to ``out`` (AO-17.a); return the bytes written."""
    from rules.scenario import compile_setup, encode_setup

    raw = encode_setup(compile_setup(gamemap.decode_map(map_raw)))
    out.write_bytes(raw)
    return raw


def overview(data: MapData) -> str:
    """One text line per hex row (for eyeballing the compile; not used by the game)."""
    by = {h.id: h for h in data.hexes}
    lines = []
    for row in range(1, data.rows + 1):
        cells = []
        for col in range(1, data.columns + 1):
            h = by[hexgrid.make(col, row)]
            c = {"clear": ".", "rough": "~", "impassable": "#"}[h.terrain]
            if h.fortification == "westwall":
                c = "W"
            elif h.fortification == "fortified":
                c = "F"
            if h.edge == "east":
                c = "e"
            elif h.edge is not None:
                c = "x" if h.exit_vp else ":"
            if h.town:
                c = "T"
            cells.append(c)
        pad = " " if hexgrid.is_shifted(row) else ""
        lines.append(pad + " ".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] = ()) -> int:
    """``python -m scenarios.build [--out PATH] [--setup-out PATH] [--overview]``: the map,
    then the historical set-up snapped to it."""
    args = list(argv)
    out, setup_out = MAP_PATH, SETUP_PATH
    for flag in ("--out", "--setup-out"):
        if flag in args:
            i = args.index(flag)
            if flag == "--out":
                out = Path(args[i + 1])
            else:
                setup_out = Path(args[i + 1])
            del args[i : i + 2]
    t0 = time.perf_counter()
    raw = build(out=out)
    dt = time.perf_counter() - t0
    if "--overview" in args:
        print(overview(gamemap.decode_map(raw).data))
    print(f"wrote {out} ({len(raw)} bytes) in {dt:.2f} s")
    t0 = time.perf_counter()
    setup_raw = build_setup(raw, setup_out)
    dt = time.perf_counter() - t0
    print(f"wrote {setup_out} ({len(setup_raw)} bytes) in {dt:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
