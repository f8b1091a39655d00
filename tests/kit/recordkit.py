"""Games to watch and audit in the tests: a self-play record and a sealed game by email of
scenario 1, Game-Turn 1 (both deterministic: the same bytes every run), written to files."""

from __future__ import annotations

import functools
from pathlib import Path

import rules.ao
import scenarios
from ardennes_tui.games import saves
from pbem import selfplay as email_selfplay
from rules.ao.bots import selfplay


@functools.cache
def record_bytes(turns: int = 1, seed: str = "7") -> bytes:
    """The record of two bots playing scenario 1 to the end of Game-Turn ``turns``."""
    return selfplay.encode(selfplay.play(scenarios.load_board(1), seed, turns=turns))


@functools.cache
def packets_text(turns: int = 1, seed: str = "7") -> str:
    """Every packet (armoured) of two bots playing scenario 1 by email with sealed dice."""
    return email_selfplay.play(1, seed, "sealed", turns=turns).text()


def record_file(folder: Path, turns: int = 1) -> Path:
    path = folder / "selfplay.jsonl"
    path.write_bytes(record_bytes(turns))
    return path


def packets_file(folder: Path, turns: int = 1) -> Path:
    path = folder / "packets.txt"
    path.write_text(packets_text(turns), encoding="ascii")
    return path


def record_game(turns: int = 1) -> rules.ao.Game:
    """The game of :func:`record_bytes`, replayed."""
    game, _ = saves.replay_data(record_bytes(turns), "selfplay")
    return game
