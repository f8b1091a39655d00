"""No text cut at 80x24 (issue 21, item 14): every screen and dialog of the app rendered at
80x24, in the states that make its longest texts, and checked by :func:`tests.tui.cutkit.cuts`
for text cut off by a widget edge (a word folded or cropped, a line under a box's border, a
table column out of sight, the position line shortened).

Before the fixes: the standing orders dialog stopped at "...ask: you", the position line said
"3422 rou...", the start screen's LAST column was cut ("11-27 2"), the playback's status line
("| The comput") and its panel (hex ids split across lines), the hand-over box's VP line
wrapped, the start screen's help left words alone at column 0. The new dialogs of issue 21 are
here too: the standing orders asked for a sealed batch and the Game-Turn 1 warning before it
is sealed (as ``ardennes --email`` shows them), the row of an invitation an import kept and its
accept dialog, the comment dialog, the aids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.pilot import Pilot
from textual.screen import Screen

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.present import game_list
from scenarios import load_map
from tests.kit.app import gt1_german_combat
from tests.kit.engine import end_phase
from tests.kit.realmap import needs_real_map
from tests.tui.cutkit import cuts

pytestmark = needs_real_map

Steps = Callable[[ArdennesApp, Pilot[None]], Awaitable[None]]


async def _nothing(app: ArdennesApp, pilot: Pilot[None]) -> None:
    return None


def check(app: ArdennesApp, steps: Steps = _nothing, each: Steps | None = None) -> None:
    """Run ``app`` at 80x24, do ``steps``, and fail on any cut (``each``: steps after which
    the screen is checked again, until it returns)."""
    found: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await steps(app, pilot)
            await pilot.pause()
            await pilot.pause()
            found.extend(cuts(app))

    asyncio.run(main())
    assert found == []


def play_app(game: rules.ao.Game, cursor: str = "2328") -> ArdennesApp:
    return ArdennesApp(game.board.game_map, cursor=cursor, game=game)


def screen_app(make: Callable[[], Screen[Any]]) -> ArdennesApp:
    return ArdennesApp(load_map(), screen=make)


def press(*keys: str) -> Steps:
    async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
        for key in keys:
            await pilot.press(key)
            await pilot.pause()

    return steps


def late_game(phase: rules.ao.Phase = "mechanized_movement") -> rules.ao.Game:
    """Scenario 1 made to stand at GT10, the German Mechanized Movement Phase, VP 12-10: the
    longest position line."""
    new = saves.new_game(1, "cuts")
    state = msgspec.structs.replace(
        new.state,
        turn=10,
        side="german",
        phase=phase,
        vp=rules.ao.VictoryPoints(german=12, allied=10),
    )
    return rules.ao.Game(new.board, state, dice=new.dice, dice_spec=new.dice_spec)


# -- the start screen -------------------------------------------------------------------------

INVITATION: dict[str, Any] = {
    "id": "b7c1e0f2a4d6c8e0f1a3b5c7d9e1f3a5", "kind": "invitation", "scenario": 10,
    "side": "allied", "to_move": "accept it",
    "opponent": "SHA256:zU/NYRFefrmTqhUFDS5gg0NeOHAa793q6VqTBx06XxA",
    "last_activity": "2026-11-28T04:50:00+00:00",
    "status": "invitation: ardennes accept b7c1e0f2", "packets": 1, "evidence": 0,
    "dice": "sealed",
}  # fmt: skip
"""An invitation kept by an import (:mod:`pbem.invitations`): the longest words its row, the
line under the games and the accept dialog say (scenario 10, a whole fingerprint)."""

LONG_ROWS: list[dict[str, Any]] = [
    {
        "id": "3e18a929dd231ace8532536471e3a18d", "kind": "pbem", "scenario": 10,
        "side": "german", "to_move": "allied", "opponent": "joe@example.org",
        "last_activity": "2026-11-24T07:43:00+00:00", "status": "waiting for the reply",
        "packets": 4, "evidence": 0, "dice": "sealed",
    },
    INVITATION,
    *(
        {
            "id": f"a99ed88a0123456789abcdef012345{i:02d}", "kind": "hot-seat", "scenario": 10,
            "side": "both", "to_move": "GT10 Mechanized Movement",
            "opponent": "bot planner/1 level 3 (Allied)" if i % 2 else "",
            "last_activity": "2026-11-27T21:05:00+00:00", "status": "", "packets": None,
            "evidence": 0, "dice": "",
        }
        for i in range(20)
    ),
]  # fmt: skip


@pytest.fixture
def long_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_list, "rows", lambda store: LONG_ROWS)


def start_app() -> ArdennesApp:
    from ardennes_tui.screens.start import StartScreen

    return screen_app(StartScreen)


@pytest.mark.usefixtures("long_rows")
class TestStart:
    def test_the_games_every_column_in_sight(self) -> None:
        check(start_app())

    def test_the_help_without_lone_words(self) -> None:
        from ardennes_tui.screens.start import help_text

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            await pilot.press("question_mark")
            await pilot.pause()
            body = app.screen.query_one("#text-body")
            # each line of the help on a screen line of its own: no word alone at column 0
            assert body.size.height == len(help_text().splitlines())

        check(start_app(), steps)

    @pytest.mark.parametrize("key", ["k", "w", "a", "n", "e", "b", "i"])
    def test_the_dialogs(self, key: str) -> None:
        check(start_app(), press(key))

    def test_every_scenario_of_the_scenario_dialog(self) -> None:
        check(start_app(), press("n", *["down"] * 9))

    def test_the_invitation_row_and_its_accept_dialog(self) -> None:
        """The row of an invitation an import kept, highlighted: the line under the games says
        who invites to what and how to accept; Enter: the accept dialog (issue 21, item 7)."""
        from textual.widgets import Static

        from ardennes_tui.screens.start_dialogs import AcceptDialog

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            await pilot.press("down")
            await pilot.pause()
            said = str(app.screen.query_one("#st-detail", Static).content)
            assert said.startswith("Invitation b7c1e0f2 from SHA256:zU/NYRF")
            assert cuts(app) == []
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, AcceptDialog)

        check(start_app(), steps)


# -- the play screen ----------------------------------------------------------------------------


class TestPlay:
    def test_the_longest_position_line_on_a_fortified_town(self) -> None:
        check(play_app(late_game(), cursor="4114"))

    def test_set_up(self) -> None:
        check(play_app(saves.new_game(1, "cuts")))

    def test_ex_losses_decision_and_long_result(self) -> None:
        check(play_app(gt1_german_combat("d")), press("r"))

    def test_long_combat_result_scrolled(self) -> None:
        game = gt1_german_combat("d")
        assert not isinstance(game.push(rules.ao.StandingOrders(side="german")), rules.Rejection)
        check(play_app(game), press("r", "right_curly_bracket", "right_curly_bracket"))

    def test_reinforcement_phase(self) -> None:
        game = saves.new_game(1, "cuts")
        while game.state.phase != "reinforcement" or game.state.side != "german":
            end_phase(game)
        check(play_app(game), press("full_stop"))

    def test_combat_log(self) -> None:
        game = gt1_german_combat("d")
        assert not isinstance(game.push(rules.ao.StandingOrders(side="german")), rules.Rejection)
        check(play_app(game), press("r", "c"))

    @pytest.mark.parametrize("section", ["1", "2", "3", "4", "5"])
    def test_help_sections(self, section: str) -> None:
        check(play_app(saves.new_game(1, "cuts")), press("question_mark", section))

    def test_go_to(self) -> None:
        check(play_app(saves.new_game(1, "cuts")), press("g", "s", "t"))

    def test_palette(self) -> None:
        check(play_app(gt1_german_combat("d")), press("ctrl+p"))

    def test_every_line_of_the_standing_orders_dialog(self) -> None:
        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            await pilot.press("O")
            for _ in range(14):
                await pilot.pause()
                assert cuts(app) == []
                await pilot.press("down")

        check(play_app(saves.new_game(1, "cuts")), steps)

    def test_the_standing_orders_dialog_by_email(self) -> None:
        from ardennes_tui.screens.orders import OrdersScreen

        game = saves.new_game(1, "cuts")

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            immune = [("2328", "Bastogne"), ("3217", "St. Vith")]
            app.push_screen(OrdersScreen("allied", immune, None, never_ask=True))
            for _ in range(6):
                await pilot.pause()
                assert cuts(app) == []
                await pilot.press("down")

        check(play_app(game), steps)

    def test_verdict(self) -> None:
        new = saves.new_game(1, "cuts")
        verdict = rules.ao.Verdict(
            winner="german", kind="immediate", german_vp=36, allied_vp=3, reason="36 German VP"
        )
        over = msgspec.structs.replace(new.state, phase="game_over", result=verdict)
        check(play_app(rules.ao.Game(new.board, over, dice=new.dice, dice_spec=new.dice_spec)))


class TestOtherScreens:
    def test_the_hand_over_box(self) -> None:
        from ardennes_tui.present import game_view
        from ardennes_tui.screens.handover import HandoverScreen

        summary = game_view.summary(late_game())

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            position = app.screen.query(".hint").first()
            assert position.size.height == 1  # the VP on the line of the position

        check(screen_app(lambda: HandoverScreen("German", summary)), steps)

    def test_playback_of_every_step_of_a_record(self) -> None:
        from ardennes_tui.screens.playback import PlaybackScreen
        from tests.kit.recordkit import record_game

        game = record_game()
        title = "The computer's last turn (1191 orders), Game-Turn 1 to Game-Turn 2"

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            bad: list[str] = []
            for _ in range(len(game.history)):
                await pilot.press("right")
                found = cuts(app)
                if found:
                    bad.append(f"step {app.screen.step}: {found}")  # type: ignore[attr-defined]
            assert bad == []

        check(screen_app(lambda: PlaybackScreen(game, title=title)), steps)

    def test_audit(self, tmp_path: Path) -> None:
        from ardennes_tui.present import audit_view
        from ardennes_tui.screens.audit import AuditScreen
        from tests.kit.recordkit import packets_file

        view = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
        check(screen_app(lambda: AuditScreen(view)), press("down"))

    def test_send_and_address(self) -> None:
        from ardennes_tui.screens.send import SendScreen

        text = "\n".join(f"line {i} " + "A" * 60 for i in range(40))
        check(screen_app(lambda: SendScreen("3e18a929dd231ace", 12, text)), press("m"))


def test_ardennes_games_fits_80_columns() -> None:
    """``ardennes games`` with a game against the computer and a game by email with a long
    status: every line in 80 columns (the opponent and the status go under the row)."""
    from ardennes_tui.cli.games import render

    text = render(LONG_ROWS)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "bot planner/1 level 3 (Allied)" in text
    assert "[waiting for the reply]" in " ".join(text.split())


def test_the_first_sealed_batch_its_orders_dialog_and_the_gt1_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By email, sealed dice (issue 21, items 1 and 7), as ``ardennes --email GAME`` shows
    them: the standing orders dialog that opens by itself at the first attack declared (why,
    the orders proposed; every line in turn), then, the orders given, ``x``'s warning that
    Game-Turn 1's obligations are unmet: the message whole (scrolled with ``}``), nothing
    cut."""
    from ardennes_tui.cli import main
    from ardennes_tui.screens.orders import SEALED_WHY, OrdersScreen
    from ardennes_tui.widgets.status_line import StatusLine
    from rules.ao.bots import BotRng, bots_for
    from tests.kit.email_app import new_match, play_screen, run_as

    match = new_match(tmp_path)
    monkeypatch.chdir(tmp_path)
    found: list[str] = []
    shown: list[str] = []

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        bots = bots_for(BotRng(b"email-app"))
        while True:
            cmd = bots["german"].choose(screen.game)
            if isinstance(cmd, rules.ao.DeclareAttack):
                break
            assert screen.play(cmd) is not None
        assert screen.play(cmd) is not None
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OrdersScreen) and dialog.why_given == SEALED_WHY
        for _ in range(len(dialog.prompts()) + 1):
            await pilot.pause()
            found.extend(cuts(app))
            await pilot.press("down")
        await pilot.press("end", "enter", "x")
        await pilot.pause()
        found.extend(cuts(app))
        status = app.screen.query_one(StatusLine)
        assert "Careful: Game-Turn 1 obligations unmet (AO-4.2h*)" in status.message
        for _ in range(len(status.message_lines)):  # every line of the message, in turn
            shown.extend(line.plain for line in status.lines())
            await pilot.press("right_curly_bracket")
            await pilot.pause()
            found.extend(cuts(app))
        shown.append(status.message)

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert found == []
    message = shown.pop()
    seen = set(" ".join(shown).split())
    assert [w for w in message.split() if w not in seen] == []  # every word read on screen


class TestNewScreens:
    """The screens and dialogs of issue 21 at 80x24: the aids (ZOC overlay, turn record, VP,
    the log), the comment dialog, the check's notice, the palettes of the playback and the
    audit, the computer's own mode."""

    @pytest.mark.parametrize("keys", [["Z"], ["T"], ["T", "end"], ["V"], ["c"], ["ctrl+p"]])
    def test_the_aids(self, keys: list[str]) -> None:
        from tests.kit.recordkit import record_game

        check(play_app(record_game(2)), press(*keys))

    def test_the_comment_dialog(self) -> None:
        from ardennes_tui.screens.comment import CommentDialog

        check(screen_app(lambda: CommentDialog(12, "GT3: the SS go in " * 20)))

    def test_the_notice_while_a_record_is_checked(self) -> None:
        import threading

        from ardennes_tui.screens.loading import LoadingScreen
        from ardennes_tui.screens.playback import PlaybackScreen
        from tests.kit.recordkit import record_game

        release = threading.Event()

        def load() -> rules.ao.Game:
            release.wait(10)
            return record_game()

        async def steps(app: ArdennesApp, pilot: Pilot[None]) -> None:
            assert cuts(app) == []
            release.set()

        check(
            screen_app(
                lambda: LoadingScreen("a-very-long-record-name.jsonl", load, PlaybackScreen)
            ),
            steps,
        )

    def test_the_playback_and_audit_palettes(self, tmp_path: Path) -> None:
        from ardennes_tui.present import audit_view
        from ardennes_tui.screens.audit import AuditScreen
        from ardennes_tui.screens.playback import PlaybackScreen
        from tests.kit.recordkit import packets_file, record_game

        game = record_game()
        check(screen_app(lambda: PlaybackScreen(game, start=7)), press("ctrl+p"))
        view = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
        check(screen_app(lambda: AuditScreen(view)), press("ctrl+p"))
