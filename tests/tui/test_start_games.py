"""The start screen offers a new hot-seat game of every ruleset the app plays (issue 23): with
more than one UI kit registered (:mod:`ardennes_tui.kits`), ``n`` asks which game first
(:class:`ardennes_tui.screens.start_dialogs.GameDialog`), then that ruleset's scenarios; the
:class:`Launch` it ends with names the ruleset, and the command line
(:func:`ardennes_tui.cli.start.play`) starts a game of it. With the AO's kit alone (the program
today) ``n`` goes straight to the AO's scenarios. Tiny's kit (:mod:`tests.kit.tiny_ui`) is
registered by a fixture for the tests that need it and taken away after them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from ardennes_tui import kits
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import start as start_cli
from ardennes_tui.errors import UserError
from ardennes_tui.games import saves
from ardennes_tui.screens.start import Launch, StartScreen
from ardennes_tui.screens.start_dialogs import GameDialog, ScenarioDialog
from pbem.store import Store
from scenarios import load_map
from tests.kit import tiny
from tests.kit.realmap import needs_real_map
from tests.kit.tiny_screen import TinyPlayScreen
from tests.kit.tiny_ui import TINY_KIT

pytestmark = needs_real_map

Body = Callable[[Pilot[None], StartScreen], Awaitable[None]]


@pytest.fixture
def tiny_kit() -> Iterator[None]:
    """Tiny's UI kit registered for the test, and for it only."""
    with kits.registered(TINY_KIT):
        yield


@pytest.fixture(autouse=True)
def made(monkeypatch: pytest.MonkeyPatch) -> list[ArdennesApp]:
    """The apps the command line would run on the terminal, kept instead (the tests run them
    under Pilot): a wrong path fails here and never hangs on a terminal app."""
    apps: list[ArdennesApp] = []
    monkeypatch.setattr(ArdennesApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def run(body: Body) -> StartScreen:
    screen = StartScreen(Store())
    app = ArdennesApp(load_map(), screen=lambda: screen)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await body(pilot, screen)

    asyncio.run(go())
    return screen


def options(pilot: Pilot[None]) -> list[str]:
    listed = pilot.app.screen.query_one(OptionList)
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


def test_the_ao_alone_n_goes_straight_to_its_scenarios() -> None:
    assert kits.ids() == ("ao",)  # no kit of another test leaked here

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, ScenarioDialog)
        assert dialog.title_text == "New hot-seat game: which scenario?"
        assert len(options(pilot)) == 10  # the AO's scenarios 1-10
        await pilot.press("enter")
        assert screen.chosen == Launch("new", scenario=1, ruleset="ao")

    run(body)


@pytest.mark.usefixtures("tiny_kit")
def test_two_kits_n_asks_which_game_then_tinys_scenario() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, GameDialog)
        assert options(pilot) == ["The Ardennes Offensive", "Tiny"]  # kits.ids() order
        await pilot.press("down", "enter")
        scenario = pilot.app.screen
        assert isinstance(scenario, ScenarioDialog)
        assert scenario.title_text == "New hot-seat game of Tiny: which scenario?"
        assert options(pilot) == [" 1  Tiny"]
        about = str(scenario.query_one("#scenario-about", Static).content)
        assert about == "Eight hexes, one unit a side, one die a turn."
        await pilot.press("enter")
        assert screen.chosen == Launch("new", scenario=1, ruleset="tiny")

    run(body)


@pytest.mark.usefixtures("tiny_kit")
def test_two_kits_escape_cancels_and_the_ao_is_still_offered() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("n", "escape")
        assert pilot.app.screen is screen and screen.chosen is None
        await pilot.press("n", "enter")  # the first game: the AO
        dialog = pilot.app.screen
        assert isinstance(dialog, ScenarioDialog)
        assert dialog.title_text == "New hot-seat game of The Ardennes Offensive: which scenario?"
        await pilot.press("escape")  # the scenario's Escape: back to the start screen
        assert pilot.app.screen is screen and screen.chosen is None
        await pilot.press("n", "enter", "3")
        assert screen.chosen == Launch("new", scenario=3, ruleset="ao")

    run(body)


@pytest.mark.usefixtures("tiny_kit")
def test_the_launch_of_tiny_plays_a_tiny_game(made: list[ArdennesApp]) -> None:
    """The command line's path of the launch (``cli.start.play`` -> ``cli.play.run_app`` ->
    ``app.play``, the game kept in the store) builds a Tiny game; the app it would run is run
    here under Pilot instead of on the terminal, and shows Tiny's play screen."""
    assert start_cli.play(Launch("new", scenario=1, ruleset="tiny")) == 0
    (app,) = made
    game: Any = app.game
    assert isinstance(game, tiny.Game) and game.ruleset.id == "tiny"
    seed = game.dice_spec.text
    assert isinstance(seed, str) and seed
    same = saves.new_game(1, seed, "tiny")
    assert game.state_hash() == same.state_hash()
    assert game.dice_spec == same.dice_spec
    assert game.state_hash() != saves.new_game(1, seed).state_hash()  # not the AO's

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TinyPlayScreen)
            text = "\n".join(s.text for s in app.screen._compositor.render_strips())
            assert "Turn 1, Red setup" in text and "| red-1 |" in text

    asyncio.run(go())


@pytest.mark.usefixtures("tiny_kit")
def test_a_scenario_tinys_kit_does_not_offer_is_one_line(made: list[ArdennesApp]) -> None:
    with pytest.raises(UserError) as caught:
        start_cli.play(Launch("new", scenario=2, ruleset="tiny"))
    assert str(caught.value) == "no scenario 2 of tiny: choose 1"
    assert caught.value.code == 2 and made == []


def test_the_registered_kit_is_gone_after_the_block() -> None:
    assert "tiny" not in kits.ids()
    with kits.registered(TINY_KIT) as kit:
        assert kit is TINY_KIT and kits.ids() == ("ao", "tiny")
    assert kits.ids() == ("ao",)
    with pytest.raises(UserError):
        kits.get("tiny")
