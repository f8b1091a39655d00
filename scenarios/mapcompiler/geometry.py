"""Plane geometry in hex units: the vertex lattice, polylines snapped to it, polygons, distances.

Hex corners form a lattice: a vertex ``(X, Y)`` is the point ``(X / 2, Y * U)``, and every
lattice edge is one hexside (:func:`side_hexes` names the two hexes it separates). A polyline
is sampled every ``SAMPLE_STEP`` hex, each sample is snapped to the nearest vertex, consecutive
vertices are joined by a shortest walk in the vertex graph and loops are cut
(:func:`snap_polyline`).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from rules import hexgrid
from scenarios.mapcompiler.geography import GeoError
from scenarios.mapcompiler.projection import Point

SAMPLE_STEP = 0.05
"""Polyline sampling step, in hex units, for snapping rivers and lines to hex vertices."""

U = 1.0 / (2.0 * math.sqrt(3.0))
"""Vertical unit of the vertex lattice: a vertex ``(X, Y)`` is the point ``(X / 2, Y * U)``."""

Vertex = tuple[int, int]

_N = TypeVar("_N", bound=Hashable)


def unwind(prev: Mapping[_N, _N], start: _N, end: _N) -> list[_N]:
    """The path ``start .. end`` recorded by a search's predecessor map ``prev``."""
    out = [end]
    while out[-1] != start:
        out.append(prev[out[-1]])
    return out[::-1]


# -- the vertex lattice ----------------------------------------------------------------------


def vertex_xy(v: Vertex) -> Point:
    """The point of a lattice vertex."""
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


def squared_distance(v: Vertex, p: Point) -> float:
    """Squared distance from a vertex to a point."""
    vx, vy = vertex_xy(v)
    return (vx - p[0]) ** 2 + (vy - p[1]) ** 2


def nearest_vertex(p: Point) -> Vertex:
    """The corner of ``p``'s hex nearest to ``p`` (the first one on ties)."""
    best: tuple[float, Vertex] | None = None
    for v in hex_vertices(*hexgrid.at_point(*p)):
        d = squared_distance(v, p)
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
                return unwind(prev, a, b)
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
    """Points along a polyline, no more than ``step`` apart, both ends included."""
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
    return min(range(len(path)), key=lambda k: (squared_distance(path[k], p), k))


def side_hexes(a: Vertex, b: Vertex) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(col, row)`` of the two hexes on either side of the lattice edge ``a``-``b``."""
    (ax, ay), (bx, by) = vertex_xy(a), vertex_xy(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    nx, ny = -dy / n * 0.5, dx / n * 0.5
    return hexgrid.at_point(mx + nx, my + ny), hexgrid.at_point(mx - nx, my - ny)


# -- polygons and distances ------------------------------------------------------------------


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule: whether ``p`` lies inside the closed polygon ``poly``."""
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
    """Distance from ``p`` to the segment ``a``-``b``."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def dist_to_polyline(p: Point, pts: Sequence[Point]) -> float:
    """Distance from ``p`` to the polyline ``pts``."""
    return min(dist_to_segment(p, a, b) for a, b in itertools.pairwise(pts))
