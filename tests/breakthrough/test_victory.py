"""Victory points and levels (10.0-10.2, C9, C10, G24), on the real towns and scoring area of
``scenarios/breakthrough/`` and on a small hand-drawn map for supply.

The small map: hexes 0101-0808, one road along row 5 from 0105 (west) to 0805 (the German
edge road hex); every hex German-owned unless a test says otherwise.
"""

from __future__ import annotations

import itertools

import pytest

from rules import hexgrid
from rules.breakthrough import victory
from rules.breakthrough.supply import SupplyGround
from rules.breakthrough.units import Side, Unit
from rules.breakthrough.victory import Eliminated, Exited, Strength
from rules.hexgrid import HexId
from scenarios.breakthrough.grid import to_hex
from scenarios.breakthrough.mapdata import load_map

CELLS = frozenset(hexgrid.make(c, r) for c in range(1, 9) for r in range(1, 9))
ROW5 = [hexgrid.make(c, 5) for c in range(1, 9)]
GROUND = SupplyGround(
    CELLS,
    frozenset(hexgrid.hexside(a, b) for a, b in itertools.pairwise(ROW5)),
    {"american": frozenset(), "german": frozenset({"0805"})},
)
OWNER: dict[HexId, Side] = dict.fromkeys(CELLS, "german")


def real_towns() -> dict[HexId, int]:
    return {to_hex(c): p for c, p in load_map().victory_towns().values()}


@pytest.mark.rule("BA-10.1c")
def test_the_seventeen_listed_towns_and_bastogne_score() -> None:
    towns = load_map().victory_towns()
    assert len(towns) == 18
    assert towns["Bastogne"] == ((7, 13), 50) and towns["St. Vith"] == ((19, 23), 25)
    assert towns["Aywaille"] == ((28, 13), 25)
    everything = dict.fromkeys(real_towns(), "german")
    assert victory.towns_held(everything, real_towns()) == 17 * 25 + 50  # type: ignore[arg-type]


@pytest.mark.rule("BA-10.1a")
def test_at_the_end_25_a_town_the_german_owns_50_for_bastogne() -> None:
    towns = real_towns()
    owner: dict[HexId, Side] = dict.fromkeys(towns, "american")
    owner[to_hex((19, 23))] = "german"  # St. Vith
    owner[to_hex((7, 13))] = "german"  # Bastogne
    assert victory.towns_held(owner, towns) == 75
    # a town hex not in the owner map (never entered) is nobody's gain
    assert victory.towns_held({to_hex((19, 23)): "german"}, towns) == 25
    # Houffalize is a town but not a victory town
    assert to_hex((13, 15)) not in towns


@pytest.mark.rule("BA-10.1b")
def test_each_turn_25_a_town_held_50_for_bastogne_added_up() -> None:
    towns = real_towns()
    st_vith, bastogne = to_hex((19, 23)), to_hex((7, 13))
    per_turn = 0
    for turn in range(1, 13):
        owner: dict[HexId, Side] = dict.fromkeys(towns, "american")
        if turn >= 6:
            owner[st_vith] = "german"  # 21 December on
        if turn == 12:
            owner[bastogne] = "german"
        per_turn += victory.towns_held(owner, towns)
    assert per_turn == 7 * 25 + 50


@pytest.mark.rule("BA-10.1d", "BA-7.10c")
def test_exited_units_score_a_point_per_three_strength_per_turn_if_their_hex_is_supplied() -> None:
    supplied = frozenset({"0105"})
    assert victory.exit_points([Exited("a", 40, 10, "0105")], 12, supplied) == 13 * 3
    assert (
        victory.exit_points([Exited("a", 44, 12, "0105")], 12, supplied) == 14
    )  # exit turn counts
    assert victory.exit_points([Exited("a", 2, 1, "0105")], 12, supplied) == 0  # under three
    assert victory.exit_points([Exited("a", 40, 10, "0106")], 12, supplied) == 0  # not supplied
    with pytest.raises(ValueError, match="after the last turn"):
        victory.exit_points([Exited("a", 40, 8, "0105")], 7, supplied)


@pytest.mark.rule("BA-10.1e")
def test_50_a_stacking_point_eliminated_engineers_and_battalions_excepted() -> None:
    dead = [
        Eliminated("us-div", "american", 3),
        Eliminated("us-422-106", "american", 1),
        Eliminated("us-eng", "american", 1, engineer=True),
        Eliminated("us-td", "american", 1, battalion=True),
        Eliminated("de-r", "german", 1),
        Eliminated("de-eng", "german", 1, engineer=True),
    ]
    assert victory.elimination_points(dead) == 50 * 4 - 50


@pytest.mark.rule("BA-10.1f")
def test_20_a_percentage_point_of_strength_left_german_over_american() -> None:
    # 85% against 88%: -3 points
    assert victory.strength_points(Strength(2000, 300), Strength(3000, 360)) == -60
    assert victory.strength_points(Strength(3000, 360), Strength(2000, 300)) == 60
    # 90.5% against 88%: 2.5 points, whole points only
    assert victory.strength_points(Strength(2000, 190), Strength(3000, 360)) == 40
    assert victory.strength_points(Strength(3000, 360), Strength(2000, 190)) == -40
    with pytest.raises(ValueError):
        Strength(100, 101)


@pytest.mark.rule("BA-10.1g")
def test_3_a_road_hex_of_the_area_the_german_owns_and_supplies() -> None:
    supplied = frozenset({"0105", "0205", "0305"})
    owner: dict[HexId, Side] = {"0105": "german", "0205": "german", "0305": "american"}
    assert victory.road_points(["0105", "0205", "0305", "0405"], owner, supplied) == 6
    # the real area: road hexes north of St. Hubert and west of the Ourthe
    m = load_map()
    area = {(h.x, h.y) for h in m if h.road_score} & m.road_hexes()
    assert len(area) == 78
    assert (17, 4) in area and (20, 13) not in area  # Marche in, Manhay out


@pytest.mark.rule("BA-10.2c")
def test_levels_by_minimum_score_and_column() -> None:
    first = [
        (999, "american strategic"),
        (1000, "american strategic"),
        (1099, "american strategic"),
    ]
    first += [
        (1100, "american tactical"),
        (1200, "draw"),
        (1699, "draw"),
        (1700, "german tactical"),
    ]
    first += [(1899, "german tactical"), (1900, "german strategic")]
    for score, name in first:
        assert victory.level(score, "first-seven-days") == name, score
    for scenario in ("last-seven-days", "twelve-days"):
        got = [victory.level(s, scenario) for s in (1599, 1700, 1800, 2299, 2300, 2700)]
        assert got == [
            "american strategic",
            "american tactical",
            "draw",
            "draw",
            "german tactical",
            "german strategic",
        ]


def score(units: list[Unit], towns_per_turn: int = 1700) -> victory.Score:
    return victory.final_score(
        "twelve-days",
        towns_per_turn,
        OWNER | {"0101": "american"},
        {"0705": 25, "0101": 50},
        [Exited("de-e", 45, 11, "0105")],
        [
            Eliminated("us-div", "american", 3),
            Eliminated("de-r", "german", 1),
            Eliminated("us-eng", "american", 1, engineer=True),
        ],
        Strength(2000, 300),
        Strength(3000, 360),
        ["0205", "0305"],
        GROUND,
        units,
    )


@pytest.mark.rule("BA-10.0a")
def test_the_german_score_adds_every_item() -> None:
    s = score([])
    assert (s.towns_per_turn, s.towns_at_end, s.exits, s.eliminations, s.strength, s.roads) == (
        1700,
        25,  # 0705 German, Bastogne-like 0101 American
        15 * 2,  # 45 // 3 on turns 11 and 12
        150 - 50,
        -60,
        2 * 3,
    )
    assert s.total == 1801 and s.level == "draw"
    assert score([], towns_per_turn=1599).level == "american tactical"  # 1700
    assert score([], towns_per_turn=1598).level == "american strategic"  # 1699


@pytest.mark.rule("BA-10.2a")
def test_the_end_traces_german_supply_from_the_final_position() -> None:
    # an American unit on 0405 cuts the road west of it: the exit hex 0105 and the area's
    # road hexes 0205 and 0305 are no longer German supplied roads
    s = score([Unit("us-x", "american", "0405", 30)])
    assert (s.exits, s.roads) == (0, 0)
    assert s.total == 1801 - 30 - 6
