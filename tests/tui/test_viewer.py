"""The map viewer driven headless with Textual's Pilot at 80x24."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

from ardennes_tui.app import ArdennesApp
from ardennes_tui.rulesets.ao.render import detail
from ardennes_tui.rulesets.ao.screens.map_screen import MapScreen
from ardennes_tui.rulesets.ao.widgets.side_panel import SidePanel
from ardennes_tui.screens.help import HelpScreen
from ardennes_tui.widgets.map_view import MapView
from rules import hexgrid
from rules.ao.gamemap import GameMap
from scenarios import load_map
from tests.kit.app import RepaintSpy
from tests.kit.maps import COLUMNS, ROWS, fixture_map, fixture_units
from tests.kit.realmap import HAVE_REAL_MAP

GAME_MAP = fixture_map()

NE, E, SE, SW, W, NW = range(6)


def drive(
    body: Callable[[ArdennesApp, Pilot[None]], Awaitable[None]],
    *,
    size: tuple[int, int] = (80, 24),
    cursor: str = "0605",
    units: bool = False,
    game_map: GameMap = GAME_MAP,
) -> None:
    app = ArdennesApp(game_map, fixture_units() if units else None, cursor=cursor)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main())


def view_of(app: ArdennesApp) -> MapView:
    return app.screen.query_one(MapView)


def panel_text(app: ArdennesApp) -> str:
    return app.screen.query_one(SidePanel).text


KEY_DIRECTIONS = {
    NW: ("y", "7", "home"),
    NE: ("u", "9", "pageup"),
    W: ("h", "4", "left"),
    E: ("l", "6", "right"),
    SW: ("b", "1", "end"),
    SE: ("n", "3", "pagedown"),
}
UP_KEYS = ("k", "8", "up")
DOWN_KEYS = ("j", "2", "down")


def test_each_key_moves_to_the_neighbour() -> None:
    """The first key of each binding is pressed for real (from an unshifted and a shifted
    row); its other keys are checked to be bound to the same action."""

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        bound = view._bindings.key_to_bindings
        for start in ("0605", "0604"):
            nbrs = hexgrid.neighbours(start)
            col, row = hexgrid.parse(start)
            expected = {keys: nbrs[d] for d, keys in KEY_DIRECTIONS.items()}
            expected[UP_KEYS] = hexgrid.make(col, row - 1)
            expected[DOWN_KEYS] = hexgrid.make(col, row + 1)
            assert expected[UP_KEYS] in (nbrs[NE], nbrs[NW])
            assert expected[DOWN_KEYS] in (nbrs[SE], nbrs[SW])
            for keys, target in expected.items():
                view.cursor = start
                await pilot.press(keys[0])
                assert view.cursor == target, keys
                actions = {bound[k][0].action for k in keys}
                assert len(actions) == 1, keys

    drive(body)


def test_cursor_cannot_leave_the_map() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        await pilot.press(*"yukh")
        assert view.cursor == "0101"
        view.cursor = hexgrid.make(COLUMNS, ROWS)
        await pilot.press(*"lnj")
        assert view.cursor == hexgrid.make(COLUMNS, ROWS)

    drive(body, cursor="0101")


def visible(view: MapView, hex_id: str) -> bool:
    return view.visible_region().contains_region(view.hex_region(hex_id))


def corners(columns: int, rows: int) -> tuple[tuple[str, str, str], ...]:
    """``(corner, key, hex before)``: pressing ``key`` on ``hex before`` reaches ``corner``."""
    return (
        (hexgrid.make(columns, rows), "l", hexgrid.make(columns - 1, rows)),
        (hexgrid.make(1, rows), "j", hexgrid.make(1, rows - 1)),
        (hexgrid.make(columns, 1), "k", hexgrid.make(columns, 2)),
        ("0101", "h", "0201"),
    )


@pytest.mark.parametrize("zoom", ["detail", "overview"])
@pytest.mark.parametrize("which", ["fixture", "real"])
def test_view_follows_cursor_to_the_far_corners(zoom: str, which: str) -> None:
    if which == "real" and not HAVE_REAL_MAP:
        pytest.skip("scenarios/ardennes/map.json not built")
    game_map = GAME_MAP if which == "fixture" else load_map()
    cases = corners(game_map.columns, game_map.rows)

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        if zoom == "overview":
            await pilot.press("z")
        await pilot.pause()
        for corner, key, before in cases:
            view.cursor = before
            await pilot.press(key)
            await pilot.pause()
            assert view.cursor == corner
            assert visible(view, corner), (zoom, corner, view.visible_region())

    drive(body, cursor="0605", game_map=game_map)


def test_side_panel_shows_river_road_town() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        text = panel_text(app)
        assert "Hex 0605" in text and "Town Bastogne" in text and " NE road" in text
        assert "Fort -" in text and "Edge -" in text
        view_of(app).cursor = "0305"
        await pilot.pause()
        text = panel_text(app)
        assert "Hex 0305" in text
        assert " E  river Ourthe, bridge,\n    road" in text  # wrapped with a hanging indent
        assert " W  road" in text
        await pilot.press("l")  # across the bridge
        await pilot.pause()
        assert " W  river Ourthe, bridge,\n    road" in panel_text(app)

    drive(body)


def test_side_panel_shows_stacks() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view_of(app).cursor = "1104"
        await pilot.pause()
        text = panel_text(app)
        assert "Units (2)" in text and "2 pz arm XX 7-4" in text and "26 vg inf III 3-3" in text
        assert "A7-4" in "".join(view_of(app).picture.plain_lines())

    drive(body, units=True)


def test_zoom_toggles() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        zoom: str = view.zoom
        assert zoom == "detail"
        detail_size = view.virtual_size
        await pilot.press("z")
        await pilot.pause()
        zoom = view.zoom
        assert zoom == "overview"
        assert view.virtual_size.height == ROWS + 2
        assert view.virtual_size.width < detail_size.width
        assert visible(view, view.cursor)
        # The whole fixture overview fits beside the panel, so the panel stays.
        assert view.picture.width <= 80 - 28
        assert app.screen.query_one(SidePanel).display
        await pilot.press("l")
        assert view.cursor == "0705"
        await pilot.press("z")
        await pilot.pause()
        assert view.zoom == "detail" and view.virtual_size == detail_size
        assert app.screen.query_one(SidePanel).display

    drive(body)


def test_cursor_move_repaints_two_hexes_only() -> None:
    """The Line-API claim: a move re-renders the lines of the old and new hex, nothing else."""

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        await pilot.pause()
        panel = app.screen.query_one(SidePanel)
        original_panel_refresh = panel.refresh
        panel_regions: list[Region] = []

        def spy_panel_refresh(*r: Region, **kw: bool) -> SidePanel:
            panel_regions.extend(r)
            assert r, "the panel must not repaint as a whole"
            return original_panel_refresh(*r, **kw)

        spy = RepaintSpy(view)
        panel.refresh = spy_panel_refresh  # type: ignore[method-assign]
        await pilot.pause()
        offset = view.scroll_offset
        spy.clear()
        panel_regions.clear()
        await pilot.press("h")
        await pilot.pause()
        assert view.cursor == "0505"
        assert view.scroll_offset == offset  # no scrolling needed for this move
        # One rectangle covering both hexes (5x5 each, side by side): 11x5 cells.
        assert [(r.width, r.height) for r in spy.regions] == [(11, 5)]
        assert 0 < len(spy.rendered) <= 10  # two hexes of 5 lines; the view is 23 lines tall
        assert len(set(spy.rendered)) <= 5  # the two hexes share their 5 lines
        # The side panel repaints only the lines that changed (hex id, town, two hexsides).
        assert all(r.height == 1 for r in panel_regions)
        assert 0 < len(panel_regions) <= 6

    drive(body)


def test_click_moves_the_cursor() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        x, y, _, _ = view.picture.box("0504")
        sx, sy = view.scroll_offset
        await pilot.click(MapView, offset=(x + 2 - sx, y + 2 - sy))
        await pilot.pause()
        assert view.cursor == "0504"

    drive(body)


def test_help_and_quit() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")
        await pilot.pause()
        assert app._exit

    drive(body)


def test_terminal_too_small() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert app.screen.query_one("#too-small").display
        assert not app.screen.query_one("#main").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.query_one("#too-small").display
        assert app.screen.query_one("#main").display

    drive(body, size=(70, 20))


def test_panel_toggle() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        panel = app.screen.query_one(SidePanel)
        assert panel.display
        await pilot.press("p")
        assert not panel.display
        await pilot.press("p")
        assert panel.display

    drive(body)


def test_overview_shows_the_whole_real_map_in_a_larger_terminal() -> None:
    if not HAVE_REAL_MAP:
        pytest.skip("scenarios/ardennes/map.json not built")
    game_map = load_map()

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = view_of(app)
        await pilot.press("z")
        await pilot.pause()
        pic = view.picture
        assert view.visible_region().contains_region(Region(0, 0, pic.width, pic.height))

    drive(body, size=(90, 48), game_map=game_map, cursor="2328")


def test_units_can_be_set_later_and_keys_remapped() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, MapScreen)
        view = view_of(app)
        assert "Units" not in panel_text(app)
        screen.set_units(fixture_units())
        await pilot.pause()
        assert "Units (1)" in panel_text(app)  # the US airborne in Bastogne
        assert "p6-3" in "\n".join(view.picture.plain_lines())
        app.set_keymap({"map.zoom": "x"})  # a user keymap, by binding id
        await pilot.press("x")
        zoom: str = view.zoom
        assert zoom == "overview"

    drive(body)


@pytest.mark.rule("AO-17.a")
def test_scenario_setup_shows_in_the_viewer() -> None:
    """`ardennes --scenario 1`: the set-up's stacks are counters, the panel lists them."""
    from ardennes_tui.rulesets.ao.present.scenario_view import setup_units
    from ardennes_tui.rulesets.ao.render.counters import counter_long
    from scenarios import load_scenario

    units = setup_units(load_scenario(1))
    real = load_map()
    hex_id, stack = max(sorted(units.items()), key=lambda kv: len(kv[1]))
    app = ArdennesApp(real, units, cursor=hex_id)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = panel_text(app)
            assert f"Units ({len(stack)})" in text
            for unit in stack:
                assert counter_long(unit) in text

    asyncio.run(main())


def test_moving_a_counter_repaints_only_its_two_hexes() -> None:
    """A unit moving from 0605 to 0705 refreshes those two hexes' rectangles and keeps every
    cached line that does not cross them."""

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, MapScreen)
        view = view_of(app)
        await pilot.pause()
        before = dict(view._strips)
        assert before
        regions: list[Region] = []
        original_refresh = view.refresh

        def spy_refresh(*r: Region, **kw: bool) -> MapView:
            regions.extend(r)
            return original_refresh(*r, **kw)

        view.refresh = spy_refresh  # type: ignore[method-assign]
        units = fixture_units()
        units["0705"] = units.pop("0605")
        screen.set_units(units)
        offset = view.scroll_offset
        assert sorted(regions) == sorted(
            view.hex_region(h).translate(-offset) for h in ("0605", "0705")
        )
        touched = {s[0] for h in ("0605", "0705") for s in view.picture.spans[h]}
        kept = {k for k in before if k[1] not in touched}
        assert kept and kept <= set(view._strips)
        assert not any(k[1] in touched for k in view._strips)
        await pilot.pause()
        plain = view.picture.plain_lines()
        x, y = detail.origin(7, 5)
        assert plain[y][x + 1 : x + 5] == "p6-3"
        x, y = detail.origin(6, 5)
        assert plain[y][x + 1 : x + 6] == "Basto"  # the town shows again

    drive(body, units=True)
