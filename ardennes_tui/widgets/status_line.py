"""One line at the bottom: the hex under the cursor, the zoom, and the main keys."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.gamemap import GameMap
from rules.hexgrid import HexId


class StatusLine(Static):
    """``0605 clear Bastogne | detail | z zoom  ? help  q quit``."""

    hex_id: reactive[HexId | None] = reactive(None)
    zoom: reactive[str] = reactive("detail")

    def __init__(self, game_map: GameMap, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.game_map = game_map

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.hex_id is not None:
            h = self.game_map.hex(self.hex_id)
            text.append(f" {h.id} ", "reverse")
            text.append(f" {h.terrain}")
            if h.town:
                text.append(f" {h.town}", "bold")
            if h.fortification:
                text.append(f" {h.fortification}")
        text.append(f" | {self.zoom} | ")
        text.append("z", "bold")
        text.append(" zoom  ")
        text.append("?", "bold")
        text.append(" help  ")
        text.append("q", "bold")
        text.append(" quit")
        return text
