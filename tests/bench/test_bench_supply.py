"""Supply benchmarks (run with ``.venv/bin/pytest tests/bench/test_bench_supply.py
--benchmark-only``).

Target (median): supply judgment of a whole side < 20 ms, on the real map with the scenario 1
historical set-up, as at the German (and Allied) Supply Judgment Phase of Game-Turn 2 with the
bridges interdicted then; also the interdiction computation itself (the per-board range table
of ``rules.interdiction`` makes it a few microseconds), at the moment of combat and at the end
of a player-turn, and a defender's supply at the moment of combat (a whole-side judgment with
the attacker's interdiction then).
"""

from __future__ import annotations

import msgspec
import pytest

from rules.combat import defender_supply
from rules.engine import new_game
from rules.interdiction import interdiction_at_combat, interdiction_for, lift_interdiction
from rules.state import Board, GameState, Interdiction
from rules.supply import supply_judgment
from rules.units import Side
from tests.realmap import needs_real_map

pytestmark = needs_real_map


def _real(side: Side) -> tuple[Board, GameState]:
    from scenarios import load_board

    b = load_board(1)
    s = new_game(b)
    s = msgspec.structs.replace(s, turn=2, side=side, phase="supply_judgment")
    it = interdiction_for(b, s, side, 2)
    return b, msgspec.structs.replace(s, interdicted=Interdiction(**{side: it}))


def _fresh(b: Board, s: GameState, side: Side) -> tuple[tuple[Board, GameState, Side], dict]:
    """The same position as a new state object each round: the tables the engine derives once
    per state (zones of control, occupancy, a defender's supply) are computed anew."""
    return (b, msgspec.structs.replace(s, dice_drawn=s.dice_drawn + 1), side), {}


@pytest.mark.parametrize("side", ["german", "allied"])
def test_supply_judgment_whole_side(benchmark, side: Side) -> None:
    b, s = _real(side)
    out = benchmark.pedantic(
        supply_judgment, setup=lambda: _fresh(b, s, side), rounds=200, warmup_rounds=5
    )
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
    b, s = _real(side)
    out = benchmark.pedantic(
        defender_supply, setup=lambda: _fresh(b, s, side), rounds=200, warmup_rounds=5
    )
    assert len(out) > 20
