"""Modal screens of the play screen: the combat log (``c``) and the end-of-game verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class CombatLogScreen(ModalScreen[None]):
    """Every combat of the game so far, newest last (``combat_text.combat_log``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,c", "dismiss", "close", id="log.close"),
    ]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="log-box"):
            yield Static("Combat log", classes="title")
            yield Static("\n".join(self.lines) or "No combat yet", id="log-text", markup=False)
            yield Static("escape, q or c closes the log", classes="hint")

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
