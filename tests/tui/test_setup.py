"""Set-up in the hot-seat app, driven headless with Pilot at 80x24 on the real map: a free
set-up rearranged by keyboard (select, lit hexes, place, undo, accept) and a historical one
where nothing can be chosen (AO-17.a-c)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.side_panel import SidePanel
from rules.ao import EndPhase, Place, setup_hexes
from rules.ao.start_line import front_line, rear_area
from scenarios import load_map
from tests.kit.app import drive, end_phases, message, press, view_of
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def _empty(s: rules.ao.Game, pool: frozenset[str]) -> str:
    taken = {u.hex for u in s.state.units if u.hex is not None}
    return min(h for h in pool if h not in taken)


@pytest.mark.rule("AO-17.c")
@pytest.mark.rule("AO-17.b")
def test_free_set_up_select_light_place_undo_accept() -> None:
    """Scenario 10 (both sides free): the Allied player moves a front-line unit along the
    front line, takes it back, moves it again and accepts; the German player does the same
    with a rear unit."""
    gm = load_map()

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        panel = screen.query_one(SidePanel)
        assert message(app).endswith(
            "Allied free set-up (AO-17.c): Enter selects a unit, Enter on a lit hex moves it, "
            "e accepts the set-up"
        )
        assert "Free set-up (AO-17.c)" in panel.text
        assert view.highlight == frozenset()
        unit = "us-422-i"
        home = s.state.unit(unit).hex
        assert home is not None
        view.cursor = home
        await pilot.pause()
        assert message(app) == f"Enter selects {unit}"
        await press(pilot, "enter")
        assert screen.selected == unit and "front line" in panel.text  # the unit's note
        lit = setup_hexes(s.board, s.state, unit)
        assert view.highlight == lit and lit and lit <= front_line(gm, "allied")
        assert (
            message(app)
            == f"{unit}: {len(lit)} hexes lit (along the front line). Enter on one places it"
        )
        # a hex behind the front line is not lit: Enter there says why (the engine's reason)
        rear = _empty(s, rear_area(gm, "allied"))
        view.cursor = rear
        await pilot.pause()
        assert message(app).startswith(f"AO-17.c: {unit} is a front-line unit")
        await press(pilot, "enter")
        assert message(app).startswith(f"AO-17.c: {unit} is a front-line unit")
        assert s.state.unit(unit).hex == home and s.commands == ()
        # Enter on a lit hex places it there (a Place through the session)
        target = min(lit)
        view.cursor = target
        await pilot.pause()
        assert message(app) == f"Enter places {unit} in {target}"
        await press(pilot, "enter")
        assert list(s.commands) == [Place(unit, target)] and s.state.unit(unit).hex == target
        assert screen.selected is None and view.highlight == frozenset()
        assert message(app).startswith(f"{unit} placed {home} -> {target}")
        # undo takes it back
        await press(pilot, "backspace")
        assert s.commands == () and s.state.unit(unit).hex == home
        assert message(app) == f"Undone: the placement of {unit} (back in {home})"
        # again, then accept the Allied set-up
        view.cursor = home
        await press(pilot, "enter")
        view.cursor = target
        await press(pilot, "enter")
        assert s.state.unit(unit).hex == target
        await end_phases(pilot, 1)
        assert s.state.phase == "setup_german" and s.commands[-1] == EndPhase()
        assert "German free set-up (AO-17.b)" in message(app)
        # the German player moves a rear unit behind his front line
        g = "de-2ss-ai"
        gh = s.state.unit(g).hex
        assert gh is not None
        view.cursor = gh
        await press(pilot, "enter")
        glit = setup_hexes(s.board, s.state, g)
        assert screen.selected == g and view.highlight == glit
        assert glit <= rear_area(gm, "german") and not glit & front_line(gm, "german")
        assert "(behind the front line)" in message(app)
        dest = min(glit)
        view.cursor = dest
        await press(pilot, "enter")
        assert s.state.unit(g).hex == dest
        await end_phases(pilot, 1)
        assert s.state.phase == "reinforcement" and s.state.side == "german"

    drive(body, session=saves.new_game(10, "setup"))


@pytest.mark.rule("AO-17.a")
def test_historical_set_up_lights_nothing_and_selects_nothing() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        for _side in ("allied", "german"):
            assert s.state.phase == f"setup_{_side}"
            own = next(u for u in s.state.units if u.hex and s.board.defs[u.id].side == _side)
            assert own.hex is not None
            view.cursor = own.hex
            await press(pilot, "enter")
            assert screen.selected is None and view.highlight == frozenset()
            assert message(app) == f"{_side.capitalize()} set-up placed (historical): e accepts it"
            await end_phases(pilot, 1)
        assert s.commands == (EndPhase(), EndPhase())

    drive(body, session=saves.new_game(1, "setup"))


@pytest.mark.rule("AO-17.a")
@pytest.mark.rule("AO-17.c")
def test_scenario_4_allied_free_then_german_historical() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        assert "Allied free set-up (AO-17.c)" in message(app)
        await end_phases(pilot, 1)
        assert s.state.phase == "setup_german"
        assert message(app).endswith("German set-up placed (historical): e accepts it")
        h = s.state.unit("de-62-i").hex
        assert h is not None
        view_of(app).cursor = h
        await press(pilot, "enter")
        assert app.screen.selected is None  # type: ignore[attr-defined]
        assert view_of(app).highlight == frozenset()

    drive(body, session=saves.new_game(4, "setup"))
