"""The legends printed under ``ardennes map``: glyph key, town key, rivers and road exits of
the detailed map (:func:`legend_lines`), and the overview's own (:func:`overview_legend_lines`,
80 columns)."""

from __future__ import annotations

from typing import Final

from ardennes_tui.present.render import palette as P
from ardennes_tui.present.render.counters import TYPE_LETTER
from ardennes_tui.present.render.names import ascii_name, town_abbreviations, town_codes, wrap_list
from ardennes_tui.present.render.picture import Line, Run
from rules import hexgrid
from rules.ao import GameMap


def _line(*runs: Run) -> Line:
    return tuple(runs)


def _key(glyph: str, style: str, meaning: str) -> tuple[Run, Run]:
    return (glyph, style), (f" {meaning}    ", "")


def legend_lines(
    game_map: GameMap, *, width: int = 100, ascii_only: bool = True, units: bool = False
) -> list[Line]:
    """Legend lines as styled runs; ``ascii_only`` spells names without accents.

    With ``units`` the legend also explains the counters drawn on the map.
    """

    def name(n: str) -> str:
        return ascii_name(n) if ascii_only else n

    out: list[Line] = [
        (),
        _line(("Legend", "heading")),
        _line(
            ("  Hexsides  ", ""),
            *_key("/ \\ |", "side", "no feature"),
            *_key(P.RIVER, "river", "river"),
            *_key(P.BRIDGE, "bridge", "bridge"),
            *_key(P.FORD, "ford", "ford"),
            *_key(P.START_LINE, "start", "start line (16 Dec)"),
        ),
        _line(
            ("  In a hex  ", ""),
            *_key(P.ROAD, "road", "road (from the centre to each road hexside)"),
            *_key("^", "rough", "rough"),
            *_key("#", "impassable", "impassable"),
            ("(blank) clear", ""),
        ),
        _line(
            ("            ", ""),
            *_key(P.FORTIFICATION["westwall"], "fort", "Westwall"),
            *_key(P.FORTIFICATION["fortified"], "fort", "fortified"),
            *_key("5", "exit", "road-exit victory points"),
            *_key("Basto", "town", "town (key below)"),
        ),
        _line(
            ("  Margins   ", ""),
            ("column numbers above and below, row numbers left and right: hex id is CCRR", ""),
        ),
        _line(
            ("            ", ""),
            ("NE NW W SW SE", "edge"),
            (" Allied map-edge sections    ", ""),
            ("east", "edge"),
            (" German map edge", ""),
        ),
    ]
    if units:
        kinds: dict[str, list[str]] = {}
        for kind, letter in TYPE_LETTER.items():
            kinds.setdefault(letter, []).append(kind.replace("_", " "))
        letters = ", ".join(f"{k} {'/'.join(v)}" for k, v in kinds.items())
        out += [
            _line(
                ("  Counters  ", ""),
                *_key("A6-10", "german", "German (upper-case type letter)"),
                *_key("i4-4", "allied", "Allied (lower-case)"),
                ("strength-movement", ""),
            ),
            _line(
                ("            ", ""),
                ("under it: +2 two more units, r Road Mode; above it: the type letter of ", ""),
                ("10-10", "german"),
                (", Bas a town", ""),
            ),
            _line(("            ", ""), (f"type letters: {letters}", "")),
            _line(
                ("            ", ""),
                (f"overview: {P.OVERVIEW_UNITS['german']} German, ", ""),
                (f"{P.OVERVIEW_UNITS['allied']} Allied", ""),
            ),
        ]
    abbrev = town_abbreviations(game_map)
    towns = game_map.towns()
    if towns:
        out += [(), _line(("Towns", "heading"))]
        entries = [
            f"{abbrev[n]:<5} {name(n)} ({towns[n]})" for n in sorted(towns, key=lambda t: towns[t])
        ]
        col_w = max(len(e) for e in entries) + 3
        per_line = max(1, (width - 2) // col_w)
        for i in range(0, len(entries), per_line):
            chunk = entries[i : i + per_line]
            out.append(_line(("  " + "".join(e.ljust(col_w) for e in chunk).rstrip(), "")))
    rivers = sorted({s.river for s in game_map.sides() if s.river is not None})
    if rivers:
        out += [(), _line(("Rivers", "heading"), (":", ""))]
        out += [_line(("  " + row, "")) for row in wrap_list([name(r) for r in rivers], width - 2)]
    exits = game_map.exit_hexes()
    if exits:
        parts = [f"{h.id} {h.exit_vp} VP" + (f" ({h.edge})" if h.edge else "") for h in exits]
        out.append(_line(("Road exits", "heading"), (":", "")))
        out += [_line(("  " + row, "")) for row in wrap_list(parts, width - 2)]
    cols, rows = game_map.columns, game_map.rows
    out.append(
        _line(
            ("Map", "heading"),
            (
                f": {name(game_map.name)}, {cols} x {rows} hexes "
                f"({hexgrid.make(1, 1)}-{hexgrid.make(cols, rows)}), "
                f"{game_map.data.hex_km:g} km per hex",
                "",
            ),
        )
    )
    return out


OVERVIEW_KEY: Final = (
    ("Hexes", ". clear  ^ rough  # impassable  + road  $ road exit"),
    ("", "w Westwall  f fortified"),
    ("Sides", "~ river  = bridge  : ford  * start line (after a hex: its E/SE sides)"),
    ("Units", f"{P.OVERVIEW_UNITS['german']} German  {P.OVERVIEW_UNITS['allied']} Allied"),
    ("Towns", "two letters: Ba Bastogne, Bo Bouillon, SV St. Vith... (the list below)"),
)
"""The overview's glyphs (the help screen shows them too)."""


def overview_legend_lines(
    game_map: GameMap, *, width: int = 80, ascii_only: bool = True
) -> list[Line]:
    """The overview's own legend, at most ``width`` columns: its glyphs, side marks and the
    two-letter town codes (:func:`ardennes_tui.present.render.names.town_codes`)."""

    def name(n: str) -> str:
        return ascii_name(n) if ascii_only else n

    out: list[Line] = [(), _line(("Legend (overview: one line per hex row)", "heading"))]
    for label, text in OVERVIEW_KEY:
        out.append(_line((f"  {label:<7}", "heading"), (text, "")))
    codes = town_codes(game_map, 2)
    towns = game_map.towns()
    if towns:
        out += [(), _line(("Towns", "heading"))]
        entries = [f"{codes[n]} {name(n)} {towns[n]}" for n in sorted(towns, key=ascii_name)]
        col_w = max(len(e) for e in entries) + 2
        per_line = max(1, (width - 2) // col_w)
        for i in range(0, len(entries), per_line):
            chunk = entries[i : i + per_line]
            out.append(_line(("  " + "".join(e.ljust(col_w) for e in chunk).rstrip(), "")))
    return out
