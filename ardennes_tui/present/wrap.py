"""Wrapping text on words for a narrow box, never splitting a hex id; no Textual.

Rich wraps on blanks and folds a word longer than the line, so a path of hex ids
(``3432-3332-3333-3234``) at the end of a line came out as ``3432-3332-33`` / ``33-3234``: a
hex that does not exist. :func:`wrap` breaks a line at blanks, else after a hyphen (between
two hex ids), and folds only a word with no hyphen that is longer than the whole width::

    [t.plain for t in wrap(Text("moves 3432-3332-3333-3234"), 14)]
    # ['moves 3432-', '3332-3333-3234']
"""

from __future__ import annotations

import re
from typing import Final

from rich.text import Text

__all__ = ["fit_words", "wrap", "wrap_plain"]

_BREAK: Final = re.compile(r" +|(?<=[0-9]{4}-)(?=[0-9]{4})")
"""Where a line may break: a run of blanks (dropped), or after the hyphen between two hex ids
(kept at the end of the line; a unit id such as ``us-109-i`` never breaks)."""


def _pieces(line: str) -> list[tuple[int, int, int]]:
    """The line as ``(start, end, next)``: a piece of text ``[start, end)`` that may end a
    line, the next piece starting at ``next`` (after the blanks that separate them)."""
    out: list[tuple[int, int, int]] = []
    start = 0
    for m in _BREAK.finditer(line):
        if m.start() == 0 and m.end() > 0:  # leading blanks belong to the first piece
            continue
        out.append((start, m.start(), m.end()))
        start = m.end()
    out.append((start, len(line), len(line)))
    return [p for p in out if p[1] > p[0] or p is out[0]]


def _wrap_line(text: Text, width: int) -> list[Text]:
    line = text.plain
    if len(line) <= width:
        return [text]
    out: list[Text] = []
    begin = 0  # where the current output line starts
    end = 0  # where its last whole piece ends
    for start, stop, _next in _pieces(line):
        if stop - begin <= width:
            end = stop
            continue
        if end > begin:
            out.append(text[begin:end])
            begin = start
        while stop - begin > width:  # one piece longer than the line: folded
            out.append(text[begin : begin + width])
            begin += width
        end = stop
    if end > begin:
        out.append(text[begin:end])
    if not out:
        return [Text("")]
    for t in out:
        t.rstrip()
    return out


def wrap(text: Text, width: int) -> list[Text]:
    """``text`` in lines of at most ``width`` cells (its own newlines kept), styles kept."""
    width = max(1, width)
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        out.extend(_wrap_line(line, width))
    return out


def wrap_plain(text: str, width: int) -> list[str]:
    """:func:`wrap` for a plain string."""
    return [t.plain for t in wrap(Text(text), width)]


def fit_words(line: str, width: int) -> str:
    """``line`` when it fits in ``width`` cells, else its first words and `` ...`` (never a
    word cut): a one-line headline whose whole text is shown elsewhere."""
    if len(line) <= width:
        return line
    head = line[: max(0, width - 4)]
    cut = head.rfind(" ")
    return (head[:cut] if cut > 0 else head).rstrip() + " ..."
