"""Compile the reconstructed Ardennes map from real geography: ``python -m scenarios.build``.

Reads the TOML files of ``scenarios/ardennes/geo/`` (places, rivers, roads, terrain, start
line, grid) and writes ``scenarios/ardennes/map.json`` with :func:`rules.ao.gamemap.encode_map`,
then the historical set-up snapped to it (``setup_hexes.json``). Everything is deterministic:
inputs are walked in file order, sets are sorted before use and the only floats written are
hex-centre coordinates rounded to four decimals. ``scenarios/ardennes/README.md`` documents
every judgement call.

The compiler lives in :mod:`scenarios.mapcompiler`: the projection formulas in
:mod:`~scenarios.mapcompiler.projection`, rivers and the start line in
:mod:`~scenarios.mapcompiler.hexsides`, areas in :mod:`~scenarios.mapcompiler.hexes`, roads in
:mod:`~scenarios.mapcompiler.roads`. This module is its entry point and public API.
"""

from __future__ import annotations

import sys

from scenarios.mapcompiler.cli import main, overview
from scenarios.mapcompiler.compile import (
    MAP_PATH,
    SETUP_PATH,
    Compiled,
    build,
    build_setup,
    compile_geography,
)
from scenarios.mapcompiler.geography import (
    GEO_DIR,
    GeoError,
    Geography,
    Place,
    load_geography,
    projection_of,
)
from scenarios.mapcompiler.projection import Projection

__all__ = [
    "GEO_DIR",
    "MAP_PATH",
    "SETUP_PATH",
    "Compiled",
    "GeoError",
    "Geography",
    "Place",
    "Projection",
    "build",
    "build_setup",
    "compile_geography",
    "load_geography",
    "main",
    "overview",
    "projection_of",
]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
