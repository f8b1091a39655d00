"""The map model: terrain per hex, features per hexside, and the codec of the compiled map.

The compiled map (``scenarios/<name>/map.json``, read by :func:`scenarios.load_map`) is
exactly the JSON that ``ardennes map --json`` prints; :class:`MapData` is its strict msgspec
schema, :func:`decode_map`/:func:`encode_map` its bytes. :class:`GameMap` wraps it with
the indexes the rules need (hex by id, hexside by key, neighbours on the map).

Terrain Effects Chart (AO-11): terrain is ``clear`` (AO-11.a), ``rough`` (AO-11.e) or
``impassable`` (AO-11.g); a hex may hold a town (AO-11.f) and a fortification, ``westwall``
(AO-11.h) or ``fortified`` (the chart's second, unnamed fortified terrain, AO-11.i). Hexsides
carry rivers (AO-11.c), their crossings, ``bridge`` (AO-11.d) or ``ford`` (AO-11.b), roads
(AO-11.j) and the 16 December start line (errata M5). Allied Map Edge hexes (AO-5.3L, AO-11.k)
have ``edge`` set to their section; German east-edge hexes have ``edge == "east"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, Literal, TypeVar, cast

import msgspec

from rules import hexgrid
from rules.hexgrid import HexId, Hexside

Terrain = Literal["clear", "rough", "impassable"]
Fortification = Literal["westwall", "fortified"]
Crossing = Literal["bridge", "ford"]
AlliedSection = Literal["NE", "NW", "W", "SW", "SE"]
Edge = Literal["NE", "NW", "W", "SW", "SE", "east"]

ALLIED_SECTIONS: Final[tuple[AlliedSection, ...]] = ("NE", "NW", "W", "SW", "SE")
"""The Allied map-edge sections in order around the map, north-east to south-east (AO-14.1b)."""

MAX_MAP_BYTES: Final = 4 * 1024 * 1024


class HexData(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=False):
    """One hex of the compiled map. ``lat``/``lon`` are the hex centre (WGS84 degrees)."""

    id: HexId
    terrain: Terrain
    town: str | None
    fortification: Fortification | None
    edge: Edge | None
    exit_vp: int | None
    lat: float
    lon: float


class HexsideData(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=False):
    """One hexside with at least one feature; ``hexes`` is the sorted pair of its hexes."""

    hexes: tuple[HexId, HexId]
    river: str | None
    crossing: Crossing | None
    road: bool
    start_line: bool


class MapData(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=False):
    """The compiled map, as stored and as printed by ``ardennes map --json``."""

    map: str
    hex_km: float
    columns: int
    rows: int
    hexes: list[HexData]
    hexsides: list[HexsideData]


class MapError(ValueError):
    """The compiled map is malformed or inconsistent."""


_T = TypeVar("_T")

_NO_SIDE: Final = HexsideData(
    hexes=("", ""), river=None, crossing=None, road=False, start_line=False
)


class GameMap:
    """A compiled map with indexes. Immutable by convention: nothing mutates it after load."""

    __slots__ = ("_cache", "_hexes", "_neighbours", "_pairs", "_sides", "data")

    def __init__(self, data: MapData) -> None:
        self.data = data
        self._cache: dict[str, object] = {}
        self._hexes: dict[HexId, HexData] = {}
        for h in data.hexes:
            col, row = hexgrid.parse(h.id)
            if not (1 <= col <= data.columns and 1 <= row <= data.rows):
                raise MapError(f"hex {h.id} lies outside the {data.columns}x{data.rows} grid")
            if h.id in self._hexes:
                raise MapError(f"hex {h.id} is listed twice")
            self._hexes[h.id] = h
        if len(self._hexes) != data.columns * data.rows:
            raise MapError(
                f"map lists {len(self._hexes)} hexes, a {data.columns}x{data.rows} grid has "
                f"{data.columns * data.rows}"
            )
        self._sides: dict[Hexside, HexsideData] = {}
        for s in data.hexsides:
            a, b = s.hexes
            if a not in self._hexes or b not in self._hexes:
                raise MapError(f"hexside {a}-{b} names a hex that is not on the map")
            key = hexgrid.hexside(a, b)
            if key != (a, b):
                raise MapError(f"hexside {a}-{b} is not stored in sorted order")
            if key in self._sides:
                raise MapError(f"hexside {a}-{b} is listed twice")
            if s.crossing is not None and s.river is None:
                raise MapError(f"hexside {a}-{b} has a {s.crossing} but no river")
            self._sides[key] = s
        self._neighbours: dict[HexId, tuple[HexId, ...]] = {
            h: tuple(n for n in hexgrid.neighbours(h) if n is not None and n in self._hexes)
            for h in self._hexes
        }
        # every ordered pair of on-map neighbours -> its hexside's features (the engine asks
        # tens of thousands of times a game; a dict lookup, not an adjacency check)
        self._pairs: dict[tuple[HexId, HexId], HexsideData] = {
            (h, n): self._sides.get((h, n) if h < n else (n, h), _NO_SIDE)
            for h, ns in self._neighbours.items()
            for n in ns
        }

    def derived(self, key: str, build: Callable[[GameMap], _T]) -> _T:
        """The table ``key`` derived from this map alone: ``build(map)`` on first use, then
        kept (a map is immutable by convention; every board on it shares the table)."""
        if key in self._cache:
            return cast(_T, self._cache[key])
        value = build(self)
        self._cache[key] = value
        return value

    # -- lookup ---------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.data.map

    @property
    def columns(self) -> int:
        return self.data.columns

    @property
    def rows(self) -> int:
        return self.data.rows

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._hexes

    def __iter__(self) -> Iterator[HexId]:
        """Hex ids in sorted order."""
        return iter(sorted(self._hexes))

    def hex(self, hex_id: HexId) -> HexData:
        """The hex ``hex_id``; KeyError when it is not on the map."""
        return self._hexes[hex_id]

    def side(self, a: HexId, b: HexId) -> HexsideData:
        """Features of the hexside between adjacent hexes (all empty when it has none)."""
        hit = self._pairs.get((a, b))
        if hit is not None:
            return hit
        return self._sides.get(hexgrid.hexside(a, b), _NO_SIDE)

    def sides(self) -> Iterator[HexsideData]:
        """Every hexside that has a feature, in sorted order."""
        return (self._sides[k] for k in sorted(self._sides))

    def neighbours(self, hex_id: HexId) -> tuple[HexId, ...]:
        """On-map neighbours of ``hex_id`` in :data:`rules.hexgrid.DIRECTIONS` order."""
        return self._neighbours[hex_id]

    # -- derived --------------------------------------------------------------------------

    def towns(self) -> dict[str, HexId]:
        """Town name -> hex id."""
        return {h.town: h.id for h in self.data.hexes if h.town is not None}

    def town_hex(self, name: str) -> HexId:
        """The hex of the town called ``name`` (KeyError if none)."""
        return self.towns()[name]

    def is_road_hex(self, hex_id: HexId) -> bool:
        """A road hex: at least one road hexside touches it (AO-11.j)."""
        return any(self.side(hex_id, n).road for n in self._neighbours[hex_id])

    def is_allied_edge(self, hex_id: HexId) -> bool:
        """An Allied Map Edge hex (AO-5.3L): a hex of an Allied section of the map's edge that
        is not a road exit hex. Road exit hexes (the hexes printed with VP, AO-16.B) are live
        hexes although they lie on the edge: German units may stand on them (AO-16.H) and
        units there fight like anywhere else (AO-16.C)."""
        h = self._hexes[hex_id]
        return h.edge is not None and h.edge != "east" and h.exit_vp is None

    def allied_section(self, hex_id: HexId) -> str | None:
        """The Allied section of an edge hex, road exit hexes included (AO-14.1b), else None."""
        e = self._hexes[hex_id].edge
        return e if e is not None and e != "east" else None

    def is_exit(self, hex_id: HexId) -> bool:
        """A road exit hex (VP printed in it, AO-16.B)."""
        return self._hexes[hex_id].exit_vp is not None

    def exit_hexes(self) -> list[HexData]:
        """Road exit hexes with their victory points (AO-16.B), sorted by id."""
        return [h for h in self.data.hexes if h.exit_vp is not None]


def decode_map(raw: bytes) -> GameMap:
    """Strictly decode and check a compiled map (untrusted bytes allowed)."""
    if len(raw) > MAX_MAP_BYTES:
        raise MapError(f"map file is {len(raw)} bytes, over the {MAX_MAP_BYTES} byte limit")
    try:
        data = msgspec.json.decode(raw, type=MapData)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise MapError(f"malformed map: {exc}") from None
    try:
        return GameMap(data)
    except hexgrid.HexIdError as exc:
        raise MapError(str(exc)) from None


def encode_map(data: MapData) -> bytes:
    """Canonical bytes of a compiled map: one hex or hexside per line, fields in schema order.

    Hexes are sorted by id and hexsides by their pair, so equal maps give equal bytes and a
    change to one hex changes one line of the committed file.
    """
    enc = msgspec.json.encode
    hexes = sorted(data.hexes, key=lambda h: h.id)
    sides = sorted(data.hexsides, key=lambda s: s.hexes)
    head = b'{"map":%s,"hex_km":%s,"columns":%d,"rows":%d,' % (
        enc(data.map),
        enc(data.hex_km),
        data.columns,
        data.rows,
    )
    out = [head, b'"hexes":[\n', b",\n".join(enc(h) for h in hexes), b'\n],\n"hexsides":[\n']
    out += [b",\n".join(enc(s) for s in sides), b"\n]}\n"]
    return b"".join(out)
