"""The play screen: hot-seat play of every phase on the map viewer.

The screen holds the :class:`rules.ao.Game` and the current mode (:mod:`ardennes_tui.modes`, one
per kind of phase, chosen by ``game.options().mode``). After every change it passes the game
and the mode's answers down to the widgets through its reactive attributes (bound with
``data_bind`` in :class:`MapScreen`); the play keys go to the mode. What every mode shares
lives here: the two-key end of phase, undo, the store (the game's record written after every
accepted or undone command, :mod:`ardennes_tui.games.hotseat`), ``s`` (where the game is saved;
``s`` again exports a copy to a file), standing orders (``O``) and the combat log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import BindingType

import rules.ao
from ardennes_tui.games import hotseat, saves, settings
from ardennes_tui.modes import Mode, mode_for
from ardennes_tui.modes.base import said_after
from ardennes_tui.modes.combat import result_message
from ardennes_tui.present import aids, game_view, navigation
from ardennes_tui.present.combat_text import combat_log, orders_text
from ardennes_tui.present.effects import effect_notes, event_log
from ardennes_tui.present.help_text import HelpContext
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.screens.palette import PaletteCommand, help_context, play_commands
from ardennes_tui.screens.play_aids import PlayAids
from ardennes_tui.widgets.bindings import bindings
from ardennes_tui.widgets.map_view import MapView, Zoom
from ardennes_tui.widgets.status_line import StatusLine


class PlayScreen(PlayAids, MapScreen):
    """Select a unit, see where it can go, move it, undo, end the phase; rearrange a free
    set-up; place reinforcements; attack, resolve and answer the combat decisions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings("play"),
        *bindings("decide"),
    ]

    ORDERS_NEVER_ASK: ClassVar[bool] = False
    """The standing orders may not ask (play by email: the engine answers every choice)."""

    def __init__(
        self,
        game: rules.ao.Game,
        *,
        cursor: rules.HexId | None = None,
        zoom: Zoom = "detail",
        loaded: saves.Loaded | None = None,
        save_path: Path | None = None,
        stored: hotseat.StoredGame | None = None,
        handover: bool = False,
    ) -> None:
        super().__init__(
            game.board.game_map, game_view.units_by_hex(game), cursor=cursor, zoom=zoom
        )
        self.game = game
        self.handover = handover
        """Hide the map behind :class:`HandoverScreen` when the phasing side changes (a
        hot-seat game: ``ardennes``; off in the tests that drive both sides)."""
        self.loaded = loaded
        """What ``--load`` or ``--resume`` found (None: a new game)."""
        self.stored = stored
        """Where the game lives in the store (None: nowhere, e.g. in tests)."""
        self.store_trouble: str | None = None
        """Why the last write to the store failed (None: it did not)."""
        self.save_path: Path = (
            save_path
            or (loaded.save_path if loaded is not None else None)
            or saves.default_save_path(game)
        )
        """Where ``s`` ``s`` exports a copy of the game's record (``ardennes --load FILE``
        opens it)."""
        self._saved: str | None = None
        self._confirm_end = False
        self._confirm_export = False
        self._verdict_shown = False
        self._quiet_at: rules.HexId | None = None
        """The hex a jump put the cursor on, whose arrival keeps the jump's message."""
        self._side = game.state.side
        """The phasing side last shown (a change calls for the hand-over screen)."""
        self.settings = settings.load()
        """The player's settings (the computer's pace, phases skipped, hex numbers)."""
        self.zoc_side: rules.ao.Side | None = None
        """The side whose zones of control the map lights instead of the mode's hexes
        (``Z``), None: the overlay is off."""
        self.mode: Mode = self.make_mode(game.options())

    # -- the Host of the modes -----------------------------------------------------------------

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    @property
    def cursor(self) -> rules.HexId:
        return self.map_view.cursor

    def focus_hex(self, hex_id: rules.HexId, *, keep_message: bool = False) -> None:
        if keep_message and hex_id != self.map_view.cursor:
            self._quiet_at = hex_id
        self.map_view.cursor = hex_id

    def say(self, message: str) -> None:
        """Show ``message`` on the message line."""
        self.message = message

    def say_view(self, text: str) -> None:
        self.say(text)

    def keep_in_view(self, hexes: Iterable[rules.HexId]) -> None:
        """Scroll the map so that ``hexes`` are in view with the cursor."""
        self.map_view.keep_in_view(hexes)

    def redraw(self) -> None:
        """Pass the mode's view state down: lit hexes, unit notes, panel lines, the prompt."""
        mode, game = self.mode, self.game
        notes = {
            u.id: game_view.unit_note(
                u, rules.ao.movement_allowance(game.board.defs[u.id], u), mode.note(u.id)
            )
            for u in game.state.units
            if u.hex is not None
        }
        self.notes = notes
        self.selected = mode.selected
        header = mode.header()
        self.summary = game_view.summary(game)
        self.prompt = mode.prompt()
        if self.zoc_side is None:
            self.header = header
            self.highlight = mode.highlight()
            return
        zoc = aids.zoc_hexes(game, self.zoc_side)
        overlay = Text(f"ZOC {self.zoc_side.capitalize()} (Z): {len(zoc)} hexes lit\n", "bold")
        self.header = overlay + header if header is not None else overlay
        self.highlight = zoc

    def play(self, command: rules.ao.Command) -> rules.ao.Applied | None:
        r = self.game.push(command)
        if isinstance(r, rules.Rejection):
            self.say(r.message)
            return None
        self._changed(r.events)
        return r

    def show_verdict(self) -> None:
        if self._verdict_shown:
            return
        self._verdict_shown = True
        self.call_after_refresh(self._push_verdict)

    def _push_verdict(self) -> None:
        from ardennes_tui.screens.combat_log import VerdictScreen

        self.app.push_screen(VerdictScreen(game_view.verdict_text(self.game)))

    def _changed(self, events: Sequence[rules.ao.Event] = ()) -> None:
        """The game changed (a command with its ``events``, an undo): into the store, a new
        mode for the new state, then down; the notice line says what the rules did by
        themselves (:func:`ardennes_tui.present.effects.effect_notes`), until the next
        order."""
        self.notice = " ".join(effect_notes(events))
        self.store()
        self.mode = self.make_mode(self.game.options())
        self.units = game_view.units_by_hex(self.game)
        self.road = game_view.road_mode_units(self.game)
        self.mode.enter()
        self.redraw()
        state = self.game.state
        if self.handover and state.side != self._side and state.phase != "game_over":
            self._hand_over()
        self._side = state.side
        began = any(isinstance(e, rules.ao.PhaseBegan) for e in events)
        if began and self.settings.skip_empty and self.may_skip():
            self.call_after_refresh(self._skip_empty)  # a phase that began with nothing to do

    def _hand_over(self) -> None:
        from ardennes_tui.screens.handover import HandoverScreen

        side = self.game.state.side.capitalize()
        self.app.push_screen(HandoverScreen(side, game_view.summary(self.game)))

    def make_mode(self, options: rules.ao.Options) -> Mode:
        """The mode for the state ``options`` describes (against the computer: its own while
        it acts)."""
        return mode_for(self, options)

    # -- plumbing ------------------------------------------------------------------------------

    def store(self) -> bool:
        """Write the game's record to the store (nothing without one); False when that
        failed: :attr:`store_trouble` says why and a notification tells the players."""
        if self.stored is None:
            return True
        try:
            self.stored.save(self.game)
        except hotseat.SAVE_ERRORS as exc:
            self.store_trouble = f"Not saved in the store: {exc}"
            self.notify(self.store_trouble, severity="error", timeout=10)
            return False
        self.store_trouble = None
        return True

    def on_mount(self) -> None:
        super().on_mount()
        self.store()  # a new game, a loaded file: in the store from the start
        self.road = game_view.road_mode_units(self.game)
        self.mode.enter()  # e.g. a game opened on a decision: the cursor goes to it
        self.redraw()
        opening = (
            self.loaded.opening(self.game)
            if self.loaded is not None
            else f"Dice seed {self.game.dice_spec.label}."
        )
        self.say(f"{opening} {self.mode.hint()}")

    @on(MapView.CursorMoved)
    def _play_cursor_moved(self, message: MapView.CursorMoved) -> None:
        # MapScreen's own handler shows the hex in the panel and the status line.
        self._confirm_export = False
        if self._confirm_end:
            self._confirm_end = False
            self.say("End of phase cancelled")
            return
        if self._quiet_at is not None:
            quiet, self._quiet_at = self._quiet_at == message.hex_id, None
            if quiet:
                return
        text = self.mode.hover(message.hex_id)
        if text is not None:
            self.say(text)

    def _key(self) -> Mode:
        """A play key: it cancels a pending ``e`` (or ``s``); the mode that answers it."""
        self._confirm_end = self._confirm_export = False
        return self.mode

    # -- the keys of the modes -------------------------------------------------------------------

    def action_select(self) -> None:
        """Enter (what it does is the mode's)."""
        self._key().select()

    def action_toggle_one(self) -> None:
        """Space."""
        self._key().toggle()

    def action_cycle(self) -> None:
        """Tab."""
        self._key().cycle()

    def action_road_mode(self) -> None:
        """r outside combat: Road Mode."""
        self._key().road_mode()

    def action_resolve(self) -> None:
        """r in combat: resolve the batch."""
        self._key().resolve()

    def action_attack(self) -> None:
        """a."""
        self._key().attack()

    def action_odds(self, step: int) -> None:
        """- / +."""
        self._key().odds(step)

    def action_waive_attackers(self) -> None:
        """w."""
        self._key().waive_attackers()

    def action_deselect(self) -> None:
        """Escape."""
        self._key().deselect()

    def action_waive(self, waive: bool) -> None:
        """y / n (priority: only while an immunity decision is pending)."""
        self.mode.waive(waive)

    def action_pick(self, n: int) -> None:
        """1-9, 0 (priority: only while a decision is pending)."""
        self.mode.pick(n)

    def action_confirm(self) -> None:
        """Enter (priority: only while an Ex-losses decision is pending)."""
        self.mode.confirm()

    # -- jumps ------------------------------------------------------------------------------------

    def action_next_unit(self, step: int) -> None:
        """. / ,: the next (previous) unit that may act now."""
        self._key().next_unit(step)

    def action_lit(self, step: int) -> None:
        """] / [: the next (previous) lit hex, the nearest first."""
        self._key()
        target = navigation.cycle_hex(self.highlight, self.cursor, step)
        if target is None:
            self.say(f"Nothing is lit now. {self.mode.hint()}")
        elif target == self.cursor:
            self.say(self.mode.hover(target) or self.mode.hint())
        else:
            self.focus_hex(target)

    def selection_hex(self) -> rules.HexId:
        return self.mode.selection_hex() or self.cursor

    def help_context(self) -> HelpContext:
        return help_context(self.game, self.mode)

    def palette_commands(self) -> list[PaletteCommand]:
        """The commands valid now, for the command palette (Ctrl+P)."""
        return play_commands(self)

    # -- the keys every mode shares ---------------------------------------------------------------

    def action_end_phase(self) -> None:
        """e: ask, then (e again) end the phase or accept the set-up."""
        state = self.game.state
        self._confirm_export = False
        if not self._confirm_end:
            bad = self.mode.end_refusal()
            if bad is not None:
                self.say(bad)
                return
            self._confirm_end = True
            what = (
                f"accept the {state.side.capitalize()} set-up"
                if self.mode.options.mode == "setup"
                else f"end the {state.side.capitalize()} {game_view.PHASE_NAMES[state.phase]} Phase"
            )
            warning = self._end_warning()
            self.say(
                f"Press e again to {what}; any other key cancels{'.' if warning else ''}{warning}"
            )
            return
        self.end_phase()

    def _end_warning(self) -> str:
        """What ending the phase would take from the player (the engine's answer to
        ``EndPhase`` on the state as it is, nothing played): the reinforcements that go back
        off the map (AO-6.5G), else ""."""
        r = rules.ao.apply(self.game.board, self.game.state, rules.ao.EndPhase())
        if isinstance(r, rules.Rejection):
            return ""
        lost = [e for e in r.events if isinstance(e, rules.ao.ReinforcementWithdrawn)]
        return "".join(f" Careful: {note}" for note in effect_notes(lost))

    def end_phase(self) -> None:
        """End the phase (or accept the set-up) now: ``e`` ``e``, or the command palette."""
        self._confirm_end = False
        r = self.play(rules.ao.EndPhase())
        if r is not None:
            self.say(said_after(self, r))

    def action_undo(self) -> None:
        """Backspace/U: take back the last order of this phase (never a die roll)."""
        self._key()
        refusal = self.game.undo_refusal()
        cmd = self.game.pop()
        if cmd is None:
            self.say(refusal or "Nothing to undo")
            return
        self._changed()
        state = self.game.state
        if isinstance(cmd, rules.ao.Move):
            self.say(f"Undone: the move of {cmd.unit} (back in {state.unit(cmd.unit).hex})")
        elif isinstance(cmd, rules.ao.Place) and self.mode.options.mode == "setup":
            back = state.unit(cmd.unit).hex
            self.say(f"Undone: the placement of {cmd.unit} (back in {back})")
        elif isinstance(cmd, rules.ao.Place):
            self.say(f"Undone: the placement of {cmd.unit}")
        elif isinstance(cmd, rules.ao.DeclareAttack):
            self.say(f"Undone: the attack on {'+'.join(cmd.defenders)}")
        else:
            self.say(f"Undone: {type(cmd).__name__}")

    def action_save(self) -> None:
        """s: say where the game is saved (the store, after every order); ``s`` again exports
        a copy of its record to :attr:`save_path`."""
        if not self._confirm_export:
            self._key()
            self._confirm_export = True
            if self.stored is None:
                where = "This game is not kept in the store"
            elif not self.store():
                where = str(self.store_trouble)
            else:
                short = self.stored.short
                where = (
                    f"Saved in the store as {short} after every order (ardennes --resume {short})"
                )
            self.say(f"{where}; s again exports a copy to {self.save_path}")
            return
        self._key()
        self.export()

    def export(self) -> None:
        """Write a copy of the game's record to :attr:`save_path`, never over another file
        (:func:`ardennes_tui.games.saves.save_game`)."""
        path = self.save_path
        try:
            self._saved = saves.save_game(self.game, path, self._saved)
        except saves.SaveRefused as exc:
            self.say(f"Cannot save to {path}: {exc}")
            return
        except OSError as exc:
            self.say(f"Cannot save to {path}: {exc.strerror}")
            return
        n = len(self.game.history)
        self.say(f"Saved {n} orders to {path} (ardennes --load {path})")

    def action_combat_log(self) -> None:
        """c: the log of the whole game, its combats and what the rules did, by player-turn
        (a modal)."""
        from ardennes_tui.screens.combat_log import CombatLogScreen

        self._key()
        self.app.push_screen(CombatLogScreen(self.log_lines()))

    def log_lines(self) -> list[str]:
        """The lines of the log (``c``): the whole game's (:func:`event_log`)."""
        return event_log(self.game)

    def action_standing_orders(self) -> None:
        """O: the acting side's standing orders (a modal); given, they go through the game."""
        from ardennes_tui.screens.orders import OrdersScreen

        self._key()
        side = self.game.options().acting
        if side is None:
            self.say("The game is over: no more orders")
            return
        current = self.game.state.combat.orders(side)
        immune = game_view.immune_hexes_held(self.game, side)
        dialog = OrdersScreen(side, immune, current, never_ask=self.ORDERS_NEVER_ASK)
        self.app.push_screen(dialog, self._give_orders)

    def _give_orders(self, command: rules.ao.StandingOrders | None) -> None:
        if command is None:
            self.say("Standing orders unchanged")
            return
        r = self.play(command)
        if r is None:
            return
        side = command.side.capitalize()
        orders = self.game.state.combat.orders(command.side)
        said = (
            f"{side} standing orders: {orders_text(orders)}"
            if orders is not None
            else f"{side} standing orders cleared: every decision is asked"
        )
        more = result_message(r) if combat_log(r.events) else ""
        self.say(f"{said}. {more}" if more else f"{said}.")
