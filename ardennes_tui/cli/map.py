"""``ardennes map``: print the whole map as text (with a legend), or as JSON.

``--ruleset breakthrough``: *Breakthrough in the Ardennes*'s map as the manual's screen shows
it (``scenarios/breakthrough/mapdata.py``'s ``render``: plain ASCII, west at the top), or its
compiled data with ``--json``.

Colour (16 ANSI colours) is on when stdout is a terminal, off in a pipe; ``--color`` and
``--no-color`` force it, and the ``NO_COLOR`` environment variable turns it off. Without
colour the output is plain ASCII and every feature still has its own glyph.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from ardennes_tui.errors import UserError
from ardennes_tui.rulesets.ao.present.scenario_view import get_map, scenario_or_error, setup_units
from ardennes_tui.rulesets.ao.render.counters import UnitsByHex
from rules.ao import GameMap, encode_map, map_graph

if TYPE_CHECKING:
    from ardennes_tui.present.render.picture import Line

LEGEND_WIDTH = 120
"""The legend wraps here, so it reads in an ordinary terminal even though the map is wider."""
OVERVIEW_WIDTH = 80
"""``--overview`` fits here: the map in parts of whole columns, then its own legend."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "map",
        help="print the map (text with a legend, or --json)",
        description="Print the whole map with hexsides drawn, margins and a legend.",
    )
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument(
        "--json", action="store_true", help="print the compiled map as JSON (schema fixed)"
    )
    fmt.add_argument(
        "--overview", action="store_true", help="print the compact overview (one line per row)"
    )
    fmt.add_argument(
        "--graph",
        action="store_true",
        help="JSON: per hex its neighbours, road and Road Mode links, road exits, supply sources",
    )
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument(
        "--color",
        dest="color",
        action="store_const",
        const=True,
        default=None,
        help="colour even when stdout is not a terminal",
    )
    colour.add_argument(
        "--no-color",
        dest="color",
        action="store_const",
        const=False,
        help="plain ASCII, no colour (also NO_COLOR=1)",
    )
    parser.add_argument(
        "--scenario",
        type=int,
        metavar="N",
        help="draw the set-up of scenario N (1-10) on the map",
    )
    parser.add_argument(
        "--ruleset",
        choices=("ao", "breakthrough"),
        default="ao",
        help="whose map: ao (default) or breakthrough (its 32x31 grid as the manual's screen "
        "shows it, BA-1.4c; plain text, or --json)",
    )
    parser.add_argument(
        "--map-file",
        type=Path,
        metavar="PATH",
        help="a compiled map.json to show instead of the shipped Ardennes map",
    )
    parser.set_defaults(func=run)


def use_colour(flag: bool | None) -> bool:
    """``--color``/``--no-color`` win; then ``NO_COLOR`` (any non-empty value); then a TTY."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def render_text(
    game_map: GameMap,
    *,
    colour: bool,
    overview: bool = False,
    units: UnitsByHex | None = None,
) -> str:
    """The map and legend as one string (ANSI colour or plain ASCII)."""
    from ardennes_tui.rulesets.ao.render import draw_detail, draw_overview, legend_lines
    from ardennes_tui.rulesets.ao.render.legend import overview_legend_lines

    legend: list[Line]
    if overview:
        rows = overview_parts(draw_overview(game_map, units).lines, game_map.columns)
        legend = overview_legend_lines(game_map, width=OVERVIEW_WIDTH, ascii_only=not colour)
    else:
        rows = list(draw_detail(game_map, units).lines)
        legend = legend_lines(
            game_map, width=LEGEND_WIDTH, ascii_only=not colour, units=units is not None
        )
    if colour:
        from ardennes_tui.present.render.palette import ansi_lines

        lines = ansi_lines(rows) + ansi_lines(legend)
    else:
        lines = ["".join(t for t, _ in ln).rstrip() for ln in [*rows, *legend]]
    return "".join(line + "\n" for line in lines)


def overview_parts(lines: Sequence[Line], columns: int, width: int = OVERVIEW_WIDTH) -> list[Line]:
    """The overview's lines in parts of whole hex columns, each at most ``width`` cells wide
    with the row numbers, under a heading naming its columns."""
    from ardennes_tui.present.render.picture import crop_line
    from ardennes_tui.rulesets.ao.render import overview
    from rules import hexgrid

    per_part = (width - overview.LEFT - 2) // 2
    parts = max(1, -(-columns // per_part))
    per_part = -(-columns // parts)  # parts of equal size
    out: list[Line] = []
    for first in range(1, columns + 1, per_part):
        last = min(columns, first + per_part - 1)
        start = overview.LEFT + 2 * (first - 1)
        end = overview.LEFT + 2 * last
        if parts > 1:
            out.append(((f"Columns {first:02d}-{last:02d}", "heading"),))
        for y, line in enumerate(lines):
            row = y - overview.TOP + 1
            shift = 1 if row >= 1 and hexgrid.is_shifted(row) else 0
            margin = (*crop_line(line, 0, overview.LEFT), (" " * shift, ""))
            out.append(margin + crop_line(line, start + shift, end + shift))
        if last < columns:
            out.append(())
    return out


def _breakthrough(args: argparse.Namespace) -> int:
    """*Breakthrough*'s map (:mod:`ardennes_tui.rulesets.breakthrough.queries`)."""
    from ardennes_tui.rulesets.breakthrough import queries

    other = [
        flag
        for flag, given in (
            ("--overview", args.overview),
            ("--graph", args.graph),
            ("--scenario", args.scenario is not None),
            ("--map-file", args.map_file is not None),
        )
        if given
    ]
    if other:
        raise UserError(f"{', '.join(other)}: not for Breakthrough's map (text or --json)", 2)
    if args.json:
        sys.stdout.buffer.write(queries.map_json())
        sys.stdout.buffer.flush()
        return 0
    sys.stdout.write(queries.map_text())
    sys.stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    if args.ruleset == "breakthrough":
        return _breakthrough(args)
    game_map = get_map(args.map_file)
    if args.json:
        sys.stdout.write(encode_map(game_map.data).decode("utf-8"))
        return 0
    if args.graph:
        sys.stdout.buffer.write(msgspec.json.encode(map_graph(game_map)) + b"\n")
        sys.stdout.buffer.flush()
        return 0
    units = None
    if args.scenario is not None:
        if args.map_file is not None:
            raise UserError("--scenario draws on the shipped map; drop --map-file", 2)
        units = setup_units(scenario_or_error(args.scenario))
    text = render_text(game_map, colour=use_colour(args.color), overview=args.overview, units=units)
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0
