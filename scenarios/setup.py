"""The historical set-up on a map (AO-17.a), and each set-up unit's line for the free set-ups
(AO-17.b, AO-17.c).

``setup.toml`` places units by latitude/longitude (:func:`spots`); :func:`compile_setup`
snaps them to hexes (:mod:`scenarios.placement`), and ``python -m scenarios.build`` commits
the result for the shipped map as ``setup_hexes.json`` (:func:`encode_setup`), so every machine
starts from the same hexes without floating-point placement at load time.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Final

import msgspec

from rules.ao.gamemap import GameMap
from rules.ao.scenario import Line
from rules.ao.start_line import front_line
from rules.hexgrid import HexId
from scenarios.loader import (
    MAP_NAME,
    ScenarioDataError,
    load_map,
    oob_entries,
    read_data,
    setup_entries,
)
from scenarios.placement import Spot, place

SETUP_HEXES: Final = "setup_hexes.json"
"""The historical set-up compiled to hex ids by ``python -m scenarios.build``."""


def spots() -> tuple[Spot, ...]:
    """The historical set-up as placement requests, in file order."""
    units = {e.id: e for e in oob_entries()}
    return tuple(
        Spot(unit=e.id, side=units[e.id].side, line=e.line, lat=e.lat, lon=e.lon, town=e.town)
        for e in setup_entries()
    )


def compile_setup(gmap: GameMap) -> dict[str, HexId]:
    """Snap the lat/lon set-up of ``setup.toml`` to hexes of ``gmap`` (:mod:`.placement`)."""
    return dict(sorted(place(gmap, spots()).items()))


def encode_setup(setup: Mapping[str, HexId]) -> bytes:
    """Canonical bytes of a compiled set-up: one ``"unit": "hex"`` per line, sorted by unit."""
    rows = [
        msgspec.json.encode(k) + b": " + msgspec.json.encode(v) for k, v in sorted(setup.items())
    ]
    return b"{\n" + b",\n".join(rows) + b"\n}\n"


def historical_setup(gmap: GameMap | None = None) -> dict[str, HexId]:
    """Unit id -> hex of the historical set-up on ``gmap``.

    For the shipped map (``None``) this is the committed ``setup_hexes.json``; for another map
    it is computed with :func:`compile_setup`.
    """
    if gmap is None:
        return dict(_shipped_setup())
    return dict(_computed_setup(gmap))


@functools.cache
def _computed_setup(gmap: GameMap) -> tuple[tuple[str, HexId], ...]:
    return tuple(sorted(compile_setup(gmap).items()))


@functools.cache
def _shipped_setup() -> tuple[tuple[str, HexId], ...]:
    try:
        setup = msgspec.json.decode(read_data(SETUP_HEXES), type=dict[str, str])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ScenarioDataError(f"{MAP_NAME}/{SETUP_HEXES}: {exc}") from None
    gmap = load_map(MAP_NAME)
    known = {e.id for e in oob_entries()}
    for unit, hex_id in setup.items():
        if unit not in known or hex_id not in gmap:
            raise ScenarioDataError(f"{MAP_NAME}/{SETUP_HEXES}: bad entry {unit!r}: {hex_id!r}")
    return tuple(sorted(setup.items()))


def setup_lines(gmap: GameMap, setup: Mapping[str, HexId]) -> dict[str, Line]:
    """Unit id -> ``front`` or ``rear`` for every unit of ``setup`` on ``gmap``: the line its
    historical hex is on (AO-17.b/c). For units with a ``line`` in ``setup.toml`` this is that
    line (the placement keeps it); a town-pinned unit takes its town's."""
    sides = {e.id: e.side for e in oob_entries()}
    return {
        uid: "front" if h in front_line(gmap, sides[uid]) else "rear"
        for uid, h in sorted(setup.items())
    }


def front_line_units(gmap: GameMap | None = None) -> frozenset[str]:
    """Ids of the units whose historical hex is on their side's front line (AO-17.b/c); the
    others set up behind the front line."""
    gm = gmap if gmap is not None else load_map(MAP_NAME)
    lines = setup_lines(gm, historical_setup(gmap))
    return frozenset(uid for uid, line in lines.items() if line == "front")
