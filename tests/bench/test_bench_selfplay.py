"""Self-play benchmarks (``.venv/bin/pytest tests/bench --benchmark-only``): a whole 18-turn bot
game of scenario 1, and replaying its log with the per-command hash checks (target: under
1.5 s) and with the final hash only."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.selfplay import GameRecord, encode_log, play, replay_log
from scenarios import load_board


@cache
def record() -> GameRecord:
    return play(load_board(1), 1)


def test_bench_selfplay_full_game_scenario_1(benchmark: Any) -> None:
    r = benchmark.pedantic(lambda: play(load_board(1), 1), rounds=2, iterations=1)
    assert r.verdict is not None


def test_bench_replay_full_game_log(benchmark: Any) -> None:
    data = encode_log(record())
    res = benchmark.pedantic(replay_log, args=(data, load_board), rounds=3, iterations=1)
    assert res.ok


def test_bench_replay_full_game_log_final_hash_only(benchmark: Any) -> None:
    data = encode_log(record())
    res = benchmark.pedantic(replay_log, args=(data, load_board, False), rounds=3, iterations=1)
    assert res.ok
