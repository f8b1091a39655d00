"""The aids a VASSAL player expects (issue 21, item 15), each from a key and the command
palette: the ZOC overlay (``Z``), the turn record track with the reinforcement schedule
(``T``), the victory points and where they came from (``V``), the log's Game-Turn headers
(``tests/tui/test_effects.py``), the hex and its units while watching a playback and the
playback playing on by itself (``p``, ``<`` ``>``), a notice while a record is checked, the
phases with nothing to decide passed by themselves (``S``, a setting), Home and End in the
audit's roll table, ``q`` and the command palette on the hand-over screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves, settings
from ardennes_tui.present import aids, audit_view, playback_text
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.handover import HandoverScreen
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.start_dialogs import TextDialog
from ardennes_tui.widgets.text_box import TextBox
from scenarios import load_map
from tests.kit.app import run
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import packets_file, record_file, record_game

pytestmark = needs_real_map


async def keys(pilot: Pilot[None], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()


def titles(app: ArdennesApp) -> list[str]:
    get = getattr(app.screen, "palette_commands", None)
    return [c.title for c in get()] if get is not None else []


def played() -> rules.ao.Game:
    """The bots' record of scenario 1 to GT3 (eliminations, VP tabulated, arrivals)."""
    return record_game(2)


def test_the_zoc_overlay_lights_each_side_then_goes_off() -> None:
    game = played()

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "ZOC overlay: next side, or off" in titles(app)
        acting = game.options().acting
        assert acting is not None
        await keys(pilot, "Z")
        enemy = aids.zoc_hexes(game, rules.ao.other_side(acting))
        assert screen.highlight == enemy and len(enemy) > 20
        assert f"ZOC overlay: the {len(enemy)} hexes the" in screen.message
        await keys(pilot, "Z")
        assert screen.highlight == aids.zoc_hexes(game, acting)
        await keys(pilot, "Z")
        assert screen.zoc_side is None and screen.highlight == screen.mode.highlight()

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), body)


def test_the_turn_track_and_the_victory_points() -> None:
    game = played()
    shown: dict[str, str] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert "Turn record and reinforcements" in titles(app)
        assert "Victory points and where they came from" in titles(app)
        await keys(pilot, "T")
        assert isinstance(app.screen, TextDialog)
        shown["T"] = app.screen.text
        await keys(pilot, "escape", "V")
        assert isinstance(app.screen, TextDialog)
        shown["V"] = app.screen.text

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), body)
    track = shown["T"].splitlines()
    assert track[0].startswith("Turn record: 18 Game-Turns, now GT3 18 Dec")
    assert any(line.startswith(" GT1 16 Dec  VP German ") for line in track)
    assert "  German: de-1-a (east, in)" in track
    assert ">GT3 18 Dec" in track
    assert any(line.startswith("  Allied: us-117-i (NE)") for line in track)
    vp = shown["V"]
    assert vp.startswith(f"Victory points: German {game.state.vp.german}, Allied ")
    assert "German: 7 for enemy units eliminated (AO-16.A)" in vp and "us-110-i" in vp
    assert "German: 0 for the road exits held (AO-16.B-H)" in vp


def test_phases_with_nothing_to_decide_pass_by_themselves(ardennes_home: Path) -> None:
    """``S`` on: the German GT1 Reinforcement Phase placed, ``e`` ``e``: the Supply Judgment
    Phase passes by itself (GT1 Initial Movement is lost, AO-4.2c): the Combat Phase is next,
    and the setting is kept."""
    game = saves.new_game(1, "skip")
    assert not isinstance(game.push(rules.ao.EndPhase()), rules.Rejection)  # Allied set-up
    assert not isinstance(game.push(rules.ao.EndPhase()), rules.Rejection)  # German set-up
    assert game.state.phase == "reinforcement" and game.state.side == "german"

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "Pass phases with nothing to decide: on" in titles(app)
        await keys(pilot, "S")
        assert screen.settings.skip_empty
        await keys(pilot, "full_stop", "enter", "e", "e")
        await pilot.pause()
        assert game.state.phase == "combat", game.state.phase
        assert "German Supply Judgment Phase passed: nothing to decide" in screen.message

    run(ArdennesApp(game.board.game_map, cursor="4229", game=game), body)
    assert settings.load().skip_empty is True


def test_home_and_end_in_the_audits_roll_table(tmp_path: Path) -> None:
    v = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
    assert len(v.rolls) > 3

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        table = screen.query_one(DataTable)
        await keys(pilot, "end")
        assert table.cursor_row == len(v.rolls) - 1
        detail = str(screen.query_one("#au-detail", Static).content)
        assert f"Die {v.rolls[-1].index} = " in detail
        await keys(pilot, "home")
        assert table.cursor_row == 0

    run(ArdennesApp(load_map(), screen=lambda: AuditScreen(v)), body)


def test_q_and_the_palette_on_the_hand_over_screen() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, HandoverScreen)
        assert titles(app) == [
            "Hand over: show the map to the German player",
            "Quit (the game is in the store)",
        ]
        await keys(pilot, "q")
        assert app.return_code is not None or not app.is_running

    app = ArdennesApp(load_map(), screen=lambda: HandoverScreen("German", "GT1 16 Dec"))
    run(app, body)


def test_the_playback_shows_the_hex_and_plays_on_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ardennes_tui.screens.playback.MIN_AUTOPLAY", 0.01)
    settings.save(settings.Settings(pace="instant"))
    game = record_game()
    k = next(
        k
        for k, step in enumerate(game.history, start=1)
        if any(isinstance(e, rules.ao.CombatResolved) for e in step.events)
    )

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlaybackScreen)
        hexinfo = screen.query_one("#pb-hex", TextBox).source
        assert f"Hex {playback_text_focus(game, k)}" in hexinfo
        # the cursor on a hex with units: they are listed, as they stand at the step
        from ardennes_tui.widgets.map_view import MapView

        stacked = sorted(playback_text.units_at(game, k))[0]
        screen.query_one(MapView).cursor = stacked
        await pilot.pause()
        hexinfo = screen.query_one("#pb-hex", TextBox).source
        assert f"Hex {stacked}" in hexinfo and "Units (" in hexinfo
        await keys(pilot, "p")
        for _ in range(200):
            await asyncio.sleep(0.02)
            if screen.step == screen.last:
                break
        assert screen.step == screen.last  # played on to the end, then stopped
        await asyncio.sleep(0.1)
        await pilot.pause()
        assert screen._auto is None

    run(ArdennesApp(game.board.game_map, screen=lambda: PlaybackScreen(game, start=k)), body)


def playback_text_focus(game: rules.ao.Game, k: int) -> str:
    focus = playback_text.focus_hex(game, k)
    assert focus is not None
    return focus


def test_a_notice_while_the_start_screen_checks_a_record(tmp_path: Path) -> None:
    """``w`` on the start screen: the record is checked in the background under a notice,
    then played back (before: the screen froze, blank, for seconds on a long record)."""
    from ardennes_tui.screens import loading
    from ardennes_tui.screens.start import StartScreen

    path = record_file(tmp_path)
    seen: list[Any] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        screen.open_playback(str(path))
        seen.append(type(app.screen))
        await app.workers.wait_for_complete()
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, PlaybackScreen):
                break
        seen.append(type(app.screen))

    run(ArdennesApp(load_map(), screen=StartScreen), body)
    assert seen == [loading.LoadingScreen, PlaybackScreen]
