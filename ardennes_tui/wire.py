"""What reaches the terminal: only the cells that changed, in short escape sequences.

Over SSH every byte counts (issue 11: a cursor key at most 1 KB on average). Textual (8.2)
repaints a changed region from the start of the widget's chop of each line - a one-hex change
at column 60 of the map rewrote the map's row from column 1 - it rewrites lines whose text did
not change (a status line updated with the same text), and it closes every styled run with a
reset (``ESC[0m``). :func:`install` replaces the two methods that turn the compositor's
updates into terminal output:

* ``LayoutUpdate.render_segments`` (a repaint of the whole screen: start, resize, another
  screen) and ``ChopsUpdate.render_segments`` (a partial update) both compare the cells they
  are given with a :class:`Shadow` of the terminal and write only the runs that differ (two
  runs at most :data:`GAP` cells apart are joined: a cursor move costs about as much);
* each change of style is the shortest SGR sequence from the style before (:func:`transition`),
  the style carried across cursor moves and reset once at the end; a blank cell is written in
  whatever style looks the same on it (:func:`_blank_look`).

This is what curses does. The shadow is exact as long as every cell reaches the terminal
through these two methods, which is how Textual draws; it is forgotten when the screen size
changes and on every resize event (a terminal that changes size may move or clear what it
shows: tmux keeps the bottom rows of a shorter pane), and when the app resumes after a
suspend (:func:`forget`, called by the app). A span the shadow cannot follow (a wide
character, a control segment, a hyperlink) is written as Textual writes it and the shadow
forgets those cells.

The patch is applied only to the Textual versions it was checked against (:data:`CHECKED`);
on another version the app runs on Textual's own methods, and ``tests/tui/test_wire.py``
fails so the patch is checked again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import textual
from rich.color import ColorSystem
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.strip import Strip

CHECKED: Final = frozenset({"8.2.8"})
"""Textual versions whose ``ChopsUpdate`` and ``LayoutUpdate`` this module was read against."""

GAP: Final = 6
"""Unchanged cells between two changed runs rewritten rather than skipped with a cursor move
(``ESC[y;xH`` costs 6-8 bytes)."""

Cell = tuple[str, str]
"""One terminal cell: its character and its SGR parameters (``""``: the default style)."""

_ORIGINAL_CHOPS: Final = ChopsUpdate.render_segments
_ORIGINAL_LAYOUT: Final = LayoutUpdate.render_segments


def _sgr(style: Style | None, color_system: ColorSystem) -> str:
    """The SGR parameters of ``style`` after a reset: Textual's, without the default colours."""
    if style is None:
        return ""
    ansi = style._ansi
    if ansi is None:
        ansi = Strip.render_ansi(style, color_system)
    cached = _SGR_CACHE.get(ansi)
    if cached is None:
        codes = ansi.split(";") if ansi else []
        kept: list[str] = []
        i = 0
        while i < len(codes):
            code = codes[i]
            if code in ("38", "48") and i + 1 < len(codes):
                n = 3 if codes[i + 1] == "5" else 5
                kept.extend(codes[i : i + n])
                i += n
                continue
            if code not in ("0", "39", "49"):
                kept.append(code)
            i += 1
        cached = _SGR_CACHE[ansi] = ";".join(kept)
    return cached


_SGR_CACHE: dict[str, str] = {}


def _cells(strip: Strip, color_system: ColorSystem) -> list[Cell] | None:
    """The strip cell by cell, or None when it holds anything but one-cell characters."""
    out: list[Cell] = []
    for segment in strip:
        text, style, control = segment
        if control or (style is not None and style._link):
            return None
        if not text.isascii() and Segment(text).cell_length != len(text):
            return None
        sgr = _sgr(style, color_system)
        out.extend((ch, sgr) for ch in text)
    return out


def _seen(cell: Cell) -> Cell:
    """What the eye sees of a cell: a space's style only as far as it shows
    (:func:`_blank_look`). The shadow holds and compares these."""
    if cell[0] == " ":
        look = _blank_look(cell[1])
        if look is not None:
            return (" ", look)
    return cell


_VISIBLE_ON_BLANK: Final = frozenset({"4", "8", "9", "21", "53"})
"""Attributes that show on a space: underline, conceal, strike, overline (reverse apart)."""


def _blank_look(sgr: str) -> str | None:
    """What a space looks like in style ``sgr``, as the SGR parameters that matter to it: the
    background and what is drawn across the cell (the foreground and bold do not show). None
    when reversed: the foreground is then the space's colour."""
    if sgr in _BLANK:
        return _BLANK[sgr]
    attrs, _, bg = _parse(sgr)
    look = (
        None if "7" in attrs else ";".join([*sorted(attrs & _VISIBLE_ON_BLANK), *[bg] * bool(bg)])
    )
    _BLANK[sgr] = look
    return look


_BLANK: dict[str, str | None] = {}


_OFF: Final = {
    "1": "22",
    "2": "22",
    "3": "23",
    "4": "24",
    "5": "25",
    "7": "27",
    "8": "28",
    "9": "29",
}
"""The SGR code that turns an attribute off (22 turns off both bold and faint)."""

SgrState = tuple[frozenset[str], str, str]
"""Attributes on, foreground and background parameters (``""``: the default)."""


def _parse(sgr: str) -> SgrState:
    codes = sgr.split(";") if sgr else []
    attrs: set[str] = set()
    fg = bg = ""
    i = 0
    while i < len(codes):
        code = codes[i]
        if code in ("38", "48") and i + 1 < len(codes):
            n = 3 if codes[i + 1] == "5" else 5
            if code == "38":
                fg = ";".join(codes[i : i + n])
            else:
                bg = ";".join(codes[i : i + n])
            i += n
            continue
        if code.isdigit() and (30 <= int(code) <= 37 or 90 <= int(code) <= 97):
            fg = code
        elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
            bg = code
        else:
            attrs.add(code)
        i += 1
    return frozenset(attrs), fg, bg


_TRANSITIONS: dict[tuple[str, str], str] = {}


def transition(old: str, new: str) -> str:
    """The shortest of: a reset then ``new``, or the codes that turn ``old`` into ``new``."""
    key = (old, new)
    found = _TRANSITIONS.get(key)
    if found is not None:
        return found
    reset = f"\x1b[0;{new}m" if new else "\x1b[0m"
    (a_attrs, a_fg, a_bg), (b_attrs, b_fg, b_bg) = _parse(old), _parse(new)
    codes: list[str] = []
    off = a_attrs - b_attrs
    if not off <= set(_OFF):
        found = reset
    else:
        turned_off = {_OFF[a] for a in off}
        codes.extend(sorted(turned_off))
        # 22 clears bold and faint together: put back the one that stays.
        on = set(b_attrs - a_attrs)
        if "22" in turned_off:
            on |= b_attrs & {"1", "2"}
        codes.extend(sorted(on))
        if a_fg != b_fg:
            codes.append(b_fg or "39")
        if a_bg != b_bg:
            codes.append(b_bg or "49")
        diff = f"\x1b[{';'.join(codes)}m" if codes else ""
        found = diff if len(diff) <= len(reset) else reset
    _TRANSITIONS[key] = found
    return found


class _Writer:
    """Terminal output of one update: cursor moves and cells, the SGR state carried from one
    run to the next (a cursor move does not change it) and reset once at the end."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.current = ""

    def raw(self, text: str) -> None:
        """Textual's own rendering of a strip: it starts from and returns to the default style."""
        self.reset()
        self.parts.append(text)

    def run(self, y: int, x: int, cells: Iterable[Cell]) -> None:
        """A cursor move to ``(x, y)`` and ``cells``, each change of style as the shortest SGR
        sequence from the one before; a blank cell in the current style when that looks the
        same (:func:`_blank_look`)."""
        parts = self.parts
        parts.append(Control.move_to(x, y).segment.text)
        current = self.current
        for ch, sgr in cells:
            if sgr != current and not (
                ch == " "
                and (look := _blank_look(sgr)) is not None
                and look == _blank_look(current)
            ):
                parts.append(transition(current, sgr))
                current = sgr
            parts.append(ch)
        self.current = current

    def reset(self) -> None:
        if self.current:
            self.parts.append("\x1b[0m")
            self.current = ""

    def text(self) -> str:
        self.reset()
        return "".join(self.parts)


class Shadow:
    """What the terminal shows, cell by cell (None: not known)."""

    def __init__(self) -> None:
        self.size: tuple[int, int] = (0, 0)
        self.rows: dict[int, list[Cell | None]] = {}

    def fit(self, console: Console) -> None:
        """Forget everything when the terminal's size changed."""
        size = (console.width, console.height)
        if size != self.size:
            self.size = size
            self.rows = {}

    def row(self, y: int) -> list[Cell | None]:
        row = self.rows.get(y)
        if row is None:
            row = self.rows[y] = [None] * self.size[0]
        return row

    def record(self, y: int, x: int, cells: list[Cell] | None, width: int) -> None:
        """``width`` cells written at ``(x, y)``: ``cells``, or unknown ones."""
        row = self.row(y)
        end = min(x + width, len(row))
        if x >= end:
            return
        row[x:end] = (
            [_seen(c) for c in cells[: end - x]] if cells is not None else [None] * (end - x)
        )


SHADOW: Final = Shadow()


def _color_system(console: Console) -> ColorSystem:
    return console._color_system or ColorSystem.TRUECOLOR


def layout_render_segments(self: LayoutUpdate, console: Console) -> str:
    """``LayoutUpdate.render_segments`` (a repaint of the whole region): the cells that differ
    from :data:`SHADOW` - all of them after a resize, when the shadow is empty."""
    SHADOW.fit(console)
    color_system = _color_system(console)
    out = _Writer()
    for y, strips in enumerate(self.strips, self.region.y):
        line: dict[int, Cell] = {}
        x = self.region.x
        for strip in strips:
            cells = _cells(strip, color_system)
            if cells is None:
                out.raw(Control.move_to(x, y).segment.text + strip.render(console))
                SHADOW.record(y, x, None, strip.cell_length)
            else:
                line.update(zip(range(x, x + len(cells)), cells, strict=True))
            x += strip.cell_length
        _write_changes(out, y, line)
    return out.text()


def _write_changes(out: _Writer, y: int, line: dict[int, Cell]) -> None:
    """Write the cells of ``line`` (column -> cell) that differ from :data:`SHADOW` as runs,
    two runs at most :data:`GAP` known cells apart written as one; then record them."""
    shown = SHADOW.row(y)
    runs: list[list[int]] = []
    for col in sorted(line):
        if col < len(shown) and shown[col] == _seen(line[col]):
            continue
        last = runs[-1][1] if runs else -GAP - 1
        if col - last <= GAP and all(c in line for c in range(last, col)):
            runs[-1][1] = col + 1
        else:
            runs.append([col, col + 1])
    for start, stop in runs:
        out.run(y, start, [line[c] for c in range(start, stop)])
    for col, cell in line.items():
        if col < len(shown):
            shown[col] = _seen(cell)


def chops_render_segments(self: ChopsUpdate, console: Console) -> str:
    """``ChopsUpdate.render_segments``, writing only the cells that differ from :data:`SHADOW`."""
    SHADOW.fit(console)
    color_system = _color_system(console)
    out = _Writer()
    for y, x1, x2 in self.spans:
        line: dict[int, Cell] = {}  # the span's cells, from every chop it crosses
        for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items(), strict=False):
            if strip is None or x >= x2 or end <= x1:
                continue
            left = max(x, x1)
            right = min(end, x2)
            if left != x or right != end:
                strip = strip.crop(left - x, right - x)
            cells = _cells(strip, color_system)
            if cells is None:
                out.raw(Control.move_to(left, y).segment.text + strip.render(console))
                SHADOW.record(y, left, None, right - left)
                continue
            line.update(zip(range(left, left + len(cells)), cells, strict=True))
        _write_changes(out, y, line)
    return out.text()


def forget() -> None:
    """Forget what the terminal shows (it was cleared: the app resumed after a suspend)."""
    SHADOW.rows = {}


def installed() -> bool:
    """Whether :func:`install` replaced Textual's methods."""
    return ChopsUpdate.render_segments is chops_render_segments


def install() -> bool:
    """Write only changed cells if this Textual is one :data:`CHECKED`; say whether."""
    if textual.__version__ not in CHECKED:
        return False
    ChopsUpdate.render_segments = chops_render_segments  # type: ignore[method-assign]
    LayoutUpdate.render_segments = layout_render_segments  # type: ignore[method-assign]
    return True


def uninstall() -> None:
    """Put Textual's own methods back and forget the shadow (tests)."""
    ChopsUpdate.render_segments = _ORIGINAL_CHOPS  # type: ignore[method-assign]
    LayoutUpdate.render_segments = _ORIGINAL_LAYOUT  # type: ignore[method-assign]
    SHADOW.size = (0, 0)
    forget()
