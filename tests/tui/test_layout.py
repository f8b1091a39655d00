"""The play screen's layout at 80x24 (issue 11, "Layout fixes"), driven with Pilot on the real
map: the position line stays on screen whatever the message, long messages wrap in the
message area (never cut), the side panel puts the hex's units first, and a resize through a
too-small terminal keeps the focus, the bindings and the cursor."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.present.combat_text import combat_log
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.side_panel import SidePanel
from tests.kit.app import gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map

Body = Callable[[ArdennesApp, Pilot[None], rules.ao.Game], Awaitable[None]]


def drive(
    body: Body,
    game: rules.ao.Game | None = None,
    cursor: str = "4009",
    size: tuple[int, int] = (80, 24),
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
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
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
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            view = view_of(app)
            assert app.focused is view
            await pilot.press("h")
            await pilot.pause()
            assert view.cursor == "3909"

        drive(body, size=(60, 20))


def screen_lines(app: ArdennesApp) -> list[str]:
    """The terminal's lines as the player sees them (plain text)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def status_rows(app: ArdennesApp) -> list[str]:
    """The screen's lines from the position line down (the status area)."""
    lines = screen_lines(app)
    top = next(i for i, line in enumerate(lines) if line.startswith(" GT"))
    return lines[top:]


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


LONG = (
    "AO-4.2h*: de-15-pt must take part in an attack against us-109-i, us-110-i, us-112-i, "
    "us-18-ac, us-394-i or us-395-i before the German Combat Phase ends; it may not be "
    "dropped from the batch, and the last word of this message is SENTINEL."
)


class TestStatus:
    """The position line is always on screen; a long message wraps under it, whole."""

    def test_a_long_message_never_pushes_the_position_line_off(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            screen.say(LONG)
            await pilot.pause()
            rows = status_rows(app)
            assert rows[0].startswith(" GT1 16 Dec | Allied | Set-up | VP ")
            assert words(rows[1:]) == " ".join(LONG.split())  # whole, nothing cut
            assert len(rows) == 5 and len(screen_lines(app)) == 24

        drive(body)

    def test_the_message_area_keeps_two_lines_for_short_messages(self) -> None:
        """The map does not change size as the cursor moves over short and 2-line messages."""

        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            view = view_of(app)
            heights = set()
            for text in ("Short.", LONG[:120], "x"):
                screen.say(text)
                await pilot.pause()
                heights.add(view.size.height)
            assert heights == {21}

        drive(body)

    def test_a_message_longer_than_the_area_scrolls(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            text = "\n".join(f"line {i}" for i in range(1, 11))
            screen.say(text)
            await pilot.pause()
            status = screen.status
            rows = status_rows(app)
            assert rows[1:6] == [f" line {i}".ljust(80) for i in range(1, 6)]
            assert rows[6].startswith(" [5 more lines: } or the mouse wheel scrolls; c: the")
            await pilot.press(*["right_curly_bracket"] * 9)  # } a line down, past the end
            await pilot.pause()
            rows = status_rows(app)
            assert rows[1].startswith(" line 6") and rows[5].startswith(" line 10")
            assert rows[6].startswith(" [end: { or the mouse wheel scrolls back]")
            await pilot.press("left_curly_bracket")  # { a line up
            await pilot.pause()
            assert status_rows(app)[1].startswith(" line 5")
            assert status.message_lines == [f" line {i}" for i in range(1, 11)]

        drive(body)

    def test_a_long_combat_result_is_shown_whole(self) -> None:
        """Dice ``d``: ``r`` resolves two attacks before the Ex-losses decision; both results
        are on screen whole, the first one's second loss (de-352-i) included (before: the last
        one only, cut at 80 columns: ``... [+1 mor...``)."""

        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            await pilot.press("r")
            await pilot.pause()
            rows = status_rows(app)
            assert rows[0].startswith(" GT1 16 Dec | German | Combat | VP ")
            shown = words(rows[1:])
            for result in combat_log(game.events[-1]):
                assert result in shown
            assert "de-352-i eliminated (AO-10.1b); Allied +1 VP" in shown
            assert "..." not in shown

        drive(body, gt1_german_combat("d"), cursor="2328")


class TestPanel:
    """The side panel starts with the hex, its town and its units; the mode's lines follow."""

    def test_the_attacked_hex_units_come_before_the_gt1_list(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            target = game.options().must_be_attacked[0]
            hex_id = game.state.unit(target).hex
            assert hex_id is not None
            view_of(app).cursor = hex_id
            await pilot.pause()
            panel = app.screen.query_one(SidePanel)
            seen = panel.text.splitlines()[: panel.size.height]
            assert seen[0].startswith(f"Hex {hex_id}")
            assert seen[2] == "Units (1) @ Allied"
            assert any(target.split("-")[1] in line for line in seen[3:4])
            assert "GT1 must (AO-4.2h*)" in panel.text
            assert panel.virtual_size.height > panel.size.height  # it scrolls
            await pilot.press("right_parenthesis", "right_parenthesis")  # ) a line down
            await pilot.pause()
            assert panel.scroll_y == 2
            await pilot.press("left_parenthesis")  # ( a line up
            await pilot.pause()
            assert panel.scroll_y == 1

        drive(body, gt1_german_combat("d"), cursor="2328")

    def test_a_town_under_units_is_named_in_the_panel(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            panel = app.screen.query_one(SidePanel)
            assert panel.text.splitlines()[1:3] == ["Town Bastogne", "Units (1) @ Allied"]

        drive(body, cursor="2328")


class TestHandover:
    """Hot-seat (``ardennes``: ``handover=True``): when the phasing side changes, a screen
    hides the map until Enter."""

    def test_the_map_is_hidden_until_enter(self) -> None:
        from ardennes_tui.screens.handover import HandoverScreen

        game = saves.new_game(1, "handover")
        app = ArdennesApp(game.board.game_map, cursor="2328", game=game, handover=True)

        async def main() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                play = app.screen
                assert isinstance(play, PlayScreen)
                await pilot.press("e", "e")  # the Allied set-up accepted: the German's turn
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, HandoverScreen)
                assert screen.text == "German player's turn: hand over, press Enter"
                assert not any(line.strip().startswith("Hex ") for line in screen_lines(app))
                await pilot.press("l")  # nothing moves behind the screen
                assert play.map_view.cursor == "2328"
                await pilot.press("enter")
                await pilot.pause()
                assert app.screen is play and game.state.side == "german"
                await pilot.press("e", "e")  # the German set-up: the same side, no screen
                await pilot.pause()
                assert app.screen is play and game.state.phase == "reinforcement"
                await pilot.press("l")
                assert play.map_view.cursor == "2428"

        asyncio.run(main())

    def test_off_by_default(self) -> None:
        async def body(app: ArdennesApp, pilot: Pilot[None], game: rules.ao.Game) -> None:
            await pilot.press("e", "e")
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen) and game.state.side == "german"

        drive(body)
