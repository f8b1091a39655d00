"""Lat/lon to hex units: the projection of ``grid.toml``.

Equirectangular on a sphere of radius ``earth_radius_km`` about the reference latitude
``ref_lat``::

    km_per_deg_lat = pi * R / 180
    km_per_deg_lon = km_per_deg_lat * cos(ref_lat)
    x = (lon - origin_lon) * km_per_deg_lon / hex_km      # hex units, east
    y = (origin_lat - lat) * km_per_deg_lat / hex_km      # hex units, south

so that ``(x, y)`` is directly the frame of :func:`rules.hexgrid.center` (hex ``0101`` centred
on ``origin_lat, origin_lon``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules import hexgrid

Point = tuple[float, float]
"""A point in hex units: ``(x, y)``, east and south."""

LatLon = tuple[float, float]
"""A WGS84 point: ``(lat, lon)`` in degrees."""


@dataclass(frozen=True)
class Projection:
    """Equirectangular projection about ``ref_lat`` onto hex units (see module docstring)."""

    origin_lat: float
    origin_lon: float
    ref_lat: float
    hex_km: float
    earth_radius_km: float

    @property
    def km_per_deg_lat(self) -> float:
        """Kilometres per degree of latitude."""
        return math.pi * self.earth_radius_km / 180.0

    @property
    def km_per_deg_lon(self) -> float:
        """Kilometres per degree of longitude at ``ref_lat``."""
        return self.km_per_deg_lat * math.cos(math.radians(self.ref_lat))

    def to_xy(self, lat: float, lon: float) -> Point:
        """Hex-unit coordinates of a WGS84 point."""
        x = (lon - self.origin_lon) * self.km_per_deg_lon / self.hex_km
        y = (self.origin_lat - lat) * self.km_per_deg_lat / self.hex_km
        return x, y

    def to_latlon(self, x: float, y: float) -> LatLon:
        """Inverse of :meth:`to_xy`."""
        lon = self.origin_lon + x * self.hex_km / self.km_per_deg_lon
        lat = self.origin_lat - y * self.hex_km / self.km_per_deg_lat
        return lat, lon

    def hex_of(self, lat: float, lon: float) -> tuple[int, int]:
        """1-based ``(col, row)`` of the hex containing the point (maybe off the grid)."""
        return hexgrid.at_point(*self.to_xy(lat, lon))


def haversine_km(a: LatLon, b: LatLon, radius_km: float = 6371.0) -> float:
    """Great-circle distance between two WGS84 points on a sphere."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * radius_km * math.asin(math.sqrt(h))
