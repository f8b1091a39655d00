"""What the map and the panel mark (issue 11, "Layout fixes"): counters never cut, the sides'
own marks, Road Mode on the map, towns named under units, the overview's two-letter towns and
its own legend within 80 columns."""

from __future__ import annotations

import asyncio

import pytest

from ardennes_tui import cli
from ardennes_tui.app import ArdennesApp
from ardennes_tui.rulesets.ao.present import game_view
from ardennes_tui.rulesets.ao.render import (
    describe_hex,
    detail,
    draw_detail,
    draw_overview,
    overview,
)
from ardennes_tui.rulesets.ao.render.names import town_codes
from ardennes_tui.rulesets.ao.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from scenarios import load_board, load_map
from tests.kit.app import game_of
from tests.kit.engine import end_phase, scenario_gt1_german_combat
from tests.kit.maps import fixture_map, fixture_units
from tests.kit.realmap import needs_real_map

GAME_MAP = fixture_map()


def cells(lines: list[str], col: int, row: int) -> tuple[str, str, str]:
    """The upper, middle and lower interior lines of hex ``(col, row)``."""
    x, y = detail.origin(col, row)
    return lines[y - 1][x + 2 : x + 5], lines[y][x + 1 : x + 6], lines[y + 1][x + 2 : x + 5]


@needs_real_map
def test_the_fuehrer_escort_is_never_cut() -> None:
    """``A10-10`` does not fit the hex's five cells: its values stay whole on the middle line
    and its type letter goes above them (before: ``A10-1``)."""
    fe = load_board(1).defs["de-fe"]
    lines = draw_detail(load_map(), {"3412": [fe]}).plain_lines()
    upper, middle, _ = cells(lines, 34, 12)
    assert middle == "10-10" and upper[0] == "A"
    assert "A10-1" not in "\n".join(lines)


def test_road_mode_and_stack_size_under_the_counter() -> None:
    units = fixture_units()
    plain = draw_detail(GAME_MAP, units).plain_lines()
    marked = draw_detail(GAME_MAP, units, road={"g-26vg"}).plain_lines()
    assert cells(plain, 11, 4)[1:] == ("A7-4 ", " +1")
    assert cells(marked, 11, 4)[1:] == ("A7-4 ", "r+1")
    alone = draw_detail(GAME_MAP, {"1104": units["1104"][:1]}, road={"g-2pz"}).plain_lines()
    assert cells(alone, 11, 4)[2] == "r  "


def test_a_town_keeps_its_code_above_a_counter() -> None:
    """Bastogne (``0605`` on the fixture map) shows ``Basto`` alone and ``Bas`` above the
    counter that stands on it."""
    empty = draw_detail(GAME_MAP).plain_lines()
    held = draw_detail(GAME_MAP, fixture_units()).plain_lines()
    assert cells(empty, 6, 5)[1] == "Basto"
    upper, middle, _ = cells(held, 6, 5)
    assert (upper, middle) == ("Bas", "p6-3.")


@needs_real_map
def test_town_codes_are_unique_and_readable() -> None:
    game_map = load_map()
    for n in (2, 3):
        codes = town_codes(game_map, n)
        assert len({c.lower() for c in codes.values()}) == len(codes) == len(game_map.towns())
        assert all(len(c) == n and c.isascii() and c[0].isupper() for c in codes.values())
    two = town_codes(game_map, 2)
    assert [two[t] for t in ("Bastogne", "Bouillon", "Bitburg", "Büllingen", "St. Vith")] == [
        "Ba",
        "Bo",
        "Bi",
        "Bu",
        "SV",
    ]
    assert town_codes(game_map, 3)["St. Vith"] == "StV"


@needs_real_map
def test_the_overview_names_towns_with_two_letters() -> None:
    game_map = load_map()
    lines = draw_overview(game_map).plain_lines()
    for town, code in town_codes(game_map, 2).items():
        x, y = overview.origin(*map(int, (game_map.towns()[town][:2], game_map.towns()[town][2:])))
        assert lines[y][x : x + 2] == code, town


def test_the_panel_marks_sides_with_their_own_marks() -> None:
    """``%`` German, ``@`` Allied, as on the overview: never a type letter (before: ``G`` and
    ``A``, which are also glider and armor on the map)."""
    german = describe_hex(GAME_MAP, "1104", fixture_units()).plain.splitlines()
    allied = describe_hex(GAME_MAP, "0605", fixture_units()).plain.splitlines()
    assert german[2:5] == ["Units (2) % German", " % 2 pz arm XX 7-4", " % 26 vg inf III 3-3"]
    assert allied[1:4] == ["Town Bastogne", "Units (1) @ Allied", " @ 101 ab airb XX 6-3"]


@needs_real_map
def test_map_overview_fits_80_columns_with_its_own_legend(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ardennes map --overview``: the map in two parts of 21 columns, then the overview's
    legend (before: rows 86 wide and the detailed map's legend)."""
    assert cli.main(["map", "--overview", "--no-color"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "Columns 01-21" in lines and "Columns 22-42" in lines
    assert "Legend (overview: one line per hex row)" in lines
    assert "  Units  % German  @ Allied" in lines
    assert "  Ba Bastogne 2328" in out and "Bo Bouillon 0837" in out
    assert "Hexsides" not in out  # not the detailed map's legend
    assert not any("German" in line and "*" in line for line in lines)


@needs_real_map
def test_road_mode_shows_on_the_map_in_the_app() -> None:
    """``r`` puts a unit in Road Mode: its hex gets the ``r`` mark at once."""
    game = game_of(*scenario_gt1_german_combat(1), seed="marks")
    end_phase(game)  # the Mechanized Movement Phase
    m = game.board.game_map
    hex_id = next(
        u.hex
        for u in game.state.units
        if u.hex is not None
        and game.board.defs[u.id].side == "german"
        and game.board.defs[u.id].mechanized
        and not u.road_mode
        and m.is_road_hex(u.hex)
        and len(game_view.stack(game, u.hex)) == 1
    )
    app = ArdennesApp(game.board.game_map, cursor=hex_id, game=game)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            view = screen.query_one(MapView)
            col, row = int(hex_id[:2]), int(hex_id[2:])
            assert cells(view.picture.plain_lines(), col, row)[2][0] != "r"
            await pilot.press("enter", "r")
            await pilot.pause()
            unit = screen.selected or game_view.stack(game, hex_id)[0]
            assert game.state.unit(unit).road_mode, screen.message
            assert cells(view.picture.plain_lines(), col, row)[2][0] == "r"

    asyncio.run(main())


def test_odds_off_the_table_say_what_they_count_as() -> None:
    from ardennes_tui.rulesets.ao.present.combat_text import odds_note

    assert odds_note(4, 27, "1-2") == "worse than 1-2 counts as 1-2"
    assert odds_note(5, 10, "1-2") == ""
    assert odds_note(50, 5, "9-1") == "better than 9-1 counts as 9-1"
    assert odds_note(45, 5, "9-1") == "" and odds_note(36, 5, "7-1") == ""


def test_the_position_line_names_the_sides_of_the_vp_in_ascii() -> None:
    from ardennes_tui.games import saves

    summary = game_view.summary(saves.new_game(1, "vp"))
    assert summary == "GT1 16 Dec | Allied | Set-up | VP German 0, Allied 0"
    assert summary.isascii()


def test_the_supply_judgment_says_what_happens() -> None:
    from ardennes_tui.rulesets.ao.modes.base import SupplyMode

    hint = SupplyMode.hint(None)  # type: ignore[arg-type]
    assert "not playable" not in hint
    assert "judged automatically" in hint and "e ends the phase" in hint
