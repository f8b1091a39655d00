"""Combat results through the engine (AO-10.1 Ar/Dr/Ex/De, AO-10.3a the CRT switch, AO-9.6N
advance after combat, AO-16.A), on small synthetic maps, dice scripted, outcomes worked out by
hand from the CRTs (see ``tests/rules/test_combat.py`` for the rows used).
"""

from __future__ import annotations

import pytest

from rules.ao.commands import Advance, ChooseLosses, EndPhase, Move, Roll, StandingOrders
from rules.ao.engine import apply, pending_decision
from rules.ao.events import (
    CrtSwitchRolled,
    DecisionPending,
    RollRequired,
    UnitEliminated,
    VictoryPointsScored,
)
from rules.ao.state import GameState, RollDue, UnitState, VictoryPoints
from rules.rejection import Rejection
from tests.kit.engine import (
    LINE8,
    board,
    cpos,
    fight,
    line_map,
    make_map,
    ok,
    position,
    refused,
    resolved,
    retreats,
    unit,
)

LINE = line_map(". . . . . . .")


# -- results ----------------------------------------------------------------------------------


@pytest.mark.rule("AO-10.1a")
def test_ar_and_dr_retreat_the_number_of_hexes() -> None:
    b = board(line_map(". . . . . . . ."), [unit("g", strength=2), unit("a", "allied")])
    s = cpos({"g": "0401", "a": "0501"})
    # 2-4 is 1-2; Initial CRT die 4: Ar2 - g goes back two hexes west
    done = fight(b, s, ["g"], ["0501"], [4])
    assert resolved(done).result == "Ar2" and done.state.unit("g").hex == "0201"
    b2 = board(line_map(". . . . . . . ."), [unit("g", strength=12), unit("a", "allied")])
    done2 = fight(b2, cpos({"g": "0201", "a": "0301"}), ["g"], ["0301"], [1])
    assert resolved(done2).result == "Dr3" and done2.state.unit("a").hex == "0601"


@pytest.mark.rule("AO-10.1b")
@pytest.mark.rule("AO-16.A")
def test_exchange_defenders_go_and_the_attacker_picks_losses_by_face_value() -> None:
    b4 = board(
        line_map(". . . ."),
        [
            unit("g1", strength=4),
            unit("g2", strength=4),
            unit("g3", strength=9),
            unit("a", "allied", strength=4),
        ],
    )
    s4 = cpos({"g1": "0101", "g2": "0101", "g3": "0101", "a": "0201"})
    done = fight(b4, s4, ["g1", "g2", "g3"], ["0201"], [1])  # 17-4 4-1, die 1: Ex
    assert resolved(done).result == "Ex"
    st = done.state
    assert st.unit("a").status == "eliminated"
    d = pending_decision(b4, st)
    assert d is not None and (d.side, d.kind, d.need) == ("german", "losses", 4)
    assert d.choices == (("g1",), ("g2",), ("g3",))
    # the event says the same: who, what, the case, the choices and the need
    (asked,) = [e for e in done.events if isinstance(e, DecisionPending)]
    assert (asked.side, asked.kind, asked.case, asked.choices, asked.need) == (
        "german",
        "losses",
        d.case,
        (("g1",), ("g2",), ("g3",)),
        4,
    )
    assert refused(b4, st, EndPhase()) == "decision-pending"
    assert refused(b4, st, ChooseLosses(units=())) == "AO-10.1b"
    assert refused(b4, st, ChooseLosses(units=("a",))) == "AO-10.1b"
    after = ok(b4, st, ChooseLosses(units=("g3",))).state  # 9 >= 4: allowed, if unwise
    assert after.unit("g3").status == "eliminated"
    assert after.vp == VictoryPoints(german=1, allied=1)
    assert after.combat.pending is None and after.combat.current is None


@pytest.mark.rule("AO-10.1c")
@pytest.mark.rule("AO-16.A")
def test_de_eliminates_every_defender_one_vp_each() -> None:
    s = cpos({"g": "0201", "a1": "0301", "a2": "0301"})
    b2 = board(
        LINE, [unit("g", strength=36), unit("a1", "allied"), unit("a2", "allied", strength=2)]
    )
    done2 = fight(b2, s, ["g"], ["0301"], [1])  # 36-6 6-1, die 1: De
    assert resolved(done2).result == "De"
    elim = [e for e in done2.events if isinstance(e, UnitEliminated)]
    assert [(e.unit, e.case) for e in elim] == [("a1", "AO-10.1c"), ("a2", "AO-10.1c")]
    vps = [e for e in done2.events if isinstance(e, VictoryPointsScored)]
    assert [(e.side, e.points) for e in vps] == [("german", 1), ("german", 1)]
    assert done2.state.vp == VictoryPoints(german=2, allied=0)


@pytest.mark.rule("AO-10.3a")
def test_the_german_crt_switch_roll_from_game_turn_six() -> None:
    b = board(LINE, [unit("g"), unit("a", "allied")])
    s = position({"g": "0101", "a": "0701"}, turn=5, side="allied", phase="mechanized_movement")
    # entering GT6 rolls nothing: the die is due, and nothing but Roll is accepted
    due = ok(b, s, EndPhase())
    assert (due.state.turn, due.state.dice_drawn) == (6, 0)
    assert due.state.roll == RollDue(purpose="crt_switch")
    assert RollRequired(purpose="crt_switch", case="AO-10.3a") in due.events
    assert refused(b, due.state, EndPhase()) == "AO-10.3a"
    assert refused(b, due.state, Move(unit="g", path=("0201",))) == "AO-10.3a"
    no_dice = apply(b, due.state, Roll())
    assert isinstance(no_dice, Rejection) and no_dice.case == "dice-needed"
    r = ok(b, due.state, Roll(), [3])
    assert (r.state.turn, r.state.german_crt, r.state.dice_drawn) == (6, "initial", 1)
    assert CrtSwitchRolled(turn=6, die=3, crt="initial") in r.events
    assert refused(b, r.state, Roll()) == "AO-4.1"  # rolled once per Game-Turn
    r1 = ok(b, due.state, Roll(), [1])
    assert r1.state.german_crt == "standard"
    # GT5 has no roll; once standard, no more rolls
    s4 = position({"g": "0101", "a": "0701"}, turn=4, side="allied", phase="mechanized_movement")
    gt5 = ok(b, s4, EndPhase()).state
    assert (gt5.dice_drawn, gt5.roll) == (0, None)
    assert refused(b, gt5, Roll()) == "AO-4.1"
    s7 = msgspec_replace(r1.state, turn=7, side="allied", phase="mechanized_movement")
    gt8 = ok(b, s7, EndPhase()).state
    assert (gt8.german_crt, gt8.roll) == ("standard", None)


def msgspec_replace(s: GameState, **kw: object) -> GameState:
    import msgspec

    return msgspec.structs.replace(s, **kw)


@pytest.mark.rule("AO-10.3a")
@pytest.mark.rule("AO-10.0a")
def test_the_german_attacks_on_the_standard_crt_after_the_switch() -> None:
    b = board(LINE, [unit("g", strength=8), unit("a", "allied")])
    s = msgspec_replace(cpos({"g": "0201", "a": "0301"}, turn=7), german_crt="standard")
    done = fight(b, s, ["g"], ["0301"], [4])  # Standard 2-1 die 4: Ar1 (Initial: Dr1)
    assert (resolved(done).table, resolved(done).result) == ("standard", "Ar1")
    assert done.state.unit("g").hex == "0101"


# -- AO-9.6N advance after combat ---------------------------------------------------------------


@pytest.mark.rule("AO-9.6N")
def test_one_mechanized_participant_may_advance_into_the_cleared_hex() -> None:
    b = board(
        LINE,
        [
            unit("m", mech=True, strength=6),
            unit("m2", mech=True, strength=4),
            unit("i"),
            unit("a", "allied"),
        ],
    )
    s = cpos({"m": "0201", "m2": "0201", "i": "0401", "a": "0301"})
    # a has no supply path but a one-row map surrounds nobody (AO-12.3H): unsupplied, 4;
    # 14-4 3-1, die 1: Dr3; both hexes one away are German: eliminated (AO-10.2b)
    done = fight(b, s, ["m", "m2", "i"], ["0301"], [1])
    assert resolved(done).result == "Dr3"
    assert done.state.unit("a").status == "eliminated"
    d = done.state.combat.pending
    assert d is not None and (d.kind, d.hex, d.choices) == ("advance", "0301", (("m",), ("m2",)))
    assert refused(b, done.state, Advance(hex="0301", unit="i")) == "AO-9.6N"  # not mechanized
    adv = ok(b, done.state, Advance(hex="0301", unit="m2")).state
    assert adv.unit("m2").hex == "0301" and adv.combat.current is None
    declined = ok(b, done.state, Advance(hex="0301")).state
    assert declined.unit("m").hex == declined.unit("m2").hex == "0201"


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-9.6N")
def test_no_advance_into_the_west_wall_in_road_mode() -> None:
    """AO-11.h: West Wall hex, "May not enter in Road Mode" - by an advance after combat too."""
    m = make_map(
        """
        . . W . .
        . . . . .
        """,
        roads=["0101-0201", "0301-0401-0501"],
        bridges=["0201/0301"],
    )
    b = board(
        m,
        [
            unit("g", mech=True, strength=16),
            unit("g2", mech=True, strength=4),
            unit("a", "allied"),
        ],
    )
    # g in Road Mode (16 halved, 8, AO-6.6K) and g2 (4) on a in the West Wall hex 0301: 12-4
    # 3-1, Initial die 2: Dr2; a's hexes away are German or in g2's ZOC: eliminated. (g faces
    # 0301 across a bridge, so g2 in 0301 would not be next to it along a road, AO-6.5G.)
    s = cpos({"g": UnitState(id="g", hex="0201", road_mode=True), "g2": "0302", "a": "0301"})
    done = fight(b, s, ["g", "g2"], ["0301"], [2])
    assert (resolved(done).column, resolved(done).result) == ("3-1", "Dr2")
    assert done.state.unit("a").status == "eliminated"
    # only g2 may advance: g would enter the West Wall in Road Mode
    d = done.state.combat.pending
    assert d is not None and (d.kind, d.hex, d.choices) == ("advance", "0301", (("g2",),))
    assert refused(b, done.state, Advance(hex="0301", unit="g")) == "AO-11.h"
    assert ok(b, done.state, Advance(hex="0301", unit="g2")).state.unit("g2").hex == "0301"


@pytest.mark.rule("AO-13.2B")
@pytest.mark.rule("AO-9.6N")
def test_no_advance_across_a_bridge_interdicted_for_the_advancing_side() -> None:
    """AO-13.2B: "The road crossing an interdicted bridge is considered cut. This road hex-side
    may not be used for supply or movement purposes" - an advance after combat is a move."""
    m = make_map(
        """
        . . . . . .
        . . . . . .
        """,
        roads=["0101-0201-0301-0401-0501-0601"],
        bridges=["0401/0501"],
    )
    b = board(
        m,
        [unit("g", mech=True, strength=8), unit("g2", mech=True, strength=4), unit("a", "allied")],
    )
    # the bridge 0401/0501 is interdicted for the German (stored at his Supply Judgment)
    s = cpos({"g": "0501", "g2": "0402", "a": "0401"}, interdicted_german=["0401/0501"])
    # 12-4 3-1, Initial die 4: Dr1; a goes to 0301 (0302 is in g2's zone of control)
    done = fight(b, s, ["g", "g2"], ["0401"], [4])
    assert retreats(done) == [("a", ("0301",))]
    # g faces 0401 across the interdicted bridge: only g2 may advance
    d = done.state.combat.pending
    assert d is not None and (d.kind, d.hex, d.choices) == ("advance", "0401", (("g2",),))
    assert refused(b, done.state, Advance(hex="0401", unit="g")) == "AO-13.2B"
    # not interdicted: both may
    s2 = cpos({"g": "0501", "g2": "0402", "a": "0401"})
    d2 = fight(b, s2, ["g", "g2"], ["0401"], [4]).state.combat.pending
    assert d2 is not None and d2.choices == (("g",), ("g2",))


@pytest.mark.rule("AO-9.6N")
@pytest.mark.rule("AO-10.2a")
def test_the_defender_advances_into_the_attackers_cleared_hex() -> None:
    b = board(LINE, [unit("g", strength=2), unit("a", "allied", mech=True)])
    s = cpos({"g": "0401", "a": "0501"})
    done = fight(b, s, ["g"], ["0501"], [4])  # 2-4 1-2 die 4: Ar2
    assert done.state.unit("g").hex == "0201"
    d = done.state.combat.pending
    assert d is not None and (d.side, d.kind, d.hex) == ("allied", "advance", "0401")
    assert ok(b, done.state, Advance(hex="0401", unit="a")).state.unit("a").hex == "0401"


# == found by the rule audit: results and advance after combat (AO-10.1, AO-9.6N) =================
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


@pytest.mark.audit
@pytest.mark.rule("AO-10.1a")
@pytest.mark.rule("AO-10.0a")
def test_standard_ar3_retreats_the_attacker_three_hexes() -> None:
    # 2-4 is 1-2; Standard die 4: Ar3 - a from 0501 to 0201
    b = board(LINE8, [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0501", "g": "0601"}, side="allied"), ["a"], ["0601"], [4])
    assert (resolved(done).table, resolved(done).result) == ("standard", "Ar3")
    assert retreats(done) == [("a", ("0401", "0301", "0201"))]


RING3 = """
. . . . .
. . . . .
. . . . .
"""
"""Five by three; 0302 has all six neighbours on the map: units in 0202 and 0402 hold two of
them and control the other four."""


@pytest.mark.audit
@pytest.mark.rule("AO-10.1b")
@pytest.mark.rule("AO-12.6")
def test_exchange_counts_the_defenders_face_value_not_their_halved_defence() -> None:
    # a (10) in 0302, ringed by the attackers' stack in 0402 and h in 0202 (they hold two of
    # its neighbours and control the other four): isolated, defends 5 (AO-12.3H).
    # 6 + 5 + 12 = 23 against 5 is 4-1, Initial die 1: Ex. The attacker must lose at least 10
    # printed points: {g3} (12) or {g1, g2} (11) - not a single 5 or 6, and never h.
    m = make_map(RING3)
    b = board(
        m,
        [
            unit("g1", strength=6),
            unit("g2", strength=5),
            unit("g3", strength=12),
            unit("h"),
            unit("a", "allied", strength=10),
        ],
    )
    s = cpos({"g1": "0402", "g2": "0402", "g3": "0402", "h": "0202", "a": "0302"})
    done = fight(b, s, ["g1", "g2", "g3"], ["0302"], [1])
    assert (resolved(done).defence, resolved(done).result) == (5, "Ex")
    d = pending_decision(b, done.state)
    assert d is not None and d.kind == "losses" and d.need == 10
    assert set(d.choices) == {("g3",), ("g1", "g2")}
    assert refused(b, done.state, ChooseLosses(units=("g1",))) == "AO-10.1b"
    after = ok(b, done.state, ChooseLosses(units=("g1", "g2"))).state
    assert after.vp == VictoryPoints(german=1, allied=2)  # AO-16.A: one point per unit


@pytest.mark.audit
@pytest.mark.rule("AO-10.1b")
def test_exchange_counts_an_unsupplied_attackers_face_value() -> None:
    # unsupplied Allied u (12), v (1), w (1) in one hex: 14 halved as a stack, 7; the German
    # g (2) in 0302 ringed by that stack (0402) and x (0202): isolated, 2 -> 1. The Ex needs 2
    # printed points: {u} (printed 12, though it attacked at half) or {v, w}.
    m = make_map(RING3)
    b = board(
        m,
        [
            unit("u", "allied", strength=12),
            unit("v", "allied", strength=1),
            unit("w", "allied", strength=1),
            unit("x", "allied"),
            unit("g", strength=2),
        ],
    )
    s = cpos(
        {
            "u": UnitState(id="u", hex="0402", supply="unsupplied"),
            "v": UnitState(id="v", hex="0402", supply="unsupplied"),
            "w": UnitState(id="w", hex="0402", supply="unsupplied"),
            "x": "0202",
            "g": "0302",
        },
        side="allied",
    )
    done = fight(b, s, ["u", "v", "w"], ["0302"], [1])
    # 14 -> 7 against 1: 7-1, Standard die 1: Ex
    assert (resolved(done).attack, resolved(done).defence) == (7, 1)
    assert resolved(done).result == "Ex"
    d = pending_decision(b, done.state)
    assert d is not None and d.need == 2
    assert set(d.choices) == {("u",), ("v", "w")}


@pytest.mark.audit
@pytest.mark.rule("AO-10.1c")
@pytest.mark.rule("AO-11.f")
@pytest.mark.rule("AO-16.A")
def test_de_eliminates_defenders_in_a_town_immunity_or_not() -> None:
    m = make_map(". . . . .", towns={"T": "0301"})
    b = board(m, [unit("g", strength=24), unit("a", "allied", strength=4)])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), StandingOrders(side="allied")).state
    done = fight(b, s, ["g"], ["0301"], [1])  # 24-4 6-1, Initial die 1: De
    assert resolved(done).result == "De"
    assert done.state.unit("a").status == "eliminated"
    assert done.state.vp == VictoryPoints(german=1, allied=0)


@pytest.mark.audit
@pytest.mark.rule("AO-9.6N")
def test_only_a_mechanized_participant_advances_and_only_one() -> None:
    b = board(
        LINE8,
        [
            unit("m", mech=True, strength=8),
            unit("n", mech=True, strength=4),
            unit("a", "allied"),
        ],
    )
    # n is in the attacker's hex but did not take part
    s = cpos({"m": "0201", "n": "0201", "a": "0301"})
    done = fight(b, s, ["m"], ["0301"], [2])  # 2-1 die 2: Dr1
    d = done.state.combat.pending
    assert d is not None and (d.kind, d.choices) == ("advance", (("m",),))
    assert refused(b, done.state, Advance(hex="0301", unit="n")) == "AO-9.6N"
    after = ok(b, done.state, Advance(hex="0301", unit="m")).state
    assert after.unit("m").hex == "0301" and after.combat.pending is None


@pytest.mark.audit
@pytest.mark.rule("AO-9.6N")
@pytest.mark.rule("AO-9.2G")
@pytest.mark.rule("AO-10.1a")
def test_ar_leaves_non_attacking_stack_mates_so_the_hex_is_not_cleared() -> None:
    # g (2) attacks from 0401 with h (not attacking) beside it; 2-4 1-2, Initial die 4: Ar2.
    # g goes back to 0201; h stays, so the defender's mech unit may not advance.
    b = board(LINE8, [unit("g", strength=2), unit("h"), unit("a", "allied", mech=True)])
    done = fight(b, cpos({"g": "0401", "h": "0401", "a": "0501"}), ["g"], ["0501"], [4])
    assert resolved(done).result == "Ar2"
    assert done.state.unit("g").hex == "0201" and done.state.unit("h").hex == "0401"
    assert done.state.combat.pending is None and done.state.unit("a").hex == "0501"


@pytest.mark.audit
@pytest.mark.rule("AO-9.6N")
@pytest.mark.rule("AO-10.1b")
def test_after_an_exchange_a_surviving_mechanized_attacker_may_advance() -> None:
    # m (mech 4) + i (12) against a (4, open hex: 0401 free): 16-4 4-1, Initial die 1: Ex.
    # The loss must reach 4 printed points: {m} or {i}; losing i leaves m to advance.
    b = board(
        LINE8, [unit("m", mech=True, strength=4), unit("i", strength=12), unit("a", "allied")]
    )
    done = fight(b, cpos({"m": "0201", "i": "0201", "a": "0301"}), ["m", "i"], ["0301"], [1])
    assert resolved(done).result == "Ex"
    d = pending_decision(b, done.state)
    assert d is not None and set(d.choices) == {("m",), ("i",)}
    after = ok(b, done.state, ChooseLosses(units=("i",))).state
    d2 = after.combat.pending
    assert d2 is not None and (d2.kind, d2.hex, d2.choices) == ("advance", "0301", (("m",),))
    assert ok(b, after, Advance(hex="0301", unit="m")).state.unit("m").hex == "0301"
