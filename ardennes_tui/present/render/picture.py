"""A character picture with a style name per cell, and its plain and ANSI renderings.

The map drawers (:mod:`.detail`, :mod:`.overview`) paint a :class:`Canvas`; :meth:`Canvas.freeze`
turns it into a :class:`Picture`: per line, a tuple of runs ``(text, style)`` where ``style`` is
a *style name* from :mod:`.palette` (or ``""`` for none). The picture also knows which cells
belong to which hex (``spans``), which the map widget uses for the cursor, for refreshing only
the cells of a hex, and for mouse clicks. Nothing here knows about Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.hexgrid import HexId

Run = tuple[str, str]
"""A run of characters sharing one style name."""

Line = tuple[Run, ...]

Span = tuple[int, int, int]
"""``(y, x_start, x_end)``: cells ``x_start <= x < x_end`` of line ``y``."""


class Canvas:
    """A mutable grid of characters and style names, filled with blanks."""

    __slots__ = ("chars", "height", "styles", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, char: str, style: str = "") -> None:
        """Set one cell; cells outside the canvas are ignored."""
        if 0 <= y < self.height and 0 <= x < self.width:
            self.chars[y][x] = char
            self.styles[y][x] = style

    def text(self, x: int, y: int, text: str, style: str = "") -> None:
        """Write ``text`` from ``(x, y)`` to the east, one cell per character."""
        for i, ch in enumerate(text):
            self.put(x + i, y, ch, style)

    def freeze(self, spans: dict[HexId, tuple[Span, ...]]) -> Picture:
        lines: list[Line] = []
        for chars, styles in zip(self.chars, self.styles, strict=True):
            # Trailing blanks carry no information: drop them (the widget pads).
            end = len(chars)
            while end and chars[end - 1] == " " and not styles[end - 1]:
                end -= 1
            lines.append(_runs(chars[:end], styles[:end]))
        return Picture(self.width, self.height, tuple(lines), spans)


PAINTED_BACKGROUND: frozenset[str] = frozenset({"bridge", "ford", "german", "allied"})
"""Style names with a background colour: a blank in them is visible, so it is never merged."""


def _runs(chars: Sequence[str], styles: Sequence[str]) -> Line:
    """Runs of equal style; a blank takes the style of the run before it when neither has a
    background (the blank looks the same), so a line has few runs and costs few bytes."""
    out: list[Run] = []
    start = 0
    current = styles[0] if styles else ""
    for i in range(1, len(chars) + 1):
        if i < len(chars):
            style = styles[i]
            if style == current:
                continue
            blank = (
                chars[i] == " "
                and style not in PAINTED_BACKGROUND
                and current not in PAINTED_BACKGROUND
            )
            if blank:
                continue
        out.append(("".join(chars[start:i]), current))
        if i < len(chars):
            start, current = i, styles[i]
    return tuple(out)


@dataclass(frozen=True)
class Picture:
    """A drawn map: ``height`` lines of styled runs, and the cells of each hex."""

    width: int
    height: int
    lines: tuple[Line, ...]
    spans: dict[HexId, tuple[Span, ...]] = field(repr=False)

    def plain_lines(self) -> list[str]:
        """The lines as plain text (no styles, trailing blanks removed)."""
        return ["".join(text for text, _ in line).rstrip() for line in self.lines]

    def box(self, hex_id: HexId) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` of the smallest rectangle holding the hex's cells."""
        spans = self.spans[hex_id]
        x0 = min(s[1] for s in spans)
        x1 = max(s[2] for s in spans)
        y0 = min(s[0] for s in spans)
        y1 = max(s[0] for s in spans)
        return x0, y0, x1 - x0, y1 - y0 + 1

    def hex_at(self, x: int, y: int) -> HexId | None:
        """The hex whose cells include ``(x, y)``, if any (for mouse clicks)."""
        for hex_id, spans in self.spans.items():
            for sy, sx0, sx1 in spans:
                if sy == y and sx0 <= x < sx1:
                    return hex_id
        return None


def crop_line(line: Line, start: int, end: int) -> Line:
    """The runs of ``line`` between cells ``start`` (included) and ``end`` (excluded)."""
    out: list[Run] = []
    x = 0
    for text, style in line:
        a, b = max(start, x), min(end, x + len(text))
        if a < b:
            out.append((text[a - x : b - x], style))
        x += len(text)
    return tuple(out)
