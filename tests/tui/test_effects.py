"""Everything the rules do for a player is said, logged and played back (issue 21, item 8).

The case of the issue: German GT2 Reinforcement Phase, ``.`` Enter puts de-2-a on 4215 beside
de-1-a in Road Mode; in the Initial Movement Phase ``r`` on de-1-a (its move: it stays on the
entry hex); ``e`` ``e``: de-2-a went back off the map without a word, nothing in the combat log
nor in the playback. Now the first ``e`` warns, the notice line says it (and stays while the
cursor moves), the log has it under the player-turn's header, the playback's step says it.
Then each effect of the engine in words (:func:`ardennes_tui.present.effects.effect_notes`).
"""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.present import playback_text
from ardennes_tui.present.effects import effect_notes, event_log
from ardennes_tui.screens.combat_log import CombatLogScreen
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.status_line import StatusLine
from ardennes_tui.widgets.text_box import TextBox
from tests.kit.app import gt2_german_reinforcement
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import record_game

pytestmark = needs_real_map

WITHDRAWN = "de-2-a goes back off the map from 4215"


def status_text(app: ArdennesApp) -> str:
    return " ".join(app.screen.query_one(StatusLine).plain.split())


def test_a_withdrawn_reinforcement_is_said_logged_and_played_back() -> None:
    game = gt2_german_reinforcement()
    app = ArdennesApp(game.board.game_map, cursor="4215", game=game)
    seen: dict[str, str] = {}

    async def keys(pilot: Pilot[None], *names: str) -> None:
        for name in names:
            await pilot.press(name)
            await pilot.pause()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            # de-2-a on 4215; through Supply Judgment; the paradrop (AO-15.a) first
            await keys(pilot, "full_stop", "enter", "e", "e", "e", "e")
            await keys(pilot, "right_square_bracket", "enter", "r")
            screen.map_view.cursor = "4215"
            await keys(pilot, "enter", "r", "e")
            seen["warning"] = status_text(app)
            await keys(pilot, "e")
            seen["after"] = status_text(app)
            await keys(pilot, "l", "l")  # the cursor moves: the notice stays
            seen["moved"] = status_text(app)
            await keys(pilot, "c")
            assert isinstance(app.screen, CombatLogScreen)
            seen["log"] = app.screen.query_one(TextBox).source

    asyncio.run(main())
    assert game.state.unit("de-2-a").status == "not_arrived"
    assert f"Careful: {WITHDRAWN}" in seen["warning"]
    assert WITHDRAWN in seen["after"] and "(AO-6.5G)" in seen["after"]
    assert WITHDRAWN in seen["moved"]
    log = seen["log"].splitlines()
    header = log.index("== GT2 17 Dec: German player-turn ==")
    assert any(line.startswith(WITHDRAWN) for line in log[header:])
    # the playback of the end of the phase says it too
    k = next(
        k
        for k, step in enumerate(game.history, start=1)
        if any(isinstance(e, rules.ao.ReinforcementWithdrawn) for e in step.events)
    )
    assert any(WITHDRAWN in line for line in playback_text.step_lines(game, k))
    assert "4215" in playback_text.step_hexes(game, k)


def test_each_effect_of_the_engine_in_words() -> None:
    events: list[rules.ao.Event] = [
        rules.ao.ReinforcementDelayed(unit="us-7-a", turn=4, section="north", delays=1),
        rules.ao.RoadModeChanged(unit="de-2-pz", hex="3422", road_mode=False, cost=3, forced=True),
        rules.ao.UnitEliminated(unit="de-9-pz", hex="3522", case="AO-6.7L*"),
        rules.ao.DormantReactivated(unit="us-28-i", hex="0118"),
        rules.ao.CrtSwitchRolled(turn=6, die=1, crt="standard"),
        rules.ao.SupplyChanged(unit="us-1-i", supply="unsupplied", case="AO-12.3G"),
        rules.ao.SupplyChanged(unit="us-2-i", supply="unsupplied", case="AO-12.3G"),
        rules.ao.SupplyChanged(unit="us-3-i", supply="isolated", case="AO-12.3H"),
        rules.ao.PhaseSkipped(turn=1, side="german", phase="initial_movement", case="AO-4.2c"),
    ]
    assert effect_notes(events) == [
        "us-7-a delayed to GT4: every entry hex of the north section is held by the enemy "
        "(AO-14.1b).",
        "de-2-pz forced out of Road Mode in 3422 (3 MP, AO-6.7L*).",
        "de-9-pz eliminated in 3522: it could not leave Road Mode, out of supply or short of MP "
        "(AO-6.7L*).",
        "us-28-i reactivated in 0118 (AO-5.3M).",
        "GT6 CRT roll: die 1, the German uses the Standard CRT (AO-10.3a).",
        "Initial Movement Phase lost (AO-4.2c).",
        "Out of supply (AO-12.3G): us-1-i, us-2-i.",
        "Isolated (AO-12.3H): us-3-i.",
    ]


def test_the_log_has_a_header_for_each_player_turn() -> None:
    game = record_game(2)
    log = event_log(game)
    headers = [line for line in log if line.startswith("== ")]
    assert headers[:2] == [
        "== GT1 16 Dec: German player-turn ==",
        "== GT1 16 Dec: Allied player-turn ==",
    ]
    assert "== GT2 17 Dec: German player-turn ==" in headers
    first_gt1 = log.index(headers[0])
    assert any(" CRT: die " in line for line in log[first_gt1:])
    assert any(line.startswith("GT1 VP: ") for line in log)
