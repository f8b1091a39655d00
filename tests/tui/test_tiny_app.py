"""Tiny plays in the app (issue 23, phase 2): the app's shell knows no ruleset, so a ruleset
of the tests (:mod:`tests.kit.tiny`, its UI kit :mod:`tests.kit.tiny_ui`) plays in it as the AO
does: a hot-seat game from the app's entry point (``ArdennesApp(game=...)``, as ``play``
makes it), driven by keys under Pilot to its verdict; the map (the shell's map widget, drawn by
Tiny's kit) and the side panel as the screen shows them; the shell's hand-over, help frame and
command palette on Tiny's pages and commands, a side's hidden morale never shown to
the other (TINY-2, :meth:`rules.ruleset.Ruleset.public_view`); the record written and loaded
again (:mod:`ardennes_tui.games.saves`); the game kept in the store after every command, read
by the store's list and the start screen and resumed (:mod:`ardennes_tui.games.hotseat`); the
shell's playback and audit screens on it.

The game, worked out by hand (TINY-1..5): Red picks morale 3, Blue 1; turn 1 Red moves
0101-0201, Blue 0401-0301 (now next to each other); turn 2 Red strikes blue-1. The die is the
first draw of the seed ``tiny-3``: a 3 (``rules.dice``, index 0). 3 + Red's 3 = 6 >= 4 + Blue's
1 = 5: blue-1 is eliminated and Red wins (TINY-4, TINY-5), both morales revealed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable

import rules
from ardennes_tui import kits
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import hotseat, saves
from ardennes_tui.present import audit_view, game_list
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.handover import HandoverScreen
from ardennes_tui.screens.help import HelpScreen
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.start import StartScreen
from ardennes_tui.widgets.map_view import MapView
from pbem import sources
from pbem.core import verify as checking
from pbem.store import Store
from tests.kit import tiny
from tests.kit.tiny_screen import TinyPlayScreen
from tests.kit.tiny_ui import TINY_KIT

SEED = "tiny-3"


def on_top(app: ArdennesApp, screen: Screen[Any]) -> bool:
    """``screen`` is the app's top screen (a function: mypy would narrow ``app.screen`` and
    keep it narrowed across the keys that change it)."""
    return app.screen is screen


def lines(app: ArdennesApp) -> list[str]:
    """The terminal's lines as the app draws them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown(app: ArdennesApp) -> str:
    return "\n".join(lines(app))


@pytest.fixture(autouse=True)
def tiny_kit() -> Iterator[None]:
    """Tiny's UI kit registered for each test of this module, and for it only."""
    with kits.registered(TINY_KIT):
        yield


def test_the_kit_is_registered_and_the_app_finds_it_by_the_games_ruleset() -> None:
    assert kits.get("tiny") is TINY_KIT
    assert kits.ids() == ("ao", "tiny")
    game = saves.new_game(1, SEED, ruleset="tiny")
    assert isinstance(game, tiny.Game)
    assert game.players == {"red": rules.Player(), "blue": rules.Player()}  # hot seat
    assert ArdennesApp(game.board, game=game).title == "Tiny"


def test_a_whole_tiny_game_by_keys_with_its_record_playback_and_audit(tmp_path: Path) -> None:
    game = saves.new_game(1, SEED, ruleset="tiny")
    record = tmp_path / "tiny.jsonl"
    stored = hotseat.StoredGame.new()
    app = ArdennesApp(game.board, cursor="0101", game=game, save_path=record, stored=stored)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TinyPlayScreen)
            view = screen.query_one(MapView)
            text = shown(app)
            # The map as drawn: eight boxes, the units' ids in 0101 and 0401, the numbers.
            assert "| red-1 |" in text and "|blue-1 |" in text
            assert "         01        02        03        04" in lines(app)[1]
            assert "Turn 1, Red setup" in text and "Seen by: Red" in text
            assert "m: morale 1-3, Enter: pick it" in text

            # TINY-2: Red picks 3 (m twice: 1 -> 2 -> 3); Blue sees no value of it.
            await press(pilot, "m", "m")
            assert "Morale to pick: 3" in shown(app)
            await press(pilot, "enter")
            text = shown(app)
            assert "Red picked a morale" in text
            assert "Seen by: Blue" in text
            assert "Red morale: ?" in text and "Blue morale: ?" in text
            await press(pilot, "enter")  # Blue picks 1
            text = shown(app)
            assert "Turn 1, Red play" in text and "Seen by: Red" in text
            assert "Red morale: 3" in text and "Blue morale: ?" in text
            assert game.state.morale == (3, 1)

            # TINY-3: Red 0101-0201 (the cursor one hex east, Enter), ends its turn.
            await press(pilot, "l")
            assert view.cursor == "0201"
            await press(pilot, "enter")
            assert "red-1 0101-0201" in shown(app)
            assert "| red-1 |" in lines(app)[3]  # row 1's middle line: now in 0201
            await press(pilot, "e")
            text = shown(app)
            assert "Turn 1, Blue play" in text and "Seen by: Blue" in text
            assert "Blue morale: 1" in text and "Red morale: ?" in text
            # Blue 0401-0301 (the cursor from 0201 two hexes east, then back one).
            await press(pilot, "l", "l", "h")
            assert view.cursor == "0301"
            await press(pilot, "enter", "e")
            text = shown(app)
            assert "Turn 2, Red play" in text and "Blue morale: ?" in text
            # The store's list reads the hot-seat game through Tiny's kit: turn 2, play.
            row = next(r for r in game_list.rows(Store()) if r["id"] == stored.name)
            assert (row["kind"], row["scenario"], row["to_move"]) == ("hot-seat", 1, "GT2 play")

            # TINY-4: Red strikes; the die (3) eliminates blue-1 and reveals both morales.
            await press(pilot, "s")
            assert "red-1 strikes blue-1" in shown(app)
            assert "r: roll the strike's die" in shown(app)
            await press(pilot, "e")  # the turn may not end while the strike waits
            assert "TINY-4: the strike waits for its die (roll)" in shown(app)
            await press(pilot, "r")
            text = shown(app)
            assert "die 3" in text and "blue-1 eliminated" in text
            assert "Game over: Red wins" in text  # the panel wraps it: "(elimination)" next
            assert screen.panel().splitlines()[0] == "Game over: Red wins (elimination)"
            assert "Red morale: 3" in text and "Blue morale: 1" in text
            assert "blue-1: eliminated" in text and "|blue-1 |" not in text
            verdict = game.state.result
            assert verdict is not None and (verdict.winner, verdict.kind) == ("red", "elimination")
            assert len(game.history) == 8

            # The record, written by w.
            await press(pilot, "w")
            assert "Written to tiny.jsonl" in shown(app)

            # The shell's playback on Tiny's words: the last step is the roll.
            await press(pilot, "R")
            pb = app.screen
            assert isinstance(pb, PlaybackScreen)
            await press(pilot, "end")
            assert pb.step == 8
            body = pb.step_text()
            assert body[:3] == ["Tiny", "Step 8 of 8", "Game over: Red wins (elimination)"]
            assert body[-6:] == [
                "roll",
                "die 3",
                "Red morale 3",
                "Blue morale 1",
                "blue-1 eliminated",
                "blue-1 eliminated (TINY-4, TINY-5)",
            ]
            await press(pilot, "home")
            assert "|blue-1 |" in shown(app)  # step 0: both units back at the start
            await press(pilot, "escape")
            assert on_top(app, screen)

    asyncio.run(main())

    # In the store, over; resumed as --resume does, and listed on the start screen.
    row = next(r for r in game_list.rows(Store()) if r["id"] == stored.name)
    assert row["to_move"] == "over"
    resumed, _, again = hotseat.resume(stored.name[:8])
    assert isinstance(resumed, tiny.Game) and resumed.state == game.state
    assert again.name == stored.name
    start = ArdennesApp(None, screen=lambda: StartScreen(Store()))

    async def start_main() -> None:
        async with start.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert f"| {stored.short}  hot-seat  1   over " in shown(start)

    asyncio.run(start_main())

    # Loaded again: the same game, replayed and checked.
    loaded, info = saves.load_game(record)
    assert isinstance(loaded, tiny.Game)
    assert loaded.state == game.state and loaded.commands == game.commands
    assert info.opening(loaded) == f"Dice seed {SEED}."
    # The audit screen on the record: one die, Red's, in Tiny's words.
    verified = checking.verify(sources.load_source(str(record), Store()), lambda n: tiny.Board())
    assert verified.ok
    audit = audit_view.view(verified)
    assert audit.ruleset == "tiny" and audit.kit is TINY_KIT
    assert [s.who for s in audit.stats] == ["blue", "red", "all"]
    assert [s.n for s in audit.stats] == [0, 1, 1]
    app2 = ArdennesApp(None, screen=lambda: AuditScreen(audit, alone=True), ruleset="tiny")

    async def audit_main() -> None:
        async with app2.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app2.screen, AuditScreen)
            table: DataTable[str] = app2.screen.query_one(DataTable)
            assert [str(c) for c in table.get_row_at(0)] == [
                "-",
                "2",
                "R play",
                "strike:0301",
                "3",
                "blue-1 eliminated",
                "record",
            ]
            assert "Red: 1 roll" in shown(app2)
            await press(pilot, "enter")  # played back at the roll: step 8, the 8th command
            assert isinstance(app2.screen, PlaybackScreen) and app2.screen.step == 8

    asyncio.run(audit_main())


def test_the_shells_hand_over_help_frame_and_palette_serve_tiny() -> None:
    """Hot seat (``handover``, as ``play`` runs it): after Red's pick the shell's hand-over
    screen hides the map and Red's panel until Blue presses Enter; ``?`` opens the shell's help
    frame on Tiny's two pages (at the rules during set-up); Ctrl+P offers Tiny's commands valid
    now and runs the one typed."""
    game = saves.new_game(1, SEED, ruleset="tiny")
    app = ArdennesApp(game.board, cursor="0101", game=game, handover=True)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            play = app.screen
            assert isinstance(play, TinyPlayScreen)
            await press(pilot, "question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = shown(app)
            assert "Help   1 Rules  2 Keys" in text
            assert "1-2 sections, Up/Down/PgUp/PgDn scroll, Escape q ? close" in text
            assert app.screen.section == "rules"
            assert "TINY-2 Morale (hidden)" in text
            await press(pilot, "escape")
            assert on_top(app, play)

            assert [c.title for c in play.palette_commands()] == [
                "Pick morale 1",
                "The next morale to pick",
                "Write the record",
                "Play the game back",
                "Help: the rules and the keys",
                "Quit",
            ]
            await press(pilot, "ctrl+p")
            assert isinstance(app.screen, CommandPalette)
            for ch in "next morale":
                await pilot.press("space" if ch == " " else ch)
            for _ in range(5):
                await pilot.pause(0.05)
            await press(pilot, "enter")
            for _ in range(3):
                await pilot.pause()
            assert on_top(app, play) and play.morale == 2
            assert "Morale to pick: 2" in shown(app)

            await press(pilot, "enter")  # Red picks 2: the hand-over
            hand = app.screen
            assert isinstance(hand, HandoverScreen)
            text = shown(app)
            assert "Blue player's turn: hand over, press Enter" in text
            assert "Turn 1, Blue setup" in text
            assert "morale" not in text and "red-1" not in text  # nothing of Red's screen
            await press(pilot, "enter")
            assert on_top(app, play)
            text = shown(app)
            assert "Seen by: Blue" in text and "Red morale: ?" in text
            await press(pilot, "e")
            assert "TINY-2: both sides pick their morale first" in shown(app)
            assert game.state.morale == (2, 0)

    asyncio.run(main())


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()
