"""Hex-grid geometry for the map: ids, neighbours, distance, areas, lines and hexsides.

Hex ids are the wargame's ``CCRR`` strings: column then row, both two digits, from ``0101``.
Columns run west to east, rows north to south.

Orientation (one constant, pinned by tests): hexes are *pointy-topped* and every even row
(``RR`` = 02, 04, ...) is shifted half a hex to the east. So each hex row is a straight
horizontal band, which is what lets the terminal overview draw one text line per hex row
(``docs/hex-grid.md`` explains the choice). In Red Blob Games' terms (0-based) this is the
"odd-r" offset layout.

Geometry is done in axial/cube coordinates; offset ``CCRR`` is only for storage and display.
Distances count hexes; on our map one hex is 3.15 km centre to centre (AO-2.2).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Final

HexId = str
"""A hex id ``CCRR`` such as ``"0101"``."""

Hexside = tuple[HexId, HexId]
"""A hexside: the unordered pair of the two hexes that share it, stored sorted."""

SHIFTED_ROW_PARITY: Final = 0
"""Rows whose 1-based number has this parity (``row % 2``) are shifted half a hex east."""

DIRECTIONS: Final = ("NE", "E", "SE", "SW", "W", "NW")
"""Direction names in the fixed neighbour order: clockwise, starting north-east."""

_AXIAL_STEPS: Final = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
"""Axial (q, r) steps, in :data:`DIRECTIONS` order, for pointy-topped hexes (r grows south)."""

SQRT3: Final = math.sqrt(3.0)


class HexIdError(ValueError):
    """A string that is not a ``CCRR`` hex id."""


def parse(hex_id: HexId) -> tuple[int, int]:
    """Return ``(column, row)`` of a ``CCRR`` id; both are 1-based.

    >>> parse("0712")
    (7, 12)
    """
    if len(hex_id) != 4 or not hex_id.isascii() or not hex_id.isdigit():
        raise HexIdError(f"not a hex id (want four digits CCRR): {hex_id!r}")
    col, row = int(hex_id[:2]), int(hex_id[2:])
    if col < 1 or row < 1:
        raise HexIdError(f"hex ids start at 0101: {hex_id!r}")
    return col, row


def make(col: int, row: int) -> HexId:
    """Return the ``CCRR`` id of 1-based ``(col, row)``.

    >>> make(7, 12)
    '0712'
    """
    if not (1 <= col <= 99 and 1 <= row <= 99):
        raise HexIdError(f"column and row must be 1..99, got ({col}, {row})")
    return f"{col:02d}{row:02d}"


def is_shifted(row: int) -> bool:
    """True when 1-based ``row`` is drawn half a hex east of the rows above and below it."""
    return row % 2 == SHIFTED_ROW_PARITY


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of 1-based offset ``(col, row)``."""
    c0, r0 = col - 1, row - 1
    # odd-r (0-based): shifted rows are the odd 0-based rows == even 1-based rows.
    q = c0 - (r0 - (r0 & 1)) // 2
    return q, r0


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """1-based offset ``(col, row)`` of axial ``(q, r)``."""
    c0 = q + (r - (r & 1)) // 2
    return c0 + 1, r + 1


@functools.cache
def to_axial(hex_id: HexId) -> tuple[int, int]:
    """Axial ``(q, r)`` of a hex id (memoized: the engine asks for the same few thousand ids
    millions of times; a bad id raises every time, it is never cached)."""
    return offset_to_axial(*parse(hex_id))


def to_cube(hex_id: HexId) -> tuple[int, int, int]:
    """Cube ``(x, y, z)`` with ``x + y + z == 0``."""
    q, r = to_axial(hex_id)
    return q, -q - r, r


def from_axial(q: int, r: int) -> HexId | None:
    """The hex id at axial ``(q, r)``, or None when it falls outside ``0101..9999``."""
    col, row = axial_to_offset(q, r)
    if 1 <= col <= 99 and 1 <= row <= 99:
        return make(col, row)
    return None


def neighbour(hex_id: HexId, direction: int) -> HexId | None:
    """The neighbour in ``DIRECTIONS[direction]``, or None when its id would be off the grid."""
    q, r = to_axial(hex_id)
    dq, dr = _AXIAL_STEPS[direction]
    return from_axial(q + dq, r + dr)


def neighbours(hex_id: HexId) -> tuple[HexId | None, ...]:
    """The six neighbours in :data:`DIRECTIONS` order (None where the id would be off the grid).

    >>> neighbours("0505")
    ('0504', '0605', '0506', '0406', '0405', '0404')
    """
    q, r = to_axial(hex_id)
    return tuple(from_axial(q + dq, r + dr) for dq, dr in _AXIAL_STEPS)


def direction_to(a: HexId, b: HexId) -> int:
    """Index into :data:`DIRECTIONS` of adjacent hex ``b`` seen from ``a``."""
    qa, ra = to_axial(a)
    qb, rb = to_axial(b)
    try:
        return _AXIAL_STEPS.index((qb - qa, rb - ra))
    except ValueError:
        raise ValueError(f"{a} and {b} are not adjacent") from None


def distance(a: HexId, b: HexId) -> int:
    """Number of hex steps from ``a`` to ``b``.

    >>> distance("0101", "0104")
    3
    """
    qa, ra = to_axial(a)
    qb, rb = to_axial(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: HexId, b: HexId) -> bool:
    """True when ``a`` and ``b`` share a hexside."""
    return distance(a, b) == 1


def within(center: HexId, radius: int) -> list[HexId]:
    """Every hex id at distance ``<= radius`` from ``center`` (sorted; off-grid ids omitted)."""
    q0, r0 = to_axial(center)
    out: list[HexId] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            h = from_axial(q0 + dq, r0 + dr)
            if h is not None:
                out.append(h)
    return sorted(out)


@functools.lru_cache(maxsize=1 << 16)
def disc(center: HexId, radius: int) -> frozenset[HexId]:
    """The ids of :func:`within` as a frozenset, cached (geometry only: the same for every map;
    callers intersect it with their map). For hot range tests such as bridge interdiction."""
    return frozenset(within(center, radius))


def _cube_round(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def line(a: HexId, b: HexId) -> list[HexId]:
    """The hexes on the straight line from ``a`` to ``b``, both included.

    Points are nudged by a tiny epsilon so that a line running exactly along a hexside
    always falls on the same side (deterministic). Where that side would be off the id
    range (a line along the west or north border), the opposite nudge is used.
    """
    n = distance(a, b)
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    for sign in (1.0, -1.0):
        eps = (1e-6 * sign, 2e-6 * sign, -3e-6 * sign)
        out: list[HexId] = []
        for i in range(n + 1):
            t = i / n if n else 0.0
            x = ax + (bx - ax) * t + eps[0]
            y = ay + (by - ay) * t + eps[1]
            z = az + (bz - az) * t + eps[2]
            cx, _cy, cz = _cube_round(x, y, z)
            h = from_axial(cx, cz)
            if h is None:
                break
            out.append(h)
        else:
            return out
    raise ValueError(f"line {a}-{b} leaves the id range")  # pragma: no cover


def hexside(a: HexId, b: HexId) -> Hexside:
    """The key of the hexside between adjacent hexes ``a`` and ``b`` (order-free)."""
    if not adjacent(a, b):
        raise ValueError(f"{a} and {b} are not adjacent: no hexside")
    return (a, b) if a < b else (b, a)


def center(hex_id: HexId) -> tuple[float, float]:
    """Centre ``(x, y)`` in hex units (centre-to-centre distance 1), x east, y south.

    Hex ``0101`` is at ``(0, 0)``; shifted rows are offset by ``+0.5`` in x; rows are
    ``sqrt(3)/2`` apart.
    """
    col, row = parse(hex_id)
    x = (col - 1) + (0.5 if is_shifted(row) else 0.0)
    y = (row - 1) * SQRT3 / 2
    return x, y


def at_point(x: float, y: float) -> tuple[int, int]:
    """1-based offset ``(col, row)`` of the hex containing point ``(x, y)`` (hex units).

    Inverse of :func:`center` for any point, including ones off the grid.
    """
    # Pointy-top pixel->axial with size s = 1/sqrt(3) (so centres are 1 apart).
    s = 1.0 / SQRT3
    q = (SQRT3 / 3 * x - 1.0 / 3 * y) / s
    r = (2.0 / 3 * y) / s
    cx, _cy, cz = _cube_round(q, -q - r, r)
    return axial_to_offset(cx, cz)


def iter_grid(columns: int, rows: int) -> Iterator[HexId]:
    """All ids of a ``columns`` x ``rows`` grid in sorted (column, row) order."""
    for c in range(1, columns + 1):
        for r in range(1, rows + 1):
            yield make(c, r)
