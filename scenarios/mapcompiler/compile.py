"""Run the compile steps in order, assemble :class:`~rules.ao.gamemap.MapData` and write it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rules.ao import gamemap
from rules.ao.gamemap import HexData, HexsideData, MapData
from rules.hexgrid import HexId, Hexside
from scenarios.mapcompiler.draft import Draft
from scenarios.mapcompiler.geography import GEO_DIR, Geography, load_geography
from scenarios.mapcompiler.geometry import Vertex
from scenarios.mapcompiler.hexes import (
    build_edges,
    build_fortifications,
    build_terrain,
    build_towns,
)
from scenarios.mapcompiler.hexsides import build_crossings, build_rivers, build_start_line
from scenarios.mapcompiler.projection import Projection
from scenarios.mapcompiler.roads import build_bridges, build_roads

MAP_PATH = Path(__file__).resolve().parents[1] / "ardennes" / "map.json"
SETUP_PATH = Path(__file__).resolve().parents[1] / "ardennes" / "setup_hexes.json"

STEPS = (
    build_rivers,
    build_start_line,
    build_edges,
    build_terrain,
    build_towns,
    build_fortifications,
    build_crossings,
    build_roads,
    build_bridges,
)
"""The compile steps, in order: each reads what the ones before it set."""


@dataclass
class Compiled:
    """The compiled map, with the intermediate data tests check."""

    data: MapData
    projection: Projection
    river_paths: dict[str, list[list[Vertex]]] = field(default_factory=dict)
    german_side: frozenset[HexId] = frozenset()
    exits: dict[HexId, tuple[str, int]] = field(default_factory=dict)
    """Exit hex -> (road name, VP)."""
    east_exits: dict[HexId, str] = field(default_factory=dict)
    bridges: dict[Hexside, str] = field(default_factory=dict)
    """Bridge/ford hexside -> crossing name (listed crossings only)."""


def map_data(d: Draft) -> MapData:
    """The finished draft as map data: every hex, then every feature hexside, sorted."""
    hexes: list[HexData] = []
    for h in d.ids:
        lat, lon = d.proj.to_latlon(*d.centre[h])
        hexes.append(
            HexData(
                id=h,
                terrain=d.terrain[h],
                town=d.town.get(h),
                fortification=d.fort.get(h),
                edge=d.edge.get(h),
                exit_vp=d.exit_vp.get(h),
                lat=round(lat, 4),
                lon=round(lon, 4),
            )
        )
    sides = [
        HexsideData(
            hexes=s,
            river=d.river.get(s),
            crossing=d.crossing.get(s),
            road=s in d.road,
            start_line=s in d.start,
        )
        for s in sorted(set(d.river) | d.road | d.start)
    ]
    return MapData(
        map=str(d.geo.grid["map"]),
        hex_km=d.proj.hex_km,
        columns=d.columns,
        rows=d.rows,
        hexes=hexes,
        hexsides=sides,
    )


def compile_geography(geo: Geography) -> Compiled:
    """Compile parsed geography into the map (and the intermediate data tests check)."""
    d = Draft(geo)
    for step in STEPS:
        step(d)
    return Compiled(
        data=map_data(d),
        projection=d.proj,
        river_paths=d.river_paths,
        german_side=d.german,
        exits=d.exits,
        east_exits=d.east_exits,
        bridges={s: d.listed[s][1] for s in d.crossing if s in d.listed},
    )


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
    from scenarios.setup import compile_setup, encode_setup

    raw = encode_setup(compile_setup(gamemap.decode_map(map_raw)))
    out.write_bytes(raw)
    return raw
