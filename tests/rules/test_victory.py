"""Victory (AO-16) on the 5 x 4 map of :mod:`tests.kit.victory_map`, worked out by hand (drawn
there). Neighbours used below: 0302 touches 0401, 0301, 0402, 0202, 0403, 0303; 0402 touches 0401,
0502, 0503, 0302, 0403; 0203 touches 0103, 0204, 0303; 0303 touches 0204.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao.commands import EndPhase
from rules.ao.engine import Applied, apply
from rules.ao.events import GameEnded, VictoryPointsTabulated
from rules.ao.state import Board, GameState, UnitState, VictoryPoints
from rules.ao.supply import supply_judgment
from rules.ao.units import UnitDef
from rules.ao.victory import (
    Verdict,
    bastogne_held,
    german_exit_vp,
    held_exits,
    tabulate,
    tally,
    verdict,
    verdict_for,
)
from rules.dice import ScriptedDice
from tests.kit.engine import ok, refused, rm, unit
from tests.kit.realmap import RealScenario
from tests.kit.victory_map import ALLIES, GERMANS, state, victory_map


def _board() -> Board:
    m = victory_map({"0201": 4, "0401": 6, "0103": 3, "0204": 2, "0404": 1})
    return Board(m, [unit(u, "german") for u in GERMANS] + [unit(u, "allied") for u in ALLIES])


B = _board()


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
def test_scenario_1_starts_at_no_vp_and_the_real_exits_total_80(
    real_scenario: RealScenario,
) -> None:
    board, st = real_scenario(1)
    assert sum(h.exit_vp or 0 for h in board.game_map.exit_hexes()) == 80
    assert tally(board, st).exits == ()
    assert tabulate(board, st) == VictoryPoints(german=0, allied=0)
    assert verdict(board, st) is None


# == found by the rule audit: victory (AO-16) =====================================================
# Every expected outcome is worked out by hand from the rule text (with its errata) or, where the
# text is ambiguous, from the reading in ``docs/rules-notes.md``.
#
# The map of this module (``victory_map``), other exit VP:
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


V_GERMANS = ("g1", "g2", "g3", *(f"d{i:02}" for i in range(1, 31)))


V_ALLIES = ("a1", "a2", "a3", *(f"k{i:02}" for i in range(1, 11)))


def _vboard() -> Board:
    m = victory_map({"0201": 10, "0401": 20, "0103": 5, "0204": 3, "0404": 7})
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-16.B")
def test_one_german_unit_holds_two_exits() -> None:
    """AO-16.C: "One unit can occupy more than one exit hex"; AO-16.B: each exit is worth the
    VP printed in it. g1 at 0102 controls the NE exit 0201 and the live exit 0103."""
    s = vstate({"g1": "0102"}, kills=2)
    assert exits(s) == {"0103": 5, "0201": 10}
    assert tally(VB, s).vp == VictoryPoints(german=17, allied=0)


@pytest.mark.audit
@pytest.mark.rule("AO-16.H")
@pytest.mark.rule("AO-6.6J")
def test_a_road_mode_german_holds_an_exit_only_by_standing_in_it() -> None:
    """AO-16.H: "German units in Road Mode may occupy a Road Exit hex by being physically on
    the road exit hex"; AO-6.6J: in Road Mode a unit controls only its own hex."""
    assert exits(vstate({"g1": rm("g1", "0203")})) == {}
    assert exits(vstate({"g1": rm("g1", "0103")})) == {"0103": 5}
    assert exits(vstate({"g1": "0103"})) == {"0103": 5}


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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
    assert a.state.roll is None and refused(VB, a.state, EndPhase()) == "AO-4.1a"
    # 34 by the end of GT6: the game goes on into GT7, whose start calls for the CRT switch die
    short = vstate({"g1": "0302", "g2": "0202"}, kills=4, turn=6)
    go_on = apply(VB, short, EndPhase())
    assert isinstance(go_on, Applied)
    assert (go_on.state.turn, go_on.state.side, go_on.state.phase) == (7, "german", "reinforcement")
    assert go_on.state.roll is not None and go_on.state.roll.purpose == "crt_switch"
    assert go_on.state.result is None and go_on.state.vp == VictoryPoints(german=34, allied=0)
    # 35 at the end of GT7 is no immediate victory
    late = vstate({"g1": "0302", "g2": "0202"}, kills=5, turn=7)
    after = apply(VB, late, EndPhase(), ScriptedDice([6], start=0))
    assert isinstance(after, Applied) and after.state.result is None


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
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


@pytest.mark.audit
@pytest.mark.rule("AO-16.H")
@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-11.k")
def test_road_exit_hexes_are_live_hexes_german_units_stand_on_them_and_fight_there() -> None:
    """AO-16.H: "German units in Road Mode may occupy a Road Exit hex by being physically on
    the road exit hex" - so German units enter exit hexes, which are not Allied Map Edge hexes
    (AO-5.3L: German units "may never enter these hexes"), and an Allied unit in one (AO-16.C)
    may be attacked and is not dormant there (AO-11.k, AO-5.3M concern the Map Edge hexes)."""
    from rules.ao.commands import DeclareAttack, Move, ResolveAttacks
    from rules.ao.events import UnitRetreated
    from rules.ao.movement import legal_moves

    # German Initial Movement: g1 in Road Mode in 0402 drives onto the NW exit 0401 (road
    # 0402-0401) and holds its 20 VP by being there
    s = msgspec.structs.replace(
        vstate({"g1": rm("g1", "0402")}), side="german", phase="initial_movement"
    )
    assert "0401" in legal_moves(VB, s, "g1")
    on = ok(VB, s, Move("g1", ("0401",))).state
    assert on.unit("g1").hex == "0401"
    assert exits(on) == {"0401": 20}
    # an Allied unit left on the exit 0401 (a reinforcement that never moved) may be attacked
    combat = msgspec.structs.replace(
        vstate({"g1": "0402", "a1": rm("a1", "0401")}), side="german", phase="combat"
    )
    ok(VB, combat, DeclareAttack(attackers=("g1",), defenders=("0401",)))
    # a1 in 0302, its other hexes one away German or German-controlled (g2 in 0202 controls
    # 0301 and 0303, g3 in 0403 controls 0402): g2 + g3, 8-4 2-1, Initial die 2: Dr1 - it
    # retreats onto the exit 0401 and stays in play there
    fight_state = msgspec.structs.replace(
        vstate({"a1": "0302", "g2": "0202", "g3": "0403"}), side="german", phase="combat"
    )
    declared = ok(VB, fight_state, DeclareAttack(attackers=("g2", "g3"), defenders=("0302",)))
    done = ok(VB, declared.state, ResolveAttacks(), [2])
    moved = [e for e in done.events if isinstance(e, UnitRetreated)]
    assert [(e.unit, e.path, e.dormant) for e in moved] == [("a1", ("0401",), False)]
    assert done.state.unit("a1").status == "on_map"
