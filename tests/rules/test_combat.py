"""Combat through the engine (AO-9, AO-10, AO-11 combat half, AO-4.2d/e/h*, AO-6.6K/6.7L*,
AO-16.A), on small synthetic maps, dice scripted, outcomes worked out by hand from the CRTs.

German Initial CRT rows used here (die: 1-2 1-1 2-1 3-1 4-1 ...): die 1 ``Ar1 Dr1 Dr2 Dr3 Ex Ex
De``; die 4 ``Ar2 Ar1 Dr1 Dr1 Dr2``. Standard CRT: die 1 ``Ar1 Dr1 Dr1 Dr2 Dr3 Ex Ex Ex De``;
die 3 ``Ar2 Ar1 Dr1``. On these maps there are no supply sources, so defenders are unsupplied
at the moment of combat (defence normal) unless ringed in on all six sides by enemy units and
their zones of control (isolated, defence halved, AO-12.3H: never on a one-row map); attackers
keep the markers of the position (``supplied`` unless given).

Geometry (``tests/kit/engine.py``): a one-row map ``0101 0201 ...`` has only W/E neighbours;
odd rows: NE (C,R-1) E (C+1,R) SE (C,R+1) SW (C-1,R+1) W (C-1,R) NW (C-1,R-1); even rows:
NE (C+1,R-1) SE (C+1,R+1) SW (C,R+1) NW (C,R-1).
"""

from __future__ import annotations

import pytest

from rules.ao.combat import preview_attack
from rules.ao.commands import (
    Advance,
    ChooseRetreat,
    Command,
    DeclareAttack,
    EndPhase,
    Move,
    ResolveAttacks,
    StandingOrders,
    WaiveImmunity,
)
from rules.ao.engine import Applied, apply, replay, replay_hashes
from rules.ao.events import (
    CombatResolved,
    ResultIgnored,
    UnitEliminated,
    UnitRetreated,
)
from rules.ao.state import UnitState, VictoryPoints, state_hash
from rules.dice import ScriptedDice, SeededDice
from rules.rejection import Rejection
from tests.kit.engine import (
    LINE8,
    attack,
    board,
    cpos,
    declared,
    ended,
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

# -- helpers ------------------------------------------------------------------------------------


LINE = line_map(". . . . . . .")


# -- dice: one interface, replay ----------------------------------------------------------------


def test_the_engine_never_rolls_by_itself_and_records_each_draw() -> None:
    b = board(LINE, [unit("g", strength=8), unit("a", "allied")])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"])).state
    r = apply(b, s, ResolveAttacks())
    assert isinstance(r, Rejection) and r.case == "dice-needed"
    done = ok(b, s, ResolveAttacks(), [3])
    roll = done.events[0]
    assert (roll.index, roll.value, roll.purpose) == (0, 3, "combat:0301")  # type: ignore[union-attr]
    assert done.state.dice_drawn == 1


def test_a_log_replays_exactly_with_the_same_dice() -> None:
    b = board(LINE, [unit("g", strength=8), unit("h", strength=8), unit("a", "allied")])
    s0 = cpos({"g": "0201", "a": "0301", "h": "0501"})
    log: list[Command] = [attack(["g"], ["0301"]), ResolveAttacks(), EndPhase(), EndPhase()]
    dice = SeededDice(b"replay")
    live, hashes = s0, []
    for c in log:
        r = apply(b, live, c, dice)
        if isinstance(r, Rejection) and r.case == "decision-pending":
            raise AssertionError(r)
        assert isinstance(r, Applied), r
        live = r.state
        hashes.append(state_hash(live))
    assert replay_hashes(b, s0, log, SeededDice(b"replay")) == hashes
    assert state_hash(replay(b, s0, log, SeededDice(b"replay"))) == hashes[-1]


# -- AO-9.1 which units may attack ---------------------------------------------------------------


@pytest.mark.rule("AO-9.1A")
def test_only_adjacent_units_attack_and_only_the_phasing_side() -> None:
    b = board(LINE, [unit("g"), unit("a", "allied"), unit("a2", "allied")])
    s = cpos({"g": "0101", "a": "0301", "a2": "0201"})
    assert refused(b, s, attack(["g"], ["0301"])) == "AO-9.1A"  # not adjacent
    assert refused(b, s, attack(["a2"], ["0101"])) == "AO-9.1A"  # Allied unit, German turn
    assert refused(b, s, attack(["g"], ["0401"])) == "AO-9.1A"  # no enemy there
    assert isinstance(apply(b, s, attack(["g"], ["0201"])), Applied)


@pytest.mark.rule("AO-9.1B")
@pytest.mark.rule("AO-9.2F")
def test_attacking_is_voluntary_and_a_whole_stack_defends() -> None:
    b = board(
        LINE, [unit("g", strength=14), unit("a1", "allied", strength=3), unit("a2", "allied")]
    )
    s = cpos({"g": "0201", "a1": "0301", "a2": "0301"})
    assert ended(b, s).phase == "mechanized_movement"  # no attack at all: fine
    r = ok(b, s, attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).defence, declared(r).column) == (14, 7, "2-1")
    # German Initial CRT 2-1, die 1: Dr2 - both defenders retreat two hexes east
    done = ok(b, r.state, ResolveAttacks(), [1])
    assert resolved(done).defenders == ("a1", "a2") and resolved(done).result == "Dr2"
    assert done.state.unit("a1").hex == done.state.unit("a2").hex == "0501"


@pytest.mark.rule("AO-9.1C")
def test_each_unit_attacks_once_and_is_attacked_once() -> None:
    town = make_map(". . . . .", towns={"Town": "0301"})
    b = board(town, [unit("g"), unit("g2"), unit("a", "allied")])
    s = cpos({"g": "0201", "g2": "0401", "a": "0301"})
    s1 = ok(b, s, attack(["g"], ["0301"])).state
    assert refused(b, s1, attack(["g"], ["0301"])) == "AO-9.1C"  # g again
    assert refused(b, s1, attack(["g2"], ["0301"])) == "AO-9.1C"  # 0301 again, same batch
    assert refused(b, s, attack(["g", "g"], ["0301"])) == "AO-9.1C"
    # resolved: the town keeps a in place (Dr ignored, AO-11.f); it may not be attacked again
    s1 = ok(b, s1, StandingOrders(side="allied")).state  # keeps the town's immunity
    s2 = ok(b, s1, ResolveAttacks(), [1]).state  # 4-4 1-1, die 1: Dr1, ignored in the town
    assert s2.unit("a").hex == "0301" and s2.unit("a").was_attacked
    assert refused(b, s2, attack(["g2"], ["0301"])) == "AO-9.1C"
    assert refused(b, s2, attack(["g"], ["0301"])) == "AO-9.1C"


GRID = make_map(
    """
    . . . .
    . . . .
    . . . .
    """
)


@pytest.mark.rule("AO-9.2D")
def test_one_group_attacks_two_hexes_when_adjacent_to_both() -> None:
    # 0201's neighbours: E 0301, SE 0202; 0102 is adjacent to 0202 but not to 0301
    b = board(
        GRID,
        [
            unit("g", strength=16),
            unit("g2"),
            unit("a1", "allied"),
            unit("a2", "allied", strength=3),
        ],
    )
    s = cpos({"g": "0201", "g2": "0102", "a1": "0301", "a2": "0202"})
    r = ok(b, s, attack(["g"], ["0301", "0202"]))
    assert (declared(r).attack, declared(r).defence, declared(r).column) == (16, 7, "2-1")
    assert refused(b, s, attack(["g", "g2"], ["0301", "0202"])) == "AO-9.2D"


@pytest.mark.rule("AO-9.2E")
@pytest.mark.rule("AO-9.2G")
@pytest.mark.rule("AO-9.2H")
def test_many_hexes_attack_one_and_a_stack_splits_its_attacks() -> None:
    # 0202 (even row) neighbours: NE 0301, E 0302, SE 0303, SW 0203, W 0102, NW 0201
    b = board(
        GRID,
        [
            unit("g1"),
            unit("g2"),
            unit("g3"),
            unit("g4"),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = cpos({"g1": "0201", "g2": "0201", "g3": "0301", "g4": "0102", "a1": "0202", "a2": "0101"})
    r = ok(b, s, attack(["g1", "g3", "g4"], ["0202"]))  # three hexes on one (AO-9.2E)
    assert declared(r).attack == 12
    # g2 of the same stack attacks another hex (AO-9.2H), or nothing at all (AO-9.2G)
    r2 = ok(b, r.state, attack(["g2"], ["0101"]))
    assert declared(r2).attack == 4
    assert len(r2.state.combat.declared) == 2


@pytest.mark.rule("AO-9.2F*")
def test_a_unit_retreated_into_a_stack_adds_nothing_but_shares_its_fate() -> None:
    b = board(
        LINE,
        [
            unit("g1", strength=8),
            unit("g2", strength=32),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = cpos({"g1": "0101", "a1": "0201", "a2": "0301", "g2": "0401"})
    # g1 8-4, 2-1, die 2: Dr1; a1's only hex one away is 0301 (0101 is German)
    s = fight(b, s, ["g1"], ["0201"], [2]).state
    assert s.unit("a1").hex == "0301" and s.combat.retreated == ("a1",)
    # a1 was attacked but retreated into 0301: the stack may be attacked (AO-9.2F*)
    r = ok(b, s, attack(["g2"], ["0301"]))
    # a2 only (a1 would make it 8): 0301 has no supply path but, on a one-row map, is not
    # surrounded on six sides (AO-12.3H): unsupplied, defence normal
    assert declared(r).defence == 4
    # 32-4 8-1, die 1: De - both eliminated, 2 VP (AO-16.A)
    done = ok(b, r.state, ResolveAttacks(), [1])
    assert resolved(done).result == "De"
    assert {done.state.unit(u).status for u in ("a1", "a2")} == {"eliminated"}
    assert done.state.vp == VictoryPoints(german=2, allied=0)


# -- AO-9.3 / 9.5 / 6.6K strengths ---------------------------------------------------------------


@pytest.mark.rule("AO-9.3J")
@pytest.mark.rule("AO-9.5M")
@pytest.mark.rule("AO-6.6K")
@pytest.mark.rule("AO-12.6")
def test_attack_strength_supply_first_then_road_mode_stack_halved_as_a_total() -> None:
    m = line_map(". . . .", roads=["0101-0201-0301-0401"])
    b = board(
        m,
        [
            unit("r", strength=9),
            unit("u1", strength=3),
            unit("u2", strength=3),
            unit("a", "allied", strength=1),
        ],
    )
    s = cpos(
        {
            "r": UnitState(id="r", hex="0101", road_mode=True, supply="unsupplied"),
            "u1": UnitState(id="u1", hex="0301", supply="unsupplied"),
            "u2": UnitState(id="u2", hex="0301", supply="unsupplied"),
            "a": "0201",
        }
    )
    # r: 9 unsupplied -> 5, Road Mode -> 3 (AO-6.6K); u1+u2: 6 halved as a stack -> 3, not 2+2
    assert declared(ok(b, s, attack(["r"], ["0201"]))).attack == 3
    assert declared(ok(b, s, attack(["u1", "u2"], ["0201"]))).attack == 3
    iso = cpos({"r": UnitState(id="r", hex="0101", supply="isolated"), "a": "0201"})
    assert refused(b, iso, attack(["r"], ["0201"])) == "AO-12.6"  # zero: no attack possible


@pytest.mark.rule("AO-6.6K")
def test_a_defender_in_road_mode_is_halved() -> None:
    m = line_map(". . .", roads=["0101-0201-0301"])
    b = board(m, [unit("g", strength=10), unit("a", "allied", strength=9)])
    s = cpos({"g": "0101", "a": UnitState(id="a", hex="0201", road_mode=True)})
    r = ok(b, s, attack(["g"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (5, "2-1")


@pytest.mark.rule("AO-9.3K")
@pytest.mark.rule("AO-10.0a")
def test_odds_round_for_the_defender_and_the_table_is_read_there() -> None:
    b = board(LINE, [unit("g", strength=26), unit("a", "allied", strength=9)])
    s = cpos({"g": "0201", "a": "0301"})
    r = ok(b, s, attack(["g"], ["0301"]))
    assert declared(r).column == "2-1"
    done = ok(b, r.state, ResolveAttacks(), [1])  # Initial CRT 2-1 die 1: Dr2
    assert (resolved(done).table, resolved(done).result) == ("initial", "Dr2")
    # the same attack by the Allied player reads the Standard CRT: 2-1 die 1 is Dr1
    b2 = board(LINE, [unit("a", "allied", strength=26), unit("g", strength=9)])
    s2 = cpos({"a": "0201", "g": "0301"}, side="allied")
    done2 = fight(b2, s2, ["a"], ["0301"], [1])
    assert (resolved(done2).table, resolved(done2).result) == ("standard", "Dr1")
    assert done2.state.unit("g").hex == "0401"


@pytest.mark.rule("AO-9.4L")
def test_the_attacker_may_only_lower_the_odds() -> None:
    b = board(LINE, [unit("g", strength=17), unit("a", "allied")])
    s = cpos({"g": "0201", "a": "0301"})
    assert refused(b, s, attack(["g"], ["0301"], odds="5-1")) == "AO-9.4L"
    assert refused(b, s, attack(["g"], ["0301"], odds="7:1")) == "AO-9.4L"
    # 17-4 is 4-1; asked 2-1, resolved on 2-1: die 1 gives Dr2 (4-1 would be Ex)
    done = fight(b, s, ["g"], ["0301"], [1], odds="2-1")
    assert (resolved(done).column, resolved(done).result) == ("2-1", "Dr2")


@pytest.mark.rule("AO-9.4L*")
def test_the_german_never_lowers_below_two_to_one() -> None:
    b = board(LINE, [unit("g", strength=17), unit("a", "allied")])
    s = cpos({"g": "0201", "a": "0301"})
    assert refused(b, s, attack(["g"], ["0301"], odds="1-1")) == "AO-9.4L*"
    b2 = board(LINE, [unit("a", "allied", strength=17), unit("g")])
    s2 = cpos({"a": "0201", "g": "0301"}, side="allied")
    assert isinstance(apply(b2, s2, attack(["a"], ["0301"], odds="1-2")), Applied)


def test_preview_gives_the_odds_before_rolling() -> None:
    b = board(LINE, [unit("g", strength=13), unit("a", "allied")])
    s = cpos({"g": "0201", "a": "0301"})
    p = preview_attack(b, s, ["g"], ["0301"])
    assert not isinstance(p, Rejection)
    assert (p.attack, p.defence, p.column, p.table) == (13, 4, "3-1", "initial")


# -- AO-11 terrain immunity ----------------------------------------------------------------------

TOWN = make_map(". . . . . .", towns={"Town": "0301"})


@pytest.mark.rule("AO-11.f")
@pytest.mark.rule("AO-11.f*")
def test_town_immunity_is_asked_before_the_die() -> None:
    b = board(TOWN, [unit("g", strength=8), unit("a", "allied")])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"])).state
    r = ok(b, s, ResolveAttacks(), [1])
    d = r.state.combat.pending
    assert d is not None and (d.side, d.kind, d.choices) == (
        "allied",
        "waive_immunity",
        (("0301",),),
    )
    assert r.state.dice_drawn == 0  # not rolled yet
    assert refused(b, r.state, WaiveImmunity(hexes=("0201",))) == "AO-11.f*"
    kept = ok(b, r.state, WaiveImmunity(), [1])  # 2-1 die 1: Dr2, no effect in the town
    assert resolved(kept).result == "Dr2"
    assert ResultIgnored(unit="a", hex="0301", case="AO-11.f") in kept.events
    assert kept.state.unit("a").hex == "0301"
    waived = ok(b, r.state, WaiveImmunity(hexes=("0301",)), [1])
    assert waived.state.unit("a").hex == "0501"


@pytest.mark.rule("AO-11.f")
def test_town_immunity_protects_attackers_from_ar_but_not_from_ex() -> None:
    b = board(TOWN, [unit("g", strength=2), unit("a", "allied")])
    s = cpos({"g": "0301", "a": "0401"})
    done = fight(b, s, ["g"], ["0401"], [4])  # 1-2 die 4: Ar2, g in the town stays
    assert resolved(done).result == "Ar2" and done.state.unit("g").hex == "0301"
    # the attacker may waive its own immunity in the declaration
    s2 = ok(b, s, DeclareAttack(attackers=("g",), defenders=("0401",), waive=("0301",))).state
    assert ok(b, s2, ResolveAttacks(), [4]).state.unit("g").hex == "0101"
    assert (
        refused(b, s, DeclareAttack(attackers=("g",), defenders=("0401",), waive=("0201",)))
        == "AO-11.f*"
    )


@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-11.i")
@pytest.mark.rule("AO-10.2b")
def test_west_wall_and_fortified_germans_ignore_dr_allied_units_do_not() -> None:
    m = make_map(". W . F . W .")
    b = board(
        m,
        [unit("a", "allied", strength=8), unit("a2", "allied", strength=8), unit("g"), unit("g2")],
    )
    s = cpos({"a": "0101", "g": "0201", "a2": "0501", "g2": "0401"}, side="allied")
    r = ok(b, s, attack(["a"], ["0201"]))
    assert declared(r).defence == 12  # West Wall x3
    r2 = ok(b, r.state, attack(["a2"], ["0401"]))
    assert declared(r2).defence == 8  # fortified x2
    s3 = ok(b, r2.state, StandingOrders(side="german")).state  # he keeps his immunities
    done = ok(b, s3, ResolveAttacks(), [4, 1])
    # 8-12 1-2, Standard die 4: Ar3 - a at the map's end has nowhere to go: eliminated
    # 8-8 1-1, die 1: Dr1 - no effect on g2 in the fortified hex
    assert [
        resolved_all.result
        for resolved_all in done.events
        if isinstance(resolved_all, CombatResolved)
    ] == ["Ar3", "Dr1"]
    assert UnitEliminated(unit="a", hex="0101", case="AO-10.2b") in done.events
    assert ResultIgnored(unit="g2", hex="0401", case="AO-11.i") in done.events
    assert done.state.unit("g2").hex == "0401" and done.state.vp.german == 1
    # an Allied unit in a West Wall hex has no immunity and no factor (AO-11.h)
    b2 = board(m, [unit("g", strength=8), unit("a", "allied")])
    s2 = cpos({"g": "0501", "a": "0601"})
    r3 = ok(b2, s2, attack(["g"], ["0601"]))
    assert declared(r3).defence == 4
    done2 = ok(b2, r3.state, ResolveAttacks(), [2])  # 2-1 die 2: Dr1, no waiver asked
    assert done2.state.unit("a").hex == "0701"


@pytest.mark.rule("AO-11.h")
def test_west_wall_german_attacker_ignores_ar() -> None:
    m = make_map(". W . .")
    b = board(m, [unit("g", strength=1), unit("a", "allied", strength=8)])
    s = cpos({"g": "0201", "a": "0301"})
    r = ok(b, s, attack(["g"], ["0301"]))
    assert declared(r).attack == 2  # doubled attacking out of the West Wall
    done = ok(b, r.state, ResolveAttacks(), [4])  # 2-8 1-2 die 4: Ar2, ignored
    assert ResultIgnored(unit="g", hex="0201", case="AO-11.h") in done.events


@pytest.mark.rule("AO-11.k")
@pytest.mark.rule("AO-5.3M")
def test_no_combat_on_allied_map_edge_hexes() -> None:
    m = make_map("e . . .")
    b = board(m, [unit("g"), unit("a", "allied")])
    s = cpos({"g": "0201", "a": UnitState(id="a", hex="0101", status="dormant")})
    assert refused(b, s, attack(["g"], ["0101"])) == "AO-11.k"
    s2 = cpos({"g": "0201", "a": UnitState(id="a", hex="0101", status="dormant")}, side="allied")
    assert refused(b, s2, attack(["a"], ["0201"])) == "AO-5.3M"


# -- Game-Turn 1 -----------------------------------------------------------------------------------


@pytest.mark.rule("AO-4.2d")
def test_gt1_german_attack_tripled_in_the_engine() -> None:
    b = board(LINE, [unit("g", strength=4), unit("a", "allied", strength=6)])
    s = cpos({"g": "0201", "a": "0301"}, turn=1)
    r = ok(b, s, attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (12, "2-1")


@pytest.mark.rule("AO-4.2e")
def test_gt1_german_defence_tripled_in_the_allied_combat() -> None:
    b = board(LINE, [unit("g", strength=4), unit("a", "allied", strength=13)])
    s = cpos({"a": "0201", "g": "0301"}, turn=1, side="allied")
    r = ok(b, s, attack(["a"], ["0301"]))
    assert (declared(r).defence, declared(r).column) == (12, "1-1")


@pytest.mark.rule("AO-4.2h*")
def test_gt1_german_must_attack_every_adjacent_american_with_every_adjacent_unit() -> None:
    b = board(
        line_map(". . . . . . ."),
        [
            unit("g1", strength=8),
            unit("g2", strength=8),
            unit("g3"),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = position(
        {"g1": "0201", "a1": "0301", "g2": "0401", "a2": "0601", "g3": "0701"},
        turn=1,
        phase="supply_judgment",
    )
    s = ended(b, s)  # Initial Movement lost: Combat
    assert s.phase == "combat" and s.combat.obliged == ("a1", "a2", "g1", "g2", "g3")
    r = apply(b, s, EndPhase())
    assert isinstance(r, Rejection) and r.case == "AO-4.2h*"
    assert "a1, a2" in r.detail and "g1, g2, g3" in r.detail
    # g1 alone on a1 would leave g2 (whose only American neighbour is a1) out: refused
    assert refused(b, s, attack(["g1"], ["0301"])) == "AO-4.2h*"
    # both: 48 (tripled) against a1 (4; unsupplied, not surrounded on a one-row map): 9-1, De
    s1 = fight(b, s, ["g1", "g2"], ["0301"], [6]).state
    r1 = apply(b, s1, EndPhase())
    assert isinstance(r1, Rejection) and "a2" in r1.detail and "g2" not in r1.detail
    s2 = fight(b, s1, ["g3"], ["0601"], [6]).state
    assert ended(b, s2).phase == "mechanized_movement"


@pytest.mark.rule("AO-4.2h*")
def test_gt1_an_attack_may_not_leave_an_american_unit_unattackable() -> None:
    # a1 (0101) has one German neighbour, g (0201); a2 (0301) has g and g2 (0401)
    b = board(
        line_map(". . . . ."),
        [unit("g"), unit("g2"), unit("a1", "allied"), unit("a2", "allied")],
    )
    s = ended(
        b,
        position(
            {"a1": "0101", "g": "0201", "a2": "0301", "g2": "0401"},
            turn=1,
            phase="supply_judgment",
        ),
    )
    assert refused(b, s, attack(["g"], ["0301"])) == "AO-4.2h*"  # a1 would be left
    s1 = ok(b, s, attack(["g"], ["0101"])).state
    s2 = ok(b, s1, attack(["g2"], ["0301"])).state
    assert len(s2.combat.declared) == 2


# -- AO-6.7L* Road Mode units in combat -------------------------------------------------------


@pytest.mark.rule("AO-6.7L*")
def test_road_mode_units_in_combat_must_leave_road_mode_next_initial_movement() -> None:
    m = line_map(". . . . .", roads=["0101-0201-0301-0401-0501"])
    b = board(m, [unit("g", strength=8, ma=8), unit("a", "allied", ma=4)])
    s = cpos(
        {
            "g": UnitState(id="g", hex="0201", road_mode=True),
            "a": UnitState(id="a", hex="0301", road_mode=True),
        }
    )
    done = fight(b, s, ["g"], ["0301"], [6])  # 4 vs 2: 2-1 die 6 Dr1
    st = done.state
    assert st.unit("g").must_leave_road_mode and st.unit("a").must_leave_road_mode
    # next Allied Initial Movement: a (MA 4, unsupplied on this sourceless map: 2) cannot pay 3
    s2 = ended(b, st, 4)
    assert (s2.side, s2.phase) == ("allied", "initial_movement")
    assert s2.unit("a").status == "eliminated" and s2.vp.german == 1


def test_only_the_pending_decisions_command_is_accepted() -> None:
    b = board(TOWN, [unit("g", strength=8), unit("a", "allied"), unit("h")])
    s = ok(b, cpos({"g": "0201", "a": "0301", "h": "0101"}), attack(["g"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [1]).state
    assert refused(b, p, Move(unit="h", path=("0201",))) == "decision-pending"
    assert refused(b, p, ChooseRetreat(unit="a", path=("0401",))) == "decision-pending"
    assert refused(b, p, attack(["h"], ["0301"])) == "decision-pending"
    # standing orders answer it and the resolution goes on
    r = ok(b, p, StandingOrders(side="allied", waive=("0301",)), [1])
    assert r.state.unit("a").hex == "0501" and r.state.combat.pending is None


@pytest.mark.rule("AO-5.2K")
def test_mechanized_units_that_attacked_do_not_move_in_the_mechanized_phase() -> None:
    b = board(LINE, [unit("m", mech=True, strength=8), unit("n", mech=True), unit("a", "allied")])
    s = cpos({"m": "0201", "n": "0101", "a": "0301"})
    done = fight(b, s, ["m"], ["0301"], [2])  # 8-4 2-1 die 2: Dr1, a to 0401
    s2 = ok(b, done.state, Advance(hex="0301")).state
    mech = ended(b, s2)
    assert refused(b, mech, Move(unit="m", path=("0301",))) == "AO-5.2K"
    assert isinstance(apply(b, mech, Move(unit="n", path=("0201",))), Applied)  # not in combat


@pytest.mark.rule("AO-9.2D")
@pytest.mark.rule("AO-10.1a")
def test_a_multi_hex_dr_retreats_every_defending_hex() -> None:
    b = board(GRID, [unit("g", strength=24), unit("a1", "allied"), unit("a2", "allied")])
    s = cpos({"g": "0201", "a1": "0301", "a2": "0202"})
    s = ok(b, s, StandingOrders(side="german")).state  # the engine picks the best paths
    done = fight(b, s, ["g"], ["0301", "0202"], [3])  # 24-8 3-1, die 3: Dr2
    assert resolved(done).result == "Dr2"
    moved = [e.unit for e in done.events if isinstance(e, UnitRetreated)]
    assert moved == ["a1", "a2"]
    for u in ("a1", "a2"):
        assert done.state.unit(u).hex not in ("0301", "0202")


def test_an_email_batch_resolves_in_one_command_with_both_sides_orders() -> None:
    b = board(
        make_map(". . . . . . . .", towns={"T": "0701"}),
        [
            unit("g1", mech=True, strength=8),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = cpos({"g1": "0201", "a1": "0301", "g2": "0601", "a2": "0701"})
    s = ok(b, s, attack(["g1"], ["0301"])).state
    s = ok(b, s, attack(["g2"], ["0701"])).state
    s = ok(b, s, StandingOrders(side="german", advance="strongest")).state
    s = ok(b, s, StandingOrders(side="allied", waive=("0701",))).state
    done = ok(b, s, ResolveAttacks(), [2, 2])  # 2-1 die 2: Dr1 twice
    assert done.state.combat.pending is None and done.state.combat.current is None
    assert done.state.combat.declared == ()
    # g1 advances into 0301 by standing order; a2's town immunity waived by standing order
    assert done.state.unit("a1").hex == "0401" and done.state.unit("g1").hex == "0301"
    assert done.state.unit("a2").hex == "0801"
    assert done.state.dice_drawn == 2


def test_positions_round_trip_in_the_middle_of_a_combat() -> None:
    from rules.ao import position as pos

    b = board(TOWN, [unit("g", strength=8), unit("a", "allied")])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [1]).state
    assert p.combat.pending is not None
    assert pos.loads(pos.dumps(p)) == p
    assert pos.dumps(pos.loads(pos.dumps(p))) == pos.dumps(p)
    # and play goes on from the loaded position
    r = ok(b, pos.loads(pos.dumps(p)), WaiveImmunity(hexes=("0301",)), [1])
    assert r.state.unit("a").hex == "0501"


@pytest.mark.rule("AO-10.1b")
def test_ex_when_the_attackers_fall_short_all_of_them_go() -> None:
    # GT1: g 7 x3 = 21; a in 0302 is ringed by g (0202) and h (0402), which hold two of its
    # neighbours and control the other four: isolated, 10 -> 5; 21-5 is 4-1
    m = make_map(". . . . .\n. . . . .\n. . . . .")
    b = board(m, [unit("g", strength=7), unit("h"), unit("a", "allied", strength=10)])
    s = cpos({"g": "0202", "h": "0402", "a": "0302"}, turn=1)
    done = fight(b, s, ["g"], ["0302"], [1])  # Initial 4-1 die 1: Ex; 7 < 10: g is lost too
    assert resolved(done).result == "Ex" and done.state.combat.pending is None
    assert {done.state.unit(u).status for u in ("g", "a")} == {"eliminated"}
    assert done.state.unit("h").status == "on_map"  # h did not attack
    assert done.state.vp == VictoryPoints(german=1, allied=1)


@pytest.mark.rule("AO-9.1A")
@pytest.mark.rule("AO-9.1C")
def test_attackable_hexes_for_the_ui() -> None:
    from rules.ao.combat import attackable_hexes

    b = board(GRID, [unit("g"), unit("g2"), unit("a1", "allied"), unit("a2", "allied")])
    s = cpos({"g": "0201", "g2": "0102", "a1": "0301", "a2": "0202"})
    assert attackable_hexes(b, s, ["g"]) == ("0202", "0301")
    assert attackable_hexes(b, s, ["g", "g2"]) == ("0202",)  # 0301 is not next to g2
    s1 = ok(b, s, attack(["g2"], ["0202"])).state
    assert attackable_hexes(b, s1, ["g"]) == ("0301",)  # 0202 is taken in this batch


# == found by the rule audit: who attacks whom, replay (AO-9.1, AO-9.2, AO-12.6, AO-4.2h*) ========
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
# Found by these tests, since fixed: an isolated unit joining an attack (AO-12.6) and a unit
# retreated alone attacked twice (AO-9.1C).


@pytest.mark.audit
@pytest.mark.rule("AO-12.6")
def test_an_isolated_unit_may_not_join_an_attack() -> None:
    b = board(
        LINE8,
        [unit("g", strength=8), unit("h", mech=True, strength=8), unit("a", "allied", strength=4)],
    )
    s = cpos({"g": "0201", "h": UnitState(id="h", hex="0201", supply="isolated"), "a": "0301"})
    assert refused(b, s, attack(["g", "h"], ["0301"])) == "AO-12.6"


@pytest.mark.audit
@pytest.mark.rule("AO-9.1C")
def test_a_unit_retreated_alone_may_not_be_attacked_again() -> None:
    # g2 in Road Mode controls only its own hex (AO-6.6J), so a may retreat next to it
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g1", strength=8), unit("g2", strength=4), unit("a", "allied")])
    s = cpos({"g1": "0101", "a": "0201", "g2": UnitState(id="g2", hex="0401", road_mode=True)})
    done = fight(b, s, ["g1"], ["0201"], [2])  # 8-4 2-1, Initial die 2: Dr1 -> 0301
    assert retreats(done) == [("a", ("0301",))]
    # a was attacked once already and is in no stack: a second attack breaks AO-9.1C
    assert refused(b, done.state, attack(["g2"], ["0301"])) == "AO-9.1C"


@pytest.mark.audit
@pytest.mark.rule("AO-9.1C")
@pytest.mark.rule("AO-9.2D")
def test_a_multi_hex_attack_may_not_include_a_hex_already_attacked() -> None:
    grid = make_map(
        """
        . . . .
        . . . .
        """
    )
    # 0201 (odd row) is adjacent to 0301 (E) and 0202 (SE)
    b = board(
        grid,
        [
            unit("g", strength=16),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = cpos({"g": "0201", "g2": "0302", "a1": "0301", "a2": "0202"})
    s1 = ok(b, s, attack(["g2"], ["0202"])).state
    assert refused(b, s1, attack(["g"], ["0301", "0202"])) == "AO-9.1C"
    # both defending hexes count together: 16 against 4 + 4 is 2-1
    r = ok(b, s, attack(["g"], ["0301", "0202"]))
    assert (declared(r).defence, declared(r).column) == (8, "2-1")


@pytest.mark.audit
@pytest.mark.rule("AO-4.2h*")
@pytest.mark.rule("AO-4.2d")
def test_gt1_a_german_next_to_two_americans_may_attack_either() -> None:
    # g1 0101 | a1 0201 | g2 0301 | a2 0401 | g3 0501: g2 joins the attack on a2
    b = board(
        line_map(". . . . . . ."),
        [unit("g1"), unit("g2"), unit("g3"), unit("a1", "allied"), unit("a2", "allied")],
    )
    s = position(
        {"g1": "0101", "a1": "0201", "g2": "0301", "a2": "0401", "g3": "0501"},
        turn=1,
        phase="supply_judgment",
    )
    s = ended(b, s)
    assert s.phase == "combat"
    # g1 alone on a1 (12 against 4, unsupplied: 3-1; die 4: Dr1, no way out: 0101 and 0301
    # are German)
    s1 = fight(b, s, ["g1"], ["0201"], [4]).state
    assert s1.unit("a1").status == "eliminated"
    # g2 + g3 on a2 (24 against 4: 6-1; die 4: Dr3, no way out)
    s2 = fight(b, s1, ["g2", "g3"], ["0401"], [4]).state
    assert s2.unit("a2").status == "eliminated"
    assert ended(b, s2).phase == "mechanized_movement"


@pytest.mark.audit
def test_same_log_and_dice_give_the_same_hashes() -> None:
    b = board(
        LINE8,
        [unit("g", mech=True, strength=8), unit("h", strength=8), unit("a", "allied")],
    )
    s0 = cpos({"g": "0201", "a": "0301", "h": "0601"})
    log: list[Command] = [
        StandingOrders(side="german", advance="strongest"),
        attack(["g"], ["0301"]),
        ResolveAttacks(),
        EndPhase(),
    ]
    h1 = replay_hashes(b, s0, log, ScriptedDice([2, 5, 3]))
    h2 = replay_hashes(b, s0, log, ScriptedDice([2, 5, 3]))
    assert h1 == h2
    assert h1[-1] != state_hash(s0)
    h3 = replay_hashes(b, s0, log, ScriptedDice([1, 5, 3]))  # Dr2, not Dr1
    assert h3[2] != h1[2]


# == found by the rule audit: terrain immunity and its waiver (AO-11.f, AO-11.f*) =================


@pytest.mark.audit
@pytest.mark.rule("AO-11.f*")
@pytest.mark.rule("AO-11.f")
def test_immunity_can_no_longer_be_waived_once_the_die_is_rolled() -> None:
    m = make_map(". . . . . .", towns={"T": "0301"})
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [2]).state
    kept = ok(b, p, WaiveImmunity(), [2])  # 2-1 die 2: Dr1, ignored in the town
    assert ResultIgnored(unit="a", hex="0301", case="AO-11.f") in kept.events
    # the result is known: too late to waive (and nothing is pending)
    late = apply(b, kept.state, WaiveImmunity(hexes=("0301",)), ScriptedDice([1]))
    assert isinstance(late, Rejection)
    assert kept.state.unit("a").hex == "0301"


@pytest.mark.audit
@pytest.mark.rule("AO-11.f*")
@pytest.mark.rule("AO-11.h")
def test_the_german_is_asked_to_waive_west_wall_immunity_before_the_die() -> None:
    b = board(make_map(". . W . . ."), [unit("a", "allied", strength=24), unit("g", strength=2)])
    s = ok(b, cpos({"a": "0201", "g": "0301"}, side="allied"), attack(["a"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [1])
    d = p.state.combat.pending
    assert d is not None and (d.side, d.kind) == ("german", "waive_immunity")
    assert p.state.dice_drawn == 0
    # waived: 24-6 4-1, Standard die 1: Dr3 - g goes three hexes east
    done = ok(b, p.state, WaiveImmunity(hexes=("0301",)), [1])
    assert resolved(done).result == "Dr3" and done.state.unit("g").hex == "0601"


@pytest.mark.audit
@pytest.mark.rule("AO-11.f")
def test_an_allied_attacker_in_a_town_ignores_ar() -> None:
    m = make_map(". . . . .", towns={"T": "0301"})
    b = board(m, [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0301", "g": "0401"}, side="allied"), ["a"], ["0401"], [4])
    assert resolved(done).result == "Ar3"  # Standard 1-2 die 4
    assert ResultIgnored(unit="a", hex="0301", case="AO-11.f") in done.events
    assert done.state.unit("a").hex == "0301"
