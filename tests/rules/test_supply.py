"""Supply (AO-12) on small synthetic maps, outcomes worked out by hand; the real map at set-up;
a monotonicity property.

Geometry reminder (``tests/kit/engine.py``): odd rows - NE (C, R-1), E (C+1, R), SE (C, R+1),
SW (C-1, R+1), W (C-1, R), NW (C-1, R-1); even rows are shifted east - NE (C+1, R-1),
SE (C+1, R+1), SW (C, R+1), NW (C, R-1).
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ao.interdiction import interdiction_for
from rules.ao.movement import movement_allowance
from rules.ao.state import Board, GameState, Interdiction, Supply, UnitState
from rules.ao.supply import (
    SUPPLY_EFFECTS,
    allied_exit_hexsides,
    attack_strength,
    defence_strength,
    german_exit_hexes,
    supplied_movement,
    supply_judgment,
    supply_of,
    with_supply_markers,
)
from rules.ao.units import Side
from tests.kit.engine import (
    attack,
    board,
    cpos,
    declared,
    make_map,
    meuse,
    ok,
    position,
    rm,
    unit,
)
from tests.kit.realmap import RealScenario

# A 7x3 map: row 2 carries a road 0402-0502-0602-0702 to the German east-edge hex 0702.
#   row 1:  0101 0201 0301 0401 0501 0601 0701
#   row 2:    0102 0202 0302 0402 0502 0602 0702(E)
#   row 3:  0103 0203 0303 0403 0503 0603 0703
STRIP = make_map(
    """
    . . . . . . .
    . . . . . . E
    . . . . . . .
    """,
    roads=["0402-0502-0602-0702"],
)
G_UNITS = [unit(f"g{i}") for i in range(1, 6)]
A_UNITS = [unit(f"a{i}", "allied") for i in range(1, 6)]


def judge(b: Board, s: GameState, side: Side = "german", **kw: object) -> dict[str, Supply]:
    """The Supply Judgment of ``side`` (``kw``: ``always_supplied``, ...)."""
    return dict(supply_judgment(b, s, side, **kw))  # type: ignore[arg-type]


# -- sources -------------------------------------------------------------------------------------


@pytest.mark.rule("AO-12.2D")
def test_german_source_is_a_road_leaving_the_east_edge() -> None:
    line = "E . . . . E"
    with_exit = make_map(line, roads=["0101-0201-0301-0401-0501-0601"])
    assert german_exit_hexes(with_exit) == {"0101", "0601"}
    b = board(with_exit, G_UNITS)
    assert judge(b, position({"g1": "0301"})) == {"g1": "supplied"}
    # the east-edge hexes carry no road: no source, however close the road runs
    no_exit = make_map(line, roads=["0201-0301-0401-0501"])
    assert german_exit_hexes(no_exit) == frozenset()
    assert judge(board(no_exit, G_UNITS), position({"g1": "0301"})) == {"g1": "unsupplied"}
    # an Allied edge road exit is no German source
    allied_exit = make_map("e . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    assert judge(board(allied_exit, G_UNITS), position({"g1": "0301"})) == {"g1": "unsupplied"}


# 0102 is an Allied edge hex with a road to the live hex 0202; its other live neighbours are
# 0101 (odd row: SE of 0101 is 0102) and 0201, 0203, 0103.
EXIT_MAP = make_map(
    """
    . . . . . .
    e . . . . .
    . . . . . .
    """,
    roads=["0102-0202-0302-0402-0502-0602"],
)


@pytest.mark.rule("AO-12.2F")
def test_allied_source_is_a_road_exit_hexside_not_held_by_the_german() -> None:
    assert allied_exit_hexsides(EXIT_MAP) == (("0202", "0102"),)
    b = board(EXIT_MAP, G_UNITS + A_UNITS)
    assert judge(b, position({"a1": "0602"}), "allied") == {"a1": "supplied"}
    # a German east-edge road is no Allied source
    east = make_map(". . . . E", roads=["0101-0201-0301-0401-0501"])
    assert judge(board(east, A_UNITS), position({"a1": "0301"}), "allied") == {"a1": "unsupplied"}
    # German ZOC into the exit hex (from 0101; the road hexes 0202-0602 stay free): the exit
    # is German-held (AO-16.C) and no source; a dormant Allied unit in it negates the ZOC.
    s = position({"a1": "0602", "g1": "0101"})
    assert judge(b, s, "allied") == {"a1": "unsupplied"}
    s = position(
        {"a1": "0602", "g1": "0101", "a2": UnitState(id="a2", hex="0102", status="dormant")}
    )
    assert judge(b, s, "allied") == {"a1": "supplied"}  # a2, dormant, is not judged


# -- the path ------------------------------------------------------------------------------------


@pytest.mark.rule("AO-12.1A")
def test_at_most_three_hexes_to_the_road_counting_the_road_hex() -> None:
    b = board(STRIP, G_UNITS)
    # 0102 -> 0202 -> 0302 -> 0402 (road): three hexes
    assert judge(b, position({"g1": "0102"})) == {"g1": "supplied"}
    # from 0101, 0402 is four hexes away (0101-0201-0301-0401-0402 or through row 2)
    ext = make_map(". . . . . . . E", roads=["0501-0601-0701-0801"])
    b2 = board(ext, G_UNITS)
    assert judge(b2, position({"g1": "0201", "g2": "0101", "g3": "0501"})) == {
        "g1": "supplied",
        "g2": "unsupplied",
        "g3": "supplied",  # on the road: no off-road hexes needed
    }


@pytest.mark.rule("AO-12.1C")
def test_first_three_hexes_any_terrain_but_impassable() -> None:
    roads = ["0401-0501-0601"]
    rough = board(make_map(". r r . . E", roads=roads), G_UNITS)
    assert judge(rough, position({"g1": "0101"})) == {"g1": "supplied"}
    blocked = board(make_map(". x . . . E", roads=roads), G_UNITS)
    # only unsupplied: impassable terrain does not surround a unit (AO-12.3H)
    assert judge(blocked, position({"g1": "0101"})) == {"g1": "unsupplied"}
    # an unbridged river is terrain too: crossed off the road
    river = board(make_map(". . . . . E", roads=roads, rivers=["0201/0301"]), G_UNITS)
    assert judge(river, position({"g1": "0101"})) == {"g1": "supplied"}


@pytest.mark.rule("AO-12.1C")
@pytest.mark.rule("AO-7.3D")
def test_no_path_through_enemy_zoc_or_enemy_units() -> None:
    b = board(STRIP, G_UNITS + A_UNITS)
    # a1 at 0301 controls 0202, 0302 (and 0401): every 3-hex path from 0102 to 0402 is shut;
    # round by row 3 (0203-0303-0403-0402) is four hexes.
    assert judge(b, position({"g1": "0102", "a1": "0301"})) == {"g1": "unsupplied"}
    # an enemy unit on the way: a1 in 0302 (controlling 0202, 0203, 0303 and 0402 too)
    assert judge(b, position({"g1": "0102", "a1": "0302"})) == {"g1": "unsupplied"}


@pytest.mark.rule("AO-12.1A")
def test_path_may_pass_friendly_units_in_enemy_zoc() -> None:
    b = board(STRIP, G_UNITS + A_UNITS)
    # friends in both controlled hexes of the path negate the ZOC (AO-7.2B)
    s = position({"g1": "0102", "g2": "0202", "g3": "0302", "a1": "0301"})
    assert judge(b, s) == {"g1": "supplied", "g2": "supplied", "g3": "supplied"}
    # one friend is not enough: 0302 is still controlled
    s = position({"g1": "0102", "g2": "0202", "a1": "0301"})
    assert judge(b, s)["g1"] == "unsupplied"


@pytest.mark.rule("AO-12.1A")
def test_road_part_blocked_by_enemy_control_unless_friends_hold_it() -> None:
    b = board(STRIP, G_UNITS + A_UNITS)
    # a1 at 0603 controls the road hexes 0502 and 0602
    assert judge(b, position({"g1": "0402", "a1": "0603"})) == {"g1": "unsupplied"}
    s = position({"g1": "0402", "g2": "0502", "g3": "0602", "a1": "0603"})
    assert judge(b, s) == {"g1": "supplied", "g2": "supplied", "g3": "supplied"}
    # an enemy unit on the road cuts it
    assert judge(b, position({"g1": "0402", "a1": "0602"})) == {"g1": "unsupplied"}


@pytest.mark.rule("AO-6.6J")
def test_road_mode_enemy_controls_only_its_own_hex() -> None:
    b = board(STRIP, G_UNITS + A_UNITS)
    rm = {"road_mode": True}
    s = position({"g1": "0402", "a1": UnitState(id="a1", hex="0603", **rm)})  # type: ignore[arg-type]
    assert judge(b, s) == {"g1": "supplied"}
    s = position({"g1": "0102", "a1": UnitState(id="a1", hex="0301", **rm)})  # type: ignore[arg-type]
    assert judge(b, s) == {"g1": "supplied"}
    # it still occupies its hex: on the road it cuts it
    s = position({"g1": "0402", "a1": UnitState(id="a1", hex="0602", **rm)})  # type: ignore[arg-type]
    assert judge(b, s) == {"g1": "unsupplied"}


@pytest.mark.rule("AO-12.1B")
def test_any_number_of_units_share_a_path() -> None:
    b = board(STRIP, G_UNITS)
    s = position({"g1": "0102", "g2": "0202", "g3": "0302", "g4": "0201", "g5": "0303"})
    assert set(judge(b, s).values()) == {"supplied"}


# -- bridges on the supply road ------------------------------------------------------------------

BRIDGE_LINE = make_map(". . . . E", roads=["0101-0201-0301-0401-0501"], bridges=["0301/0401"])


@pytest.mark.rule("AO-13.2B")
@pytest.mark.rule("AO-13.5F")
def test_interdicted_bridge_cuts_the_supply_road_for_that_side_only() -> None:
    b = board(BRIDGE_LINE, G_UNITS + A_UNITS)
    assert judge(b, position({"g1": "0101"})) == {"g1": "supplied"}
    assert judge(b, position({"g1": "0101"}, interdicted_german=["0301/0401"])) == {
        "g1": "unsupplied"
    }
    assert judge(b, position({"g1": "0101"}, interdicted_allied=["0301/0401"])) == {
        "g1": "supplied"
    }
    # nor may the first hexes of the path cross it: 0301 -> 0401 is one hex, but by the bridge
    assert judge(b, position({"g1": "0301"}, interdicted_german=["0301/0401"])) == {
        "g1": "unsupplied"
    }


@pytest.mark.rule("AO-13.b*")
def test_judgment_uses_the_interdiction_fixed_at_supply_judgment() -> None:
    b = board(BRIDGE_LINE, G_UNITS + A_UNITS)
    # a1 (0101 is 2 hexes from 0301) would interdict the bridge now, but the stored set, fixed
    # at Supply Judgment, is empty: it does not cut the road this player-turn
    s = position({"g1": "0501", "g2": "0401", "a1": "0101"})
    assert interdiction_for(b, s, "german", 2) == (("0301", "0401"),)
    assert judge(b, s) == {"g1": "supplied", "g2": "supplied"}
    # and a stored interdiction stays when its interdicting unit is gone
    s = position({"g1": "0101"}, interdicted_german=["0301/0401"])
    assert judge(b, s) == {"g1": "unsupplied"}


@pytest.mark.rule("AO-13.c*")
@pytest.mark.rule("AO-12.0")
def test_defender_supply_at_combat_uses_interdiction_at_that_moment() -> None:
    b = board(BRIDGE_LINE, G_UNITS + A_UNITS)
    # Allied player-turn: nothing is stored for the German, but a1 now interdicts the bridge
    s = position({"g1": "0201", "a1": "0101"}, side="allied", phase="combat")
    # g1 at 0201: 0201-0301 is road, then the bridge: cut; no other way (line map)
    assert judge(b, s) == {"g1": "supplied"}  # the stored (empty) set
    assert supply_of(b, s, "g1") == "unsupplied"
    # an explicit set overrides
    assert supply_of(b, s, "g1", interdicted=()) == "supplied"


# -- states -------------------------------------------------------------------------------------

# 9x7, east edge column 9; the only road is 0907-0807 (exit 0907). Ring of 0404:
# 0503 0504 0505 0405 0304 0403; Allied units at 0503, 0505, 0304 hold three and control the
# other three.
RING = make_map(
    "\n".join(" ".join("E" if c == 9 else "." for c in range(1, 10)) for _ in range(7)),
    roads=["0907-0807"],
)
RING_ALLIES = {"a1": "0503", "a2": "0505", "a3": "0304"}


@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.3G")
def test_isolated_surrounded_and_far_from_supplied_friends() -> None:
    b = board(RING, G_UNITS + A_UNITS)
    # g2 at 0804 is 4 hexes from g1, supplied (0804-0805-0806-0807)
    s = position({"g1": "0404", "g2": "0804", **RING_ALLIES})
    assert judge(b, s) == {"g1": "isolated", "g2": "supplied"}
    # g2 at 0704 is 3 hexes from g1 (and supplied by 0704-0805-0806-0807): not isolated
    s = position({"g1": "0404", "g2": "0704", **RING_ALLIES})
    assert judge(b, s) == {"g1": "unsupplied", "g2": "supplied"}
    # an unsupplied friend within 3 hexes does not help
    s = position({"g1": "0404", "g2": "0804", "g3": "0201", **RING_ALLIES})
    assert judge(b, s) == {"g1": "isolated", "g2": "supplied", "g3": "unsupplied"}
    # one open neighbour (a3 gone: 0304 free, 0403/0405 still controlled by a1/a2)
    s = position({"g1": "0404", "g2": "0804", "a1": "0503", "a2": "0505"})
    assert judge(b, s)["g1"] == "unsupplied"


# RING with 0304 impassable: five of 0404's neighbours are held or controlled by a1 (0503) and
# a2 (0505), the sixth is terrain.
RING_X = make_map(
    "\n".join(
        " ".join("E" if c == 9 else "x" if (c, r) == (3, 4) else "." for c in range(1, 10))
        for r in range(1, 8)
    ),
    roads=["0907-0807"],
)


@pytest.mark.rule("AO-12.3H")
def test_off_map_and_impassable_neighbours_do_not_surround() -> None:
    """AO-12.3H: isolated only when "totally surrounded on all six adjacent hexes by Enemy units
    or Enemy controlled hexes": the map's edge and impassable terrain are neither."""
    b = board(RING, G_UNITS + A_UNITS)
    # 0101's only on-map neighbours, 0201 and 0102, are both controlled by a1 at 0202; its four
    # other neighbours are off the map: no supply path, but not surrounded - only unsupplied
    assert judge(b, position({"g1": "0101", "a1": "0202"})) == {"g1": "unsupplied"}
    # 0404 with a1 (0503) and a2 (0505) holding two neighbours and controlling 0403, 0504 and
    # 0405, and the impassable 0304 as the sixth: only unsupplied
    bx = board(RING_X, G_UNITS + A_UNITS)
    assert judge(bx, position({"g1": "0404", "a1": "0503", "a2": "0505"})) == {"g1": "unsupplied"}
    # an Allied unit on 0304 instead of the impassable hex closes the ring: isolated
    assert judge(b, position({"g1": "0404", **RING_ALLIES})) == {"g1": "isolated"}


@pytest.mark.rule("AO-12.3J")
def test_never_isolated_near_an_own_road_exit() -> None:
    b = board(RING, G_UNITS + A_UNITS)
    # g1 at 0706 is 2 hexes from the exit hex 0907; ring of 0706: 0805 0806 0807 0707 0606
    # 0705 - Allied units at 0805, 0807, 0606, 0705 hold and control all six
    allies = {"a1": "0805", "a2": "0807", "a3": "0606", "a4": "0705"}
    assert judge(b, position({"g1": "0706", **allies})) == {"g1": "unsupplied"}
    # the same ring far from the exit isolates: shift everything two columns west
    far = {"a1": "0605", "a2": "0607", "a3": "0406", "a4": "0505"}
    assert judge(b, position({"g1": "0506", **far})) == {"g1": "isolated"}
    # Allied side: within 3 hexes of its exit hexside 0102-0202 on EXIT_MAP, never isolated
    b2 = board(EXIT_MAP, G_UNITS + A_UNITS)
    s = position({"a1": "0101", "g1": "0301", "g2": "0202"})
    assert judge(b2, s, "allied") == {"a1": "unsupplied"}


@pytest.mark.rule("AO-4.2b")
def test_german_units_supplied_on_game_turn_1_and_always_supplied_units() -> None:
    b = board(RING, G_UNITS + A_UNITS)
    s = position({"g1": "0404", **RING_ALLIES}, turn=1)
    assert judge(b, s) == {"g1": "supplied"}
    s2 = position({"g1": "0404", **RING_ALLIES}, turn=2)
    assert supply_judgment(b, s2, "german", always_supplied={"g1"}) == {"g1": "supplied"}
    assert judge(b, s2) == {"g1": "isolated"}


@pytest.mark.rule("AO-12.4K")
@pytest.mark.rule("AO-12.0*")
def test_markers_fixed_at_judgment_defence_judged_at_combat() -> None:
    b = board(STRIP, G_UNITS + A_UNITS)
    s0 = position({"g1": "0402"}, phase="supply_judgment")
    judged = with_supply_markers(s0, judge(b, s0))
    assert judged.unit("g1").supply == "supplied"
    # later in the player-turn an Allied unit sits on the road: the marker (what attack and
    # movement read) is unchanged - nothing re-judges it - while a fresh trace would differ
    later = msgspec.structs.replace(
        judged, units=(UnitState(id="a1", hex="0602"), *judged.units), phase="combat"
    )
    assert later.unit("g1").supply == "supplied"
    assert attack_strength(7, later.unit("g1").supply) == 7
    assert movement_allowance(b.defs["g1"], later.unit("g1")) == 8
    # as a defender in the enemy's player-turn it is judged at the moment of combat
    enemy_turn = msgspec.structs.replace(later, side="allied")
    assert supply_of(b, enemy_turn, "g1") == "unsupplied"


@pytest.mark.rule("AO-12.5L")
def test_no_unit_lost_through_supply() -> None:
    b = board(RING, G_UNITS + A_UNITS)
    s = position({"g1": "0404", **RING_ALLIES})
    after = with_supply_markers(s, judge(b, s))
    g1 = after.unit("g1")
    assert (g1.supply, g1.status, g1.hex) == ("isolated", "on_map", "0404")
    assert [u for u in after.units if u.id != "g1"] == [u for u in s.units if u.id != "g1"]


@pytest.mark.rule("AO-12.6")
def test_supply_effects_chart() -> None:
    assert {k: (v.defence, v.attack, v.movement) for k, v in SUPPLY_EFFECTS.items()} == {
        "supplied": ("normal", "normal", "normal"),
        "unsupplied": ("normal", "halved", "halved"),
        "isolated": ("halved", "zero", "halved"),
    }
    assert [attack_strength(9, s) for s in ("supplied", "unsupplied", "isolated")] == [9, 5, 0]
    assert [defence_strength(9, s) for s in ("supplied", "unsupplied", "isolated")] == [9, 9, 5]
    assert [supplied_movement(7, s) for s in ("supplied", "unsupplied", "isolated")] == [7, 3, 3]
    d = unit("g1", ma=7)
    for sup in ("supplied", "unsupplied", "isolated"):
        us = UnitState(id="g1", hex="0101", supply=sup)
        assert movement_allowance(d, us) == supplied_movement(7, sup)


# -- the real map ---------------------------------------------------------------------------------


def test_scenario_1_setup_everyone_supplied_on_game_turn_1(real_scenario: RealScenario) -> None:
    b, s = real_scenario(1)
    for side in ("german", "allied"):
        it = interdiction_for(b, s, side, 1)
        st_ = msgspec.structs.replace(s, interdicted=Interdiction(**{side: it}))
        got = supply_judgment(b, st_, side)
        assert got and set(got.values()) == {"supplied"}, side


def test_scenario_1_setup_germans_trace_supply_without_the_gt1_rule(
    real_scenario: RealScenario,
) -> None:
    b, s = real_scenario(1)
    s = msgspec.structs.replace(
        s, turn=2, interdicted=Interdiction(german=interdiction_for(b, s, "german", 1))
    )
    got = supply_judgment(b, s, "german")
    assert {k: v for k, v in got.items() if v != "supplied"} == {}


# -- property: more enemies never help ------------------------------------------------------------

PROP_MAP = make_map(
    """
    . . r . . . E
    e . . x . . E
    . . . . r . E
    e . . . . . E
    """,
    roads=[
        "0102-0202-0302-0402-0502-0602-0702",
        "0104-0204-0304-0404-0504-0604-0704",
        "0302-0303-0304",
    ],
    bridges=["0402/0502", "0404/0504"],
)
PROP_HEXES = [
    h for h in PROP_MAP if PROP_MAP.hex(h).terrain != "impassable" and PROP_MAP.hex(h).edge is None
]
PROP_BOARD = board(PROP_MAP, G_UNITS + A_UNITS)
RANK = {"supplied": 0, "unsupplied": 1, "isolated": 2}


@st.composite
def _worlds(draw: st.DrawFn) -> tuple[GameState, str, UnitState]:
    hexes = draw(st.lists(st.sampled_from(PROP_HEXES), min_size=10, max_size=10, unique=True))
    rm = draw(st.lists(st.booleans(), min_size=10, max_size=10))
    ids = [f"g{i}" for i in range(1, 5)] + [f"a{i}" for i in range(1, 5)]
    rows = {
        uid: UnitState(id=uid, hex=h, road_mode=r)
        for uid, h, r in zip(ids, hexes, rm, strict=False)
    }
    side = draw(st.sampled_from(["german", "allied"]))
    extra_id = "a5" if side == "german" else "g5"
    extra = UnitState(id=extra_id, hex=hexes[8], road_mode=rm[9])
    return position(rows), side, extra


@given(_worlds())
def test_adding_an_enemy_unit_never_improves_supply(
    world: tuple[GameState, str, UnitState],
) -> None:
    s, side, extra = world
    b = PROP_BOARD

    def judged(state: GameState) -> dict[str, Supply]:
        it = interdiction_for(b, state, side, 2)  # type: ignore[arg-type]
        st_ = msgspec.structs.replace(state, interdicted=Interdiction(**{side: it}))
        return supply_judgment(b, st_, side)  # type: ignore[arg-type]

    before = judged(s)
    after = judged(
        msgspec.structs.replace(s, units=tuple(sorted((*s.units, extra), key=lambda u: u.id)))
    )
    for uid, sup in before.items():
        assert RANK[after[uid]] >= RANK[sup], (uid, sup, after[uid])


# == found by the rule audit: supply (AO-12) ======================================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
# Map codes (``tests/kit/engine.py``): ``e`` Allied Map Edge hex (section W unless remapped), ``E``
# German east-edge hex (a German supply source and entry hex when a road leaves it), ``x``
# impassable. Units are 4-8 (strength 4, MA 8) unless given otherwise.


GS = [unit(f"g{i}") for i in range(1, 5)]


AS = [unit(f"a{i}", "allied") for i in range(1, 5)]


# Nine hexes in a row, the German source at 0901. Unbridged: a road on each bank of the Meuse
# (0401/0501), none across it. Bridged: one road over a Meuse bridge.
MEUSE_OPEN = meuse(
    make_map(
        ". . . . . . . . E",
        roads=["0101-0201-0301-0401", "0501-0601-0701-0801-0901"],
        rivers=["0401/0501"],
    ),
    "0401/0501",
)


MEUSE_BRIDGE = meuse(
    make_map(
        ". . . . . . . . E",
        roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901"],
        bridges=["0401/0501"],
    ),
    "0401/0501",
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.1A")
@pytest.mark.rule("AO-12.1C")
@pytest.mark.rule("AO-13.2B")
def test_supply_across_the_meuse_only_off_road_within_three_hexes_or_by_an_open_bridge() -> None:
    """AO-12.1A: at most three hexes to a road "which road must then run uninterrupted by
    interdicted bridge hex-sides ... to a supply source"; AO-12.1C: the first three hexes "may
    transit any type of terrain except Impassable hexes" (a river is terrain); AO-13.2B: the
    road crossing an interdicted bridge "may not be used for supply"."""
    b = board(MEUSE_OPEN, GS)
    # g1 stands on the west-bank road, but that road does not reach a source: the net is
    # 0501-0901 and 0501 is four hexes away. g2 crosses the river off the road: 0301, 0401,
    # 0501 - three hexes.
    assert judge(b, position({"g1": "0101", "g2": "0201"})) == {
        "g1": "unsupplied",
        "g2": "supplied",
    }
    bb = board(MEUSE_BRIDGE, GS)
    s = position({"g1": "0101", "g2": "0201", "g3": "0401", "g4": "0501"})
    assert set(judge(bb, s).values()) == {"supplied"}
    # the bridge interdicted for the German: west of it nobody traces across, not even one
    # hex off the road (documented reading of AO-13.2B); 0501 is on the net
    cut = position(
        {"g1": "0101", "g2": "0201", "g3": "0401", "g4": "0501"}, interdicted_german=["0401/0501"]
    )
    assert judge(bb, cut) == {
        "g1": "unsupplied",
        "g2": "unsupplied",
        "g3": "unsupplied",
        "g4": "supplied",
    }
    # interdicted for the Allies only: no effect on German supply (AO-13.5F)
    other = position({"g1": "0101"}, interdicted_allied=["0401/0501"])
    assert judge(bb, other) == {"g1": "supplied"}


# Two rows; the road 0101-0201-0301-0401 leaves the map at the east-edge hex 0401.
EAST_SOURCE = make_map(
    """
    . . . E
    . . . .
    """,
    roads=["0101-0201-0301-0401"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.2D")
@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-6.6J")
def test_a_german_source_is_shut_by_allied_presence_or_control_and_reopened_by_a_german() -> None:
    """AO-12.2D: "German supply is traced to any road hexside on the East edge of the map"; the
    road must run "uninterrupted by ... Enemy occupied or controlled hexes" (AO-12.1A), which
    the source hex is too; a friendly unit negates enemy ZOC (AO-7.2B); a Road Mode unit
    controls only its own hex (AO-6.6J). a1 at 0402 controls the source 0401 and 0302."""
    b = board(EAST_SOURCE, GS + AS)
    assert judge(b, position({"g1": "0101", "a1": "0402"})) == {"g1": "unsupplied"}
    assert judge(b, position({"g1": "0101", "a1": rm("a1", "0402")})) == {"g1": "supplied"}
    s = position({"g1": "0101", "g2": "0401", "a1": "0402"})
    assert judge(b, s) == {"g1": "supplied", "g2": "supplied"}
    # on the source hex itself, even in Road Mode, the Allied unit shuts it
    assert judge(b, position({"g1": "0101", "a1": rm("a1", "0401")})) == {"g1": "unsupplied"}


# Three rows; row 1 is Allied Map Edge; the road 0102-...-0602 runs to the German source 0602.
EDGE_ROW = make_map(
    """
    e e e e e e
    . . . . . E
    . . . . . .
    """,
    roads=["0102-0202-0302-0402-0502-0602"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-12.1A")
@pytest.mark.rule("AO-5.3M")
def test_an_allied_unit_on_a_map_edge_hex_does_not_cut_german_supply() -> None:
    """AO-7.5E: "Allied units, when resting on Map Edge hexes, have no Zone of Control (for any
    purpose)"; AO-5.3M: dormant units "have no Zone of Control". The road hexes 0202 and 0302
    next to 0301 stay open; the same unit on the live hex 0303 controls both and cuts it."""
    b = board(EDGE_ROW, GS + AS)
    assert judge(b, position({"g1": "0102", "a1": "0301"})) == {"g1": "supplied"}
    dormant = UnitState(id="a1", hex="0301", status="dormant")
    assert judge(b, position({"g1": "0102", "a1": dormant})) == {"g1": "supplied"}
    # 0303 controls 0302 and 0202 (and 0203): the road is cut; 0103 is still open, so g1 is
    # unsupplied, not isolated
    assert judge(b, position({"g1": "0102", "a1": "0303"})) == {"g1": "unsupplied"}


# Allied exit 0102 (W edge) with the road 0102-0202-0302-0402-0502.
ALLIED_EXIT = make_map(
    """
    . . . . . .
    e . . . . .
    . . . . . .
    """,
    roads=["0102-0202-0302-0402-0502"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.1A")
@pytest.mark.rule("AO-12.2F")
@pytest.mark.rule("AO-16.F")
@pytest.mark.rule("AO-7.2B")
def test_allied_supply_through_a_german_held_exit_needs_friends_in_every_controlled_hex() -> None:
    """AO-12.1A: the path "may be traced through a Friendly unit in an Enemy Zone of Control";
    AO-16.C/F: an exit in German ZOC is German unless an Allied unit is in it, and only an
    Allied exit serves Allied supply. h (German) at 0203 controls the exit 0102 and the road
    hex 0202 (also 0303 and 0103); a4 waits at the far end of the road, 0502."""
    b = board(ALLIED_EXIT, [*AS, unit("h", "german")])
    # no friend anywhere: the source is German-held, the road cut
    assert judge(b, position({"h": "0203", "a4": "0502"}), "allied") == {"a4": "unsupplied"}
    # a reinforcement in Road Mode on the exit hex opens the source, but 0202 still cuts
    s = position({"h": "0203", "a4": "0502", "a1": rm("a1", "0102")})
    assert judge(b, s, "allied") == {"a1": "supplied", "a4": "unsupplied"}
    # a friend on 0202 as well: the road runs through both friendly-held hexes
    s = position({"h": "0203", "a4": "0502", "a1": rm("a1", "0102"), "a2": "0202"})
    assert judge(b, s, "allied") == {"a1": "supplied", "a2": "supplied", "a4": "supplied"}
    # the friend on 0202 alone: the exit hex is still German, nobody is supplied - and a2,
    # next to its own exit hexside, is never isolated (AO-12.3J)
    s = position({"h": "0203", "a4": "0502", "a2": "0202"})
    assert judge(b, s, "allied") == {"a2": "unsupplied", "a4": "unsupplied"}


# 7 x 4, row 1 Allied Map Edge, no roads: nobody has a supply source or an own road exit.
EDGE_BOX = make_map(
    """
    e e e e e e e
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """
)
EDGE_RING = {"a1": "0402", "a2": "0202"}
"""Allied units east and west of 0302: they hold two of its neighbours and control the other
four, the edge hexes 0401 and 0301 included."""


@pytest.mark.audit
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-5.3L")
@pytest.mark.rule("AO-7.5E")
def test_allied_map_edge_hexes_surround_only_when_enemy_controlled() -> None:
    """AO-12.3H: isolated when "totally surrounded on all six adjacent hexes by Enemy units or
    Enemy controlled hexes". An Allied Map Edge hex is closed to German units (AO-5.3L) but
    surrounds a unit only as any other hex does: when an enemy unit holds or controls it (German
    ZOC reaches into edge hexes, AO-7.5E; an Allied unit on a live hex controls the edge hexes
    next to it). 0302 touches the edge hexes 0401 and 0301."""
    b = board(EDGE_BOX, [*GS, *AS, unit("h1", "german"), unit("h2", "german")])
    # g1 at 0302: 0402 and 0303 controlled from 0403 (a1), 0403 occupied, 0202 controlled
    # from 0203 (a2); nobody controls the edge hexes 0401 and 0301: only unsupplied
    assert judge(b, position({"g1": "0302", "a1": "0403", "a2": "0203"})) == {"g1": "unsupplied"}
    # a1 on 0402 (controls 0401 and 0403) and a2 on 0202 (controls 0301 and 0303): isolated
    assert judge(b, position({"g1": "0302", **EDGE_RING})) == {"g1": "isolated"}
    # the Allied unit in the same spots: German ZOC from 0402 and 0202 reaches the edge hexes
    # too (AO-7.5E): isolated; from 0403 and 0203 it does not: only unsupplied
    s = position({"a3": "0302", "h1": "0402", "h2": "0202"})
    assert judge(b, s, "allied") == {"a3": "isolated"}
    s = position({"a3": "0302", "h1": "0403", "h2": "0203"})
    assert judge(b, s, "allied") == {"a3": "unsupplied"}


@pytest.mark.audit
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-5.3M")
def test_only_a_supplied_friend_in_play_within_three_hexes_prevents_isolation() -> None:
    """AO-12.3H: isolated only if "more than three hexes from any Supplied Friendly unit";
    AO-15.b: the paratroop unit is supplied the player-turn it drops (``always_supplied``);
    AO-5.3M: dormant units are not in play. g1 at 0302 is ringed by ``EDGE_RING`` as in the
    test above."""
    b = board(EDGE_BOX, [*GS, *AS, unit("h1", "german"), unit("h2", "german")])
    # g2 three hexes east (0602) but unsupplied itself: no help
    s = position({"g1": "0302", "g2": "0602", **EDGE_RING})
    assert judge(b, s) == {"g1": "isolated", "g2": "unsupplied"}
    # the same g2 supplied (just dropped): g1 is only unsupplied
    assert judge(b, s, always_supplied={"g2"}) == {"g1": "unsupplied", "g2": "supplied"}
    # four hexes away (0702) it does not count
    s4 = position({"g1": "0302", "g2": "0702", **EDGE_RING})
    assert judge(b, s4, always_supplied={"g2"}) == {"g1": "isolated", "g2": "supplied"}
    # Allied side: a3 at 0403 ringed by h1 (0402: controls 0503, 0302) and h2 (0304: controls
    # 0404, 0303); a4 two hexes away on the edge hex 0401
    allied = {"a3": "0403", "h1": "0402", "h2": "0304"}
    dormant = position({**allied, "a4": UnitState(id="a4", hex="0401", status="dormant")})
    assert judge(b, dormant, "allied", always_supplied={"a4"}) == {"a3": "isolated"}
    active = position({**allied, "a4": "0401"})
    assert judge(b, active, "allied", always_supplied={"a4"}) == {
        "a3": "unsupplied",
        "a4": "supplied",
    }


# Allied exit hexside 0104-0204 on the west, German exit 0904 (east edge, road 0804-0904).
TWO_EXITS = make_map(
    """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    e . . . . . . . E
    . . . . . . . . .
    """,
    roads=["0104-0204", "0804-0904"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.3J")
@pytest.mark.rule("AO-12.3H")
def test_only_an_exit_on_ones_own_map_edge_prevents_isolation() -> None:
    """AO-12.3J: "Units which are within three hexes of a road exit hexside on their respective
    map edges can never be isolated, even if cut off by terrain or Enemy presence"."""
    b = board(TWO_EXITS, [*GS, *AS])
    # g1 at 0304, next to the Allied exit hexside 0104-0204, six hexes from its own exit 0904:
    # a1 (0404) and a2 (0204) hold two of its neighbours and control the other four (0403,
    # 0405 from a1; 0303, 0305 from a2) -> isolated
    assert judge(b, position({"g1": "0304", "a1": "0404", "a2": "0204"})) == {"g1": "isolated"}
    # a3 at 0604, three hexes from the German exit 0904, four from its own (0204): g2 (0704)
    # and g3 (0504) hold two neighbours and control 0703, 0705, 0603, 0605 -> isolated
    s = position({"a3": "0604", "g2": "0704", "g3": "0504"})
    assert judge(b, s, "allied") == {"a3": "isolated"}
    # a3 at 0304 ringed the same way next to its own exit (which the German holds: g3 stands
    # on 0204 and controls the edge hex 0104): cut off "by Enemy presence", never isolated
    s = position({"a3": "0304", "g2": "0404", "g3": "0204"})
    assert judge(b, s, "allied") == {"a3": "unsupplied"}


# A 9x5 map with the Allied exit hexside 0103(edge)-0203 and the road 0103-0203-0303-0403.
RINGED_DEFENDER = make_map(
    """
    . . . . . . . . .
    . . . . . . . . .
    e . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """,
    roads=["0103-0203-0303-0403"],
)


@pytest.mark.audit
@pytest.mark.rule("AO-12.3H")
def test_a_ringed_defender_near_a_supplied_friend_is_only_unsupplied() -> None:
    # a in 0603 ringed by g (0703) and g2 (0503): they hold two neighbours and control 0602,
    # 0604 (g) and 0502, 0504 (g2); no path, four hexes from the exit hexside. f in 0303 is on
    # the road (0403 is g2's ZOC, 0303 is not), supplied, three hexes from a: a is not
    # isolated, defends 4.
    b = board(
        RINGED_DEFENDER,
        [unit("g", strength=8), unit("g2"), unit("a", "allied", strength=4), unit("f", "allied")],
    )
    ring = {"a": "0603", "g": "0703", "g2": "0503"}
    r = ok(b, cpos({**ring, "f": "0303"}), attack(["g"], ["0603"]))
    assert declared(r).defence == 4
    # without f: isolated, 4 -> 2
    r2 = ok(b, cpos(ring), attack(["g"], ["0603"]))
    assert declared(r2).defence == 2
