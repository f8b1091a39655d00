"""Combat building-block benchmarks (run with ``.venv/bin/pytest tests/bench --benchmark-only``).

Worst cases: Ex loss options for 18 attackers (six stacks of three, AO-9.2E); a seeded die.
"""

from __future__ import annotations

from typing import Any

from rules.ao.odds import ex_loss_options
from rules.dice import SeededDice
from tests.kit.engine import unit

STRENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3, 4, 5, 6, 2, 3, 4, 5]


def test_bench_ex_loss_options_18_attackers(benchmark: Any) -> None:
    attackers = [unit(f"u{i:02d}", strength=s) for i, s in enumerate(STRENGTHS)]
    options = benchmark(ex_loss_options, attackers, 20)
    assert options


def test_bench_seeded_die(benchmark: Any) -> None:
    dice = SeededDice(b"bench")
    assert 1 <= benchmark(dice.d6, 12345) <= 6
