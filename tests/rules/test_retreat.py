"""Retreats after combat (AO-10.2a/b, AO-7.3C/D, AO-8.0, AO-8.3F, AO-6.7M/N, AO-5.3M/N,
AO-9.7P, AO-16.A) on small synthetic maps, dice scripted, outcomes worked out by hand.

Map ``G3`` (3 rows x 6): the German attacker stands in 0202, the Allied defender in 0302.
0302 (even row) neighbours: NE 0401, E 0402, SE 0403, SW 0303, W 0202, NW 0301; 0202 controls
0301 and 0303 (its NE and SE), so a one-hex retreat from 0302 goes to 0401, 0402 or 0403.
German Initial CRT: 2-1 die 2 is Dr1, die 1 Dr2; 1-2 die 4 Ar2. Standard 2-1 die 1 Dr1.
"""

from __future__ import annotations

import pytest

from rules.ao.combat import retreat_options
from rules.ao.combat.retreat import supply_progress
from rules.ao.commands import ChooseRetreat, ResolveAttacks, StandingOrders
from rules.ao.engine import apply
from rules.ao.events import RoadColumnContact, UnitEliminated
from rules.ao.state import Board, GameState, UnitState, VictoryPoints
from rules.ao.supply import supply_of
from rules.rejection import Rejection
from tests.kit.engine import (
    LINE8,
    attack,
    board,
    cpos,
    declared,
    fight,
    line_map,
    make_map,
    ok,
    position,
    resolved,
    retreats,
    unit,
)

G3 = """
. . . . . .
. . . . . .
. . . . . .
"""
"""The 3 x 6 clear grid of the module docstring."""


def g3(**kw: object) -> Board:
    m = make_map(G3, **kw)  # type: ignore[arg-type]
    return board(
        m, [unit("g", strength=8), unit("a", "allied"), unit("a2", "allied"), unit("a3", "allied")]
    )


def pos(units: dict[str, str | UnitState], side: str = "german") -> GameState:
    return position(units, phase="combat", side=side)  # type: ignore[arg-type]


# -- AO-10.2a priorities -------------------------------------------------------------------------


@pytest.mark.rule("AO-10.2a")
@pytest.mark.rule("AO-7.3C")
@pytest.mark.rule("AO-7.3D")
def test_equal_paths_are_the_victors_choice_never_into_enemy_control() -> None:
    b = g3()
    s = pos({"g": "0202", "a": "0302"})
    r = fight(b, s, ["g"], ["0302"], [2])  # 8-4 2-1, die 2: Dr1
    d = r.state.combat.pending
    assert d is not None and (d.side, d.kind, d.unit) == ("german", "retreat", "a")
    assert d.choices == (("0401",), ("0402",), ("0403",))  # out of g's ZOC (C), not into it (D)
    bad = apply(b, r.state, ChooseRetreat(unit="a", path=("0303",)))
    assert isinstance(bad, Rejection) and bad.case == "AO-10.2b"
    done = ok(b, r.state, ChooseRetreat(unit="a", path=("0403",)))
    assert done.state.unit("a").hex == "0403" and done.state.combat.current is None


@pytest.mark.rule("AO-10.2a")
def test_road_first_then_clear_then_rough() -> None:
    b = g3(roads=["0302-0402"])
    r = fight(b, pos({"g": "0202", "a": "0302"}), ["g"], ["0302"], [2])
    assert retreats(r) == [("a", ("0402",))]  # the only road: no decision
    rough = make_map(
        """
        . . . r . .
        . . . . . .
        . . . r . .
        """
    )
    b2 = board(rough, [unit("g", strength=8), unit("a", "allied")])
    r2 = fight(b2, pos({"g": "0202", "a": "0302"}), ["g"], ["0302"], [2])
    assert retreats(r2) == [("a", ("0402",))]  # clear before rough


@pytest.mark.rule("AO-10.2a")
def test_rivers_interdicted_bridges_and_fords_rank_in_that_order() -> None:
    walled = make_map(
        """
        . . . . . .
        . . . x . .
        . . . . . .
        """,
        bridges=["0302/0401"],
        rivers=["0302/0403"],
    )
    b = board(walled, [unit("g", strength=8), unit("a", "allied")])
    s = pos({"g": "0202", "a": "0302"})
    # the bridge is within three hexes of g: interdicted for the Allied defender (AO-13.c*);
    # an interdicted bridge still ranks above an unbridged river
    assert retreats(fight(b, s, ["g"], ["0302"], [2])) == [("a", ("0401",))]
    ford = make_map(
        """
        . . . . . .
        . . . x . .
        . . . . . .
        """,
        bridges=["0302/0401"],
        fords=["0302/0403"],
    )
    b2 = board(ford, [unit("g", strength=8), unit("a", "allied")])
    assert retreats(fight(b2, s, ["g"], ["0302"], [2])) == [("a", ("0403",))]


@pytest.mark.rule("AO-10.2a")
def test_a_road_across_a_ford_ranks_as_the_ford() -> None:
    """AO-10.2a: "1. to or along a road and non-interdicted bridge hex-sides; 2. to or through
    clear terrain; 3. through rough terrain and ford hex-sides" - a road that crosses a ford
    is still a ford hexside, ranked below clear terrain."""
    m = make_map(
        """
        . . . . . .
        . . . . . .
        . . . x . .
        """,
        roads=["0302-0402-0502"],
        fords=["0302/0402"],
    )
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    s = pos({"g": "0202", "a": "0302"})
    # a in 0302: 0301 and 0303 are g's ZOC, 0403 impassable; 0402 along the road across the
    # ford (priority 3), 0401 clear (priority 2): 0401 alone is best
    opts = retreat_options(b, ok(b, s, attack(["g"], ["0302"])).state, "a", 1)
    assert (opts.paths, opts.best) == ((("0401",), ("0402",)), 1)
    assert retreats(fight(b, s, ["g"], ["0302"], [2])) == [("a", ("0401",))]


@pytest.mark.rule("AO-10.2a")
def test_fewest_friendly_units_then_the_victor_chooses() -> None:
    b = g3()
    s = pos({"g": "0202", "a": "0302", "a2": "0401", "a3": "0403"})
    assert retreats(fight(b, s, ["g"], ["0302"], [2])) == [("a", ("0402",))]


SOURCES = """
. . . . . . . . . . . .
e . . . . . . . . . . E
. . . . . . . . . . . .
"""
"""3 x 12 clear; the Allied source is the W-edge exit hex 0102 (road 0102-0202, AO-12.2F), the
German one the east-edge road hex 1202 (road 1102-1202, AO-12.2D). Row 2 is shifted half a hex
east, so a hex of row 2 at column c sits at c + 0.5: 0102 at 1.5, 1202 at 12.5. A straight
step east gains 1, a diagonal step to the next row 0.5."""


@pytest.mark.rule("AO-10.2a")
def test_errata_first_priority_toward_friendly_supply_beats_the_road() -> None:
    # g (German) in 0602 is attacked by a from 0502 (west), which controls 0601 and 0603: g
    # may retreat one hex to 0701 (along the road 0602-0701: priority 1), 0702 or 0703 (clear).
    # To 1202 (German supply): 0602 is 6 hexes away (6.5 -> 12.5); 0702 is 5 (toward); 0701
    # and 0703 are 6 (one diagonal, 0.5, then 5 east): not toward. From 0102 (Allied supply):
    # 0602 is 5; 0701, 0702, 0703 are all 6 (away). So 0702 is toward and away, the others
    # only away: 0702 alone is best, before the road. None of the three can trace supply (the
    # German net is 1102-1202, four hexes from 0702): the first reading, "can the end hex
    # trace supply", tied them all and took the road to 0701.
    m = make_map(SOURCES, roads=["0102-0202", "1102-1202", "0602-0701"])
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    s = pos({"a": "0502", "g": "0602"}, side="allied")
    opts = retreat_options(b, ok(b, s, attack(["a"], ["0602"])).state, "g", 1)
    assert (opts.paths, opts.best) == ((("0702",), ("0701",), ("0703",)), 1)
    assert retreats(fight(b, s, ["a"], ["0602"], [1])) == [("g", ("0702",))]  # 8-4, Dr1
    # without the two sources nothing is toward or away: the road wins again
    bare = make_map(SOURCES.replace("e", ".").replace("E", "."), roads=["0602-0701"])
    b2 = board(bare, [unit("a", "allied", strength=8), unit("g")])
    assert retreats(fight(b2, s, ["a"], ["0602"], [1])) == [("g", ("0701",))]


@pytest.mark.rule("AO-10.2a")
def test_an_allied_retreat_goes_toward_the_allied_source_and_away_from_the_german() -> None:
    # a (Allied) in 0602 is attacked by g from 0702 (east), which controls 0701 and 0703: a may
    # retreat to 0601 (along the road 0602-0601), 0502 or 0603. To 0102: 0602 is 5, 0502 is
    # 4 (toward), 0601 and 0603 are 5 (a diagonal, then 4 west). To 1202: 0602 is 6, and all
    # three are 7 (away). 0502 alone is toward and away. German Initial CRT 2-1, die 2: Dr1.
    m = make_map(SOURCES, roads=["0102-0202", "1102-1202", "0602-0601"])
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    s = pos({"g": "0702", "a": "0602"})
    opts = retreat_options(b, ok(b, s, attack(["g"], ["0602"])).state, "a", 1)
    assert (opts.paths, opts.best) == ((("0502",), ("0601",), ("0603",)), 1)
    assert retreats(fight(b, s, ["g"], ["0602"], [2])) == [("a", ("0502",))]


@pytest.mark.rule("AO-10.2a")
def test_toward_and_away_are_measured_from_the_start_hex_to_the_nearest_open_source() -> None:
    # 0602 -> 0702: 6 -> 5 from 1202 (one nearer), 5 -> 6 from 0102 (one farther): gains 2
    assert supply_progress(frozenset({"1202"}), frozenset({"0102"}), "0602", "0702") == 2
    # for the other side the same step loses both: one farther from 0102, one nearer 1202
    assert supply_progress(frozenset({"0102"}), frozenset({"1202"}), "0602", "0702") == -2
    # 0602 -> 0701 keeps 6 from 1202 and goes 5 -> 6 from 0102: one away only
    assert supply_progress(frozenset({"1202"}), frozenset({"0102"}), "0602", "0701") == 1
    # the nearest source counts: with 0112 (row 12, far) added nothing changes
    own = frozenset({"1202", "0112"})
    assert supply_progress(own, frozenset({"0102"}), "0602", "0702") == 2
    # two hexes (an Ar2/Dr2): 0602 -> 0802 is 6 -> 4 from 1202 and 5 -> 7 from 0102
    assert supply_progress(frozenset({"1202"}), frozenset({"0102"}), "0602", "0802") == 4
    # no open source: nothing to measure on that side
    assert supply_progress(frozenset(), frozenset(), "0602", "0702") == 0
    assert supply_progress(frozenset({"1202"}), frozenset(), "0602", "0702") == 1


FLANK = """
. . . . . . . . . . . .
e . . . . . . . . . . .
. . . . . . . . . . . E
. . . . . . . . . . . .
. . . . . . . . . . . .
"""
"""5 x 12 clear; the Allied source is the W-edge exit hex 0102 (road 0102-0202, AO-12.2F), the
German one the east-edge road hex 1203 (road 1203-1104, AO-12.2D). The German g in 0602 is
attacked from the east by a in 0702, whose zone of control covers 0701 and 0703 (its NW and
SW): g may retreat one hex to 0601 (NW), 0502 (W) or 0603 (SW). Straight hex distances (even
rows half a hex east; a hex of row 2 at column c sits at c + 0.5, of row 1 or 3 at c):

* 0602 (6.5, row 2): 6 from 1203 (12, row 3: a diagonal step, then 5 east), 5 from 0102
  (1.5, row 2: 5 west);
* 0603 (6, row 3): 6 from 1203 (6 east), 5 from 0102 (a diagonal, then 4 west): it keeps
  both distances, gains 0;
* 0601 (6, row 1): 7 from 1203 (two diagonals, then 5 east), 5 from 0102 (a diagonal, then
  4 west): a step backwards from friendly supply, gains -1;
* 0502 (5.5, row 2): 7 from 1203 (a diagonal, then 6 east), 4 from 0102: a step backwards
  from friendly supply and one toward the enemy's, gains -2.

Under the yes/no measure (toward? away?) all three were "neither" and ranked alike."""


def flank(**kw: object) -> tuple[Board, GameState]:
    roads = ["0102-0202", "1203-1104", *kw.pop("roads", [])]  # type: ignore[misc]
    m = make_map(FLANK, roads=roads)
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    return b, pos({"a": "0702", "g": "0602"}, side="allied")


@pytest.mark.rule("AO-10.2a")
def test_a_step_backwards_ranks_below_a_hex_that_keeps_both_distances() -> None:
    # FLANK: 0603 (gains 0) before 0601 (-1) before 0502 (-2); 0603 is alone best, so the
    # victor is not asked (the yes/no measure offered all three, 0502 included)
    b, s = flank()
    opts = retreat_options(b, ok(b, s, attack(["a"], ["0602"])).state, "g", 1)
    assert (opts.paths, opts.best) == ((("0603",), ("0601",), ("0502",)), 1)
    r = fight(b, s, ["a"], ["0602"], [1])  # 8-4 2-1 on the Standard CRT, die 1: Dr1
    assert r.state.combat.pending is None
    assert retreats(r) == [("g", ("0603",))]


@pytest.mark.rule("AO-10.2a")
@pytest.mark.rule("AO-12.1A")
def test_the_road_does_not_send_a_unit_backwards_and_out_of_supply() -> None:
    # FLANK with a road 0602-0601 and the German supply road on from 1104: 1105-1005-0905-
    # 0805-0705-0605. 0601 is along the road (priority 1), 0603 and 0502 clear (priority 2); by the
    # first priority 0603 (gains 0) is best, then the road to 0601 (-1). 0603 traces supply
    # (0604, then the road hex 0605: two hexes, AO-12.1A); 0601 does not (the net is four
    # hexes away, and its road leads nowhere). The yes/no measure tied all three ("neither")
    # and the road sent g to 0601: backwards and cut off.
    b, s = flank(roads=["0602-0601", "1104-1105-1005-0905-0805-0705-0605"])
    opts = retreat_options(b, ok(b, s, attack(["a"], ["0602"])).state, "g", 1)
    assert (opts.paths, opts.best) == ((("0603",), ("0601",), ("0502",)), 1)
    r = fight(b, s, ["a"], ["0602"], [1])  # Dr1
    assert retreats(r) == [("g", ("0603",))]
    assert supply_of(b, r.state, "g") == "supplied"
    there = pos({"a": "0702", "g": "0601"}, side="allied")
    assert supply_of(b, there, "g") == "unsupplied"


@pytest.mark.rule("AO-10.2a")
@pytest.mark.rule("AO-12.2F")
def test_an_exit_held_by_the_enemy_is_no_friendly_supply_to_retreat_toward() -> None:
    # As the Allied test above, with a German unit h in 0203: its ZOC covers 0102 (AO-7.5E),
    # the only Allied exit, which is then no Allied source (AO-12.2F). Toward is measured to no
    # source: 0502, 0601 and 0603 are all only away from 1202, and the road to 0601 wins.
    m = make_map(SOURCES, roads=["0102-0202", "1102-1202", "0602-0601"])
    b = board(m, [unit("g", strength=8), unit("h"), unit("a", "allied")])
    s = pos({"g": "0702", "h": "0203", "a": "0602"})
    assert retreats(fight(b, s, ["g"], ["0602"], [2])) == [("a", ("0601",))]


@pytest.mark.rule("AO-10.2a")
@pytest.mark.rule("AO-10.1a")
def test_on_ar_the_defender_chooses_the_attackers_path() -> None:
    b = board(
        make_map(
            """
            . . . . . .
            . . . . . .
            . . . . . .
            """
        ),
        [unit("g", strength=2), unit("a", "allied")],
    )
    s = pos({"g": "0302", "a": "0402"})
    r = fight(b, s, ["g"], ["0402"], [4])  # 2-4 1-2, die 4: Ar2
    d = r.state.combat.pending
    assert d is not None and (d.side, d.kind, d.unit) == ("allied", "retreat", "g")
    assert all(len(c) == 2 for c in d.choices)
    assert ("0202", "0102") in d.choices


# -- AO-10.2b ------------------------------------------------------------------------------------


@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-16.A")
def test_full_distance_by_the_most_direct_path_or_eliminated() -> None:
    b = g3()
    s = pos({"g": "0202", "a": "0302"})
    r = fight(b, s, ["g"], ["0302"], [1])  # 2-1 die 1: Dr2
    d = r.state.combat.pending
    assert d is not None and all(len(c) == 2 for c in d.choices)
    bad = apply(b, r.state, ChooseRetreat(unit="a", path=("0402", "0302")))
    assert isinstance(bad, Rejection) and bad.case == "AO-10.2b"
    short = apply(b, r.state, ChooseRetreat(unit="a", path=("0402",)))
    assert isinstance(short, Rejection)
    # nowhere to go: eliminated, 1 VP to the victor
    line = line_map("x . . x")
    b2 = board(line, [unit("g", strength=8), unit("a", "allied")])
    # a (0201 German, 0401 impassable) is unsupplied, not surrounded (AO-12.3H: impassable and
    # off-map hexes do not surround): defends 4; 8-4 2-1, die 3: Dr1 - into nothing
    r2 = fight(b2, pos({"g": "0201", "a": "0301"}), ["g"], ["0301"], [3])
    assert UnitEliminated(unit="a", hex="0301", case="AO-10.2b") in r2.events
    assert r2.state.vp == VictoryPoints(german=1, allied=0)


@pytest.mark.rule("AO-7.3D")
@pytest.mark.rule("AO-7.3C")
def test_a_friendly_unit_negates_control_for_the_retreat() -> None:
    b = g3()
    s = pos({"g": "0202", "a": "0302", "a2": "0303"})
    opts = retreat_options(b, s, "a", 1)
    assert ("0303",) in opts.paths and ("0301",) not in opts.paths
    assert opts.paths[: opts.best] == (("0401",), ("0402",), ("0403",))  # fewer friends first


@pytest.mark.rule("AO-8.0")
def test_a_retreat_that_would_overstack_eliminates() -> None:
    b = board(
        line_map(". . . ."), [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)]
    )
    s = pos({"g": "0101", "a0": "0201", "a1": "0301", "a2": "0301", "a3": "0301"})
    r = fight(b, s, ["g"], ["0201"], [2])  # 8-4 2-1 die 2: Dr1; 0301 already holds three
    assert UnitEliminated(unit="a0", hex="0201", case="AO-8.0") in r.events


# -- map edge ------------------------------------------------------------------------------------


@pytest.mark.rule("AO-9.7P")
@pytest.mark.rule("AO-5.3M")
@pytest.mark.rule("AO-8.3F")
@pytest.mark.rule("AO-16.A")
def test_allied_units_with_no_other_path_go_dormant_on_the_edge() -> None:
    m = line_map("e . .")
    b = board(m, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(5)])
    s = pos({"g": "0301", "a0": "0201", "a1": "0101", "a2": "0101", "a3": "0101"})
    s = s.replace_units([UnitState(id=f"a{i}", hex="0101", status="dormant") for i in (1, 2, 3)])
    r = fight(b, s, ["g"], ["0201"], [2])
    assert retreats(r) == [("a0", ("0101",))]
    a0 = r.state.unit("a0")
    assert (a0.hex, a0.status) == ("0101", "dormant")  # four there: no limit on the edge
    assert r.state.vp == VictoryPoints()  # not lost for VP


@pytest.mark.rule("AO-9.7P")
def test_the_edge_only_when_there_is_no_live_path() -> None:
    m = make_map(
        """
        e . . .
        . . . .
        """
    )
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    # a in 0201: one away are 0101 (edge), 0102, 0202 (g's ZOC from 0301), 0301 (g)
    r = fight(b, pos({"g": "0301", "a": "0201"}), ["g"], ["0201"], [2])
    assert retreats(r) == [("a", ("0102",))]


@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-16.A")
def test_germans_forced_off_the_live_map_are_eliminated() -> None:
    m = line_map("e . .")
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    r = fight(b, pos({"a": "0301", "g": "0201"}, side="allied"), ["a"], ["0201"], [1])
    assert UnitEliminated(unit="g", hex="0201", case="AO-5.3N") in r.events
    assert r.state.vp == VictoryPoints(german=0, allied=1)


@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-7.3D")
def test_german_zoc_in_an_edge_hex_blocks_the_allied_retreat() -> None:
    m = make_map(
        """
        e . . .
        . . . .
        """
    )
    b = board(m, [unit("g", strength=8), unit("g2"), unit("a", "allied")])
    # g2 in 0102 controls the edge hex 0101 (and 0201's other exits are German or controlled);
    # row 1 has no neighbours to the north, so a is not surrounded (AO-12.3H): unsupplied, it
    # defends 4: 12-4 3-1, die 4: Dr1 - no way out
    r = fight(b, pos({"g": "0301", "g2": "0102", "a": "0201"}), ["g", "g2"], ["0201"], [4])
    assert UnitEliminated(unit="a", hex="0201", case="AO-7.3D") in r.events


# -- Road Mode -----------------------------------------------------------------------------------

ROAD = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])


@pytest.mark.rule("AO-6.7M")
def test_road_mode_units_retreat_along_the_road_and_never_stack() -> None:
    # a in Road Mode defends 2 (AO-6.6K): 4-2 2-1, die 2: Dr1
    b = board(ROAD, [unit("g", strength=4), unit("a", "allied"), unit("a2", "allied")])
    rm = UnitState(id="a", hex="0301", road_mode=True)
    r = fight(b, pos({"g": "0201", "a": rm}), ["g"], ["0301"], [2])
    assert retreats(r) == [("a", ("0401",))]
    # a friendly unit in 0401: a normal unit could stack there, a Road Mode unit may not
    r2 = fight(b, pos({"g": "0201", "a": rm, "a2": "0401"}), ["g"], ["0301"], [2])
    assert UnitEliminated(unit="a", hex="0301", case="AO-6.7M") in r2.events
    # off the road it cannot go at all
    off = make_map(
        """
        . . . .
        . . . .
        """,
        roads=["0201-0301"],
    )
    b3 = board(off, [unit("g", strength=4), unit("a", "allied")])
    r3 = fight(
        b3,
        pos({"g": "0201", "a": UnitState(id="a", hex="0301", road_mode=True)}),
        ["g"],
        ["0301"],
        [2],
    )
    assert r3.state.unit("a").status == "eliminated"


@pytest.mark.rule("AO-6.7N")
@pytest.mark.rule("AO-6.7L*")
def test_a_road_mode_unit_ending_next_to_a_friend_on_the_road_survives() -> None:
    # a in Road Mode defends 2 (AO-6.6K): 4-2 2-1, die 2: Dr1
    b = board(ROAD, [unit("g", strength=4), unit("a", "allied"), unit("a2", "allied")])
    rm = UnitState(id="a", hex="0301", road_mode=True)
    r = fight(b, pos({"g": "0201", "a": rm, "a2": "0501"}), ["g"], ["0301"], [2])
    assert retreats(r) == [("a", ("0401",))]
    assert RoadColumnContact(unit="a", other="a2", hex="0401") in r.events
    a = r.state.unit("a")
    assert a.status == "on_map" and a.road_mode and a.must_leave_road_mode


# == found by the rule audit: retreats (AO-10.2, 8.0, 8.2C, 5.3, 6.6J, 6.7M, 9.2F*) ===============
# Adversarial cases on small synthetic maps with scripted dice, every outcome worked out by hand
# from the rule text (AO-4.2, AO-6.6-6.7, AO-7.3, AO-9 to AO-13 and the errata). Maps carry no
# supply sources unless they have an ``E`` hex with a road, so a defender is unsupplied at the
# moment of combat (defence normal) unless all six of its neighbours are on the map and
# enemy-held or enemy-controlled and no supplied friend is within three hexes, when it is
# isolated (defence halved, AO-12.3H; a hex of a one-row map is never surrounded). ``LINE8`` is
# the eight-hex line ``0101``-``0801``.
#
# German Initial CRT rows (1-2 1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1 9-1):
#     1  Ar1 Dr1 Dr2 Dr3 Ex  Ex  De  De  De  De
#     2  Ar1 Dr1 Dr1 Dr2 Ex  Ex  Ex  De  De  De
#     4  Ar2 Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De
#     6  Ar2 Ar2 Dr1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De
# Standard CRT rows:
#     1  Ar1 Dr1 Dr1 Dr2 Dr3 Ex  Ex  Ex  De  De
#     4  Ar3 Ar2 Ar1 Dr1 Dr2 Dr2 Dr2 Dr3 Ex  De
#
# Found by these tests, since fixed: "to a road" not ranked first (AO-10.2a), and retreats through
# a full stack or a German infantry division (AO-8.0, AO-8.2C).


@pytest.mark.audit
@pytest.mark.rule("AO-10.2a")
def test_retreating_to_a_road_hex_ranks_first_even_off_the_road_hexside() -> None:
    # g in 0202 controls 0301 and 0303; a in 0302 may go to 0401, 0402 or 0403, all clear.
    # 0402 is a road hex (road 0402-0502) but the hexside 0302/0402 carries no road:
    # retreating "to a road" is the first priority, so 0402 is the only best path.
    m = make_map(G3, roads=["0402-0502"])
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    r = fight(b, cpos({"g": "0202", "a": "0302"}), ["g"], ["0302"], [2])  # 2-1 die 2: Dr1
    assert retreats(r) == [("a", ("0402",))]


@pytest.mark.audit
@pytest.mark.rule("AO-7.3D")
@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-10.2a")
def test_retreat_into_enemy_zoc_only_where_a_friend_negates_it() -> None:
    # a in 0302, attacked by g in 0202; 0301/0303 are in g's ZOC, 0401/0402/0403 free.
    # A friend in 0303 negates the ZOC there (AO-7.2B, the engine's reading of 7.3D).
    m = make_map(G3)
    b = board(m, [unit("g", strength=8), unit("a", "allied"), unit("f", "allied")])
    s = cpos({"g": "0202", "a": "0302", "f": "0303"})
    s = ok(b, s, StandingOrders(side="german", retreat="ask")).state
    r = fight(b, s, ["g"], ["0302"], [2])
    d = r.state.combat.pending
    assert d is not None and d.kind == "retreat"
    assert set(d.choices) == {("0401",), ("0402",), ("0403",)}  # fewest friends first
    assert ("0301",) not in d.choices


@pytest.mark.audit
@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-11.g")
@pytest.mark.rule("AO-16.A")
def test_never_into_impassable_full_distance_or_eliminated() -> None:
    # a in 0201 between g (0101) and the impassable 0301: unsupplied (impassable and off-map
    # hexes do not surround, AO-12.3H), defends 4.
    # 8-4 2-1, Initial die 1: Dr2 - no way out: eliminated, 1 VP to the German
    b = board(line_map(". . x . ."), [unit("g", strength=8), unit("a", "allied")])
    done = fight(b, cpos({"g": "0101", "a": "0201"}), ["g"], ["0201"], [1])
    assert (resolved(done).defence, resolved(done).result) == (4, "Dr2")
    assert UnitEliminated(unit="a", hex="0201", case="AO-10.2b") in done.events
    assert done.state.vp == VictoryPoints(german=1, allied=0)
    # two rows: 0201's neighbours are 0101 (g), 0301 (impassable), 0102 (g's ZOC), 0202.
    # Dr2 by the most direct path: 0202, then 0302 (0102 would come back to distance 1)
    m = make_map(
        """
        . . x . .
        . . . . .
        """
    )
    b2 = board(m, [unit("g", strength=8), unit("a", "allied")])
    done2 = fight(b2, cpos({"g": "0101", "a": "0201"}), ["g"], ["0201"], [1])
    assert (resolved(done2).defence, resolved(done2).result) == (4, "Dr2")
    assert retreats(done2) == [("a", ("0202", "0302"))]


@pytest.mark.audit
@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_through_a_full_stack_eliminates() -> None:
    # a (0201), Dr2: the only direct path is 0301 (three Allied regiments) then 0401
    b = board(LINE8, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)])
    s = cpos({"g": "0101", "a0": "0201", "a1": "0301", "a2": "0301", "a3": "0301"})
    done = fight(b, s, ["g"], ["0201"], [1])  # 8-4 2-1, Initial die 1: Dr2
    assert resolved(done).result == "Dr2"
    assert done.state.unit("a0").status == "eliminated"


@pytest.mark.rule("AO-6.7M")
@pytest.mark.rule("AO-8.0")
def test_no_unit_bumps_friends_back_to_make_room() -> None:
    """AO-6.7M: Road Mode units "may not 'bump' other units back in order to avoid elimination";
    nothing says how any other unit would, and AO-8.0: "units that would violate stacking
    limits when retreating due to combat are eliminated instead" (rules notes: no bumping)."""
    b = board(LINE8, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)])
    # a0 (normal mode), Dr1: its only hex one away, 0301, holds three Allied regiments
    s = cpos({"g": "0101", "a0": "0201", "a1": "0301", "a2": "0301", "a3": "0301"})
    done = fight(b, s, ["g"], ["0201"], [2])  # 8-4 2-1, Initial die 2: Dr1
    assert done.state.unit("a0").status == "eliminated"
    assert UnitEliminated(unit="a0", hex="0201", case="AO-8.0") in done.events
    assert {done.state.unit(u).hex for u in ("a1", "a2", "a3")} == {"0301"}  # nobody moved


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-6.7M")
def test_a_road_mode_unit_may_retreat_along_the_road_into_the_west_wall() -> None:
    """AO-11.h's "May not enter in Road Mode" is in the chart's movement column; AO-10.2 repeats
    the impassable hex's ban for retreats ("Units may not move into an Impassable hex when
    retreated") and not this one, and AO-6.7M lists what binds a Road Mode retreat (roads, no
    stacking): a retreat along the road may end in a West Wall hex (rules notes)."""
    m = line_map(". . W . .", roads=["0101-0201-0301-0401-0501"])
    b = board(m, [unit("g"), unit("a", "allied", strength=8)])
    s = cpos({"a": "0101", "g": UnitState(id="g", hex="0201", road_mode=True)}, side="allied")
    done = fight(b, s, ["a"], ["0201"], [6])  # 8 against 4 halved (AO-6.6K): 4-1, die 6: Dr1
    assert retreats(done) == [("g", ("0301",))]
    g = done.state.unit("g")
    assert (g.hex, g.status, g.road_mode) == ("0301", "on_map", True)


@pytest.mark.audit
@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-16.A")
def test_a_retreat_ending_overstacked_eliminates_with_vp() -> None:
    b = board(LINE8, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)])
    s = cpos({"g": "0101", "a0": "0201", "a1": "0401", "a2": "0401", "a3": "0401"})
    done = fight(b, s, ["g"], ["0201"], [1])  # Dr2: 0301 then 0401, which holds three
    assert UnitEliminated(unit="a0", hex="0201", case="AO-8.0") in done.events
    assert done.state.vp == VictoryPoints(german=1, allied=0)


@pytest.mark.audit
@pytest.mark.rule("AO-8.2C")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_ending_on_a_german_infantry_division_eliminates() -> None:
    b = board(LINE8, [unit("a", "allied", strength=8), unit("g", strength=2), unit("d", size="XX")])
    s = cpos({"a": "0101", "g": "0201", "d": "0301"}, side="allied")
    done = fight(b, s, ["a"], ["0201"], [6])  # 8-2 4-1, Standard die 6: Dr1 - onto d
    assert resolved(done).result == "Dr1"
    assert done.state.unit("g").status == "eliminated"
    assert done.state.vp == VictoryPoints(german=0, allied=1)


@pytest.mark.audit
@pytest.mark.rule("AO-8.2C")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_through_a_german_infantry_division_eliminates() -> None:
    b = board(LINE8, [unit("a", "allied", strength=8), unit("g", strength=2), unit("d", size="XX")])
    s = cpos({"a": "0101", "g": "0201", "d": "0301"}, side="allied")
    done = fight(b, s, ["a"], ["0201"], [1])  # 8-2 4-1, Standard die 1: Dr3 through d
    assert resolved(done).result == "Dr3"
    assert done.state.unit("g").status == "eliminated"


@pytest.mark.audit
@pytest.mark.rule("AO-9.7P")
@pytest.mark.rule("AO-5.3M")
@pytest.mark.rule("AO-16.A")
def test_allied_dr2_onto_the_edge_stops_there_dormant_and_scores_nothing() -> None:
    m = line_map("e . . . .")
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    done = fight(b, cpos({"g": "0301", "a": "0201"}), ["g"], ["0201"], [1])  # 2-1 die 1: Dr2
    assert resolved(done).result == "Dr2"
    assert retreats(done) == [("a", ("0101",))]
    assert done.state.unit("a").status == "dormant" and done.state.vp == VictoryPoints()


@pytest.mark.audit
@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-16.A")
def test_a_german_with_a_live_path_is_not_eliminated_by_an_edge_next_to_it() -> None:
    m = make_map(
        """
        e . . .
        . . . .
        """
    )
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    # g in 0201: one away are 0101 (edge: never), 0102 and 0202 (0202 in a's ZOC from 0301)
    done = fight(b, cpos({"a": "0301", "g": "0201"}, side="allied"), ["a"], ["0201"], [2])
    assert resolved(done).result == "Dr1"  # Standard 2-1 die 2
    assert retreats(done) == [("g", ("0102",))]
    assert done.state.vp == VictoryPoints()


@pytest.mark.audit
@pytest.mark.rule("AO-6.7M")
def test_a_road_mode_retreat_may_not_pass_a_friend_on_the_road() -> None:
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g", strength=4), unit("a", "allied"), unit("f", "allied")])
    s = cpos({"g": "0101", "a": UnitState(id="a", hex="0201", road_mode=True), "f": "0301"})
    done = fight(b, s, ["g"], ["0201"], [1])  # 4-2 2-1, Initial die 1: Dr2 through f
    assert resolved(done).result == "Dr2"
    assert UnitEliminated(unit="a", hex="0201", case="AO-6.7M") in done.events


@pytest.mark.audit
@pytest.mark.rule("AO-9.2F*")
@pytest.mark.rule("AO-10.1a")
def test_a_unit_retreated_into_a_stack_retreats_with_it_on_a_later_dr() -> None:
    b = board(
        LINE8,
        [
            unit("g1", strength=8),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    # g1 8-4 2-1 die 2: Dr1, a1 to 0301 (a2's hex)
    s = cpos({"g1": "0101", "a1": "0201", "a2": "0301", "g2": "0501"})
    s = fight(b, s, ["g1"], ["0201"], [2]).state
    assert s.unit("a1").hex == "0301"
    # g2 can't reach 0301 (0401 between); move nothing - attack from 0401 instead
    s = s.replace_units([UnitState(id="g2", hex="0401")])
    r = ok(b, s, attack(["g2"], ["0301"]))
    # a2 only counts (both would be 8); 0301, between 0201 (g1's ZOC) and g2 in 0401, has no
    # supply path but is not surrounded on a one-row map: unsupplied, 4
    assert (declared(r).defence, declared(r).column) == (4, "2-1")
    done = ok(b, r.state, ResolveAttacks(), [3])  # Initial 2-1 die 3: Dr1
    assert resolved(done).result == "Dr1"
    # both are eliminated: the only exits are German-held or German-controlled
    assert {done.state.unit(u).status for u in ("a1", "a2")} == {"eliminated"}


@pytest.mark.audit
@pytest.mark.rule("AO-6.6J")
@pytest.mark.rule("AO-7.3D")
def test_a_road_mode_enemy_does_not_block_a_retreat_next_to_it() -> None:
    # g2 in Road Mode in 0401 controls only 0401: a (Dr1 from 0201) may stop in 0301
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g1", strength=8), unit("g2"), unit("a", "allied")])
    s = cpos({"g1": "0101", "a": "0201", "g2": UnitState(id="g2", hex="0401", road_mode=True)})
    done = fight(b, s, ["g1"], ["0201"], [2])  # 8-4 2-1, Initial die 2: Dr1
    assert retreats(done) == [("a", ("0301",))]
    # g2 in normal mode controls 0301: a (unsupplied, 4) 8-4 2-1, Initial die 6: Dr1 -
    # nowhere to go but the controlled 0301: eliminated (AO-7.3D)
    s2 = cpos({"g1": "0101", "a": "0201", "g2": "0401"})
    done2 = fight(b, s2, ["g1"], ["0201"], [6])
    assert resolved(done2).result == "Dr1"
    assert UnitEliminated(unit="a", hex="0201", case="AO-7.3D") in done2.events
