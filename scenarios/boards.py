"""One scenario, whole: :func:`load_scenario` (its table row, units, historical set-up and
arrivals) and :func:`load_board` (that scenario on the map, as the engine's
:class:`rules.ao.state.Board`)."""

from __future__ import annotations

import functools

import msgspec

from rules.ao.gamemap import GameMap
from rules.ao.levels import Level
from rules.ao.scenario import Scenario, ScenarioSpec
from rules.ao.state import Board
from scenarios.loader import MAP_NAME, load_map, load_oob, scenario_arrivals, scenario_specs
from scenarios.setup import historical_setup, setup_lines


def load_scenario(number: int) -> Scenario:
    """The scenario ``number`` with its units, historical set-up and arrivals.

    Raises KeyError for a number that is not a scenario.
    """
    spec = scenario_specs()[number]
    setup = historical_setup()
    arr = scenario_arrivals(spec)
    oob = load_oob()
    ids = sorted(set(setup) | {a.unit for a in arr})
    return Scenario(
        number=spec.number,
        title=spec.title,
        expectation=spec.expectation,
        allied_setup=spec.allied_setup,
        german_setup=spec.german_setup,
        allied_rate=spec.allied_rate,
        german_rate=spec.german_rate,
        units=tuple(oob[i] for i in ids),
        setup=setup,
        arrivals=arr,
    )


def load_board(
    number: int, game_map: GameMap | None = None, *, level: Level | None = None
) -> Board:
    """The board of scenario ``number``: the shipped map (loaded once per process) or
    ``game_map``, the scenario's units, its reinforcement schedule (AO-17.d), the historical
    set-up on that map (AO-17.a) and each set-up unit's line (AO-17.b/c). A new board each
    call (its derived tables start empty). Raises KeyError for a number that is not a
    scenario.

    ``level``: a game against the computer at that level of play (:mod:`rules.ao.levels`): the
    schedules of its reinforcement rates (so also the units that arrive), its VP handicap
    counted by the engine; the board's :meth:`~rules.ao.state.Board.at_level` builds the same
    scenario at another level."""
    spec = scenario_specs()[number]
    shipped = load_map(MAP_NAME)
    gm = shipped if game_map is None else game_map
    setup = historical_setup(None if gm is shipped else gm)
    arr = scenario_arrivals(_at(spec, level))
    oob = load_oob()
    ids = sorted(set(setup) | {a.unit for a in arr})
    return Board(
        gm,
        (oob[i] for i in ids),
        scenario=spec,
        arrivals=arr,
        setup=setup,
        lines=setup_lines(gm, setup),
        level=level,
        variant=functools.partial(_variant, number, game_map),
    )


def _at(spec: ScenarioSpec, level: Level | None) -> ScenarioSpec:
    """The scenario's row with the reinforcement rates of ``level``."""
    if level is None:
        return spec
    return msgspec.structs.replace(
        spec, allied_rate=level.allied_rate, german_rate=level.german_rate
    )


def _variant(number: int, game_map: GameMap | None, level: Level | None) -> Board:
    return load_board(number, game_map, level=level)
