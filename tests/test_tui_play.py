"""Hot-seat play of the movement phases, driven headless with Pilot at 80x24 on the real map
and scenario 1: set-ups, the German GT1 Mechanized Movement Phase, undo, road mode, refusals,
the Allied player-turn, and a foot unit in the German GT2 Initial Movement Phase."""

from __future__ import annotations

import asyncio
import importlib.resources
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

from ardennes_tui.app import ArdennesApp, load_session
from ardennes_tui.cli import UserError
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.session import GameSession
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from rules.commands import decode_jsonl
from rules.state import state_hash
from tests.enginekit import scenario_gt1_german_combat, without_gt1_obligations

REAL_MAP = importlib.resources.files("scenarios").joinpath("ardennes", "map.json")
pytestmark = pytest.mark.skipif(
    not REAL_MAP.is_file(), reason="scenarios/ardennes/map.json not built"
)

Body = Callable[[ArdennesApp, Pilot[None], GameSession], Awaitable[None]]


def drive(body: Body, cursor: str = "4009", session: GameSession | None = None) -> None:
    session = session or GameSession.new(1)
    app = ArdennesApp(session.board.game_map, cursor=cursor, session=session)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            await body(app, pilot, session)

    asyncio.run(main())


def status(app: ArdennesApp) -> str:
    return app.screen.query_one(StatusLine).plain


def message(app: ArdennesApp) -> str:
    return app.screen.query_one(StatusLine).message


def view_of(app: ArdennesApp) -> MapView:
    return app.screen.query_one(MapView)


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


async def end_phases(pilot: Pilot[None], n: int) -> None:
    """End ``n`` phases: each ``e`` asks, the second ``e`` confirms."""
    await press(pilot, *("e" * (2 * n)))


async def select(app: ArdennesApp, pilot: Pilot[None], unit: str, hex_id: str) -> None:
    """Put the cursor on ``hex_id`` and select ``unit`` there (Esc, Enter, Tab through); with
    a unit selected, Enter on a lit hex would move it there instead."""
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    await press(pilot, "escape")
    view_of(app).cursor = hex_id
    await press(pilot, "enter")
    for _ in range(6):
        if screen.selected == unit:
            return
        await press(pilot, "tab")
    raise AssertionError(f"{unit} not selectable in {hex_id}")


@pytest.mark.rule("AO-4.2a", "AO-4.2c", "AO-4.2f", "AO-5.1E")
def test_movement_phases_end_to_end() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: GameSession) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        panel = app.screen.query_one(SidePanel)
        assert status(app).startswith(" GT1 16 Dec · Allied · Set-up · VP 0-0  4009")
        assert "e accepts it" in message(app)
        # Enter does not select in set-up; e asks, a cursor move cancels, e e accepts
        await press(pilot, "enter")
        assert screen.selected is None
        await press(pilot, "e")
        assert message(app).startswith("Press e again to accept the Allied set-up")
        await press(pilot, "h", "l")
        assert s.state.phase == "setup_allied"
        await end_phases(pilot, 2)
        assert s.summary() == "GT1 16 Dec · German · Reinforcement · VP 0-0"
        await end_phases(pilot, 2)  # Supply Judgment; Initial Movement lost: Combat
        assert "Initial Movement lost (AO-4.2c)" in message(app)
        assert s.state.phase == "combat"
        # the play screen has no attacks yet: lift the GT1 attack obligations (AO-4.2h*)
        s._states[-1] = without_gt1_obligations(s.state)
        await end_phases(pilot, 1)
        assert status(app).startswith(" GT1 16 Dec · German · Mechanized Movement · VP 0-0")
        assert message(app).startswith("15 units may move")

        # select the 12 SS panzer regiment: its reach is lit
        view.cursor = "4008"
        await pilot.pause()
        assert message(app).startswith("15 units may move")
        view.cursor = "4009"
        await pilot.pause()
        assert message(app) == "Enter selects de-12ss-a"
        await press(pilot, "enter")
        assert screen.selected == "de-12ss-a"
        moves = s.legal_moves("de-12ss-a")
        assert view.highlight == frozenset(moves) - {"4009"} and len(view.highlight) == 66
        assert ">G  12ss a arm III 6-10" in panel.text
        await press(pilot, "tab")  # a one-unit stack: Tab keeps it (and the map's focus)
        assert screen.selected == "de-12ss-a" and app.focused is view
        # the status line previews the cheapest path to the cursor hex
        await press(pilot, "h")
        assert view.cursor == "3909"
        assert message(app) == (f"de-12ss-a to 3909: {moves['3909'].cost} MP, 2 hexes. Enter moves")
        assert moves["3909"].cost == 2
        await press(pilot, "enter")
        us = s.state.unit("de-12ss-a")
        assert (us.hex, us.moved, us.mp_spent) == ("3909", True, 2)
        assert screen.selected is None and view.highlight == frozenset()
        assert "G  12ss a arm III 6-10\n    moved, 2/10 MP" in panel.text
        assert any(u.id == "de-12ss-a" for u in view.units["3909"])
        # it has moved: selecting it again says why it may not move
        await press(pilot, "enter")
        assert message(app).startswith("de-12ss-a: AO-5.1E: de-12ss-a has already moved")
        # undo puts it back (the last order of this phase only)
        await press(pilot, "backspace")
        assert s.state.unit("de-12ss-a").hex == "4009"
        assert "de-12ss-a" not in {u.id for u in view.units.get("3909", [])}
        assert message(app) == "Undone: the move of de-12ss-a (back in 4009)"
        await press(pilot, "U")
        assert message(app) == "Nothing to undo in this phase"
        assert s.state.phase == "mechanized_movement"

        # an unreachable hex: refused with the rule's reason, nothing changes
        await select(app, pilot, "de-12ss-a", "4009")
        before = state_hash(s.state)
        view.cursor = "3409"
        await pilot.pause()
        assert "3409" not in moves
        assert message(app).startswith("AO-")
        await press(pilot, "enter")
        assert message(app).startswith("AO-")
        assert state_hash(s.state) == before and s.state.unit("de-12ss-a").hex == "4009"

        # road mode in place: on a road hex it is the unit's move; elsewhere refused
        await press(pilot, "escape")
        assert screen.selected is None and view.highlight == frozenset()
        await press(pilot, "r")
        assert message(app) == "Select a unit first (Enter on it)"
        await select(app, pilot, "de-2ss-ai", "4012")
        await press(pilot, "r")
        assert message(app).startswith("AO-6.3C: de-2ss-ai must be on a road hex")
        await select(app, pilot, "de-1ss-ai", "4014")
        await press(pilot, "r")
        us = s.state.unit("de-1ss-ai")
        assert us.road_mode and us.moved and us.hex == "4014"
        assert message(app).startswith("de-1ss-ai entered Road Mode (")
        assert "road, moved" in panel.text

        # through the Allied player-turn to the German GT2 Initial Movement Phase
        await end_phases(pilot, 1)
        assert s.summary() == "GT1 16 Dec · Allied · Reinforcement · VP 0-0"
        await end_phases(pilot, 3)
        assert s.summary() == "GT1 16 Dec · Allied · Mechanized Movement · VP 0-0"
        await press(pilot, "backspace")
        assert message(app) == "Nothing to undo in this phase"
        await end_phases(pilot, 3)
        assert s.summary() == "GT2 17 Dec · German · Initial Movement · VP 0-0"
        # a foot unit moves in the Initial Movement Phase
        foot = next(
            u
            for u in s.movable_units()
            if not s.unit_def(u).mechanized and len(s.legal_moves(u)) > 3
        )
        start = s.state.unit(foot).hex
        assert start is not None
        await select(app, pilot, foot, start)
        dest, reach = sorted(s.legal_moves(foot).items())[0]
        view.cursor = dest
        await pilot.pause()
        assert f": {reach.cost} MP, " in message(app)
        await press(pilot, "enter")
        assert s.state.unit(foot).hex == dest

    drive(body)


def test_cursor_move_with_a_unit_selected_repaints_two_hexes_only(tmp_path: Path) -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: GameSession) -> None:
        await end_phases(pilot, 1)  # from the German GT1 Combat Phase (AO-4.2h* lifted)
        view = view_of(app)
        view.cursor = "3627"
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.selected == "de-130-a"
        assert len(view.highlight) == 139  # bridges across the start line interdicted (AO-13.1A)
        await pilot.pause()
        rendered: list[int] = []
        regions: list[Region] = []
        original_render_line = view.render_line
        original_refresh = view.refresh

        def spy_render_line(y: int) -> Strip:
            rendered.append(y)
            return original_render_line(y)

        def spy_refresh(*r: Region, **kw: bool) -> MapView:
            regions.extend(r)
            return original_refresh(*r, **kw)

        view.render_line = spy_render_line  # type: ignore[method-assign]
        view.refresh = spy_refresh  # type: ignore[method-assign]
        offset = view.scroll_offset
        await press(pilot, "h")
        assert view.cursor == "3527" and "3527" in view.highlight
        assert view.scroll_offset == offset
        assert [(r.width, r.height) for r in regions] == [(11, 5)]
        assert 0 < len(rendered) <= 10 and len(set(rendered)) <= 5
        assert "MP" in message(app)
        # deselecting repaints the lit hexes' rectangles only (those on screen)
        regions.clear()
        await press(pilot, "escape")
        assert view.highlight == frozenset()
        assert regions and all(r.height == 5 and r.width <= 7 for r in regions)
        # s saves the orders; --load replays them
        await press(pilot, "l", "enter", "h", "enter")
        assert s.state.unit("de-130-a").hex == "3527"
        screen.save_path = tmp_path / "game.jsonl"
        await press(pilot, "s")
        assert (
            message(app)
            == f"Saved 2 orders to {screen.save_path} (ardennes --load {screen.save_path})"
        )
        assert status(app).startswith(" Saved 2 orders")  # a long message takes both lines
        # the session started past the GT1 German attacks, so replay from its own start
        again = GameSession(s.board, s.start, decode_jsonl(screen.save_path.read_text()))
        assert state_hash(again.state) == state_hash(s.state)

    drive(body, session=GameSession(*scenario_gt1_german_combat(1)))


def test_load_refuses_a_bad_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"end_phase"}\n{"type":"move","unit":"de-12ss-a","path":["3909"]}\n')
    with pytest.raises(UserError, match=r"command 1: AO-4\.1b: units move only"):
        load_session(1, bad)
    bad.write_text("not json\n")
    with pytest.raises(UserError, match="not a log of orders"):
        load_session(1, bad)
    with pytest.raises(UserError, match="cannot read"):
        load_session(1, tmp_path / "missing.jsonl")
