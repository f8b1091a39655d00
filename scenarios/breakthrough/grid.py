"""The grid of *Breakthrough in the Ardennes*: manual coordinates ``x,y`` and their hexes.

The manual (1.4, 7.6) puts the map on "a 32 by 31 hexagon grid" shown with west at the top of
the screen, north to the right, south to the left and east at the bottom (BA-1.4c). ``x`` is
the "vertical hexrow" counted from the left of the screen (south, ``x = 0``) to the right
(north, ``x = 30``); ``y`` counts hexes down the screen, from the west edge (``y = 0``) to the
east edge (``y = 31``). So there are 31 values of ``x`` and 32 of ``y`` (C23, BA-1.4b).

On the ground a vertical hexrow of the screen is an east-west row of hexes, and the hexes are
pointy-topped with north up, which is exactly the geometry of :mod:`rules.hexgrid`. The manual
does not say which hexrows are shifted half a hex (G27); the least-squares fit of its town
coordinates decides (``scenarios/breakthrough/README.md``): the **odd** hexrows ``x = 1, 3,
... 29`` lie half a hex further east (down the screen) than the even ones. With

    column = y + 1        row = 31 - x

the manual's hex ``x,y`` is the :mod:`rules.hexgrid` hex ``CCRR`` (odd ``x`` is an even row,
the rows :func:`rules.hexgrid.is_shifted` shifts east), so neighbours, distances and hex
centres come from the engine's own helpers.

>>> to_hex((19, 23)), from_hex("2412")
('2412', (19, 23))
"""

from __future__ import annotations

from typing import Final

from rules import hexgrid
from rules.hexgrid import HexId

Coord = tuple[int, int]
"""A hex as the manual prints it: ``(x, y)``."""

X_COUNT: Final = 31
"""Values of ``x``: 0 (the south edge, left of the screen) to 30 (the north edge)."""

Y_COUNT: Final = 32
"""Values of ``y``: 0 (the west edge, top of the screen) to 31 (the east edge)."""

COLUMNS: Final = Y_COUNT
ROWS: Final = X_COUNT


class CoordError(ValueError):
    """A coordinate off the 31 x 32 grid."""


def on_grid(c: Coord) -> bool:
    """Whether ``c`` is a hex of the map."""
    return 0 <= c[0] < X_COUNT and 0 <= c[1] < Y_COUNT


def to_hex(c: Coord) -> HexId:
    """The :mod:`rules.hexgrid` id of manual hex ``c``."""
    if not on_grid(c):
        raise CoordError(f"off the grid (x 0-30, y 0-31): {c[0]},{c[1]}")
    return hexgrid.make(c[1] + 1, X_COUNT - c[0])


def from_hex(h: HexId) -> Coord:
    """The manual's ``(x, y)`` of a :mod:`rules.hexgrid` id on this grid."""
    col, row = hexgrid.parse(h)
    c = (X_COUNT - row, col - 1)
    if not on_grid(c):
        raise CoordError(f"hex {h} is off the 32 x 31 grid")
    return c


def label(c: Coord) -> str:
    """``"x,y"`` as the manual prints it."""
    return f"{c[0]},{c[1]}"


def parse_label(text: str) -> Coord:
    """The coordinate of ``"x,y"``.

    >>> parse_label("30,2")
    (30, 2)
    """
    parts = text.split(",")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise CoordError(f"not a coordinate x,y: {text!r}")
    c = (int(parts[0]), int(parts[1]))
    if not on_grid(c):
        raise CoordError(f"off the grid (x 0-30, y 0-31): {text}")
    return c


def is_shifted(x: int) -> bool:
    """Whether hexrow ``x`` lies half a hex east (down the screen) of its neighbours."""
    return x % 2 == 1


def neighbours(c: Coord) -> list[Coord]:
    """The on-grid neighbours of ``c``, sorted.

    >>> neighbours((1, 0))
    [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)]
    """
    return sorted(from_hex(n) for n in hexgrid.neighbours(to_hex(c)) if n is not None and _ours(n))


def distance(a: Coord, b: Coord) -> int:
    """Hexes between ``a`` and ``b``."""
    return hexgrid.distance(to_hex(a), to_hex(b))


def all_coords() -> list[Coord]:
    """Every hex of the map, sorted by ``x`` then ``y``."""
    return [(x, y) for x in range(X_COUNT) for y in range(Y_COUNT)]


def _ours(h: HexId) -> bool:
    col, row = hexgrid.parse(h)
    return col <= COLUMNS and row <= ROWS
