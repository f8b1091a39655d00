"""The address dialog: the opponent's mail address, asked when the send screen's ``m`` has none.

One line of input, checked on Enter by :func:`pbem.addresses.check_address` (one address,
``name@domain``, no spaces, at most 254 characters): a bad one is said in one line under it
and the dialog stays; a good one is returned (the send screen keeps it for the game and mails).
Escape returns None.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pbem.addresses import MAX_ADDRESS, AddressError, check_address


class AddressDialog(ModalScreen[str | None]):
    """Ask for the opponent's address of game ``game_id``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="address.close"),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id
        self.error = ""
        """Why the last address was refused (one line)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="address-box"):
            yield Static(
                f"Your opponent's mail address for game {self.game_id[:8]} (kept for the game)",
                classes="title",
            )
            yield Input(placeholder="name@example.org", max_length=MAX_ADDRESS, id="address")
            yield Static("", id="address-error")
            yield Static("Enter: mail it; Escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            address = check_address(event.value)
        except AddressError as exc:
            self.error = str(exc)
            self.query_one("#address-error", Static).update(self.error)
            return
        self.dismiss(address)

    def action_close(self) -> None:
        self.dismiss(None)
