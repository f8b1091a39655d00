"""Victory points and the level of victory (10.0-10.2, C9, C10, G24): BA-10.0a-10.2c.

10.1: "At the end of the game the German receives 25 point per town that he controls (50 points
for Bastonge). He also will receive 25 points per turn for holding the towns below the German
receives 50 points per turn for Bastgone 7.13). ... German units that exit the eligible west or
north map edges (see map) receive points based on the turn they exit and combat strength. A
unit receives one victory point per three combat point per turn that it has exited provided the
road hex it exited from is still in supply at the end of the game. The German receives 50
points per eliminated American stacking point and loses 50 points per eliminated German
stacking point. Engineers and battalion sized units do not count. At the end of the game the
percent of combat strength left for each side will be determined. For every percentage point
that the German has more than the American, he receives 20 points. For every percentage point
less than the American, he loses 20 points. At the end of the game the German will receive 3
points per controlled, supplied road hex north of St. Hubert and west of the Ourthe River."
10.2: "When the game ends the program will continue to the next turn's Supply Phase to
calculate victory points" and the table of levels, "the minimum needed".

The towns come in as a mapping of hex to points (25, Bastogne 50: the map's ``victory``), the
scoring area's hexes as a set, supply through :mod:`.supply`. Readings (C9, C10, G24) in
``docs/rules-notes-breakthrough.md`` ("Victory").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal

import msgspec

from rules.breakthrough import supply
from rules.breakthrough.supply import SupplyGround
from rules.breakthrough.units import Side, Unit
from rules.hexgrid import HexId

Scenario = Literal["first-seven-days", "last-seven-days", "twelve-days"]
Level = Literal[
    "american strategic", "american tactical", "draw", "german tactical", "german strategic"
]

SCENARIO_TURNS: Final[Mapping[Scenario, tuple[int, int]]] = {
    "first-seven-days": (1, 7),
    "last-seven-days": (6, 12),
    "twelve-days": (1, 12),
}
"""First and last turn (BA-2.1g): 16-22, 21-27 and 16-27 December."""
STACK_POINTS: Final = 50
"""Per eliminated stacking point, to the German for American, against him for German (10.1e)."""
PERCENT_POINT: Final = 20
"""Per percentage point of combat strength left, German over American (BA-10.1f)."""
ROAD_HEX_POINTS: Final = 3
"""Per controlled, supplied road hex north of St. Hubert and west of the Ourthe (BA-10.1g)."""
EXIT_DIVISOR: Final = 3
"""One point per three combat points per turn exited (BA-10.1d)."""
THRESHOLDS: Final[Mapping[Scenario, tuple[tuple[int, Level], ...]]] = {
    "first-seven-days": (
        (1900, "german strategic"),
        (1700, "german tactical"),
        (1200, "draw"),
        (1100, "american tactical"),
    ),
    "last-seven-days": (
        (2700, "german strategic"),
        (2300, "german tactical"),
        (1800, "draw"),
        (1700, "american tactical"),
    ),
    "twelve-days": (
        (2700, "german strategic"),
        (2300, "german tactical"),
        (1800, "draw"),
        (1700, "american tactical"),
    ),
}
"""BA-10.2c: the minimum German score of each level, column (1) for First Seven Days, (2) for
the other two; anything under American Tactical's minimum is American Strategic (C10)."""


class Exited(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A German unit exited off the map (7.10): its strength when it left, the turn and the
    exit hex."""

    unit: str
    strength: int
    turn: int
    hex: HexId


class Eliminated(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An eliminated (or surrendered) unit, as 10.1e counts it: its side and stacking value
    (a divisional unit's is the units built into it), and whether it is an engineer or a
    battalion (those do not count; sizes are the order of battle's data, G22)."""

    unit: str
    side: Side
    stack: int
    engineer: bool = False
    battalion: bool = False


class Strength(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A side's combat strength for 10.1f: every strength point that entered the game (the
    printed values of units set up or arrived, plus replacement points received), and every
    point lost in combat (losses, eliminations, surrenders). Exited units are not lost."""

    committed: int
    lost: int

    def __post_init__(self) -> None:
        if self.committed <= 0 or not 0 <= self.lost <= self.committed:
            raise ValueError(
                f"strength: lost {self.lost} of {self.committed} is not 0..committed > 0"
            )


class Score(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The German score, item by item (BA-10.0a), and the level it reaches (BA-10.2c)."""

    towns_per_turn: int
    towns_at_end: int
    exits: int
    eliminations: int
    strength: int
    roads: int
    total: int
    level: Level


def towns_held(owner: Mapping[HexId, Side], towns: Mapping[HexId, int]) -> int:
    """The town points of one turn's holding, or of the end-of-game award (BA-10.1a-b): the
    points of every victory town the German owns (25, Bastogne 50; G24: "controls" and
    "holding" are ownership, 1.4f).

    >>> towns_held({"0101": "german", "0202": "american"}, {"0101": 50, "0202": 25})
    50
    """
    return sum(p for h, p in sorted(towns.items()) if owner.get(h) == "german")


def exit_points(exited: Iterable[Exited], last_turn: int, supplied: frozenset[HexId]) -> int:
    """BA-10.1d: for each exited unit whose exit hex is a German supplied road hex at the end,
    its strength // 3 for every turn from the turn it exited to the last, both counted (G24).

    >>> exit_points([Exited("a", 40, 10, "0101")], 12, frozenset({"0101"}))
    39
    """
    total = 0
    for e in exited:
        if e.turn > last_turn:
            raise ValueError(f"{e.unit} exited on turn {e.turn}, after the last turn {last_turn}")
        if e.hex in supplied:
            total += e.strength // EXIT_DIVISOR * (last_turn - e.turn + 1)
    return total


def elimination_points(eliminated: Iterable[Eliminated]) -> int:
    """BA-10.1e: +50 a stacking point of American units eliminated, -50 of German ones;
    engineers and battalions do not count.

    >>> us, de = Eliminated("a", "american", 2), Eliminated("g", "german", 1, engineer=True)
    >>> elimination_points([us, de])
    100
    """
    total = 0
    for e in eliminated:
        if e.engineer or e.battalion:
            continue
        total += STACK_POINTS * e.stack * (1 if e.side == "american" else -1)
    return total


def strength_points(german: Strength, american: Strength) -> int:
    """BA-10.1f: 20 points per whole percentage point of combat strength left, German over
    American; the difference of the exact percentages is cut toward zero (G24).

    >>> strength_points(Strength(1000, 150), Strength(1000, 100))
    -100
    >>> strength_points(Strength(300, 1), Strength(100, 1))
    0
    """
    g_left = german.committed - german.lost
    a_left = american.committed - american.lost
    num = 100 * (g_left * american.committed - a_left * german.committed)
    den = german.committed * american.committed
    whole = abs(num) // den
    return PERCENT_POINT * (whole if num >= 0 else -whole)


def road_points(
    area_roads: Iterable[HexId], owner: Mapping[HexId, Side], supplied: frozenset[HexId]
) -> int:
    """BA-10.1g: 3 points per road hex of the scoring area (north of St. Hubert, west of the
    Ourthe) that the German owns and that is a German supplied road at the end."""
    return ROAD_HEX_POINTS * sum(
        1 for h in set(area_roads) if owner.get(h) == "german" and h in supplied
    )


def level(score: int, scenario: Scenario) -> Level:
    """BA-10.2c (C10): the highest level whose minimum the German score reaches; below
    American Tactical's minimum, American Strategic.

    >>> level(1199, "first-seven-days"), level(1200, "first-seven-days"), level(1200, "twelve-days")
    ('american tactical', 'draw', 'american strategic')
    """
    for minimum, name in THRESHOLDS[scenario]:
        if score >= minimum:
            return name
    return "american strategic"


def final_score(
    scenario: Scenario,
    towns_per_turn: int,
    owner: Mapping[HexId, Side],
    towns: Mapping[HexId, int],
    exited: Sequence[Exited],
    eliminated: Sequence[Eliminated],
    german: Strength,
    american: Strength,
    area_roads: Iterable[HexId],
    ground: SupplyGround,
    units: Sequence[Unit],
) -> Score:
    """The German score when the game ends (BA-10.0a, BA-10.2a).

    ``towns_per_turn`` is the sum of :func:`towns_held` taken at the end of every turn played;
    the end-of-game town award is one more :func:`towns_held` of the final owner. Supply is
    the German supplied road net traced as in the next turn's Supply Phase (10.2a): by the
    trace, with no automatic supply (4.4a ends on turn 3).
    """
    last = SCENARIO_TURNS[scenario][1]
    roads = supply.supplied_roads("german", ground, units, owner)
    at_end = towns_held(owner, towns)
    exits = exit_points(exited, last, roads)
    elims = elimination_points(eliminated)
    strength = strength_points(german, american)
    area = road_points(area_roads, owner, roads)
    total = towns_per_turn + at_end + exits + elims + strength + area
    return Score(
        towns_per_turn, at_end, exits, elims, strength, area, total, level(total, scenario)
    )
