"""``ardennes scenarios``: list the ten scenarios (AO-18.a, AO-18.a*).

One block per scenario: number and title, the set-up and reinforcement rate of each side, and
the designer's expectation from the rules.
"""

from __future__ import annotations

import argparse
from typing import Any

from scenarios import scenario_specs


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "scenarios",
        help="list the ten scenarios",
        description="List the ten scenarios of The Ardennes Offensive (rules 18.0 and errata).",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for spec in scenario_specs().values():
        print(f"{spec.number:>2}  {spec.title}")
        print(f"    Allied: {spec.allied_setup} set-up, {spec.allied_rate} reinforcements")
        print(f"    German: {spec.german_setup} set-up, {spec.german_rate} reinforcements")
        print(f"    Expected: {spec.expectation}")
    return 0
