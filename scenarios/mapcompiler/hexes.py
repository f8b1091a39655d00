"""Features of whole hexes: map edges, terrain, towns, fortifications.

Areas (rough, clear, impassable) are lat/lon polygons; a hex is rough when most of seven
sample points of it lie in rough polygons and not in a clear one. The West Wall is a trace
with a half-width; German towns behind the start line in the ``fortified`` countries are
fortified.
"""

from __future__ import annotations

import math

from rules import hexgrid
from scenarios.mapcompiler.draft import Draft
from scenarios.mapcompiler.geography import GeoError
from scenarios.mapcompiler.geometry import dist_to_polyline, point_in_polygon
from scenarios.mapcompiler.projection import Point

Box = tuple[float, float, float, float]
"""A bounding box ``(x0, y0, x1, y1)``."""


def build_edges(d: Draft) -> None:
    """Allied edge sections and the German east edge; German flank rows become impassable."""
    sec = d.geo.grid["sections"]
    ne_nw_lon = float(sec["north_NE_from_lon"])
    nw_w_lat = float(sec["west_NW_from_lat"])
    w_sw_lat = float(sec["west_SW_below_lat"])
    sw_se_lon = float(sec["south_SE_from_lon"])
    for h in d.ids:
        col, row = hexgrid.parse(h)
        lat, lon = d.proj.to_latlon(*d.centre[h])
        on_allied_edge = row in (1, d.rows) or col == 1
        if h in d.german:
            if row in (1, d.rows):
                d.terrain[h] = "impassable"  # errata M1: beyond the German flank
            elif col == d.columns:
                d.edge[h] = "east"
            continue
        if col == d.columns:
            raise GeoError(f"east-column hex {h} is on the Allied side of the start line")
        if not on_allied_edge:
            continue
        if row == 1:
            d.edge[h] = "NE" if lon >= ne_nw_lon else "NW"
        elif row == d.rows:
            d.edge[h] = "SE" if lon >= sw_se_lon else "SW"
        elif lat >= nw_w_lat:
            d.edge[h] = "NW"
        elif lat >= w_sw_lat:
            d.edge[h] = "W"
        else:
            d.edge[h] = "SW"


def build_terrain(d: Draft) -> None:
    """Impassable and rough hexes from the area polygons."""
    polys: dict[str, list[tuple[list[Point], Box]]] = {}
    for a in d.geo.areas:
        pts = d.points(a["polygon"])
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
    for h in d.ids:
        if d.terrain[h] == "impassable":
            continue
        cx, cy = d.centre[h]
        if inside("impassable", (cx, cy)):
            d.terrain[h] = "impassable"
            continue
        votes = sum(
            1
            for dx, dy in offsets
            if inside("rough", (cx + dx, cy + dy)) and not inside("clear", (cx + dx, cy + dy))
        )
        if votes >= 4:
            d.terrain[h] = "rough"


def build_towns(d: Draft) -> None:
    """One town per hex, on the side of the start line its place was held by."""
    for p in d.geo.places.values():
        if not p.town:
            continue
        h = d.hex_at((p.lat, p.lon))
        if h is None:
            raise GeoError(f"town {p.name} is off the map")
        if h in d.town:
            raise GeoError(f"towns {d.town[h]} and {p.name} fall in the same hex {h}")
        if d.is_blocked(h):
            raise GeoError(f"town {p.name} falls in edge/impassable hex {h}")
        if (p.held == "german") != (h in d.german):
            raise GeoError(f"town {p.name} ({p.held}) is on the wrong side of the start line")
        d.town[h] = p.name


def build_fortifications(d: Draft) -> None:
    """West Wall hexes along its trace, then fortified German towns."""
    trace = d.points(d.geo.westwall)
    width = float(d.geo.grid["westwall"]["half_width_hexes"])
    for h in d.ids:
        if h not in d.german or d.is_blocked(h):
            continue
        if dist_to_polyline(d.centre[h], trace) <= width:
            d.fort[h] = "westwall"
    # AO-11.i reading: German towns behind the start line that are not West Wall hexes.
    for h, name in sorted(d.town.items()):
        if h in d.fort:
            continue
        place = d.geo.places[name]
        if place.held == "german" and place.country in d.geo.fortified["countries"]:
            d.fort[h] = "fortified"
