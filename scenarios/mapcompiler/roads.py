"""Roads through hex centres, their map exits, and the bridges where they cross rivers.

Each leg between two waypoints is a cheapest path over the hexes near the leg; crossing a
river costs extra (so valley roads keep to one bank) and is only possible at listed crossings
on rivers marked ``listed_crossings_only`` (the Meuse). A road whose last point is off the map
(or on an edge hex) ends at the edge hex where it leaves.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Any

from rules import hexgrid
from rules.hexgrid import HexId
from scenarios.mapcompiler.draft import Draft
from scenarios.mapcompiler.geography import GeoError, resolve_point
from scenarios.mapcompiler.geometry import dist_to_segment, sample_polyline, unwind
from scenarios.mapcompiler.projection import LatLon, Point

CORRIDORS = (2.5, 6.0, 15.0)
"""How far (in hexes) a leg may stray from its segment: tried in turn until a path exists."""


def road_leg(d: Draft, a: HexId, b: HexId, pa: Point, pb: Point, exit_target: bool) -> list[HexId]:
    """Cheapest hex path from ``a`` to ``b`` near the segment ``pa``-``pb``."""
    for corridor in CORRIDORS:
        path = _cheapest_path(d, a, b, pa, pb, corridor, exit_target)
        if path is not None:
            return path
    raise GeoError(f"no road path from {a} to {b}")


def _cheapest_path(
    d: Draft, a: HexId, b: HexId, pa: Point, pb: Point, corridor: float, exit_target: bool
) -> list[HexId] | None:
    """Dijkstra from ``a`` to ``b`` within ``corridor`` of ``pa``-``pb``, or ``None``."""
    dist: dict[HexId, float] = {a: 0.0}
    prev: dict[HexId, HexId] = {}
    heap: list[tuple[float, HexId]] = [(0.0, a)]
    while heap:
        c, h = heapq.heappop(heap)
        if h == b:
            return unwind(prev, a, b)
        if c > dist[h]:
            continue
        for n in d.neighbours(h):
            if d.terrain[n] == "impassable":
                continue
            if n in d.edge and n != b and n != a:
                continue
            if n == b and n in d.edge and not exit_target and n != a:
                continue
            off = dist_to_segment(d.centre[n], pa, pb)
            if off > corridor and n != b:
                continue
            cost = 1.0 + 0.6 * off * off
            s = hexgrid.hexside(h, n)
            rv = d.river.get(s)
            if rv is not None:
                if s in d.listed:
                    cost += 0.5
                elif d.river_strict[rv]:
                    continue
                else:
                    cost += 3.0
            nc = c + cost
            if nc < dist.get(n, math.inf) - 1e-9:
                dist[n] = nc
                prev[n] = h
                heapq.heappush(heap, (nc, n))
    return None


def exit_hex(d: Draft, p_in: LatLon, p_out: LatLon) -> HexId:
    """Where the segment from an on-map point toward an off-map one leaves the live map.

    That is the first edge (or impassable) hex it meets, else its last on-grid hex.
    """
    last: HexId | None = None
    for x, y in sample_polyline([d.xy(p_in), d.xy(p_out)], 0.02):
        h = d.hex_id(*hexgrid.at_point(x, y))
        if h is None:
            break
        last = h
        if d.is_blocked(h):
            break
    if last is None:
        raise GeoError("exit road starts off the map")
    return last


def build_roads(d: Draft) -> None:
    """Road hexsides, exits (with their VP) and east-edge road ends."""
    for r in d.geo.roads:
        name = r.get("name", "")
        pts = [resolve_point(d.geo, p) for p in r["via"]]
        label = f"road {name or r['via'][0]}-{r['via'][-1]}"
        hexes = [d.hex_at(p) for p in pts]
        exit_to: HexId | None = None
        if hexes[-1] is None or hexes[-1] in d.edge:
            if any(h is None for h in hexes[:-1]):
                raise GeoError(f"{label}: only its last point may be off the map")
            exit_to = exit_hex(d, pts[-2], pts[-1])
            hexes[-1] = exit_to
            pts[-1] = d.proj.to_latlon(*d.centre[exit_to])
        elif any(h is None for h in hexes):
            raise GeoError(f"{label}: a waypoint is off the map")
        full: list[HexId] = []
        for i in range(len(pts) - 1):
            ha, hb = hexes[i], hexes[i + 1]
            assert ha is not None and hb is not None
            try:
                leg = road_leg(d, ha, hb, d.xy(pts[i]), d.xy(pts[i + 1]), exit_target=exit_to == hb)
            except GeoError as exc:
                raise GeoError(f"{label}: {exc}") from None
            full += leg if not full else leg[1:]
        for x, y in itertools.pairwise(full):
            d.road.add(hexgrid.hexside(x, y))
        if exit_to is not None:
            _record_exit(d, r, name, label, exit_to)
        elif "exit_vp" in r:
            raise GeoError(f"{label}: has exit_vp but does not leave the map")


def _record_exit(d: Draft, r: dict[str, Any], name: str, label: str, exit_to: HexId) -> None:
    """Record where road ``r`` leaves the map: an east-edge end, or an Allied exit with VP."""
    edge = d.edge.get(exit_to)
    if edge is None:
        raise GeoError(f"{label}: leaves the map through {exit_to}, not an edge hex")
    if edge == "east":
        if "exit_vp" in r:
            raise GeoError(f"{label}: east-edge roads carry no VP")
        d.east_exits[exit_to] = name or str(r["via"][0])
        return
    if edge != r.get("exit_section"):
        raise GeoError(
            f"{label}: leaves through {exit_to} in section {edge}, "
            f"data says {r.get('exit_section')}"
        )
    vp = int(r["exit_vp"])
    if exit_to in d.exits:
        raise GeoError(f"{label}: exit hex {exit_to} already used by {d.exits[exit_to][0]}")
    d.exits[exit_to] = (label, vp)
    d.exit_vp[exit_to] = vp


def build_bridges(d: Draft) -> None:
    """The crossing kind of every road hexside over a river; every listed one must be used."""
    used: set[str] = set()
    for s in sorted(d.road):
        rv = d.river.get(s)
        if rv is None:
            continue
        if s in d.listed:
            kind, cname = d.listed[s]
            d.crossing[s] = kind
            used.add(cname)
        elif d.river_strict[rv]:  # pragma: no cover - the path search forbids it
            raise GeoError(f"road crosses the {rv} at {s} without a listed crossing")
        else:
            d.crossing[s] = "bridge"  # 1944: every road crossing of these rivers was bridged
    unused = [c["name"] for c in d.geo.crossings if c["name"] not in used]
    if unused:
        raise GeoError(f"listed crossings not on any road: {', '.join(unused)}")
