"""The command line: ``python -m scenarios.build [--out PATH] [--setup-out PATH] [--overview]``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from rules import hexgrid
from rules.ao import gamemap
from rules.ao.gamemap import MapData
from scenarios.mapcompiler.compile import MAP_PATH, SETUP_PATH, build, build_setup


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
    """Write the map, then the historical set-up snapped to it."""
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
