"""A block of text wrapped to its width on words, never splitting a hex id.

Textual's ``Static`` wraps with Rich, which folds a word longer than what is left of the line:
a path of hex ids at the end of a line of the playback's panel came out as ``3432-3332-33`` /
``33-3234``. :class:`TextBox` wraps with :func:`ardennes_tui.present.wrap.wrap` (on blanks,
else between two hex ids) and is as high as its lines (``height: auto``).
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ardennes_tui.present.wrap import wrap


class TextBox(Widget):
    """``text`` wrapped to the widget's width."""

    DEFAULT_CSS = """
    TextBox {
        height: auto;
    }
    """

    def __init__(self, text: str | Text = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = Text(text) if isinstance(text, str) else text

    @property
    def source(self) -> str:
        """The text before it is wrapped."""
        return self._text.plain

    def update(self, text: str | Text) -> None:
        """Show ``text`` instead."""
        self._text = Text(text) if isinstance(text, str) else text
        self.refresh(layout=True)

    def lines(self, width: int | None = None) -> list[Text]:
        """The lines shown at ``width`` (default: the widget's)."""
        return wrap(self._text, width or self.size.width or 80)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines())
