"""Movement (7.5-7.7, 13.5, G13): step costs, prohibitions, paths and every reachable hex.

Patch of clear hexes around 0505; row 05 runs east 0405, 0505, 0605, 0705, 0805 (direction E).
Neighbours of 0605: 0604 0705 0606 0506 0505 0504. No hex owned by anybody unless a test says
so (no enemy-hex cost), turn 3 (no freeze, no infiltration).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.breakthrough.movement import (
    Board,
    Step,
    after_step,
    apply_step,
    corridor_in_force,
    legal_moves,
    move,
    regular_cost,
    step_cost,
    walk,
)
from rules.breakthrough.profile import Profile
from rules.breakthrough.units import Side, Terrain, Unit
from rules.rejection import Rejection
from scenarios.breakthrough import grid
from scenarios.breakthrough.mapdata import HexsideData, load_map

PATCH: dict[str, Terrain] = {h: "clear" for h in hexgrid.within("0505", 4)}
PZ = Profile("PZ", True, 24, 10, division="116PZ")
PZGR = Profile("PZGR", True, 20, 10, division="116PZ")
VG = Profile("VG", False, 12, 6, division="18")
ENG = Profile("ENG", True, 20, 10)
INF = Profile("INF", False, 9, 9, division="99")
ARM = Profile("ARM", True, 15, 20, division="7A")
SIDE = hexgrid.hexside("0505", "0605")


def board(**kw: object) -> Board:
    terrain = dict(PATCH)
    terrain.update(kw.pop("terrain", {}))  # type: ignore[call-overload]
    owner: Mapping[str, Side] = kw.pop("owner", {})  # type: ignore[assignment]
    return Board(terrain, owner, turn=kw.pop("turn", 3), **kw)  # type: ignore[arg-type]


def cost(unit: Unit, to: str, b: Board, units: list[Unit], profiles: dict[str, Profile]) -> int:
    got = step_cost(unit, profiles[unit.id], to, b, units, profiles)
    assert not isinstance(got, Rejection), got
    return got[0]


def refused(unit: Unit, to: str, b: Board, units: list[Unit], profiles: dict[str, Profile]) -> str:
    got = step_cost(unit, profiles[unit.id], to, b, units, profiles)
    assert isinstance(got, Rejection)
    return got.case


@pytest.mark.rule("BA-13.5a", "BA-13.5b", "BA-13.5c", "BA-13.5d", "BA-13.5e", "BA-9.0b", "BA-7.5a")
def test_terrain_costs_mobile_non_mobile_and_freeze() -> None:
    pz = Unit("pz", "german", "0505", 50, op=24)
    vg = Unit("vg", "german", "0505", 25, op=12)
    p = {"pz": PZ, "vg": VG}
    for terrain, mobile, non_mobile, frozen in (
        ("clear", 3, 3, 3),
        ("rough", 6, 3, 4),
        ("town", 4, 3, 4),
        ("forest", 8, 3, 6),
    ):
        b = board(terrain={"0605": terrain})
        assert cost(pz, "0605", b, [pz], p) == mobile
        assert cost(vg, "0605", b, [vg], p) == non_mobile
        assert cost(pz, "0605", board(terrain={"0605": terrain}, turn=9), [pz], p) == frozen
        assert cost(vg, "0605", board(terrain={"0605": terrain}, turn=9), [vg], p) == 3
    step = move(pz, "0605", board(terrain={"0605": "forest"}), [pz], p, has_moved=False)
    assert isinstance(step, Step) and (step.cost, step.op_left) == (8, 16)


@pytest.mark.rule("BA-7.7d", "BA-13.5f")
def test_travel_mode_moves_only_along_roads_one_a_hex_two_into_a_town() -> None:
    t = Unit("pz", "german", "0505", 50, op=24, mode="travel")
    p = {"pz": PZ}
    roads = frozenset({SIDE})
    assert cost(t, "0605", board(roads=roads, terrain={"0605": "forest"}), [t], p) == 1
    assert cost(t, "0605", board(roads=roads, terrain={"0605": "town"}), [t], p) == 2
    assert cost(t, "0605", board(roads=roads, terrain={"0605": "town"}, turn=9), [t], p) == 2
    assert refused(t, "0504", board(roads=roads), [t], p) == "BA-7.7d"
    normal = msgspec.structs.replace(t, mode="normal")  # normal mode ignores the road
    assert cost(normal, "0605", board(roads=roads, terrain={"0605": "forest"}), [normal], p) == 8


@pytest.mark.rule("BA-13.5h", "BA-6.7f", "BA-7.6f")
def test_rivers_by_type_and_the_engineer_rate() -> None:
    b = board(rivers=frozenset({SIDE}))
    arm = Unit("arm", "german", "0505", 40, op=24)
    pzgr = Unit("pzgr", "german", "0505", 40, op=20)
    vg = Unit("vg", "german", "0505", 25, op=12)
    eng = Unit("eng", "german", "0505", 10, op=20)
    eng_far = Unit("eng", "german", "0705", 10, op=20)
    eng_over = Unit("eng", "german", "0605", 10, op=20)
    p = {"arm": PZ, "pzgr": PZGR, "vg": VG, "eng": ENG}
    assert refused(arm, "0605", b, [arm], p) == "BA-6.7f"  # a tank needs a bridge
    assert refused(arm, "0605", b, [arm, eng], p) == "BA-6.7f"  # an engineer does not help it
    assert cost(pzgr, "0605", b, [pzgr], p) == 3 + 8
    assert cost(pzgr, "0605", b, [pzgr, eng], p) == 3 + 4
    assert cost(vg, "0605", b, [vg], p) == 3 + 5
    assert cost(vg, "0605", b, [vg, eng], p) == 3 + 3  # engineer on the near side
    assert cost(vg, "0605", b, [vg, eng_over], p) == 3 + 3  # or on the far side
    assert cost(vg, "0605", b, [vg, eng_far], p) == 3 + 5  # not at the crossing
    assert cost(eng, "0605", b, [eng], p) == 3 + 3
    t = msgspec.structs.replace(vg, mode="travel")
    assert refused(t, "0605", board(rivers=frozenset({SIDE}), roads=frozenset({SIDE})), [t], p) == (
        "BA-6.7f"
    )  # a road across a blown bridge


@pytest.mark.rule("BA-6.7g", "BA-13.5g")
def test_each_german_unit_over_a_bridge_pays_two_more_americans_nothing() -> None:
    sides = frozenset({SIDE})
    t = Unit("pz", "german", "0505", 50, op=24, mode="travel")
    us = Unit("arm", "american", "0505", 40, op=15, mode="travel")
    p = {"pz": PZ, "arm": ARM}

    def over(crossed: frozenset[str], u: Unit) -> int:
        b = board(rivers=sides, roads=sides, bridges=sides, crossed={SIDE: crossed})
        return cost(u, "0605", b, [u], p)

    assert over(frozenset(), t) == 1
    assert over(frozenset({"a"}), t) == 1 + 2
    assert over(frozenset({"a", "b"}), t) == 1 + 4
    assert over(frozenset({"a", "pz"}), t) == 1 + 2  # its own crossing does not count
    assert over(frozenset({"a", "b"}), us) == 1
    b = board(rivers=sides, roads=sides, bridges=sides)
    step = move(t, "0605", b, [t], p, has_moved=False)
    assert isinstance(step, Step) and step.bridge == SIDE
    assert after_step(b, t, step).crossed == {SIDE: frozenset({"pz"})}
    tank = Unit("t2", "german", "0505", 50, op=24)  # a tank in normal mode may not use it
    assert refused(tank, "0605", b, [tank], {"t2": PZ}) == "BA-6.7f"
    vg = Unit("vg", "german", "0505", 25, op=12)  # foot over a bridge: no river cost
    assert cost(vg, "0605", b, [vg], {"vg": VG}) == 3


@pytest.mark.rule("BA-13.5i", "BA-1.4f")
def test_entering_an_enemy_hex_costs_one_more_and_takes_it() -> None:
    pz = Unit("pz", "german", "0505", 50, op=24)
    b = board(owner={"0605": "american", "0504": "german"})
    assert cost(pz, "0605", b, [pz], {"pz": PZ}) == 4
    assert cost(pz, "0504", b, [pz], {"pz": PZ}) == 3
    step = move(pz, "0605", b, [pz], {"pz": PZ}, has_moved=False)
    assert isinstance(step, Step)
    assert after_step(b, pz, step).owner["0605"] == "german"


@pytest.mark.rule("BA-7.6a", "BA-7.6b", "BA-7.6c", "BA-13.5j", "BA-13.5k")
def test_zoc_costs_and_zoc_to_zoc_ends_the_move() -> None:
    enemy = Unit("us", "american", "0805", 30)  # ZOC: 0804 0905 0806 0706 0705 0704
    p = {"pz": PZ}
    pz = Unit("pz", "german", "0605", 50, op=24)
    assert cost(pz, "0705", board(), [pz, enemy], p) == 3 + 2  # enter
    leaving = Unit("pz", "german", "0705", 50, op=24)
    assert cost(leaving, "0605", board(), [leaving, enemy], p) == 3 + 4  # leave
    t = msgspec.structs.replace(leaving, mode="travel")
    road = frozenset({hexgrid.hexside("0705", "0605")})
    assert cost(t, "0605", board(roads=road), [t, enemy], p) == 1 + 6  # leave in travel mode
    step = move(leaving, "0706", board(), [leaving, enemy], p, has_moved=False)
    assert isinstance(step, Step)  # 0705 -> 0706: both in the ZOC
    assert (step.cost, step.op_left) == (24, 0)  # 3 + 4 + 2 = 9 paid, the rest gone
    t_step = move(
        t, "0704", board(roads=frozenset({hexgrid.hexside("0705", "0704")})), [t, enemy], p, False
    )
    assert isinstance(t_step, Step) and t_step.op_left == 24 - (1 + 6 + 2)  # not in travel mode


@pytest.mark.rule("BA-7.6d")
def test_the_150th_brigade_pays_no_zoc_through_turn_two() -> None:
    enemy = Unit("us", "american", "0805", 30)
    sk = Unit("150", "german", "0705", 40, op=20)
    p = {"150": Profile("PZ", True, 20, 10, infiltrator=True)}
    assert cost(sk, "0706", board(turn=2), [sk, enemy], p) == 3
    step = move(sk, "0706", board(turn=2), [sk, enemy], p, has_moved=False)
    assert isinstance(step, Step) and step.op_left == 17
    assert cost(sk, "0706", board(turn=3), [sk, enemy], p) == 3 + 4 + 2


@pytest.mark.rule("BA-7.6g", "BA-7.7e", "BA-7.6h")
def test_stacking_limits_and_travel_mode_stacking() -> None:
    p = {i: VG for i in "abcdt"}
    a, b_, c = (Unit(i, "german", "0605", 20) for i in "abc")
    mover = Unit("d", "german", "0505", 20, op=12)
    assert refused(mover, "0605", board(), [mover, a, b_, c], p) == "BA-7.6g"
    div = Unit("d", "german", "0505", 60, op=12, divisional=True, stack=2)
    assert refused(div, "0605", board(), [div, a, b_], p) == "BA-7.6g"
    assert cost(mover, "0605", board(), [mover, a, b_], p) == 3  # normal mode: no extra
    road = frozenset({SIDE})
    t = Unit("t", "german", "0505", 20, op=12, mode="travel")
    assert cost(t, "0605", board(roads=road), [t, a], p) == 1 + 1
    ta = msgspec.structs.replace(a, mode="travel")
    assert refused(t, "0605", board(roads=road), [t, ta], p) == "BA-7.7e"


@pytest.mark.rule("BA-1.4h", "BA-7.6e", "BA-2.1f")
def test_hexrow_zero_and_the_corridor() -> None:
    pz = Unit("pz", "german", "0505", 50, op=24)
    us = Unit("us", "american", "0505", 45, op=9)
    star = Unit("star", "american", "0505", 45, op=9)
    p = {"pz": PZ, "us": INF, "star": Profile("INF", False, 9, 9, corridor=True)}
    zero = frozenset({"0605"})
    assert refused(pz, "0605", board(no_german=zero), [pz], p) == "BA-1.4h"
    assert cost(us, "0605", board(no_german=zero), [us], p) == 3
    assert corridor_in_force(True, 7) and not corridor_in_force(True, 8)
    assert not corridor_in_force(False, 1)
    b = board(corridor=frozenset({"0605"}))
    assert refused(us, "0605", b, [us], p) == "BA-7.6e"
    assert cost(star, "0605", b, [star], p) == 3
    assert cost(pz, "0605", b, [pz], p) == 3


@pytest.mark.rule("BA-7.5b")
def test_too_few_points_moves_only_a_unit_that_has_not_moved_away_from_enemies() -> None:
    p = {"vg": VG, "pz": PZ}
    pz = Unit("pz", "german", "0505", 50, op=5)
    b = board(terrain={"0605": "forest"})
    step = move(pz, "0605", b, [pz], p, has_moved=False)
    assert isinstance(step, Step) and (step.cost, step.op_left) == (5, 0)
    again = move(pz, "0605", b, [pz], p, has_moved=True)
    assert isinstance(again, Rejection) and again.case == "BA-7.5b"
    enemy = Unit("us", "american", "0705", 30)  # next to 0605
    near = move(pz, "0605", b, [pz, enemy], p, has_moved=False)
    assert isinstance(near, Rejection) and near.case == "BA-7.5b"


@pytest.mark.rule("BA-6.4f", "BA-7.8c", "BA-8.1b")
def test_a_step_costs_efficiency_the_fort_level_and_half_the_artillery() -> None:
    pz = Unit("pz", "german", "0505", 50, op=24, fort=3, artillery=7, efficiency=90)
    step = move(pz, "0605", board(), [pz], {"pz": PZ}, has_moved=False)
    assert isinstance(step, Step) and step.artillery_returned == 4  # half of 7, the odd one too
    after = apply_step(pz, step)
    assert (after.hex, after.op, after.fort, after.artillery, after.efficiency) == (
        "0605",
        21,
        0,
        3,
        88,
    )


def test_walk_checks_a_path_and_refuses_it_at_the_first_bad_step() -> None:
    pz = Unit("pz", "german", "0505", 50, op=10)
    p = {"pz": PZ}
    done = walk(pz, ["0605", "0705", "0805"], board(), [pz], p, has_moved=False)
    assert not isinstance(done, Rejection)
    w, b = done
    assert (w.unit.hex, w.unit.op, [s.cost for s in w.steps]) == ("0805", 1, [3, 3, 3])
    assert b.owner["0705"] == "german"
    bad = walk(pz, ["0605", "0705", "0805", "0905"], board(), [pz], p, has_moved=False)
    assert isinstance(bad, Rejection) and bad.case == "BA-7.5b" and "step 4" in bad.detail
    jump = walk(pz, ["0705"], board(), [pz], p, has_moved=False)
    assert isinstance(jump, Rejection) and jump.case == "BA-7.5a"


def test_legal_moves_cheapest_paths_by_hand() -> None:
    """0605 is forest (8); going round it by 0504 (3) and 0604 (3) reaches 0705 for 9."""
    pz = Unit("pz", "german", "0505", 50, op=9)
    b = board(terrain={"0605": "forest"})
    reach = legal_moves(pz, b, [pz], {"pz": PZ}, has_moved=False)
    assert reach["0605"].cost == 8 and reach["0605"].path == ("0605",)
    assert reach["0705"].cost == 9 and reach["0705"].op_left == 0
    assert reach["0705"].path == ("0504", "0604", "0705")  # ties: fewer steps, then ids
    assert reach["0604"].path == ("0504", "0604")
    assert "0505" not in reach
    assert all(r.cost <= 9 for r in reach.values())
    # 7.5b: with 2 points the first step still goes anywhere adjacent, for everything
    short = msgspec.structs.replace(pz, op=2)
    first = legal_moves(short, b, [short], {"pz": PZ}, has_moved=False)
    assert sorted(first) == sorted(h for h in hexgrid.neighbours("0505") if h)
    assert all(r.op_left == 0 and r.cost == 2 for r in first.values())
    assert legal_moves(short, b, [short], {"pz": PZ}, has_moved=True) == {}


TERRAINS: tuple[Terrain, ...] = ("clear", "rough", "forest", "town")


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from(TERRAINS), min_size=37, max_size=37),
    st.integers(0, 16),
    st.booleans(),
)
def test_every_legal_move_walks_at_its_cost(terrain: list[Terrain], op: int, enemy: bool) -> None:
    """The path legal_moves gives is accepted by walk at exactly the cost it claims, and no
    cheaper single step exists than the one it lists for a neighbour."""
    hexes = sorted(hexgrid.within("0505", 3))
    b = board(terrain=dict(zip(hexes, terrain, strict=True)))
    pz = Unit("pz", "german", "0505", 50, op=op)
    units = [pz, Unit("us", "american", "0807", 30)] if enemy else [pz]
    reach = legal_moves(pz, b, units, {"pz": PZ}, has_moved=False)
    for r in reach.values():
        done = walk(pz, r.path, b, units, {"pz": PZ}, has_moved=False)
        assert not isinstance(done, Rejection), (r, done)
        assert done[0].unit.op == r.op_left == op - r.cost
    # Bellman: no listed hex can be reached more cheaply through another listed hex
    sources = [(pz.hex, 0, False), *((r.hex, r.cost, True) for r in reach.values() if r.op_left)]
    for hex_id, spent, moved in sources:
        here = msgspec.structs.replace(pz, hex=hex_id, op=op - spent)
        for n in hexgrid.neighbours(hex_id):
            if n is None or n == pz.hex:
                continue
            step = move(here, n, b, [*units[1:], here], {"pz": PZ}, has_moved=moved)
            if isinstance(step, Step):
                assert n in reach and reach[n].cost <= spent + step.cost


@pytest.mark.rule("BA-8.4f", "BA-8.4g")
def test_retreats_pay_regular_movement_without_zoc() -> None:
    sides = frozenset({SIDE})
    b = board(rivers=sides, owner={"0605": "american"})
    cost_of = regular_cost(b, {"vg": VG, "pz": PZ})
    vg = Unit("vg", "german", "0505", 25)
    assert cost_of(vg, "0505", "0605") == 3 + 5 + 1  # river and enemy hex, no ZOC
    assert cost_of(Unit("pz", "german", "0505", 50), "0505", "0605") is None
    assert cost_of(vg, "0505", "0504") == 3


def test_legal_moves_on_the_real_map() -> None:
    """The compiled map as a Board: Piper in travel mode from the first German edge road hex
    on turn 2 reaches hexes only along roads, each path walking at its cost."""

    m = load_map()
    terrain: dict[str, Terrain] = {grid.to_hex((h.x, h.y)): h.terrain for h in m}
    owner: dict[str, Side] = {grid.to_hex((h.x, h.y)): h.owner for h in m}

    def side_of(s: HexsideData) -> tuple[str, str]:
        return hexgrid.hexside(grid.to_hex(s.a), grid.to_hex(s.b))

    roads = frozenset(side_of(s) for s in m.data.hexsides if s.road)
    rivers = frozenset(side_of(s) for s in m.data.hexsides if s.river)
    bridges = frozenset(side_of(s) for s in m.data.hexsides if s.bridge)
    b = Board(terrain, owner, roads, rivers, bridges, turn=2)
    start = grid.to_hex(sorted(m.edge_road_hexes("german"))[0])
    piper = Unit("piper", "german", start, 85, op=32, mode="travel")
    p = {"piper": Profile("PZ", True, 32, 10, division="1SS")}
    reach = legal_moves(piper, b, [piper], p, has_moved=False)
    assert len(reach) > 5 and all(r.cost <= 32 for r in reach.values())
    for r in reach.values():
        hexes = [piper.hex, *r.path]
        assert all(hexgrid.hexside(x, y) in roads for x, y in itertools.pairwise(hexes))
    far = max(reach.values(), key=lambda r: (len(r.path), r.hex))
    done = walk(piper, far.path, b, [piper], p, has_moved=False)
    assert not isinstance(done, Rejection) and done[0].unit.op == far.op_left
