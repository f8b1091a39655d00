"""Getting around the play screen in few keys, driven with Pilot at 80x24 on the real map:
``]``/``[`` the lit hexes, ``.``/``,`` the units that may act, ``g`` go to a hex or a town,
``C`` centre on the selection, and a click on the cursor's own hex that costs nothing. Each
test counts the keys of its task (the numbers in ``docs/ui.md``)."""

from __future__ import annotations

from textual.geometry import Offset
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.modes import CombatMode, MovementMode, ReinforcementMode
from ardennes_tui.screens.goto import GotoDialog
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.side_panel import SidePanel
from rules.ao import ResolveAttacks
from tests.kit.app import (
    allied_gt2_reinforcements,
    drive,
    game_of,
    message,
    mode,
    press,
    view_of,
)
from tests.kit.engine import end_phase, scenario_gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def german_gt1_reinforcement() -> rules.ao.Game:
    """Scenario 1 at the German GT1 Reinforcement Phase: de-1-a due on the east edge."""
    g = saves.new_game(1, "nav")
    while not (g.state.phase == "reinforcement" and g.options().reinforcements):
        end_phase(g)
    return g


def centred(view: MapView, hex_id: str) -> bool:
    """The hex is in the middle of the view (within a hex of its centre)."""
    region = view.hex_region(hex_id)
    window = view.visible_region()
    dx = abs(region.center[0] - window.center[0])
    dy = abs(region.center[1] - window.center[1])
    return dx <= 6 and dy <= 3


def test_a_reinforcement_placed_in_two_keys() -> None:
    """``]`` jumps to the nearest open entry hex, Enter places the unit: 2 keys (20 before:
    19 cursor keys from Bastogne to the east edge, then Enter). ``.`` Enter does the same."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        entries = s.options().reinforcements[0].hexes
        assert view.cursor == "2328" and "] jumps to an entry hex" in message(app)
        await press(pilot, "right_square_bracket")
        assert view.cursor in entries and message(app) == f"Enter places de-1-a on {view.cursor}"
        await press(pilot, "enter")
        assert s.state.unit("de-1-a").hex == view.cursor
        await press(pilot, "backspace")
        view.cursor = "2328"
        await press(pilot, "full_stop")
        assert view.cursor in entries
        assert message(app) == f"Enter places de-1-a on {view.cursor} (. next unit, ] next hex)"
        await press(pilot, "enter")
        assert s.state.unit("de-1-a").hex == view.cursor
        # ] cycles through the other lit hexes in reading order; [ goes back
        await press(pilot, "backspace")
        first = view.cursor
        await press(pilot, "right_square_bracket")
        second = view.cursor
        assert second in entries and second != first
        await press(pilot, "left_square_bracket")
        assert view.cursor == first
        await press(pilot, "enter", "e", "e")  # placed (AO-4.2b), then the phase ends
        await press(pilot, "right_square_bracket")
        assert message(app).startswith("Nothing is lit now.")

    drive(body, cursor="2328", session=german_gt1_reinforcement())


def test_ten_allied_reinforcements_in_twenty_keys() -> None:
    """``.`` Enter places the first unit due, again and again: ten units in twenty keys (301
    cursor keys and Enters before, going round the edge sections by hand)."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        assert len(s.options().reinforcements) == 10
        for _ in range(10):
            unit = mode(app, ReinforcementMode).placing
            await press(pilot, "full_stop")
            assert view_of(app).cursor in mode(app, ReinforcementMode).highlight()
            await press(pilot, "enter")
            assert unit is not None and s.state.unit(unit).status == "on_map"
        assert not s.options().reinforcements and s.options().may_end_phase

    drive(body, cursor="2328", session=allied_gt2_reinforcements())


def test_the_next_unit_that_may_move_is_selected_by_a_full_stop() -> None:
    """In a movement phase ``.`` selects the next unit that may move (reading order), its
    reach lit, its MP said; ``,`` goes back; a unit moved leaves the list."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        movable = s.options().movable
        await press(pilot, "full_stop")
        first = mode(app, MovementMode).selected
        assert first in movable and view.cursor == s.state.unit(first).hex
        assert message(app).startswith(f"{first}: ") and " hexes lit" in message(app)
        assert view.highlight and app.screen.query_one(SidePanel).selected == first
        await press(pilot, "full_stop")
        second = mode(app, MovementMode).selected
        assert second in movable and second != first
        await press(pilot, "comma")
        assert mode(app, MovementMode).selected == first
        await press(pilot, "right_square_bracket", "enter")  # the nearest lit hex: moved
        assert s.state.unit(first).moved and first not in s.options().movable
        await press(pilot, "comma", "full_stop")
        assert mode(app, MovementMode).selected != first

    b, st = scenario_gt1_german_combat(1)
    game = game_of(b, st, seed="nav")
    end_phase(game)  # the Mechanized Movement Phase
    drive(body, cursor="4009", session=game)


def test_an_attack_built_with_the_jumps() -> None:
    """Combat: ``]`` goes to the nearest target, ``a`` attacks it, ``.`` marks each unit that
    may join (its hex under the cursor), Enter adds its stack, ``r`` resolves: 2 + 2 per
    stack + 1 keys."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        await press(pilot, "full_stop")
        unit = mode(app, CombatMode).selected
        assert unit in s.options().attackers and view.cursor == s.state.unit(unit).hex
        assert message(app).startswith(f"> {unit} may attack")
        await press(pilot, "right_square_bracket")
        target = view.cursor
        assert target in s.options().targets
        await press(pilot, "a", "full_stop")
        combat = mode(app, CombatMode)
        joiner = combat.selected
        assert joiner in combat.eligible_attackers() and view.cursor == s.state.unit(joiner).hex
        assert message(app).startswith(f"> {joiner}: Enter adds its stack")
        await press(pilot, "enter")
        assert joiner in mode(app, CombatMode).attackers
        await press(pilot, "r")
        assert isinstance(s.commands[-1], ResolveAttacks) or s.options().decision is not None

    b, st = scenario_gt1_german_combat(1)
    drive(body, cursor="2328", session=game_of(b, st, seed="nav"))


def test_go_to_a_hex_or_a_town_and_the_view_centres_on_it() -> None:
    """``g 3412 Enter`` (6 keys, 19 before) and ``g bas Enter`` go there, the view centred;
    Up/Down pick among the towns, Tab completes the name; a hex off the map is said in the
    dialog; Escape goes nowhere."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        await press(pilot, "g", "3", "4", "1", "2", "enter")
        assert view.cursor == "3412" and centred(view, "3412")
        assert isinstance(app.screen, PlayScreen)
        await press(pilot, "g", "b", "a", "s", "enter")
        assert view.cursor == "2328" and centred(view, "2328")
        await press(pilot, "g", "b")
        dialog = app.screen
        assert isinstance(dialog, GotoDialog)
        names = [str(o.prompt) for o in dialog.query_one(OptionList).options]
        assert names[:4] == [
            "Bastogne (2328)",
            "Bitburg (4130)",
            "Bouillon (0837)",
            "Büllingen (3512)",
        ]
        await press(pilot, "down", "down", "tab")
        assert dialog.query_one(Input).value == "Bouillon"
        await press(pilot, "enter")
        assert view.cursor == "0837"
        await press(pilot, "g", "9", "9", "9", "9", "enter")
        assert isinstance(app.screen, GotoDialog)
        hint = str(app.screen.query_one("#goto-hint", Static).content)
        assert hint == "No hex 9999 on this map (0101-4245)"
        await press(pilot, "escape")
        assert isinstance(app.screen, PlayScreen) and view.cursor == "0837"

    drive(body, cursor="4009", session=saves.new_game(1, "nav"))


def test_c_centres_the_view_on_the_selected_unit() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        await press(pilot, "full_stop")
        unit = mode(app, MovementMode).selected
        assert unit is not None
        home = s.state.unit(unit).hex
        assert home is not None
        await press(pilot, "g", "0", "8", "3", "7", "enter")
        assert not view.visible_region().overlaps(view.hex_region(home))
        await press(pilot, "C")
        assert view.cursor == home and centred(view, home)

    b, st = scenario_gt1_german_combat(1)
    game = game_of(b, st, seed="nav")
    end_phase(game)
    drive(body, cursor="4009", session=game)


def test_a_click_on_the_cursors_hex_costs_nothing() -> None:
    """A click moves the cursor; a second click on the same hex repaints nothing and changes
    nothing (no text selection on the map)."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        view = view_of(app)
        assert not view.allow_select
        before = view.cursor
        await pilot.click(MapView, offset=Offset(20, 10))
        await pilot.pause()
        here = view.cursor
        assert here != before
        said = message(app)
        repaints: list[object] = []
        original = view.refresh

        def counting(*regions: object, **kw: object) -> MapView:
            repaints.append(regions)
            return original(*regions, **kw)  # type: ignore[arg-type]

        view.refresh = counting  # type: ignore[method-assign]
        state = s.state_hash()
        await pilot.click(MapView, offset=Offset(20, 10))
        await pilot.pause()
        assert view.cursor == here and repaints == [] and message(app) == said
        assert s.state_hash() == state and app.screen.selections == {}

    drive(body, cursor="2328", session=saves.new_game(1, "nav"))


def test_the_bare_map_goes_to_towns_and_offers_only_the_view() -> None:
    """The map viewer (no game): ``g`` works, ``C`` centres on the cursor, the palette offers
    the view commands and, when typed, the towns."""
    import asyncio

    from ardennes_tui.screens.map_screen import MapScreen
    from scenarios import load_map

    game_map = load_map()
    app = ArdennesApp(game_map, cursor="4009")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, MapScreen) and not isinstance(screen, PlayScreen)
            await press(pilot, "g", "s", "t", "v", "enter")
            view = screen.map_view
            assert view.cursor == "3217" and centred(view, "3217")
            offered = [c.title for c in screen.palette_commands()]
            assert "Go to a hex or a town" in offered and "Zoom: the overview view" in offered
            assert not any("unit" in t or "lit" in t for t in offered)
            assert "Go to Bastogne (2328)" in [c.title for c in screen.town_commands()]

    asyncio.run(main())
