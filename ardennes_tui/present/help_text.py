"""The help's five sections as Rich text: no Textual here, so each is tested as plain text.

- :func:`counter_key`: sample hexes drawn by the map's own renderer (:func:`ardennes_tui.
  render.draw_detail`) on a five-hex sample map, what each counter says, and the map legend
  (:func:`ardennes_tui.present.render.legend_lines`): the help shows what the map really draws;
- :func:`sequence_of_play`: set-up, the two player-turns of a Game-Turn and their phases
  (``rules.ao.Phase``), the current one marked;
- :func:`crt_tables`: both CRTs (``rules.ao.crt.TABLES``), the one in use named, the odds column
  of the attack being built lit;
- :func:`terrain_chart`: the Terrain Effects Chart (AO-11); the combat factors are the engine's
  own (``rules.ao.defence_factor``, ``rules.ao.attack_factor`` on the sample map's West Wall and
  fortified hexes);
- :func:`key_list`: every binding of :data:`ardennes_tui.present.keymap.KEYMAP`, by scope.

:class:`HelpContext` says what to mark (the phase, the CRT in use, the odds column).
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from functools import cache
from typing import Final, get_args

import msgspec
from rich.text import Text

import rules.ao
from ardennes_tui.present import keymap
from ardennes_tui.present.game_view import PHASE_NAMES, turn_date
from ardennes_tui.present.render import draw_detail, legend_lines
from ardennes_tui.present.render.counters import counter_long, counter_short
from ardennes_tui.present.render.palette import rich_style
from ardennes_tui.present.render.picture import Line
from rules.ao import crt

SECTIONS: Final[tuple[tuple[str, str, str], ...]] = (
    ("counters", "Counters", "Counters and map symbols"),
    ("sequence", "Sequence", "Sequence of play"),
    ("crt", "CRTs", "Combat results tables"),
    ("terrain", "Terrain", "Terrain effects chart"),
    ("keys", "Keys", "Keys"),
)
"""``(id, short name, title)`` of the help's sections, in order (keys 1-5 jump to them)."""

LIT: Final = "reverse"
MARK: Final = "bold"
WIDTH: Final = 72
"""The help's text width: the 80-column screen less the box's border, padding and
scroll bar."""


def _para(out: Text, text: str, indent: str = "") -> None:
    """``text`` wrapped to :data:`WIDTH`, each line starting with ``indent``."""
    out.append(textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent))
    out.append("\n")


def _row(out: Text, head: str, text: str, indent: int, style: str = MARK) -> None:
    """``head`` padded to ``indent`` cells, then ``text`` wrapped under it to :data:`WIDTH`."""
    lines = textwrap.wrap(text, WIDTH - indent) or [""]
    out.append(f"{head:<{indent}}", style)
    out.append(lines[0] + "\n")
    for more in lines[1:]:
        out.append(" " * indent + more + "\n")


@dataclass(frozen=True)
class HelpContext:
    """What the help marks: the phase now (None: no game), the side whose player-turn it is,
    the Game-Turn, the German CRT (``initial`` until the switch), and while an attack is being
    built its CRT (``table``) and odds ``column``."""

    phase: rules.ao.Phase | None = None
    side: rules.ao.Side | None = None
    turn: int = 0
    german_crt: str = "initial"
    table: str | None = None
    column: str | None = None


# -- the sample map ---------------------------------------------------------------------------

SAMPLE_MAP_JSON: Final = {
    "map": "sample",
    "hex_km": 3.15,
    "columns": 5,
    "rows": 1,
    "hexes": [
        {"id": f"0{c}01", "terrain": t, "town": town, "fortification": fort, "edge": None,
         "exit_vp": None, "lat": 50.0, "lon": 5.0 + c / 10}
        for c, t, town, fort in (
            (1, "clear", None, None),
            (2, "clear", "Bastogne", None),
            (3, "rough", None, None),
            (4, "clear", None, "westwall"),
            (5, "clear", None, "fortified"),
        )
    ],
    "hexsides": [
        {"hexes": ["0101", "0201"], "river": None, "crossing": None, "road": True,
         "start_line": False},
        {"hexes": ["0301", "0401"], "river": "Our", "crossing": "bridge", "road": False,
         "start_line": False},
        {"hexes": ["0401", "0501"], "river": "Our", "crossing": None, "road": False,
         "start_line": False},
    ],
}  # fmt: skip
"""Five hexes: clear with a road, a town, rough, West Wall, fortified; a bridge and a river."""


def _unit(
    uid: str, side: rules.ao.Side, name: str, kind: str, size: str, s: int, m: int
) -> rules.ao.UnitDef:
    return msgspec.convert(
        {
            "id": uid,
            "side": side,
            "designation": name,
            "nationality": "German" if side == "german" else "US",
            "type": kind,
            "size": size,
            "mechanized": kind in ("armor", "armored_infantry", "armored_cavalry"),
            "strength": s,
            "movement": m,
        },
        rules.ao.UnitDef,
    )


SAMPLE_UNITS: Final[dict[rules.HexId, list[rules.ao.UnitDef]]] = {
    "0101": [_unit("de-fbb", "german", "FBB", "armor", "X", 10, 10)],
    "0201": [
        _unit("us-101-a", "allied", "101 A", "airborne", "III", 6, 4),
        _unit("us-10-a", "allied", "10 A", "armor", "III", 4, 8),
    ],
    "0301": [_unit("us-422-i", "allied", "422", "infantry", "III", 4, 4)],
    "0401": [
        _unit("de-2-pz-a", "german", "2 Pz", "armor", "III", 7, 4),
        _unit("de-2-pz-m", "german", "2 Pz", "armored_infantry", "III", 4, 4),
        _unit("de-2-pz-i", "german", "2 Pz", "infantry", "III", 3, 4),
    ],
}
"""The counters of the sample hexes (invented, with values as printed on real ones)."""


@cache
def sample_map() -> rules.ao.GameMap:
    """The five-hex sample map (:data:`SAMPLE_MAP_JSON`)."""
    return rules.ao.decode_map(json.dumps(SAMPLE_MAP_JSON).encode())


def _text(line: Line, start: int, end: int) -> Text:
    out = Text()
    x = 0
    for run, name in line:
        a, b = max(x, start), min(x + len(run), end)
        if a < b:
            out.append(run[a - x : b - x], rich_style(name) if name else "")
        x += len(run)
    return out


def sample_hexes() -> list[Text]:
    """The sample hexes as the detail map draws them (with the sample counters)."""
    m = sample_map()
    pic = draw_detail(m, SAMPLE_UNITS)
    x0, y0, _, h = pic.box("0101")
    x1, _, w1, _ = pic.box(f"0{m.columns}01")
    x1 += w1
    return [_text(pic.lines[y], x0 - 2, x1 + 2) for y in range(y0, y0 + h)]


_FORT_NAMES: Final = {"westwall": "a West Wall hex", "fortified": "a fortified hex"}


def counter_key() -> Text:
    """How a counter reads, with the sample hexes drawn by the renderer, then the legend."""
    out = Text()
    out.append("  ")
    out.append_text(Text("\n  ").join(sample_hexes()))
    out.append("\n")
    for i, (h, stack) in enumerate(SAMPLE_UNITS.items(), 1):
        top = stack[0]
        more = f", {len(stack) - 1} more under it" if len(stack) > 1 else ""
        where = sample_map().hex(h)
        place = where.town or _FORT_NAMES.get(where.fortification or "", where.terrain)
        out.append(f"  {i}. {counter_short(top)}", MARK)
        out.append(f" in {place}: {top.side.capitalize()} {counter_long(top)}{more}\n")
    _para(
        out,
        "A counter reads: unit type letter, combat strength - movement allowance (MP). "
        "The panel lists every unit of the hex under the cursor with its state: road "
        "(Road Mode), moved, MP spent, unsupplied, isolated, dormant.",
        "  ",
    )
    for line in _legend():
        out.append_text(_reflow(line))
    out.rstrip()
    return out


def _reflow(line: Line, indent: int = 12) -> Text:
    """A legend line (a 12-cell label, then items four blanks apart) wrapped to
    :data:`WIDTH`, its continuation lines indented under the label."""
    full = _text(line, 0, sum(len(r) for r, _ in line))
    head, rest = full[:indent], full[indent:]
    items: list[Text] = []
    for item in rest.split("    "):
        item.rstrip()
        start = 0  # an item longer than the line is cut at its blanks
        for m in re.finditer(r"\S+", item.plain):
            if m.end() - start > WIDTH - indent and m.start() > start:
                piece = item[start : m.start()]
                piece.rstrip()
                items.append(piece)
                start = m.start()
        if item.plain[start:]:
            items.append(item[start:])
    out = Text()
    out.append_text(head)
    x = indent
    for i, item in enumerate(items):
        gap = 3 if i else 0
        if i and x + gap + item.cell_len > WIDTH:
            out.append("\n" + " " * indent)
            x, gap = indent, 0
        out.append(" " * gap)
        out.append_text(item)
        x += gap + item.cell_len
    out.append("\n")
    return out


def _legend() -> list[Line]:
    """The map legend's symbol lines (without the sample map's own towns and name)."""
    lines = legend_lines(sample_map(), width=74, units=True)
    out: list[Line] = []
    for line in lines[1:]:
        if not line:
            break
        out.append(line)
    return out


# -- sequence of play -------------------------------------------------------------------------

_PHASE_NOTES: Final[dict[str, str]] = {
    "reinforcement": "units due enter at the map edge (AO-14)",
    "supply_judgment": "automatic: supply markers (AO-12)",
    "initial_movement": "all units move (AO-5); none on GT1 (AO-4.2c)",
    "combat": "declare, resolve, decide (AO-9, AO-10)",
    "mechanized_movement": "mechanized units move (AO-5)",
}


def sequence_of_play(ctx: HelpContext) -> Text:
    """Set-up, then each Game-Turn's two player-turns of five phases (AO-4.1), the current
    phase marked ``>`` and lit."""
    phases = [p for p in get_args(rules.ao.Phase) if p not in ("setup_allied", "setup_german")]
    turn_phases = [p for p in phases if p != "game_over"]
    out = Text()

    def row(now: bool, text: str) -> None:
        out.append("> " if now else "  ", MARK)
        out.append(text + "\n", LIT if now else "")

    out.append("Set-up (AO-4.2a)\n", MARK)
    row(ctx.phase == "setup_allied", "Allied set-up, then")
    row(ctx.phase == "setup_german", "German set-up")
    when = f": now GT{ctx.turn} ({turn_date(ctx.turn)})" if ctx.turn else ""
    out.append(f"Each Game-Turn, GT1 16 Dec to GT{rules.ao.LAST_TURN} 2 Jan (AO-4.1){when}\n", MARK)
    for side in ("german", "allied"):
        out.append(f"  {side.capitalize()} player-turn\n", MARK)
        if side == "german":
            row(False, "  GT6 on: the German CRT switch die first, while on the Initial CRT")
        for i, p in enumerate(turn_phases, 1):
            now = ctx.phase == p and ctx.side == side
            row(now, f"  {i} {PHASE_NAMES[p]:<20} {_PHASE_NOTES.get(p, '')}")
            if side == "german" and p == "initial_movement":
                row(False, f"    {'':<20} GT2: the paradrop first (AO-15)")
    out.append("  End of the Game-Turn: victory points tabulated (AO-16)\n")
    row(ctx.phase == "game_over", "Game over: the verdict (AO-16)")
    out.rstrip()
    return out


# -- combat results tables --------------------------------------------------------------------

TABLE_TITLES: Final[dict[str, str]] = {
    "initial": "German Initial CRT",
    "standard": "Standard CRT",
}


def crt_tables(ctx: HelpContext) -> Text:
    """Both CRTs, rows by die, columns by odds; the attack's column lit in its table."""
    out = Text()
    users = {
        "initial": "the German's until he rolls a 1 for the switch (GT6 on, AO-10.3a)",
        "standard": "the Allied player's always; the German's after the switch",
    }
    for table in ("initial", "standard"):
        now = (ctx.side == "german" and ctx.german_crt == table) or (
            ctx.side == "allied" and table == "standard"
        )
        out.append(TABLE_TITLES[table], MARK)
        if ctx.side is not None and now:
            out.append(f" (in use now: {ctx.side.capitalize()} player-turn)", MARK)
        out.append(f"\n {users[table]}\n")
        lit = ctx.column if ctx.table == table else None
        out.append(" die")
        for col in crt.ODDS_COLUMNS:
            out.append(f" {col:>4}", LIT if col == lit else MARK)
        out.append("\n")
        for die, cells in enumerate(crt.TABLES[table], 1):
            out.append(f"  {die} ")
            for col, cell in zip(crt.ODDS_COLUMNS, cells, strict=True):
                out.append(f" {cell!s:>4}", LIT if col == lit else "")
            out.append("\n")
    if ctx.column is not None and ctx.table is not None:
        out.append(f"The attack being built is read on {ctx.column}, lit above.\n", MARK)
    lo, hi = crt.ODDS_COLUMNS[0], crt.ODDS_COLUMNS[-1]
    _para(
        out,
        "Ar n / Dr n: attackers / defenders retreat n hexes; Ex: exchange, the attacker "
        "loses at least the defender's printed strength; De: defenders eliminated. Odds "
        f"worse than {lo} count as {lo}, better than {hi} as {hi} (AO-10.0); '-' lowers "
        "the odds of the attack being built (AO-9.4L).",
    )
    out.rstrip()
    return out


# -- terrain effects chart --------------------------------------------------------------------


def _factors(hex_id: rules.HexId) -> str:
    m = sample_map()
    d = rules.ao.defence_factor(m, hex_id, "german", 2)
    a = rules.ao.attack_factor(m, hex_id, "german", 2)
    att = f", x{a} attacking out" if a > 1 else ""
    return f"German x{d} defending{att}; immune to Ar/Dr"


def terrain_rows() -> list[tuple[str, str, str, str]]:
    """``(terrain, MP mechanized / foot, combat, case)``: the Terrain Effects Chart (AO-11)."""
    return [
        ("clear", "1 / 1", "-", "AO-11.a"),
        ("rough", "4 / 2", "-", "AO-11.e"),
        ("impassable", "never", "-", "AO-11.g"),
        ("road hexside", "1 / 1", "whatever the hex; Road Mode: AO-6", "AO-11.j"),
        ("river hexside", "+6 / +3", "-", "AO-11.c"),
        ("ford", "+3 / +1", "-", "AO-11.b"),
        ("bridge", "+0 / +0", "may be interdicted (AO-13)", "AO-11.d"),
        ("town", "as terrain", "immune to Ar/Dr unless waived", "AO-11.f"),
        ("West Wall", "Allied +2", _factors("0401"), "AO-11.h"),
        ("fortified", "+0", _factors("0501"), "AO-11.i"),
    ]


def terrain_chart() -> Text:
    """The Terrain Effects Chart as a table, then the rules that add to it."""
    out = Text()
    out.append(f"{'terrain':<14}{'case':<9}{'MP mech/foot':<13}combat\n", MARK)
    for name, mp, combat, case in terrain_rows():
        _row(out, f"{name:<14}{case:<9}{mp:<13}", combat, 36, "")
    _para(
        out,
        "Costs add up (AO-5.1D); hexside costs apply on a road too. A hex holding friendly "
        "units costs +6 / +2 to enter and to leave (AO-8.1A). Game-Turn 1: German x3 "
        "attacking (AO-4.2d), never more: x3 out of the West Wall too; x3 defending "
        "(AO-4.2e), times the terrain: x9 in the West Wall, x6 fortified (AO-9.3J). Allied "
        "units get no terrain factor. Immune units ignore Ar/Dr unless they waive it (AO-11.f*).",
    )
    out.rstrip()
    return out


# -- keys ------------------------------------------------------------------------------------

DIALOG_KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("help", "1-5 jump to a section; Up Down PgUp PgDn j k scroll; Escape q ? close"),
    ("go to (g)", "type a hex or a town; Up/Down pick; Tab completes; Enter; Escape"),
    ("orders (O)", "Up/Down move; Enter changes a line or gives; End: the last line; Escape"),
    ("palette", "Ctrl+P, then type: only the commands valid now are offered"),
    ("mouse", "a click puts the cursor on a hex (on the cursor's own hex: nothing)"),
)


def key_list() -> Text:
    """Every binding, by scope, then the dialogs' keys."""
    out = Text()
    for title, rows in keymap.help_groups():
        out.append(title + "\n", MARK)
        for keys, what in rows:
            _row(out, f"  {keys}", what, 16)
    out.append("Dialogs and the mouse\n", MARK)
    for where, what in DIALOG_KEYS:
        _row(out, f"  {where}", what, 16)
    out.rstrip()
    return out


def section_text(section: str, ctx: HelpContext) -> Text:
    """The text of one section (``counters``, ``sequence``, ``crt``, ``terrain``, ``keys``)."""
    if section == "counters":
        return counter_key()
    if section == "sequence":
        return sequence_of_play(ctx)
    if section == "crt":
        return crt_tables(ctx)
    if section == "terrain":
        return terrain_chart()
    return key_list()
