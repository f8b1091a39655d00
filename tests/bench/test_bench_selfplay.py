"""Self-play benchmarks (``.venv/bin/pytest tests/bench --benchmark-only``; ``make bench``
compares them with the committed baseline): a whole 18-turn game of scenario 1 with the
heuristic bots (target: under 4 s, in process), and replaying its record with the state hash
checked after every command (target: under 0.3 s, in process). Issue 19's targets, on the
2-core development machine."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.ao.bots.selfplay import SelfPlayGame, encode, play, replay
from scenarios import load_board


@cache
def record() -> SelfPlayGame:
    return play(load_board(1), 1)


def test_bench_selfplay_full_game_scenario_1(benchmark: Any) -> None:
    r = benchmark.pedantic(lambda: play(load_board(1), 1), rounds=2, iterations=1)
    assert r.verdict is not None


def test_bench_replay_full_game_record(benchmark: Any) -> None:
    data = encode(record())
    res = benchmark.pedantic(replay, args=(data, load_board), rounds=3, iterations=1)
    assert res.ok
