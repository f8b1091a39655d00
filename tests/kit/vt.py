"""A small terminal emulator for the tests of what the app writes (``ardennes_tui/wire.py``):
cursor moves (``CSI y;x H``), SGR (``CSI ... m``), carriage return and line feed, printable
ASCII; every other control sequence is read and ignored, and ``CSI 2 J`` clears the screen.

A cell is kept as what the eye sees: its character and its style as a normalised tuple
``(attributes, foreground, background)``, a space without reverse video keeping only what
shows on it (the background and underline-like attributes)."""

from __future__ import annotations

import re

Style = tuple[frozenset[str], str, str]
DEFAULT: Style = (frozenset(), "", "")
_OFF = {"22": ("1", "2"), "23": ("3",), "24": ("4",), "25": ("5",), "27": ("7",), "28": ("8",)}
_OFF |= {"29": ("9",)}
_SHOWS_ON_BLANK = frozenset({"4", "8", "9", "21", "53"})
_TOKEN = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|.", re.S)


def sgr(style: Style, params: str) -> Style:
    """``style`` after ``CSI params m``."""
    attrs, fg, bg = set(style[0]), style[1], style[2]
    codes = params.split(";") if params else ["0"]
    i = 0
    while i < len(codes):
        c = codes[i] or "0"
        if c in ("38", "48"):
            n = 3 if codes[i + 1] == "5" else 5
            value = ";".join(codes[i : i + n])
            if c == "38":
                fg = value
            else:
                bg = value
            i += n
            continue
        v = int(c)
        if v == 0:
            attrs, fg, bg = set(), "", ""
        elif c in _OFF:
            attrs -= set(_OFF[c])
        elif 30 <= v <= 37 or 90 <= v <= 97:
            fg = c
        elif v == 39:
            fg = ""
        elif 40 <= v <= 47 or 100 <= v <= 107:
            bg = c
        elif v == 49:
            bg = ""
        else:
            attrs.add(c)
        i += 1
    return frozenset(attrs), fg, bg


def look(ch: str, style: Style) -> tuple[str, Style]:
    """What the eye sees of ``ch`` in ``style``."""
    attrs, _, bg = style
    if ch == " " and "7" not in attrs:
        return " ", (attrs & _SHOWS_ON_BLANK, "", bg)
    return ch, style


class Screen:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[look(" ", DEFAULT)] * width for _ in range(height)]
        self.x = self.y = 0
        self.style = DEFAULT

    def feed(self, data: str) -> None:
        for m in _TOKEN.finditer(data):
            text = m.group(0)
            if m.group(2) is not None:
                params, final = m.group(1), m.group(2)
                if final == "H":
                    y, _, x = params.partition(";")
                    self.y, self.x = int(y or 1) - 1, int(x or 1) - 1
                elif final == "m" and not params.startswith("?"):
                    self.style = sgr(self.style, params)
                elif final == "J" and params == "2":
                    self.cells = [[look(" ", DEFAULT)] * self.width for _ in range(self.height)]
            elif text == "\r":
                self.x = 0
            elif text == "\n":
                self.y = min(self.y + 1, self.height - 1)
            elif text.startswith("\x1b"):
                continue
            elif text.isprintable():
                if 0 <= self.y < self.height and 0 <= self.x < self.width:
                    self.cells[self.y][self.x] = look(text, self.style)
                self.x += 1

    def text(self) -> list[str]:
        return ["".join(ch for ch, _ in row) for row in self.cells]
