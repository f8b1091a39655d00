"""A scroll bar drawn in ASCII: ``|`` for the track, ``#`` for the thumb, blank when there is
nothing to scroll.

Textual's own bar draws its ends with Unicode block elements and its track with colours only,
so it shows as nothing with ``NO_COLOR``; this one reads with neither (the side panel uses it).
"""

from __future__ import annotations

from math import ceil
from typing import Final

from rich.color import Color
from rich.segment import Segment, Segments
from rich.style import Style
from textual.scrollbar import ScrollBarRender

_BACK: Final = Color.parse("#555555")
_BAR: Final = Color.parse("bright_magenta")


class AsciiScrollBarRender(ScrollBarRender):
    """A vertical or horizontal bar of ``|`` (``-``) with a thumb of ``#``."""

    @classmethod
    def render_bar(
        cls,
        size: int = 25,
        virtual_size: float = 50,
        window_size: float = 20,
        position: float = 0,
        thickness: int = 1,
        vertical: bool = True,
        back_color: Color = _BACK,
        bar_color: Color = _BAR,
    ) -> Segments:
        width = thickness if vertical else 1
        track = ("|" if vertical else "-") * width
        up = Style(color=back_color, meta={"@mouse.down": "scroll_up"})
        down = Style(color=back_color, meta={"@mouse.down": "scroll_down"})
        thumb = Style(color=bar_color, bold=True, meta={"@mouse.down": "grab"})
        if not (window_size and size and virtual_size > window_size):
            return cls._bar([Segment(" " * width, up)] * size, vertical, thickness)
        thumb_size = max(1, ceil(window_size / (virtual_size / size)))
        span = max(1.0, virtual_size - window_size)
        start = min(size - thumb_size, round((size - thumb_size) * position / span))
        segments = [
            Segment(track, up)
            if i < start
            else Segment("#" * width, thumb)
            if i < start + thumb_size
            else Segment(track, down)
            for i in range(size)
        ]
        return cls._bar(segments, vertical, thickness)

    @staticmethod
    def _bar(segments: list[Segment], vertical: bool, thickness: int) -> Segments:
        if vertical:
            return Segments(segments, new_lines=True)
        return Segments([*segments, Segment.line()] * thickness, new_lines=False)
