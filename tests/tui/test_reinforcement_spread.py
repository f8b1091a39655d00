"""``.`` Enter spreads the reinforcements over their section's entry hexes (issue 21, item 11):
before, every unit went to the entry hex nearest the cursor (ten on 4229 on GT4, with staging
losses up to 18 road hexes, AO-14.2B); now ``.`` goes to the open entry hex with the fewest
units entered there this phase, then the nearest, and the message says the staging loss."""

from __future__ import annotations

import asyncio

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.modes import ReinforcementMode
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.status_line import StatusLine
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import record_game

pytestmark = needs_real_map


def at_reinforcements(turn: int, side: rules.ao.Side) -> rules.ao.Game:
    """A bots' record of scenario 1 cut back to ``side``'s Reinforcement Phase of ``turn``."""
    record = record_game(turn)
    k = next(
        k
        for k in range(len(record.history) + 1)
        if (s := record.state_at(k)).turn == turn and s.side == side and s.phase == "reinforcement"
    )
    game = record.copy()
    game.truncate(k)
    return game


def test_full_stop_enter_spreads_the_units_and_says_the_staging_loss() -> None:
    game = at_reinforcements(2, "allied")
    options = {d.unit: d.hexes for d in game.options().reinforcements}
    due = len(options)
    assert due >= 6
    app = ArdennesApp(game.board.game_map, cursor="2328", game=game)
    said: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            for _ in range(due):
                await pilot.press("full_stop")
                await pilot.pause()
                m = screen.mode
                assert isinstance(m, ReinforcementMode)
                entries = m.highlight()
                entered = {
                    h: sum(1 for u in game.state.units if u.hex == h and u.staging is not None)
                    for h in entries
                }
                # the cursor on an entry hex with the fewest units entered there
                assert entered[screen.cursor] == min(entered.values())
                said.append(screen.query_one(StatusLine).message)
                await pilot.press("enter")
                await pilot.pause()

    asyncio.run(main())
    assert not game.options().reinforcements
    placed = [
        e for step in game.history[-due:] for e in step.events if isinstance(e, rules.ao.UnitPlaced)
    ]
    assert len(placed) == due
    piles: dict[str, int] = {}
    for e in placed:
        piles[e.hex] = piles.get(e.hex, 0) + 1
    # the units of a section spread evenly over its entry hexes (not one pile)
    for hexes in set(options.values()):
        counts = [piles.get(h, 0) for h in hexes]
        assert max(counts) - min(counts) <= 1, (hexes, counts)
    # a loss to staging is said before Enter
    losses = [e for e in placed if e.staging]
    for e in losses:
        assert any(f"on {e.hex}, staging -{e.staging} road hexes (AO-14.2B)" in m for m in said), (
            said
        )
