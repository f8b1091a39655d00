"""Email-game benchmarks (``make bench``, or ``.venv/bin/pytest tests/bench/test_bench_pbem.py
--benchmark-only -s``; the default run skips them, ``--benchmark-skip`` in ``pyproject.toml``).

The game: the complete sealed self-play game of scenario 1, seed 5 (``ardennes selfplay
--scenario 1 --seed 5 --dice sealed``: 18 Game-Turns), built once per session inside the first
benchmark that needs it. Whole processes, as a player waits on them (issue 20's targets):

* ``ardennes verify FILE`` of the whole game: under 1.0 s; its ratio to ``python -c pass``;
* ``ardennes import FILE`` of the game's last packet into the store of the player who has the
  rest (its index and snapshot written, as after his last import): under 0.5 s;
* armoured size per player-turn (the mailings of one player-turn, counted from the packets of
  each player-turn's first command, the set-up apart): median and largest at most format 2's
  on the same game (its bodies written again in format 2, :mod:`tests.kit.legacy`); the same
  on a game of scenario 7, seed 1.

The targets are checked on the CPU time the process used (user and system), which a loaded
machine does not inflate as it does the wall time; both are recorded (``extra_info``) and
printed.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbem import selfplay
from pbem.core import armor, packets, zdict
from pbem.core.headers import armor_headers, armor_packets
from pbem.core.packets import Packet
from pbem.core.protocol import EmailGame
from pbem.games import Service
from pbem.store import Store
from rules.ao import Side
from tests.kit import legacy
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map

ARDENNES = str(Path(sys.executable).parent / "ardennes")
ROUNDS = 5


@cache
def game(root: str, scenario: int = 1, seed: int = 5) -> tuple[selfplay.EmailSelfPlay, Path]:
    """The game, its stores under ``root`` (``german/``, ``allied/``) and its file."""
    played = selfplay.play(scenario, seed, "sealed", root=Path(root) / "stores")
    assert played.verdict is not None and played.turn == 18, (played.turn, played.phase)
    path = Path(root) / "game.txt"
    path.write_text(played.text())
    return played, path


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``argv``: its wall time, its CPU time (user and system), its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env, check=False, timeout=120)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert r.returncode == 0, r.stdout + r.stderr
    return wall, cpu, r.stdout


def baseline() -> float:
    """The wall time of ``python -c pass`` (the best of five)."""
    return min(timed([sys.executable, "-c", "pass"])[0] for _ in range(5))


def test_bench_verify_a_whole_18_turn_sealed_game(
    benchmark: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    played, path = game(str(tmp_path_factory.getbasetemp() / "bench-game"))
    runs: list[tuple[float, float, str]] = []

    def run() -> None:
        runs.append(timed([ARDENNES, "verify", str(path)]))

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1)
    assert all(out.startswith(f"OK: game {played.game_id}") for _, _, out in runs)
    wall, cpu = min(w for w, _, _ in runs), min(c for _, c, _ in runs)
    python = baseline()
    info = {
        "packets": len(played.packets),
        "commands": played.commands,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "python_c_pass_s": round(python, 3),
        "ratio_to_python": round(wall / python, 1),
    }
    benchmark.extra_info |= info
    print("\nverify: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    assert cpu < 1.0


def test_bench_import_one_packet_at_game_turn_18(
    benchmark: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    played, _ = game(str(tmp_path_factory.getbasetemp() / "bench-game"))
    last = played.packets[-1]
    side = "allied" if last.body.author == "german" else "german"
    root = tmp_path_factory.mktemp("bench-import")
    pristine = root / "pristine"
    shutil.copytree(tmp_path_factory.getbasetemp() / "bench-game" / "stores" / side, pristine)
    folder = pristine / "games" / played.game_id / "packets"
    sorted(folder.iterdir())[-1].unlink()
    Service(Store(pristine)).index(played.game_id)  # his index and snapshot, as after an import
    text = root / "last.txt"
    text.write_text(armor_packets([last]))
    runs: list[tuple[float, float, str]] = []

    def setup() -> tuple[tuple[()], dict[str, Any]]:
        shutil.rmtree(root / "home", ignore_errors=True)
        shutil.copytree(pristine, root / "home")
        return (), {}

    def run() -> None:
        env = {**os.environ, "ARDENNES_HOME": str(root / "home")}
        runs.append(timed([ARDENNES, "import", str(text)], env))

    benchmark.pedantic(run, setup=setup, rounds=ROUNDS, iterations=1)
    assert all(f"packet {last.body.seq} (" in out and "accepted" in out for _, _, out in runs)
    wall, cpu = min(w for w, _, _ in runs), min(c for _, c, _ in runs)
    info = {
        "seq": last.body.seq,
        "turn": last.body.turn,
        "commands": len(last.body.commands),
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
    }
    benchmark.extra_info |= info
    print("\nimport: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    assert cpu < 0.5


def player_turns(g: EmailGame) -> dict[str, list[int]]:
    """The ``seq`` of the packets of each player-turn (from the packet with its first command),
    and of the set-up."""
    assert g.game is not None
    turns: dict[str, list[int]] = {}
    for d, first in zip(g.derivations, g.first_command, strict=True):
        s = g.game.state_at(first)
        key = "set-up" if s.phase.startswith("setup") else f"GT{s.turn} {s.side}"
        turns.setdefault(key, []).append(d.seq)
    return turns


def sizes(g: EmailGame, sent: Sequence[Packet], encoding: str) -> dict[str, int]:
    """The armoured sizes of ``sent`` (the packets of ``g``, in some format) with the deflate
    ``encoding``: per player-turn (the packets from the one with its first command, the set-up
    apart), per packet, the whole game."""
    size = {p.body.seq: len(armor.armor(p.wire, armor_headers(p), encoding=encoding)) for p in sent}
    assert list(size) == list(range(len(g.packets)))
    turns = player_turns(g)
    per_turn = {k: sum(size[s] for s in seqs) for k, seqs in turns.items() if k != "set-up"}
    return {
        "player_turns": len(per_turn),
        "median_player_turn_bytes": int(statistics.median(per_turn.values())),
        "largest_player_turn_bytes": max(per_turn.values()),
        "median_packet_bytes": int(statistics.median(size.values())),
        "largest_packet_bytes": max(size.values()),
        "game_bytes": sum(size.values()),
    }


def compare_sizes(benchmark: Any, path: Path, seed: int) -> None:
    """Format 3 against format 2 on one game: the game of ``path`` and the same bodies written
    in format 2 (:func:`tests.kit.legacy.in_version_2`: each packet read back as version 2 and
    its signature checked), armoured as each was written (format 2 with ``deflate+dict1``,
    format 3 with ``deflate+dict2``; format 3 with ``deflate+dict1`` printed too). Format 3's
    median and largest player-turn must be at most format 2's."""
    from pbem import audit, sources

    v = audit.verify(sources.load_source(str(path)))
    g = v.email
    assert v.ok and g is not None and g.game is not None
    sides: tuple[Side, ...] = ("german", "allied")
    signers: dict[Side, packets.Signer] = {s: selfplay.player_key(s, seed).sign for s in sides}
    old = legacy.in_version_2(g.packets, signers)
    assert [packets.decode(p.wire).version for p in old] == [2] * len(old)
    found = {
        "v2 deflate+dict1": sizes(g, old, zdict.DICT1),
        "v3 deflate+dict1": sizes(g, g.packets, zdict.DICT1),
        "v3 deflate+dict2": sizes(g, g.packets, zdict.DICT2),
    }
    assert zdict.WRITTEN == zdict.DICT2
    for name, info in found.items():
        print(f"\n{name}: " + ", ".join(f"{k} {v}" for k, v in info.items()), end="")
        key = name.replace(" ", "_").replace("+", "_")
        benchmark.extra_info |= {f"{key}_{k}": v for k, v in info.items()}
    print()
    largest = max(
        player_turns(g).values(), key=lambda seqs: sum(len(g.packets[s].wire) for s in seqs)
    )
    worst = [g.packets[s] for s in largest]
    text = benchmark(lambda: armor_packets(worst))  # the time: a player-turn's armour
    assert len(text) == sum(len(armor.armor(p.wire, armor_headers(p))) + 1 for p in worst) - 1
    v2, v3 = found["v2 deflate+dict1"], found["v3 deflate+dict2"]
    for k in ("median_player_turn_bytes", "largest_player_turn_bytes", "game_bytes"):
        assert v3[k] <= v2[k], (k, v3[k], v2[k])


def test_bench_armoured_size_per_player_turn(
    benchmark: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The benchmark's game: scenario 1, seed 5."""
    _, path = game(str(tmp_path_factory.getbasetemp() / "bench-game"))
    compare_sizes(benchmark, path, 5)


def test_bench_armoured_size_per_player_turn_of_another_scenario(
    benchmark: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The same on a game the dictionary was not looked at with: scenario 7 (the German
    wins on the VP ratio), seed 1."""
    _, path = game(str(tmp_path_factory.getbasetemp() / "bench-game-7"), 7, 1)
    compare_sizes(benchmark, path, 1)
