"""The Supply Phase (4.0-4.4, G16, G17, C8): the trace, isolation, command control, the first
turns' automatic supply, fuel, and supply's effects, on small hand-drawn maps.

The map of most tests: hexes 0101-0808 (columns 1-8 west to east, rows 1-8), one road along
row 5 from 0105 (the American edge road hex) to 0805 (the German one); columns 1-4 American,
5-8 German. In ``rules.hexgrid`` an odd row's hex ``(c, r)`` touches ``(c - 1, r +- 1)`` and
``(c, r +- 1)``, an even row's ``(c, r +- 1)`` and ``(c + 1, r +- 1)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

from rules import hexgrid
from rules.breakthrough import supply
from rules.breakthrough.supply import SupplyGround
from rules.breakthrough.units import Draws, Side, Unit
from rules.hexgrid import HexId, Hexside

CELLS = frozenset(hexgrid.make(c, r) for c in range(1, 9) for r in range(1, 9))


def road(*hexes: HexId) -> frozenset[Hexside]:
    return frozenset(hexgrid.hexside(a, b) for a, b in itertools.pairwise(hexes))


ROW5 = tuple(hexgrid.make(c, 5) for c in range(1, 9))
GROUND = SupplyGround(
    CELLS, road(*ROW5), {"american": frozenset({"0105"}), "german": frozenset({"0805"})}
)
BARE = SupplyGround(CELLS, frozenset(), {"american": frozenset(), "german": frozenset()})
"""No roads at all: every unit unsupplied by the trace, for the isolation tests."""


def owner(**changes: Side) -> dict[HexId, Side]:
    out: dict[HexId, Side] = {h: "american" if int(h[:2]) <= 4 else "german" for h in CELLS}
    out.update({k[1:]: v for k, v in changes.items()})
    return out


def us(uid: str, h: HexId, strength: int = 40, **kw: object) -> Unit:
    return Unit(uid, "american", h, strength, **kw)  # type: ignore[arg-type]


def de(uid: str, h: HexId, strength: int = 40, **kw: object) -> Unit:
    return Unit(uid, "german", h, strength, **kw)  # type: ignore[arg-type]


def status(
    units: Sequence[Unit], ground: SupplyGround = GROUND, turn: int = 4, **own: Side
) -> dict[str, str]:
    _, changes = supply.supply_phase(turn, units, ground, owner(**own), Draws([]))
    return {c.unit: c.after for c in changes}


@pytest.mark.rule("BA-4.1a", "BA-4.2a")
def test_a_unit_traces_at_most_two_hexes_to_a_supplied_road() -> None:
    roads = supply.supplied_roads("american", GROUND, [], owner())
    assert roads == {"0105", "0205", "0305", "0405"}  # 0505 on is German
    enemy = supply.enemy_hexes("american", [], owner())
    assert supply.trace_length("0305", GROUND, roads, enemy) == 0
    assert supply.trace_length("0304", GROUND, roads, enemy) == 1  # touches 0305 and 0405
    assert supply.trace_length("0303", GROUND, roads, enemy) == 2  # via 0304 or 0204
    assert supply.trace_length("0302", GROUND, roads, enemy) is None  # three hexes
    got = status([us("a", "0303"), us("b", "0302"), us("c", "0104")])
    assert got == {"a": "supplied", "b": "unsupplied", "c": "supplied"}


@pytest.mark.rule("BA-4.1a", "BA-4.1d")
def test_enemy_hexes_block_the_two_hex_trace_owned_or_occupied() -> None:
    # 0303 reaches the road only through 0304 or 0204
    assert status([us("a", "0303")], _0304="german", _0204="german") == {"a": "unsupplied"}
    assert status([us("a", "0303")], _0304="german") == {"a": "supplied"}
    units = [us("a", "0303"), de("x", "0304"), de("y", "0204")]
    assert status(units)["a"] == "unsupplied"


@pytest.mark.rule("BA-4.1b", "BA-4.1d")
def test_the_supplied_road_runs_from_the_friendly_edge_until_an_enemy_hex() -> None:
    # 0404 is next to 0405 but three hexes from 0205
    assert status([us("a", "0404")]) == {"a": "supplied"}
    # an enemy unit on the road at 0305 cuts it, even in a hex the American owns
    assert supply.supplied_roads("american", GROUND, [de("x", "0305")], owner()) == {"0105", "0205"}
    assert status([us("a", "0404"), de("x", "0305")])["a"] == "unsupplied"
    # so does an empty hex the German last entered
    assert status([us("a", "0404")], _0305="german") == {"a": "unsupplied"}


@pytest.mark.rule("BA-4.1b")
def test_only_road_hexsides_carry_the_supplied_road_and_a_blown_bridge_cuts_it() -> None:
    # a road hex joined to the net only by a blown bridge hexside is not supplied
    blown = SupplyGround(GROUND.cells, GROUND.roads, GROUND.edge_roads, road("0205", "0305"))
    assert supply.supplied_roads("american", blown, [], owner()) == {"0105", "0205"}
    # road hexes side by side but not joined by a road hexside are not one road
    split = SupplyGround(CELLS, road("0105", "0205") | road("0305", "0405"), GROUND.edge_roads)
    assert supply.supplied_roads("american", split, [], owner()) == {"0105", "0205"}


@pytest.mark.rule("BA-4.1c")
def test_each_side_traces_only_from_its_own_edge_road_hexes() -> None:
    # the same road, all of it American: the German traces from 0805 only, so nowhere
    all_us = {f"_{h}": "american" for h in ROW5}
    assert supply.supplied_roads("german", GROUND, [], owner(**all_us)) == frozenset()  # type: ignore[arg-type]
    assert len(supply.supplied_roads("american", GROUND, [], owner(**all_us))) == 8  # type: ignore[arg-type]
    assert supply.supplied_roads("german", GROUND, [], owner()) == {"0505", "0605", "0705", "0805"}


@pytest.mark.rule("BA-4.1e")
def test_enemy_zones_of_control_do_not_block_the_trace() -> None:
    # German units next to both of 0303's ways out (0304, 0204), but not in them
    units = [us("a", "0303"), de("x", "0404"), de("y", "0104")]
    assert status(units, _0404="german", _0104="german")["a"] == "supplied"


def _ring(*extra: Unit) -> list[Unit]:
    # American 0404; German units at 0403 and 0505: their zones cover 0304, 0503 and 0405, 0504
    return [us("a", "0404"), de("x", "0403"), de("y", "0505"), *extra]


@pytest.mark.rule("BA-4.2b")
def test_isolated_when_every_way_out_holds_an_enemy_or_an_adjacent_enemys_zone() -> None:
    assert status(_ring(), BARE)["a"] == "isolated"
    # one way out: unsupplied only
    assert status([us("a", "0404"), de("x", "0403")], BARE)["a"] == "unsupplied"
    # zones of enemy units that are not adjacent do not count: 0605 and 0406 cover 0504, 0505
    # and 0405, but only 0403 touches 0404
    far = [us("a", "0404"), de("x", "0403"), de("y", "0605"), de("z", "0406")]
    assert status(far, BARE)["a"] == "unsupplied"
    # a friendly unit in a hex of the enemy's zone does not open it
    assert status(_ring(us("b", "0304")), BARE)["a"] == "isolated"
    # isolation needs a failed trace: with the road, 0404 touches 0405 ... which is in y's zone
    assert status(_ring())["a"] == "supplied"


@pytest.mark.rule("BA-4.2b")
def test_hexes_off_the_map_are_no_way_out() -> None:
    # 0101, a corner: on the map only 0201, 0102 (and 0202? no: row 1 is odd) around it
    around = [n for n in hexgrid.neighbours("0101") if n in CELLS]
    assert sorted(around) == ["0102", "0201"]
    assert status([us("a", "0101"), de("x", "0201")], BARE)["a"] == "isolated"


@pytest.mark.rule("BA-4.2c")
def test_command_control_of_a_division_prevents_isolation() -> None:
    assert status(_ring(us("b", "0304", divisional=True, stack=2)), BARE)["a"] == "unsupplied"
    assert (
        status([*_ring()[:1], us("a2", "0404", divisional=True, stack=2), *_ring()[1:]], BARE)["a"]
        == "unsupplied"
    )
    # itself divisional
    alone = [us("a", "0404", divisional=True, stack=3), de("x", "0403"), de("y", "0505")]
    assert status(alone, BARE)["a"] == "unsupplied"
    # an enemy division, or a friendly one two hexes away, does not help
    assert status(_ring(de("z", "0503", divisional=True, stack=2)), BARE)["a"] == "isolated"
    assert status(_ring(us("b", "0204", divisional=True, stack=2)), BARE)["a"] == "isolated"


@pytest.mark.rule("BA-4.0a")
def test_the_supply_phase_sets_every_units_status_from_one_position() -> None:
    units = [
        us("a", "0303", supply="isolated"),
        us("b", "0302"),
        de("x", "0605"),
        us("dead", "0101", strength=0),
    ]
    after, report = supply.supply_phase(4, units, GROUND, owner(), Draws([]))
    assert [u.id for u in after] == ["a", "b", "x", "dead"]
    assert [(c.unit, c.before, c.after) for c in report] == [
        ("a", "isolated", "supplied"),
        ("b", "supplied", "unsupplied"),
        ("x", "supplied", "supplied"),
    ]
    assert after[0].supply == "supplied" and after[1].supply == "unsupplied"
    assert after[3] == units[3]  # the eliminated unit is not traced


@pytest.mark.rule("BA-4.4a")
def test_americans_are_supplied_on_turns_1_and_2_germans_through_turn_3() -> None:
    cut_us = [us("a", "0404"), de("x", "0305")]  # 4.1b's cut
    cut_de = [de("g", "0603"), us("y", "0705")]  # 0805 only, three hexes from 0603
    for turn, want_us, want_de in [
        (1, "supplied", "supplied"),
        (2, "supplied", "supplied"),
        (3, "unsupplied", "supplied"),
        (4, "unsupplied", "unsupplied"),
    ]:
        _, report = supply.supply_phase(turn, [*cut_us, *cut_de], GROUND, owner(), Draws([]))
        got = {c.unit: (c.after, c.automatic) for c in report}
        assert got["a"] == (want_us, turn <= 2), turn
        assert got["g"] == (want_de, turn <= 3), turn


@pytest.mark.rule("BA-4.3g")
def test_a_travel_mode_unit_cut_off_by_the_trace_changes_to_normal_mode() -> None:
    units = [us("a", "0404", mode="travel"), us("b", "0403", mode="travel"), de("x", "0305")]
    # b: 0403 is two hexes from 0305 (enemy) and 0405 (cut off), three from 0205
    after, report = supply.supply_phase(4, units, GROUND, owner(), Draws([]))
    assert [(u.supply, u.mode) for u in after[:2]] == [("unsupplied", "normal")] * 2
    assert all(c.to_normal for c in report if c.unit in {"a", "b"})
    # a supplied one stays in travel mode
    after, _ = supply.supply_phase(4, units[:1], GROUND, owner(), Draws([]))
    assert (after[0].supply, after[0].mode) == ("supplied", "travel")


@pytest.mark.rule("BA-4.4b", "BA-4.3g")
def test_from_turn_5_a_german_unit_that_traces_supply_may_run_out_of_fuel() -> None:
    units = [de("g2", "0604"), de("g1", "0705", mode="travel"), de("g3", "0602"), us("a", "0305")]
    # g3 at 0602 is three hexes from the road: unsupplied, no draw; Americans never draw
    assert supply.fuel_rolls(4, units, GROUND, owner()) == ()
    assert supply.fuel_rolls(5, units, GROUND, owner()) == ("g1", "g2")
    after, report = supply.supply_phase(5, units, GROUND, owner(), Draws([12, 13]))
    by = {c.unit: c for c in report}
    assert (by["g1"].fuel_draw, by["g1"].out_of_fuel, by["g1"].after) == (12, True, "unsupplied")
    assert (by["g2"].fuel_draw, by["g2"].out_of_fuel, by["g2"].after) == (13, False, "supplied")
    assert by["g3"].fuel_draw is None and by["a"].fuel_draw is None
    # out of fuel is no change of mode (4.3)
    assert after[1].mode == "travel" and not by["g1"].to_normal


@pytest.mark.rule("BA-4.4b")
def test_an_isolated_german_unit_takes_no_fuel_draw_and_stays_isolated() -> None:
    # C8 as printed would lift an isolated unit to unsupplied; our reading (rules notes) does not
    ring = [de("g", "0404"), us("x", "0403"), us("y", "0505")]  # as _ring, sides swapped
    assert supply.traced(ring[0], BARE, ring, owner()) == "isolated"
    assert supply.fuel_rolls(6, ring, BARE, owner()) == ()
    _, report = supply.supply_phase(6, ring, BARE, owner(), Draws([]))
    assert {c.unit: c.after for c in report}["g"] == "isolated"


@pytest.mark.rule("BA-4.3a", "BA-4.3i")
def test_unsupplied_units_receive_half_their_points_isolated_none() -> None:
    assert supply.allowance(24, "supplied") == 24
    assert supply.allowance(24, "unsupplied") == 12
    assert supply.allowance(9, "unsupplied") == 4  # rounded down
    assert supply.allowance(32, "isolated") == 0


@pytest.mark.rule("BA-4.3d", "BA-4.3e", "BA-4.3f", "BA-4.3h")
def test_unsupplied_and_isolated_units_may_not_transfer_artillery_work_or_enter_travel_mode() -> (
    None
):
    for state in ("unsupplied", "isolated"):
        u = us("a", "0101", supply=state)
        assert (r := supply.check_artillery_transfer(u)) is not None and r.case == "BA-4.3d"
        for work in ("blow a bridge", "build a bridge", "fortify"):
            assert (r := supply.check_work(u, work)) is not None and r.case == "BA-4.3e"
        assert (r := supply.check_travel_mode(u)) is not None and r.case == "BA-4.3f"
    ok = us("a", "0101")
    assert supply.check_artillery_transfer(ok) is None
    assert supply.check_work(ok, "fortify") is None
    assert supply.check_travel_mode(ok) is None


@pytest.mark.rule("BA-4.3k")
def test_isolated_units_may_not_attack_unsupplied_ones_may() -> None:
    assert (r := supply.check_attack(us("a", "0101", supply="isolated"))) is not None
    assert r.message == "BA-4.3k: a is isolated: it may not attack"
    assert supply.check_attack(us("a", "0101", supply="unsupplied")) is None


@pytest.mark.rule("BA-13.7a")
def test_the_supply_example_conclusions() -> None:
    # 13.7's drawing is lost (G31); its conclusions in one position of our own:
    # American 1 on the road, 3 one hex off, 2 three hexes off; German A by its road;
    # B surrounded by the zones of adjacent Americans; C likewise but next to divisional D.
    units = [
        us("1", "0205"),
        us("3", "0204"),
        us("2", "0202"),
        de("A", "0706"),
        de("B", "0702"),
        us("p", "0602"),
        us("q", "0803"),
        us("r", "0801"),
        de("C", "0407", supply="supplied"),
        de("D", "0408", divisional=True, stack=2),
        us("s", "0307"),
        us("t", "0507"),
    ]
    got = status(
        units,
        _0602="american",
        _0803="american",
        _0801="american",
        _0407="german",
        _0408="german",
        _0307="american",
        _0507="american",
    )
    assert got["1"] == got["3"] == got["A"] == "supplied"
    assert got["2"] == "unsupplied"
    assert got["B"] == "isolated"
    assert got["C"] == got["D"] == "unsupplied"
    # without D next to it, C would be isolated
    assert (
        status(
            [u for u in units if u.id != "D"],
            _0407="german",
            _0307="american",
            _0507="american",
            _0602="american",
            _0803="american",
            _0801="american",
        )["C"]
        == "isolated"
    )


@settings(max_examples=40, deadline=None)
@given(st.sets(st.sampled_from(sorted(CELLS)), max_size=12))
@pytest.mark.rule("BA-4.1d")
def test_more_enemy_hexes_never_improve_supply(extra: set[HexId]) -> None:
    rank = {"supplied": 0, "unsupplied": 1, "isolated": 2}
    units = [us("a", "0303"), us("b", "0404"), us("c", "0102"), de("x", "0606")]
    base = status(units)
    worse = status(units, **{f"_{h}": "german" for h in extra if h not in {"0303", "0404", "0102"}})  # type: ignore[arg-type]
    assert all(rank[worse[k]] >= rank[base[k]] for k in "abc")
