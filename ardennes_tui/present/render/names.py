"""Town abbreviations, ASCII spellings of names and lists of them wrapped to a width.

A detailed hex has room for five characters of town name (:func:`town_abbreviations`), three
above a counter standing on the town (:func:`town_codes` of 3), and the overview two
(:func:`town_codes` of 2); the legends' town keys give the full names. Every kind is unique
per map.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Final

from rules.ao import GameMap

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


def _code_candidates(name: str, n: int) -> list[str]:
    """Codes of ``n`` characters for ``name``, best first: for a name of several words the
    initials (``St. Vith`` -> ``SV``, ``StV``), else its first letters (``Bastogne`` ->
    ``Ba``, ``Bas``); then its first letter and any later ones, in order."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", ascii_name(name)) if w]
    letters = "".join(words)
    if not letters:
        return ["?" * n]
    out: list[str] = []
    if len(words) > 1:
        head = words[0][: max(1, n - len(words) + 1)]
        initials = head + "".join(w[0] for w in words[1:])
        if len(initials) >= n:
            out.append(initials[:n])
    out.append(letters[:n])
    rest = letters[1:]
    for combo in itertools.combinations(range(len(rest)), n - 1):
        out.append(letters[0] + "".join(rest[i] for i in combo))
    out += [letters[0] + f"{i:0{n - 1}d}" for i in range(1, 10 ** (n - 1))]
    fixed = []
    for c in out:
        c = c.ljust(n, letters[-1])
        # a capital, then lower case: the code reads as a name, never as a map glyph
        fixed.append(c[0].upper() + (c[1:] if len(words) > 1 else c[1:].lower()))
    return fixed


def town_codes(game_map: GameMap, n: int) -> dict[str, str]:
    """Town name -> a code of ``n`` ASCII characters, unique on the map: ``Ba`` Bastogne,
    ``Bo`` Bouillon, ``Bi`` Bitburg, ``Bu`` Buellingen (``n`` = 2, the overview); ``Bas``,
    ``StV`` (``n`` = 3, above a counter on the town in the detailed map). Towns are coded in
    order of name, each taking its best code not taken yet."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(game_map.towns(), key=ascii_name):
        code = next(c for c in _code_candidates(name, n) if c.lower() not in taken)
        taken.add(code.lower())
        out[name] = code
    return out
