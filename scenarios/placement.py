"""Historical set-up positions (latitude/longitude) snapped to hexes of the compiled map.

The set-up data places each unit by latitude/longitude, so that it survives recompiles of the
map. This module turns them into hexes, deterministically: every unit goes to the free hex
whose centre is nearest its position among the hexes its line allows on its own side of the
start line (:mod:`rules.ao.start_line`), one unit a hex -- which is also what the free set-up
rules ask (AO-17.b, AO-17.c), so the historical set-up is itself a valid free set-up. A unit
pinned to a town (errata M6: Monschau, St. Vith) gets that town's hex, which must be a usable
hex on its own side; its line is then the town's (front line or rear), not a choice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from rules.ao.gamemap import GameMap
from rules.ao.scenario import Line
from rules.ao.start_line import front_line, own_side, rear_area
from rules.ao.units import Side
from rules.hexgrid import HexId

KM_PER_DEG_LAT = 111.2


class Spot(NamedTuple):
    """Where one unit sets up: its side, its line (None for a town pin), a position, a town."""

    unit: str
    side: Side
    line: Line | None
    lat: float
    lon: float
    town: str | None


class PlacementError(ValueError):
    """A unit cannot be placed (its town is on the wrong side or line, or no hex is free)."""


def km_between(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Approximate ground distance in km (equirectangular; exact enough within the map)."""
    k = math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot((lat1 - lat2) * KM_PER_DEG_LAT, (lon1 - lon2) * KM_PER_DEG_LAT * k)


def allowed_hexes(gmap: GameMap, side: Side, line: Line) -> frozenset[HexId]:
    """The hexes a unit of ``side`` on ``line`` may set up in."""
    return front_line(gmap, side) if line == "front" else rear_area(gmap, side)


def place(gmap: GameMap, spots: Sequence[Spot]) -> dict[str, HexId]:
    """Unit id -> hex for every spot; town-pinned units first, then the others in order."""
    taken: set[HexId] = set()
    out: dict[str, HexId] = {}
    towns = gmap.towns()
    pinned = [s for s in spots if s.town is not None]
    others = [s for s in spots if s.town is None]
    for s in pinned:
        assert s.town is not None
        h = towns.get(s.town)
        if h is None:
            raise PlacementError(f"{s.unit}: the map has no town {s.town!r}")
        usable = front_line(gmap, s.side) | rear_area(gmap, s.side)
        if h not in usable:
            where = (
                "on the other side of the start line"
                if h not in own_side(gmap, s.side)
                else ("not a hex where units may set up")
            )
            raise PlacementError(f"{s.unit}: {s.town} (hex {h}) is {where}")
        if h in taken:
            raise PlacementError(f"{s.unit}: {s.town} (hex {h}) is already taken")
        taken.add(h)
        out[s.unit] = h
    for s in others:
        if s.line is None:
            raise PlacementError(f"{s.unit}: a unit without a town pin needs a line")
        best: tuple[float, HexId] | None = None
        for h in allowed_hexes(gmap, s.side, s.line):
            if h in taken:
                continue
            hx = gmap.hex(h)
            key = (round(km_between(s.lat, s.lon, hx.lat, hx.lon), 6), h)
            if best is None or key < best:
                best = key
        if best is None:
            raise PlacementError(f"{s.unit}: no free {s.line} hex on the {s.side} side")
        taken.add(best[1])
        out[s.unit] = best[1]
    return out
