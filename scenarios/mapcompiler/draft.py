"""The map under construction: the grid, what each compile step has set so far, and helpers."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rules import hexgrid
from rules.ao.gamemap import Crossing, Edge, Fortification, Terrain
from rules.hexgrid import HexId, Hexside
from scenarios.mapcompiler.geography import Geography, projection_of, resolve_point
from scenarios.mapcompiler.geometry import Vertex, side_hexes
from scenarios.mapcompiler.projection import LatLon, Point


class Draft:
    """Per-hex and per-hexside features, filled in by the compile steps in order."""

    def __init__(self, geo: Geography) -> None:
        self.geo = geo
        self.proj = projection_of(geo)
        g = geo.grid["grid"]
        self.columns: int = int(g["columns"])
        self.rows: int = int(g["rows"])
        self.ids: list[HexId] = list(hexgrid.iter_grid(self.columns, self.rows))
        self.idset = frozenset(self.ids)
        self.centre: dict[HexId, Point] = {h: hexgrid.center(h) for h in self.ids}
        self.terrain: dict[HexId, Terrain] = dict.fromkeys(self.ids, "clear")
        self.town: dict[HexId, str] = {}
        self.fort: dict[HexId, Fortification] = {}
        self.edge: dict[HexId, Edge] = {}
        self.exit_vp: dict[HexId, int] = {}
        self.river: dict[Hexside, str] = {}
        self.crossing: dict[Hexside, Crossing] = {}
        self.road: set[Hexside] = set()
        self.start: set[Hexside] = set()
        self.river_paths: dict[str, list[list[Vertex]]] = {}
        self.river_vertices: dict[str, set[Vertex]] = {}
        self.river_strict: dict[str, bool] = {}
        self.listed: dict[Hexside, tuple[Crossing, str]] = {}
        """Listed crossing hexsides allowed for roads -> (kind, crossing name)."""
        self.german: frozenset[HexId] = frozenset()
        self.exits: dict[HexId, tuple[str, int]] = {}
        self.east_exits: dict[HexId, str] = {}

    def hex_id(self, col: int, row: int) -> HexId | None:
        """The id of ``(col, row)``, or ``None`` off the grid."""
        if 1 <= col <= self.columns and 1 <= row <= self.rows:
            return hexgrid.make(col, row)
        return None

    def hex_at(self, ll: LatLon) -> HexId | None:
        """The hex containing a WGS84 point, or ``None`` off the grid."""
        return self.hex_id(*self.proj.hex_of(*ll))

    def xy(self, ll: LatLon) -> Point:
        """A WGS84 point in hex units."""
        return self.proj.to_xy(*ll)

    def points(self, pts: Iterable[Any]) -> list[Point]:
        """Waypoints (place names or ``[lat, lon]``) in hex units."""
        return [self.xy(resolve_point(self.geo, p)) for p in pts]

    def neighbours(self, h: HexId) -> Iterator[HexId]:
        """The on-grid neighbours of ``h``, in :func:`rules.hexgrid.neighbours` order."""
        return (n for n in hexgrid.neighbours(h) if n is not None and n in self.idset)

    def is_blocked(self, h: HexId) -> bool:
        """Whether ``h`` is an edge or impassable hex (no town, fort or through road)."""
        return h in self.edge or self.terrain[h] == "impassable"

    def path_sides(self, path: Sequence[Vertex]) -> list[Hexside]:
        """The on-grid hexsides along a vertex path, in order."""
        out: list[Hexside] = []
        for a, b in itertools.pairwise(path):
            h1, h2 = side_hexes(a, b)
            i1, i2 = self.hex_id(*h1), self.hex_id(*h2)
            if i1 is not None and i2 is not None:
                out.append(hexgrid.hexside(i1, i2))
        return out
