"""Features along hexsides: rivers, their listed crossings, and the start line.

Rivers and the start line are polylines snapped to the vertex lattice
(:func:`~scenarios.mapcompiler.geometry.snap_polyline`); every edge of the snapped walk is the
hexside between the two hexes it separates. A tributary stops where it first touches its
parent, so each river is one connected chain (a tree, with its branches) of hexsides. The
German side is what the east column reaches without crossing the start line.
"""

from __future__ import annotations

from collections import deque

from rules import hexgrid
from rules.hexgrid import HexId
from scenarios.mapcompiler.draft import Draft
from scenarios.mapcompiler.geography import GeoError, resolve_point
from scenarios.mapcompiler.geometry import (
    Vertex,
    cut_loops,
    nearest_index,
    snap_polyline,
    squared_distance,
    vertex_walk,
    vertex_xy,
)


def build_rivers(d: Draft) -> None:
    """River hexsides, in file order (a tributary after its parent)."""
    for r in d.geo.rivers:
        name: str = r["name"]
        path = snap_polyline(d.points(r["course"]))
        parent = r.get("joins")
        if parent is not None:
            pv = d.river_vertices[parent]
            hit = next((i for i, v in enumerate(path) if v in pv), None)
            if hit is None:
                end = path[-1]
                pe = vertex_xy(end)
                target = min(pv, key=lambda v: (squared_distance(v, pe), v))
                path = cut_loops(path + vertex_walk(end, target)[1:])
                hit = next(i for i, v in enumerate(path) if v in pv)
            path = path[: hit + 1]
        for s in d.path_sides(path):
            old = d.river.get(s)
            if old is not None and old != name:
                raise GeoError(f"hexside {s} is on both the {old} and the {name}")
            d.river[s] = name
        d.river_paths.setdefault(name, []).append(path)
        d.river_vertices.setdefault(name, set()).update(path)
        d.river_strict[name] = d.river_strict.get(name, False) or bool(
            r.get("listed_crossings_only", False)
        )


def build_crossings(d: Draft) -> None:
    """Listed bridges and fords: the river hexsides touching the crossing's hex."""
    for c in d.geo.crossings:
        name, river, kind = c["name"], c["river"], c["kind"]
        if kind not in ("bridge", "ford"):
            raise GeoError(f"crossing {name}: kind must be bridge or ford")
        h = d.hex_at(resolve_point(d.geo, c["at"]))
        if h is None:
            raise GeoError(f"crossing {name} is off the map")
        sides = [
            hexgrid.hexside(h, n)
            for n in d.neighbours(h)
            if d.river.get(hexgrid.hexside(h, n)) == river
        ]
        if not sides:
            raise GeoError(f"crossing {name}: the {river} does not touch hex {h}")
        for s in sides:
            if s in d.listed and d.listed[s][0] != kind:
                raise GeoError(f"crossing {name}: hexside {s} is both bridge and ford")
            d.listed.setdefault(s, (kind, name))


def build_start_line(d: Draft) -> None:
    """The start line's hexsides, and the German side behind it."""
    walk: list[Vertex] = []
    for piece in d.geo.start_line:
        if "river" in piece:
            rpath = [v for p in d.river_paths[piece["river"]] for v in p]
            fa = d.xy(resolve_point(d.geo, piece["from"]))
            ta = d.xy(resolve_point(d.geo, piece["to"]))
            i, j = nearest_index(rpath, fa), nearest_index(rpath, ta)
            seg = rpath[i : j + 1] if i <= j else rpath[j : i + 1][::-1]
        else:
            seg = snap_polyline(d.points(piece["points"]))
        if walk:
            walk += vertex_walk(walk[-1], seg[0])[1:] + seg[1:]
        else:
            walk = list(seg)
    walk = cut_loops(walk)
    d.start = set(d.path_sides(walk))
    # German side: flood from the east column without crossing the start line.
    seen: set[HexId] = set()
    q = deque(h for h in d.ids if hexgrid.parse(h)[0] == d.columns)
    seen.update(q)
    while q:
        h = q.popleft()
        for n in d.neighbours(h):
            if n in seen or hexgrid.hexside(h, n) in d.start:
                continue
            seen.add(n)
            q.append(n)
    if any(hexgrid.parse(h)[0] == 1 for h in seen):
        raise GeoError("the start line does not separate the east edge from the west edge")
    d.german = frozenset(seen)
