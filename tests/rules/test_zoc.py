"""Zones of control (AO-7) on a 7x5 clear map.

Geometry used below (odd rows unshifted, even rows shifted east): the Allied unit on 0503
controls 0502, 0603, 0504, 0404, 0403 and 0402.
"""

from __future__ import annotations

import itertools

import msgspec
import pytest

from rules.ao.combat.retreat import retreat_options
from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, DeclareAttack, Move
from rules.ao.engine import apply
from rules.ao.movement import legal_moves
from rules.ao.state import Board, GameState, UnitState
from rules.ao.units import Side, UnitDef
from rules.ao.zoc import zoc_of_side, zone_of
from rules.rejection import Rejection
from tests.kit.engine import board, costs, make_map, moved, outcome, position, rm, unit

GRID = "\n".join([". . . . . . ."] * 5)
A_ZOC = {"0502", "0603", "0504", "0404", "0403", "0402"}


def _board() -> Board:
    return board(
        make_map(GRID),
        [unit("g", ma=8), unit("h", ma=8), unit("f"), unit("a", "allied"), unit("a2", "allied")],
    )


@pytest.mark.rule("AO-7.0")
def test_zoc_is_the_six_surrounding_hexes() -> None:
    b = _board()
    s = position({"a": "0503"})
    assert set(zone_of(b, s.unit("a"))) == A_ZOC
    assert zoc_of_side(b, s, "allied") == frozenset(A_ZOC)
    assert zoc_of_side(b, s, "german") == frozenset()


@pytest.mark.rule("AO-7.1A")
def test_stop_on_entering_enemy_zoc() -> None:
    b = _board()
    s = position({"g": "0103", "a": "0503"})
    assert outcome(b, s, "g", "0203 0303 0403") == 3
    r = apply(b, s, Move(unit="g", path=("0203", "0303", "0403", "0404")))
    assert isinstance(r, Rejection) and r.case == "AO-7.1A"
    assert r.message == "AO-7.1A: g entered the enemy-controlled hex 0403 and must stop there"
    c = costs(b, s, "g")
    assert c["0403"] == 3
    # 0402 is reachable only around the zone (0303-0302-0402), never from 0403
    assert c["0402"] == 4
    # 0405, south of the zone: 0203-0303-0304-0405 (0304 is outside the zone)
    assert c["0405"] == 4


@pytest.mark.rule("AO-7.1A")
@pytest.mark.rule("AO-5.2G")
def test_never_leave_an_enemy_controlled_hex() -> None:
    b = _board()
    s = position({"g": "0403", "a": "0503"})
    r = apply(b, s, Move(unit="g", path=("0303",)))
    assert isinstance(r, Rejection)
    assert r.message == "AO-7.1A: g may not leave an enemy-controlled hex (0403)"
    assert outcome(b, s, "g", "0402") == "AO-7.1A"  # nor from one controlled hex to another
    assert costs(b, s, "g") == {}


@pytest.mark.rule("AO-7.2B")
def test_friendly_unit_negates_enemy_zoc_in_its_hex() -> None:
    b = _board()
    # f holds 0402 (in a's zone): g enters it, pays +2 for stacking, and may go on
    s = position({"g": "0302", "f": "0402", "a": "0503"})
    assert outcome(b, s, "g", "0402") == 1 + 2
    assert outcome(b, s, "g", "0402 0401") == 3 + 1 + 2
    # and one friendly unit in a stack frees the others to move
    s = position({"g": "0403", "h": "0403", "a": "0503"})
    assert outcome(b, s, "g", "0303") == 1 + 2
    assert outcome(b, s, "h", "0303") == 1 + 2


@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-5.2G")
def test_infiltration_leaving_a_stack_stops_in_the_next_enemy_zoc() -> None:
    b = _board()
    s = position({"g": "0403", "h": "0403", "a": "0503"})
    # g leaves (h absorbs the ZOC), pays destacking, enters 0402 (controlled) and stops
    assert outcome(b, s, "g", "0402") == 1 + 2
    r = apply(b, s, Move(unit="g", path=("0402", "0401")))
    assert isinstance(r, Rejection) and r.case == "AO-7.1A"
    c = costs(b, s, "g")
    assert c["0402"] == 3 and c["0404"] == 3
    # 0501 is next to 0402, but g must stop there: it goes round, 0302-0401-0501
    assert legal_moves(b, s, "g")["0501"].path == ("0302", "0401", "0501")
    assert c["0501"] == 3 + 1 + 1
    # once g has gone, h is alone in the zone and may not leave
    r2 = apply(b, s, Move(unit="g", path=("0402",)))
    assert not isinstance(r2, Rejection)
    assert outcome(b, r2.state, "h", "0303") == "AO-7.1A"


@pytest.mark.rule("AO-6.6J")
def test_road_mode_units_have_no_zoc_beyond_their_hex() -> None:
    b = _board()
    s = position({"g": "0303", "a": UnitState(id="a", hex="0503", road_mode=True)})
    assert set(zone_of(b, s.unit("a"))) == {"0503"}
    # g walks past a through 0403 and 0404 without stopping
    assert outcome(b, s, "g", "0403 0404 0405") == 3
    # and may retreat into 0403, next to a (the engine's retreat paths, AO-7.3D)
    assert ("0403",) in retreat_options(b, s, "g", 1).paths


def _retreats(b: Board, s: GameState, uid: str) -> set[tuple[str, ...]]:
    """The retreat paths of one hex that the engine's combat resolution offers ``uid``."""
    return set(retreat_options(b, s, uid, 1).paths)


@pytest.mark.rule("AO-7.3C")
def test_retreat_out_of_enemy_zoc_is_allowed() -> None:
    b = _board()
    s = position({"g": "0403", "a": "0503"})
    # 0403's neighbours: 0402 (NE) and 0404 (SE) are in a's zone, 0503 (E) is a's hex; g leaves
    # its controlled hex for any of the other three
    assert _retreats(b, s, "g") == {("0302",), ("0303",), ("0304",)}


@pytest.mark.rule("AO-7.3D")
@pytest.mark.rule("AO-7.2B")
def test_no_retreat_into_enemy_controlled_hexes() -> None:
    b = _board()
    s = position({"g": "0303", "a": "0503"})
    # 0303's neighbours: 0302, 0403 (controlled by a), 0304, 0204, 0203, 0202
    assert _retreats(b, s, "g") == {("0302",), ("0304",), ("0204",), ("0203",), ("0202",)}
    # a friendly unit in the hex negates the control (AO-7.2B): 0403 is open again
    s = position({"g": "0303", "f": "0403", "a": "0503"})
    assert ("0403",) in _retreats(b, s, "g")
    # with every way out controlled or held by the enemy, the unit is eliminated (AO-7.3D)
    s = position({"g": "0101", "a": "0203", "a2": "0301"})
    opts = retreat_options(b, s, "g", 1)
    assert opts.paths == () and opts.eliminated == "AO-7.3D"


@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-5.3N")
def test_off_map_zones() -> None:
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("g", ma=8), unit("h"), unit("a", "allied"), unit("a2", "allied")])
    # an Allied unit resting on an edge hex has no ZOC: g passes next to it without stopping
    s = position({"a": "0102", "g": "0401"})
    assert zone_of(b, s.unit("a")) == ()
    assert outcome(b, s, "g", "0301 0201 0202 0203") == 4
    # German ZOC extends into edge hexes and blocks Allied retreats into them. a2 on 0202 is
    # hemmed in: g on 0303 controls 0302 and 0203; h holds 0301 or 0201 and controls the other.
    # Its one way out is the edge hex 0102 (AO-9.7P), open while h stands on 0301 ...
    s = position({"g": "0303", "h": "0301", "a2": "0202"})
    opts = retreat_options(b, s, "a2", 1)
    assert opts.paths == (("0102",),) and opts.eliminated is None
    # ... and shut by h's ZOC from 0201 (0201 controls 0102, SW): a2 is eliminated
    s = position({"g": "0303", "h": "0201", "a2": "0202"})
    assert "0102" in zoc_of_side(b, s, "german")
    opts = retreat_options(b, s, "a2", 1)
    assert opts.paths == () and opts.eliminated == "AO-7.3D"


@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-5.3M")
@pytest.mark.rule("AO-11.k")
def test_german_control_in_an_edge_hex_blocks_retreats_but_holds_nobody_there() -> None:
    """AO-5.3N: German units exert a Zone of Control into Allied Map Edge hexes "for the
    purpose of blocking retreat"; AO-5.3M: a reactivated unit "may reenter the game and operate
    in the normal manner"; the chart: combat in an Allied Map Edge hex "Prohibited". r,
    reactivated on the edge hex 0102, has g (0203) next to it: g controls 0102, 0103, 0202 and
    0303. r may not attack g (AO-11.k), and it may leave the edge hex (the rules notes, AO-7.5E:
    were it held there, it could never leave nor attack): to 0201 (not controlled) and on to
    0301, 1 MP a hex; into 0202 (controlled), where it stops (AO-7.1A). That control still
    blocks a retreat into the edge hex (``test_off_map_zones``)."""
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("g"), unit("r", "allied", ma=4)])
    s = position({"g": "0203", "r": "0102"}, side="allied")
    assert "0102" in zoc_of_side(b, s, "german")
    assert outcome(b, s, "r", "0201 0301") == 2
    assert outcome(b, s, "r", "0202") == 1
    assert outcome(b, s, "r", "0202 0302") == "AO-7.1A"
    # everything 1 MP a hex from 0102, stopping in g's zone (0202, 0303)
    want = {"0201": 1, "0202": 1, "0301": 2, "0302": 3, "0401": 3, "0303": 4, "0402": 4}
    assert costs(b, s, "r") == want | {"0403": 4}
    combat = position({"g": "0203", "r": "0102"}, side="allied", phase="combat")
    r = apply(b, combat, DeclareAttack(attackers=("r",), defenders=("0203",)))
    assert isinstance(r, Rejection) and r.case == "AO-11.k"


# == found by the rule audit: zones of control (AO-7, AO-6.6J, AO-5.3M) ===========================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
# An Allied unit on 0503 controls 0502, 0603, 0504, 0404, 0403 and 0402.


def _zoc_board(*extra: UnitDef) -> Board:
    return board(
        make_map(GRID, roads=["0103-0203-0303-0403"]),
        [
            unit("g", ma=8),
            unit("h", ma=8),
            unit("m", mech=True, ma=10),
            unit("a", "allied"),
            *extra,
        ],
    )


@pytest.mark.audit
@pytest.mark.rule("AO-7.1A")
def test_stop_on_entering_nothing_after_not_even_a_mode_change() -> None:
    b = _zoc_board()
    s = position({"g": "0203", "a": "0503"})
    assert outcome(b, s, "g", "0303 0403") == 2
    assert outcome(b, s, "g", "0303 0403 0303") == "AO-7.1A"
    assert outcome(b, s, "g", f"0303 0403 {ENTER_ROAD_MODE}") == "AO-7.1A"
    # a Road Mode mover stops too
    s = position({"g": rm("g", "0203"), "a": "0503"})
    assert outcome(b, s, "g", "0303 0403") == 1
    assert outcome(b, s, "g", f"0303 0403 {LEAVE_ROAD_MODE}") == "AO-7.1A"


@pytest.mark.audit
@pytest.mark.rule("AO-7.1A")
@pytest.mark.rule("AO-5.2G")
def test_alone_in_enemy_zoc_only_a_mode_change_in_place() -> None:
    b = _zoc_board()
    s = position({"g": "0403", "a": "0503"})
    for path in ("0303", "0402", "0404", "0404 0304"):
        assert outcome(b, s, "g", path) == "AO-7.1A"
    moves = legal_moves(b, s, "g")
    assert set(moves) == {"0403"} and moves["0403"].road_mode and moves["0403"].cost == 3
    # not on a road hex: nothing at all
    s = position({"g": "0404", "a": "0503"})
    assert legal_moves(b, s, "g") == {}


@pytest.mark.audit
@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-8.1A")
def test_infiltration_from_a_stack_pays_destacking_and_stops_in_the_next_zone() -> None:
    b = _zoc_board()
    s = position({"g": "0403", "h": "0403", "a": "0503"})
    # out of the zone: 1 + 2 destacking
    assert outcome(b, s, "g", "0303") == 3
    assert outcome(b, s, "g", "0303 0203") == 4
    # directly into another controlled hex (0404): allowed, since h stays; stop there
    assert outcome(b, s, "g", "0404") == 3
    assert outcome(b, s, "g", "0404 0304") == "AO-7.1A"
    # the one left behind is alone in the zone and stuck
    t = moved(b, s, "g", "0404")
    assert outcome(b, t, "h", "0303") == "AO-7.1A"
    assert outcome(b, t, "g", "0304") == "AO-5.1E"


@pytest.mark.audit
@pytest.mark.rule("AO-7.4E")
@pytest.mark.rule("AO-7.2B")
def test_chain_of_movement_frees_a_unit_alone_in_a_zone() -> None:
    """The AO-7.4E example: a friend moves in, then the trapped unit moves out."""
    b = _zoc_board()
    s = position({"g": "0403", "h": "0303", "a": "0503"})
    assert outcome(b, s, "g", "0303") == "AO-7.1A"
    # h enters the friend-held controlled hex: 1 + 2 stacking; not enemy-controlled for it
    t = moved(b, s, "h", "0403")
    # g now leaves with h absorbing the zone: 1 + 2 destacking
    assert outcome(b, t, "g", "0303") == 3
    assert outcome(b, t, "g", "0303 0203") == 4
    # documented reading (rules notes AO-7.2B): h need not stop in 0403 and may go on into
    # another controlled hex, where it stops: (1 + 2) + (1 + 2)
    assert outcome(b, s, "h", "0403 0404") == 6
    assert outcome(b, s, "h", "0403 0404 0405") == "AO-7.1A"


@pytest.mark.audit
@pytest.mark.rule("AO-6.6J")
def test_enemy_road_mode_units_control_only_their_own_hex() -> None:
    b = _zoc_board()
    s = position({"g": "0303", "a": rm("a", "0503")})
    assert zone_of(b, s.unit("a")) == ("0503",)
    # along three hexes adjacent to the Road Mode unit without stopping
    assert outcome(b, s, "g", "0403 0404 0504 0505") == 4
    assert outcome(b, s, "g", "0403 0503") == "AO-5.2F"
    # the same unit in normal mode stops g at once
    s = position({"g": "0303", "a": "0503"})
    assert outcome(b, s, "g", "0403 0404") == "AO-7.1A"


@pytest.mark.audit
@pytest.mark.rule("AO-7.5E")
@pytest.mark.rule("AO-5.3M")
def test_allied_units_on_edge_hexes_and_dormant_units_have_no_zoc() -> None:
    m = make_map("e . . .\ne . . .\ne . . .")
    b = board(m, [unit("g", ma=8), unit("a", "allied"), unit("n", "allied")])
    # 0201, 0202 and 0203 all touch the edge hex 0102
    for a in (UnitState(id="a", hex="0102"), UnitState(id="a", hex="0102", status="dormant")):
        s = position({"g": "0301", "a": a})
        assert zone_of(b, s.unit("a")) == ()
        assert outcome(b, s, "g", "0201 0202 0203") == 3
    # control: the same Allied unit on a live hex (0302) stops g on 0202
    s = position({"g": "0301", "a": "0302"})
    assert outcome(b, s, "g", "0201 0202 0203") == "AO-7.1A"


# == the once-per-state tables against a count from scratch ======================================


SIDES: tuple[Side, ...] = ("german", "allied")


def _from_scratch(b: Board, s: GameState, side: Side) -> frozenset[str]:
    return frozenset(h for u in s.units if b.defs[u.id].side == side for h in zone_of(b, u))


@pytest.mark.rule("AO-7.0")
def test_zones_of_every_state_of_a_game_in_any_order(real_scenario) -> None:
    """``zoc_of_side`` follows each state from the last one asked (the rows that changed): it
    must give what a count from scratch gives, state after state, backwards and jumping."""
    from rules import SeededDice
    from rules.ao import Game
    from rules.ao.bots.selfplay import play

    b, _ = real_scenario(1)
    game = play(b, 7, turns=3)
    replayed = Game.replay(game.record, b, SeededDice(bytes.fromhex(game.dice_seed)))
    assert replayed.error is None
    g = replayed.game
    states = [g.state_at(n) for n in range(len(g.history) + 1)]
    moved = sum(1 for a, c in itertools.pairwise(states) if a.units != c.units)
    assert moved > 100  # a game whose zones change, not a still position
    order = [*range(len(states)), *reversed(range(len(states))), *range(0, len(states), 37)]
    for n in order:
        s = states[n]
        for side in SIDES:
            assert zoc_of_side(b, s, side) == _from_scratch(b, s, side), (n, side)
    # rows in another order (a position written by hand): counted afresh, not diffed
    s = msgspec.structs.replace(states[-1], units=tuple(reversed(states[-1].units)))
    for other in SIDES:
        assert zoc_of_side(b, s, other) == _from_scratch(b, s, other)
