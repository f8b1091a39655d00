"""What the viewer shows of a scenario: its set-up as stacks of counters per hex."""

from __future__ import annotations

from ardennes_tui.cli import UserError
from ardennes_tui.render import UnitsByHex
from rules.scenario import Scenario
from rules.units import UnitDef
from scenarios import load_scenario, scenario_numbers


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
