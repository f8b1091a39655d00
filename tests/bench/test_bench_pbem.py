"""Email-game benchmarks (``.venv/bin/pytest tests/bench/test_bench_pbem.py --benchmark-only``;
the default run skips them, ``--benchmark-skip`` in ``pyproject.toml``).

A complete 18-turn sealed bot game of scenario 1 by email, built once per session inside the
first benchmark that needs it (a few seconds; never in the default run). Targets:

* ``ardennes verify`` of the whole game (armoured text read, every signature, the chain, the
  dice, every command replayed): under 1.0 s;
* armoured size per player-turn (all the mailings of one player-turn: sealed, orders, then a
  reply and a resolution per combat batch; open, one packet), sealed and open: typical
  (median) under 3 KB, largest under 8 KB, recorded as ``extra_info`` and printed (with the
  sizes of single packets);
* importing one packet (``EmailGame.receive`` of the game's last packet on a copy replayed up
  to it): under 100 ms.
"""

from __future__ import annotations

import statistics
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbem import audit, sources
from pbem.core import armor, packets, protocol
from pbem.core.packets import DiceMode, Packet
from tests.pbem.players import board, play
from tests.realmap import needs_real_map

pytestmark = needs_real_map

TURNS = 18


@cache
def full_game(mode: DiceMode = "sealed") -> tuple[protocol.EmailGame, tuple[Packet, ...]]:
    g, sent = play(mode, turns=TURNS)
    assert g.game is not None and g.game.state.phase == "game_over", g.game
    return g, tuple(sent)


def armoured(p: Packet) -> str:
    b = p.body
    return armor.armor(
        packets.encode(p),
        {
            "Game": b.game,
            "Seq": str(b.seq),
            "Side": b.author,
            "Turn": str(b.turn),
            "Phase": b.phase,
            "Kind": b.kind,
        },
    )


def player_turns(g: protocol.EmailGame) -> dict[str, list[int]]:
    """The packets (by ``seq``) of each player-turn, the set-up counted as one, keyed
    ``GT<n> <side>``: where the game stood at each packet's first command."""
    assert g.game is not None
    out: dict[str, list[int]] = {}
    for d, first in zip(g.derivations, g.first_command, strict=True):
        s = g.game.state_at(first)
        key = "set-up" if s.phase.startswith("setup") else f"GT{s.turn} {s.side}"
        out.setdefault(key, []).append(d.seq)
    return out


def test_bench_verify_a_whole_18_turn_sealed_game(benchmark: Any, tmp_path: Path) -> None:
    g, sent = full_game()
    path = tmp_path / "game.txt"
    path.write_text("\n".join(armoured(p) for p in sent))

    def run() -> audit.Verified:
        return audit.verify(sources.load_source(str(path)))

    v = benchmark.pedantic(run, rounds=3, iterations=1)
    assert v.ok, v.line
    assert v.game is not None and g.game is not None
    assert v.game.state_hash() == g.game.state_hash()
    benchmark.extra_info |= {
        "packets": len(sent),
        "commands": len(g.game.history),
        "armoured_bytes": path.stat().st_size,
    }
    print(f"\n{len(sent)} packets, {len(g.game.history)} commands, {path.stat().st_size} bytes")


@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_bench_armoured_size_per_player_turn(benchmark: Any, mode: DiceMode) -> None:
    g, sent = full_game(mode)
    turns = player_turns(g)
    sizes = {k: sum(len(armoured(sent[s])) for s in seqs) for k, seqs in turns.items()}
    per_turn = [v for k, v in sizes.items() if k != "set-up"]
    per_packet = [len(armoured(p)) for p in sent]
    largest = max(sizes, key=lambda k: sizes[k])
    info = {
        "player_turns": len(per_turn),
        "typical_player_turn_bytes": int(statistics.median(per_turn)),
        "largest_player_turn_bytes": max(per_turn),
        "largest_player_turn": largest,
        "setup_bytes": sizes.get("set-up", 0),
        "typical_packet_bytes": int(statistics.median(per_packet)),
        "largest_packet_bytes": max(per_packet),
        "mailings_per_player_turn": round(len(sent[2:]) / max(1, len(per_turn)), 1),
    }
    benchmark.extra_info |= info
    print(f"\n{mode}: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    worst = [sent[s] for s in turns[largest]]
    text = benchmark(lambda: "\n".join(armoured(p) for p in worst))
    assert len(text) >= max(per_turn)


def test_bench_import_one_packet(benchmark: Any) -> None:
    _, sent = full_game()
    last = sent[-1]

    def setup() -> tuple[tuple[protocol.EmailGame], dict[str, Any]]:
        return (protocol.EmailGame.replay(sent[:-1], board),), {}

    def receive(g: protocol.EmailGame) -> protocol.EmailGame:
        g.receive(last)
        return g

    g = benchmark.pedantic(receive, setup=setup, rounds=5, iterations=1)
    assert len(g.packets) == len(sent)
    benchmark.extra_info |= {
        "seq": last.body.seq,
        "kind": last.body.kind,
        "commands": len(last.body.commands),
        "bytes": len(packets.encode(last)),
    }
