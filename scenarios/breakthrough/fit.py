"""Where the manual's grid lies on the ground: a least-squares fit of its town coordinates.

The manual prints 17 towns as ``x,y`` (10.1, BA-10.1c). Each printed hex has a centre in the
:mod:`rules.hexgrid` frame (hex units, :mod:`scenarios.breakthrough.grid`), and each town a
real position (``scenarios/ardennes/geo/places.toml``). The map is a regular hex grid laid
north-up on an equirectangular projection (:class:`scenarios.mapcompiler.projection.Projection`,
the AO map's own), so it has three free numbers: the size of a hex and the position of hex
``30,0``. Written in kilometres (``kn`` north, ``ke`` east of the projection's zero),

    kn(town) = a - Y * s        ke(town) = b + X * s

is linear in ``(a, b, s)``; :func:`fit` solves the normal equations of the towns marked
``fit = true`` in ``geo.toml`` (Aywaille's misprinted ``8,13`` is not), which minimises the sum
of squared distances between the towns and the centres of their printed hexes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules import hexgrid
from scenarios.breakthrough.grid import Coord, to_hex
from scenarios.mapcompiler.projection import LatLon, Projection, haversine_km


@dataclass(frozen=True)
class Fit:
    """The fitted placement: a projection whose hex ``0101`` is the manual's ``30,0``."""

    projection: Projection
    errors_km: tuple[tuple[str, float], ...]
    """Each fitted town and the distance from it to the centre of its printed hex."""

    @property
    def rms_km(self) -> float:
        """Root mean square of :attr:`errors_km`."""
        return math.sqrt(sum(e * e for _, e in self.errors_km) / len(self.errors_km))


def _solve3(m: list[list[float]], v: list[float]) -> list[float]:
    """Solve the 3x3 system ``m u = v`` (Cramer's rule)."""

    def det(a: list[list[float]]) -> float:
        return (
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        )

    d = det(m)
    out = []
    for k in range(3):
        mk = [[v[i] if j == k else m[i][j] for j in range(3)] for i in range(3)]
        out.append(det(mk) / d)
    return out


def fit(towns: Sequence[tuple[str, Coord, LatLon]], ref_lat: float, earth_radius_km: float) -> Fit:
    """Fit the grid to ``(name, printed hex, real position)`` triples."""
    probe = Projection(0.0, 0.0, ref_lat, 1.0, earth_radius_km)
    kl, ko = probe.km_per_deg_lat, probe.km_per_deg_lon
    rows: list[tuple[list[float], float]] = []
    for _, c, (lat, lon) in towns:
        x, y = hexgrid.center(to_hex(c))
        rows.append(([1.0, 0.0, -y], lat * kl))
        rows.append(([0.0, 1.0, x], lon * ko))
    m = [[sum(r[i] * r[j] for r, _ in rows) for j in range(3)] for i in range(3)]
    v = [sum(r[i] * t for r, t in rows) for i in range(3)]
    a, b, s = _solve3(m, v)
    proj = Projection(a / kl, b / ko, ref_lat, s, earth_radius_km)
    return Fit(proj, errors(proj, towns))


def errors(
    proj: Projection, towns: Sequence[tuple[str, Coord, LatLon]]
) -> tuple[tuple[str, float], ...]:
    """Each town's distance (km, great circle) to the centre of its hex under ``proj``."""
    return tuple(
        (name, haversine_km(ll, proj.to_latlon(*hexgrid.center(to_hex(c)))))
        for name, c, ll in towns
    )
