"""The fixed part of a *Breakthrough* game: map, order of battle, scenario and levers.

A :class:`Board` is plain values (``rules/`` does no I/O): ``scenarios.breakthrough.load_board``
reads ``map.json`` and ``oob.toml`` and builds it. The levers a game is set up with are a
:class:`Setup` (the record's header keeps it): the scenario of BA-2.1g, the level of play of
BA-2.1b-e (3 historical, 4 easiest for the German, 1 hardest), the historical option of
BA-2.1f (the corridor) and solitaire or two-player (BA-13.2c's engineer and TD values).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Final, Literal

import msgspec

from rules.breakthrough import movement, victory
from rules.breakthrough.profile import Profile
from rules.breakthrough.reinforcements import Arrival
from rules.breakthrough.retreat import Ground
from rules.breakthrough.supply import SupplyGround
from rules.breakthrough.units import Side, Terrain, Unit
from rules.hexgrid import HexId, Hexside

ScenarioName = victory.Scenario

SCENARIOS: Final[tuple[ScenarioName, ...]] = ("first-seven-days", "last-seven-days", "twelve-days")
"""BA-2.1g in the manual's order: scenario number 1, 2, 3 of the record's header."""

SCENARIO_TITLES: Final[Mapping[ScenarioName, str]] = {
    "first-seven-days": "First Seven Days (16-22 December)",
    "last-seven-days": "Last Seven Days (21-27 December)",
    "twelve-days": "Twelve Days (16-27 December)",
}


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The levers of one game (BA-2.1b-g): written in the record's header as its level."""

    scenario: ScenarioName = "twelve-days"
    level: Literal[1, 2, 3, 4] = 3
    historical: bool = True
    two_player: bool = False

    @property
    def number(self) -> int:
        """The scenario's number, 1-3 (BA-2.1g's order)."""
        return SCENARIOS.index(self.scenario) + 1

    @property
    def turns(self) -> tuple[int, int]:
        """First and last turn (turn n is 15+n December)."""
        return victory.SCENARIO_TURNS[self.scenario]


@dataclass(frozen=True)
class Board:
    """Map, order of battle and set-up of one game. Hexes are :mod:`rules.hexgrid` ids."""

    setup: Setup
    terrain: Mapping[HexId, Terrain]
    owner: Mapping[HexId, Side]
    """Who owns each hex when the scenario begins (BA-1.4f; on the 21st by the front, G25)."""
    roads: frozenset[Hexside]
    rivers: frozenset[Hexside]
    sites: frozenset[Hexside]
    """Bridge sites (a road over a river, BA-6.7a); standing unless blown."""
    home: Mapping[Side, frozenset[HexId]]
    """Each side's friendly map-edge hexes (BA-4.1c)."""
    edge_roads: Mapping[Side, frozenset[HexId]]
    """Road hexes on each side's friendly edges (BA-4.1b, BA-5.1a)."""
    no_german: frozenset[HexId]
    """Hexrow x = 0 (BA-1.4h)."""
    corridor: frozenset[HexId]
    """The restricted corridor's hexes (BA-7.6e)."""
    exits: frozenset[HexId]
    """German exit hexes (BA-7.10a)."""
    towns: Mapping[HexId, int]
    """Victory towns -> points a turn (BA-10.1a-c; Bastogne 50)."""
    town_names: Mapping[HexId, str]
    area_roads: frozenset[HexId]
    """Road hexes north of St. Hubert and west of the Ourthe (BA-10.1g)."""
    profiles: Mapping[str, Profile]
    """Every unit of the order of battle (BA-13.2a)."""
    names: Mapping[str, tuple[str, str]]
    """Unit id -> (designation as 13.2 prints it, corps) (BA-13.3a-b)."""
    start: tuple[Unit, ...]
    """The units on the map when the scenario begins (BA-2.2a, BA-13.2b): on the 16th at full
    strength, on the 21st as reconstructed (G25)."""
    arrivals: tuple[Arrival, ...]
    """Every later unit, with its turn and printed entry hex (BA-13.2b, BA-5.0a)."""
    pools: Mapping[str, int]
    """Each corps pool's points at the start (13.4, BA-13.4a-b), before the level's bonus; on
    the 21st with 13.4's points due before it (G25)."""
    pool_side: Mapping[str, Side]
    pool_schedule: tuple[tuple[str, int, int], ...]
    """(corps, points, turn) of 13.4's reinforcement points still to come (BA-6.4h)."""
    carried_towns: int = 0
    """10.1b's town points of the turns before the scenario's first (Last Seven Days: the
    German's historical holding of 16-20 December, G25); 0 from the 16th."""
    carried_eliminated: tuple[victory.Eliminated, ...] = ()
    """Units eliminated before the scenario's first turn, as 10.1e counts them (G25)."""
    blown: frozenset[Hexside] = frozenset()
    """Bridge sites already blown when the scenario begins (BA-6.7a; on the 21st, G25)."""

    @cached_property
    def cells(self) -> frozenset[HexId]:
        return frozenset(self.terrain)

    def supply_ground(self, blown: frozenset[Hexside]) -> SupplyGround:
        """What supply reads of the map, with the blown bridges (G16)."""
        return SupplyGround(self.cells, self.roads, self.edge_roads, blown)

    def movement_board(
        self,
        owner: Mapping[HexId, Side],
        blown: frozenset[Hexside],
        turn: int,
        crossed: Mapping[Hexside, frozenset[str]],
    ) -> movement.Board:
        """What movement reads: standing bridges, the corridor while in force (BA-7.6e)."""
        corridor = (
            self.corridor
            if movement.corridor_in_force(self.setup.historical, turn)
            else frozenset()
        )
        return movement.Board(
            self.terrain,
            owner,
            self.roads,
            self.rivers,
            self.sites - blown,
            self.no_german,
            corridor,
            turn,
            crossed,
        )

    def ground(self, mboard: movement.Board, profiles: Mapping[str, Profile]) -> Ground:
        """What retreats and advances read (BA-8.4, G4, G5); ``profiles`` with the game's
        divisional units."""
        return Ground(self.terrain, self.home, movement.regular_cost(mboard, profiles), self.rivers)

    def with_setup(self, setup: Setup) -> Board:
        """The same map and order of battle with other levers (a record's level)."""
        if setup.scenario != self.setup.scenario:
            raise ValueError(f"the board is of {self.setup.scenario}, not {setup.scenario}")
        start = self.start
        arrivals = self.arrivals
        if setup.two_player != self.setup.two_player:
            raise ValueError("solitaire and two-player boards differ in unit values: load it")
        return Board(
            setup,
            self.terrain,
            self.owner,
            self.roads,
            self.rivers,
            self.sites,
            self.home,
            self.edge_roads,
            self.no_german,
            self.corridor,
            self.exits,
            self.towns,
            self.town_names,
            self.area_roads,
            self.profiles,
            self.names,
            start,
            arrivals,
            self.pools,
            self.pool_side,
            self.pool_schedule,
            self.carried_towns,
            self.carried_eliminated,
            self.blown,
        )
