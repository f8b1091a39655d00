"""The Combat Phase's panel says what is left to do (issue 21, item 9): the Game-Turn 1
obligations (AO-4.2h*) shrink as attacks are declared, and the batch lists every declared
attack with its odds (before: after all ten attacks were declared the panel still listed the
ten American and the German units, and "Batch: 10 declared" only the last three attacks,
without odds)."""

from __future__ import annotations

import asyncio
import re

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.widgets.side_panel import SidePanel
from tests.kit.app import gt1_german_combat
from tests.kit.engine import end_phase
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def panel_after(game: rules.ao.Game, *keys: str) -> str:
    app = ArdennesApp(game.board.game_map, cursor="2328", game=game)
    out: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            out.append(app.screen.query_one(SidePanel).source)  # before its wrap

    asyncio.run(main())
    return out[0]


def test_every_declared_attack_with_its_odds_and_nothing_left_to_do() -> None:
    game = gt1_german_combat("d")
    declared = game.state.combat.declared
    assert len(declared) == 10
    panel = panel_after(game)
    assert "Batch: 10 declared" in panel
    lines = [line for line in panel.splitlines() if " <- " in line]
    assert len(lines) == 10
    for a, line in zip(declared, lines, strict=True):
        p = rules.ao.preview_attack(game.board, game.state, list(a.attackers), list(a.defenders))
        assert isinstance(p, rules.ao.Preview)
        assert line.split() == ["+".join(a.defenders), p.column, "<-", *a.attackers]
    assert "all in the batch: r resolves" in panel
    assert "attack:" not in panel and "attack with:" not in panel


def test_the_obligations_shrink_with_each_declaration() -> None:
    game = saves.new_game(1, "d")
    while not (game.state.side == "german" and game.state.phase == "combat"):
        end_phase(game)
    must = list(game.options().must_be_attacked)
    panel = panel_after(game)
    left = re.search(r"attack: (.*)", panel)
    assert left is not None and left.group(1).split() == must
    # declare the first attack: its defender and attackers leave the lists
    h = game.state.unit(must[0]).hex
    assert h is not None
    m = game.board.game_map
    near = sorted(
        u.id
        for u in game.state.units
        if u.hex in m.neighbours(h) and game.board.defs[u.id].side == "german"
    )
    assert not isinstance(game.push(rules.ao.DeclareAttack(tuple(near), (h,))), rules.Rejection)
    panel = panel_after(game)
    left = re.search(r"attack: (.*)", panel)
    assert left is not None and left.group(1).split() == must[1:]
    with_ = re.search(r"attack with: (.*)", panel)
    assert with_ is None or not set(near) & set(with_.group(1).split())
    assert "Batch: 1 declared" in panel and f"{h} " in panel and f"<- {' '.join(near)}" in panel


def test_a_lowered_attack_says_so() -> None:
    """``-`` before Enter lowers the odds (AO-9.4L): the batch says what was asked."""

    game = saves.new_game(1, "d")
    while not (game.state.side == "german" and game.state.phase == "combat"):
        end_phase(game)
    must = game.options().must_be_attacked[0]
    h = game.state.unit(must).hex
    assert h is not None
    m = game.board.game_map
    near = tuple(
        sorted(
            u.id
            for u in game.state.units
            if u.hex in m.neighbours(h) and game.board.defs[u.id].side == "german"
        )
    )
    p = rules.ao.preview_attack(game.board, game.state, list(near), [h])
    assert isinstance(p, rules.ao.Preview)
    lower = rules.ao.crt.ODDS_COLUMNS[rules.ao.crt.ODDS_COLUMNS.index(p.column) - 1]
    r = game.push(rules.ao.DeclareAttack(near, (h,), odds=lower))
    if isinstance(r, rules.Rejection):  # the German floor (AO-9.4L*): nothing to lower
        return
    panel = panel_after(game)
    assert f"{h} {p.column} asked {lower} <- {' '.join(near)}" in panel
