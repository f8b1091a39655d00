"""Adversarial audit of supply (AO-12), bridges and interdiction (AO-13), reinforcements (AO-14,
AO-17.d), the paradrop (AO-15) and victory (AO-16).

Every expected outcome is worked out by hand from the rule text (seeds ``000_…txt`` with its
errata) or, where the text is ambiguous, from the reading in ``docs/rules-notes.md``. Maps are
tiny: one-row maps ``0101 0201 ...`` (each hex touches only its W and E neighbours) or small
grids. Grid geometry (``rules.hexgrid``): odd rows, neighbours of ``CCRR`` are NE (C, R-1),
E (C+1, R), SE (C, R+1), SW (C-1, R+1), W (C-1, R), NW (C-1, R-1); even rows are shifted half a
hex east: NE (C+1, R-1), SE (C+1, R+1), SW (C, R+1), NW (C, R-1).

Map codes (``tests/enginekit.py``): ``e`` Allied Map Edge hex (section W unless remapped),
``E`` German east-edge hex (a German supply source and entry hex when a road leaves it),
``x`` impassable. Units are 4-8 (strength 4, MA 8) unless given otherwise.

Found by this audit: von der Heydte could drop on or next to a German Road Mode unit (AO-6.5G),
fixed in ``rules/paradrop.py``; the staging penalty of AO-14.2B counted units that entered on
an earlier Game-Turn, and a West-bank release reached by the running VP was undone by a lower
tabulation (AO-14.3C), both fixed in ``rules/sequence.py``.
"""

from __future__ import annotations

import msgspec
import pytest

from rules import paradrop
from rules import reinforcements as rf
from rules.combat import defender_supply, preview_attack
from rules.commands import Drop, EndPhase, Move, Place
from rules.dice import DieRoll, ScriptedDice
from rules.engine import Applied, apply, drop_hexes, drop_required
from rules.events import (
    GameEnded,
    InterdictionSet,
    UnitEliminated,
    VictoryPointsScored,
    VictoryPointsTabulated,
)
from rules.gamemap import GameMap
from rules.interdiction import interdiction_at_combat, interdiction_for, lift_interdiction
from rules.movement import legal_moves, movement_allowance
from rules.rejection import Rejection
from rules.scenario import Arrival
from rules.state import Board, GameState, Phase, Supply, UnitState, Verdict, VictoryPoints
from rules.supply import supply_judgment, supply_of
from rules.units import Side, UnitDef
from rules.victory import held_exits, tally, verdict_for
from tests.enginekit import (
    attack,
    board,
    ended,
    make_map,
    ok,
    outcome,
    position,
    refused,
    scenario_start,
    unit,
)
from tests.rules.test_interdiction import with_start_line
from tests.rules.test_reinforcements import B as RING
from tests.rules.test_reinforcements import remap
from tests.rules.test_reinforcements import state as ring_state

# -- helpers ------------------------------------------------------------------------------------

GS = [unit(f"g{i}") for i in range(1, 5)]
AS = [unit(f"a{i}", "allied") for i in range(1, 5)]


def judge(b: Board, s: GameState, side: Side = "german", **kw: object) -> dict[str, str]:
    return dict(supply_judgment(b, s, side, **kw))  # type: ignore[arg-type]


def rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    """A unit in Road Mode."""
    return UnitState(id=uid, hex=hex_id, road_mode=True, **kw)  # type: ignore[arg-type]


def with_phase(s: GameState, phase: Phase, **kw: object) -> GameState:
    return msgspec.structs.replace(s, phase=phase, **kw)


def meuse(m: GameMap, *pairs: str) -> GameMap:
    """``m`` with the river hexsides ``"A/B"`` named Meuse."""
    keys = tuple(tuple(sorted(p.split("/"))) for p in pairs)
    return remap(m, {}, meuse=keys)  # type: ignore[arg-type]


# == AO-12 supply ===============================================================================

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


@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-5.3L")
def test_map_edge_hexes_close_in_a_german_unit_but_not_an_allied_one() -> None:
    """AO-12.3H: isolated when "totally surrounded on all six adjacent hexes by Enemy units or
    Enemy controlled hexes"; our reading counts hexes the unit's supply path may not enter
    (for a German unit, Allied Map Edge hexes, AO-5.3L "under any condition"). 0302 touches
    the edge hexes 0401 and 0301; the other four are held or controlled from 0403 and 0203."""
    b = board(EDGE_BOX, [*GS, *AS, unit("h1", "german"), unit("h2", "german")])
    # g1 at 0302: 0402 and 0303 controlled from 0403 (a1), 0403 occupied, 0202 controlled
    # from 0203 (a2), 0401/0301 edge hexes: isolated
    assert judge(b, position({"g1": "0302", "a1": "0403", "a2": "0203"})) == {"g1": "isolated"}
    # the Allied unit in the same spot: the edge hexes are open to it (no German ZOC reaches
    # them from 0403 or 0203), so it is only unsupplied
    s = position({"a3": "0302", "h1": "0403", "h2": "0203"})
    assert judge(b, s, "allied") == {"a3": "unsupplied"}


@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-5.3M")
def test_only_a_supplied_friend_in_play_within_three_hexes_prevents_isolation() -> None:
    """AO-12.3H: isolated only if "more than three hexes from any Supplied Friendly unit";
    AO-15.b: the paratroop unit is supplied the player-turn it drops (``always_supplied``);
    AO-5.3M: dormant units are not in play. g1 at 0302 is ringed as in the test above."""
    b = board(EDGE_BOX, [*GS, *AS, unit("h1", "german"), unit("h2", "german")])
    ring = {"a1": "0403", "a2": "0203"}
    # g2 three hexes east (0602) but unsupplied itself: no help
    s = position({"g1": "0302", "g2": "0602", **ring})
    assert judge(b, s) == {"g1": "isolated", "g2": "unsupplied"}
    # the same g2 supplied (just dropped): g1 is only unsupplied
    assert judge(b, s, always_supplied={"g2"}) == {"g1": "unsupplied", "g2": "supplied"}
    # four hexes away (0702) it does not count
    s4 = position({"g1": "0302", "g2": "0702", **ring})
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


# Allied exit 0102-0202 on the west, German exit 0701 (east edge, road 0601-0701).
TWO_EXITS = make_map(
    """
    . . . . . . E
    e . . . . . E
    . . . . . . E
    """,
    roads=["0102-0202", "0601-0701"],
)


@pytest.mark.rule("AO-12.3J")
@pytest.mark.rule("AO-12.3H")
def test_only_an_exit_on_ones_own_map_edge_prevents_isolation() -> None:
    """AO-12.3J: "Units which are within three hexes of a road exit hexside on their respective
    map edges can never be isolated, even if cut off by terrain or Enemy presence"."""
    b = board(TWO_EXITS, [*GS, *AS])
    # g1 at 0203, next to the Allied exit hexside 0102-0202, six hexes from its own exit 0701:
    # 0202 and 0303 controlled from 0302, 0103 occupied, 0102 an edge hex -> isolated
    assert judge(b, position({"g1": "0203", "a1": "0302", "a2": "0103"})) == {"g1": "isolated"}
    # a3 at 0603, two hexes from the German exit 0701, four from its own (0202): 0602
    # occupied, 0703 and 0502 controlled from 0602, 0503 from 0403 -> isolated
    s = position({"a3": "0603", "g2": "0602", "g3": "0403"})
    assert judge(b, s, "allied") == {"a3": "isolated"}
    # a3 at 0203 ringed by Germans next to its own exit (which the German holds: 0103's ZOC
    # covers 0102): cut off "by Enemy presence", never isolated
    s = position({"a3": "0203", "g2": "0302", "g3": "0103"})
    assert judge(b, s, "allied") == {"a3": "unsupplied"}


LINE5 = make_map(". . . . E", roads=["0101-0201-0301-0401-0501"])


@pytest.mark.rule("AO-12.4K")
@pytest.mark.rule("AO-12.0")
@pytest.mark.rule("AO-12.6")
def test_attack_reads_the_judged_marker_defence_is_traced_at_the_moment_of_combat() -> None:
    """AO-12.4K: the attack effect "is determined during the Supply Judgment Phase, and applies
    ... throughout ... the Combat Phase"; the defence effect "is determined at the moment of
    combat"; AO-12.6: unsupplied attack halved (rounding up), isolated defence halved."""
    b = board(LINE5, [unit("g1", strength=6), unit("a1", "allied", strength=4)])
    # g1 on the road to its source (a fresh trace: supplied) but judged unsupplied: 6 -> 3.
    # a1 carries a stale "isolated" marker, but at 0201 with 0101 open it is only unsupplied
    # now: defence 4. 3 against 4 is 1-2.
    s = position(
        {
            "g1": UnitState(id="g1", hex="0301", supply="unsupplied"),
            "a1": UnitState(id="a1", hex="0201", supply="isolated"),
        },
        phase="combat",
    )
    p = preview_attack(b, s, ["g1"], ["0201"])
    assert not isinstance(p, Rejection), p
    assert (p.attack, p.defence, p.column) == (3, 4, "1-2")
    # a1 at 0101 with a clean marker: its only neighbour is German-held, no source, no friend
    # - isolated now, defence halved 4 -> 2; g1 supplied: 6 against 2 is 3-1
    s2 = position({"g1": "0201", "a1": "0101"}, phase="combat")
    p2 = preview_attack(b, s2, ["g1"], ["0101"])
    assert not isinstance(p2, Rejection), p2
    assert (p2.attack, p2.defence, p2.column) == (6, 2, "3-1")


@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-9.3J")
def test_an_unsupplied_stack_is_halved_as_a_total() -> None:
    """AO-12.6: "Combat Strength for attack and defense is cut in half rounding up fractions.
    The total Combat Strength of a stack is computed and then halved." Two unsupplied 3s in
    one hex attack with 3 (not 2 + 2); from two hexes they are two stacks: 2 + 2; a supplied
    and an unsupplied 3 in one hex: 3 + 2 (the halving applies to the unsupplied total)."""
    b = board(make_map(". . . . ."), [unit("g1", strength=3), unit("g2", strength=3), *AS])

    def att(g1: str, g2: str, g1_supply: Supply = "unsupplied") -> int:
        units: dict[str, str | UnitState] = {
            "g1": UnitState(id="g1", hex=g1, supply=g1_supply),
            "g2": UnitState(id="g2", hex=g2, supply="unsupplied"),
            "a1": "0301",
        }
        p = preview_attack(b, position(units, phase="combat"), ["g1", "g2"], ["0301"])
        assert not isinstance(p, Rejection), p
        return p.attack

    assert att("0201", "0201") == 3
    assert att("0201", "0401") == 4
    assert att("0201", "0201", "supplied") == 5


# == AO-13 bridges and interdiction ==============================================================

EDGE_BRIDGE = make_map(
    """
    e e e e e e
    . . . . . E
    """,
    roads=["0102-0202-0302-0402-0502-0602"],
    bridges=["0402/0502"],
)


@pytest.mark.rule("AO-13.1A")
@pytest.mark.rule("AO-13.3D")
@pytest.mark.rule("AO-5.3M")
def test_who_interdicts_edge_hex_units_yes_dormant_and_road_mode_units_no() -> None:
    """AO-13.1A: bridges "within three hexes of an Enemy unit" are interdicted; AO-13.3D: "Units
    in Road Mode do not interdict bridges"; AO-5.3M: dormant units are out of play. The errata
    compares interdiction to artillery fire, not ZOC: an active Allied unit resting on a Map
    Edge hex (no ZOC, AO-7.5E) still interdicts (documented reading of AO-13.1A)."""
    b = board(EDGE_BRIDGE, GS + AS)
    bridge = ("0402", "0502")
    # 0301 is 2 hexes from 0402; 0101 is 4 from 0402 and 5 from 0502
    assert interdiction_for(b, position({"a1": "0301"}), "german", 2) == (bridge,)
    assert interdiction_for(b, position({"a1": "0101"}), "german", 2) == ()
    dormant = UnitState(id="a1", hex="0301", status="dormant")
    assert interdiction_for(b, position({"a1": dormant}), "german", 2) == ()
    # a reinforcement just placed in Road Mode on the edge hex does not interdict
    assert interdiction_for(b, position({"a1": rm("a1", "0301", staging=0)}), "german", 2) == ()
    # nor does a German unit in Road Mode next to the bridge, for the Allies; out of it, it does
    assert interdiction_for(b, position({"g1": rm("g1", "0502")}), "allied", 2) == ()
    assert interdiction_for(b, position({"g1": "0502"}), "allied", 2) == (bridge,)


# Ten hexes in a row; the start line is the hexside 0501/0601 (German side: 0601-1001).
# B1 0201/0301 (Allied side), B2 0501/0601 (bisected by the start line), B3 0701/0801 (German
# side).
GT1_LINE = with_start_line(
    make_map(
        ". . . . . . . . . E",
        roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001"],
        bridges=["0201/0301", "0501/0601", "0701/0801"],
    ),
    ["0501/0601"],
)
B1, B2, B3 = ("0201", "0301"), ("0501", "0601"), ("0701", "0801")


@pytest.mark.rule("AO-13.4E")
@pytest.mark.rule("AO-13.c*")
def test_game_turn_1_spares_only_german_bridges_wholly_behind_the_start_line() -> None:
    """AO-13.4E with errata 13.2: "All bridges on the German side of the start line are not
    affected by Allied units within three hexes until Game-Turn 2"; that means bridges
    "entirely behind the German side"; "Bridges which are bisected by the start line are
    interdicted by Allied units on Game-Turn 1". Nothing exempts bridges from German units."""
    b = board(GT1_LINE, GS + AS)
    # a1 at 0401: 1 hex from B1 (0301) and B2 (0501), 3 from B3 (0701); g1 at 0901: 3 from
    # B2 (0601), 1 from B3 (0801), 6 from B1 (0301)
    s1 = position({"a1": "0401", "g1": "0901"}, turn=1)
    assert interdiction_for(b, s1, "german", 1) == (B1, B2)
    assert interdiction_for(b, s1, "allied", 1) == (B2, B3)
    # the same at the moment of combat in the Allied GT1 Combat Phase
    combat1 = with_phase(s1, "combat", side="allied")
    assert interdiction_at_combat(b, combat1, "german") == (B1, B2)
    s2 = position({"a1": "0401", "g1": "0901"}, turn=2)
    assert interdiction_for(b, s2, "german", 2) == (B1, B2, B3)
    assert interdiction_at_combat(b, with_phase(s2, "combat", side="allied"), "german") == (
        B1,
        B2,
        B3,
    )


# Twelve hexes in a row, bridge 0601/0701.
IL = make_map(
    ". . . . . . . . . . . E",
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001-1101-1201"],
    bridges=["0601/0701"],
)
IL_BRIDGE = ("0601", "0701")
IL_UNITS = [*GS, *AS, unit("m1", mech=True, ma=12)]


@pytest.mark.rule("AO-13.b*")
@pytest.mark.rule("AO-13.2B")
def test_the_mechanized_phase_uses_the_bridges_fixed_at_supply_judgment() -> None:
    """Errata 13.3: bridges established at the Supply Judgment Phase "remain interdicted for the
    entire Friendly Player-Turn. Even if the interdicting Enemy unit(s) are eliminated ... By
    the same token an Enemy Unit which has been retreated (or advanced) to within range of a
    bridge does not interdict the bridge for the Mechanized Movement Phase"; AO-13.2B: the road
    across an interdicted bridge may not be used for movement (in any mode, rules notes)."""
    b = board(IL, IL_UNITS)
    # a1 retreated to 0901 (2 hexes from 0701) in the Combat Phase; nothing stored: m1 crosses
    # and stops at 0801, next to a1 (AO-7.1A): three road hexes, 3 MP
    s = position({"m1": "0501", "a1": "0901"}, phase="mechanized_movement")
    assert outcome(b, s, "m1", "0601 0701 0801") == 3
    # the bridge stored at Supply Judgment, its interdicting unit since eliminated: closed
    s2 = position({"m1": "0501"}, phase="mechanized_movement", interdicted_german=["0601/0701"])
    assert outcome(b, s2, "m1", "0601 0701") == "AO-13.2B"
    assert outcome(b, s2, "m1", "0601") == 1


@pytest.mark.rule("AO-13.2C")
@pytest.mark.rule("AO-13.5F")
@pytest.mark.rule("AO-13.3D")
def test_the_end_of_a_player_turn_lifts_the_phasing_sides_bridges_only_and_adds_none() -> None:
    """AO-13.2C: "At the very end of each Player-Turn, remove the Enemy Bridge Interdiction
    counters from those bridges which are no longer within three hexes of an Enemy unit";
    AO-13.5F: "if the interdiction effect with regard to one Player is subsequently removed,
    this does not in itself affect the interdiction effect with regard to the other"."""
    b = board(IL, IL_UNITS)
    mech: Phase = "mechanized_movement"
    # German player-turn ends: nothing stored for the German, a1 retreated into range (0901):
    # nothing is added; the Allied set (no German unit in range any more) is left alone
    s = position(
        {"a1": "0901", "g1": "0101"},
        interdicted_allied=["0601/0701"],
        phase=mech,
    )
    a = ok(b, s, EndPhase())
    assert (a.state.side, a.state.phase) == ("allied", "reinforcement")
    assert a.state.interdicted.german == ()
    assert a.state.interdicted.allied == (IL_BRIDGE,)
    # stored for the German, its interdicting Allied unit now in Road Mode only: lifted
    s2 = position(
        {"a1": rm("a1", "0901"), "g1": "0101"},
        interdicted_german=["0601/0701"],
        phase=mech,
    )
    a2 = ok(b, s2, EndPhase())
    assert a2.state.interdicted.german == ()
    lifted = [e for e in a2.events if isinstance(e, InterdictionSet)]
    assert [(e.side, e.bridges, e.case) for e in lifted] == [("german", (), "AO-13.2C")]
    # still in range (a1 in normal mode at 0901): kept
    s3 = position({"a1": "0901"}, interdicted_german=["0601/0701"], phase=mech)
    assert lift_interdiction(b, s3, "german") == (IL_BRIDGE,)


# Three rows; the road and the bridge 0701/0801 on row 1, the German source 1201.
IL3 = make_map(
    "\n".join([". . . . . . . . . . . E", ". . . . . . . . . . . .", ". . . . . . . . . . . ."]),
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001-1101-1201"],
    bridges=["0701/0801"],
)


@pytest.mark.rule("AO-13.c*")
@pytest.mark.rule("AO-13.3D")
@pytest.mark.rule("AO-12.0")
def test_defender_supply_at_combat_counts_only_interdicting_attackers() -> None:
    """Errata 13.4: "During the Friendly Player-Turn the interdiction of bridges by Friendly
    units is determined for the Enemy units at the moment of combat"; AO-13.3D: Road Mode units
    do not interdict. g1 (0401) is attacked by a1 (0301, four hexes from the bridge); a2 at
    0803 is two hexes from 0801 and controls only row-2 hexes."""
    b = board(IL3, IL_UNITS)
    s = position({"g1": "0401", "a1": "0301", "a2": "0803"}, side="allied", phase="combat")
    assert interdiction_at_combat(b, s, "german") == (("0701", "0801"),)
    # the road is cut at the bridge and 0801 is four hexes from 0401: unsupplied
    assert supply_of(b, s, "g1") == "unsupplied"
    s_rm = position(
        {"g1": "0401", "a1": "0301", "a2": rm("a2", "0803")}, side="allied", phase="combat"
    )
    assert interdiction_at_combat(b, s_rm, "german") == ()
    assert supply_of(b, s_rm, "g1") == "supplied"


# == AO-14 reinforcements (the ring map of tests/rules/test_reinforcements.py) ====================
#
#    row 1   NW NW NW NW NE NE NE x        exits: 0301 (NW), 0601 and 0701 (NE)
#    row 2   W  .  .  .  .  .  .  E
#    row 3   W  .  .  .  .  .  .  E        exit 0103 (W); German entry 0803
#    row 4   SW .  .  .  .  .  .  E
#    row 5   SW .  .  .  .  .  .  E
#    row 6   SW SW SW SW SE SE SE x        exits: 0306 (SW), 0606 (SE)
#
# Schedule: a0 GT1 NE, a1/a2 GT2 NE, s1 GT3 SE, w1 GT5 WB, g1 GT1 east, g2 GT4 east, vdh GT2
# drop. Units neither placed nor on the schedule count as eliminated in ``ring_state``.


@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-17.d")
def test_hostile_placements_are_refused_with_their_case() -> None:
    """AO-14.1A: Allied reinforcements "appear on any map edge hex adjacent to a road hex-side
    on the designated map edge section"; AO-14.1b: "never ... through an Enemy occupied or
    controlled hex"; AO-17.d: each unit on its own Game-Turn, set-up units never."""
    s = ring_state({"ga": "0502"})  # GT2 Allied Reinforcement Phase; 0502 controls 0601
    assert refused(RING, s, Place(unit="a1", hex="0606")) == "AO-14.1A"  # the SE exit
    assert refused(RING, s, Place(unit="a1", hex="0501")) == "AO-14.1A"  # NE edge, no road
    assert refused(RING, s, Place(unit="a1", hex="0602")) == "AO-14.1A"  # a live hex
    assert refused(RING, s, Place(unit="a1", hex="0803")) == "AO-14.1A"  # the German entry
    assert refused(RING, s, Place(unit="a1", hex="0601")) == "AO-14.1b"  # German ZOC
    assert refused(RING, s, Place(unit="a1", hex="9999")) == "AO-14.1A"  # no such hex
    assert refused(RING, s, Place(unit="a1", hex="ab12")) == "AO-14.1A"  # no hex id at all
    assert refused(RING, s, Place(unit="s1", hex="0606")) == "AO-17.d"  # due on GT3
    assert refused(RING, s, Place(unit="vdh", hex="0701")) == "AO-14.1A"  # German
    assert refused(RING, s, Place(unit="g2", hex="0803")) == "AO-14.1A"  # German, Allied phase
    assert refused(RING, s, Place(unit="ax", hex="0701")) == "AO-17.d"  # not a reinforcement
    a = ok(RING, s, Place(unit="a1", hex="0701"))
    row = a.state.unit("a1")
    assert (row.hex, row.status, row.road_mode, row.staging) == ("0701", "on_map", True, 0)


@pytest.mark.rule("AO-14.1A")
def test_a_reinforcement_enters_once() -> None:
    """AO-14.1A: reinforcements "come into the game" once; a unit on the map, or eliminated
    after entering, is no longer due and cannot be placed again."""
    s = ok(RING, ring_state({}), Place(unit="a1", hex="0701")).state
    assert refused(RING, s, Place(unit="a1", hex="0601")) == "AO-14.1A"
    assert refused(RING, s, Place(unit="a1", hex="0701")) == "AO-14.1A"
    assert [u for u, _sec in rf.due(RING, s, "allied", 2)] == ["a0", "a2"]
    dead = s.replace_units([UnitState(id="a1", status="eliminated")])
    assert refused(RING, dead, Place(unit="a1", hex="0701")) == "AO-14.1A"
    later = msgspec.structs.replace(dead, turn=3)
    assert "a1" not in dict(rf.due(RING, later, "allied", 3))


@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-4.1b")
def test_reinforcements_are_placed_only_in_their_own_reinforcement_phase() -> None:
    """AO-4.1b: in the Reinforcement Phase "the Phasing Player places all new units"; AO-14.1A:
    they "appear on the indicated map edge section" then - not in a later phase of the turn,
    nor in the enemy's player-turn."""
    for phase in ("supply_judgment", "initial_movement", "combat", "mechanized_movement"):
        s = with_phase(ring_state({}), phase)
        r = apply(RING, s, Place(unit="a1", hex="0701"))
        assert isinstance(r, Rejection), phase
    german = ring_state({}, side="german")
    assert refused(RING, german, Place(unit="a1", hex="0701")) == "AO-14.1A"


@pytest.mark.rule("AO-4.2g")
@pytest.mark.rule("AO-14.1A")
def test_no_allied_reinforcements_on_game_turn_1_they_come_on_game_turn_2() -> None:
    """AO-4.2g: "Allied Reinforcement Phase: There are no Allied reinforcements" on GT1; a unit
    the schedule brings on GT1 (a0) cannot be placed then, the phase ends without it, and it
    is due - not voluntarily delayable (AO-14.1A) - on GT2."""
    s = ring_state({}, turn=1)
    assert refused(RING, s, Place(unit="a0", hex="0601")) == "AO-4.2g"
    assert ok(RING, s, EndPhase()).state.phase == "supply_judgment"
    s2 = ring_state({})
    assert [u for u, _sec in rf.due(RING, s2, "allied", 2)] == ["a0", "a1", "a2"]
    assert refused(RING, s2, EndPhase()) == "AO-14.1A"


@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-14.3C")
def test_a_delayed_west_bank_unit_falls_back_from_the_west_section() -> None:
    """AO-14.3C: WB units "enter on the West section"; AO-14.1b: when the German controls all
    of its road exits they are "delayed one Game-Turn and then enter on the adjacent map edge
    segment" (W -> NW, rules notes). ga at 0203 controls the only W exit, 0103."""
    s = ring_state({"ga": "0203"}, turn=5)
    assert rf.blocked(RING, s, "W")
    assert "w1" not in dict(rf.due(RING, s, "allied", 5))
    delays = rf.delays_for_phase(RING, s, "allied", 5)
    assert [d for d in delays if d.unit == "w1"] == [
        rf.Delay(unit="w1", turn=6, section="W", delays=1)
    ]
    assert (
        refused(RING, msgspec.structs.replace(s, delayed=delays), Place(unit="w1", hex="0301"))
        == "AO-14.1b"
    )
    gt6 = ring_state({}, turn=6, delayed=delays)
    assert dict(rf.due(RING, gt6, "allied", 6))["w1"] == "NW"
    assert refused(RING, gt6, Place(unit="w1", hex="0103")) == "AO-14.1A"
    assert ok(RING, gt6, Place(unit="w1", hex="0301")).state.delayed == tuple(
        d for d in delays if d.unit != "w1"
    )


@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-14.1b")
@pytest.mark.rule("AO-14.2B")
@pytest.mark.rule("AO-15.a")
def test_german_units_held_back_enter_later_on_the_east_edge_only() -> None:
    """AO-14.1A: German reinforcements "appear on any map edge hex adjacent to a road hex-side
    on the East edge of the map; also in Road Mode" (they may be held back: rules notes);
    AO-14.1b: never through an enemy-occupied or -controlled hex; AO-15.a: von der Heydte
    enters only by his drop."""
    s = ring_state({}, turn=4, side="german")  # g1 (GT1) held back, g2 (GT4) due
    assert dict(rf.due(RING, s, "german", 4)) == {"g1": "east", "g2": "east"}
    assert refused(RING, s, Place(unit="g2", hex="0601")) == "AO-14.1A"  # an Allied exit
    assert refused(RING, s, Place(unit="g2", hex="0802")) == "AO-14.1A"  # east edge, no road
    assert refused(RING, s, Place(unit="vdh", hex="0803")) == "AO-15.a"  # he drops
    s = ok(RING, s, Place(unit="g1", hex="0803")).state
    a = ok(RING, s, Place(unit="g2", hex="0803"))
    assert (a.state.unit("g1").staging, a.state.unit("g2").staging) == (0, 2)
    # an Allied unit on the entry hex, or controlling it from 0703: refused
    occupied = ring_state({"ax": "0803"}, turn=4, side="german")
    assert refused(RING, occupied, Place(unit="g2", hex="0803")) == "AO-14.1b"
    controlled = ring_state({"ax": "0703"}, turn=4, side="german")
    assert refused(RING, controlled, Place(unit="g2", hex="0803")) == "AO-14.1b"


@pytest.mark.rule("AO-14.2B")
def test_staging_counts_per_entry_hex() -> None:
    """AO-14.2B: "Reinforcements which choose to use the same entry road hex ... lose two road
    hexes in movement for every unit which preceded them onto the map in that same Phase" -
    units that used another entry hex of the section do not count."""
    s = ring_state({})
    s = ok(RING, s, Place(unit="a0", hex="0601")).state
    s = ok(RING, s, Place(unit="a1", hex="0701")).state
    s = ok(RING, s, Place(unit="a2", hex="0601")).state
    assert [s.unit(u).staging for u in ("a0", "a1", "a2")] == [0, 0, 2]


@pytest.mark.rule("AO-14.2B")
def test_staging_counts_only_units_that_entered_in_the_same_phase() -> None:
    """AO-14.2B: the loss is "two road hexes ... for every unit which preceded them onto the
    map in that same Phase". g1 entered on an earlier Game-Turn and has waited on the entry hex
    0803 since (alone there, so it stays, ``staging == 0``); g2 enters there on Game-Turn 4 as
    the first unit of that Reinforcement Phase: it loses nothing."""
    gone = {u: UnitState(id=u, status="eliminated") for u in ("a0", "a1", "a2", "s1", "w1")}
    s = ring_state({"g1": rm("g1", "0803", staging=0), **gone}, turn=3, side="german")
    s = ended(RING, with_phase(s, "mechanized_movement"), 6)  # to the GT4 German phase
    assert (s.turn, s.side, s.phase) == (4, "german", "reinforcement")
    assert s.unit("g1").hex == "0803"
    a = ok(RING, s, Place(unit="g2", hex="0803"))
    assert a.state.unit("g2").staging == 0


@pytest.mark.rule("AO-14.1b")
def test_a_section_controlled_by_an_unsupplied_german_is_still_blocked() -> None:
    """AO-14.1b: reinforcements are delayed when the German "has occupied or controls all of
    the road exit hexes" of their section; control is the Zone of Control (AO-7.0), which
    supply does not affect (AO-12.6 changes strength and movement only). ga at 0602 controls
    both NE exits 0601 and 0701; the Allied ax on the German source 0803 leaves ga without
    supply."""
    s = ring_state({"ga": "0602", "ax": "0803"})
    assert supply_judgment(RING, s, "german") == {"ga": "unsupplied"}
    assert rf.blocked(RING, s, "NE")
    assert rf.due(RING, s, "allied", 2) == ()
    assert [
        (d.unit, d.turn, d.section, d.delays) for d in rf.delays_for_phase(RING, s, "allied", 2)
    ] == [
        ("a0", 3, "NE", 1),
        ("a1", 3, "NE", 1),
        ("a2", 3, "NE", 1),
    ]
    # the phase may end: nothing can enter (AO-14.1A obliges only units that can)
    entered = ok(RING, with_phase(s, "mechanized_movement", side="german"), EndPhase()).state
    assert (entered.side, entered.phase) == ("allied", "reinforcement")
    assert ok(RING, entered, EndPhase()).state.phase == "supply_judgment"


# A one-row map with a Meuse bridge 0201/0301 on the road, for the West-bank unit w.
WB_MAP = meuse(
    make_map(". . . .", roads=["0101-0201-0301-0401"], bridges=["0201/0301"]), "0201/0301"
)


def wb_board() -> Board:
    units = [unit("w", "allied", ma=8), unit("g1"), unit("a1", "allied")]
    return Board(WB_MAP, units, arrivals=[Arrival("w", 5, "WB")])


@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_enter_on_the_west_section_and_keep_off_the_meuse_bridges() -> None:
    """AO-14.3C: WB units "enter on the West section of the map. They may not cross the Meuse
    River until the German Player accumulates 25 or more Victory Points. They may attack Enemy
    units which cross the Meuse and those Enemy units adjacent to it." A bridge is a way
    across the river, in Road Mode or not."""
    s = ring_state({}, turn=5)
    assert dict(rf.due(RING, s, "allied", 5))["w1"] == "W"
    assert refused(RING, s, Place(unit="w1", hex="0301")) == "AO-14.1A"  # NW
    assert refused(RING, s, Place(unit="w1", hex="0701")) == "AO-14.1A"  # NE
    assert ok(RING, s, Place(unit="w1", hex="0103")).state.unit("w1").hex == "0103"
    b = wb_board()
    move = position({"w": "0201", "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, move, "w", "0301") == "AO-14.3C"
    road = position({"w": rm("w", "0201"), "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, road, "w", "0301") == "AO-14.3C"
    back = position({"w": "0301", "a1": "0101"}, turn=6, side="allied")
    assert outcome(b, back, "w", "0201") == "AO-14.3C"
    assert outcome(b, msgspec.structs.replace(move, wb_released=True), "w", "0301") == 1
    # the attack across the Meuse bridge is allowed
    fight = position({"w": "0201", "g1": "0301"}, turn=6, side="allied", phase="combat")
    ok(b, fight, attack(["w"], ["0301"]))


@pytest.mark.rule("AO-14.3C")
@pytest.mark.rule("AO-16.E")
def test_a_west_bank_release_by_the_running_vp_is_for_good() -> None:
    """AO-14.3C: WB units "may not cross the Meuse River until the German Player accumulates
    25 or more Victory Points"; rules notes (AO-14.3C, engine): released "once a tabulation
    shows 25 German VP ..., and also at any moment the running VP reach 25 (kills score at
    once); a later drop under 25 does not lock them again". Kills brought the running total
    to 25 in GT6 (w1 may cross then); the GT6 tabulation, the exits lost, shows 2."""
    s = ring_state({"w1": "0303", "ga": "0705"}, turn=6, vp=VictoryPoints(german=25, allied=0))
    ok(RING, with_phase(s, "initial_movement"), Move(unit="w1", path=("0403",)))
    r = apply(RING, with_phase(s, "mechanized_movement"), EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(r, Applied)
    assert r.state.vp.german == 2  # ax and ai lost
    gt7 = with_phase(r.state, "initial_movement", turn=7, side="allied")
    ok(RING, gt7, Move(unit="w1", path=("0403",)))


@pytest.mark.rule("AO-17.d")
@pytest.mark.rule("AO-18.a*")
def test_each_scenario_brings_its_units_on_its_own_schedule() -> None:
    """AO-17.d and the errata lists: 39 i arrives on GT2 at the historical rate and on GT3 at
    the slowed rate (scenario 4); 2ss a on GT4 historically and on GT2 at the accelerated rate
    (scenario 2, errata 18.0); ccr5 (historical GT6) never arrives at the slowed rate."""

    def at_gt2(n: int, side: Side) -> tuple[Board, GameState]:
        b, s = scenario_start(n)
        return b, msgspec.structs.replace(s, turn=2, side=side, phase="reinforcement")

    b1, s1 = at_gt2(1, "allied")
    assert rf.check_entry(b1, s1, "us-39-i", "3001") is None
    b4, s4 = at_gt2(4, "allied")
    bad = rf.check_entry(b4, s4, "us-39-i", "3001")
    assert bad is not None and bad.case == "AO-17.d"
    assert "us-ccr5" not in rf.schedule(b4) and "us-ccr5" in rf.schedule(b1)
    b1g, s1g = at_gt2(1, "german")
    bad = rf.check_entry(b1g, s1g, "de-2ss-a", "4219")
    assert bad is not None and bad.case == "AO-17.d"
    b2g, s2g = at_gt2(2, "german")
    assert rf.check_entry(b2g, s2g, "de-2ss-a", "4219") is None


# == AO-15 the paradrop (ring map) =============================================================


def drop_state(
    units: dict[str, str | UnitState], *, turn: int = 2, phase: Phase = "initial_movement"
) -> GameState:
    """The German Initial Movement Phase of GT2 on the ring map, von der Heydte not dropped."""
    return with_phase(ring_state(units, turn=turn, side="german"), phase)


@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-6.6J")
@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-8.0")
def test_where_von_der_heydte_may_and_may_not_drop() -> None:
    """AO-15.a: "any hex which is not occupied by an Allied unit or in an Allied Zone of
    Control, with the exception of Impassable hexes"; Allied units on edge hexes have no ZOC
    (AO-7.5E), Road Mode units none beyond their hex (AO-6.6J); a German unit negates Allied
    ZOC "for all purposes" (AO-7.2B); the stacking limit holds (AO-8.0)."""
    units: dict[str, str | UnitState] = {
        "ax": "0601",  # on the NE edge: no ZOC
        "ai": rm("ai", "0404"),  # Road Mode
        "a0": "0204",  # controls 0303 0304 0305 0205 0104 0203
        "ga": "0303",  # in a0's ZOC, negated
        "gb": "0605",
        "gm": "0605",
    }
    s = drop_state(units)
    check = {h: paradrop.check_drop(RING, s, h) for h in RING.game_map}
    case = {h: (r.case if r is not None else None) for h, r in check.items()}
    assert case["0602"] is None and case["0502"] is None  # next to the edge-hex unit
    assert case["0403"] is None and case["0405"] is None  # next to the Road Mode unit
    assert case["0404"] == "AO-15.a"  # Allied-occupied
    assert case["0304"] == "AO-15.a" and case["0203"] == "AO-15.a"  # Allied ZOC
    assert case["0303"] is None  # a German unit there negates a0's ZOC
    assert case["0601"] == "AO-5.3L" and case["0101"] == "AO-5.3L"  # Allied Map Edge
    assert case["0801"] == "AO-15.a"  # impassable corner
    assert paradrop.check_drop(RING, s, "1299") is not None  # not on the map
    assert refused(RING, s, Drop(hex="ab12")) == "AO-15.a"  # no hex id at all
    # gb and gm share 0605: von der Heydte makes three regiments there, the limit; with ga
    # there too he would make four
    assert case["0605"] is None
    full = drop_state({**units, "ga": "0605"})
    r = paradrop.check_drop(RING, full, "0605")
    assert r is not None and r.case == "AO-8.0"
    # what drop_hexes offers is exactly what check_drop accepts
    assert set(drop_hexes(RING, s)) == {h for h, c in case.items() if c is None}


@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-6.5G")
def test_von_der_heydte_does_not_land_in_a_road_column() -> None:
    """AO-6.5G: "A unit in Road Mode may not stack with, nor be adjacent to, any other unit on
    that Road hex, or adjacent connected Road hexes regardless of whether or not the other unit
    is in Road Mode"; the paratroop unit lands in normal mode (AO-15.b), so it may not land on
    or next to (along the road 0803-0703) a German Road Mode unit. Before the fix the drop was
    accepted and left an illegal position (found by this audit)."""
    s = drop_state({"gm": rm("gm", "0703")})
    for h in ("0703", "0803"):
        r = paradrop.check_drop(RING, s, h)
        assert r is not None and r.case == "AO-6.5G", h
        assert h not in drop_hexes(RING, s)
    assert refused(RING, s, Drop(hex="0803")) == "AO-6.5G"
    # next to it but not along a road (0603 - 0703 is no road hexside): allowed
    assert paradrop.check_drop(RING, s, "0603") is None
    # a staging reinforcement on its entry hex is a Road Mode unit as well
    staged = drop_state({"g1": rm("g1", "0803", staging=0)})
    assert {"0803", "0703"}.isdisjoint(drop_hexes(RING, staged))
    # an Allied Road Mode unit is no friend: spacing does not apply (its hex is occupied)
    allied = drop_state({"ai": rm("ai", "0703")})
    assert paradrop.check_drop(RING, allied, "0803") is None


@pytest.mark.rule("AO-15.a")
def test_the_drop_comes_first_once_and_only_in_its_phase() -> None:
    """AO-15.a: "On Game-Turn 2 the German Player must drop"; it "occurs at the start of the
    Initial German Movement Phase before any other movement takes place"."""
    dice = ScriptedDice([2, 2, 2], start=0)
    s = drop_state({"ga": "0303"})
    assert drop_required(RING, s)
    assert refused(RING, s, Move(unit="ga", path=("0302",))) == "AO-15.a"
    assert refused(RING, s, EndPhase()) == "AO-15.a"
    # not in the German Reinforcement Phase, not in the Allied Initial Movement Phase
    early = drop_state({"ga": "0303"}, phase="reinforcement")
    assert refused(RING, early, Drop(hex="0503")) == "AO-15.a"
    allied = with_phase(ring_state({"ga": "0303"}), "initial_movement")
    assert refused(RING, allied, Drop(hex="0503")) == "AO-15.a"
    a = apply(RING, s, Drop(hex="0503"), dice)
    assert isinstance(a, Applied) and a.state.unit("vdh").hex == "0503"
    # once: a second drop is refused; other moves go on
    assert refused(RING, a.state, Drop(hex="0403")) == "AO-15.a"
    ok(RING, a.state, Move(unit="ga", path=("0302",)))
    # Game-Turn 3, never dropped: nothing is due, the phase may end
    gt3 = drop_state({"ga": "0303"}, turn=3)
    assert not drop_required(RING, gt3)
    assert refused(RING, gt3, Drop(hex="0503")) == "AO-15.a"
    ok(RING, gt3, EndPhase())


# 0404 is two hexes from ax (0402), ai (0305) and s1 (0605), which control all six of its
# neighbours but not 0404 itself: a legal drop hex in which the unit lands cut off.
CUT_OFF = {"ax": "0402", "ai": "0305", "s1": "0605"}


@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.0")
def test_a_surviving_drop_is_supplied_for_its_player_turn_then_traced_like_any_unit() -> None:
    """AO-15.b: "a 'one' or a 'two' and the unit survives. The unit is dropped in a supplied
    condition for that Player-Turn; thereafter, it must trace a supply path as a normal unit.
    If the unit survives it may move during that Movement Phase." Ringed at 0404, four hexes
    from the German exit 0803, von der Heydte is isolated as soon as he is traced."""
    s = drop_state(dict(CUT_OFF))
    assert paradrop.check_drop(RING, s, "0404") is None
    a = apply(RING, s, Drop(hex="0404"), ScriptedDice([1], start=s.dice_drawn))
    assert isinstance(a, Applied)
    row = a.state.unit("vdh")
    assert (row.status, row.supply, row.road_mode, row.moved) == (
        "on_map",
        "supplied",
        False,
        False,
    )
    assert movement_allowance(RING.defs["vdh"], row) == 8
    # it may move now: every neighbour is enemy-controlled, so one hex and stop (AO-7.1A)
    assert set(legal_moves(RING, a.state, "vdh")) == {
        "0503",
        "0504",
        "0505",
        "0405",
        "0304",
        "0403",
    }
    # the Allied player-turn: as a defender it is traced at the moment of combat - isolated
    allied = with_phase(a.state, "combat", side="allied")
    assert defender_supply(RING, allied, "german")["vdh"] == "isolated"
    # the German Supply Judgment of GT3 marks it isolated (attack zero, MA halved)
    gt3 = with_phase(a.state, "supply_judgment", turn=3)
    assert supply_judgment(RING, gt3, "german")["vdh"] == "isolated"


@pytest.mark.rule("AO-15.b")
@pytest.mark.rule("AO-16.A")
def test_a_failed_drop_is_one_allied_vp_now_and_at_the_tabulation() -> None:
    """AO-15.b: "a 'one' or a 'two' and the unit survives" - a 3 destroys it; AO-16.A: "When a
    unit is destroyed, it is recorded as one Victory Point for the Enemy Player"."""
    s = drop_state({"ga": "0303", "gb": "0503", "gm": "0703", "ax": "0202"})
    a = apply(RING, s, Drop(hex="0404"), ScriptedDice([3], start=s.dice_drawn))
    assert isinstance(a, Applied)
    assert [type(e) for e in a.events] == [DieRoll, UnitEliminated, VictoryPointsScored]
    assert a.state.unit("vdh").status == "eliminated"
    assert a.state.vp == VictoryPoints(german=0, allied=1)
    # at the tabulation: von der Heydte is the only German unit lost; the Allied units never
    # placed (a0 a1 a2 s1 w1 not arrived) are not lost, ai (not placed, off the schedule) is
    t = tally(RING, with_phase(a.state, "mechanized_movement", side="allied"))
    assert (t.german_units_lost, t.allied_units_lost) == (1, 1)
    assert t.vp == VictoryPoints(german=1, allied=1)


# == AO-16 victory ==============================================================================
#
#    row 1   NE NE NW NW x      exits 0201 (NE, 10 VP), 0401 (NW, 20 VP)
#    row 2   .  .  .  .  E
#    row 3   .  .  B  .  E      0103: an exit on the live map (5 VP); B: Bastogne (0303)
#    row 4   SE SE SW SW x      exits 0204 (SE, 3 VP), 0404 (SW, 7 VP)
#
# Roads 0502-0402-0302-0202-0201, 0402-0401, 0503-0403-0303-0203-0204, 0403-0404; German
# sources 0502 and 0503. Controlled exits: from 0302 and 0402 -> 0401; from 0202 -> 0201;
# from 0102 -> 0201 and 0103; from 0203 -> 0103 and 0204; from 0303 -> 0204; from 0403 and
# 0503 -> 0404.

VGRID = """
e e e e x
. . . . E
. . . . E
e e e e x
"""
V_GERMANS = ("g1", "g2", "g3", *(f"d{i:02}" for i in range(1, 31)))
V_ALLIES = ("a1", "a2", "a3", *(f"k{i:02}" for i in range(1, 11)))


def _vboard() -> Board:
    m = make_map(
        VGRID,
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
        exit_vp={"0201": 10, "0401": 20, "0103": 5, "0204": 3, "0404": 7},
    )
    defs: list[UnitDef] = [unit(u) for u in V_GERMANS] + [unit(u, "allied") for u in V_ALLIES]
    return Board(m, defs)


VB = _vboard()


def vstate(
    units: dict[str, str | UnitState],
    *,
    kills: int = 0,
    losses: int = 0,
    turn: int = 5,
    vp: VictoryPoints | None = None,
) -> GameState:
    """End of the Allied Mechanized Movement Phase of ``turn``; ``kills`` Allied units
    (k01, k02, ...) and ``losses`` German units (d01, ...) eliminated; every other unit not
    listed is not yet arrived."""
    rows = []
    for uid in sorted(V_GERMANS + V_ALLIES):
        v = units.get(uid)
        if v is not None:
            rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
        elif uid[0] in "kd" and int(uid[1:]) <= (kills if uid[0] == "k" else losses):
            rows.append(UnitState(id=uid, status="eliminated"))
        else:
            rows.append(UnitState(id=uid, status="not_arrived"))
    return GameState(
        scenario=0,
        turn=turn,
        side="allied",
        phase="mechanized_movement",
        units=tuple(rows),
        vp=vp or VictoryPoints(),
    )


def exits(s: GameState) -> dict[str, int]:
    return {e.hex: e.vp for e in tally(VB, s).exits}


@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-16.F")
@pytest.mark.rule("AO-5.3M")
def test_an_allied_unit_in_the_exit_hex_negates_german_zoc_dormant_or_just_arrived() -> None:
    """AO-16.C: "If the Allied unit is in the exit hex, it negates any German Zone of Control
    and the hex is not occupied by the German Player"; "If the exit hex is in the Zone of
    Control of both an Allied unit and a German unit, it is considered occupied by the German
    unit"."""
    assert exits(vstate({"g1": "0302"})) == {"0401": 20}
    dormant = UnitState(id="a1", hex="0401", status="dormant")
    assert exits(vstate({"g1": "0302", "a1": dormant})) == {}
    assert exits(vstate({"g1": "0302", "a1": rm("a1", "0401", staging=0)})) == {}
    # the live exit 0103: an Allied unit in it negates g1's ZOC from 0203; an Allied unit next
    # to it (0102, whose ZOC covers 0103) does not - contested, it is German
    assert exits(vstate({"g1": "0203", "a1": "0103"})) == {"0204": 0}
    assert exits(vstate({"g1": "0203", "a1": "0102"})) == {"0103": 5, "0204": 0}


@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-16.B")
def test_one_german_unit_holds_two_exits() -> None:
    """AO-16.C: "One unit can occupy more than one exit hex"; AO-16.B: each exit is worth the
    VP printed in it. g1 at 0102 controls the NE exit 0201 and the live exit 0103."""
    s = vstate({"g1": "0102"}, kills=2)
    assert exits(s) == {"0103": 5, "0201": 10}
    assert tally(VB, s).vp == VictoryPoints(german=17, allied=0)


@pytest.mark.rule("AO-16.H")
@pytest.mark.rule("AO-6.6J")
def test_a_road_mode_german_holds_an_exit_only_by_standing_in_it() -> None:
    """AO-16.H: "German units in Road Mode may occupy a Road Exit hex by being physically on
    the road exit hex"; AO-6.6J: in Road Mode a unit controls only its own hex."""
    assert exits(vstate({"g1": rm("g1", "0203")})) == {}
    assert exits(vstate({"g1": rm("g1", "0103")})) == {"0103": 5}
    assert exits(vstate({"g1": "0103"})) == {"0103": 5}


@pytest.mark.rule("AO-16.D")
@pytest.mark.rule("AO-16.G")
@pytest.mark.rule("AO-4.2b")
def test_south_exits_need_a_supplied_german_in_bastogne() -> None:
    """AO-16.D: "The Victory Point(s) for the Road Exit hexes on the Southeast and Southwest
    segments of the map count only while the German Player has a unit in supply in Bastogne";
    AO-4.2b: all German units are in supply on Game-Turn 1. g1 on the source hex 0503 holds
    the SW exit 0404 (7)."""
    assert exits(vstate({"g1": "0503"})) == {"0404": 0}
    assert exits(vstate({"g1": "0503", "g2": "0303"})) == {"0404": 7, "0204": 3}
    # in Bastogne in Road Mode: present, so it counts; its ZOC does not reach 0204
    assert exits(vstate({"g1": "0503", "g2": rm("g2", "0303")})) == {"0404": 7}
    # a1 at 0402 controls 0403, 0302 and the source 0502: g2 in Bastogne can reach neither
    # source within three open hexes (0203-0202 lead nowhere open): unsupplied, and the south
    # exit counts nothing; g1 on its source is still supplied and holds 0404
    cut = vstate({"g1": "0503", "g2": "0303", "a1": "0402"})
    assert supply_judgment(VB, cut, "german") == {"g1": "supplied", "g2": "unsupplied"}
    assert exits(cut) == {"0404": 0}
    assert not tally(VB, cut).bastogne
    # the same position on Game-Turn 1: every German unit is in supply
    gt1 = vstate({"g1": "0503", "g2": "0303", "a1": "0402"}, turn=1)
    assert exits(gt1) == {"0404": 7, "0204": 3}


@pytest.mark.rule("AO-16.G")
@pytest.mark.rule("AO-4.2b")
def test_an_exit_scores_only_for_a_german_unit_in_supply_game_turn_1_excepted() -> None:
    """AO-16.G: "German units must be in supply in order to receive Victory Points for
    occupying road exit hexes". a1 at 0403 controls 0402 and the source 0503 and holds 0403:
    g1 (0302) cannot reach 0502 within three open hexes."""
    s = vstate({"g1": "0302", "a1": "0403"}, turn=2)
    assert supply_judgment(VB, s, "german") == {"g1": "unsupplied"}
    assert held_exits(VB, s) == ()
    assert held_exits(VB, msgspec.structs.replace(s, turn=1)) == ("0401",)


@pytest.mark.rule("AO-16.2")
@pytest.mark.rule("AO-16.E")
@pytest.mark.rule("AO-10.3a")
def test_immediate_victory_at_the_game_turn_6_tabulation_before_any_game_turn_7_die() -> None:
    """AO-16.2: "If the German Player scores 35 Victory Points by the end of Game-Turn 6, he
    wins an immediate victory and the Game ends"; AO-16.E: VP "are tabulated at the end of a
    complete Game-Turn". g1 (0302) holds 0401 (20), g2 (0202) holds 0201 (10): 30 + kills.
    The end of GT6 must not roll the GT7 CRT switch die (AO-10.3a) when the game is over."""
    won = vstate({"g1": "0302", "g2": "0202"}, kills=5, turn=6)
    a = apply(VB, won, EndPhase())  # no dice: nothing may be rolled
    assert isinstance(a, Applied), a
    assert a.state.phase == "game_over"
    v = a.state.result
    assert isinstance(v, Verdict)
    assert (v.winner, v.kind, v.german_vp, v.allied_vp) == ("german", "immediate", 35, 0)
    tab = [e for e in a.events if isinstance(e, VictoryPointsTabulated)]
    assert [(e.turn, e.german, e.allied, e.exit_vp) for e in tab] == [(6, 35, 0, 30)]
    assert isinstance(a.events[-1], GameEnded)
    assert refused(VB, a.state, EndPhase()) == "AO-4.1a"
    # 34 by the end of GT6: the game goes on into GT7, whose start rolls the CRT switch die
    short = vstate({"g1": "0302", "g2": "0202"}, kills=4, turn=6)
    r = apply(VB, short, EndPhase())
    assert isinstance(r, Rejection) and r.case == "dice-needed"
    go_on = apply(VB, short, EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(go_on, Applied)
    assert (go_on.state.turn, go_on.state.side, go_on.state.phase) == (7, "german", "reinforcement")
    assert go_on.state.result is None and go_on.state.vp == VictoryPoints(german=34, allied=0)
    # 35 at the end of GT7 is no immediate victory
    late = vstate({"g1": "0302", "g2": "0202"}, kills=5, turn=7)
    after = apply(VB, late, EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(after, Applied) and after.state.result is None


@pytest.mark.rule("AO-16.2")
@pytest.mark.rule("AO-16.E")
@pytest.mark.rule("AO-16.F")
def test_the_running_total_does_not_win_only_the_end_of_turn_position() -> None:
    """AO-16.E/F: VP are tabulated at the end of the Game-Turn; "The German Player must remain
    in control of a road exit hex in order to get the Victory Points. He does not get Victory
    Points for being the last to occupy a Road Exit hex." A running 40 (exits held at the
    previous tabulation) is not a win when the position at the end of GT6 is worth 34; an
    Allied unit that cut g1 and g2 off in its player-turn (a1 at 0403) takes the exits away."""
    s = vstate({"g1": "0302", "g2": "0202"}, kills=4, turn=6, vp=VictoryPoints(40, 0))
    a = apply(VB, s, EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(a, Applied) and a.state.result is None
    assert a.state.vp == VictoryPoints(german=34, allied=0)
    cut = vstate({"g1": "0302", "g2": "0202", "a1": "0403"}, kills=5, turn=6)
    assert supply_judgment(VB, cut, "german") == {"g1": "unsupplied", "g2": "unsupplied"}
    a2 = apply(VB, cut, EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(a2, Applied) and a2.state.result is None
    assert a2.state.vp == VictoryPoints(german=5, allied=0)


@pytest.mark.rule("AO-16.E")
@pytest.mark.rule("AO-4.1b")
def test_vp_are_tabulated_after_the_allied_player_turn_only() -> None:
    """AO-16.E: "Victory Points are tabulated at the end of a complete Game-Turn" - the German
    then Allied player-turns (AO-4.1b); the end of the German player-turn tabulates nothing,
    even with 35 VP on the board by GT6 (AO-16.2 is judged at the end of the Game-Turn)."""
    german_end = msgspec.structs.replace(
        vstate({"g1": "0302", "g2": "0202"}, kills=5, turn=6), side="german"
    )
    a = ok(VB, german_end, EndPhase())
    assert not [e for e in a.events if isinstance(e, VictoryPointsTabulated)]
    assert (a.state.turn, a.state.side, a.state.phase) == (6, "allied", "reinforcement")
    assert a.state.result is None and a.state.vp == VictoryPoints()


@pytest.mark.rule("AO-16.E")
@pytest.mark.rule("AO-16.A")
@pytest.mark.rule("AO-16.F")
def test_exit_vp_come_and_go_unit_vp_stay() -> None:
    """AO-16.E/F with AO-16.A: each destroyed unit is a VP for good; exit VP count at a
    tabulation only while held. End of GT3: g1 holds 0401 (20), 2 kills: 22. End of GT4: g1
    has moved to 0203 (0103: 5; 0204 SE: nothing without Bastogne), one more kill: 8."""
    a = ok(VB, vstate({"g1": "0302"}, kills=2, turn=3), EndPhase())
    assert a.state.vp == VictoryPoints(german=22, allied=0)
    moved = a.state.replace_units(
        [UnitState(id="g1", hex="0203"), UnitState(id="k03", status="eliminated")]
    )
    gt4_end = msgspec.structs.replace(moved, turn=4, side="allied", phase="mechanized_movement")
    b = ok(VB, gt4_end, EndPhase())
    tab = [e for e in b.events if isinstance(e, VictoryPointsTabulated)]
    assert [(e.turn, e.german, e.exit_vp) for e in tab] == [(4, 8, 5)]


@pytest.mark.rule("AO-16.3")
@pytest.mark.rule("AO-16.1")
@pytest.mark.rule("AO-4.1a")
def test_the_game_ends_after_game_turn_18_whatever_the_vp() -> None:
    """AO-16.3: "If the German Player scores less than 35 Victory Points by the end of
    Game-Turn 18, the Allied Player wins regardless of the Victory Points Ratio"; AO-16.1: else
    the ratio decides; AO-4.1a: eighteen Game-Turns, so nothing is rolled for a GT19. 34 VP
    against no Allied VP at all is an Allied win; 35 against 24 (1.458) a draw."""
    low = apply(VB, vstate({"g1": "0302", "g2": "0202"}, kills=4, turn=18), EndPhase())
    assert isinstance(low, Applied), low
    v = low.state.result
    assert v is not None and (v.winner, v.kind, v.german_vp, v.allied_vp) == (
        "allied",
        "cumulative",
        34,
        0,
    )
    s = vstate({"g1": "0302", "g2": "0202"}, kills=5, losses=24, turn=18)
    draw = apply(VB, s, EndPhase())
    assert isinstance(draw, Applied), draw
    v2 = draw.state.result
    assert v2 is not None and (v2.winner, v2.kind, v2.german_vp, v2.allied_vp) == (
        None,
        "ratio",
        35,
        24,
    )
    assert draw.state.phase == "game_over"


@pytest.mark.rule("AO-16.1")
@pytest.mark.rule("AO-16.2")
@pytest.mark.rule("AO-16.3")
@pytest.mark.parametrize(
    ("turn", "g", "a", "expected"),
    [
        (18, 35, 24, ("draw", "ratio")),  # 1.458
        (18, 36, 24, ("german", "ratio")),  # 1.5 exactly
        (18, 45, 30, ("german", "ratio")),  # 1.5 exactly
        (18, 44, 30, ("draw", "ratio")),  # 1.4667
        (18, 35, 35, ("draw", "ratio")),  # 1.0 exactly
        (18, 35, 36, ("allied", "ratio")),  # 0.972
        (18, 34, 0, ("allied", "cumulative")),  # under 35 whatever the ratio
        (18, 35, 0, ("german", "ratio")),  # no Allied VP: an infinite ratio
        (1, 35, 0, ("german", "immediate")),
        (6, 35, 100, ("german", "immediate")),  # the ratio does not matter by GT6
        (6, 34, 0, None),
        (7, 100, 0, None),  # no immediate victory after GT6
        (17, 10, 50, None),  # the game goes on to GT18
    ],
)
def test_the_verdict_at_its_boundaries(
    turn: int, g: int, a: int, expected: tuple[str, str] | None
) -> None:
    """AO-16.1: "German Victory 1.5 or greater / Allied Victory Less than 1.0 / Draw 1.0 to
    1.4999"; AO-16.2: 35 by the end of GT6 wins at once; AO-16.3: "If the German Player scores
    less than 35 Victory Points by the end of Game-Turn 18, the Allied Player wins regardless
    of the Victory Points Ratio"."""
    v = verdict_for(turn, VictoryPoints(german=g, allied=a))
    if expected is None:
        assert v is None
        return
    assert v is not None
    assert ((v.winner or "draw"), v.kind) == expected
    assert (v.german_vp, v.allied_vp) == (g, a)
