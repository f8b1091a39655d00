"""Retreats and advances (8.4, G4, G5) on a small patch of hexes around 0505.

Neighbours of 0505 (odd row, not shifted): NE 0504, E 0605, SE 0506, SW 0406, W 0405, NW 0404.
The German attacker stands in 0605 (E); its zone of control covers 0504 and 0506.
"""

from __future__ import annotations

import pytest

from rules import hexgrid
from rules.breakthrough.retreat import (
    Ground,
    advance,
    must_retreat,
    retreat,
    retreat_chance,
    retreat_hex,
)
from rules.breakthrough.units import Side, Unit

PATCH = {h: "clear" for h in hexgrid.within("0505", 3)}


def ground(forbidden: frozenset[str] = frozenset(), town: str = "") -> Ground:
    terrain = dict(PATCH)
    if town:
        terrain[town] = "town"

    def cost(u: Unit, a: str, b: str) -> int | None:
        return 3 if b in terrain and b not in forbidden else None

    return Ground(terrain, {"american": frozenset({"0105"}), "german": frozenset({"0905"})}, cost)  # type: ignore[arg-type]


G = Unit("g", "german", "0605", 60)
D = Unit("d", "american", "0505", 33, op=5, fort=2)
OWNER: dict[str, Side] = {"0405": "american", "0404": "german", "0406": "german"}


@pytest.mark.rule("BA-8.4a", "BA-7.8d")
def test_retreat_chance_from_casualties_efficiency_fort_and_a_draw() -> None:
    assert retreat_chance(20, 80, 0) == 50  # 2 x 20 + 20 / 2
    assert retreat_chance(20, 80, 2) == 30  # forts lower it
    assert retreat_chance(20, 100, 0) == 40
    assert retreat_chance(0, 100, 5) == 0
    assert retreat_chance(50, 40, 0) == 100
    assert must_retreat(20, 80, 0, 50) and not must_retreat(20, 80, 0, 51)
    assert not must_retreat(0, 100, 0, 1)


@pytest.mark.rule("BA-8.4d")
def test_retreat_away_from_the_attacker_out_of_zoc_toward_own_hexes() -> None:
    # 0504, 0506 in the ZOC; 0404, 0405, 0406 all two hexes from 0605; only 0405 is American
    assert retreat_hex(D, ["0605"], [G, D], OWNER, ground()) == "0405"
    # all owned alike: nearest the friendly edge (0105) decides: 0405 (3) before 0404, 0406
    assert retreat_hex(D, ["0605"], [G, D], {}, ground()) == "0405"
    # a German retreating from an American in 0405 goes east, away: 0605 is 2 from 0405
    g2 = Unit("g2", "german", "0505", 20)
    us = Unit("us", "american", "0405", 20)
    assert retreat_hex(g2, ["0405"], [g2, us], {}, ground()) == "0605"


@pytest.mark.rule("BA-8.4f")
def test_no_retreat_where_movement_is_prohibited_or_stacking_full() -> None:
    assert retreat_hex(D, ["0605"], [G, D], OWNER, ground(frozenset({"0405"}))) in {"0404", "0406"}
    full = [Unit(f"f{i}", "american", "0405", 10) for i in range(3)]
    got = retreat_hex(D, ["0605"], [G, D, *full], OWNER, ground())
    assert got in {"0404", "0406"}
    # two travel-mode units never stack (7.7e); a normal-mode one may join a travel-mode one
    road = Unit("r", "american", "0405", 10, mode="travel")
    moving = Unit("d", "american", "0505", 33, mode="travel")
    assert retreat_hex(moving, ["0605"], [G, moving, road], OWNER, ground()) in {"0404", "0406"}
    assert retreat_hex(D, ["0605"], [G, D, road], OWNER, ground()) == "0405"


@pytest.mark.rule("BA-8.4b")
def test_units_in_towns_or_without_a_route_hold_and_lose_ten_percent_more() -> None:
    after, move = retreat(D, ["0605"], [G, D], OWNER, ground(town="0505"))
    assert (move.to, move.extra_loss, after.strength, after.hex) == (None, 4, 29, "0505")
    closed = frozenset(h for h in PATCH if h != "0505")
    after, move = retreat(D, ["0605"], [G, D], OWNER, ground(closed))
    assert (move.to, move.extra_loss, after.strength) == (None, 4, 29)


@pytest.mark.rule("BA-8.4c")
def test_retreating_into_an_enemy_zoc_costs_ten_percent_more() -> None:
    only_zoc = frozenset({"0404", "0405", "0406"})  # left: 0504 and 0506, both in G's ZOC
    after, move = retreat(D, ["0605"], [G, D], OWNER, ground(only_zoc))
    assert move.to in {"0504", "0506"}
    assert (move.extra_loss, after.strength) == (4, 29)
    after, move = retreat(D, ["0605"], [G, D], OWNER, ground())
    assert (move.to, move.extra_loss, after.strength) == ("0405", 0, 33)


@pytest.mark.rule("BA-8.4g", "BA-8.1b")
def test_retreat_spends_points_even_when_short_and_loses_the_fortification() -> None:
    short = Unit("d", "american", "0505", 33, op=1, fort=2, efficiency=90)
    after, move = retreat(short, ["0605"], [G, short], OWNER, ground())
    assert (after.hex, after.op, move.op_spent, after.fort, after.efficiency) == (
        "0405",
        0,
        1,
        0,
        88,
    )


@pytest.mark.rule("BA-8.4e", "BA-7.9d")
def test_advance_first_plotter_first_until_the_hex_is_full() -> None:
    a1 = Unit("a1", "german", "0605", 30, advance=True, op=4)
    a2 = Unit("a2", "german", "0504", 60, advance=True, divisional=True, stack=2, op=10)
    a3 = Unit("a3", "german", "0506", 30, advance=True, op=4)
    no = Unit("no", "german", "0606", 30, advance=False)
    units = [a1, a2, a3, no]
    after, moves = advance([a2, a1, a3], "0505", units, ground())
    assert [m.unit for m in moves] == ["a2", "a1"]
    assert {u.id: u.hex for u in after} == {"a1": "0505", "a2": "0505", "a3": "0506", "no": "0606"}
    assert {u.id: u.op for u in after}["a1"] == 1
    after, moves = advance([a3, a1, a2], "0505", units, ground())
    assert [m.unit for m in moves] == ["a3", "a1"]  # a2 (2 points) no longer fits
    _, moves = advance([no], "0505", units, ground())
    assert moves == []


@pytest.mark.rule("BA-8.4f")
def test_no_advance_where_movement_is_prohibited_or_the_hex_still_held() -> None:
    a1 = Unit("a1", "german", "0605", 30, advance=True)
    _, moves = advance([a1], "0505", [a1], ground(frozenset({"0505"})))
    assert moves == []
    _, moves = advance([a1], "0505", [a1, D], ground())
    assert moves == []
