"""The status area at the bottom: the position line, a pending decision and the message area.

In play its first line is always the game position (``summary``) and the hex under the
cursor: no message ever pushes it off. Under it, a pending decision (``prompt``, reverse
video) and the ``message`` (the cost of a move to the cursor hex, a refusal with its rule case,
what just happened), both wrapped on words, never cut. The message area is at least
:data:`MESSAGE_MIN` lines high, so that the map does not change size while the cursor moves
(most messages take one or two lines at 80 columns), and grows up to :data:`MESSAGE_MAX` lines
for a long one (a combat result); a message longer still scrolls (the mouse wheel) and its
last line says how many lines are below. In the viewer it is one line: the hex, the zoom and
the main keys.

Everything comes down from the screen (``data_bind``); the widget sets its own classes
(``play``, ``decide``) from what it shows, and its height is its number of lines.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ardennes_tui.present.game_view import summary_forms
from ardennes_tui.present.wrap import wrap
from rules.ao import GameMap
from rules.hexgrid import HexId

SHORT_FORTS: Final = {"westwall": "WW", "fortified": "fort."}
"""The fortifications as a position line short of room names them."""

MESSAGE_MIN: Final = 2
"""Lines the message area always takes in play."""
MESSAGE_MAX: Final = 6
"""Lines it may grow to; a longer message scrolls."""
NOTICE_MAX: Final = 3
"""Lines of the notice at most (the log, ``c``, has it whole)."""


def ascii_fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells, ending in ``...`` when cut (ASCII: Rich's own
    ellipsis is the Unicode character)."""
    if text.cell_len <= width:
        return text
    text.truncate(max(0, width - 3), overflow="crop")
    text.append("...")
    return text


class StatusLine(Widget):
    """``GT1 16 Dec | German | Combat | VP German 0, Allied 0  2328 clear Bastogne``, then the
    decision and the message (play); ``0605 clear Bastogne | detail | z zoom ...`` (viewer)."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
    }
    """

    hex_id: reactive[HexId | None] = reactive(None)
    zoom: reactive[str] = reactive("detail")
    summary: reactive[str] = reactive("")
    """The game position (play screen), e.g. ``GT1 16 Dec | German | Set-up | VP ...``."""
    message: reactive[str] = reactive("")
    """What happened, a move's cost, a refusal (play): wrapped in the message area."""
    prompt: reactive[str] = reactive("")
    """A pending decision (play): its own reverse-video lines between the position and the
    message, for as long as it is pending."""
    notice: reactive[str] = reactive("")
    """What the rules did by themselves after the last order (play: a reinforcement
    withdrawn, units out of supply...): its own bold lines over the message until the next
    order, so that no message pushes it off."""

    def __init__(self, game_map: GameMap, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game_map = game_map
        self._scroll = 0
        """The first message line shown when the message is longer than the area."""
        self._height = 0
        """The number of lines at the last layout."""

    def watch_summary(self, summary: str) -> None:
        self.set_class(bool(summary), "play")
        self._resize()

    def watch_prompt(self, prompt: str) -> None:
        self.set_class(bool(prompt), "decide")
        self._resize()

    def watch_notice(self) -> None:
        self._resize()

    def watch_message(self) -> None:
        self._scroll = 0
        self._resize()

    def on_resize(self) -> None:
        self._resize()

    def _resize(self) -> None:
        """A new layout only when the number of lines changes (the map then changes size);
        else the text repaints in place (a cursor move's message costs no layout)."""
        if not self.is_attached:
            return
        height = len(self.lines())
        if height != self._height:
            self._height = height
            self.refresh(layout=True)

    @property
    def plain(self) -> str:
        """The text shown, without styles and trailing blank lines (tests)."""
        return "\n".join(line.plain.rstrip() for line in self.lines()).rstrip("\n ")

    @property
    def message_lines(self) -> list[str]:
        """The whole message as wrapped on screen, every line (tests)."""
        return [line.plain for line in self._wrap(self.message, self._width())]

    # -- lines ----------------------------------------------------------------------------------

    def _width(self) -> int:
        return self.size.width or (self.app.size.width if self.is_attached else 80)

    def _wrap(self, text: str, width: int, style: str = "") -> list[Text]:
        if not text:
            return []
        # on words, and between two hex ids of a path: never a hex id split
        return [Text(" ", style=style) + line for line in wrap(Text(text, style=style), width - 1)]

    def _hex(self, text: Text, short: bool = False) -> None:
        if self.hex_id is None:
            return
        h = self.game_map.hex(self.hex_id)
        text.append(f" {h.id} ", "reverse")
        text.append(f" {h.terrain}")
        if h.town:
            text.append(f" {h.town}", "bold")
        if h.fortification:
            fort = h.fortification
            text.append(f" {SHORT_FORTS.get(fort, fort) if short else fort}")

    def _first_line(self, width: int) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        if self.summary:
            # the longest form that fits: the position and the hex whole, never "rou..."
            forms = [(s, False) for s in summary_forms(self.summary)]
            forms.append((forms[-1][0], True))
            for form, short in forms:
                text = Text(no_wrap=True, overflow="crop")
                text.append(f" {form} ", "bold")
                self._hex(text, short)
                if text.cell_len <= width:
                    break
        else:
            self._hex(text)
            text.append(f" | {self.zoom} | ")
            for key, what in (("z", " zoom  "), ("?", " help  "), ("q", " quit")):
                text.append(key, "bold")
                text.append(what)
        return ascii_fit(text, width)

    def lines(self, width: int | None = None) -> list[Text]:
        """Every line shown at ``width`` (default: the widget's), top to bottom."""
        width = width or self._width()
        first = self._first_line(width)
        if not self.summary:
            return [first]
        prompt = self._wrap(self.prompt, width, "reverse")
        notice = self._wrap(self.notice, width, "bold")
        if len(notice) > NOTICE_MAX:
            hidden = len(notice) - NOTICE_MAX + 1
            notice = notice[: NOTICE_MAX - 1]
            notice.append(ascii_fit(Text(f" [{hidden} more lines: c, the log]", "dim"), width))
        message = self._wrap(self.message, width) or [Text(" ? help")]
        if len(message) > MESSAGE_MAX:
            top = min(self._scroll, len(message) - MESSAGE_MAX + 1)
            shown = message[top : top + MESSAGE_MAX - 1]
            below = len(message) - top - len(shown)
            more = (
                f" [{below} more lines: }} or the mouse wheel scrolls; c: the combat log]"
                if below
                else " [end: { or the mouse wheel scrolls back]"
            )
            shown.append(ascii_fit(Text(more, style="dim", no_wrap=True), width))
            message = shown
        message += [Text("")] * (MESSAGE_MIN - len(message))
        return [first, *prompt, *notice, *message]

    # -- Textual ------------------------------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines())

    def scroll_message(self, step: int) -> None:
        """Show the message ``step`` lines further down (up when negative), if it is longer
        than the area."""
        self._scroll_by(step)

    def _scroll_by(self, step: int) -> None:
        n = len(self._wrap(self.message, self._width()))
        if n <= MESSAGE_MAX:
            return
        new = max(0, min(self._scroll + step, n - MESSAGE_MAX + 1))
        if new != self._scroll:
            self._scroll = new
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll_by(1)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll_by(-1)
