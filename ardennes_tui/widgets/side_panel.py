"""The side panel: everything about the hex under the cursor.

Its state comes down from the screen (``data_bind``): the hex, the counters, and in play the
unit notes, the selected unit and the lines of the current mode (the attack being built, a
decision's choices, the units due). A Line-API widget: when the hex changes, only the lines
whose text changed are repainted (the six hexside lines are often the same from one hex to
the next), which keeps a cursor move cheap over SSH.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ardennes_tui.present.render import UnitsByHex, describe_hex
from ardennes_tui.present.wrap import wrap
from rules.ao import GameMap
from rules.hexgrid import HexId


class SidePanel(ScrollView):
    """Shows :func:`ardennes_tui.present.render.describe_hex` for ``hex_id`` (set by the screen)."""

    DEFAULT_CSS = """
    SidePanel {
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    """

    hex_id: var[HexId | None] = var(None)
    """The hex described."""
    units: var[UnitsByHex | None] = var(None, init=False)
    """The counters on the map: hex -> stack."""
    notes: var[Mapping[str, str] | None] = var(None, init=False)
    """Unit id -> status words (play)."""
    selected: var[str | None] = var(None, init=False)
    """The selected unit (play), marked ``>``."""
    header: var[Text | None] = var(None, init=False)
    """Lines shown above the hex (play: the attack being built, a decision's choices, the
    units due)."""

    def __init__(
        self,
        game_map: GameMap,
        units: UnitsByHex | None = None,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.game_map = game_map
        self.set_reactive(SidePanel.units, units)
        self._lines: list[Text] = []
        self.source = ""
        """The panel's text before it is wrapped to the panel's width (tests)."""

    @property
    def text(self) -> str:
        """The panel's text (for tests and screen readers)."""
        return "\n".join(line.plain for line in self._lines)

    def watch_hex_id(self) -> None:
        self._update_lines()

    def watch_units(self) -> None:
        self._update_lines()

    def watch_notes(self) -> None:
        self._update_lines()

    def watch_selected(self) -> None:
        self._update_lines()

    def watch_header(self) -> None:
        self._update_lines()

    def on_resize(self) -> None:
        self._update_lines(force=True)

    def _update_lines(self, force: bool = False) -> None:
        if self.hex_id is None:
            return
        width = max(1, self.scrollable_content_region.width)
        text = describe_hex(
            self.game_map,
            self.hex_id,
            self.units,
            width=width,
            notes=self.notes,
            selected=self.selected,
            header=self.header,
        )
        self.source = text.plain
        new = wrap(text, width)
        old = self._lines
        self._lines = new
        size = Size(width, max(len(new), self.size.height))
        if size != self.virtual_size:
            self.virtual_size = size
        if force:
            self.refresh()
            return
        for y in range(max(len(old), len(new))):
            before = old[y] if y < len(old) else None
            after = new[y] if y < len(new) else None
            if before != after:
                self.refresh_line(y)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        style = self.rich_style
        line_y = y + self.scroll_offset.y
        if not 0 <= line_y < len(self._lines):
            return Strip.blank(width, style)
        line = self._lines[line_y]
        segments = [
            Segment(seg.text, style + seg.style if seg.style else style)
            for seg in line.render(self.app.console)
        ]
        return Strip(segments).adjust_cell_length(width, style).simplify()
