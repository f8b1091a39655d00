"""Getting around the map in few keys: pure functions, no Textual.

- :func:`cycle_hex`: the next (``]``) or previous (``[``) lit hex, in reading order (rows top
  to bottom, then west to east), the nearest one first when the cursor is not on one;
- :func:`cycle_unit`: the next (``.``) or previous (``,``) unit that may act now, in the
  reading order of their hexes;
- :func:`places`: what ``g`` (go to) offers for what was typed: a hex id ``CCRR``, or the
  towns whose name (accents, case, spaces and dots ignored) or map abbreviation starts with
  it, then those that contain it::

      places(game_map, "3412")     # [Place('3412', '3412 clear')]
      places(game_map, "bas")      # [Place('2328', 'Bastogne (2328)')]
      places(game_map, "bull")     # [Place('....', 'Büllingen (....)')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ardennes_tui.present.render.names import ascii_name, town_abbreviations
from rules import hexgrid
from rules.ao import GameMap
from rules.hexgrid import HexId


def reading_key(hex_id: HexId) -> tuple[int, int]:
    """``(row, column)``: the order in which the eye reads the map."""
    col, row = hexgrid.parse(hex_id)
    return row, col


def cycle_hex(hexes: Iterable[HexId], cursor: HexId, step: int = 1) -> HexId | None:
    """The lit hex after (``step`` 1) or before (-1) ``cursor`` in reading order, wrapping
    round; when ``cursor`` is not lit, the lit hex nearest to it (ties in reading order).
    None when nothing is lit."""
    order = sorted(set(hexes), key=reading_key)
    if not order:
        return None
    if cursor in order:
        return order[(order.index(cursor) + step) % len(order)]
    return min(order, key=lambda h: (hexgrid.distance(cursor, h), reading_key(h)))


def cycle_unit(
    units: Sequence[tuple[str, HexId]], selected: str | None, cursor: HexId, step: int = 1
) -> tuple[str, HexId] | None:
    """The unit after (``step`` 1) or before (-1) ``selected`` among ``units`` (unit, hex),
    ordered by the reading order of their hexes then by id, wrapping round. With no unit of
    the list selected: the first one at or after the cursor hex (``step`` 1), or the last one
    before it (-1). None for no units."""
    order = sorted(units, key=lambda uh: (reading_key(uh[1]), uh[0]))
    if not order:
        return None
    ids = [u for u, _ in order]
    if selected in ids:
        return order[(ids.index(selected) + step) % len(order)]
    here = reading_key(cursor)
    if step > 0:
        return next((uh for uh in order if reading_key(uh[1]) >= here), order[0])
    return next((uh for uh in reversed(order) if reading_key(uh[1]) < here), order[-1])


def fold(text: str) -> str:
    """``text`` for matching: ASCII, lower case, letters and digits only (``St. Vith`` ->
    ``stvith``, ``Büllingen`` -> ``bullingen``)."""
    return "".join(ch for ch in ascii_name(text).lower() if ch.isalnum())


@dataclass(frozen=True)
class Place:
    """A place ``g`` can go to: its hex and how it is shown (``Bastogne (2328)``)."""

    hex: HexId
    label: str


def places(game_map: GameMap, typed: str, limit: int = 8) -> list[Place]:
    """What ``typed`` names: the hex ``CCRR`` when it is on the map, else the towns whose
    name or map abbreviation starts with it, then the towns whose name contains it (at most
    ``limit``, each group in name order)."""
    text = typed.strip()
    if len(text) == 4 and text.isdigit():
        if text not in game_map:
            return []
        h = game_map.hex(text)
        town = f" {h.town}" if h.town else ""
        return [Place(text, f"{text} {h.terrain}{town}")]
    key = fold(text)
    if not key:
        return []
    towns = game_map.towns()
    abbrev = town_abbreviations(game_map)
    names = sorted(towns, key=fold)
    starts = [n for n in names if fold(n).startswith(key) or fold(abbrev[n]).startswith(key)]
    inside = [n for n in names if key in fold(n) and n not in starts]
    return [Place(towns[n], f"{n} ({towns[n]})") for n in [*starts, *inside][:limit]]


def go_to(game_map: GameMap, typed: str) -> Place | str:
    """The first place ``typed`` names (:func:`places`), or why there is none (a line for the
    dialog)."""
    text = typed.strip()
    found = places(game_map, text)
    if found:
        return found[0]
    if not text:
        return "Type a hex (CCRR, e.g. 3412) or the start of a town's name"
    if len(text) == 4 and text.isdigit():
        last = hexgrid.make(game_map.columns, game_map.rows)
        return f"No hex {text} on this map (0101-{last})"
    return f"No hex or town {text!r}: a hex is CCRR, e.g. 3412"
