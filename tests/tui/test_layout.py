"""The play screen's layout at 80x24 (issue 11, "Layout fixes"), driven with Pilot on the real
map: the position line stays on screen whatever the message, long messages wrap in the
message area (never cut), the side panel puts the hex's units first, and a resize through a
too-small terminal keeps the focus, the bindings and the cursor."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot

import rules
from ardennes_tui import saves
from ardennes_tui.app import ArdennesApp
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from tests.realmap import needs_real_map

pytestmark = needs_real_map

Body = Callable[[ArdennesApp, Pilot[None], rules.Game], Awaitable[None]]


def drive(
    body: Body, game: rules.Game | None = None, cursor: str = "4009", size: tuple[int, int] = (80, 24)
) -> None:
    game = game or saves.new_game(1, "layout")
    app = ArdennesApp(game.board.game_map, cursor=cursor, game=game)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            await body(app, pilot, game)

    asyncio.run(main())


def view_of(app: ArdennesApp) -> MapView:
    return app.screen.query_one(MapView)


class TestResize:
    """A terminal briefly smaller than 80x24 hides the map behind a notice; back at 80x24 the
    map has the focus again and every cursor key works (before: none did until ``?`` was
    opened and closed)."""

    def test_keys_work_after_79x24_and_back(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.Game) -> None:
            view = view_of(app)
            assert app.focused is view
            await pilot.resize_terminal(79, 24)
            await pilot.pause()
            assert app.screen.query_one("#too-small").display
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert app.focused is view
            for key, to in (("l", "4109"), ("right", "4209"), ("h", "4109"), ("4", "4009")):
                await pilot.press(key)
                await pilot.pause()
                assert view.cursor == to, key

        drive(body)

    def test_started_too_small_then_enlarged(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.Game) -> None:
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            view = view_of(app)
            assert app.focused is view
            await pilot.press("h")
            await pilot.pause()
            assert view.cursor == "3909"

        drive(body, size=(60, 20))
