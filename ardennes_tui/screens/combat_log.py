"""Modal screens of the play screen: the combat log (``c``) and the end-of-game verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ardennes_tui.widgets.text_box import TextBox


class CombatLogScreen(ModalScreen[None]):
    """Every combat of the game so far and what the rules did by themselves, by player-turn,
    newest last (:func:`ardennes_tui.rulesets.ao.present.effects.event_log`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,c", "dismiss", "close", id="log.close"),
    ]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        text = Text()
        for i, line in enumerate(self.lines):
            text.append("\n" if i else "")
            text.append(line, "bold" if line.startswith("== ") else "")
        with VerticalScroll(id="log-box"):
            yield Static("Combat and event log", classes="title")
            yield TextBox(text if self.lines else "Nothing yet", id="log-text")
            yield Static("Up/Down/PgUp/PgDn scroll; escape, q or c closes the log", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#log-box").scroll_end(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class VerdictScreen(ModalScreen[None]):
    """The end of the game: who won, the VP and the rule that decided."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "dismiss", "close", id="verdict.close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="verdict-box"):
            yield Static("The game is over", classes="title")
            yield Static(self.text, id="verdict-text", markup=False)
            yield Static("escape closes this (the map stays), q quits", classes="hint")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
