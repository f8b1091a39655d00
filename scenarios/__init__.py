"""Scenario data (map, order of battle, set-ups, schedules) and the code that loads it.

The engine (:mod:`rules`) defines the types and never reads a file; this package reads and
checks the shipped data and builds the engine's :class:`rules.ao.state.Board`::

    board = scenarios.load_board(1)          # the map is loaded once per process
    state = rules.ao.new_game(board)

Modules: :mod:`.loader` (the data files and the map), :mod:`.placement` (lat/lon to hexes),
:mod:`.setup` (the historical set-up and each unit's line), :mod:`.boards` (one scenario,
whole), :mod:`.build` (the map compiler, ``python -m scenarios.build``).
"""

from __future__ import annotations

from scenarios.boards import load_board, load_scenario
from scenarios.loader import (
    MAP_NAME,
    ScenarioDataError,
    load_map,
    load_oob,
    scenario_numbers,
    scenario_specs,
)
from scenarios.setup import historical_setup

__all__ = [
    "MAP_NAME",
    "ScenarioDataError",
    "historical_setup",
    "load_board",
    "load_map",
    "load_oob",
    "load_scenario",
    "scenario_numbers",
    "scenario_specs",
]
