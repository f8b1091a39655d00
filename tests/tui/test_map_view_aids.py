"""Finding your way on the map (issue 21, item 12): hex numbers in the margins of the detailed
view wherever it is scrolled (``#`` toggles them, kept in the settings; before, the numbers
were only on the picture's own margin, out of sight), and a view that keeps the action in
sight: a decision's retreat paths, the targets of the unit ``.`` goes to, the hexes of the
step played back; the end of a phase no longer sends the cursor to a far hex (a dormant unit
reactivated on the map's edge)."""

from __future__ import annotations

import re
from itertools import pairwise

import msgspec
import pytest
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves, settings
from ardennes_tui.present import playback_text
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.widgets.map_view import MapView
from tests.kit.app import gt1_german_combat, run, until
from tests.kit.engine import end_phase
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import record_game

pytestmark = needs_real_map


def lines(app: ArdennesApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def in_view(view: MapView, hexes: frozenset[str]) -> bool:
    window = view.visible_region()
    return all(window.contains_region(view.hex_region(h)) for h in hexes)


def test_hex_numbers_in_the_margins_wherever_the_view_is() -> None:
    game = saves.new_game(1, "numbers")
    seen: dict[str, list[str]] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = app.screen.query_one(MapView)
        assert view.scroll_offset.x > 3 and view.scroll_offset.y > 1  # the margins out of view
        seen["on"] = lines(app)
        await pilot.press("number_sign")
        await pilot.pause()
        seen["off"] = lines(app)
        assert app.screen.message.startswith("No hex numbers in the margins")  # type: ignore[attr-defined]

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), body)
    top = seen["on"][0][:50]
    columns = [int(n) for n in re.findall(r"\b(\d\d)\b", top)]
    assert len(columns) >= 6 and columns == list(range(columns[0], columns[0] + len(columns)))
    rows = [int(m.group(1)) for line in seen["on"][1:20] if (m := re.match(r"(\d\d) ", line))]
    assert len(rows) >= 5 and rows == list(range(rows[0], rows[0] + len(rows)))
    assert not re.findall(r"\b\d\d\b", seen["off"][0][:50])
    assert not any(re.match(r"\d\d ", line) for line in seen["off"][1:20])
    assert settings.load().hex_numbers is False  # kept for the next game

    async def again(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert app.screen.query_one(MapView).numbers is False

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), again)


def test_the_retreat_paths_of_a_decision_are_in_view() -> None:
    game = gt1_german_combat("l")  # a retreat for the victor to pick (three paths)
    assert not isinstance(game.push(rules.ao.ResolveAttacks()), rules.Rejection)
    until(game, "retreat")

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = screen.map_view
        assert screen.highlight and in_view(view, screen.highlight), screen.highlight

    run(ArdennesApp(game.board.game_map, cursor="4009", game=game), body)


@pytest.mark.parametrize("start", ["2328", "4009"])
def test_the_targets_of_the_unit_full_stop_goes_to_are_in_view(start: str) -> None:
    """German GT1 Combat Phase: ``.`` twelve times, then ``,`` twelve times; each time the
    unit reached and the enemy hexes it may attack are in view (before: from 4009, de-295-i
    on 3818 with its target 3817 out of view; from 2328 back, de-15-pt's 3432)."""
    game = saves.new_game(1, "d")
    while not (game.state.side == "german" and game.state.phase == "combat"):
        end_phase(game)
    bad: list[tuple[str, frozenset[str]]] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = screen.map_view
        for key in ["full_stop"] * 12 + ["comma"] * 12:
            await pilot.press(key)
            await pilot.pause()
            unit = screen.mode.selected
            assert unit is not None
            here = game.state.unit(unit).hex
            assert here is not None
            near = frozenset(
                h for h in screen.highlight if h in game.board.game_map.neighbours(here)
            )
            if not in_view(view, near | {here}):
                bad.append((unit, near))

    run(ArdennesApp(game.board.game_map, cursor=start, game=game), body)
    assert bad == []


def dormant_game() -> rules.ao.Game:
    """Scenario 1 at the end of the Allied GT2 Supply Judgment Phase, an Allied unit made
    dormant on a hex beside another: ending the phase reactivates it (AO-5.3M) as the Initial
    Movement Phase begins (on GT1 it is lost, AO-4.2c)."""
    record = record_game(2)
    k = next(
        k
        for k in range(len(record.history) + 1)
        if (s := record.state_at(k)).side == "allied"
        and s.turn == 2
        and s.phase == "supply_judgment"
    )
    state = record.state_at(k)
    m = record.board.game_map
    allied = [
        u
        for u in state.units
        if u.hex is not None and u.status == "on_map" and record.board.defs[u.id].side == "allied"
    ]
    a, b = next(
        (a, b)
        for a in allied
        for b in allied
        if a.hex is not None and b.hex is not None and b.hex in m.neighbours(a.hex)
    )
    state = state.replace_units([msgspec.structs.replace(b, status="dormant")])
    game = rules.ao.Game(record.board, state, dice=record.dice, dice_spec=record.dice_spec)
    r = game.push(rules.ao.EndPhase())
    assert not isinstance(r, rules.Rejection)
    assert any(isinstance(e, rules.ao.DormantReactivated) for e in r.events)
    assert a.id != b.id
    return game


def test_the_end_of_a_phase_leaves_the_cursor_where_it_is() -> None:
    game = dormant_game()
    assert playback_text.focus_hex(game, 1) is None

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlaybackScreen)
        view = screen.query_one(MapView)
        view.cursor = "2328"
        await pilot.press("space")
        await pilot.pause()
        assert screen.step == 1 and view.cursor == "2328"

    run(ArdennesApp(game.board.game_map, screen=lambda: PlaybackScreen(game)), body)


def test_the_walk_of_issue_21_turns_few_pages() -> None:
    """Issue 21, item 13: 5 east, 5 down the column, 5 east, 5 down from Bastogne. Down a
    column the rows alternate by half a hex: a cursor left right at the margin by a page
    turn crossed it back at the next key and the view went to and fro, a whole repaint each
    key (before: 7 scrolls, the last five keys each). Now 4: two across, two down."""
    game = saves.new_game(1, "walk")
    offsets: list[tuple[int, int]] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        view = app.screen.query_one(MapView)
        offsets.append(tuple(view.scroll_offset))  # type: ignore[arg-type]
        for key in ["right"] * 5 + ["down"] * 5 + ["right"] * 5 + ["down"] * 5:
            await pilot.press(key)
            await pilot.pause()
            offsets.append(tuple(view.scroll_offset))  # type: ignore[arg-type]
        assert view.cursor == "3338"

    run(ArdennesApp(game.board.game_map, cursor="2328", game=game), body)
    scrolls = sum(a != b for a, b in pairwise(offsets))
    assert scrolls == 4, offsets
