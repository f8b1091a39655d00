"""What the app costs on the wire: the real ``ardennes`` in an 80x24 pty, every byte counted
(``.venv/bin/pytest tests/bench/test_bench_tty.py --benchmark-only -s``; skipped by default).

The game is scenario 1 at the Allied Initial Movement Phase of Game-Turn 2 (bots play up to
there; the record is opened with ``ardennes --load``), the cursor on Bastogne, where an American
unit stands. Per key kind, as issue 11 asks:

* **cursor**: 24 cursor keys eastward from Bastogne and back, the view jumps included (the
  detail view scrolls when the cursor leaves it); target: a mean of at most 1 KB a key;
* **select**: Enter on Bastogne's unit (its reach is lit), then Escape; target: at most 4 KB;
* **zoom**: ``z`` to the overview and back;
* **help**: ``?`` and Escape;
* **cold start**: from the process start to the first complete frame;
* **latency**: from a key written to the first byte of its answer; target: under 16 ms.

Each kind is recorded in ``extra_info`` and printed; the benchmark's own timing is one cursor
key (written, answered, settled).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bench.ttydriver import Cost, Tty, app_env, record_at
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map

ARDENNES = Path(sys.executable).with_name("ardennes")


@pytest.fixture(scope="module")
def tty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tty]:
    home = tmp_path_factory.mktemp("tty")
    record = record_at(home / "gt1.jsonl")
    env = app_env(home)
    t = Tty([str(ARDENNES), "--load", str(record)], env)
    t.wait_for(b"Bastogne")
    t.settle(quiet=0.5)
    try:
        yield t
    finally:
        t.close()


def _mean(costs: list[Cost]) -> int:
    return int(statistics.mean(c.nbytes for c in costs))


def test_bench_bytes_per_key_kind(benchmark: Any, tty: Tty) -> None:
    cursor = [tty.press("right") for _ in range(12)] + [tty.press("left") for _ in range(12)]
    select = tty.press("enter")
    deselect = tty.press("escape")
    zoom = [tty.press("z"), tty.press("z")]
    help_ = [tty.press("?"), tty.press("escape")]
    latencies = [c.first for c in cursor if c.first is not None]
    info = {
        "cursor_mean_bytes": _mean(cursor),
        "cursor_max_bytes": max(c.nbytes for c in cursor),
        "select_bytes": select.nbytes,
        "deselect_bytes": deselect.nbytes,
        "zoom_bytes": [c.nbytes for c in zoom],
        "help_bytes": [c.nbytes for c in help_],
        "cursor_first_byte_ms_median": round(statistics.median(latencies) * 1000, 1),
        "cursor_first_byte_ms_max": round(max(latencies) * 1000, 1),
        "cursor_settled_ms_median": round(statistics.median(c.settled for c in cursor) * 1000, 1),
    }
    benchmark.extra_info |= info
    print("\n" + ", ".join(f"{k} {v}" for k, v in info.items()))
    assert select.nbytes > 0 and all(c.nbytes > 0 for c in cursor)

    def one_key() -> Cost:
        tty.press("right")
        return tty.press("left")

    benchmark.pedantic(one_key, rounds=5, iterations=1)


def test_bench_cold_start_to_first_frame(benchmark: Any, tmp_path: Path) -> None:
    record = record_at(tmp_path / "gt1.jsonl")
    env = app_env(tmp_path)

    sizes: list[int] = []

    def start() -> float:
        t = Tty([str(ARDENNES), "--load", str(record)], env)
        try:
            seen = t.wait_for(b"Bastogne")  # the status line names the cursor's town
            _, _, settled = t.settle(quiet=0.3)
            sizes.append(len(t.screen))
            return seen + settled  # the last byte of the first frame
        finally:
            t.close()

    seconds = benchmark.pedantic(start, rounds=3, iterations=1)
    benchmark.extra_info["first_frame_seconds"] = round(seconds, 3)
    benchmark.extra_info["first_frame_bytes"] = sizes[-1]
    print(f"\nfirst frame after {seconds:.3f} s, {sizes[-1]} bytes")


WALK = ["right"] * 5 + ["down"] * 5 + ["right"] * 5 + ["down"] * 5
"""Issue 21's walk: 20 cursor keys from the start of a hot-seat game of scenario 1 (the cursor
on Bastogne): 5 east, 5 down the column (south), 5 east, 5 south; the view scrolls on the
way. Target: a mean of at most 1 KB a key, the view's scrolls included."""


def test_bench_cursor_walk_of_a_new_game(benchmark: Any, tmp_path: Path) -> None:
    env = app_env(tmp_path)
    t = Tty([str(ARDENNES), "--scenario", "1", "--seed", "walk"], env)
    try:
        t.wait_for(b"Bastogne")
        t.settle(quiet=0.5)
        costs = [t.press(key) for key in WALK]
    finally:
        t.close()
    sizes = [c.nbytes for c in costs]
    info = {
        "walk_mean_bytes": _mean(costs),
        "walk_max_bytes": max(sizes),
        "walk_bytes": sizes,
    }
    benchmark.extra_info |= info
    print("\n" + ", ".join(f"{k} {v}" for k, v in info.items()))
    assert all(n > 0 for n in sizes)
    assert statistics.mean(sizes) <= 1024, sizes

    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
