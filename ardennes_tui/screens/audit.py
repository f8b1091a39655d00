"""The audit screen: a whole game checked, and every die it rolled.

For a game by email (of the store, or a file of its packets) or a game record, as ``ardennes
verify`` and ``ardennes audit`` check it (:mod:`ardennes_tui.present.audit_view`): whether the
chain, the dice and every signature verify, with the pinned key fingerprints (the player's own
marked); a table of every roll (packet, Game-Turn, phase, purpose, value, effect, and from which
packet its author, then both players, could have known it); the highlighted roll in full under it;
each player's face counts as a small bar chart with the chi-square and its p-value.

Keys: Up/Down/PgUp/PgDn/Home/End go through the rolls, Enter (or ``p``) plays the game back
from the highlighted roll (:class:`ardennes_tui.screens.playback.PlaybackScreen`), Escape or
``q`` closes (quits when alone: ``ardennes --audit``).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ardennes_tui.present import audit_view
from ardennes_tui.present.audit_view import AuditView
from ardennes_tui.screens.palette import PaletteCommand

HINT = "Up/Down Home/End rolls  Enter replay  m comments  q close  (*: under 30 rolls)"


class AuditScreen(Screen[None]):
    """The audit of one game (``view``); ``alone``: the app's only screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,p", "play_back", "play back", id="audit.play_back"),
        Binding("escape,q", "close", "close", id="audit.close"),
        Binding("m", "comments", "comments", id="audit.comments"),
        Binding("home", "roll(0)", "first roll", id="audit.first", priority=True),
        Binding("end", "roll(-1)", "last roll", id="audit.last", priority=True),
    ]

    DEFAULT_CSS = """
    AuditScreen { padding: 0 1; }
    AuditScreen #au-title { text-style: bold; }
    AuditScreen #au-check { height: auto; }
    AuditScreen #au-check.failed { text-style: reverse; }
    AuditScreen #au-keys { height: auto; color: $foreground 80%; }
    AuditScreen DataTable { height: 1fr; min-height: 4; }
    AuditScreen #au-detail { height: 3; color: $foreground 80%; }
    AuditScreen #au-stats { height: 7; }
    AuditScreen .au-chart { width: 26; }
    AuditScreen #au-hint { height: 1; color: $foreground 60%; }
    """

    def __init__(self, view: AuditView, *, alone: bool = False) -> None:
        super().__init__()
        self.view = view
        self.alone = alone

    def compose(self) -> ComposeResult:
        v = self.view
        yield Static(f"Audit. {v.title}", id="au-title", markup=False)
        check = Static(v.check, id="au-check", markup=False)
        check.set_class(not v.ok, "failed")
        yield check
        yield Static("\n".join([*v.keys, *self.comment_lines()]), id="au-keys", markup=False)
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=False)
        yield table
        yield Static("", id="au-detail", markup=False)
        with Horizontal(id="au-stats"):
            for s in v.stats:
                yield Static("\n".join(audit_view.bar_chart(s)), classes="au-chart", markup=False)
        yield Static(HINT, id="au-hint", markup=False)

    def comment_lines(self) -> list[str]:
        """What the players wrote to each other: the last comment, and how many more ``m``
        lists."""
        said = self.view.comments
        if not said:
            return []
        more = f" (and {len(said) - 1} more: m lists them)" if len(said) > 1 else ""
        return [f"{said[-1]}{more}"]

    def action_comments(self) -> None:
        """m: every comment of the game, in a dialog."""
        from ardennes_tui.screens.start_dialogs import TextDialog

        text = "\n".join(self.view.comments) or "No packet of this game carries a comment."
        self.app.push_screen(TextDialog("What the players wrote", text))

    def on_mount(self) -> None:
        table: DataTable[str] = self.query_one(DataTable)
        table.add_columns(*audit_view.ROLL_COLUMNS)
        for i, r in enumerate(self.view.rolls):
            table.add_row(*audit_view.roll_row(r, self.view.kit), key=str(i))
        if not self.view.rolls:
            self.query_one("#au-detail", Static).update("No die was rolled.")
        table.focus()
        self._detail(0)

    def _detail(self, i: int) -> None:
        if 0 <= i < len(self.view.rolls):
            text = audit_view.roll_detail(self.view.rolls[i], self.view.kit)
            self.query_one("#au-detail", Static).update(Text(text))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.action_play_back()

    @property
    def highlighted(self) -> int:
        """The index of the highlighted roll."""
        return self.query_one(DataTable).cursor_row

    def action_roll(self, index: int) -> None:
        """Home / End: the first / last roll (the table's own Home and End only scroll it
        sideways)."""
        table: DataTable[str] = self.query_one(DataTable)
        if self.view.rolls:
            table.move_cursor(row=index % len(self.view.rolls))

    def palette_commands(self) -> list[PaletteCommand]:
        """Ctrl+P in the audit: its keys as commands."""
        return [
            PaletteCommand("The first roll", "Home", lambda: self.action_roll(0)),
            PaletteCommand("The last roll", "End", lambda: self.action_roll(-1)),
            PaletteCommand("Play the game back from the roll", "Enter", self.action_play_back),
            PaletteCommand("What the players wrote (comments)", "m", self.action_comments),
            PaletteCommand("Close the audit", "q", self.action_close),
        ]

    def action_play_back(self) -> None:
        """Play the game back from just before the highlighted roll's command."""
        from ardennes_tui.screens.playback import PlaybackScreen

        game = self.view.game
        if game is None:
            self.notify("Nothing verified to play back")
            return
        start = 0
        if self.view.rolls:
            start = self.view.rolls[self.highlighted].command + 1
        self.app.push_screen(
            PlaybackScreen(game, start=start, title=self.view.title, notes=self.view.notes)
        )

    def action_close(self) -> None:
        if self.alone:
            self.app.exit()
        else:
            self.dismiss()
