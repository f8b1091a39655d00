"""The sequence of play (AO-4) and the Game-Turn 1 rules (AO-4.2)."""

from __future__ import annotations

import pytest

from rules.ao import sequence
from rules.ao.commands import EndPhase, Move, Place, Roll
from rules.ao.engine import Applied, apply
from rules.ao.events import PhaseBegan, PhaseSkipped, SupplyChanged
from rules.ao.movement import legal_moves
from rules.ao.state import Board, GameState, Phase, UnitState, initial_state
from rules.dice import SeededDice
from rules.rejection import Rejection
from tests.kit.engine import board, costs, ended, line_map, outcome, position, unit


def _board() -> Board:
    return board(
        line_map(". . . . . . . ."),
        [unit("g", ma=6), unit("m", mech=True, ma=8), unit("a", "allied"), unit("r", "allied")],
    )


def _walk(b: Board, s: GameState, n: int) -> tuple[GameState, list[tuple[int, str, Phase]]]:
    seen: list[tuple[int, str, Phase]] = []
    for _ in range(n):
        if s.roll is not None:  # GT6+: the CRT switch roll, before anything else
            rolled = apply(b, s, Roll(), SeededDice(b"walk"))
            assert isinstance(rolled, Applied), rolled
            s = rolled.state
        r = apply(b, s, EndPhase())  # never rolls a die
        assert isinstance(r, Applied), r
        s = r.state
        seen.append((s.turn, s.side, s.phase))
    return s, seen


@pytest.mark.rule("AO-4.1a")
def test_game_turn_is_german_then_allied_and_there_are_eighteen() -> None:
    b = _board()
    s = position({"g": "0101", "a": "0801"}, turn=1, side="allied", phase="setup_allied")
    s, seen = _walk(b, s, 1 + 18 * 10 - 2 + 1)  # GT1 loses two phases
    assert seen[0] == (1, "german", "setup_german")
    assert seen[1] == (1, "german", "reinforcement")
    sides = [side for (_t, side, ph) in seen if ph == "reinforcement"]
    assert sides == ["german", "allied"] * 18
    assert s.phase == "game_over" and s.turn == 18
    r = apply(b, s, EndPhase())
    assert isinstance(r, Rejection) and r.case == "AO-4.1a"


@pytest.mark.rule("AO-4.1b")
def test_player_turn_phases_in_order_and_supply_markers_removed_at_the_end() -> None:
    b = _board()
    s = position(
        {
            "g": UnitState(id="g", hex="0101", supply="unsupplied"),
            "a": UnitState(id="a", hex="0801", supply="isolated"),
        },
        turn=3,
        phase="reinforcement",
    )
    s, seen = _walk(b, s, 5)
    assert seen == [
        (3, "german", "supply_judgment"),
        (3, "german", "initial_movement"),
        (3, "german", "combat"),
        (3, "german", "mechanized_movement"),
        (3, "allied", "reinforcement"),
    ]
    # phase 6: the phasing (German) player's markers are removed, not the Allied ones
    assert s.unit("g").supply == "supplied"
    assert s.unit("a").supply == "isolated"


@pytest.mark.rule("AO-4.1b")
def test_end_of_player_turn_event_names_the_marker_removal() -> None:
    b = _board()
    s = position(
        {"g": UnitState(id="g", hex="0101", supply="unsupplied")}, phase="mechanized_movement"
    )
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied)
    assert r.events[0] == SupplyChanged(unit="g", supply="supplied", case="AO-4.1b")
    assert r.events[-1] == PhaseBegan(turn=2, side="allied", phase="reinforcement")


@pytest.mark.rule("AO-4.2a")
def test_allied_deploys_first_then_german_then_german_starts() -> None:
    b = _board()
    s = initial_state(b, 1, {"g": "0101", "m": "0201", "a": "0801", "r": "0701"})
    assert (s.turn, s.side, s.phase) == (1, "allied", "setup_allied")
    r = apply(b, s, Place(unit="g", hex="0301"))
    assert isinstance(r, Rejection) and r.case == "AO-4.2a"
    r = apply(b, s, Place(unit="a", hex="0601"))
    assert isinstance(r, Applied) and r.state.unit("a").hex == "0601"
    s = ended(b, r.state)
    assert (s.side, s.phase) == ("german", "setup_german")
    assert isinstance(apply(b, s, Place(unit="r", hex="0501")), Rejection)
    assert isinstance(apply(b, s, Place(unit="g", hex="0301")), Applied)
    s = ended(b, s)
    assert (s.turn, s.side, s.phase) == (1, "german", "reinforcement")
    r = apply(b, s, Place(unit="g", hex="0301"))
    assert isinstance(r, Rejection)


@pytest.mark.rule("AO-4.2b")
def test_gt1_all_german_units_in_supply() -> None:
    b = _board()
    s = position(
        {
            "g": UnitState(id="g", hex="0101", supply="isolated"),
            "a": UnitState(id="a", hex="0801", supply="unsupplied"),
        },
        turn=1,
        phase="reinforcement",
    )
    s1 = ended(b, s)
    assert s1.phase == "supply_judgment"
    assert s1.unit("g").supply == "supplied" and s1.unit("a").supply == "unsupplied"
    assert sequence.german_always_supplied(s1)
    # not on later turns
    s2 = ended(
        b,
        position(
            {"g": UnitState(id="g", hex="0101", supply="isolated")}, turn=2, phase="reinforcement"
        ),
    )
    assert s2.unit("g").supply == "unsupplied"  # judged: no source on this map (AO-12.3G)
    assert not sequence.german_always_supplied(s2)


@pytest.mark.rule("AO-4.2c")
def test_gt1_both_sides_lose_the_initial_movement_phase() -> None:
    b = _board()
    s = position({"g": "0101", "a": "0801"}, turn=1, phase="supply_judgment")
    r = apply(b, s, EndPhase())
    assert isinstance(r, Applied)
    assert r.state.phase == "combat"
    assert PhaseSkipped(turn=1, side="german", phase="initial_movement", case="AO-4.2c") in r.events
    s = ended(b, r.state, 4)
    assert (s.side, s.phase) == ("allied", "combat")
    # on Game-Turn 2 the phase is played
    s = ended(b, s, 4)
    assert (s.turn, s.side, s.phase) == (2, "german", "initial_movement")


@pytest.mark.rule("AO-4.2d")
def test_gt1_german_attacks_tripled() -> None:
    assert sequence.german_attack_multiplier(position({}, turn=1, phase="combat")) == 3
    assert sequence.german_attack_multiplier(position({}, turn=2, phase="combat")) == 1
    assert (
        sequence.german_attack_multiplier(position({}, turn=1, side="allied", phase="combat")) == 1
    )


@pytest.mark.rule("AO-4.2e")
def test_gt1_german_defence_tripled_in_the_allied_combat() -> None:
    assert (
        sequence.german_defence_multiplier(position({}, turn=1, side="allied", phase="combat")) == 3
    )
    assert sequence.german_defence_multiplier(position({}, turn=1, phase="combat")) == 1
    assert (
        sequence.german_defence_multiplier(position({}, turn=2, side="allied", phase="combat")) == 1
    )


@pytest.mark.rule("AO-4.2f")
def test_gt1_mechanized_phase_only_for_mech_units_not_in_combat() -> None:
    b = _board()
    s = position(
        {"m": UnitState(id="m", hex="0101", in_combat=True), "g": "0301", "a": "0801"},
        turn=1,
        phase="mechanized_movement",
    )
    r = apply(b, s, Move(unit="m", path=("0201",)))
    assert isinstance(r, Rejection) and r.case == "AO-4.2f"
    assert outcome(b, s, "g", "0401") == "AO-4.2f"
    s = position({"m": "0101", "a": "0801"}, turn=1, phase="mechanized_movement")
    assert outcome(b, s, "m", "0201") == 1


@pytest.mark.rule("AO-4.2g")
def test_gt1_no_allied_reinforcements() -> None:
    b = _board()
    s = position(
        {"a": "0801", "r": UnitState(id="r", status="not_arrived")},
        turn=1,
        side="allied",
        phase="reinforcement",
    )
    assert not sequence.reinforcements_allowed(s)
    r = apply(b, s, Place(unit="r", hex="0701"))
    assert isinstance(r, Rejection) and r.case == "AO-4.2g"
    assert sequence.reinforcements_allowed(position({}, turn=2, side="allied"))


# == found by the rule audit: the lost Game-Turn 1 phases (AO-4.2b/c/f) ===========================
# Found by these tests, since fixed: movement in the lost GT1 Initial Movement Phase (AO-4.2c).


@pytest.mark.audit
@pytest.mark.rule("AO-4.2c")
@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-4.2f")
def test_game_turn_one_lost_phases_german_supply_and_mech_phase() -> None:
    b = board(
        line_map(". . . . . . . . . . . ."),
        [unit("m", mech=True, ma=10), unit("c", mech=True), unit("f"), unit("a", "allied")],
    )
    s = position(
        {
            "m": UnitState(id="m", hex="0101", supply="unsupplied"),
            "c": "0601",
            "f": "0801",
            "a": UnitState(id="a", hex="1201"),
        },
        turn=1,
        phase="reinforcement",
    )
    s = ended(b, s)  # supply judgment: every German unit supplied (AO-4.2b)
    assert s.unit("m").supply == "supplied"
    s = ended(b, s)  # the Initial Movement Phase is lost (AO-4.2c)
    assert s.phase == "combat"
    s = ended(b, s.replace_units([UnitState(id="c", hex="0601", in_combat=True)]))
    assert s.phase == "mechanized_movement"
    assert max(costs(b, s, "m").values()) == 4  # full MA, up to 0501 (c sits in 0601)
    assert outcome(b, s, "c", "0701") == "AO-4.2f"
    assert outcome(b, s, "f", "0901") == "AO-4.2f"
    # the Allied Initial Movement Phase is lost as well
    s = ended(b, s, 3)
    assert (s.side, s.phase) == ("allied", "combat")


@pytest.mark.audit
@pytest.mark.rule("AO-4.2c")
def test_no_movement_in_a_lost_game_turn_one_initial_phase() -> None:
    b = board(line_map(". . ."), [unit("g")])
    s = position({"g": "0101"}, turn=1, phase="initial_movement")
    assert outcome(b, s, "g", "0201") == "AO-4.2c"
    assert legal_moves(b, s, "g") == {}
