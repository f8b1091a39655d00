"""``ardennes oob --scenario N``: a scenario's units, their values, where and when they enter.

``ardennes oob --ruleset breakthrough``: *Breakthrough*'s order of battle (13.2, 13.4; its
scenarios share it), :mod:`ardennes_tui.rulesets.breakthrough.oob`.

Text: one line per unit, German first then Allied, set-up units by hex then reinforcements by
Game-Turn. ``--json`` prints exactly::

    {"scenario": int, "units": [{"id", "side", "designation", "nationality", "type", "size",
      "mechanized", "strength", "movement", "setup_hex", "entry_turn", "entry_section"}]}

with units sorted by id (``setup_hex`` is null for reinforcements, ``entry_turn`` and
``entry_section`` are null for units on the map at the start).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec

from ardennes_tui.errors import UserError
from rules.ao import Arrival, Scenario, UnitDef
from scenarios import load_scenario, scenario_numbers


class UnitRow(msgspec.Struct):
    """One unit of ``ardennes oob --json``; field order is the schema's."""

    id: str
    side: str
    designation: str
    nationality: str
    type: str
    size: str
    mechanized: bool
    strength: int
    movement: int
    setup_hex: str | None
    entry_turn: int | None
    entry_section: str | None


class OobJson(msgspec.Struct):
    scenario: int
    units: list[UnitRow]


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "oob",
        help="print a scenario's order of battle",
        description="Print every unit of a scenario: values, set-up hex or arrival turn/section.",
    )
    parser.add_argument("--scenario", type=int, metavar="N", help="scenario 1-10 (the AO's)")
    parser.add_argument("--json", action="store_true", help="print JSON (schema fixed)")
    parser.add_argument(
        "--side",
        choices=("allied", "german", "american"),
        help="only this side's units (Breakthrough: american or german)",
    )
    parser.add_argument(
        "--ruleset",
        choices=("ao", "breakthrough"),
        default="ao",
        help="whose order of battle: ao (default, needs --scenario) or breakthrough (13.2, "
        "13.4: every unit and pool, no --scenario)",
    )
    parser.set_defaults(func=run)


def rows(scenario: Scenario, side: str | None = None) -> list[UnitRow]:
    """The scenario's units as output rows, sorted by id."""
    arrivals: dict[str, Arrival] = {a.unit: a for a in scenario.arrivals}
    out: list[UnitRow] = []
    for u in scenario.units:
        if side is not None and u.side != side:
            continue
        a = arrivals.get(u.id)
        out.append(
            UnitRow(
                id=u.id,
                side=u.side,
                designation=u.designation,
                nationality=u.nationality,
                type=u.type,
                size=u.size,
                mechanized=u.mechanized,
                strength=u.strength,
                movement=u.movement,
                setup_hex=scenario.setup.get(u.id),
                entry_turn=a.turn if a is not None else None,
                entry_section=a.section if a is not None else None,
            )
        )
    return out


def _values(u: UnitDef | UnitRow) -> str:
    mech = "mech" if u.mechanized else "foot"
    return f"{u.strength}-{u.movement} {u.size:<3} {u.type} ({mech})"


def _breakthrough(args: argparse.Namespace) -> int:
    from ardennes_tui.rulesets.breakthrough.oob import oob_data, oob_lines

    if args.scenario is not None:
        raise UserError("--scenario: Breakthrough's order of battle is one for every scenario", 2)
    if args.side == "allied":
        raise UserError("--side: Breakthrough's sides are american and german", 2)
    if args.json:
        sys.stdout.write(msgspec.json.encode(oob_data(args.side)).decode() + "\n")
        return 0
    sys.stdout.write("".join(line + "\n" for line in oob_lines(args.side)))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.ruleset == "breakthrough":
        return _breakthrough(args)
    if args.scenario is None:
        raise UserError("oob needs --scenario N (1-10)", 2)
    if args.side == "american":
        raise UserError("--side: the AO's sides are german and allied", 2)
    number: int = args.scenario
    if number not in scenario_numbers():
        first, last = scenario_numbers()[0], scenario_numbers()[-1]
        raise UserError(f"no scenario {number}: choose {first}-{last}", 2)
    scenario = load_scenario(number)
    table = rows(scenario, args.side)
    if args.json:
        sys.stdout.write(msgspec.json.encode(OobJson(scenario=number, units=table)).decode())
        sys.stdout.write("\n")
        return 0
    print(f"Scenario {scenario.number}: {scenario.title}")
    for side in ("german", "allied"):
        mine = [r for r in table if r.side == side]
        if not mine:
            continue
        setup_kind = scenario.german_setup if side == "german" else scenario.allied_setup
        rate = scenario.german_rate if side == "german" else scenario.allied_rate
        total = sum(r.strength for r in mine)
        print()
        print(
            f"{side.capitalize()}: {len(mine)} units, strength {total}; "
            f"{setup_kind} set-up, {rate} reinforcements"
        )
        start = sorted(
            (r for r in mine if r.setup_hex is not None), key=lambda r: (r.setup_hex, r.id)
        )
        later = sorted(
            (r for r in mine if r.entry_turn is not None),
            key=lambda r: (r.entry_turn, r.entry_section, r.id),
        )
        for r in start:
            print(f"  {r.designation:<16} {r.nationality:<8} {_values(r):<36} at {r.setup_hex}")
        for r in later:
            print(
                f"  {r.designation:<16} {r.nationality:<8} {_values(r):<36} "
                f"GT{r.entry_turn} {r.entry_section}"
            )
    return 0
