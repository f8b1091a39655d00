"""Retreats after combat (AO-10.2a/b, AO-7.3C/D, AO-8.0, AO-8.3F, AO-6.7M/N, AO-5.3M/N,
AO-9.7P, AO-16.A) on small synthetic maps, dice scripted, outcomes worked out by hand.

Map ``G3`` (3 rows x 6): the German attacker stands in 0202, the Allied defender in 0302.
0302 (even row) neighbours: NE 0401, E 0402, SE 0403, SW 0303, W 0202, NW 0301; 0202 controls
0301 and 0303 (its NE and SE), so a one-hex retreat from 0302 goes to 0401, 0402 or 0403.
German Initial CRT: 2-1 die 2 is Dr1, die 1 Dr2; 1-2 die 4 Ar2. Standard 2-1 die 1 Dr1.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.combat import retreat_options
from rules.commands import ChooseRetreat, Command, DeclareAttack, ResolveAttacks
from rules.dice import ScriptedDice
from rules.engine import Applied, apply
from rules.events import RoadColumnContact, UnitEliminated, UnitRetreated
from rules.rejection import Rejection
from rules.state import Board, GameState, UnitState, VictoryPoints
from tests.enginekit import board, line_map, make_map, position, unit


def ok(b: Board, s: GameState, cmd: Command, dice: Sequence[int] = ()) -> Applied:
    r = apply(b, s, cmd, ScriptedDice(list(dice), start=s.dice_drawn) if dice else None)
    assert isinstance(r, Applied), r
    return r


def fight(
    b: Board, s: GameState, attackers: Sequence[str], defenders: Sequence[str], die: int
) -> Applied:
    s = ok(b, s, DeclareAttack(attackers=tuple(attackers), defenders=tuple(defenders))).state
    return ok(b, s, ResolveAttacks(), [die])


def retreats(r: Applied) -> list[tuple[str, tuple[str, ...]]]:
    return [(e.unit, e.path) for e in r.events if isinstance(e, UnitRetreated)]


def g3(**kw: object) -> Board:
    m = make_map(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        """,
        **kw,  # type: ignore[arg-type]
    )
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
    r = fight(b, s, ["g"], ["0302"], 2)  # 8-4 2-1, die 2: Dr1
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
    r = fight(b, pos({"g": "0202", "a": "0302"}), ["g"], ["0302"], 2)
    assert retreats(r) == [("a", ("0402",))]  # the only road: no decision
    rough = make_map(
        """
        . . . r . .
        . . . . . .
        . . . r . .
        """
    )
    b2 = board(rough, [unit("g", strength=8), unit("a", "allied")])
    r2 = fight(b2, pos({"g": "0202", "a": "0302"}), ["g"], ["0302"], 2)
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
    assert retreats(fight(b, s, ["g"], ["0302"], 2)) == [("a", ("0401",))]
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
    assert retreats(fight(b2, s, ["g"], ["0302"], 2)) == [("a", ("0403",))]


@pytest.mark.rule("AO-10.2a")
def test_fewest_friendly_units_then_the_victor_chooses() -> None:
    b = g3()
    s = pos({"g": "0202", "a": "0302", "a2": "0401", "a3": "0403"})
    assert retreats(fight(b, s, ["g"], ["0302"], 2)) == [("a", ("0402",))]


@pytest.mark.rule("AO-10.2a")
def test_errata_first_priority_toward_friendly_supply_beats_the_road() -> None:
    # German source: the road leaving the east edge at 1001; the net is 0801-0901-1001.
    # g in 0401 is attacked from 0301 (which controls 0302); it may go to 0501 (clear, three
    # steps 0601-0701-0801 from the net: supplied) or along the road to 0402 (four: not).
    m = make_map(
        """
        . . . . . . . . . E
        . . . . . . . . . .
        """,
        roads=["0401-0402", "0801-0901-1001"],
    )
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    s = pos({"a": "0301", "g": "0401"}, side="allied")
    r = fight(b, s, ["a"], ["0401"], 1)  # Standard 2-1 die 1: Dr1
    assert retreats(r) == [("g", ("0501",))]
    # without the source both ends are unsupplied and the road wins
    m2 = make_map(
        """
        . . . . . . . . . .
        . . . . . . . . . .
        """,
        roads=["0401-0402", "0801-0901-1001"],
    )
    b2 = board(m2, [unit("a", "allied", strength=8), unit("g")])
    assert retreats(fight(b2, s, ["a"], ["0401"], 1)) == [("g", ("0402",))]


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
    r = fight(b, s, ["g"], ["0402"], 4)  # 2-4 1-2, die 4: Ar2
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
    r = fight(b, s, ["g"], ["0302"], 1)  # 2-1 die 1: Dr2
    d = r.state.combat.pending
    assert d is not None and all(len(c) == 2 for c in d.choices)
    bad = apply(b, r.state, ChooseRetreat(unit="a", path=("0402", "0302")))
    assert isinstance(bad, Rejection) and bad.case == "AO-10.2b"
    short = apply(b, r.state, ChooseRetreat(unit="a", path=("0402",)))
    assert isinstance(short, Rejection)
    # nowhere to go: eliminated, 1 VP to the victor
    line = line_map("x . . x")
    b2 = board(line, [unit("g", strength=8), unit("a", "allied")])
    # a is ringed (0201 German, 0401 impassable): isolated, defends 2; 8-2 4-1, die 3: Dr3
    r2 = fight(b2, pos({"g": "0201", "a": "0301"}), ["g"], ["0301"], 3)
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
    r = fight(b, s, ["g"], ["0201"], 2)  # 8-4 2-1 die 2: Dr1; 0301 already holds three
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
    r = fight(b, s, ["g"], ["0201"], 2)
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
    r = fight(b, pos({"g": "0301", "a": "0201"}), ["g"], ["0201"], 2)
    assert retreats(r) == [("a", ("0102",))]


@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-16.A")
def test_germans_forced_off_the_live_map_are_eliminated() -> None:
    m = line_map("e . .")
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    r = fight(b, pos({"a": "0301", "g": "0201"}, side="allied"), ["a"], ["0201"], 1)
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
    # g2 in 0102 controls the edge hex 0101 (and 0201's other exits are German or controlled)
    # ringed in, a is isolated and defends 2: 12-2 6-1, die 4: Dr3 - no way out
    r = fight(b, pos({"g": "0301", "g2": "0102", "a": "0201"}), ["g", "g2"], ["0201"], 4)
    assert UnitEliminated(unit="a", hex="0201", case="AO-7.3D") in r.events


# -- Road Mode -----------------------------------------------------------------------------------

ROAD = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])


@pytest.mark.rule("AO-6.7M")
def test_road_mode_units_retreat_along_the_road_and_never_stack() -> None:
    # a in Road Mode defends 2 (AO-6.6K): 4-2 2-1, die 2: Dr1
    b = board(ROAD, [unit("g", strength=4), unit("a", "allied"), unit("a2", "allied")])
    rm = UnitState(id="a", hex="0301", road_mode=True)
    r = fight(b, pos({"g": "0201", "a": rm}), ["g"], ["0301"], 2)
    assert retreats(r) == [("a", ("0401",))]
    # a friendly unit in 0401: a normal unit could stack there, a Road Mode unit may not
    r2 = fight(b, pos({"g": "0201", "a": rm, "a2": "0401"}), ["g"], ["0301"], 2)
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
        2,
    )
    assert r3.state.unit("a").status == "eliminated"


@pytest.mark.rule("AO-6.7N")
@pytest.mark.rule("AO-6.7L*")
def test_a_road_mode_unit_ending_next_to_a_friend_on_the_road_survives() -> None:
    # a in Road Mode defends 2 (AO-6.6K): 4-2 2-1, die 2: Dr1
    b = board(ROAD, [unit("g", strength=4), unit("a", "allied"), unit("a2", "allied")])
    rm = UnitState(id="a", hex="0301", road_mode=True)
    r = fight(b, pos({"g": "0201", "a": rm, "a2": "0501"}), ["g"], ["0301"], 2)
    assert retreats(r) == [("a", ("0401",))]
    assert RoadColumnContact(unit="a", other="a2", hex="0401") in r.events
    a = r.state.unit("a")
    assert a.status == "on_map" and a.road_mode and a.must_leave_road_mode
