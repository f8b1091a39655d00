"""The status line at the bottom: the hex under the cursor, the zoom, and the main keys.

In play it has two lines: the game position (``summary``) and the hex, then a ``message``
(the cost of a move to the cursor hex, a refusal with its rule case, what just happened); a
message too long for one line takes both until the next one. A pending decision adds a
third line (``prompt``). Everything comes down from the screen (``data_bind``); the widget
sets its own classes (``play``: two lines, ``decide``: three) from what it shows.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules import GameMap
from rules.hexgrid import HexId


def _fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` cells (an ellipsis marks the cut)."""
    return line if len(line) <= width else line[: max(0, width - 3)] + "..."


class StatusLine(Static):
    """``0605 clear Bastogne | detail | z zoom  ? help  q quit``."""

    hex_id: reactive[HexId | None] = reactive(None)
    zoom: reactive[str] = reactive("detail")
    summary: reactive[str] = reactive("")
    """The game position (play screen), e.g. ``GT1 16 Dec · German · Set-up · VP 0-0``."""
    message: reactive[str] = reactive("")
    """The second line in play: move preview, refusal or what happened."""
    prompt: reactive[str] = reactive("")
    """A pending decision (play): shown on its own line, between the position and the
    message, for as long as it is pending (the screen gives the status a third line)."""

    def watch_summary(self, summary: str) -> None:
        self.set_class(bool(summary), "play")

    def watch_prompt(self, prompt: str) -> None:
        self.set_class(bool(prompt), "decide")

    def __init__(self, game_map: GameMap, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.game_map = game_map

    @property
    def plain(self) -> str:
        """The status text without styles (tests)."""
        return self.render().plain

    def _hex(self, text: Text) -> None:
        if self.hex_id is None:
            return
        h = self.game_map.hex(self.hex_id)
        text.append(f" {h.id} ", "reverse")
        text.append(f" {h.terrain}")
        if h.town:
            text.append(f" {h.town}", "bold")
        if h.fortification:
            text.append(f" {h.fortification}")

    def render(self) -> Text:
        if self.summary and self.prompt:
            width = self.size.width or 80
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f" {self.summary} ", "bold")
            self._hex(text)
            text.truncate(width, overflow="ellipsis")
            text.append("\n")
            text.append(_fit(f" {self.prompt}", width), "reverse")
            text.append("\n")
            text.append(_fit(f" {self.message}", width))
            return text
        if self.summary and len(self.message) + 1 > self.size.width > 0:
            # A long message (a refusal with its reason) takes both lines for a moment.
            return Text(f" {self.message}", overflow="ellipsis")
        if self.summary:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f" {self.summary} ", "bold")
            self._hex(text)
            text.append("\n")
            text.append(f" {self.message}" if self.message else " ? help")
            return text
        text = Text(no_wrap=True, overflow="ellipsis")
        self._hex(text)
        text.append(f" | {self.zoom} | ")
        text.append("z", "bold")
        text.append(" zoom  ")
        text.append("?", "bold")
        text.append(" help  ")
        text.append("q", "bold")
        text.append(" quit")
        return text
