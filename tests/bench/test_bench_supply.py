"""Supply benchmarks (run with ``.venv/bin/pytest tests/bench/test_bench_supply.py
--benchmark-only``).

Target (median): supply judgment of a whole side < 20 ms, on the real map with the scenario 1
historical set-up, as at the German (and Allied) Supply Judgment Phase of Game-Turn 2 with the
bridges interdicted then; also the interdiction computation itself (the per-board range table
of ``rules.ao.interdiction`` makes it a few microseconds), at the moment of combat and at the end
of a player-turn, and a defender's supply at the moment of combat (a whole-side judgment with
the attacker's interdiction then).
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao.combat import defender_supply
from rules.ao.engine import new_game
from rules.ao.interdiction import interdiction_at_combat, interdiction_for, lift_interdiction
from rules.ao.state import Board, GameState, Interdiction
from rules.ao.supply import supply_judgment
from rules.ao.units import Side
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def _real(side: Side) -> tuple[Board, GameState]:
    from scenarios import load_board

    b = load_board(1)
    s = new_game(b)
    s = msgspec.structs.replace(s, turn=2, side=side, phase="supply_judgment")
    it = interdiction_for(b, s, side, 2)
    return b, msgspec.structs.replace(s, interdicted=Interdiction(**{side: it}))


def _on_fresh_states(benchmark, judge, side: Side):
    """``judge(board, state, side)`` timed on the same position as a new state object each
    round, so that the tables the engine derives once per state (zones of control, occupancy,
    a defender's supply) are computed anew."""
    b, s = _real(side)
    rounds = iter(range(10**6))

    def fresh() -> tuple[tuple[Board, GameState, Side], dict]:
        # Game-Turn 2 or 3 in turn (the same rules after Game-Turn 1): a defender's supply is
        # kept for the rows and Game-Turn last judged, the other tables for the state object
        turn = 2 + next(rounds) % 2
        return (b, msgspec.structs.replace(s, turn=turn), side), {}

    return benchmark.pedantic(judge, setup=fresh, rounds=200, warmup_rounds=5)


@pytest.mark.parametrize("side", ["german", "allied"])
def test_supply_judgment_whole_side(benchmark, side: Side) -> None:
    out = _on_fresh_states(benchmark, supply_judgment, side)
    assert len(out) > 20


@pytest.mark.parametrize("side", ["german", "allied"])
def test_interdiction_for_side(benchmark, side: Side) -> None:
    b, s = _real(side)
    out = benchmark(interdiction_for, b, s, side, 2)
    assert out


@pytest.mark.parametrize("side", ["german", "allied"])
def test_interdiction_at_combat_and_lift(benchmark, side: Side) -> None:
    b, s = _real(side)

    def both() -> int:
        return len(interdiction_at_combat(b, s, side)) + len(lift_interdiction(b, s, side))

    assert benchmark(both) > 0


@pytest.mark.parametrize("side", ["german", "allied"])
def test_defender_supply_at_combat(benchmark, side: Side) -> None:
    out = _on_fresh_states(benchmark, defender_supply, side)
    assert len(out) > 20
