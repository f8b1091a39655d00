"""Driving the app headless with Pilot at 80x24: a hot-seat game of scenario 1 (or a given
one), keys, the status line, the play screen's mode; games set up for the UI tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import msgspec
import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.modes import Mode
from ardennes_tui.present import game_view
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.status_line import StatusLine
from rules import Rejection
from rules.ao import DeclareAttack
from tests.kit.engine import end_phase
from tests.kit.recordkit import record_game

Body = Callable[[ArdennesApp, Pilot[None], rules.ao.Game], Awaitable[None]]
M = TypeVar("M", bound=Mode)


def game_of(board: rules.ao.Board, state: rules.ao.GameState, seed: str = "test") -> rules.ao.Game:
    """A hot-seat game from ``state`` with the dice of text ``seed``."""
    return rules.ao.Game(
        board,
        state,
        dice=rules.SeededDice(seed.encode()),
        dice_spec=rules.DiceSpec.seeded(seed.encode(), seed),
        players=saves.HOT_SEAT,
    )


def mode(app: ArdennesApp, kind: type[M]) -> M:
    """The play screen's current mode, which must be a ``kind``."""
    screen = app.screen
    assert isinstance(screen, PlayScreen) and isinstance(screen.mode, kind), screen
    return screen.mode


def drive(body: Body, cursor: str = "4009", session: rules.ao.Game | None = None) -> None:
    session = session or saves.new_game(1)
    app = ArdennesApp(session.board.game_map, cursor=cursor, game=session)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            await body(app, pilot, session)

    asyncio.run(main())


def message(app: ArdennesApp) -> str:
    return app.screen.query_one(StatusLine).message


def notice(app: ArdennesApp) -> str:
    """The notice line: what the rules did by themselves after the last order."""
    return app.screen.query_one(StatusLine).notice


def notice_and_message(app: ArdennesApp) -> str:
    """The notice line (a saved draft restored or set aside) and the message."""
    status = app.screen.query_one(StatusLine)
    return f"{status.notice} {status.message}".strip()


def view_of(app: ArdennesApp) -> MapView:
    return app.screen.query_one(MapView)


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


async def end_phases(pilot: Pilot[None], n: int) -> None:
    """End ``n`` phases: each ``e`` asks, the second ``e`` confirms."""
    await press(pilot, *("e" * (2 * n)))


def prompt(app: ArdennesApp) -> str:
    return app.screen.query_one(StatusLine).prompt


def gt1_german_combat(seed: str) -> rules.ao.Game:
    """A new game of scenario 1 with dice ``seed`` at the German GT1 Combat Phase (obligations
    in force), every American unit in contact declared against by all its German neighbours."""
    g = saves.new_game(1, seed)
    while not (g.state.side == "german" and g.state.phase == "combat"):
        end_phase(g)
    m = g.board.game_map
    for uid in g.options().must_be_attacked:
        h = g.state.unit(uid).hex
        assert h is not None
        used = {x for a in g.state.combat.declared for x in a.attackers}
        near = {x for n in m.neighbours(h) for x in game_view.own_units(g, n) if x not in used}
        assert not isinstance(g.push(DeclareAttack(tuple(sorted(near)), (h,))), Rejection)
    return g


def answer_all(g: rules.ao.Game) -> None:
    """Answer each pending decision with its first choice (no advance)."""
    while (d := g.options().decision) is not None:
        if d.kind == "waive_immunity":
            cmd: rules.ao.Command = rules.ao.WaiveImmunity(())
        elif d.kind == "losses":
            cmd = rules.ao.ChooseLosses(d.choices[0])
        elif d.kind == "retreat":
            assert d.unit is not None
            cmd = rules.ao.ChooseRetreat(d.unit, d.choices[0])
        else:
            assert d.hex is not None
            cmd = rules.ao.Advance(d.hex)
        assert not isinstance(g.push(cmd), Rejection)


def until(g: rules.ao.Game, kind: str) -> rules.ao.Game:
    """Answer ``g``'s decisions with their first choice (no advance) until one of ``kind``."""
    while (d := g.options().decision) is not None and d.kind != kind:
        if d.kind == "losses":
            cmd: rules.ao.Command = rules.ao.ChooseLosses(d.choices[0])
        elif d.kind == "advance":
            assert d.hex is not None
            cmd = rules.ao.Advance(d.hex)
        elif d.kind == "retreat":
            assert d.unit is not None
            cmd = rules.ao.ChooseRetreat(d.unit, d.choices[0])
        else:
            cmd = rules.ao.WaiveImmunity(())
        assert not isinstance(g.push(cmd), Rejection)
    assert d is not None, "no such decision"
    return g


AppBody = Callable[[ArdennesApp, Pilot[None]], Awaitable[None]]


def run_app_with(monkeypatch: pytest.MonkeyPatch, body: AppBody) -> None:
    """Make ``ArdennesApp.run`` (as ``run_app`` calls it) drive the app with Pilot at 80x24."""

    def run(app: ArdennesApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await body(app, pilot)

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", run)


def allied_gt2_reinforcements() -> rules.ao.Game:
    """Scenario 1 at the Allied GT2 Reinforcement Phase: ten units due."""
    s = gt1_german_combat("reinf")
    assert not isinstance(s.push(rules.ao.ResolveAttacks()), Rejection)
    answer_all(s)
    while not (s.state.turn == 2 and s.state.side == "allied" and s.state.phase == "reinforcement"):
        if s.options().mode == "drop":
            assert not isinstance(s.push(rules.ao.Drop(s.options().drop_hexes[0])), Rejection)
            assert not isinstance(s.push(rules.ao.Roll()), Rejection)
        end_phase(s)
    return s


class RepaintSpy:
    """What a map view repaints: the lines rendered and the regions refreshed since
    :meth:`clear` (``view.render_line`` and ``view.refresh`` wrapped)."""

    def __init__(self, view: MapView) -> None:
        self.rendered: list[int] = []
        self.regions: list[Region] = []
        render_line, refresh = view.render_line, view.refresh

        def spy_render_line(y: int) -> Strip:
            self.rendered.append(y)
            return render_line(y)

        def spy_refresh(*r: Region, **kw: bool) -> MapView:
            self.regions.extend(r)
            return refresh(*r, **kw)

        view.render_line = spy_render_line  # type: ignore[method-assign]
        view.refresh = spy_refresh  # type: ignore[method-assign]

    def clear(self) -> None:
        self.rendered.clear()
        self.regions.clear()


def gt2_german_reinforcement() -> rules.ao.Game:
    """Scenario 1 (a bots' record) at the German GT2 Reinforcement Phase, de-2-a due, with
    de-1-a (entered on GT1) still in Road Mode on the entry hex 4215."""
    record = record_game(2)
    k = next(
        k
        for k in range(len(record.history) + 1)
        if (s := record.state_at(k)).turn == 2 and s.side == "german" and s.phase == "reinforcement"
    )
    state = record.state_at(k)
    de1 = msgspec.structs.replace(state.unit("de-1-a"), hex="4215", road_mode=True)
    return rules.ao.Game(
        record.board, state.replace_units([de1]), dice=record.dice, dice_spec=record.dice_spec
    )


def run(app: ArdennesApp, body: AppBody) -> None:
    """Run ``app`` at 80x24 and drive it with ``body``."""

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(go())
