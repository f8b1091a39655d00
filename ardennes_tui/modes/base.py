"""The play screen's modes: one object per kind of phase, chosen by ``game.options().mode``.

A mode owns what differs from one kind of phase to the next: the view state of the orders
being given (a selected unit, an attack being built, the losses ticked), the lit hexes, the
panel's lines, the status texts (the phase's hint, what the cursor hex would do, a decision's
prompt) and what the play keys do (Enter, Space, Tab, r, a, -/+, w, y/n, the digits). The
screen (:class:`Host`) owns the game and what every mode shares (undo, end of phase, save, the
combat log) and passes the mode's answers down to the widgets.

A mode lives for one state of the game: after every accepted or undone command the screen
makes a new one (:func:`ardennes_tui.modes.mode_for`), so its view state never outlives the
state it was built on. A key a mode does not take raises ``SkipAction`` (Textual then tries
the key's next binding: ``r`` is Road Mode outside combat, resolve in it; ``y``/``n`` and the
digits answer a decision, else move the cursor).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

from rich.text import Text
from textual.actions import SkipAction

import rules.ao
from ardennes_tui.present import game_view, navigation

WAIVE_KEY: Final = "w"


class Host(Protocol):
    """What a mode may ask of the play screen."""

    game: rules.ao.Game
    mode: Mode

    @property
    def cursor(self) -> rules.HexId:
        """The hex under the map's cursor."""
        ...

    def focus_hex(self, hex_id: rules.HexId, *, keep_message: bool = False) -> None:
        """Put the map's cursor on ``hex_id``; ``keep_message``: the message said next stays
        (the cursor's arrival does not replace it with what the hex would do)."""

    def say(self, message: str) -> None:
        """Show ``message`` on the message line."""

    def keep_in_view(self, hexes: Iterable[rules.HexId]) -> None:
        """Scroll the map so that ``hexes`` (an attack's targets, a decision's choices) are
        in view with the cursor."""

    def redraw(self) -> None:
        """The mode's view state changed: pass its highlight, panel and prompt down."""

    def play(self, command: rules.ao.Command) -> rules.ao.Applied | None:
        """Push ``command``; on a refusal say the rule and return None. An accepted command
        makes a new mode (:attr:`mode`) and passes the new state down."""

    def show_verdict(self) -> None:
        """Open the verdict modal (once)."""


class Mode:
    """A kind of phase (the defaults suit one with nothing to choose)."""

    def __init__(self, host: Host, options: rules.ao.Options) -> None:
        self.host = host
        self.options = options
        """``game.options()`` of the state this mode was made for."""
        self.selected: str | None = None
        """The unit selected (movement, set-up) or marked ``>`` (combat)."""

    @property
    def game(self) -> rules.ao.Game:
        return self.host.game

    @property
    def side(self) -> str:
        return self.game.state.side.capitalize()

    # -- what the widgets show --------------------------------------------------------------

    def enter(self) -> None:
        """The mode became current (after a command, an undo, or on opening the game)."""

    def hint(self) -> str:
        """What to do in this phase (the message after an order)."""
        return f"{game_view.PHASE_NAMES[self.game.state.phase]}: e ends the phase"

    def highlight(self) -> frozenset[rules.HexId]:
        """The lit hexes."""
        return frozenset()

    def header(self) -> Text | None:
        """The panel's lines above the hex."""
        return None

    def note(self, unit: str) -> str:
        """A word on ``unit`` before its state in the panel (``attacking``, ``rear``...)."""
        return ""

    def prompt(self) -> str:
        """A pending decision's question (its own status line), else empty."""
        return ""

    def hover(self, hex_id: rules.HexId) -> str | None:
        """The message when the cursor comes to ``hex_id`` (None: keep the message)."""
        return self.hint()

    def end_refusal(self) -> str | None:
        """Why ``e`` is refused at once (the engine's rule), else None."""
        bad = self.options.end_phase
        return bad.message if bad is not None else None

    def selection_hex(self) -> rules.HexId | None:
        """Where the selection is (``C`` centres the view on it): the selected unit's hex."""
        return self.game.state.unit(self.selected).hex if self.selected else None

    # -- jumps ------------------------------------------------------------------------------

    def actors(self) -> list[str]:
        """The units that may act now, which ``.`` and ``,`` go through (none here)."""
        return []

    def next_unit(self, step: int) -> None:
        """``.`` (``step`` 1) / ``,`` (-1): the cursor to the next unit that may act now, in
        the reading order of the map (:func:`ardennes_tui.present.navigation.cycle_unit`), and
        :meth:`act` on it."""
        state = self.game.state
        units = [(u, h) for u in self.actors() if (h := state.unit(u).hex) is not None]
        found = navigation.cycle_unit(units, self.selected, self.host.cursor, step)
        if found is None:
            self.host.say(f"No unit may act now. {self.hint()}")
            return
        unit, hex_id = found
        self.host.focus_hex(hex_id, keep_message=True)
        self.act(unit)

    def act(self, unit: str) -> None:
        """``unit`` was reached by ``.``/``,``: select it (and say what it may do)."""
        self.choose(unit)

    # -- keys -------------------------------------------------------------------------------

    def select(self) -> None:
        """Enter."""
        self.host.say(self.hint())

    def toggle(self) -> None:
        """Space: as Enter unless the mode says otherwise."""
        self.select()

    def cycle(self) -> None:
        """Tab: the next unit of the phasing side in the stack under the cursor."""
        own = game_view.own_units(self.game, self.host.cursor)
        if not own:
            self.host.say(f"No unit of yours in {self.host.cursor}")
            return
        i = own.index(self.selected) + 1 if self.selected in own else 0
        self.choose(own[i % len(own)])

    def choose(self, unit: str | None) -> None:
        """Select ``unit`` (None: deselect) and say what it may do."""
        self.selected = unit
        self.host.redraw()

    def deselect(self) -> None:
        """Escape."""
        if self.selected is not None:
            self.choose(None)
            self.host.say("Deselected")

    def road_mode(self) -> None:
        """r: the selected unit enters or leaves Road Mode where it is (its move)."""
        unit = self.selected
        if unit is None:
            self.host.say("Select a unit first (Enter on it)")
            return
        us = self.game.state.unit(unit)
        step = rules.ao.LEAVE_ROAD_MODE if us.road_mode else rules.ao.ENTER_ROAD_MODE
        if self.host.play(rules.ao.Move(unit, (step,))) is None:
            return
        now = self.game.state.unit(unit)
        verb = "entered" if now.road_mode else "left"
        self.host.say(f"{unit} {verb} Road Mode ({now.mp_spent} MP). Backspace/U undoes")

    def resolve(self) -> None:
        """r in the Combat Phase (elsewhere ``r`` is Road Mode)."""
        raise SkipAction()

    def attack(self) -> None:
        """a."""
        self.host.say("Attacks are declared in the Combat Phase")

    def odds(self, step: int) -> None:
        """- and +."""
        self.host.say("-/+ change the odds of an attack being built (a on an enemy hex)")

    def waive_attackers(self) -> None:
        """w."""
        self.host.say(f"{WAIVE_KEY} waives the attackers' immunity of an attack being built")

    def waive(self, waive: bool) -> None:
        """y/n: only while an immunity decision is pending."""
        raise SkipAction()

    def pick(self, n: int) -> None:
        """1-9, 0: only while a decision is pending."""
        raise SkipAction()

    def confirm(self) -> None:
        """Enter (priority): only while an Ex-losses decision is pending."""
        raise SkipAction()


class SupplyMode(Mode):
    """The Supply Judgment Phase: automatic (AO-12.0), nothing to choose."""

    def hint(self) -> str:
        return (
            "Supply Judgment (AO-12.0): nothing to choose, the supply of every unit is judged "
            "automatically; e ends the phase (units out of supply show in the panel)"
        )


def said_after(host: Host, applied: rules.ao.Applied) -> str:
    """What an order that ended or changed the phase says: the new hint (what the rules did
    by themselves is on the notice line: :func:`ardennes_tui.present.effects.effect_notes`)."""
    return host.mode.hint()
