"""The pure map renderer: geometry, glyphs, legend, side-panel text (no Textual)."""

from __future__ import annotations

from ardennes_tui.rulesets.ao.render import (
    describe_hex,
    detail,
    draw_detail,
    draw_overview,
    legend_lines,
    overview,
)
from ardennes_tui.rulesets.ao.render.names import ascii_name, town_abbreviations
from rules import hexgrid
from tests.kit.maps import COLUMNS, ROWS, fixture_map, fixture_units

GAME_MAP = fixture_map()
DETAIL = draw_detail(GAME_MAP)
LINES = DETAIL.plain_lines()


def cell(x: int, y: int, lines: list[str] = LINES) -> str:
    return lines[y][x] if x < len(lines[y]) else " "


def test_detail_size_and_ascii() -> None:
    assert (DETAIL.width, DETAIL.height) == detail.size(COLUMNS, ROWS)
    assert len(LINES) == DETAIL.height
    assert all(line.isascii() for line in LINES)
    assert max(len(line) for line in LINES) <= DETAIL.width


def test_hex_interiors_tile_without_overlap() -> None:
    seen: set[tuple[int, int]] = set()
    for hex_id in GAME_MAP:
        spans = DETAIL.spans[hex_id]
        assert [b - a for _, a, b in spans] == [1, 3, 5, 3, 1]
        for y, a, b in spans:
            for x in range(a, b):
                assert (x, y) not in seen
                seen.add((x, y))
                assert DETAIL.hex_at(x, y) == hex_id
    assert len(seen) == 13 * COLUMNS * ROWS


def test_plain_hexsides_have_geometric_glyphs() -> None:
    x, y = detail.origin(2, 2)  # 0202: no feature on any side
    assert cell(x, y) == "|" and cell(x + 6, y) == "|"
    assert (cell(x + 1, y - 1), cell(x + 2, y - 2)) == ("/", "/")  # NW
    assert (cell(x + 4, y - 2), cell(x + 5, y - 1)) == ("\\", "\\")  # NE
    assert (cell(x + 1, y + 1), cell(x + 2, y + 2)) == ("\\", "\\")  # SW
    assert (cell(x + 5, y + 1), cell(x + 4, y + 2)) == ("/", "/")  # SE


def test_river_bridge_ford_and_start_line_glyphs() -> None:
    x, y = detail.origin(3, 4)
    assert cell(x + 6, y) == "~"  # 0304/0404: river
    x, y = detail.origin(3, 5)
    assert cell(x + 6, y) == "="  # 0305/0405: bridge
    x, y = detail.origin(3, 8)
    assert cell(x + 6, y) == ":"  # 0308/0408: ford
    x, y = detail.origin(10, 3)
    assert cell(x + 6, y) == "*"  # 1003/1103: start line


def test_town_road_fortification_exit_in_hex() -> None:
    x, y = detail.origin(6, 5)  # Bastogne, roads to all six neighbours
    assert LINES[y][x + 1 : x + 6] == "Basto"
    assert cell(x + 2, y - 1) == cell(x + 4, y - 1) == "."  # NW, NE roads
    assert cell(x + 2, y + 1) == cell(x + 4, y + 1) == "."  # SW, SE roads
    x, y = detail.origin(5, 5)  # plain road hex west of Bastogne: E-W road
    assert LINES[y][x + 1 : x + 6] == "....."
    x, y = detail.origin(12, 4)
    assert cell(x + 3, y - 1) == "W"  # Westwall
    x, y = detail.origin(11, 6)
    assert cell(x + 3, y - 1) == "F"  # fortified
    x, y = detail.origin(1, 5)
    assert cell(x + 3, y + 1) == "5"  # road exit worth 5 VP
    x, y = detail.origin(8, 2)
    assert LINES[y][x + 1 : x + 6] == "^^^^^"  # rough


def test_margins_number_rows_and_columns_and_edges() -> None:
    for c in (1, 7, 12):
        x, _ = detail.origin(c, 1)
        assert LINES[detail.TOP - 1][x + 3 : x + 5] == f"{c:02d}"
    for r in (1, 6, 10):
        _, y = detail.origin(1, r)
        assert LINES[y].startswith(f"W  {r:02d}")
        assert LINES[y].endswith(f"{r:02d} east")
    assert " NW " in LINES[0] and " NE " in LINES[0]
    assert " SW " in LINES[-1] and " SE " in LINES[-1]


def test_units_drawn_with_stack_count() -> None:
    lines = draw_detail(GAME_MAP, fixture_units()).plain_lines()
    x, y = detail.origin(11, 4)
    assert lines[y][x + 1 : x + 6] == "A7-4 "
    assert lines[y + 1][x + 2 : x + 5] == " +1"
    x, y = detail.origin(6, 5)
    assert lines[y][x + 1 : x + 6] == "p6-3."  # Allied: lower-case type letter


def test_overview_one_line_per_row() -> None:
    pic = draw_overview(GAME_MAP)
    lines = pic.plain_lines()
    assert pic.height == overview.TOP + ROWS
    assert all(line.isascii() for line in lines)
    x, y = overview.origin(6, 5)
    assert lines[y][x] == "B"  # Bastogne
    x, y = overview.origin(3, 5)
    assert lines[y][x + 1] == "="  # bridge on the east side
    x, y = overview.origin(3, 4)
    assert lines[y][x + 1] == "~"
    x, y = overview.origin(12, 3)
    assert lines[y][x] == "w"
    assert overview.origin(1, 2)[0] == overview.origin(1, 1)[0] + 1  # shifted rows
    units = draw_overview(GAME_MAP, fixture_units()).plain_lines()
    x, y = overview.origin(11, 4)
    assert units[y][x] == "%"  # German


def test_names() -> None:
    assert ascii_name("Malmédy") == "Malmedy"
    abbrev = town_abbreviations(GAME_MAP)
    assert abbrev == {
        "Bastogne": "Basto",
        "St. Vith": "StVit",
        "Malmédy": "Malme",
        "Marche": "March",
    }


def test_legend_lists_towns_rivers_exits() -> None:
    text = "\n".join("".join(t for t, _ in line) for line in legend_lines(GAME_MAP))
    assert text.isascii()
    for needle in (
        "Legend",
        "Basto Bastogne (0605)",
        "Malme Malmedy (1101)",
        "Ourthe",
        "0105 5 VP",
    ):
        assert needle in text


def test_describe_hex() -> None:
    text = describe_hex(GAME_MAP, "0305", width=40).plain
    assert "Hex 0305  clear" in text
    assert " E  river Ourthe, bridge, road" in text
    assert " E  river Ourthe, bridge,\n    road" in describe_hex(GAME_MAP, "0305").plain
    assert " W  road" in text
    text = describe_hex(GAME_MAP, "1104", fixture_units()).plain
    assert "Units (2)" in text and "2 pz arm XX 7-4" in text and "26 vg inf III 3-3" in text
    text = describe_hex(GAME_MAP, "1205").plain
    assert "Edge German east edge" in text and "Fort Westwall" in text and "Town -" in text
    assert "Exit 5 VP road exit" in describe_hex(GAME_MAP, "0105").plain
    assert " W  off map" in describe_hex(GAME_MAP, "0103").plain
    assert hexgrid.DIRECTIONS[0] == "NE"
