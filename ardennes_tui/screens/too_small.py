"""The "terminal too small" notice of the screens without a map (start, audit, playback,
hand-over, dialogs): the app pushes it over them below 80x24 and takes it away when the
terminal is large enough again, so the screen under it keeps its focus and state. The map
screens hide their map themselves (a screen with ``HIDES_WHEN_SMALL``: the AO's
``map_screen.py``)."""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmallScreen(Screen[None]):
    """``Terminal too small: the app needs at least 80x24.`` and ``q`` to quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "quit", id="too_small.quit"),
    ]

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen Static { width: auto; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static(
            f"Terminal too small: the app needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window, or press q to quit.",
            markup=False,
        )
