"""The comment of the packet being written (``m`` by email): one line to your opponent.

A packet may carry a comment (``ardennes orders --comment``): your opponent reads it when he
imports the packet, in the game's notice line, in the playback and in the audit. The dialog
holds one line, prefilled with the comment so far; Enter keeps it (empty: no comment),
Escape changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pbem.core.packets import MAX_COMMENT


class CommentDialog(ModalScreen[str | None]):
    """The comment of packet ``seq`` (``current``: the one it has)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="comment.close"),
    ]

    def __init__(self, seq: int, current: str = "") -> None:
        super().__init__()
        self.seq = seq
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="address-box"):
            yield Static(
                f"A comment to your opponent in packet {self.seq} (he reads it on import)",
                classes="title",
            )
            yield Input(
                self.current,
                placeholder="one line, e.g. GT3: the SS go in (empty: no comment)",
                max_length=MAX_COMMENT,
                id="comment",
            )
            yield Static(
                f"Enter: keep it (at most {MAX_COMMENT} characters); Escape: cancel",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(" ".join(event.value.split()))

    def action_close(self) -> None:
        self.dismiss(None)
