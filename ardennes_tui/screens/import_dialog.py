"""The import dialog (``i``): your opponent's packets, pasted or from a file.

Paste the armoured text (the whole mail will do) into the area, or type a path (a text file,
an ``.eml``, an mbox or a Maildir) on the line above it, then ``Ctrl+S`` (armoured text pasted
on the path line goes to the area; typed there, it is refused in plain words); with both empty
the config file's ``[mailbox]`` path is read (:func:`pbem.config.load_config`; one line says
so when there is none). Every packet goes
through :meth:`pbem.games.Service.import_text` or ``import_source`` (every check of the
protocol; a refused packet changes nothing) and the report is shown
(:func:`ardennes_tui.present.import_view.report_lines`: a summary, the packets accepted with
their author's comment, the refused ones, the duplicates summed up last); it takes the focus
and scrolls with Up/Down, PgUp/PgDn, Home/End (Tab goes round the fields). Escape closes the
dialog; it returns whether any packet was accepted (the play screen reads the store again
either way).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from ardennes_tui.present.import_view import report_lines
from ardennes_tui.widgets.text_box import TextBox
from pbem import config
from pbem.core.errors import PbemError
from pbem.games import Service

ARMOUR = "-----BEGIN ARDENNES"
"""How an armoured block begins (any case): text pasted on the path line that holds it is the
packet text, not a path."""


class PathInput(Input):
    """The path line: armoured text pasted on it goes to the text area below, whole (an
    :class:`Input` would keep its first line only)."""

    def _on_paste(self, event: events.Paste) -> None:
        if ARMOUR in event.text.upper():
            event.stop()
            event.prevent_default()  # not Input's own handler too (its first line only)
            dialog = self.screen
            if isinstance(dialog, ImportDialog):
                dialog.take_pasted(event.text)
            return


class ImportDialog(ModalScreen[bool]):
    """Import packets into ``service``'s store."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "run_import", "import", id="import.run", priority=True),
        Binding("escape", "close", "close", id="import.close"),
    ]

    def __init__(self, service: Service) -> None:
        super().__init__()
        self.service = service
        self.accepted = 0
        self.report: list[str] = []
        """The last import's lines, as shown (:func:`report_lines`)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="import-box"):
            yield Static("Import your opponent's packets", classes="title")
            yield PathInput(
                placeholder="a file, .eml, mbox or Maildir (or paste below; none: [mailbox])",
                id="path",
            )
            yield TextArea("", id="import-text")
            with VerticalScroll(id="import-report-box", can_focus=True):
                yield TextBox("", id="import-report")
            yield Static(
                "Ctrl+S: import; Tab: next field (the report: Up/Down, PgUp/PgDn, Home/End); "
                "Escape: close",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def _show(self, lines: list[str], room: bool = True) -> None:
        """Show ``lines`` under the text area; ``room``: they are an import's report, which
        takes the room of the area (a notice about the fields leaves the area its height)."""
        self.report = lines
        self.query_one("#import-report", TextBox).update("\n".join(lines))
        self.set_class(room, "reported")
        box = self.query_one("#import-report-box", VerticalScroll)
        box.scroll_home(animate=False)
        box.focus()  # Down, PgDn, End read the rest at once

    def _comment(self, game_id: str, seq: int) -> str:
        """The comment of packet ``seq`` of ``game_id``, as stored ("" when none or unread)."""
        try:
            return dict((s, c) for s, _, c in self.service.comments(game_id)).get(seq, "")
        except (PbemError, OSError):
            return ""

    def take_pasted(self, text: str) -> None:
        """Armoured text pasted on the path line: into the text area, and say so."""
        area = self.query_one(TextArea)
        area.text = text
        area.focus()
        self.query_one(Input).value = ""
        notice = "Armoured text goes in the area below: it is there now. Ctrl+S imports it."
        self._show([notice], room=False)
        area.focus()

    def action_run_import(self) -> None:
        path = self.query_one(Input).value.strip()
        text = self.query_one(TextArea).text
        if ARMOUR in path.upper():
            self._show(
                [
                    "The line above takes a file's path, and it holds armoured text: paste "
                    "the whole text in the area below (Tab), then Ctrl+S."
                ],
                room=False,
            )
            return
        try:
            if path:
                report = self.service.import_source(Path(path).expanduser())
            elif text.strip():
                report = self.service.import_text(text)
            else:
                cfg = config.load_config()
                if cfg.mailbox is None:
                    self._show(
                        [f"Paste the armoured text, or give a file (no [mailbox] in {cfg.path})"]
                    )
                    return
                report = self.service.import_source(cfg.mailbox.path)
        except (PbemError, OSError) as exc:
            self._show([f"Cannot import: {str(exc).splitlines()[0] if str(exc) else exc}"])
            return
        if not report.items:
            self._show(["No armoured packet found"])
            return
        self.accepted += len(report.accepted)
        self._show(report_lines(report, self._comment))

    def action_close(self) -> None:
        self.dismiss(self.accepted > 0)
