"""The hex grid: the offset convention is pinned, and geometry agrees with itself."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import hexgrid as hg

ids = st.one_of(
    st.builds(hg.make, st.integers(1, 60), st.integers(1, 60)),
    st.builds(hg.make, st.integers(1, 3), st.integers(1, 60)),
    st.builds(hg.make, st.integers(1, 60), st.integers(1, 3)),
)


def test_parse_and_make_round_trip() -> None:
    assert hg.parse("0712") == (7, 12)
    assert hg.make(7, 12) == "0712"
    for bad in ["712", "07120", "0a12", "0012", "0700", "", "０７１２"]:
        with pytest.raises(hg.HexIdError):
            hg.parse(bad)


def test_offset_convention_is_pinned() -> None:
    # Even rows are shifted half a hex east (pointy-top, odd-r in 0-based terms).
    assert hg.SHIFTED_ROW_PARITY == 0
    assert not hg.is_shifted(1) and hg.is_shifted(2)
    # From an unshifted row the north-east neighbour keeps the column ...
    assert hg.neighbours("0505") == ("0504", "0605", "0506", "0406", "0405", "0404")
    # ... from a shifted row it is one column further east.
    assert hg.neighbours("0506") == ("0605", "0606", "0607", "0507", "0406", "0505")
    assert hg.DIRECTIONS == ("NE", "E", "SE", "SW", "W", "NW")
    assert hg.center("0101") == (0.0, 0.0)
    assert hg.center("0102") == (0.5, math.sqrt(3) / 2)


def test_edge_of_id_range() -> None:
    assert hg.neighbours("0101") == (None, "0201", "0102", None, None, None)


def test_distance_by_hand() -> None:
    assert hg.distance("0505", "0505") == 0
    assert hg.distance("0101", "0104") == 3
    assert hg.distance("0101", "0501") == 4
    # Down the zig-zag of a column two rows gain one column of reach.
    assert hg.distance("0101", "0203") == 2
    assert hg.distance("0101", "0303") == 3


def test_within_counts() -> None:
    assert len(hg.within("1010", 0)) == 1
    assert len(hg.within("1010", 1)) == 7
    assert len(hg.within("1010", 3)) == 37
    assert set(hg.within("1010", 1)) == {"1010", *hg.neighbours("1010")}


def test_line_by_hand() -> None:
    assert hg.line("0101", "0501") == ["0101", "0201", "0301", "0401", "0501"]
    assert hg.line("0505", "0505") == ["0505"]
    # Along the west border the nudge must not step off the id range.
    assert hg.line("0101", "0103") == ["0101", "0102", "0103"]
    assert hg.line("0103", "0101") == ["0103", "0102", "0101"]
    path = hg.line("0101", "0606")
    assert len(path) == hg.distance("0101", "0606") + 1


def test_hexside_key() -> None:
    assert hg.hexside("0505", "0504") == ("0504", "0505")
    assert hg.hexside("0504", "0505") == ("0504", "0505")
    with pytest.raises(ValueError):
        hg.hexside("0505", "0507")


@given(ids)
def test_axial_round_trip(h: str) -> None:
    assert hg.from_axial(*hg.to_axial(h)) == h


@given(ids)
def test_neighbours_are_adjacent_and_symmetric(h: str) -> None:
    for d, n in enumerate(hg.neighbours(h)):
        if n is None:
            continue
        assert hg.distance(h, n) == 1
        assert hg.neighbours(n)[(d + 3) % 6] == h
        assert hg.direction_to(h, n) == d
        # Centres of neighbours are exactly one hex apart.
        (x1, y1), (x2, y2) = hg.center(h), hg.center(n)
        assert math.isclose(math.hypot(x2 - x1, y2 - y1), 1.0)


@given(ids, ids)
def test_distance_is_a_metric_and_matches_lines(a: str, b: str) -> None:
    d = hg.distance(a, b)
    assert d == hg.distance(b, a)
    assert (d == 0) == (a == b)
    path = hg.line(a, b)
    assert path[0] == a and path[-1] == b and len(path) == d + 1
    assert all(hg.distance(p, q) == 1 for p, q in itertools.pairwise(path))
    # Euclidean distance between centres never exceeds hex distance.
    (x1, y1), (x2, y2) = hg.center(a), hg.center(b)
    assert math.hypot(x2 - x1, y2 - y1) <= d + 1e-9


@given(ids, st.integers(0, 4))
def test_within_matches_distance(h: str, radius: int) -> None:
    got = hg.within(h, radius)
    assert got == sorted(got)
    assert all(hg.distance(h, x) <= radius for x in got)
    col, row = hg.parse(h)
    if radius < col and radius < row:  # fully inside the id range
        assert len(got) == 1 + 3 * radius * (radius + 1)


@given(ids, st.floats(-0.49, 0.49), st.floats(-0.42, 0.42))
def test_at_point_inverts_center(h: str, dx: float, dy: float) -> None:
    x, y = hg.center(h)
    assert hg.make(*hg.at_point(x, y)) == h
    # Any point well inside the hex (inscribed circle radius 0.5, shrunk) maps back too.
    if math.hypot(dx, dy) < 0.49:
        assert hg.make(*hg.at_point(x + dx, y + dy)) == h
