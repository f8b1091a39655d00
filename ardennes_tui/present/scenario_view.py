"""What the app shows: the map (the shipped one or a compiled file) and a scenario's set-up as
stacks of counters per hex. Bad input is a one-line :class:`UserError`."""

from __future__ import annotations

from pathlib import Path

from ardennes_tui.errors import UserError
from ardennes_tui.present.render import UnitsByHex
from rules.ao import GameMap, MapError, Scenario, UnitDef, decode_map
from scenarios import load_map, load_scenario, scenario_numbers


def get_map(path: Path | None) -> GameMap:
    """The map to show: ``path`` if given, else the shipped ``scenarios/ardennes/map.json``."""
    try:
        if path is not None:
            return decode_map(path.read_bytes())
        return load_map("ardennes")
    except FileNotFoundError as exc:
        where = path if path is not None else "scenarios/ardennes/map.json"
        raise UserError(f"no compiled map at {where} (run `make map`)", 1) from exc
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}", 1) from exc
    except MapError as exc:
        raise UserError(str(exc), 1) from exc


def scenario_or_error(number: int) -> Scenario:
    """Scenario ``number``, or a :class:`UserError` (exit 2) naming the valid range."""
    numbers = scenario_numbers()
    if number not in numbers:
        raise UserError(f"no scenario {number}: choose {numbers[0]}-{numbers[-1]}", 2)
    return load_scenario(number)


def setup_units(scenario: Scenario) -> UnitsByHex:
    """The units on the map at the start of ``scenario``: hex -> stack, sorted by unit id."""
    by_id = {u.id: u for u in scenario.units}
    stacks: dict[str, list[UnitDef]] = {}
    for unit_id, hex_id in sorted(scenario.setup.items()):
        stacks.setdefault(hex_id, []).append(by_id[unit_id])
    return stacks
