"""The send screen: a sealed packet's armoured text and the ways to send it.

Opened after a packet is sealed and stored (``ardennes --email GAME``), and at the start of
``ardennes --email new`` (the invitation) and ``--email accept FILE`` (the acceptance): the
text scrolls in a read-only area; ``f`` writes it to ``ardennes-GAME-SEQ.txt`` in the current
folder (never over another file), ``c`` copies it to the clipboard with OSC 52
(``App.copy_to_clipboard``, which works over SSH where the terminal allows it), ``m`` mails
it when the config file has an ``[smtp]`` table: to the opponent's address of the game, else
it first asks for one (:class:`ardennes_tui.screens.address.AddressDialog`), which the mailer
keeps for the game. Each says what it did in one line. The packet is in the store whatever
happens here: ``ardennes export GAME`` writes it again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ardennes_tui.games.email_session import save_text

Mailer = Callable[[str, str], str]
"""Mail the text to the address: one line saying what happened."""


class SendScreen(ModalScreen[None]):
    """Packet ``seq`` of game ``game_id`` sealed: ``text`` to send, ``folder`` where ``f``
    writes it, ``mailer`` what ``m`` does (None: no ``[smtp]`` in the config), ``address``
    the opponent's (None: ``m`` asks for it), ``title`` the line above the text (default:
    packet ``seq`` sealed and stored)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "save_file", "save to a file", id="send.file"),
        Binding("c", "copy", "copy to the clipboard", id="send.copy"),
        Binding("m", "mail", "mail it", id="send.mail"),
        Binding("escape,q", "close", "close", id="send.close"),
    ]

    def __init__(
        self,
        game_id: str,
        seq: int,
        text: str,
        *,
        folder: Path | None = None,
        mailer: Mailer | None = None,
        address: str | None = None,
        title: str = "",
    ) -> None:
        super().__init__()
        self.game_id = game_id
        self.seq = seq
        self.text = text
        self.folder = folder if folder is not None else Path.cwd()
        self.mailer = mailer
        self.address = address
        self.heading = title or f"Packet {seq} of game {game_id[:8]} is sealed and stored: send it"
        self.saved: Path | None = None
        self.result = ""
        """What the last action did (one line)."""

    def compose(self) -> ComposeResult:
        mail = "m: mail it; " if self.mailer is not None else ""
        with Vertical(id="send-box"):
            yield Static(self.heading, classes="title")
            area = TextArea(self.text, read_only=True, id="send-text")
            yield area
            yield Static("", id="send-result")
            yield Static(
                f"f: save to a file; c: copy (OSC 52); {mail}Escape: close",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def _say(self, line: str) -> None:
        self.result = line
        self.query_one("#send-result", Static).update(line)

    def action_save_file(self) -> None:
        if self.saved is not None:
            self._say(f"Already saved to {self.saved}")
            return
        try:
            self.saved = save_text(self.text, self.game_id, self.seq, self.folder)
        except OSError as exc:
            self._say(f"Cannot save in {self.folder}: {exc.strerror or exc}")
            return
        self._say(f"Saved to {self.saved}")

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self._say(
            f"Copied {len(self.text)} characters to the clipboard (OSC 52: if your terminal "
            "refuses it, save to a file)"
        )

    def action_mail(self) -> None:
        from ardennes_tui.screens.address import AddressDialog

        if self.mailer is None:
            self._say("No [smtp] table in the config file: save or copy the text instead")
            return
        if self.address is None:
            self.app.push_screen(AddressDialog(self.game_id), self._mail_to)
            return
        self._mail_to(self.address)

    def _mail_to(self, address: str | None) -> None:
        if address is None:
            self._say("Not mailed: no address given (m: try again)")
            return
        assert self.mailer is not None
        self.address = address
        self._say(self.mailer(self.text, address))

    def action_close(self) -> None:
        self.dismiss(None)
