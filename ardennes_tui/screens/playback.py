"""Playback: a game shown step by step on the map, forwards and backwards.

The screen holds a finished-or-not :class:`rules.ao.Game` (a record watched with ``ardennes
--watch``, the opponent's new orders after an import, a game of the store) and the step shown,
``k`` (0: the start; ``k``: after the ``k``-th command, ``game.state_at(k)``, whose hash is
``game.history[k - 1].hash``). Each step lights the hexes it touched (a move's path, the
attackers and defenders, retreats, advances, placements, the drop) and puts the map's cursor on
the main one; the panel says what happened (:mod:`ardennes_tui.present.playback_text`: every order
and decision, every die with the CRT cell it read and the result). Nothing here changes the game.

Keys: Right/Space/``.`` next step, Left/Backspace/``,`` back, Home/End the first and last,
``]``/``[`` the next/previous phase, PgDn/PgUp ten steps, the map's letters and keypad move the
cursor, ``z`` zooms, ``?`` lists the keys, Escape or ``q`` closes (quits when alone).
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

import rules.ao
from ardennes_tui.games import settings
from ardennes_tui.present import game_view, playback_text
from ardennes_tui.present.game_view import summary_forms
from ardennes_tui.present.render import UnitsByHex, describe_hex
from ardennes_tui.present.wrap import fit_words
from ardennes_tui.screens.map_screen import keep_numbers
from ardennes_tui.screens.palette import PaletteCommand
from ardennes_tui.widgets.map_view import MapView
from ardennes_tui.widgets.text_box import TextBox
from rules.hexgrid import HexId

KEYS_HELP: Final = (
    ("Right Space .", "next step"),
    ("Left Backspace ,", "previous step"),
    ("Home End", "the start / the last step"),
    ("] [", "next / previous phase"),
    ("PgDn PgUp", "ten steps on / back"),
    ("hjkl yubn Up Down", "move the map's cursor (the keypad too)"),
    ("p", "play on by itself / pause (at the pace < >)"),
    ("< >", "slower / faster (slow, normal, fast; kept)"),
    ("z", "zoom: detail / overview"),
    ("#", "hex numbers in the margins: on / off"),
    ("Escape q", "close the playback"),
)

MIN_AUTOPLAY: Final = 0.2
"""Seconds between two steps playing on by themselves at the fastest (``instant`` too)."""

HINT: Final = "<- -> step  Home End  [ ] phase  p play  ? keys  q close"


class PlaybackScreen(Screen[None]):
    """Play ``game`` back from step ``start``; ``title`` says what it is; ``since``: the steps
    after it are new (the opponent's orders just imported); ``alone``: the app's only screen
    (``ardennes --watch``: closing quits)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,full_stop", "step(1)", "next", id="playback.next", priority=True),
        Binding("left,backspace,comma", "step(-1)", "back", id="playback.back", priority=True),
        Binding("home", "first", "start", id="playback.first", priority=True),
        Binding("end", "last", "last", id="playback.last", priority=True),
        Binding("right_square_bracket", "phase(1)", "phase", id="playback.phase_next"),
        Binding("left_square_bracket", "phase(-1)", "phase", id="playback.phase_back"),
        Binding("pagedown", "step(10)", "+10", id="playback.ten_on", priority=True),
        Binding("pageup", "step(-10)", "-10", id="playback.ten_back", priority=True),
        Binding("question_mark", "keys", "keys", id="playback.keys"),
        Binding("p", "autoplay", "play / pause", id="playback.autoplay"),
        Binding("greater_than_sign", "pace(1)", "faster", id="playback.faster"),
        Binding("less_than_sign", "pace(-1)", "slower", id="playback.slower"),
        Binding("escape,q", "close", "close", id="playback.close", priority=True),
    ]

    DEFAULT_CSS = """
    PlaybackScreen #pb-main { height: 1fr; }
    PlaybackScreen MapView { width: 1fr; height: 1fr; }
    PlaybackScreen #pb-panel {
        width: 30; height: 1fr; padding: 0 1;
        border-left: ascii $foreground 30%;
    }
    PlaybackScreen #pb-status {
        height: 2; width: 1fr; text-wrap: nowrap; text-overflow: clip;
    }
    """

    step: var[int] = var(0, init=False)
    """The step shown (0: the start)."""
    units: var[UnitsByHex | None] = var(None, init=False)
    highlight: var[frozenset[HexId]] = var(frozenset(), init=False)

    def __init__(
        self,
        game: rules.ao.Game,
        *,
        start: int = 0,
        title: str = "",
        since: int | None = None,
        alone: bool = False,
        names: playback_text.Names | None = None,
        notes: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self._auto: Timer | None = None
        """The timer of the steps playing on by themselves (``p``), None when paused."""
        self.settings = settings.Settings()
        self.notes = notes or {}
        """Lines to show at a step (by email: the comment of the packet beginning there)."""
        self.names = names
        """Who played each side, as the texts name them (the computer)."""
        self.title_text = title or f"Scenario {game.start.scenario}"
        self.since = since
        self.alone = alone
        self._phases = playback_text.turn_starts(game)
        start = max(0, min(start, self.last))
        self.set_reactive(PlaybackScreen.step, start)
        self.set_reactive(PlaybackScreen.units, playback_text.units_at(game, start))
        self.set_reactive(PlaybackScreen.highlight, playback_text.step_hexes(game, start))

    @property
    def last(self) -> int:
        """The last step (the number of commands)."""
        return len(self.game.history)

    @property
    def shown_state(self) -> rules.ao.GameState:
        """The state on the map: after step :attr:`step`."""
        return self.game.state_at(self.step)

    @property
    def shown_hash(self) -> str:
        """The state hash of the step shown (the record's hash after that command)."""
        if self.step == 0:
            return rules.ao.state_hash(self.game.start)
        return self.game.history[self.step - 1].hash

    def compose(self) -> ComposeResult:
        game_map = self.game.board.game_map
        cursor = playback_text.focus_hex(self.game, self.step) or game_map.towns().get(
            "Bastogne", next(iter(game_map))
        )
        with Horizontal(id="pb-main"):
            yield MapView(game_map, self.units, cursor=cursor).data_bind(
                PlaybackScreen.units, PlaybackScreen.highlight
            )
            with VerticalScroll(id="pb-panel"):
                yield TextBox(id="pb-text")
                yield TextBox(id="pb-hex")
        yield Static("", id="pb-status", markup=False)

    def on_mount(self) -> None:
        view = self.query_one(MapView)
        self.settings = settings.load()
        view.set_reactive(MapView.numbers, self.settings.hex_numbers)
        view.focus()
        self._show()
        self._show_hex(view.cursor)

    @on(MapView.CursorMoved)
    def _cursor_moved(self, message: MapView.CursorMoved) -> None:
        self._show_hex(message.hex_id)

    def _show_hex(self, hex_id: HexId) -> None:
        """Under what happened, the hex under the cursor and its units as they stand at the
        step shown (their state: road, moved, supply...), as in play."""
        state = self.shown_state
        defs = self.game.board.defs
        notes = {
            u.id: game_view.unit_note(u, rules.ao.movement_allowance(defs[u.id], u))
            for u in state.units
            if u.hex == hex_id
        }
        width = self.query_one("#pb-hex", TextBox).size.width or 27
        text = Text("\n")
        text.append(
            describe_hex(self.game.board.game_map, hex_id, self.units, width=width, notes=notes)
        )
        self.query_one("#pb-hex", TextBox).update(text)

    # -- playing on by itself ------------------------------------------------------------------

    def action_autoplay(self) -> None:
        """p: the steps play on by themselves at the pace of the settings (< > change it),
        until the last or p again."""
        if self._auto is not None:
            self._stop("Paused")
            return
        if self.step >= self.last:
            self.go(0)
        seconds = max(self.settings.seconds, MIN_AUTOPLAY)
        self._auto = self.set_interval(seconds, self._auto_step)
        self.notify(f"Playing on, a step every {seconds:g} s (p pauses, < > the pace)", timeout=3)

    def _auto_step(self) -> None:
        if self.step >= self.last:
            self._stop("The last step")
            return
        self.action_step(1)

    def _stop(self, said: str) -> None:
        if self._auto is not None:
            self._auto.stop()
            self._auto = None
        self.notify(said, timeout=2)

    def action_pace(self, step: int) -> None:
        """< >: the pace of the steps playing on by themselves (kept in the settings)."""
        pace = settings.next_pace(self.settings.pace, step)
        self.settings = dataclasses.replace(self.settings, pace=pace)
        settings.save(self.settings)
        seconds = max(self.settings.seconds, MIN_AUTOPLAY)
        if self._auto is not None:
            self._auto.stop()
            self._auto = self.set_interval(seconds, self._auto_step)
        self.notify(f"Pace: {pace}, a step every {seconds:g} s", timeout=3)

    @on(MapView.NumbersToggled)
    def _numbers_toggled(self, message: MapView.NumbersToggled) -> None:
        trouble = keep_numbers(message.numbers)
        if trouble:
            self.notify(trouble, severity="error")

    # -- what is shown -------------------------------------------------------------------------

    def step_text(self) -> list[str]:
        """The panel's lines: what is played back, the step, where the game stands, the hash,
        what happened."""
        k, n = self.step, self.last
        new = ""
        if self.since is not None and k > self.since:
            new = f" (new: {k - self.since} of {n - self.since})"
        return [
            self.title_text,
            f"Step {k} of {n}{new}",
            playback_text.position_line(self.game, k),
            f"state {self.shown_hash[:16]}",
            *self.notes.get(k, ()),
            "",
            *playback_text.step_lines(self.game, k, self.names),
        ]

    def status_text(self, width: int = 80) -> Text:
        """Two lines of ``width``: the step and where the game stands (and what is played
        back, when it fits); the step's headline, shortened on a word when it is longer than
        the line (the panel has it whole)."""
        k, n = self.step, self.last
        text = Text(no_wrap=True, overflow="crop")
        step = f" {k}/{n} "
        forms = summary_forms(playback_text.position_line(self.game, k))
        room = width - len(step) - 2
        position = next((f for f in forms if len(f) <= room), forms[-1])
        text.append(step, "reverse")
        text.append(f" {position} ", "bold")
        title = f"| {self.title_text}"
        if len(step) + len(position) + 2 + len(title) <= width:
            text.append(title)
        text.append("\n")
        headline = f" {playback_text.headline(self.game, k, self.names)}" if k else f" {HINT}"
        text.append(fit_words(headline, width))
        return text

    def _show(self) -> None:
        self.query_one("#pb-text", TextBox).update("\n".join(self.step_text()))
        self.query_one("#pb-panel", VerticalScroll).scroll_home(animate=False)
        status = self.query_one("#pb-status", Static)
        status.update(self.status_text(status.size.width or self.app.size.width))

    def on_resize(self) -> None:
        self.call_after_refresh(self._show)

    def watch_step(self, k: int) -> None:
        self.units = playback_text.units_at(self.game, k)
        if self.is_mounted:
            self.call_after_refresh(self._show_hex, self.query_one(MapView).cursor)
        self.highlight = playback_text.step_hexes(self.game, k)
        focus = playback_text.focus_hex(self.game, k)
        view = self.query_one(MapView)
        if focus is not None:
            view.cursor = focus
        view.keep_in_view(self.highlight)
        self._show()

    # -- the keys ------------------------------------------------------------------------------

    def go(self, k: int) -> None:
        """Show step ``k`` (clamped to the game)."""
        self.step = max(0, min(k, self.last))

    def action_step(self, delta: int) -> None:
        self.go(self.step + delta)

    def action_first(self) -> None:
        self.go(0)

    def action_last(self) -> None:
        self.go(self.last)

    def action_phase(self, direction: int) -> None:
        """The step where the next (previous) phase began."""
        marks = self._phases
        if direction > 0:
            i = bisect.bisect_right(marks, self.step)
            self.go(marks[i] if i < len(marks) else self.last)
        else:
            i = bisect.bisect_left(marks, self.step) - 1
            self.go(marks[i] if i >= 0 else 0)

    def palette_commands(self) -> list[PaletteCommand]:
        """Ctrl+P in a playback: its keys as commands."""
        view = self.query_one(MapView)
        playing = "Pause" if self._auto is not None else "Play on by itself"
        return [
            PaletteCommand("Next step", "Right", lambda: self.action_step(1)),
            PaletteCommand("Previous step", "Left", lambda: self.action_step(-1)),
            PaletteCommand("The start", "Home", self.action_first),
            PaletteCommand("The last step", "End", self.action_last),
            PaletteCommand("Next phase", "]", lambda: self.action_phase(1)),
            PaletteCommand("Previous phase", "[", lambda: self.action_phase(-1)),
            PaletteCommand(playing, "p", self.action_autoplay),
            PaletteCommand("Faster", ">", lambda: self.action_pace(1)),
            PaletteCommand("Slower", "<", lambda: self.action_pace(-1)),
            PaletteCommand("Hex numbers in the margins: on / off", "#", view.action_toggle_numbers),
            PaletteCommand("The playback's keys", "?", self.action_keys),
            PaletteCommand("Close the playback", "q", self.action_close),
        ]

    def action_keys(self) -> None:
        from ardennes_tui.screens.start_dialogs import TextDialog

        rows = [f"{keys:<20} {what}" for keys, what in KEYS_HELP]
        self.app.push_screen(TextDialog("Playback keys", "\n".join(rows)))

    def action_close(self) -> None:
        if self.alone:
            self.app.exit()
        else:
            self.dismiss()
