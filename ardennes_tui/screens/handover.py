"""The hand-over screen of a hot-seat game: when the phasing side changes, the map is hidden
until the next player presses Enter, so that neither player sees the other's screen by
accident (``German player's turn: hand over, press Enter``)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ardennes_tui.screens.palette import PaletteCommand


class HandoverScreen(Screen[None]):
    """A full screen over the map, naming the side whose turn it is; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "dismiss", "go on", id="handover.go"),
        Binding("q", "app.quit", "quit", id="handover.quit"),
    ]

    DEFAULT_CSS = """
    HandoverScreen {
        align: center middle;
    }
    #handover-box {
        width: 76;
        max-width: 100%;
        height: auto;
        border: ascii $foreground;
        padding: 1 2;
    }
    #handover-box .title {
        text-style: bold;
        text-align: center;
    }
    #handover-box .hint {
        margin-top: 1;
        text-align: center;
    }
    """

    def __init__(self, side: str, position: str) -> None:
        super().__init__()
        self.side = side
        """The side that plays now (``German``, ``Allied``)."""
        self.position = position

    @property
    def text(self) -> str:
        """The screen's words (tests)."""
        return f"{self.side} player's turn: hand over, press Enter"

    def compose(self) -> ComposeResult:
        with Vertical(id="handover-box"):
            yield Static(self.text, classes="title", markup=False)
            yield Static(self.position, classes="hint", markup=False)
            yield Static("The map is hidden until Enter; q quits.", classes="hint")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)

    def palette_commands(self) -> list[PaletteCommand]:
        """Ctrl+P here: go on (the map for the side whose turn it is), or quit."""
        return [
            PaletteCommand(f"Hand over: show the map to the {self.side} player", "Enter", self.go),
            PaletteCommand("Quit (the game is in the store)", "q", self.app.exit),
        ]

    def go(self) -> None:
        self.dismiss(None)
