"""Reinforcements (AO-14), the paradrop (AO-15) and victory (AO-16) through the engine: the
real scenario 1 schedule, the ring map of ``tests/rules/test_reinforcements.py`` for blocked
sections and the Meuse, scripted dice."""

from __future__ import annotations

import itertools

import msgspec
import pytest

from rules.ao import position
from rules.ao import reinforcements as rf
from rules.ao.column import crowd_fixes, crowds, owed_moves
from rules.ao.commands import Drop, EndPhase, Move, Place, Roll
from rules.ao.engine import (
    Applied,
    apply,
    drop_hexes,
    drop_required,
    pending_reinforcements,
    replay_hashes,
)
from rules.ao.events import (
    GameEnded,
    ReinforcementDelayed,
    ReinforcementWithdrawn,
    UnitEliminated,
    UnitPlaced,
    VictoryPointsTabulated,
)
from rules.ao.gamemap import ALLIED_SECTIONS
from rules.ao.movement import legal_moves
from rules.ao.state import Board, GameState, RollDue, UnitState, VictoryPoints, state_hash
from rules.ao.victory import game_result
from rules.dice import ScriptedDice, SeededDice
from rules.rejection import Rejection
from tests.kit.engine import (
    ended,
    scenario_gt1_german_combat,
    scenario_start,
    without_gt1_obligations,
)
from tests.kit.engine import (
    position as position_of,
)
from tests.kit.ring import B as RING
from tests.kit.ring import state as ring_state


def ok(r: Applied | Rejection) -> Applied:
    assert isinstance(r, Applied), r
    return r


def refused(r: Applied | Rejection, case: str) -> Rejection:
    assert isinstance(r, Rejection), r
    assert r.case == case, r
    return r


def _entry_clearing(b: Board, s: GameState) -> Move | None:
    """In an Allied Initial Movement Phase, a move of an Allied unit off a road entry hex of
    an Allied section to a hex that is none (the first unit by id, the first such hex)."""
    if s.side != "allied" or s.phase != "initial_movement":
        return None
    entries = {h for sec in ALLIED_SECTIONS for h in rf.road_entry_hexes(b, sec)}
    for u in sorted(s.units, key=lambda u: u.id):
        if u.hex in entries and u.status == "on_map" and not u.moved:
            for h, reach in legal_moves(b, s, u.id, u.road_mode).items():
                if h not in entries:
                    return Move(u.id, reach.path)
    return None


def drive(
    b: Board,
    s: GameState,
    until: tuple[int, str, str],
    dice: object,
    log: list[object] | None = None,
) -> GameState:
    """End phases until (turn, side, phase), doing only what the rules oblige: place the due
    reinforcements, each on the first of its open entry hexes not yet used in the phase (and
    move the Allied ones off their entry hex at the next Initial Movement Phase,
    :func:`_entry_clearing`, so that the road exits stay open to those that follow), drop
    von der Heydte on the first drop hex,
    make the moves owed before a movement phase ends (the first of
    :func:`rules.ao.column.owed_moves`) and lift the GT1 attack obligations (AO-4.2h*)."""
    while (s.turn, s.side, s.phase) != until and s.phase != "game_over":
        cmds: list[object] = []
        if s.phase == "reinforcement":
            used: set[str] = set()
            for uid, hexes in pending_reinforcements(b, s):
                h = next((h for h in hexes if h not in used), hexes[0])
                used.add(h)
                cmds.append(Place(unit=uid, hex=h))
        elif drop_required(b, s):
            cmds += [Drop(hex=drop_hexes(b, s)[0]), Roll()]
        elif s.roll is None and (
            move := _entry_clearing(b, s) or next((f.command for f in owed_moves(b, s)), None)
        ):
            # the Allied entry hexes (road exits, live hexes since AO-16.H) cleared, so that
            # later reinforcements find them open (one unit a hex inland); else a move owed
            # before the phase ends (rules.ao.column). One at a time: each changes what follows
            r0 = apply(b, s, move, dice)  # type: ignore[arg-type]
            assert isinstance(r0, Applied), r0
            s = r0.state
            if log is not None:
                log.append(move)
            continue
        if s.roll is not None:
            cmds.insert(0, Roll())
        cmds.append(EndPhase())
        for c in cmds:
            if s.phase == "combat" and s.turn == 1 and s.side == "german":
                s = without_gt1_obligations(s)
            r = apply(b, s, c, dice)  # type: ignore[arg-type]
            assert isinstance(r, Applied), (s.turn, s.side, s.phase, c, r)
            s = r.state
            if log is not None:
                log.append(c)
    return s


def gt1_german_combat() -> tuple[Board, GameState]:
    return scenario_gt1_german_combat(1)


# -- the real scenario 1: GT2 arrivals ---------------------------------------------------------


@pytest.mark.rule("AO-14.1A")
@pytest.mark.rule("AO-4.2g")
def test_scenario_1_gt2_allied_ne_and_se_groups_enter_in_road_mode() -> None:
    b, s = gt1_german_combat()
    dice = SeededDice(b"gt2")
    # GT1 Allied Reinforcement Phase: nothing is due (AO-4.2g)
    s = drive(b, s, (1, "allied", "reinforcement"), dice)
    assert pending_reinforcements(b, s) == []
    s = drive(b, s, (2, "allied", "reinforcement"), dice)
    pend = dict(pending_reinforcements(b, s))
    ne = {"us-26-i", "us-39-i", "us-47-i", "us-517-pi", "us-cca7", "us-ccb7", "us-ccr7"}
    se = {"us-cca10", "us-ccb10", "us-ccr10"}
    assert set(pend) == ne | se
    for u in ne:
        assert pend[u] == ("2501", "3001", "3401")
    for u in se:
        assert pend[u] == ("1945", "2545", "3045", "3245")
    # the Allied player may not end the phase with units due (AO-14.1A)
    r = refused(apply(b, s, EndPhase(), dice), "AO-14.1A")
    assert "us-cca7" in r.detail
    # not on another section's hex, not a unit due later
    refused(apply(b, s, Place(unit="us-cca7", hex="2545")), "AO-14.1A")
    refused(apply(b, s, Place(unit="us-cca7", hex="0110")), "AO-14.1A")
    later = next(u for u, (t, _sec) in rf.schedule(b).items() if t == 3 and u.startswith("us"))
    refused(apply(b, s, Place(unit=later, hex="0110")), "AO-17.d")
    for uid in sorted(pend):
        a = ok(apply(b, s, Place(unit=uid, hex=pend[uid][-1])))
        ev = a.events[0]
        assert isinstance(ev, UnitPlaced) and ev.case == "AO-14.1A"
        s = a.state
        row = s.unit(uid)
        assert (row.hex, row.status, row.road_mode) == (pend[uid][-1], "on_map", True)
    assert pending_reinforcements(b, s) == []
    s = ok(apply(b, s, EndPhase(), dice)).state
    assert s.phase == "supply_judgment"


@pytest.mark.rule("AO-14.2B")
def test_staging_charges_two_road_hexes_per_earlier_unit() -> None:
    b, s = gt1_german_combat()
    dice = SeededDice(b"staging")
    s = drive(b, s, (2, "allied", "reinforcement"), dice)
    stagings = []
    for uid in ("us-cca7", "us-ccb7", "us-ccr7"):
        a = ok(apply(b, s, Place(unit=uid, hex="3001")))
        s = a.state
        stagings.append(s.unit(uid).staging)
    assert stagings == [0, 2, 4]
    for uid, hexes in pending_reinforcements(b, s):
        s = ok(apply(b, s, Place(unit=uid, hex=hexes[0]))).state
    s = drive(b, s, (2, "allied", "initial_movement"), dice)
    second = "us-ccb7"
    assert s.unit(second).staging == 2
    # the same unit without the penalty (staging 0: still waiting on the live exit hex 3001,
    # so still free of its mates there, AO-14.2B)
    free = msgspec.structs.replace(
        s,
        units=tuple(
            msgspec.structs.replace(u, staging=0) if u.id == second else u for u in s.units
        ),
    )
    staged_moves = legal_moves(b, s, second, road_mode=True)
    free_moves = legal_moves(b, free, second, road_mode=True)
    assert staged_moves and set(staged_moves) < set(free_moves)
    for h, reach in staged_moves.items():
        # a mechanized unit runs 2 road hexes per MP: 2 hexes lost = 1 MP (AO-6.5H)
        assert reach.cost == free_moves[h].cost + 1, h
    h, reach = max(staged_moves.items(), key=lambda kv: (kv[1].cost, kv[0]))
    a = ok(apply(b, s, Move(unit=second, path=reach.path)))
    assert a.state.unit(second).mp_spent == reach.cost
    assert a.state.unit(second).staging is None
    # the exit hex 3001 is a live hex: the phase may not end while two of them crowd it and
    # one can move off (AO-14.2B); once each crowd is down to one unit, the penalty of a unit
    # that did not move is gone after the Initial Movement Phase
    s = a.state
    assert refused(apply(b, s, EndPhase(), dice), "AO-14.2B")
    while owed := owed_moves(b, s):
        s = ok(apply(b, s, owed[0].command, dice)).state
    assert crowds(b, s) == {}
    r = ok(apply(b, s, EndPhase(), dice))
    assert not [e for e in r.events if isinstance(e, ReinforcementWithdrawn)]
    s = r.state
    assert all(not u.staging for u in s.units)
    left = [u for u in s.units if u.hex == "3001"]
    assert len(left) == 1 and left[0].staging == 0  # still waiting on its entry hex


# -- blocked sections (ring map) ----------------------------------------------------------------


@pytest.mark.rule("AO-14.1b")
def test_a_blocked_section_delays_then_falls_back_through_the_engine() -> None:
    s = ring_state({"ga": "0502", "gb": "0702"}, turn=2, side="german")
    s = msgspec.structs.replace(s, phase="mechanized_movement")
    a = ok(apply(RING, s, EndPhase()))
    s = a.state
    assert (s.turn, s.side, s.phase) == (2, "allied", "reinforcement")
    delayed = [e for e in a.events if isinstance(e, ReinforcementDelayed)]
    assert [(e.unit, e.turn, e.section, e.delays) for e in delayed] == [
        ("a0", 3, "NE", 1),
        ("a1", 3, "NE", 1),
        ("a2", 3, "NE", 1),
    ]
    assert [d.unit for d in s.delayed] == ["a0", "a1", "a2"]
    assert position.loads(position.dumps(s)) == s
    refused(apply(RING, s, Place(unit="a1", hex="0601")), "AO-14.1b")
    s = ok(apply(RING, s, EndPhase())).state  # nothing due: the phase may end
    # the German leaves: on GT3 they enter on the adjacent section NW (AO-14.1b)
    s = s.replace_units(
        [UnitState(id="ga", status="eliminated"), UnitState(id="gb", status="eliminated")]
    )
    s = ended(RING, s, 4)  # to the end of GT2 (tabulation): GT3 German Reinforcement Phase
    s = ok(apply(RING, s, Place(unit="g1", hex="0803"))).state  # g1 (GT1) must enter
    while not (s.side == "allied" and s.phase == "reinforcement"):
        s = ended(RING, s)
    assert s.turn == 3
    assert dict(pending_reinforcements(RING, s)) == {
        "a0": ("0301",),
        "a1": ("0301",),
        "a2": ("0301",),
        "s1": ("0606",),
    }
    refused(apply(RING, s, Place(unit="a1", hex="0601")), "AO-14.1A")
    a = ok(apply(RING, s, Place(unit="a1", hex="0301")))
    assert [d.unit for d in a.state.delayed] == ["a0", "a2"]
    refused(apply(RING, a.state, EndPhase()), "AO-14.1A")


@pytest.mark.rule("AO-4.1b")
@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-14.1b")
def test_the_german_places_all_his_reinforcements() -> None:
    """AO-4.1b: "1. Reinforcement Phase: the Phasing Player places all new units on the game
    map"; AO-4.2b, Game-Turn 1: "The German places his reinforcements on the map edge". A unit
    with no entry hex open to it (AO-14.1b: never through an enemy-held hex) is not held back by
    choice: it waits, still due."""
    s = ring_state({}, turn=1, side="german")
    assert dict(pending_reinforcements(RING, s)) == {"g1": ("0803",)}
    refused(apply(RING, s, EndPhase()), "AO-4.2b")
    placed = ok(apply(RING, s, Place(unit="g1", hex="0803"))).state
    assert ok(apply(RING, placed, EndPhase())).state.phase == "supply_judgment"
    s4 = ring_state({}, turn=4, side="german")
    assert dict(pending_reinforcements(RING, s4)) == {"g1": ("0803",), "g2": ("0803",)}
    r = refused(apply(RING, s4, EndPhase()), "AO-4.1b")
    assert "g1" in r.detail and "g2" in r.detail
    # an Allied unit on the only entry hex 0803: nothing can enter, the phase may end and both
    # stay due
    shut = ring_state({"ax": "0803"}, turn=4, side="german")
    assert pending_reinforcements(RING, shut) == []
    later = ok(apply(RING, shut, EndPhase())).state
    assert later.phase == "supply_judgment"
    assert {u: later.unit(u).status for u in ("g1", "g2")} == {
        "g1": "not_arrived",
        "g2": "not_arrived",
    }


# -- the West-bank units and the Meuse (ring map: the Meuse between 0303 and 0403) ----------------


def _wb_state(vp: int = 0, released: bool = False) -> GameState:
    s = ring_state(
        {"w1": "0303", "a1": "0304"},
        turn=6,
        vp=VictoryPoints(german=vp, allied=0),
    )
    return msgspec.structs.replace(s, phase="initial_movement", wb_released=released)


@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_cannot_cross_the_meuse() -> None:
    s = _wb_state(vp=24)
    for reach in legal_moves(RING, s, "w1").values():  # round about, never across
        hexes = ["0303", *reach.path]
        assert ("0303", "0403") not in itertools.pairwise(hexes)
    refused(apply(RING, s, Move(unit="w1", path=("0403",))), "AO-14.3C")
    # not a West-bank unit: crosses (the river costs, AO-11.c)
    s_a1 = msgspec.structs.replace(s, units=ring_state({"a1": "0303"}, turn=6).units)
    assert "0403" in legal_moves(RING, s_a1, "a1")
    # 25 German VP: released (AO-14.3C); once released at a tabulation, for good
    s25 = _wb_state(vp=25)
    ok(apply(RING, s25, Move(unit="w1", path=("0403",))))
    again = _wb_state(vp=20, released=True)
    ok(apply(RING, again, Move(unit="w1", path=("0403",))))


@pytest.mark.rule("AO-14.3C")
@pytest.mark.rule("AO-16.E")
def test_the_tabulation_releases_the_west_bank_units_for_good() -> None:
    s = ring_state({}, turn=7, side="allied")
    lost = [UnitState(id=u, status="eliminated") for u in ("a0", "a1", "a2", "s1", "w1")]
    s = msgspec.structs.replace(s.replace_units(lost), phase="mechanized_movement")
    # 7 Allied units lost (ax and ai too), 3 German (ga, gb, gm): not enough
    a = ok(apply(RING, s, EndPhase(), ScriptedDice([6], start=s.dice_drawn)))
    tab = [e for e in a.events if isinstance(e, VictoryPointsTabulated)]
    assert [(e.turn, e.german, e.allied, e.wb_released) for e in tab] == [(7, 7, 3, False)]
    assert not a.state.wb_released
    # a tabulation at 25+ sets the flag, which stays when the VP drop again
    b, s25 = _tabulated_state(5, 25, 0)
    a2 = ok(apply(b, s25, EndPhase(), ScriptedDice([6], start=s25.dice_drawn)))
    assert a2.state.wb_released
    assert [e.wb_released for e in a2.events if isinstance(e, VictoryPointsTabulated)] == [True]
    kept = msgspec.structs.replace(s, wb_released=True)
    assert ok(apply(RING, kept, EndPhase(), ScriptedDice([6], start=0))).state.wb_released


# -- the paradrop (AO-15) --------------------------------------------------------------------------


def _gt2_german_initial(dice: object) -> tuple[Board, GameState]:
    b, s = gt1_german_combat()
    return b, drive(b, s, (2, "german", "initial_movement"), dice)


@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-15.b")
def test_gt2_drop_is_mandatory_and_resolved_by_the_die() -> None:
    b, s = _gt2_german_initial(SeededDice(b"drop"))
    assert drop_required(b, s)
    hexes = drop_hexes(b, s)
    assert hexes
    refused(apply(b, s, EndPhase()), "AO-15.a")
    some = next(u.id for u in s.units if u.in_play and b.defs[u.id].side == "german")
    refused(apply(b, s, Move(unit=some, path=("enter_road_mode",))), "AO-15.a")
    assert legal_moves(b, s, some) == {}
    allied_hex = next(u.hex for u in s.units if u.in_play and b.defs[u.id].side == "allied")
    assert allied_hex is not None
    refused(apply(b, s, Drop(hex=allied_hex)), "AO-15.a")
    refused(apply(b, s, Roll()), "AO-4.1")  # no die is due before the hex is named
    # the hex first, no die yet (AO-15.a): then nothing but the roll (AO-15.b)
    named = ok(apply(b, s, Drop(hex=hexes[0])))
    assert named.state.roll == RollDue(purpose="paradrop", hex=hexes[0])
    assert named.state.dice_drawn == s.dice_drawn
    assert named.state.unit("de-vdh").status == "not_arrived"
    refused(apply(b, named.state, EndPhase()), "AO-15.b")
    refused(apply(b, named.state, Drop(hex=hexes[1])), "AO-15.b")
    refused(apply(b, named.state, Move(unit=some, path=("enter_road_mode",))), "AO-15.b")
    refused(apply(b, named.state, Roll()), "dice-needed")
    # a 2 survives: placed, supplied, and the phase goes on
    a = ok(apply(b, named.state, Roll(), ScriptedDice([2], start=s.dice_drawn)))
    assert [type(e).__name__ for e in a.events] == ["DieRoll", "UnitPlaced"]
    assert a.state.roll is None
    row = a.state.unit("de-vdh")
    assert (row.hex, row.status, row.supply) == (hexes[0], "on_map", "supplied")
    assert a.state.dice_drawn == s.dice_drawn + 1
    assert not drop_required(b, a.state)
    ok(apply(b, a.state, EndPhase()))
    refused(apply(b, a.state, Drop(hex=hexes[1])), "AO-15.a")
    refused(apply(b, a.state, Roll(), ScriptedDice([2], start=s.dice_drawn + 1)), "AO-4.1")
    # a 3 eliminates it: 1 VP to the Allies (AO-16.A)
    d = ok(apply(b, named.state, Roll(), ScriptedDice([3], start=s.dice_drawn)))
    assert any(isinstance(e, UnitEliminated) and e.case == "AO-15.b" for e in d.events)
    assert d.state.unit("de-vdh").status == "eliminated"
    assert d.state.vp.allied == s.vp.allied + 1


# -- victory (AO-16) ---------------------------------------------------------------------------


def _tabulated_state(turn: int, g: int, a: int) -> tuple[Board, GameState]:
    """A fake board whose tabulation gives (g, a): g Allied and a German units eliminated."""
    from tests.kit.engine import make_map, unit

    allies = [unit(f"al{i:02}", "allied") for i in range(g + 1)]
    germans = [unit(f"ge{i:02}", "german") for i in range(a + 1)]
    b = Board(make_map(". . .\n. . ."), [*allies, *germans])
    rows = [UnitState(id=f"al{i:02}", status="eliminated") for i in range(g)]
    rows += [UnitState(id=f"al{g:02}", hex="0101")]
    rows += [UnitState(id=f"ge{i:02}", status="eliminated") for i in range(a)]
    rows += [UnitState(id=f"ge{a:02}", hex="0302")]
    s = GameState(
        scenario=0,
        turn=turn,
        side="allied",
        phase="mechanized_movement",
        units=tuple(sorted(rows, key=lambda u: u.id)),
    )
    return b, s


@pytest.mark.rule("AO-16.E")
def test_vp_are_tabulated_at_the_end_of_each_game_turn() -> None:
    b, s = _tabulated_state(3, 4, 2)
    a = ok(apply(b, s, EndPhase()))
    tab = [e for e in a.events if isinstance(e, VictoryPointsTabulated)]
    assert [(e.turn, e.german, e.allied) for e in tab] == [(3, 4, 2)]
    assert a.state.vp == VictoryPoints(german=4, allied=2)
    assert (a.state.turn, a.state.side, a.state.phase) == (4, "german", "reinforcement")
    assert game_result(a.state) is None
    # not at the end of the German player-turn
    g = msgspec.structs.replace(s, side="german")
    a2 = ok(apply(b, g, EndPhase()))
    assert not any(isinstance(e, VictoryPointsTabulated) for e in a2.events)


@pytest.mark.rule("AO-16.2")
def test_immediate_german_victory_by_the_end_of_gt6() -> None:
    b, s = _tabulated_state(6, 35, 10)
    a = ok(apply(b, s, EndPhase(), ScriptedDice([6], start=s.dice_drawn)))
    assert a.state.phase == "game_over" and a.state.turn == 6
    v = game_result(a.state)
    assert v is not None and (v.winner, v.kind, v.german_vp, v.allied_vp) == (
        "german",
        "immediate",
        35,
        10,
    )
    end = [e for e in a.events if isinstance(e, GameEnded)]
    assert len(end) == 1 and end[0].verdict == v
    refused(apply(b, a.state, EndPhase()), "AO-4.1a")
    assert position.loads(position.dumps(a.state)) == a.state
    # not after GT7: play goes on
    b7, s7 = _tabulated_state(7, 35, 10)
    a7 = ok(apply(b7, s7, EndPhase(), ScriptedDice([6], start=s7.dice_drawn)))
    assert a7.state.phase == "reinforcement" and a7.state.result is None


@pytest.mark.rule("AO-16.1")
@pytest.mark.rule("AO-16.3")
@pytest.mark.parametrize(
    ("g", "a", "winner", "kind"),
    [
        (34, 0, "allied", "cumulative"),
        (36, 24, "german", "ratio"),
        (36, 25, None, "ratio"),
        (35, 35, None, "ratio"),
        (35, 36, "allied", "ratio"),
    ],
)
def test_gt18_verdicts(g: int, a: int, winner: str | None, kind: str) -> None:
    b, s = _tabulated_state(18, g, a)
    r = ok(apply(b, s, EndPhase(), ScriptedDice([6], start=s.dice_drawn)))
    assert r.state.phase == "game_over"
    v = game_result(r.state)
    assert v is not None and (v.winner, v.kind) == (winner, kind)
    assert (v.german_vp, v.allied_vp) == (g, a)


# -- a whole game ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.rule("AO-4.1a")
@pytest.mark.rule("AO-16.1")
@pytest.mark.rule("AO-16.3")
def test_scenario_1_plays_to_the_verdict_and_replays() -> None:
    b, s0 = scenario_start(1)
    dice = SeededDice(b"whole-game")
    log1: list[object] = []
    s1 = drive(b, s0, (1, "german", "combat"), dice, log1)
    lifted = without_gt1_obligations(s1)  # no attacks: AO-4.2h* lifted by hand
    log2: list[object] = []
    s2 = drive(b, lifted, (2, "allied", "reinforcement"), dice, log2)
    first = {uid for uid, _ in pending_reinforcements(b, s2)}
    assert len(first) >= 6
    s = drive(b, s2, (99, "german", "game_over"), dice, log2)
    assert s.phase == "game_over"
    v = game_result(s)
    assert v is not None
    assert s.turn == 18 or v.kind == "immediate"
    assert s.vp == VictoryPoints(german=v.german_vp, allied=v.allied_vp)
    # the first Allied reinforcements entered (AO-14.1A) and the drop happened (AO-15.a);
    # later ones may still wait at the end: in this passive game few units leave the road
    # exits, and those that cannot move off a crowded one go back (AO-14.2B)
    assert all(s.unit(u).status != "not_arrived" for u in first)
    assert s.unit("de-vdh").status != "not_arrived"
    # the logs replay to the same hashes
    h1 = replay_hashes(b, s0, log1, dice)  # type: ignore[arg-type]
    assert h1[-1] == state_hash(s1)
    h2 = replay_hashes(b, lifted, log2, dice)  # type: ignore[arg-type]
    assert h2[-1] == state_hash(s)


@pytest.mark.rule("AO-14.2B")
@pytest.mark.rule("AO-6.5G")
def test_german_units_staging_on_an_east_entry_hex_are_exempt_from_spacing() -> None:
    s = ring_state({}, turn=4, side="german")
    for uid in ("g1", "g2"):
        s = ok(apply(RING, s, Place(unit=uid, hex="0803"))).state
    assert [s.unit(u).staging for u in ("g1", "g2")] == [0, 2]
    assert [s.unit(u).road_mode for u in ("g1", "g2")] == [True, True]
    s = ended(RING, s, 2)
    assert s.phase == "initial_movement"
    # two Road Mode units in one hex, yet the first may set off along the road (AO-14.2B),
    # but not stop next to the one still waiting (AO-6.5G)
    moves = legal_moves(RING, s, "g1")
    assert "0703" not in moves and "0603" in moves
    refused(apply(RING, s, Move(unit="g1", path=("0703",))), "AO-6.5G")
    s = ok(apply(RING, s, Move(unit="g1", path=("0703", "leave_road_mode", "0603")))).state
    assert s.unit("g1").staging is None and s.unit("g1").mp_spent == 1 + 3 + 1
    # the second, alone now, is an ordinary Road Mode unit paying its penalty: 2 road hexes
    # = 1 MP for a German infantry unit (2 per MP)
    a = ok(apply(RING, s, Move(unit="g2", path=("0703",))))
    assert a.state.unit("g2").mp_spent == 1 + 1


@pytest.mark.rule("AO-17.d")
def test_the_scenario_board_carries_the_schedule() -> None:
    from scenarios import load_board, load_scenario

    sc = load_scenario(1)
    b = load_board(1)
    assert b.arrivals == sc.arrivals
    assert rf.schedule(b) == {a.unit: (a.turn, a.section) for a in sc.arrivals}


@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-14.1A")
def test_gt1_german_reinforcement_enters_on_the_east_edge() -> None:
    b, s = scenario_start(1)
    s = ended(b, s, 2)
    assert (s.turn, s.side, s.phase) == (1, "german", "reinforcement")
    assert pending_reinforcements(b, s) == [
        ("de-1-a", ("4209", "4215", "4219", "4229", "4237", "4239"))
    ]
    refused(apply(b, s, Place(unit="de-2-a", hex="4209")), "AO-17.d")
    refused(apply(b, s, Place(unit="de-1-a", hex="4109")), "AO-14.1A")
    a = ok(apply(b, s, Place(unit="de-1-a", hex="4215")))
    row = a.state.unit("de-1-a")
    assert (row.hex, row.road_mode, row.staging) == ("4215", True, 0)


def _banks() -> Board:
    """7 x 3: column 1 the West section's edge, the Meuse between columns 3 and 4 (every
    hexside joining them). w is a West-bank unit."""
    from rules import hexgrid
    from rules.ao.scenario import Arrival
    from tests.kit.engine import make_map, meuse, unit

    grid = "\n".join(" ".join("e" if c == 1 else "." for c in range(1, 8)) for _ in range(3))
    river = sorted(
        f"{a}/{b}"
        for a in (f"03{r:02d}" for r in (1, 2, 3))
        for b in hexgrid.neighbours(a)
        if b is not None and b[:2] == "04" and int(b[2:]) <= 3
    )
    m = meuse(make_map(grid, rivers=river), *river)
    defs = [unit("w", "allied"), unit("g"), unit("g2"), unit("g3")]
    return Board(m, defs, arrivals=[Arrival("w", 5, "WB")])


@pytest.mark.audit
@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_attack_only_across_the_meuse_or_next_to_it() -> None:
    """AO-14.3C: WB units "may not cross the Meuse River until the German Player accumulates 25
    or more Victory Points. They may attack Enemy units which cross the Meuse and those Enemy
    units adjacent to it." w stands on the east bank (as a unit sent round by the fallback
    sections may); g (0602) is two hexes from the river, g2 (0402) next to it."""
    from rules.ao.commands import DeclareAttack

    b = _banks()
    s = msgspec.structs.replace(
        position_of({"w": "0502", "g": "0602", "g2": "0402"}), side="allied", phase="combat"
    )
    r = refused(apply(b, s, DeclareAttack(attackers=("w",), defenders=("0602",))), "AO-14.3C")
    assert "0602" in r.detail
    ok(apply(b, s, DeclareAttack(attackers=("w",), defenders=("0402",))))
    # a German unit that crossed the Meuse (0201, west bank): w attacks it from 0301
    s2 = msgspec.structs.replace(s, units=position_of({"w": "0301", "g3": "0201"}).units)
    ok(apply(b, s2, DeclareAttack(attackers=("w",), defenders=("0201",))))
    # released (25 German VP reached): anywhere
    free = msgspec.structs.replace(s, wb_released=True)
    ok(apply(b, free, DeclareAttack(attackers=("w",), defenders=("0602",))))


@pytest.mark.rule("AO-14.3C")
@pytest.mark.rule("AO-9.6N")
def test_west_bank_units_do_not_advance_across_the_meuse() -> None:
    from rules.ao import combat
    from rules.ao.scenario import Arrival
    from rules.ao.state import Attack, Resolution
    from tests.kit.engine import unit
    from tests.kit.ring import SCHEDULE, ring_map

    defs = [unit(u, "allied" if u[0] in "asw" else "german", mech=True) for u in SCHEDULE]
    defs += [unit(u, "german") for u in ("ga", "gb", "gm")] + [unit("ax", "allied")]
    defs += [unit("ai", "allied")]
    b = Board(ring_map(), defs, arrivals=[Arrival(u, t, sec) for u, (t, sec) in SCHEDULE.items()])
    s = ring_state({"w1": "0303", "a1": "0304"}, turn=6)
    s = msgspec.structs.replace(s, phase="combat")
    r = Resolution(
        attack=Attack(attackers=("a1", "w1"), defenders=("0403",)),
        step="advance",
        advancing=("a1", "w1"),
        cleared=("0403",),
    )
    assert combat.advance_choices(b, s, r, "0403") == ["a1"]
    free = msgspec.structs.replace(s, wb_released=True)
    assert combat.advance_choices(b, free, r, "0403") == ["a1", "w1"]


@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-6.5G")
@pytest.mark.rule("AO-14.2B")
def test_reinforcements_still_crowding_an_entry_hex_go_back_off_the_map() -> None:
    """Staging lets units wait together on an entry hex while they drive off it (AO-14.2B), but
    a crowd may not outlast the movement phase (AO-8.0 "at ALL times", AO-6.5G): while one of
    them can move off, the phase may not end (the reinforcements may not be held back, AO-4.1b,
    AO-14.1A); those that cannot go back off the map, the first to enter staying, and are due
    again next Reinforcement Phase. The ring map's only German entry road is 0803-0703: no move
    may end on 0703, next to the waiting units along the road."""
    s = ring_state({}, turn=4, side="german")
    for uid in ("g1", "g2"):
        s = ok(apply(RING, s, Place(unit=uid, hex="0803"))).state
    s = ended(RING, s, 2)
    assert s.phase == "initial_movement"
    # g1 and g2 (MA 8, supplied) can leave Road Mode (3 MP) and step off into 0704 or 0702
    r = refused(apply(RING, s, EndPhase()), "AO-14.2B")
    assert "g1, g2 crowd 0803" in r.detail
    off = {(f.unit, f.hex) for f in crowd_fixes(RING, s)}
    assert {("g1", "0704"), ("g2", "0702"), ("g2", "0802")} <= off
    assert not {h for _u, h in off} & {"0803", "0703"}
    moved = ok(apply(RING, s, Move(unit="g2", path=("leave_road_mode", "0704")))).state
    done = ok(apply(RING, moved, EndPhase()))
    assert not [e for e in done.events if isinstance(e, ReinforcementWithdrawn)]
    # the same two with MA 2 cannot pay the 3 MP to leave Road Mode: nothing can move off
    slow = Board(
        RING.game_map,
        [
            msgspec.structs.replace(d, movement=2) if d.id in ("g1", "g2") else d
            for d in RING.defs.values()
        ],
        arrivals=RING.arrivals,
    )
    s = ring_state({}, turn=4, side="german")
    for uid in ("g1", "g2"):
        s = ok(apply(slow, s, Place(unit=uid, hex="0803"))).state
    s = ended(slow, s, 2)
    assert crowd_fixes(slow, s) == ()
    r2 = ok(apply(slow, s, EndPhase()))
    withdrawn = [e for e in r2.events if isinstance(e, ReinforcementWithdrawn)]
    assert [(e.unit, e.hex, e.case) for e in withdrawn] == [("g2", "0803", "AO-6.5G")]
    assert r2.state.unit("g1").hex == "0803" and r2.state.unit("g1").staging == 0
    assert r2.state.unit("g2") == UnitState(id="g2", status="not_arrived")
    assert ("g2", "east") in [(u, sec) for u, sec in rf.due(slow, r2.state, "german", 5)]


@pytest.mark.rule("AO-8.0")
def test_a_reinforcement_alone_on_its_entry_hex_stays() -> None:
    s = ring_state({}, turn=3, side="german")  # g1 (GT1) due, not yet g2 (GT4)
    s = ok(apply(RING, s, Place(unit="g1", hex="0803"))).state
    s = ended(RING, s, 2)
    r = ok(apply(RING, s, EndPhase()))
    assert not [e for e in r.events if isinstance(e, ReinforcementWithdrawn)]
    assert r.state.unit("g1").hex == "0803"
