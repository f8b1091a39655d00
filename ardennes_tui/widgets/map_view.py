"""The map widget: a Line-API ``ScrollView`` over a pre-drawn map picture.

The picture (:mod:`ardennes_tui.present.render`) is drawn once per zoom; ``render_line`` turns one
picture line into a ``Strip`` (cached per zoom and line) and overlays the cursor on the few
lines the cursor hex covers. Moving the cursor refreshes only the old and the new hex's
rectangles, so a keystroke repaints a handful of cells unless the view has to scroll; the view
then turns a page (whole-page panning, no animation; see ``scroll_to_cursor``).

The screen binds ``units`` (the counters) and ``highlight`` (the hexes a selected unit can
reach, an attack's units, a decision's choices) with ``data_bind``; the widget owns only view
state (cursor, zoom) and posts :class:`MapView.CursorMoved` and :class:`MapView.ZoomChanged`
up. The highlight is part of the cached strips: changing it drops and repaints only the lines
of the hexes that entered or left it, and a cursor move over a highlighted map still repaints
two hexes.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import ClassVar, Final, Literal

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ardennes_tui.present.render import Picture, UnitsByHex, draw_detail, draw_overview
from ardennes_tui.present.render.detail import LEFT
from ardennes_tui.present.render.palette import CURSOR, REACH, REACH_MONO, colours_of, rich_style
from ardennes_tui.present.render.picture import PAINTED_BACKGROUND, Line, Span, crop_line
from ardennes_tui.widgets.bindings import bindings
from rules import hexgrid
from rules.ao import GameMap
from rules.hexgrid import HexId

Zoom = Literal["detail", "overview"]
NUMBERS_LINE: Final = 1
"""The detailed picture's line of column numbers (its top margin)."""
ROW_NUMBERS: Final = (LEFT - 3, LEFT)
"""The cells of the detailed picture's left margin that hold the row numbers (``12 ``)."""
RULER_WIDTH: Final = ROW_NUMBERS[1] - ROW_NUMBERS[0]
SHIFT_SLACK: Final = 3
"""Cells between the cursor and the margin after a page turn across: the half hex by which
the rows alternate (a cursor going down a column does not cross the margin back)."""
ROW_SLACK: Final = 0
"""Lines between the cursor and the margin after a page turn up or down."""
"""Cells of the row numbers on the view's left (and the blank corner of the top line)."""
MOVES: dict[str, int] = {name: i for i, name in enumerate(hexgrid.DIRECTIONS)}


def step(game_map: GameMap, hex_id: HexId, move: str) -> HexId | None:
    """The hex one ``move`` away (a direction name, ``up`` or ``down``), None if off the map.

    ``up``/``down`` keep the column: they are NE or NW (SE or SW) depending on the row.
    """
    if move in ("up", "down"):
        col, row = hexgrid.parse(hex_id)
        row += -1 if move == "up" else 1
        if row < 1:
            return None
        target: HexId | None = hexgrid.make(col, row)
    else:
        target = hexgrid.neighbour(hex_id, MOVES[move])
    return target if target is not None and target in game_map else None


def _cursor_segments(text: str, style: Style, base: Style) -> list[Segment]:
    """Cells under the cursor in reverse video; blanks drop their foreground colour (runs
    merge blanks into coloured runs, and a reversed blank shows its foreground)."""
    out: list[Segment] = []
    i = 0
    while i < len(text):
        j = i + 1
        blank = text[i] == " "
        while j < len(text) and (text[j] == " ") == blank:
            j += 1
        out.append(Segment(text[i:j], (base if blank else style) + CURSOR))
        i = j
    return out


class MapView(ScrollView, can_focus=True):
    """Scrollable hex map with a cursor. Give it a map and, optionally, units per hex."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("map")  # type: ignore[assignment]
    ALLOW_SELECT = False
    """No text selection on the map: a click only moves the cursor (a click on the cursor's
    own hex then repaints nothing; selecting text would repaint the whole map)."""

    DEFAULT_CSS = """
    MapView {
        scrollbar-size: 0 0;
    }
    """

    cursor: var[HexId] = var("0101", init=False)
    """The hex under the cursor."""
    zoom: var[Zoom] = var("detail", init=False)
    """``detail`` (hexsides drawn) or ``overview`` (one line per hex row)."""
    units: var[UnitsByHex | None] = var(None, init=False)
    """The counters to draw: hex -> stack, top counter first (bound by the screen)."""
    highlight: var[frozenset[HexId]] = var(frozenset(), init=False)
    """The lit hexes, e.g. where the selected unit can go (bound by the screen)."""
    road: var[frozenset[str]] = var(frozenset(), init=False)
    """The units in Road Mode, marked on the map (bound by the screen)."""
    numbers: var[bool] = var(True, init=False)
    """Hex numbers in the margins of the detailed view: the column numbers on its top line,
    the row numbers on its left, wherever the view is scrolled (``#`` toggles)."""

    class CursorMoved(Message):
        """The cursor moved to ``hex_id``."""

        def __init__(self, hex_id: HexId) -> None:
            super().__init__()
            self.hex_id = hex_id

    class NumbersToggled(Message):
        """The player turned the hex numbers on or off (``#``): ``numbers``."""

        def __init__(self, numbers: bool) -> None:
            super().__init__()
            self.numbers = numbers

    class ZoomChanged(Message):
        """The zoom changed."""

        def __init__(self, zoom: Zoom) -> None:
            super().__init__()
            self.zoom = zoom

    def __init__(
        self,
        game_map: GameMap,
        units: UnitsByHex | None = None,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.game_map = game_map
        self._pictures: dict[Zoom, Picture] = {}
        self._strips: dict[tuple[Zoom, int], Strip] = {}
        self._line_spans: dict[Zoom, dict[int, list[tuple[int, int, HexId]]]] = {}
        start: HexId = cursor if cursor is not None and cursor in game_map else next(iter(game_map))
        self.set_reactive(MapView.cursor, start)
        self.set_reactive(MapView.zoom, zoom)
        self.set_reactive(MapView.units, units)

    # -- the picture --------------------------------------------------------------------------

    @property
    def picture(self) -> Picture:
        """The drawn map for the current zoom (drawn on first use)."""
        pic = self._pictures.get(self.zoom)
        if pic is None:
            if self.zoom == "detail":
                pic = draw_detail(self.game_map, self.units, self.road)
            else:
                pic = draw_overview(self.game_map, self.units)
            self._pictures[self.zoom] = pic
        return pic

    def watch_units(self, old: UnitsByHex | None, new: UnitsByHex | None) -> None:
        """Counters are drawn inside their hex only, so just the lines of hexes whose stack
        changed lose their cached strips, and just those hexes repaint (a move repaints two
        hexes, not the screen: few bytes over SSH)."""
        before, after = old or {}, new or {}
        changed = sorted(
            h
            for h in set(before) | set(after)
            if tuple(before.get(h, ())) != tuple(after.get(h, ()))
        )
        self._redraw_hexes(changed)

    def watch_road(self, old: frozenset[str], new: frozenset[str]) -> None:
        """A unit entered or left Road Mode: its hex is drawn again (its ``r`` mark)."""
        units = old ^ new
        changed = sorted(
            h for h, stack in (self.units or {}).items() if any(u.id in units for u in stack)
        )
        self._redraw_hexes(changed)

    def _redraw_hexes(self, changed: list[HexId]) -> None:
        """The pictures are drawn again; only the lines of ``changed`` lose their strips."""
        old_pictures, self._pictures = self._pictures, {}
        if not changed:
            self._pictures = old_pictures
            return
        keep: dict[tuple[Zoom, int], Strip] = {}
        for (zoom, y), strip in self._strips.items():
            pic = old_pictures.get(zoom)
            if pic is None:
                continue
            if any(s[0] == y for h in changed if h in pic.spans for s in pic.spans[h]):
                continue
            keep[(zoom, y)] = strip
        self._strips = keep
        self._refresh_hexes(changed)

    def watch_highlight(self, old: frozenset[HexId], new: frozenset[HexId]) -> None:
        """Only the lines of hexes that entered or left the highlight are dropped and
        repainted."""
        changed = old ^ new
        if not changed:
            return
        self._strips = {k: v for k, v in self._strips.items() if k[0] == self.zoom}
        pic = self.picture
        lines = {s[0] for h in changed if h in pic.spans for s in pic.spans[h]}
        for y in lines:
            self._strips.pop((self.zoom, y), None)
        self._refresh_hexes(sorted(changed))

    def _refresh_hexes(self, hexes: list[HexId]) -> None:
        """Repaint the rectangles of ``hexes`` that are on screen."""
        if not self.is_attached:
            return
        pic = self.picture
        offset = -self.scroll_offset
        window = self.visible_region()
        self.refresh(
            *(
                r.translate(offset)
                for h in hexes
                if h in pic.spans and (r := self.hex_region(h)).overlaps(window)
            )
        )

    def _reach_spans(self, line_y: int) -> list[tuple[int, int]]:
        """Cells of highlighted hexes on picture line ``line_y``."""
        if not self.highlight:
            return []
        index = self._line_spans.get(self.zoom)
        if index is None:
            index = self._line_spans[self.zoom] = {}
            for h, spans in self.picture.spans.items():
                for y, x0, x1 in spans:
                    index.setdefault(y, []).append((x0, x1, h))
        return [(x0, x1) for x0, x1, h in index.get(line_y, ()) if h in self.highlight]

    def on_mount(self) -> None:
        self._resize_virtual()
        self.call_after_refresh(self.scroll_to_cursor)

    def on_resize(self) -> None:
        self.call_after_refresh(self.scroll_to_cursor)

    def _resize_virtual(self) -> None:
        pic = self.picture
        self.virtual_size = Size(pic.width, pic.height)

    # -- Line API -----------------------------------------------------------------------------

    def _rulers(self) -> tuple[bool, bool]:
        """Whether the view shows the column numbers on its top line, the row numbers on its
        left: when :attr:`numbers` is on and the picture's own margin is scrolled out."""
        if not self.numbers or self.zoom != "detail":
            return False, False
        scroll_x, scroll_y = self.scroll_offset
        return scroll_y > NUMBERS_LINE, scroll_x > ROW_NUMBERS[0]

    def _ruler_strip(self, width: int) -> Strip:
        """The top line: the picture's column numbers under the view, its corner blank."""
        scroll_x = self.scroll_offset.x
        line = crop_line(self.picture.lines[NUMBERS_LINE], scroll_x, scroll_x + width)
        strip = self._make_strip(line, width, None)
        return Strip.join([Strip.blank(RULER_WIDTH, self.rich_style), strip.crop(RULER_WIDTH)])

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        line_y = y + scroll_y
        width = self.size.width
        pic = self.picture
        top, left = self._rulers()
        if top and y == 0:
            return self._ruler_strip(width)
        strip = self._map_line(line_y, scroll_x, width)
        if left and 0 <= line_y < pic.height:
            a, b = ROW_NUMBERS
            numbers = self._make_strip(crop_line(pic.lines[line_y], a, b), b - a, None)
            strip = Strip.join([numbers.crop(0, RULER_WIDTH), strip.crop(RULER_WIDTH)])
        return strip

    def _map_line(self, line_y: int, scroll_x: int, width: int) -> Strip:
        """Line ``line_y`` of the picture as it shows from ``scroll_x`` on."""
        pic = self.picture
        if not 0 <= line_y < pic.height:
            return Strip.blank(width, self.rich_style)
        cursor_span = next((s for s in pic.spans[self.cursor] if s[0] == line_y), None)
        if cursor_span is None:
            key = (self.zoom, line_y)
            strip = self._strips.get(key)
            if strip is None:
                strip = self._strips[key] = self._make_strip(
                    pic.lines[line_y], pic.width, None, self._reach_spans(line_y)
                )
        else:
            strip = self._make_strip(
                pic.lines[line_y], pic.width, cursor_span, self._reach_spans(line_y)
            )
        return strip.crop(scroll_x, scroll_x + width).adjust_cell_length(width, self.rich_style)

    def _make_strip(
        self,
        line: Line,
        width: int,
        cursor: Span | None,
        reach: list[tuple[int, int]] | None = None,
    ) -> Strip:
        base = self.rich_style
        mark = REACH_MONO if self.is_attached and self.app.no_color else REACH
        colours = colours_of(self.app.console.color_system) if self.is_attached else 16
        cuts: set[int] = set()
        for x0, x1 in reach or ():
            cuts.update((x0, x1))
        if cursor is not None:
            cuts.update((cursor[1], cursor[2]))
        segments: list[Segment] = []
        x = 0
        for text, name in line:
            style = base + rich_style(name, colours) if name else base
            end = x + len(text)
            points = sorted({x, end, *(c for c in cuts if x < c < end)})
            for a, b in pairwise(points):
                piece = text[a - x : b - x]
                if cursor is not None and cursor[1] <= a < cursor[2]:
                    segments.extend(_cursor_segments(piece, style, base))
                elif name not in PAINTED_BACKGROUND and any(x0 <= a < x1 for x0, x1 in reach or ()):
                    segments.append(Segment(piece, style + mark))
                else:
                    segments.append(Segment(piece, style))
            x = end
        if x < width:
            segments.append(Segment(" " * (width - x), base))
        return Strip(segments, width).simplify()

    # -- cursor and zoom ----------------------------------------------------------------------

    def hex_region(self, hex_id: HexId) -> Region:
        """The hex's rectangle in picture (virtual) coordinates."""
        return Region(*self.picture.box(hex_id))

    def watch_numbers(self) -> None:
        self.refresh()

    def action_toggle_numbers(self) -> None:
        """``#``: the hex numbers in the margins, on or off (the screen keeps the setting)."""
        self.numbers = not self.numbers
        self.post_message(self.NumbersToggled(self.numbers))

    def keep_in_view(self, hexes: Iterable[HexId]) -> None:
        """Scroll the least so that ``hexes`` (the targets of an attack, a decision's choices,
        the hexes of the computer's last order) are in view with the cursor; when they do
        not all fit, the view centres on them and keeps the cursor in sight."""
        pic = self.picture
        regions = [self.hex_region(h) for h in hexes if h in pic.spans]
        if not regions or not self.is_attached:
            return
        cursor = self.hex_region(self.cursor)
        union = Region.from_union([cursor, *regions])
        window = self.visible_region()
        inner = window.shrink(Spacing(2, 4, 1, 4))
        if inner.width <= 0 or inner.height <= 0 or inner.contains_region(union):
            return
        x, y = self.scroll_offset
        if union.width <= inner.width and union.height <= inner.height:
            if union.right > inner.right:
                x += union.right - inner.right
            elif union.x < inner.x:
                x -= inner.x - union.x
            if union.bottom > inner.bottom:
                y += union.bottom - inner.bottom
            elif union.y < inner.y:
                y -= inner.y - union.y
        else:  # centred on them, the cursor kept in sight
            cx, cy = (int(c) for c in union.center)
            x = min(max(cx - window.width // 2, cursor.right + 4 - window.width), cursor.x - 4)
            y = min(max(cy - window.height // 2, cursor.bottom + 1 - window.height), cursor.y - 2)
        self.scroll_to(max(0, x), max(0, y), animate=False, force=True, immediate=True)

    def scroll_to_cursor(self) -> None:
        """Keep the cursor in view. When a step takes it past the margin, the view turns a
        page: it scrolls so that the cursor stands at the margin it came from, with the whole
        view ahead of it (the fewest repaints of the whole map, each one costing about 4 KB
        over SSH). A cursor that lands out of sight (go-to, a zoom) is centred."""
        region = self.hex_region(self.cursor)
        window = self.scrollable_content_region.at_offset(self.scroll_offset)
        margin = Spacing(2, 6, 2, 6) if self.zoom == "detail" else Spacing(1, 2, 1, 2)
        inner = window.shrink(margin)
        if inner.width <= 0 or inner.height <= 0 or not window.overlaps(region):
            self.scroll_to_region(region, animate=False, center=True, force=True, immediate=True)
            return
        if inner.contains_region(region):
            return
        x, y = self.scroll_offset
        # the page turns so that the cursor stands a little way in from the margin it came
        # from (``slack``): down a column the rows alternate by half a hex, and a cursor left
        # right at the margin crossed it back at the next key (the view went to and fro)
        sx, sy = (SHIFT_SLACK, ROW_SLACK) if self.zoom == "detail" else (1, 1)
        if region.right > inner.right:
            x = region.x - margin.left - sx
        elif region.x < inner.x:
            x = region.right + margin.right + sx - window.width
        if region.bottom > inner.bottom:
            y = region.y - margin.top - sy
        elif region.y < inner.y:
            y = region.bottom + margin.bottom + sy - window.height
        self.scroll_to(max(0, x), max(0, y), animate=False, force=True, immediate=True)

    def watch_cursor(self, old: HexId, new: HexId) -> None:
        # One region for neighbouring hexes: Textual then rewrites each line once.
        a, b = self.hex_region(old), self.hex_region(new)
        both = a.union(b)
        offset = -self.scroll_offset
        if both.area <= 3 * (a.area + b.area):
            self.refresh(both.translate(offset))
        else:
            self.refresh(a.translate(offset), b.translate(offset))
        self.scroll_to_cursor()
        self.post_message(self.CursorMoved(new))

    def center_on(self, hex_id: HexId) -> None:
        """Put the cursor on ``hex_id`` and scroll the view to centre it."""
        self.cursor = hex_id
        region = self.hex_region(hex_id)
        self.scroll_to_region(region, animate=False, center=True, force=True, immediate=True)

    def watch_zoom(self, zoom: Zoom) -> None:
        self._strips.clear()
        self._resize_virtual()
        self.refresh()
        self.call_after_refresh(self.scroll_to_cursor)
        self.post_message(self.ZoomChanged(zoom))

    def action_move(self, move: str) -> None:
        """Move the cursor one hex (``NE E SE SW W NW``, or ``up``/``down`` the column)."""
        target = step(self.game_map, self.cursor, move)
        if target is not None:
            self.cursor = target

    def action_toggle_zoom(self) -> None:
        self.zoom = "overview" if self.zoom == "detail" else "detail"

    def on_click(self, event: events.Click) -> None:
        x, y = event.offset + self.scroll_offset
        hex_id = self.picture.hex_at(x, y)
        if hex_id is not None:
            self.cursor = hex_id

    def visible_region(self) -> Region:
        """The part of the picture on screen, in picture coordinates."""
        return self.scrollable_content_region.at_offset(self.scroll_offset)
