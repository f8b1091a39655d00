"""Victory (AO-16) on a 5 x 4 map worked out by hand::

    row 1   NE NE NW NW x       exits: 0201 (NE, 4 VP), 0401 (NW, 6 VP)
    row 2   .  .  .  .  E
    row 3   X  .  B  .  E       0103: an exit hex on the live map (3 VP); B: Bastogne (0303)
    row 4   SE SE SW SW x       exits: 0204 (SE, 2 VP), 0404 (SW, 1 VP)

Roads 0502-0402-0302-0202-0201, 0402-0401, 0503-0403-0303-0203-0204, 0403-0404; the German
supply sources are the east-edge road hexes 0502 and 0503. Neighbours used below: 0302 touches
0401, 0301, 0402, 0202, 0403, 0303; 0402 touches 0401, 0502, 0503, 0302, 0403; 0203 touches
0103, 0204, 0303; 0303 touches 0204.
"""

from __future__ import annotations

import pytest

from rules.state import Board, GameState, UnitState, VictoryPoints
from rules.victory import (
    Verdict,
    bastogne_held,
    german_exit_vp,
    held_exits,
    tabulate,
    tally,
    verdict,
    verdict_for,
)
from tests.enginekit import make_map, scenario_start, unit
from tests.rules.test_reinforcements import remap

GRID = """
e e e e x
. . . . E
. . . . E
e e e e x
"""

GERMANS = ("g1", "g2", "g3", "gd")
ALLIES = ("a1", "ad1", "ad2", "adorm")


def _board() -> Board:
    m = make_map(
        GRID,
        roads=[
            "0502-0402-0302-0202-0201",
            "0402-0401",
            "0503-0403-0303-0203-0204",
            "0403-0404",
        ],
        towns={"Bastogne": "0303"},
    )
    m = remap(
        m,
        {"0101": "NE", "0201": "NE", "0301": "NW", "0401": "NW"}
        | {"0104": "SE", "0204": "SE", "0304": "SW", "0404": "SW"},
        exit_vp={"0201": 4, "0401": 6, "0103": 3, "0204": 2, "0404": 1},
    )
    return Board(m, [unit(u, "german") for u in GERMANS] + [unit(u, "allied") for u in ALLIES])


B = _board()


NO_VP = VictoryPoints()


def state(
    units: dict[str, str | UnitState], *, turn: int = 5, vp: VictoryPoints = NO_VP
) -> GameState:
    rows = []
    for uid in sorted(GERMANS + ALLIES):
        v = units.get(uid)
        if v is None:
            rows.append(UnitState(id=uid, status="not_arrived"))
        else:
            rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
    return GameState(
        scenario=0, turn=turn, side="allied", phase="mechanized_movement", units=tuple(rows), vp=vp
    )


def dead(uid: str) -> UnitState:
    return UnitState(id=uid, status="eliminated")


@pytest.mark.rule("AO-16.A")
def test_each_destroyed_unit_is_one_vp_to_the_enemy_dormant_units_are_not_lost() -> None:
    s = state(
        {
            "ad1": dead("ad1"),
            "ad2": dead("ad2"),
            "gd": dead("gd"),
            "adorm": UnitState(id="adorm", hex="0101", status="dormant"),
        }
    )
    assert tabulate(B, s) == VictoryPoints(german=2, allied=1)


@pytest.mark.rule("AO-16.B")
@pytest.mark.rule("AO-16.C")
def test_an_exit_hex_in_german_zoc_gives_its_printed_vp() -> None:
    s = state({"g1": "0302"})
    assert held_exits(B, s) == ("0401",)
    assert german_exit_vp(B, s) == 6
    assert tabulate(B, s) == VictoryPoints(german=6, allied=0)


@pytest.mark.rule("AO-16.C")
def test_an_allied_unit_in_the_exit_hex_negates_german_zoc() -> None:
    s = state({"g1": "0302", "adorm": UnitState(id="adorm", hex="0401", status="dormant")})
    assert held_exits(B, s) == ()
    assert german_exit_vp(B, s) == 0


@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-16.G")
def test_contested_exits_are_german_but_only_for_a_german_unit_in_supply() -> None:
    # a1 at 0402 also controls 0401, and its ZOC closes both German sources (0502, 0503)
    s = state({"g1": "0302", "a1": "0402"})
    assert held_exits(B, s, supplied={"g1"}) == ("0401",)  # contested: German (AO-16.C)
    assert held_exits(B, s) == ()  # traced now: g1 is out of supply (AO-16.G)
    assert tabulate(B, s) == VictoryPoints(german=0, allied=0)
    s1 = state({"g1": "0302", "a1": "0402"}, turn=1)  # all German units supplied on GT1
    assert tabulate(B, s1) == VictoryPoints(german=6, allied=0)


@pytest.mark.rule("AO-16.H")
def test_road_mode_units_hold_an_exit_only_by_being_in_it() -> None:
    on = state({"g2": UnitState(id="g2", hex="0103", road_mode=True)})
    assert held_exits(B, on) == ("0103",)
    assert german_exit_vp(B, on) == 3
    next_to = state({"g2": UnitState(id="g2", hex="0203", road_mode=True)})
    assert held_exits(B, next_to) == ()
    normal = state({"g2": "0203"})  # its ZOC reaches 0103 and 0204
    assert held_exits(B, normal) == ("0103", "0204")


@pytest.mark.rule("AO-16.D")
def test_se_and_sw_exits_count_only_with_a_supplied_german_unit_in_bastogne() -> None:
    s = state({"g2": "0203"})
    t = tally(B, s)
    assert not t.bastogne
    assert [(e.hex, e.vp) for e in t.exits] == [("0103", 3), ("0204", 0)]
    assert t.vp.german == 3
    s2 = state({"g2": "0203", "g3": "0303"})
    t2 = tally(B, s2)
    assert t2.bastogne
    assert [(e.hex, e.vp) for e in t2.exits] == [("0103", 3), ("0204", 2)]
    assert t2.vp.german == 5
    assert not bastogne_held(B, s2, supplied={"g2"})  # g3 out of supply


@pytest.mark.rule("AO-16.E")
@pytest.mark.rule("AO-16.F")
def test_vp_are_tabulated_from_the_position_and_exits_count_only_while_held() -> None:
    before = state({"g1": "0302", "ad1": dead("ad1")}, vp=VictoryPoints(german=99, allied=99))
    assert tabulate(B, before) == VictoryPoints(german=7, allied=0)
    # g1 moves on to Bastogne: 0401 is no longer held, 0204 is (g1 itself is in Bastogne)
    after = state({"g1": "0303", "ad1": dead("ad1")}, vp=VictoryPoints(german=7, allied=0))
    assert held_exits(B, after) == ("0204",)
    assert tabulate(B, after) == VictoryPoints(german=3, allied=0)


@pytest.mark.rule("AO-16.2")
def test_immediate_german_victory_with_35_vp_by_the_end_of_game_turn_6() -> None:
    v = verdict_for(6, VictoryPoints(german=35, allied=0))
    assert v is not None and (v.winner, v.kind) == ("german", "immediate")
    v1 = verdict_for(1, VictoryPoints(german=40, allied=30))
    assert v1 is not None and (v1.winner, v1.kind) == ("german", "immediate")
    assert verdict_for(6, VictoryPoints(german=34, allied=0)) is None
    assert verdict_for(7, VictoryPoints(german=50, allied=0)) is None
    assert verdict_for(17, VictoryPoints(german=50, allied=0)) is None


@pytest.mark.rule("AO-16.3")
def test_under_35_german_vp_at_the_end_is_an_allied_victory_whatever_the_ratio() -> None:
    v = verdict_for(18, VictoryPoints(german=34, allied=0))
    assert v == Verdict(
        winner="allied",
        kind="cumulative",
        german_vp=34,
        allied_vp=0,
        reason="only 34 German VP at the end of Game-Turn 18: under 35 (AO-16.3)",
    )


@pytest.mark.rule("AO-16.1")
@pytest.mark.parametrize(
    ("g", "a", "winner"),
    [
        (45, 30, "german"),  # exactly 1.5
        (44, 30, None),  # 1.4666: draw
        (36, 36, None),  # exactly 1.0: draw
        (35, 36, "allied"),  # under 1.0
        (35, 0, "german"),  # no Allied VP: the ratio is infinite
        (70, 20, "german"),
    ],
)
def test_the_ratio_at_the_end_of_game_turn_18(g: int, a: int, winner: str | None) -> None:
    v = verdict_for(18, VictoryPoints(german=g, allied=a))
    assert v is not None and v.kind == "ratio"
    assert v.winner == winner
    assert (v.german_vp, v.allied_vp) == (g, a)


@pytest.mark.rule("AO-16.1")
@pytest.mark.rule("AO-16.3")
def test_verdict_tabulates_the_final_position() -> None:
    s = state({"g1": "0302", "ad1": dead("ad1")}, turn=18)
    v = verdict(B, s)
    assert v is not None and (v.winner, v.kind, v.german_vp) == ("allied", "cumulative", 7)
    assert verdict(B, state({"g1": "0302"}, turn=12)) is None


@pytest.mark.rule("AO-16.B")
@pytest.mark.rule("AO-16.E")
def test_scenario_1_starts_at_no_vp_and_the_real_exits_total_80() -> None:
    board, st = scenario_start(1)
    assert sum(h.exit_vp or 0 for h in board.game_map.exit_hexes()) == 80
    assert tally(board, st).exits == ()
    assert tabulate(board, st) == VictoryPoints(german=0, allied=0)
    assert verdict(board, st) is None
