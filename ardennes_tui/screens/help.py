"""The key help screen (``?``), built from :data:`ardennes_tui.keymap.KEYMAP`."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ardennes_tui import keymap


def help_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for keys, description in keymap.help_rows():
        table.add_row(keys, description)
    return table


MAP_KEY = (
    "Hexsides  ~ river  = bridge  : ford  * start line  (/ \\ | none)\n"
    "Hexes     . road  ^ rough  # impassable  W Westwall  F fortified  5 exit\n"
    "Overview  + road  $ exit  w/f fortified  Ba town (2 letters)  % German  @ Allied"
)


class HelpScreen(ModalScreen[None]):
    """Keys and map symbols; any of escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static("Keys", classes="title")
            yield Static(help_table())
            yield Static(MAP_KEY, classes="mapkey")
            yield Static("escape, q or ? closes this help", classes="hint")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
