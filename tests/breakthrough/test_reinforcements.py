"""The Reinforcement Phase (5.0-5.2, G18): entry hexes, unit limits, exits' permanent delays.

Edge road hexes of the patch: 0105, 0108, 0101 (distances from 0105: 0, 3, 4).
"""

from __future__ import annotations

import pytest

from rules.breakthrough.reinforcements import (
    UNIT_LIMIT,
    Arrival,
    entry_hex,
    permanent_delays,
    reinforce,
)
from rules.breakthrough.units import Unit

ROADS = frozenset({"0105", "0108", "0101"})


def arrival(
    uid: str, turn: int = 4, order: int = 0, edge: str = "south", hex_: str = "0105"
) -> Arrival:
    return Arrival(Unit(uid, "american", hex_, 45), edge, turn, order)  # type: ignore[arg-type]


def filler(n: int, side: str = "american") -> list[Unit]:
    return [Unit(f"f{i}", side, f"2{i % 10}{i // 10 + 10}", 10) for i in range(n)]  # type: ignore[arg-type]


@pytest.mark.rule("BA-5.0a")
def test_reinforcements_enter_at_their_printed_hex_in_travel_mode() -> None:
    got = reinforce("american", [arrival("a"), arrival("b", order=1)], [], ROADS)
    assert [(u.id, u.hex, u.mode, u.supply, u.op) for u in got.entered] == [
        ("a", "0105", "travel", "supplied", 0),
        ("b", "0105", "travel", "supplied", 0),  # travel-mode arrivals may share (7.7e)
    ]
    assert got.delayed == () and got.cancelled == ()


@pytest.mark.rule("BA-5.1a")
def test_an_occupied_or_full_entry_hex_sends_the_unit_to_the_nearest_edge_road() -> None:
    enemy = Unit("g", "german", "0105", 40)
    got = reinforce("american", [arrival("a")], [enemy], ROADS)
    assert [u.hex for u in got.entered] == ["0108"]
    three = [Unit(i, "american", "0105", 30) for i in "xyz"]
    got = reinforce("american", [arrival("a"), arrival("b", order=1)], three, ROADS)
    assert [u.hex for u in got.entered] == ["0108", "0108"]
    crowded = three + [Unit(i, "american", "0108", 30) for i in "uvw"]
    assert entry_hex(arrival("a").unit, crowded, ROADS) == "0101"
    nowhere = [*crowded, Unit("g", "german", "0101", 40)]
    got = reinforce("american", [arrival("a")], nowhere, ROADS)
    assert got.entered == () and [a.unit.id for a in got.delayed] == ["a"]


@pytest.mark.rule("BA-5.2a", "BA-5.2b")
def test_the_unit_limit_delays_arrivals_and_earlier_ones_come_first() -> None:
    assert UNIT_LIMIT == {"american": 57, "german": 70}
    on_map = filler(55) + filler(3, "german")
    due = [
        arrival("late", turn=5),
        arrival("old", turn=4, order=9),
        arrival("new", turn=5, order=1),
    ]
    got = reinforce("american", due, on_map, ROADS)
    assert [u.id for u in got.entered] == ["old", "late"]
    assert [a.unit.id for a in got.delayed] == ["new"]
    room = reinforce("american", got.delayed, on_map[1:] + list(got.entered), ROADS)
    assert [u.id for u in room.entered] == ["new"]  # a unit lost: it comes the next turn
    german = reinforce(
        "german",
        [Arrival(Unit("g", "german", "0105", 40), "east", 4, 0)],
        filler(70, "german"),
        ROADS,
    )
    assert german.entered == () and len(german.delayed) == 1


@pytest.mark.rule("BA-5.2c")
def test_every_fifty_exited_points_cancel_the_next_north_or_west_arrival() -> None:
    assert permanent_delays(49) == 0 and permanent_delays(50) == 1 and permanent_delays(149) == 2
    due = [
        arrival("south", order=0, edge="south"),
        arrival("north", order=1, edge="north"),
        arrival("west", order=2, edge="west"),
        arrival("north2", order=3, edge="north"),
    ]
    got = reinforce("american", due, [], ROADS, exited_strength=120)
    assert got.cancelled == ("north", "west") and got.cancelled_total == 2
    assert [u.id for u in got.entered] == ["south", "north2"]
    again = reinforce("american", due, [], ROADS, exited_strength=120, cancelled_before=2)
    assert again.cancelled == () and len(again.entered) == 4
    more = reinforce("american", due, [], ROADS, exited_strength=150, cancelled_before=2)
    assert more.cancelled == ("north",) and more.cancelled_total == 3
    ger = reinforce(
        "german",
        [Arrival(Unit("g", "german", "0105", 40), "east", 4, 0)],
        [],
        ROADS,
        exited_strength=500,
    )
    assert ger.cancelled == () and len(ger.entered) == 1
