"""Bridge interdiction (AO-13) on small synthetic maps, outcomes worked out by hand."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import hexgrid
from rules.ao.commands import EndPhase
from rules.ao.events import InterdictionSet
from rules.ao.gamemap import GameMap, HexsideData, MapData
from rules.ao.interdiction import (
    bridges,
    interdiction_at_combat,
    interdiction_for,
    lift_interdiction,
)
from rules.ao.start_line import german_side
from rules.ao.state import GameState, Interdiction, Phase, UnitState
from rules.ao.supply import supply_judgment, supply_of
from rules.ao.units import Side
from tests.kit.engine import (
    board,
    ended,
    line_map,
    make_map,
    ok,
    outcome,
    position,
    rm,
    scenario_start,
    unit,
    with_phase,
)
from tests.kit.realmap import needs_real_map


def with_start_line(m: GameMap, pairs: list[str]) -> GameMap:
    """``m`` with the hexsides ``"A/B"`` marked as start line (adding them when featureless)."""
    keys = {hexgrid.hexside(*p.split("/")) for p in pairs}
    sides = []
    for s in m.data.hexsides:
        if s.hexes in keys:
            s = msgspec.structs.replace(s, start_line=True)
            keys.discard(s.hexes)
        sides.append(s)
    for k in sorted(keys):
        sides.append(HexsideData(hexes=k, river=None, crossing=None, road=False, start_line=True))
    data = MapData(
        map=m.data.map,
        hex_km=m.data.hex_km,
        columns=m.data.columns,
        rows=m.data.rows,
        hexes=list(m.data.hexes),
        hexsides=sorted(sides, key=lambda s: s.hexes),
    )
    return GameMap(data)


# Ten hexes in a row, one bridge 0501/0601 on the road.
LINE = make_map(
    ". . . . . . . . . E",
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001"],
    bridges=["0501/0601"],
)
BRIDGE = ("0501", "0601")
UNITS = [
    *(unit(f"g{i}") for i in range(1, 4)),
    *(unit(f"a{i}", "allied") for i in range(1, 4)),
    unit("m1", mech=True, ma=12),
]
B = board(LINE, UNITS)


def test_bridges_are_the_bridge_hexsides() -> None:
    m = make_map(
        ". . . .", roads=["0101-0201-0301-0401"], bridges=["0101/0201"], fords=["0301/0401"]
    )
    assert bridges(m) == (("0101", "0201"),)


@pytest.mark.rule("AO-13.1A")
def test_within_three_hexes_of_either_end() -> None:
    # 0201 is 3 hexes from 0501; 0101 is 4 from 0501 and 5 from 0601
    assert interdiction_for(B, position({"a1": "0201"}), "german", 2) == (BRIDGE,)
    assert interdiction_for(B, position({"a1": "0101"}), "german", 2) == ()
    # 0901 is 4 from 0501 but 3 from 0601: one end is enough
    assert interdiction_for(B, position({"a1": "0901"}), "german", 2) == (BRIDGE,)
    assert interdiction_for(B, position({"a1": "1001"}), "german", 2) == ()
    # range is straight distance, whatever lies between (impassable hexes included)
    walled = board(
        make_map(". x x . . . . . . E", roads=["0401-0501-0601"], bridges=["0501/0601"]), UNITS
    )
    assert interdiction_for(walled, position({"a1": "0201"}), "german", 2) == (BRIDGE,)


@pytest.mark.rule("AO-13.3D")
def test_road_mode_and_dormant_units_do_not_interdict() -> None:
    rm = position({"a1": UnitState(id="a1", hex="0301", road_mode=True)})
    assert interdiction_for(B, rm, "german", 2) == ()
    dormant = position({"a1": UnitState(id="a1", hex="0301", status="dormant")})
    assert interdiction_for(B, dormant, "german", 2) == ()
    # one unit in normal mode among them is enough
    s = position(
        {"a1": UnitState(id="a1", hex="0301", road_mode=True), "a2": UnitState(id="a2", hex="0401")}
    )
    assert interdiction_for(B, s, "german", 2) == (BRIDGE,)


@pytest.mark.rule("AO-13.a*")
def test_friendly_units_never_negate_interdiction() -> None:
    s = position({"a1": "0301", "g1": "0501", "g2": "0601", "g3": "0401"})
    assert interdiction_for(B, s, "german", 2) == (BRIDGE,)


@pytest.mark.rule("AO-13.5F")
def test_interdiction_is_per_side() -> None:
    s = position({"a1": "0201", "g1": "1001"})
    assert interdiction_for(B, s, "german", 2) == (BRIDGE,)
    assert interdiction_for(B, s, "allied", 2) == ()
    s = position({"a1": "0201", "g1": "0801"})
    assert interdiction_for(B, s, "allied", 2) == (BRIDGE,)
    # lifting one side's interdiction leaves the other's alone
    s = position({"g1": "0801"}, interdicted_german=["0501/0601"], interdicted_allied=["0501/0601"])
    assert lift_interdiction(B, s, "german") == ()
    assert lift_interdiction(B, s, "allied") == (BRIDGE,)


@pytest.mark.rule("AO-13.2C")
def test_lifting_at_the_end_of_the_player_turn() -> None:
    # still within 3 hexes of an enemy unit: stays
    s = position({"a1": "0301"}, interdicted_german=["0501/0601"])
    assert lift_interdiction(B, s, "german") == (BRIDGE,)
    # enemy gone or only in Road Mode: lifted
    assert lift_interdiction(B, position({}, interdicted_german=["0501/0601"]), "german") == ()
    s = position(
        {"a1": UnitState(id="a1", hex="0301", road_mode=True)}, interdicted_german=["0501/0601"]
    )
    assert lift_interdiction(B, s, "german") == ()
    # a bridge newly in range is not added at the end of a player-turn
    assert lift_interdiction(B, position({"a1": "0301"}), "german") == ()


# Start line between 0301 and 0401 (a bridge bisected by it, on the Our's model); the German
# side is 0401-0701 (flooded from the east edge 0701). Bridges: 0101/0201 Allied side,
# 0301/0401 bisected, 0501/0601 entirely on the German side.
FRONT = with_start_line(
    make_map(
        ". . . . . . E",
        roads=["0101-0201-0301-0401-0501-0601-0701"],
        bridges=["0101/0201", "0301/0401", "0501/0601"],
    ),
    ["0301/0401"],
)
FB = board(FRONT, UNITS)
ALL3 = (("0101", "0201"), ("0301", "0401"), ("0501", "0601"))


@pytest.mark.rule("AO-13.4E")
def test_game_turn_1_allied_units_spare_bridges_behind_the_german_line() -> None:
    s = position({"a1": "0301"}, turn=1)  # within 3 of all three bridges
    assert interdiction_for(FB, s, "german", 1) == (("0101", "0201"), ("0301", "0401"))
    assert interdiction_for(FB, s, "german", 2) == ALL3
    # German units interdict as usual on Game-Turn 1
    s = position({"g1": "0401"}, turn=1)
    assert interdiction_for(FB, s, "allied", 1) == ALL3
    # at the moment of combat the current Game-Turn decides
    s = position({"a1": "0301", "g1": "0401"}, turn=1, side="allied", phase="combat")
    assert interdiction_at_combat(FB, s, "german") == (("0101", "0201"), ("0301", "0401"))
    s2 = msgspec.structs.replace(s, turn=2)
    assert interdiction_at_combat(FB, s2, "german") == ALL3


@pytest.mark.rule("AO-13.b*")
def test_fixed_at_supply_judgment_for_the_mechanized_phase() -> None:
    # At the German Supply Judgment a1 is within range: the bridge is stored as interdicted.
    sj = position({"a1": "0301", "m1": "0801"}, phase="supply_judgment")
    stored = interdiction_for(B, sj, "german", 2)
    assert stored == (BRIDGE,)
    # a1 is eliminated in the Combat Phase: the stored set still applies in the Mechanized
    # Movement Phase (the integrator does not recompute it); a fresh computation would differ
    mech = position(
        {"a1": UnitState(id="a1", status="eliminated"), "m1": "0801"},
        phase="mechanized_movement",
        interdicted_german=["0501/0601"],
    )
    assert mech.interdicted.german == stored
    assert interdiction_for(B, mech, "german", 2) == ()
    from rules.ao.movement import check_path

    refused = check_path(B, mech, "m1", ["0701", "0601", "0501"])
    assert refused is not None and refused.case == "AO-13.2B"
    # conversely an Allied unit advanced into range after the judgment does not interdict
    adv = position({"a1": "0201", "m1": "0801"}, phase="mechanized_movement")
    assert interdiction_for(B, adv, "german", 2) == (BRIDGE,)
    assert check_path(B, adv, "m1", ["0701", "0601", "0501"]) is None


@pytest.mark.rule("AO-13.c*")
def test_interdiction_against_defenders_at_the_moment_of_combat() -> None:
    # Allied player-turn; nothing stored for the German. a1 now within 3 of the bridge.
    s = position({"a1": "0201", "g1": "0401"}, side="allied", phase="combat")
    assert s.interdicted.german == ()
    assert interdiction_at_combat(B, s, "german") == (BRIDGE,)
    # g1 at 0401 traces east over the bridge: cut at combat, not by the stored set
    assert supply_judgment(B, s, "german")["g1"] == "supplied"
    assert (
        supply_judgment(B, s, "german", interdicted=interdiction_at_combat(B, s, "german"))["g1"]
        == "unsupplied"
    )


# -- property: the cached range tables give the rule's own answer ---------------------------------

# 8 x 6 with five bridges over a north-south river between columns 4 and 5 and one between
# rows 5 and 6; the start line is the river (German side: columns 5-8).
PROP_MAP = with_start_line(
    make_map(
        "\n".join([". . . . . . . E"] * 6),
        roads=[
            f"01{r:02d}-02{r:02d}-03{r:02d}-04{r:02d}-05{r:02d}-06{r:02d}-07{r:02d}-08{r:02d}"
            for r in (1, 3, 5)
        ]
        + ["0705-0706"],
        bridges=["0401/0501", "0403/0503", "0405/0505", "0705/0706"],
        rivers=["0402/0502", "0404/0504", "0406/0506"],
    ),
    [
        *(f"040{r}/050{r}" for r in range(1, 7)),
        *("0402/0501", "0402/0503", "0404/0503", "0404/0505", "0406/0505"),
    ],
)
PROP_B = board(
    PROP_MAP,
    [*(unit(f"g{i}") for i in range(1, 5)), *(unit(f"a{i}", "allied") for i in range(1, 5))],
)
PROP_HEXES = sorted(PROP_MAP)
PAIRS = [*bridges(PROP_MAP), ("0101", "0201"), ("0706", "0806")]  # two non-bridge pairs


def _brute(state: GameState, side: Side, turn: int) -> tuple[tuple[str, str], ...]:
    """AO-13.1A/3D/4E by the letter: every bridge with either hex at most three hexes from an
    enemy unit in play and not in Road Mode; on GT1 none wholly behind the German line."""
    enemy = "allied" if side == "german" else "german"
    centres = [
        u.hex
        for u in state.units
        if u.status == "on_map" and u.hex and not u.road_mode and PROP_B.defs[u.id].side == enemy
    ]
    ger = german_side(PROP_MAP)
    out = []
    for a, b in bridges(PROP_MAP):
        if turn == 1 and side == "german" and a in ger and b in ger:
            continue
        if any(hexgrid.distance(c, a) <= 3 or hexgrid.distance(c, b) <= 3 for c in centres):
            out.append((a, b))
    return tuple(out)


@st.composite
def _positions(draw: st.DrawFn) -> GameState:
    rows = {}
    for uid in PROP_B.defs:
        if draw(st.booleans()):
            rows[uid] = UnitState(
                id=uid,
                hex=draw(st.sampled_from(PROP_HEXES)),
                road_mode=draw(st.booleans()),
                status=draw(st.sampled_from(["on_map", "on_map", "on_map", "dormant"])),
            )
    stored = draw(st.lists(st.sampled_from(PAIRS), unique=True))
    s = position(rows, turn=draw(st.sampled_from([1, 2])))
    return msgspec.structs.replace(
        s, interdicted=Interdiction(german=tuple(sorted(stored)), allied=tuple(sorted(stored)))
    )


@given(_positions())
def test_interdiction_equals_the_range_rule_by_the_letter(s: GameState) -> None:
    for side in ("german", "allied"):
        want = _brute(s, side, s.turn)
        assert interdiction_for(PROP_B, s, side, s.turn) == want
        assert interdiction_at_combat(PROP_B, s, side) == want
        enemy = "allied" if side == "german" else "german"
        centres = [
            u.hex
            for u in s.units
            if u.status == "on_map"
            and u.hex
            and not u.road_mode
            and PROP_B.defs[u.id].side == enemy
        ]
        kept = sorted(
            p
            for p in s.interdicted.for_side(side)
            if any(
                hexgrid.distance(c, p[0]) <= 3 or hexgrid.distance(c, p[1]) <= 3 for c in centres
            )
        )
        assert lift_interdiction(PROP_B, s, side) == tuple(kept)


# == found by the rule audit: bridges and interdiction (AO-13) ====================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.


GS = [unit(f"g{i}") for i in range(1, 5)]


AS = [unit(f"a{i}", "allied") for i in range(1, 5)]


EDGE_BRIDGE = make_map(
    """
    e e e e e e
    . . . . . E
    """,
    roads=["0102-0202-0302-0402-0502-0602"],
    bridges=["0402/0502"],
)


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-13.4E")
@pytest.mark.rule("AO-13.1A")
def test_gt1_allied_units_spare_bridges_behind_the_german_side() -> None:
    # no start line on this map: every hex floods from the east edge, all German side
    m = make_map(". . . . E", bridges=["0201/0301"], roads=["0101-0201-0301-0401-0501"])
    b = board(m, [unit("g"), unit("a", "allied")])
    s = position({"a": "0101", "g": "0501"}, turn=1)
    assert interdiction_for(b, s, "german", 1) == ()
    assert interdiction_for(b, s, "german", 2) == (("0201", "0301"),)
    # German units interdict on GT1 as usual (for the Allied side)
    assert interdiction_for(b, s, "allied", 1) == (("0201", "0301"),)


@pytest.mark.audit
@pytest.mark.rule("AO-13.1A")
@pytest.mark.rule("AO-13.3D")
@pytest.mark.rule("AO-13.2C")
def test_interdiction_range_road_mode_and_lifting() -> None:
    m = line_map(". . . . . . . . .", bridges=["0101/0201"])
    b = board(m, [unit("g"), unit("a", "allied")])
    # 0201 is three hexes from 0501, four from 0601
    near = position({"a": "0501", "g": "0901"})
    far = position({"a": "0601", "g": "0901"})
    assert interdiction_for(b, near, "german", 2) == (("0101", "0201"),)
    assert interdiction_for(b, far, "german", 2) == ()
    rm = position({"a": UnitState(id="a", hex="0501", road_mode=True), "g": "0901"})
    assert interdiction_for(b, rm, "german", 2) == ()
    # lifted at the end of the player-turn only when the enemy is out of range
    stored = position({"a": "0601", "g": "0901"}, interdicted_german=["0101/0201"])
    assert lift_interdiction(b, stored, "german") == ()
    stored2 = position({"a": "0501", "g": "0901"}, interdicted_german=["0101/0201"])
    assert lift_interdiction(b, stored2, "german") == (("0101", "0201"),)


# Twelve hexes in a row, bridge 0601/0701.
IL = make_map(
    ". . . . . . . . . . . E",
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001-1101-1201"],
    bridges=["0601/0701"],
)


IL_BRIDGE = ("0601", "0701")


IL_UNITS = [*GS, *AS, unit("m1", mech=True, ma=12)]


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-13.2C")
@pytest.mark.rule("AO-13.5F")
def test_the_end_of_the_german_player_turn_lifts_only_his_own_interdiction() -> None:
    # bridge 0101/0201: the Allied a in 0601 is four hexes from 0201 (out of range), the
    # German g in 0401 two hexes (in range). At the end of the German player-turn the
    # bridges interdicted for the German are lifted; those interdicted for the Allies stay.
    m = line_map(". . . . . . . . .", bridges=["0101/0201"])
    b = board(m, [unit("g"), unit("a", "allied")])
    s = position(
        {"a": "0601", "g": "0401"},
        phase="mechanized_movement",
        interdicted_german=["0101/0201"],
        interdicted_allied=["0101/0201"],
    )
    after = ended(b, s)
    assert (after.side, after.phase) == ("allied", "reinforcement")
    assert after.interdicted.german == ()
    assert after.interdicted.allied == (("0101", "0201"),)
    # with the Allied unit in range (0501: three hexes) the German's interdiction stays
    s2 = position(
        {"a": "0501", "g": "0401"},
        phase="mechanized_movement",
        interdicted_german=["0101/0201"],
    )
    assert ended(b, s2).interdicted.german == (("0101", "0201"),)


# Three rows; the road and the bridge 0701/0801 on row 1, the German source 1201.
IL3 = make_map(
    "\n".join([". . . . . . . . . . . E", ". . . . . . . . . . . .", ". . . . . . . . . . . ."]),
    roads=["0101-0201-0301-0401-0501-0601-0701-0801-0901-1001-1101-1201"],
    bridges=["0701/0801"],
)


@pytest.mark.audit
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


@needs_real_map
@pytest.mark.rule("AO-13.4E")
def test_no_bridge_of_the_compiled_map_lies_wholly_behind_the_german_start_line() -> None:
    """AO-13.4E with errata 13.2 spares on Game-Turn 1 the bridges "entirely behind the German
    side of the start line". On the compiled map the only river crossings with a hex on the
    German side are the five bridges and the Roth ford of the Our and the Sauer, and the start
    line bisects every one of them (the rules notes, AO-13.4E): the case never applies, so
    the Allied set-up of scenario 1 interdicts on Game-Turn 1 what it would on Game-Turn 2."""
    b, s = scenario_start(1)
    m = b.game_map
    ger = german_side(m)
    touching = sorted(
        (side.hexes, side.river, side.crossing, side.start_line)
        for side in m.sides()
        if side.crossing is not None and (side.hexes[0] in ger or side.hexes[1] in ger)
    )
    assert touching == [
        (("3126", "3226"), "Our", "bridge", True),
        (("3228", "3329"), "Our", "bridge", True),
        (("3432", "3531"), "Our", "ford", True),
        (("3534", "3633"), "Sauer", "bridge", True),
        (("3836", "3935"), "Sauer", "bridge", True),
        (("4040", "4140"), "Sauer", "bridge", True),
    ]
    assert [h for h in bridges(m) if h[0] in ger and h[1] in ger] == []
    assert interdiction_for(b, s, "german", 1) == interdiction_for(b, s, "german", 2)
    assert interdiction_for(b, s, "german", 1) != ()
