"""The compiled map of *Breakthrough in the Ardennes*: its types, codec, loader and drawing.

``scenarios/breakthrough/map.json`` is written by :mod:`scenarios.breakthrough.compile`
(``make map-breakthrough``) and read here, strictly (msgspec, unknown fields refused, size
limited). Coordinates are the manual's ``x,y`` (:mod:`scenarios.breakthrough.grid`).

What the data holds, by checklist case: the four terrains (BA-1.4d), river and road hexsides
(BA-1.4e), bridge sites where a road crosses a river (BA-6.7a), the 16 December owner of each
hex (BA-1.4f, from the start line), the map edges (BA-4.1c) with their road hexes (BA-4.1b,
BA-5.1a), the German exit hexes (BA-7.10a), the towns with their victory points (BA-10.1c),
the road-scoring area north of St. Hubert and west of the Ourthe (BA-10.1g) and the
restricted corridor (BA-7.6e).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

import msgspec

from scenarios.breakthrough.grid import X_COUNT, Y_COUNT, Coord, neighbours

MAP_PATH: Final = Path(__file__).resolve().parent / "map.json"
MAX_MAP_BYTES: Final = 1024 * 1024

Terrain = Literal["clear", "rough", "forest", "town"]
Edge = Literal["south", "north", "west", "east"]
Side = Literal["german", "american"]

TERRAINS: Final[tuple[Terrain, ...]] = ("clear", "rough", "forest", "town")
FRIENDLY_EDGES: Final[Mapping[Side, tuple[Edge, ...]]] = MappingProxyType(
    {"american": ("north", "south", "west"), "german": ("east",)}
)
"""BA-4.1c: "American friendly map edges are the north, south and west edges. The Germans have
only the east map edge." """


class MapDataError(ValueError):
    """``map.json`` is missing, too large or not a valid Breakthrough map."""


class HexData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One hex. ``victory`` is 10.1's points per turn held (0 for a town without them)."""

    x: int
    y: int
    terrain: Terrain
    town: str | None
    victory: int
    edges: tuple[Edge, ...]
    owner: Side
    exit: bool
    road_score: bool
    """North of St. Hubert and west of the Ourthe (BA-10.1g counts its road hexes)."""
    lat: float
    lon: float


class HexsideData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hexside with a feature; ``a`` < ``b``. ``bridge``: a road crosses the river here."""

    a: tuple[int, int]
    b: tuple[int, int]
    river: str | None
    road: bool
    bridge: bool
    start_line: bool


class Corridor(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """BA-7.6e: hexrows ``x_from..x_to`` closed to unmarked American units through ``until_day``
    December (historical option)."""

    x_from: int
    x_to: int
    until_day: int


class MapData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole compiled map, as stored."""

    map: str
    hex_km: float
    origin_lat: float
    origin_lon: float
    x_count: int
    y_count: int
    corridor: Corridor
    hexes: tuple[HexData, ...]
    hexsides: tuple[HexsideData, ...]


def encode_map(data: MapData) -> bytes:
    """Canonical bytes: msgspec JSON, fields in declaration order, one trailing newline."""
    return msgspec.json.format(msgspec.json.encode(data), indent=1) + b"\n"


def decode_map(raw: bytes) -> MapData:
    """Parse and check map bytes (size, schema, a full grid, hexsides between neighbours)."""
    if len(raw) > MAX_MAP_BYTES:
        raise MapDataError(f"map file is {len(raw)} bytes, over the {MAX_MAP_BYTES} limit")
    try:
        data = msgspec.json.decode(raw, type=MapData)
    except msgspec.DecodeError as exc:
        raise MapDataError(f"not a Breakthrough map: {exc}") from None
    if (data.x_count, data.y_count) != (X_COUNT, Y_COUNT):
        raise MapDataError(f"grid is {data.x_count} x {data.y_count}, want 31 x 32")
    coords = [(h.x, h.y) for h in data.hexes]
    if coords != [(x, y) for x in range(X_COUNT) for y in range(Y_COUNT)]:
        raise MapDataError("hexes must be every x,y of the grid, sorted")
    for s in data.hexsides:
        if not s.a < s.b or s.b not in neighbours(s.a):
            raise MapDataError(f"hexside {s.a}-{s.b} is not between neighbours, sorted")
    return data


class BreakthroughMap:
    """The compiled map with the indexes the rules need (read-only)."""

    def __init__(self, data: MapData) -> None:
        self.data: Final = data
        self._hex: Mapping[Coord, HexData] = MappingProxyType({(h.x, h.y): h for h in data.hexes})
        self._side: Mapping[tuple[Coord, Coord], HexsideData] = MappingProxyType(
            {(s.a, s.b): s for s in data.hexsides}
        )

    def hex(self, c: Coord) -> HexData:
        """The hex at ``c`` (``KeyError`` off the map)."""
        return self._hex[c]

    def __iter__(self) -> Iterator[HexData]:
        return iter(self.data.hexes)

    def side(self, a: Coord, b: Coord) -> HexsideData | None:
        """The features of the hexside between neighbours ``a`` and ``b`` (``None``: none)."""
        return self._side.get((a, b) if a < b else (b, a))

    def road(self, a: Coord, b: Coord) -> bool:
        """Whether a road ("white hexside") joins ``a`` and ``b`` (BA-1.4e, BA-7.7d)."""
        s = self.side(a, b)
        return s is not None and s.road

    def river(self, a: Coord, b: Coord) -> str | None:
        """The river ("blue hexside") between ``a`` and ``b``, if any."""
        s = self.side(a, b)
        return None if s is None else s.river

    def bridge(self, a: Coord, b: Coord) -> bool:
        """Whether the hexside ``a``-``b`` is a bridge site (BA-6.7a)."""
        s = self.side(a, b)
        return s is not None and s.bridge

    def road_hexes(self) -> frozenset[Coord]:
        """Hexes with at least one road hexside."""
        return frozenset(c for s in self.data.hexsides if s.road for c in (s.a, s.b))

    def edge_road_hexes(self, side: Side) -> list[Coord]:
        """Road hexes on ``side``'s friendly map edges: where its supplied roads start
        (BA-4.1b-c) and reinforcements may enter (BA-5.1a); sorted."""
        edges = FRIENDLY_EDGES[side]
        roads = self.road_hexes()
        return sorted(
            (h.x, h.y) for h in self.data.hexes if (h.x, h.y) in roads and set(h.edges) & set(edges)
        )

    def towns(self) -> dict[str, Coord]:
        """Town name -> hex."""
        return {h.town: (h.x, h.y) for h in self.data.hexes if h.town is not None}

    def victory_towns(self) -> dict[str, tuple[Coord, int]]:
        """The towns of 10.1 -> (hex, points per turn)."""
        return {
            h.town: ((h.x, h.y), h.victory)
            for h in self.data.hexes
            if h.town is not None and h.victory
        }

    def exits(self) -> list[Coord]:
        """The German exit hexes (BA-7.10a), sorted."""
        return sorted((h.x, h.y) for h in self.data.hexes if h.exit)

    def in_corridor(self, c: Coord) -> bool:
        """Whether ``c`` lies in the restricted corridor's hexrows (BA-7.6e)."""
        return self.data.corridor.x_from <= c[0] <= self.data.corridor.x_to


def load_map(path: Path = MAP_PATH) -> BreakthroughMap:
    """Read ``map.json`` (one clear :class:`MapDataError` on any problem)."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_MAP_BYTES + 1)
    except OSError as exc:
        raise MapDataError(f"cannot read {path}: {exc.strerror}") from None
    return BreakthroughMap(decode_map(raw))


_TERRAIN_CHAR: Final[Mapping[Terrain, str]] = MappingProxyType(
    {"clear": ".", "rough": "^", "forest": "f", "town": "T"}
)

LEGEND: Final = (
    "terrain: . clear  ^ rough  f forest  T town (V victory town, B Bastogne);"
    " second character: = road hex, ~ river hexside, + bridge site, X German exit",
    "German-owned hexes on 16 Dec are upper-case (F, R, C for forest, rough, clear);"
    " odd hexrows x are half a hex lower (east) than even ones",
)


def _cell(m: BreakthroughMap, h: HexData, roads: frozenset[Coord]) -> str:
    c = (h.x, h.y)
    t = _TERRAIN_CHAR[h.terrain]
    if h.victory:
        t = "B" if h.victory == 50 else "V"
    elif h.owner == "german" and h.terrain != "town":
        t = {"clear": "C", "rough": "R", "forest": "F"}[h.terrain]
    sides = [m.side(c, n) for n in neighbours(c)]
    if h.exit:
        f = "X"
    elif any(s is not None and s.bridge for s in sides):
        f = "+"
    elif c in roads:
        f = "="
    elif any(s is not None and s.river for s in sides):
        f = "~"
    else:
        f = " "
    return t + f


def render(m: BreakthroughMap) -> list[str]:
    """The map as text, the way the manual's screen shows it (BA-1.4c): west at the top, north
    to the right, each vertical hexrow ``x`` a column of cells three characters wide. Every
    hex row ``y`` takes two lines: the even hexrows on the first, the odd ones (half a hex
    further down) on the second."""
    roads = m.road_hexes()
    head = "    " + "".join(f"{x:<3d}" if x % 2 == 0 else "   " for x in range(X_COUNT))
    head2 = "    " + "".join(f"{x:<3d}" if x % 2 == 1 else "   " for x in range(X_COUNT))
    lines = ["x:  " + head[4:].rstrip(), "    " + head2[4:].rstrip()]
    for y in range(Y_COUNT):
        for parity in (0, 1):
            cells = []
            for x in range(X_COUNT):
                cells.append(_cell(m, m.hex((x, y)), roads) + " " if x % 2 == parity else "   ")
            prefix = f"{y:>2d}  " if parity == 0 else "    "
            lines.append((prefix + "".join(cells)).rstrip())
    lines.append("y: rows top (west, 0) to bottom (east, 31)")
    lines += list(LEGEND)
    return lines
