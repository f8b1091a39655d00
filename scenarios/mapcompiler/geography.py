"""The compiler's input: the TOML files of ``scenarios/ardennes/geo/``, parsed as plain data."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scenarios.mapcompiler.projection import LatLon, Projection

GEO_DIR = Path(__file__).resolve().parents[1] / "ardennes" / "geo"


class GeoError(ValueError):
    """The geography is inconsistent (a compile that would give a wrong map)."""


@dataclass(frozen=True)
class Place:
    """A named point of ``places.toml``."""

    name: str
    lat: float
    lon: float
    town: bool
    country: str
    held: str
    """Who held it on 16 December 1944: ``"allied"`` or ``"german"``."""


@dataclass
class Geography:
    """The parsed TOML geography (plain data, in file order)."""

    grid: dict[str, Any]
    places: dict[str, Place]
    rivers: list[dict[str, Any]]
    crossings: list[dict[str, Any]]
    roads: list[dict[str, Any]]
    areas: list[dict[str, Any]]
    westwall: list[list[Any]]
    fortified: dict[str, Any]
    start_line: list[dict[str, Any]]


def load_geography(geo_dir: Path = GEO_DIR) -> Geography:
    """Read the TOML files of ``geo_dir``."""

    def read(name: str) -> dict[str, Any]:
        with (geo_dir / name).open("rb") as f:
            return tomllib.load(f)

    grid = read("grid.toml")
    pl = read("places.toml")
    places: dict[str, Place] = {}
    for name, p in pl["place"].items():
        country = str(p["country"])
        held = str(p.get("held", "german" if country == "DE" else "allied"))
        places[name] = Place(
            name, float(p["lat"]), float(p["lon"]), bool(p.get("town", False)), country, held
        )
    rv = read("rivers.toml")
    rd = read("roads.toml")
    tr = read("terrain.toml")
    fl = read("frontline.toml")
    return Geography(
        grid=grid,
        places=places,
        rivers=rv["river"],
        crossings=rv.get("crossing", []),
        roads=rd["road"],
        areas=tr["area"],
        westwall=tr["westwall"]["trace"],
        fortified=tr["fortified"],
        start_line=fl["piece"],
    )


def projection_of(geo: Geography) -> Projection:
    """The projection of ``grid.toml``."""
    g = geo.grid["projection"]
    return Projection(
        origin_lat=float(g["origin_lat"]),
        origin_lon=float(g["origin_lon"]),
        ref_lat=float(g["ref_lat"]),
        hex_km=float(g["hex_km"]),
        earth_radius_km=float(g["earth_radius_km"]),
    )


def resolve_point(geo: Geography, p: Any) -> LatLon:
    """A waypoint: a place name or an inline ``[lat, lon]``."""
    if isinstance(p, str):
        if p not in geo.places:
            raise GeoError(f"unknown place {p!r}")
        pl = geo.places[p]
        return pl.lat, pl.lon
    if isinstance(p, list) and len(p) == 2:
        return float(p[0]), float(p[1])
    raise GeoError(f"not a waypoint: {p!r}")
