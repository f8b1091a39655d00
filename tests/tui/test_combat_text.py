"""Combat in words (``ardennes_tui.present.combat_text``) and the end-of-game screen."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.present.combat_text import combat_log, decision_lines, decision_prompt, odds_notes
from ardennes_tui.screens.combat_log import VerdictScreen
from rules.ao.events import (
    AttackDeclared,
    CombatResolved,
    UnitAdvanced,
    UnitEliminated,
    UnitRetreated,
    VictoryPointsScored,
)
from rules.ao.state import Decision, Verdict
from rules.dice import DieRoll
from tests.kit.engine import ended, place_due, scenario_gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def test_decision_prompts_say_whose_decision_and_which_keys() -> None:
    waive = Decision(side="allied", kind="waive_immunity", case="AO-11.f*", choices=(("2328",),))
    assert decision_prompt(waive) == (
        "Allied decision: waive the Ar/Dr immunity in 2328 (AO-11.f*)? y waives, n keeps"
    )
    losses = Decision(
        side="german", kind="losses", case="AO-10.1b", choices=(("a",), ("b", "c")), need=6
    )
    assert decision_prompt(losses, ["a"]) == (
        "German: choose Ex losses (need 6): 1-9 toggle (panel), Enter confirms [a]"
    )
    assert decision_lines(losses, ["a"]) == [
        "1) [x] a",
        "2) [ ] b",
        "3) [ ] c",
        "minimal sets: a; b+c",
    ]
    retreat = Decision(
        side="german",
        kind="retreat",
        case="AO-10.2a",
        unit="us-99",
        choices=(("3310", "3210"), ("3311", "3211")),
    )
    assert decision_prompt(retreat).startswith(
        "German (victor) picks the retreat of us-99: keys 1-2"
    )
    assert decision_lines(retreat) == ["1) 3310-3210", "2) 3311-3211"]
    advance = Decision(
        side="german", kind="advance", case="AO-9.6N", hex="3512", choices=(("de-1ss-a",),)
    )
    assert decision_prompt(advance) == "German: advance into 3512: key 1 (panel), 0 stays"
    assert decision_lines(advance) == ["1) de-1ss-a", "0) stay"]


def test_the_combat_log_explains_each_result() -> None:
    events: list[rules.ao.Event] = [
        AttackDeclared(("de-1ss-a", "de-12ss-a"), ("3411",), None, 18, 4, "4-1"),
        DieRoll(index=0, value=3, purpose="combat:3411"),
        CombatResolved(
            attackers=("de-1ss-a", "de-12ss-a"),
            defenders=("us-99",),
            attack=18,
            defence=4,
            column="4-1",
            table="initial",
            die=3,
            result="Dr3",
        ),
        UnitRetreated(unit="us-99", start="3411", path=("3310", "3210", "3110")),
        UnitAdvanced(unit="de-1ss-a", start="3512", end="3411"),
        DieRoll(index=1, value=6, purpose="combat:3323"),
        CombatResolved(
            attackers=("de-2-ai",),
            defenders=("us-112-i",),
            attack=3,
            defence=4,
            column="1-2",
            table="initial",
            die=6,
            result="Ae",
        ),
        UnitEliminated(unit="de-2-ai", hex="3226", case="AO-10.1"),
        VictoryPointsScored(side="allied", points=1, unit="de-2-ai"),
    ]
    assert combat_log(events) == [
        "Declared: de-1ss-a + de-12ss-a (18) vs 3411 (4): 4-1",
        "de-1ss-a + de-12ss-a (18) vs us-99 (4) at 4-1 on the Initial CRT: die 3 -> Dr3; "
        "us-99 retreats 3: 3411-3310-3210-3110; de-1ss-a advances 3512-3411",
        "de-2-ai (3) vs us-112-i (4) at 1-2 on the Initial CRT: die 6 -> Ae; "
        "de-2-ai eliminated (AO-10.1); Allied +1 VP",
    ]


def test_odds_notes_name_the_gt1_tripling() -> None:
    board, state = scenario_gt1_german_combat(1)
    assert odds_notes(board, state, ["de-15-pt", "de-352-i"], ["3432"]) == [
        "att 3531 3532: GT1 x3 (AO-4.2d)"
    ]


@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-9.3J")
def test_odds_notes_multiply_the_west_wall_by_the_gt1_tripling_in_defence() -> None:
    board, state = scenario_gt1_german_combat(1)
    while not (state.side == "allied" and state.phase == "combat"):
        state = ended(board, place_due(board, state))
    assert odds_notes(board, state, ["us-109-i"], ["3531"]) == [
        "def 3531: West Wall x3 (AO-11.h) x GT1 x3 (AO-4.2e) = x9, immune to Ar/Dr (AO-11.h)"
    ]


def test_the_verdict_screen_when_the_game_is_over() -> None:
    new = saves.new_game(1, "v")
    verdict = Verdict(
        winner="german", kind="immediate", german_vp=36, allied_vp=3, reason="36 German VP"
    )
    over = msgspec.structs.replace(new.state, phase="game_over", result=verdict)
    s = rules.ao.Game(new.board, over, dice=new.dice, dice_spec=new.dice_spec)
    app = ArdennesApp(s.board.game_map, cursor="4009", game=s)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, VerdictScreen)
            text = str(app.screen.query_one("#verdict-text").render())
            assert text.startswith("The German player wins (immediate) after Game-Turn 1.")
            assert "VP: German 36, Allied 3." in text and "36 German VP" in text
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, VerdictScreen)

    asyncio.run(main())
