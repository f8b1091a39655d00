"""The play screen against the computer (``ardennes --vs-bot``, ``b`` on the start screen).

The same screen as hot-seat play (:class:`PlayScreen`: the modes, the keys, the store) for the
player's side. Whenever the computer must act (its player-turn, or a decision of its side in
the player's combat) the bot thinks on a copy of the game in a thread worker
(:func:`ardennes_tui.games.versus.think`), the message line saying what phase it has reached, so the
map stays live; then its orders play out on the map one every :attr:`VersusPlayScreen.PACE`
seconds, each with its hexes lit, the cursor on it and its words on the message line - every
order, decision and die as the playback shows them (:mod:`ardennes_tui.present.playback_text`).
Space or Escape skips to the end of the computer's turn; ``R`` plays its last turn back step
by step (:class:`~ardennes_tui.screens.playback.PlaybackScreen`). While the computer plays,
the order keys do nothing and undo never takes back the computer's orders.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial
from typing import Any, ClassVar, Final

from textual import events, on
from textual.binding import BindingType
from textual.timer import Timer
from textual.worker import Worker, WorkerState, get_current_worker

import rules.ao
from ardennes_tui.games import settings, versus
from ardennes_tui.games.versus import Versus
from ardennes_tui.modes import Mode
from ardennes_tui.modes.computer import ComputerMode
from ardennes_tui.present import game_view, playback_text
from ardennes_tui.present.combat_text import side_name
from ardennes_tui.present.effects import effect_notes
from ardennes_tui.present.playback_text import Names
from ardennes_tui.screens.palette import PaletteCommand
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.bindings import bindings

BLOCKED: Final = frozenset(
    {
        "select",
        "toggle_one",
        "cycle",
        "road_mode",
        "resolve",
        "attack",
        "odds",
        "waive_attackers",
        "deselect",
        "waive",
        "pick",
        "confirm",
        "next_unit",
        "end_phase",
        "undo",
        "standing_orders",
    }
)
"""The play screen's order keys: they do nothing while the computer plays."""


class Cancelled(RuntimeError):
    """The screen went away while the computer was thinking."""


class VersusPlayScreen(PlayScreen):
    """Play ``vs.human``'s side of ``game`` against the computer ``vs``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings("versus"),
        *PlayScreen.BINDINGS,
    ]

    PACE: ClassVar[float | None] = None
    """Seconds between two of the computer's orders on the map, whatever the setting (the
    tests); None: the player's setting (:mod:`ardennes_tui.games.settings`, ``<`` ``>``)."""

    def __init__(self, game: rules.ao.Game, vs: Versus, **kwargs: Any) -> None:
        self.vs = vs  # before the play screen makes its first mode (:meth:`make_mode`)
        super().__init__(game, handover=False, **kwargs)
        self.names: Names = {vs.computer: f"The computer ({side_name(vs.computer)})"}
        """How the texts name the computer's side."""
        self.queue: list[rules.ao.Command] = []
        """The computer's orders thought and not yet played on the map."""
        self.thinking = False
        self.skipping = False
        """Space pressed while the computer thinks: its orders go on the map at once."""
        self.turn_from: int | None = None
        """Where the computer's current turn began (a number of commands)."""
        self.last_turn: tuple[int, int] | None = versus.last_turn(game, vs)
        """The computer's last turn: (first command, end) for ``R`` (a resumed game: found
        in its record)."""
        self._timer: Timer | None = None

    @property
    def busy(self) -> bool:
        """The computer is thinking or playing its orders out."""
        return self.thinking or bool(self.queue)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip":
            return self.busy
        return not (self.busy and action in BLOCKED)

    def on_mount(self, event: events.Mount | None = None) -> None:
        super().on_mount()  # the play screen's (Textual would call it after this one)
        if event is not None:
            event.prevent_default()
        side = self.vs.human.capitalize()
        self.say(f"You play the {side} against the computer ({self.vs.label}). {self.message}")
        self.call_after_refresh(self.next_turn)

    def make_mode(self, options: rules.ao.Options) -> Mode:
        """While the computer acts, its own mode: no prompt with keys, its doings in its
        name."""
        if options.acting == self.vs.computer and options.mode != "game_over":
            return ComputerMode(self, options, self.vs.computer)
        return super().make_mode(options)

    @property
    def seconds(self) -> float:
        """Seconds between two of the computer's orders on the map."""
        return self.PACE if self.PACE is not None else self.settings.seconds

    def _changed(self, events: Sequence[rules.ao.Event] = ()) -> None:
        super()._changed(events)
        if not self.busy:
            self.call_after_refresh(self.next_turn)

    # -- the computer's turn ------------------------------------------------------------------

    def next_turn(self) -> None:
        """Let the computer think when it must act (in a thread worker)."""
        if self.busy or not self.is_attached or not versus.to_act(self.game, self.vs):
            return
        self.thinking = True
        self.skipping = False
        if self.turn_from is None:
            self.turn_from = len(self.game.history)
        self._thinking_said(self.game.state, 0)
        copy = self.game.copy(self.vs.board)
        self.run_worker(
            partial(versus.think, copy, self.vs, self._progress),
            thread=True,
            exclusive=True,
            group="versus",
            exit_on_error=False,
        )

    def _progress(self, state: rules.ao.GameState, n: int) -> None:
        """In the worker: the phase reached, on the message line."""
        if get_current_worker().is_cancelled:
            raise Cancelled("the game was closed")
        try:
            self.app.call_from_thread(self._thinking_said, state, n)
        except RuntimeError as exc:  # the app is closing
            raise Cancelled(str(exc)) from None

    def _thinking_said(self, state: rules.ao.GameState, n: int) -> None:
        where = f"GT{state.turn} {state.side.capitalize()} {game_view.PHASE_NAMES[state.phase]}"
        orders = f", {n} order{'s' if n != 1 else ''}" if n else ""
        self.say(f"The computer is thinking... ({where}{orders}; Space: skip the show)")

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "versus":
            return
        if event.state == WorkerState.SUCCESS:
            self.thinking = False
            self.queue = list(worker.result or [])
            if self.skipping or self.seconds <= 0:
                self.action_skip()
            else:
                self._step()
        elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.thinking = False
            self.turn_from = None
            self.say(f"The computer could not play: {worker.error}")

    def _step(self) -> None:
        """Play the computer's next order on the map, and the next after :attr:`PACE`."""
        self._timer = None
        if not self.queue:
            self._turn_done()
            return
        cmd = self.queue.pop(0)
        if not self._push(cmd):
            return
        self._changed()
        k = len(self.game.history)
        self.highlight = playback_text.step_hexes(self.game, k)
        focus = playback_text.focus_hex(self.game, k)
        if focus is not None:
            self.focus_hex(focus, keep_message=True)
            self.keep_in_view(self.highlight)
        more = " (Space: skip)" if self.queue else ""
        self.say(" ".join(playback_text.step_lines(self.game, k, self.names)) + more)
        if self.queue:
            self._timer = self.set_timer(self.seconds, self._step)
        else:
            self._timer = self.set_timer(self.seconds, self._turn_done)

    def _push(self, cmd: rules.ao.Command) -> bool:
        r = self.game.push(cmd)
        if isinstance(r, rules.Rejection):  # the bot's copy accepted it: never happens
            self.queue.clear()
            self.turn_from = None
            self.say(f"The computer's order was refused: {r.message}")
            return False
        return True

    def _turn_done(self) -> None:
        """The computer's orders are all on the map: say so, and whose move it is."""
        self._timer = None
        if self.busy or self.turn_from is None:
            return
        start, end = self.turn_from, len(self.game.history)
        self.turn_from = None
        n = end - start
        self.notice = " ".join(self.effects_for_you(start, end))
        self.show_last_order(start, end)
        if (
            self.game.state_at(start).side == self.vs.human
            and self.game.state.side == self.vs.human
        ):
            # a decision of the computer's side in the player's Combat Phase: R keeps its turn
            said = playback_text.step_lines(self.game, end, self.names)[0] + "."
        else:
            self.last_turn = (start, end)
            said = f"The computer played {n} order{'s' if n != 1 else ''} (R plays them back)."
        if self.game.state.phase == "game_over":
            self.say(said)
            self.show_verdict()
            return
        self.say(f"{said} Your move: {self.mode.hint()}")

    def show_last_order(self, start: int, end: int) -> None:
        """The cursor on the computer's last order that touched the map (its last attack,
        move or placement), its hexes lit and in view: also after Space skipped the show."""
        for k in range(end, start, -1):
            focus = playback_text.focus_hex(self.game, k)
            if focus is not None:
                self.highlight = playback_text.step_hexes(self.game, k)
                self.focus_hex(focus, keep_message=True)
                self.keep_in_view(self.highlight)
                return

    def effects_for_you(self, start: int, end: int) -> list[str]:
        """What the rules did by themselves during the computer's commands ``start`` to
        ``end`` that concerns you: every effect but the computer's own arrivals, delays and
        supply (:func:`ardennes_tui.present.effects.effect_notes`)."""
        defs = self.game.board.defs
        own = (rules.ao.UnitPlaced, rules.ao.ReinforcementDelayed, rules.ao.SupplyChanged)
        events = [
            e
            for step in self.game.history[start:end]
            for e in step.events
            if not (isinstance(e, own) and defs[e.unit].side == self.vs.computer)
        ]
        return effect_notes(events)

    def action_skip(self) -> None:
        """Space/Escape while the computer plays: every order of its turn on the map at once."""
        if self.thinking:
            self.skipping = True
            self.say("The computer is still thinking: its orders will show at once")
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        while self.queue:
            if not self._push(self.queue.pop(0)):
                return
        self._changed()
        self._turn_done()

    def action_replay(self) -> None:
        """R: the computer's last turn played back step by step."""
        from ardennes_tui.screens.playback import PlaybackScreen

        if self.busy:
            self.say("The computer is playing: Space skips to the end of its turn")
            return
        if self.last_turn is None:
            self.say("The computer has not played yet")
            return
        start, end = self.last_turn
        title = f"The computer's last turn ({end - start} orders)"
        self.app.push_screen(
            PlaybackScreen(self.game, start=start, title=title, since=start, names=self.names)
        )

    def action_pace(self, step: int) -> None:
        """``>`` / ``<``: the computer's orders play out faster / slower (kept in the
        settings: slow, normal, fast, instant)."""
        self.set_pace(settings.next_pace(self.settings.pace, step))

    def set_pace(self, pace: settings.Pace) -> None:
        """The computer's pace, said and kept."""
        self.settings = dataclasses.replace(self.settings, pace=pace)
        trouble = settings.save(self.settings)
        seconds = settings.PACES[pace]
        every = f"an order every {seconds:g} s" if seconds else "its whole turn at once"
        said = f"The computer's pace: {pace} ({every}; < > change it)."
        self.say(f"{said} {trouble}" if trouble else said)

    # -- what changes from hot-seat play ------------------------------------------------------

    def action_undo(self) -> None:
        """Backspace/U: as in hot-seat play, never the computer's orders."""
        why = versus.may_undo(self.game, self.vs)
        if why is not None:
            self._key()
            self.say(why)
            return
        super().action_undo()

    def palette_commands(self) -> list[PaletteCommand]:
        """The view's commands only while the computer plays; the computer's pace."""
        out = super().palette_commands()
        out = [c for c in out if not c.order] if self.busy else out
        for pace in settings.PACES:
            if pace != self.settings.pace:
                title = f"The computer's pace: {pace}"
                out.append(PaletteCommand(title, "< >", partial(self.set_pace, pace)))
        return out
