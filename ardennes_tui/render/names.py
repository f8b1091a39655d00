"""Town abbreviations, ASCII spellings of names and lists of them wrapped to a width.

A detailed hex has room for five characters of town name; the legend's town key gives the
full names. Abbreviations are unique per map.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from rules import GameMap

ABBREV_LEN: Final = 5


def ascii_name(name: str) -> str:
    """``name`` with accents dropped and any other non-ASCII character replaced by ``?``.

    >>> ascii_name("Malmédy")
    'Malmedy'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.encode("ascii", "replace").decode("ascii")


def wrap_list(items: list[str], width: int, indent: str = "") -> list[str]:
    """``items`` joined by ``", "`` into lines of at most ``width`` characters, the lines after
    the first starting with ``indent``; no line for no items."""
    rows: list[str] = []
    current = ""
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if current and len(current) + 1 + len(piece) > width:
            rows.append(current)
            current = indent + piece
        else:
            current = f"{current} {piece}" if current else piece
    if current:
        rows.append(current)
    return rows


def _base_abbrev(name: str) -> str:
    letters = "".join(ch for ch in ascii_name(name) if ch.isalnum())
    return letters[:ABBREV_LEN] or "?"


def town_abbreviations(game_map: GameMap) -> dict[str, str]:
    """Town name -> abbreviation of at most five ASCII characters, unique on the map.

    The abbreviation is the first five letters of the name (spaces and dots dropped:
    ``St. Vith`` -> ``StVit``); clashes get a trailing digit (``Marc1``, ``Marc2``).
    """
    names = sorted(game_map.towns())
    base = {n: _base_abbrev(n) for n in names}
    counts: dict[str, int] = {}
    for b in base.values():
        counts[b] = counts.get(b, 0) + 1
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for n in names:
        b = base[n]
        if counts[b] == 1:
            out[n] = b
        else:
            seen[b] = seen.get(b, 0) + 1
            out[n] = b[: ABBREV_LEN - 1] + str(seen[b])
    return out
