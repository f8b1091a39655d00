"""Playback (``ardennes_tui.screens.playback``, ``ardennes_tui.present.playback_text``): a game
shown step by step on the map, forwards and backwards, each step's hexes lit and its story told
(every order and decision, every die with the CRT cell it read); ``ardennes --watch FILE|GAME``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.present import playback_text
from ardennes_tui.present.wrap import fit_words
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.text_box import TextBox
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import packets_file, record_file, record_game

pytestmark = needs_real_map


def first(game: rules.ao.Game, kind: type, after: int = 0) -> int:
    """The first step (1-based) after ``after`` whose command is a ``kind``."""
    for k, step in enumerate(game.history[after:], start=after + 1):
        if isinstance(step.command, kind):
            return k
    raise AssertionError(f"no {kind.__name__}")


def first_event(game: rules.ao.Game, kind: type) -> int:
    for k, step in enumerate(game.history, start=1):
        if any(isinstance(e, kind) for e in step.events):
            return k
    raise AssertionError(f"no {kind.__name__}")


# -- the words and hexes of a step -----------------------------------------------------------------


def test_a_move_lights_its_path_and_says_its_cost() -> None:
    game = record_game()
    k = first(game, rules.ao.Move)
    moved = next(e for e in game.history[k - 1].events if isinstance(e, rules.ao.UnitMoved))
    hexes = {h for h in (moved.start, *moved.path, moved.end) if h in game.board.game_map}
    assert len(hexes) > 1
    assert playback_text.step_hexes(game, k) >= hexes
    assert playback_text.focus_hex(game, k) == moved.end
    line = playback_text.step_lines(game, k)[0]
    assert line.startswith(f"German: {moved.unit} moves {moved.start}-")
    assert f"({moved.cost} MP" in line


def test_a_resolution_names_each_die_its_crt_cell_and_result() -> None:
    game = record_game()
    k = first_event(game, rules.ao.CombatResolved)
    events = game.history[k - 1].events
    fights = [e for e in events if isinstance(e, rules.ao.CombatResolved)]
    lines = playback_text.step_lines(game, k)
    text = "\n".join(lines)
    for e in fights:
        table = e.table.capitalize()
        assert f"Die {e.die}: {table} CRT, column {e.column}, row {e.die} -> {e.result}" in text
    before = game.state_at(k - 1)
    lit = playback_text.step_hexes(game, k)
    for e in fights:
        for unit in (*e.attackers, *e.defenders):
            assert before.unit(unit).hex in lit
    assert playback_text.focus_hex(game, k) == before.unit(fights[0].defenders[0]).hex
    e = fights[0]
    head = playback_text.headline(game, k)
    assert head.startswith("German: ")
    assert f"at {e.column} on the {e.table.capitalize()} CRT: die {e.die} -> {e.result}" in head


def test_a_decision_says_who_decided_and_a_retreat_lights_its_path() -> None:
    game = record_game()
    k = first_event(game, rules.ao.UnitRetreated)
    retreat = next(e for e in game.history[k - 1].events if isinstance(e, rules.ao.UnitRetreated))
    assert playback_text.step_hexes(game, k) >= {retreat.start, *retreat.path}
    decided = [
        k
        for k, s in enumerate(game.history, start=1)
        if isinstance(s.command, rules.ao.ChooseRetreat | rules.ao.Advance | rules.ao.WaiveImmunity)
    ]
    assert decided, "a GT1 of bots decides something"
    assert " decides: " in playback_text.step_lines(game, decided[0])[0]


def test_units_at_each_step_are_the_state_of_that_step() -> None:
    game = record_game()
    k = first(game, rules.ao.Move)
    moved = game.history[k - 1].command
    assert isinstance(moved, rules.ao.Move)
    where = {h: [d.id for d in stack] for h, stack in playback_text.units_at(game, k).items()}
    assert moved.unit in where[game.state_at(k).unit(moved.unit).hex or ""]
    before = {h: [d.id for d in s] for h, s in playback_text.units_at(game, k - 1).items()}
    assert moved.unit in before[game.state_at(k - 1).unit(moved.unit).hex or ""]
    assert where != before


def test_phase_marks_are_the_steps_where_a_phase_began() -> None:
    game = record_game()
    marks = playback_text.turn_starts(game)
    assert marks[0] == 1  # the Allied set-up's end begins the German set-up
    for k in marks:
        assert any(isinstance(e, rules.ao.PhaseBegan) for e in game.history[k - 1].events)


# -- the screen ----------------------------------------------------------------------------------


def run(screen: PlaybackScreen, body, size: tuple[int, int] = (80, 24)) -> None:
    app = ArdennesApp(screen.game.board.game_map, screen=lambda: screen)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


def shown(pilot: Pilot[None]) -> tuple[int, str, dict[str, list[str]], frozenset[str]]:
    screen = pilot.app.screen
    assert isinstance(screen, PlaybackScreen)
    view = screen.query_one(MapView)
    units = {h: [d.id for d in s] for h, s in (view.units or {}).items()}
    panel = screen.query_one("#pb-text", TextBox).source
    return screen.step, panel, units, view.highlight


def test_forwards_each_step_shows_its_state_hash_units_and_lit_hexes() -> None:
    game = record_game()
    screen = PlaybackScreen(game)

    async def body(pilot: Pilot[None]) -> None:
        k, panel, _, lit = shown(pilot)
        assert (k, lit) == (0, frozenset())
        assert f"state {rules.ao.state_hash(game.start)[:16]}" in panel
        for want in range(1, 13):
            await pilot.press("right")
            k, panel, units, lit = shown(pilot)
            assert k == want
            assert f"Step {want} of {len(game.history)}" in panel
            assert f"state {game.history[want - 1].hash[:16]}" in panel
            assert screen.shown_hash == game.history[want - 1].hash
            assert rules.ao.state_hash(screen.shown_state) == game.history[want - 1].hash
            expect = {h: [d.id for d in s] for h, s in playback_text.units_at(game, want).items()}
            assert units == expect
            assert lit == playback_text.step_hexes(game, want)
            status = str(screen.query_one("#pb-status", Static).content)
            # the headline whole when it fits in 80 columns, else its first words and " ..."
            assert status.splitlines()[1] == fit_words(f" {playback_text.headline(game, want)}", 80)
            focus = playback_text.focus_hex(game, want)
            if focus is not None:
                assert screen.query_one(MapView).cursor == focus

    run(screen, body)


def test_backwards_returns_to_the_exact_earlier_state() -> None:
    game = record_game()
    k = first_event(game, rules.ao.CombatResolved)
    screen = PlaybackScreen(game, start=k - 1)

    async def body(pilot: Pilot[None]) -> None:
        before = shown(pilot)
        await pilot.press("right", "right", "space")
        assert shown(pilot)[0] == k + 2
        assert shown(pilot)[2] != before[2]  # the combat moved or removed units
        await pilot.press("left", "backspace", "comma")
        assert shown(pilot) == before
        assert screen.shown_hash == game.history[k - 2].hash

    run(screen, body)


def test_home_end_phase_jumps_and_the_ends_of_the_game() -> None:
    game = record_game()
    last = len(game.history)
    marks = playback_text.turn_starts(game)
    screen = PlaybackScreen(game, start=5)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("end")
        assert screen.step == last
        assert screen.shown_hash == game.state_hash()
        await pilot.press("right")
        assert screen.step == last  # nothing after the last step
        await pilot.press("home")
        assert screen.step == 0
        await pilot.press("left")
        assert screen.step == 0
        await pilot.press("right_square_bracket")
        assert screen.step == marks[0]
        await pilot.press("right_square_bracket")
        assert screen.step == marks[1]
        await pilot.press("left_square_bracket")
        assert screen.step == marks[0]
        await pilot.press("pagedown")
        assert screen.step == marks[0] + 10
        await pilot.press("pageup")
        assert screen.step == marks[0]

    run(screen, body)


def test_the_new_steps_after_an_import_are_marked() -> None:
    game = record_game()
    screen = PlaybackScreen(game, start=20, since=20, title="Game x")

    async def body(pilot: Pilot[None]) -> None:
        assert "(new:" not in shown(pilot)[1]
        await pilot.press("right")
        assert f"(new: 1 of {len(game.history) - 20})" in shown(pilot)[1]

    run(screen, body)


def test_escape_closes_a_pushed_playback_and_q_quits_a_lone_one() -> None:
    game = record_game()
    screen = PlaybackScreen(game, alone=True)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert "next step" in str(pilot.app.screen.query_one("#text-body", Static).content)
        await pilot.press("escape")
        assert pilot.app.screen is screen
        assert pilot.app.return_code is None
        await pilot.press("q")
        assert pilot.app.return_code == 0  # the app exits: nothing under a lone playback

    run(screen, body)


# -- ardennes --watch ------------------------------------------------------------------------------


def watch_app(monkeypatch: pytest.MonkeyPatch, body) -> list[str]:
    ran: list[str] = []

    def fake_run(app: ArdennesApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await body(pilot)
                ran.append("ok")

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", fake_run)
    return ran


def test_watch_a_self_play_record_from_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = record_file(tmp_path)
    game = record_game()

    async def body(pilot: Pilot[None]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PlaybackScreen) and screen.alone
        assert screen.step == 0 and screen.last == len(game.history)
        assert "Record selfplay.jsonl" in screen.title_text
        await pilot.press("end")
        assert screen.shown_hash == game.state_hash()

    ran = watch_app(monkeypatch, body)
    assert main(["--watch", str(path)]) == 0
    assert ran == ["ok"]


def test_watch_a_file_of_packets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = packets_file(tmp_path)

    async def body(pilot: Pilot[None]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PlaybackScreen)
        assert screen.title_text.startswith("Game ") and "sealed dice" in screen.title_text
        assert screen.last > 20

    ran = watch_app(monkeypatch, body)
    assert main(["--watch", str(path)]) == 0
    assert ran == ["ok"]


def test_watch_an_edited_record_plays_what_verified_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = record_file(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[10] = re.sub(rb'"hash":"[0-9a-f]{64}"', b'"hash":"' + b"0" * 64 + b'"', lines[10])
    path.write_bytes(b"".join(lines))

    async def body(pilot: Pilot[None]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PlaybackScreen)
        assert "FAILED" in screen.title_text and "diverges" in screen.title_text
        assert screen.last == 9  # the commands before the edited line

    ran = watch_app(monkeypatch, body)
    assert main(["--watch", str(path)]) == 0
    assert ran == ["ok"]


def test_watch_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--watch", str(tmp_path / "nothing.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["--watch", "x.jsonl", "--scenario", "3"]) == 2
    assert "do not go with --watch" in capsys.readouterr().err
