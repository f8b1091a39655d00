"""SVG snapshots of the app at 80x24 on the real map: the viewer in both zooms, and the play
screen in each of its modes (set-up, a unit selected with its reach lit, the attack builder
with its odds, a pending decision and a retreat with its consequences, a long combat result,
the verdict, the help at its top and at the CRTs, the standing orders dialog), and the new
screens and dialogs of issue 21 (the start screen, the import dialog's words on armoured text
on its path line, playback, the audit, the aids).

Regenerate with ``make snapshots`` (``pytest tests/tui/test_snapshots.py --snapshot-update``)
and look at the report before committing (a change to ``scenarios/ardennes/map.json``, to the
palette or to a message changes them). The app has no blinking cursor (no Input widget) and
every game here has a fixed dice seed, so the snapshots are deterministic.
"""

from __future__ import annotations

from typing import Any

import msgspec
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp, default_cursor
from ardennes_tui.games import saves
from ardennes_tui.present import game_view
from ardennes_tui.widgets.map_view import MapView
from scenarios import load_map
from tests.kit.app import game_of, gt1_german_combat
from tests.kit.engine import end_phase, scenario_gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map
SIZE = (80, 24)


def real_app() -> ArdennesApp:
    game_map = load_map()
    return ArdennesApp(game_map, cursor=default_cursor(game_map))


def play_app(game: rules.ao.Game, cursor: rules.HexId) -> ArdennesApp:
    return ArdennesApp(game.board.game_map, cursor=cursor, game=game)


async def cursor_to(pilot: Pilot[None], hex_id: rules.HexId) -> None:
    pilot.app.screen.query_one(MapView).cursor = hex_id
    await pilot.pause()


def test_detail_zoom_80x24(snap_compare: Any) -> None:
    assert snap_compare(real_app(), terminal_size=SIZE)


def test_overview_zoom_80x24(snap_compare: Any) -> None:
    assert snap_compare(real_app(), terminal_size=SIZE, press=["z"])


class TestSetup:
    """Set-up mode: scenario 10, the Allied free set-up (AO-17.c) with a front-line unit
    selected; the panel gives the constraints, the hexes it may go to are lit."""

    def test_free_setup_unit_selected(self, snap_compare: Any) -> None:
        game = saves.new_game(10, "snap")
        home = game.state.unit("us-422-i").hex
        assert home is not None
        assert snap_compare(play_app(game, home), terminal_size=SIZE, press=["enter"])


class TestMovement:
    """Movement mode: the German GT1 Mechanized Movement Phase with de-130-a selected; its
    reach is lit and the message gives its MP."""

    def test_unit_selected_with_its_reach(self, snap_compare: Any) -> None:
        game = game_of(*scenario_gt1_german_combat(1), seed="snap")
        end_phase(game)
        assert snap_compare(play_app(game, "3627"), terminal_size=SIZE, press=["enter"])


class TestCombat:
    """Combat mode: the German GT1 Combat Phase, an attack on an American unit built with all
    its German neighbours; the panel and the message line show the engine's odds."""

    def test_attack_builder_with_odds(self, snap_compare: Any) -> None:
        game = saves.new_game(1, "snap")
        while game.state.phase != "combat":
            end_phase(game)
        target = game.options().must_be_attacked[0]
        h = game.state.unit(target).hex
        assert h is not None
        m = game.board.game_map
        stacks = sorted({n for n in m.neighbours(h) if game_view.own_units(game, n)})

        async def build(pilot: Pilot[None]) -> None:
            await pilot.press("a")
            for n in stacks:
                await cursor_to(pilot, n)
                await pilot.press("enter")
            await pilot.pause()

        assert snap_compare(play_app(game, h), terminal_size=SIZE, run_before=build)


class TestBatch:
    """The batch of the ten GT1 attacks declared (issue 21, item 9): the panel lists each with
    its odds, and the GT1 obligations say that all are in the batch."""

    def test_the_batch_with_its_odds(self, snap_compare: Any) -> None:
        assert snap_compare(play_app(gt1_german_combat("d"), "2328"), terminal_size=SIZE)


class TestCombatResult:
    """A long combat result: dice ``d``, the German standing orders (no question), ``r``
    resolves the ten attacks of GT1 at once; the message area under the position line shows
    the first results whole, says how many lines are below, and scrolls."""

    def test_long_combat_result(self, snap_compare: Any) -> None:
        game = gt1_german_combat("d")
        assert not isinstance(game.push(rules.ao.StandingOrders(side="german")), rules.Rejection)
        assert snap_compare(play_app(game, "2328"), terminal_size=SIZE, press=["r"])


class TestDecision:
    """Decision mode: dice seed ``d``, the GT1 batch resolved with ``r`` asks the German for
    his Ex losses: the question on its own reverse-video line, the choices in the panel."""

    def test_ex_losses_decision(self, snap_compare: Any) -> None:
        game = gt1_german_combat("d")
        assert snap_compare(play_app(game, "2328"), terminal_size=SIZE, press=["r"])

    def test_retreat_paths_with_their_end_and_supply(self, snap_compare: Any) -> None:
        """Seed ``l``, after the losses and advances: the victor picks a retreat path; the
        panel gives each path's end hex and the supply the unit has there."""
        from tests.kit.app import until

        game = gt1_german_combat("l")
        assert not isinstance(game.push(rules.ao.ResolveAttacks()), rules.Rejection)
        until(game, "retreat")
        assert snap_compare(play_app(game, "2328"), terminal_size=SIZE)


class TestGameOver:
    """Game-over mode: the verdict modal over the map."""

    def test_verdict(self, snap_compare: Any) -> None:
        new = saves.new_game(1, "snap")
        verdict = rules.ao.Verdict(
            winner="german", kind="immediate", german_vp=36, allied_vp=3, reason="36 German VP"
        )
        over = msgspec.structs.replace(new.state, phase="game_over", result=verdict)
        game = rules.ao.Game(new.board, over, dice=new.dice, dice_spec=new.dice_spec)

        async def settle(pilot: Pilot[None]) -> None:
            await pilot.pause()
            await pilot.pause()

        assert snap_compare(play_app(game, "4009"), terminal_size=SIZE, run_before=settle)


class TestHelp:
    """The help (``?``) over the play screen: its top (the counters drawn by the renderer),
    and the CRTs with an attack's odds column lit."""

    def test_help(self, snap_compare: Any) -> None:
        game = saves.new_game(1, "snap")
        assert snap_compare(play_app(game, "4009"), terminal_size=SIZE, press=["question_mark"])

    def test_help_at_the_crts_with_the_attacks_column_lit(self, snap_compare: Any) -> None:
        """An attack being built on GT1: ``?`` opens at the CRTs, its odds column lit."""
        game = saves.new_game(1, "snap")
        while game.state.phase != "combat":
            end_phase(game)
        target = game.options().must_be_attacked[0]
        h = game.state.unit(target).hex
        assert h is not None
        press = ["a", "full_stop", "enter", "question_mark"]
        assert snap_compare(play_app(game, h), terminal_size=SIZE, press=press)


class TestOrders:
    """The standing orders dialog (``O``) of the Allied player at his set-up: the settings, the
    towns he holds (all ticked by ``waive all`` to waive their immunity), what the highlighted
    line means, Give and Clear."""

    def test_orders_dialog(self, snap_compare: Any) -> None:
        game = saves.new_game(1, "snap")
        press = ["O", "down", "down", "down", "enter"]
        assert snap_compare(play_app(game, "4009"), terminal_size=SIZE, press=press)

    def test_orders_asked_for_a_sealed_batch(self, snap_compare: Any) -> None:
        """By email, sealed dice: the dialog opened by itself at the first attack declared
        without standing orders (issue 21, item 1): why, and the orders proposed."""
        from ardennes_tui.screens.orders import PROPOSED, SEALED_WHY, OrdersScreen

        async def ask(pilot: Pilot[None]) -> None:
            dialog = OrdersScreen("german", [], PROPOSED, never_ask=True, why=SEALED_WHY)
            await pilot.app.push_screen(dialog)
            await pilot.pause()

        game = gt1_german_combat("d")
        assert snap_compare(play_app(game, "3432"), terminal_size=SIZE, run_before=ask)


class TestStart:
    """The start screen (``ardennes`` alone): the menu, two games of the store (a game by
    email waiting for the opponent, a hot-seat game), the highlighted game in full."""

    def test_start_screen(self, snap_compare: Any, monkeypatch: Any) -> None:
        from ardennes_tui.present import game_list
        from ardennes_tui.screens.start import StartScreen

        games = [
            {
                "id": "3e18a929dd231ace8532536471e3a18d", "kind": "pbem", "scenario": 1,
                "side": "german", "to_move": "allied", "opponent": "joe@example.org",
                "last_activity": "2026-11-24T07:43:00+00:00", "status": "waiting for the reply",
                "packets": 4, "evidence": 0, "dice": "sealed",
            },
            {
                "id": "a99ed88a0123456789abcdef01234567", "kind": "hot-seat", "scenario": 3,
                "side": "both", "to_move": "GT2 Combat", "opponent": "",
                "last_activity": "2026-11-23T21:05:00+00:00", "status": "", "packets": None,
                "evidence": 0, "dice": "",
            },
        ]  # fmt: skip
        monkeypatch.setattr(game_list, "rows", lambda store: games)
        app = ArdennesApp(load_map(), screen=StartScreen)
        assert snap_compare(app, terminal_size=SIZE)


class TestImport:
    """The import dialog (``i``) over the start screen (an empty store) when armoured text is
    on the path line (issue 21, item 7): typed there, it is refused in plain words; pasted
    there, it goes whole to the text area below and the dialog says so. The text cursors do
    not blink here (the snapshots are deterministic)."""

    MAIL = (
        "Here is my acceptance.\n\n> -----BEGIN ARDENNES PACKET-----\n> "
        + "A" * 64
        + "\n> -----END ARDENNES PACKET-----\n"
    )

    @staticmethod
    async def open_import(pilot: Pilot[None]) -> Any:
        from textual.widgets import Input, TextArea

        from ardennes_tui.screens.import_dialog import ImportDialog

        await pilot.press("i")
        dialog = pilot.app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(Input).cursor_blink = False
        dialog.query_one(TextArea).cursor_blink = False
        return dialog

    def test_armour_typed_on_the_path_line(self, snap_compare: Any) -> None:
        from textual.widgets import Input

        from ardennes_tui.screens.start import StartScreen

        async def typed(pilot: Pilot[None]) -> None:
            dialog = await self.open_import(pilot)
            dialog.query_one(Input).value = "> -----BEGIN ARDENNES PACKET-----"
            await pilot.press("ctrl+s")
            await pilot.pause()

        app = ArdennesApp(load_map(), screen=StartScreen)
        assert snap_compare(app, terminal_size=SIZE, run_before=typed)

    def test_armour_pasted_on_the_path_line(self, snap_compare: Any) -> None:
        from textual import events
        from textual.widgets import Input

        from ardennes_tui.screens.start import StartScreen

        async def pasted(pilot: Pilot[None]) -> None:
            dialog = await self.open_import(pilot)
            path = dialog.query_one(Input)
            path.focus()
            path.post_message(events.Paste(self.MAIL))
            await pilot.pause()
            await pilot.pause()

        app = ArdennesApp(load_map(), screen=StartScreen)
        assert snap_compare(app, terminal_size=SIZE, run_before=pasted)


class TestPlayback:
    """Playback of a self-play record (scenario 1, bots, Game-Turn 1) on its first combat
    resolution: the attackers' and defender's hexes lit, the die with the CRT cell it read."""

    def test_playback_of_a_combat(self, snap_compare: Any) -> None:
        from ardennes_tui.screens.playback import PlaybackScreen
        from tests.kit.recordkit import record_game

        game = record_game()
        k = next(
            k
            for k, s in enumerate(game.history, start=1)
            if any(isinstance(e, rules.ao.CombatResolved) for e in s.events)
        )
        screen = PlaybackScreen(game, start=k, title="Record selfplay.jsonl")
        app = ArdennesApp(game.board.game_map, screen=lambda: screen)
        assert snap_compare(app, terminal_size=SIZE)


class TestAudit:
    """The audit of a sealed game by email (two bots, Game-Turn 1): the check with the pinned
    keys, the rolls, the highlighted roll in full, the face counts and the chi-square."""

    def test_audit_of_a_sealed_game(self, snap_compare: Any, tmp_path: Any) -> None:
        from ardennes_tui.present import audit_view
        from ardennes_tui.screens.audit import AuditScreen
        from tests.kit.recordkit import packets_file

        view = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
        app = ArdennesApp(load_map(), screen=lambda: AuditScreen(view))
        assert snap_compare(app, terminal_size=SIZE, press=["down"])


class TestEffects:
    """What the rules did for the player (issue 21, item 8): de-2-a withdrawn at the end of the
    German GT2 Initial Movement Phase, on the notice line under the position line; then the
    log (``c``) with its player-turn headers."""

    @staticmethod
    async def withdraw(pilot: Pilot[None]) -> None:
        keys = ["full_stop", "enter", "e", "e", "e", "e", "right_square_bracket", "enter", "r"]
        for key in keys:
            await pilot.press(key)
        await cursor_to(pilot, "4215")
        for key in ["enter", "r", "e", "e"]:
            await pilot.press(key)
        await pilot.pause()

    def test_notice_of_a_withdrawn_reinforcement(self, snap_compare: Any) -> None:
        from tests.kit.app import gt2_german_reinforcement

        game = gt2_german_reinforcement()
        app = play_app(game, "4215")
        assert snap_compare(app, terminal_size=SIZE, run_before=self.withdraw)

    def test_the_log_with_its_headers(self, snap_compare: Any) -> None:
        from tests.kit.app import gt2_german_reinforcement

        async def log(pilot: Pilot[None]) -> None:
            await self.withdraw(pilot)
            await pilot.press("c")
            await pilot.pause()

        app = play_app(gt2_german_reinforcement(), "4215")
        assert snap_compare(app, terminal_size=SIZE, run_before=log)


class TestAids:
    """The wargame aids of issue 21, item 15, on the bots' record of scenario 1 at GT3: the
    ZOC overlay (``Z``), the turn record track (``T``), the victory points (``V``), the hand-over
    box with ``q``."""

    @staticmethod
    def game() -> rules.ao.Game:
        from tests.kit.recordkit import record_game

        return record_game(2)

    def test_zoc_overlay(self, snap_compare: Any) -> None:
        assert snap_compare(play_app(self.game(), "2328"), terminal_size=SIZE, press=["Z"])

    def test_turn_record_track(self, snap_compare: Any) -> None:
        assert snap_compare(play_app(self.game(), "2328"), terminal_size=SIZE, press=["T"])

    def test_victory_points(self, snap_compare: Any) -> None:
        assert snap_compare(play_app(self.game(), "2328"), terminal_size=SIZE, press=["V"])

    def test_hand_over(self, snap_compare: Any) -> None:
        from ardennes_tui.screens.handover import HandoverScreen

        summary = game_view.summary(self.game())
        app = ArdennesApp(load_map(), screen=lambda: HandoverScreen("German", summary))
        assert snap_compare(app, terminal_size=SIZE)
