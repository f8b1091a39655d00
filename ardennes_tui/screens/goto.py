"""The go-to dialog (``g``): a hex id or a town's name, with completion.

Type ``3412`` (a hex ``CCRR``) or the start of a town's name (``bas``, ``st vith``, ``bull``
for Büllingen: accents, case, spaces and dots do not matter; the map's abbreviations such as
``StVit`` work too). The matching places are listed under the line (:func:`ardennes_tui.
navigation.places`); Up/Down pick one, Tab writes its name into the line, Enter goes to the
one picked (the first by default), Escape goes nowhere. The dialog is dismissed with the hex
(or None); the screen then centres the map on it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ardennes_tui.present.navigation import Place, go_to, places
from rules.ao import GameMap
from rules.hexgrid import HexId


class GotoDialog(ModalScreen[HexId | None]):
    """Where to go: a hex or a town of ``game_map``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="goto.cancel"),
        Binding("down", "pick(1)", "next match", id="goto.down", priority=True),
        Binding("up", "pick(-1)", "previous match", id="goto.up", priority=True),
        Binding("tab", "complete", "complete the name", id="goto.complete", priority=True),
    ]

    DEFAULT_CSS = """
    GotoDialog {
        align: center middle;
    }
    #goto-box {
        width: 56;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: ascii $primary;
        padding: 0 1;
        background: $background;
    }
    #goto-box .title {
        text-style: bold;
    }
    #goto-list {
        height: auto;
        max-height: 8;
    }
    #goto-box .hint {
        color: $foreground 60%;
    }
    """

    def __init__(self, game_map: GameMap) -> None:
        super().__init__()
        self.game_map = game_map
        self.found: list[Place] = []
        """The places matching what is typed, in the list's order."""

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box"):
            yield Static("Go to a hex or a town", classes="title")
            yield Input(placeholder="3412, or a town: bas, st vith ...", id="goto-input")
            yield OptionList(id="goto-list")
            yield Static(
                "Enter goes, Up/Down pick, Tab completes, Esc cancels",
                id="goto-hint",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).display = False
        self.query_one(Input).focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.found = places(self.game_map, event.value)
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(p.label, id=p.hex) for p in self.found])
        options.display = bool(self.found)
        if self.found:
            options.highlighted = 0
        self._hint("Enter goes, Up/Down pick, Tab completes, Esc cancels")

    def _hint(self, text: str) -> None:
        self.query_one("#goto-hint", Static).update(text)

    def picked(self) -> Place | None:
        """The place highlighted in the list (None: no match)."""
        i = self.query_one(OptionList).highlighted
        return self.found[i] if self.found and i is not None else None

    def action_pick(self, step: int) -> None:
        options = self.query_one(OptionList)
        if self.found:
            i = options.highlighted or 0
            options.highlighted = (i + step) % len(self.found)

    def action_complete(self) -> None:
        """Tab: the picked town's name in the line (a hex id stays as typed)."""
        place = self.picked()
        if place is None or place.label[:4] == place.hex:
            return
        line = self.query_one(Input)
        line.value = place.label.rsplit(" (", 1)[0]
        line.cursor_position = len(line.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        place = self.picked()
        if place is None:
            found = go_to(self.game_map, event.value)
            if isinstance(found, str):
                self._hint(found)
                return
            place = found
        self.dismiss(place.hex)

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
