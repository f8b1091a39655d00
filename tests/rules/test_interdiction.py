"""Bridge interdiction (AO-13) on small synthetic maps, outcomes worked out by hand."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import hexgrid
from rules.gamemap import GameMap, HexsideData, MapData
from rules.interdiction import (
    bridges,
    interdiction_at_combat,
    interdiction_for,
    lift_interdiction,
)
from rules.start_line import german_side
from rules.state import GameState, Interdiction, UnitState
from rules.supply import supply_judgment
from rules.units import Side
from tests.enginekit import board, make_map, position, unit


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
    from rules.movement import check_path

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
