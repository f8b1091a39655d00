"""The computer's turn is its own (issue 21, items 10 and 11): playing the Allies, while the
German computer decides its Ex losses the status area shows no prompt with keys (before:
"German: choose Ex losses (need 5): 1-9 toggle (panel), Enter confirms" in reverse video) and
the panel says "The computer (German) chooses its Ex losses"; ``R`` after ``--resume`` plays
back the turn the computer played before (before: "The computer has not played yet"); the
pace of its orders on the map is a setting (``<`` ``>``, the palette), kept in the store."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import settings, versus
from ardennes_tui.modes.computer import ComputerMode
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.versus_play import VersusPlayScreen
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from pbem.store import Store
from tests.kit.app import gt1_german_combat, message, press
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def run(app: ArdennesApp, body: object) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await body(app, pilot)  # type: ignore[operator]

    asyncio.run(go())


def test_the_computers_decision_is_shown_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice ``d``: the German's ten GT1 attacks resolved, his Ex losses due; the German is the
    computer, which now thinks (held for a long while)."""
    release = threading.Event()
    think = versus.think

    def held(*args: Any, **kwargs: Any) -> list[rules.ao.Command]:
        release.wait(30)  # the computer thinks until the test has looked
        return think(*args, **kwargs)

    monkeypatch.setattr(versus, "think", held)
    played = gt1_german_combat("d")
    assert not isinstance(played.push(rules.ao.ResolveAttacks()), rules.Rejection)
    game = versus.new_game(1, "allied", 3, "d")
    for cmd in played.commands:
        assert not isinstance(game.push(cmd), rules.Rejection)
    d = game.options().decision
    assert d is not None and d.kind == "losses" and d.side == "german"

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        assert isinstance(screen.mode, ComputerMode)
        status = screen.query_one(StatusLine)
        assert status.prompt == ""  # no question in reverse video: not yours
        assert "1-9" not in status.plain and "Enter confirms" not in status.plain
        panel = screen.query_one(SidePanel).source
        assert f"The computer (German)\nchooses its Ex losses (need {d.need})" in panel
        assert "German decides" not in panel
        # the keys of a decision do nothing for it
        await press(pilot, "1", "enter")
        assert game.options().decision == d
        release.set()

    run(ArdennesApp(game.board.game_map, cursor="3432", game=game), body)


def test_r_after_a_resume_plays_back_the_computers_last_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computer (Allied) played its whole GT1 player-turn before the game was closed; a
    new screen on the game (``--resume``) finds that turn for ``R``."""
    game = versus.new_game(1, "german", 3, "r")
    vs = versus.opponent_of(game)
    assert vs is not None
    from rules.ao.bots import BotRng, bots_for

    bots = bots_for(BotRng(b"r"))
    while game.state.turn == 1 or rules.ao.acting_side(game.state) != "german":
        side = rules.ao.acting_side(game.state)
        assert side is not None
        assert not isinstance(game.push(bots[side].choose(game)), rules.Rejection)
    turn = versus.last_turn(game, vs)
    assert turn is not None
    start, end = turn
    assert game.state_at(start).side == "allied" and game.state_at(start - 1).side == "german"
    assert end == len(game.history)  # its turn ended where the German's began

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "R")
        assert isinstance(app.screen, PlaybackScreen), message(app)
        assert app.screen.step == start
        await press(pilot, "right")  # its first order, in its name
        assert "The computer (Allied)" in " ".join(app.screen.step_text())

    run(ArdennesApp(game.board.game_map, cursor="4009", game=game), body)


def test_the_pace_is_a_setting_kept_in_the_store(ardennes_home: Path) -> None:
    game = versus.new_game(1, "german", 3, "p")

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        await app.workers.wait_for_complete()
        assert screen.settings == settings.Settings() and screen.seconds == 0.6
        await press(pilot, "greater_than_sign")
        assert message(app).startswith("The computer's pace: fast (an order every 0.2 s")
        await press(pilot, "greater_than_sign", "greater_than_sign")
        assert screen.seconds == 0
        assert message(app).startswith("The computer's pace: instant (its whole turn at once")
        titles = [c.title for c in screen.palette_commands()]
        assert (
            "The computer's pace: slow" in titles and "The computer's pace: instant" not in titles
        )
        await press(pilot, "less_than_sign")
        assert screen.settings.pace == "fast"

    monkey = pytest.MonkeyPatch()
    monkey.setattr(VersusPlayScreen, "PACE", None)
    try:
        run(ArdennesApp(game.board.game_map, cursor="4009", game=game), body)
    finally:
        monkey.undo()
    assert settings.load(Store(ardennes_home)).pace == "fast"
    assert settings.path(Store(ardennes_home)).is_file()


def test_after_space_the_map_shows_the_computers_last_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its orders held 30 s apart, Space skips the show: the cursor goes to the computer's last
    order that touched the map, its hexes lit and in view (before: the cursor stayed on its
    first order, an entry hex on the map's edge)."""
    from ardennes_tui.present import playback_text
    from ardennes_tui.widgets.map_view import MapView

    monkeypatch.setattr(VersusPlayScreen, "PACE", 30.0)
    game = versus.new_game(1, "allied", 3, "v")

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        await press(pilot, "e", "e")  # the Allied set-up: the computer's turn follows
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.busy and screen.queue
        start = screen.turn_from
        assert start is not None
        await press(pilot, "space")
        assert not screen.busy
        end = len(game.history)
        k = next(k for k in range(end, start, -1) if playback_text.focus_hex(game, k))
        view = screen.query_one(MapView)
        assert view.cursor == playback_text.focus_hex(game, k)
        lit = playback_text.step_hexes(game, k)
        assert screen.highlight == lit
        window = view.visible_region()
        assert window.contains_region(view.hex_region(view.cursor))
        union = Region.from_union([view.hex_region(h) for h in lit])
        if union.width < window.width - 8 and union.height < window.height - 3:
            assert all(window.contains_region(view.hex_region(h)) for h in lit)

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), body)
