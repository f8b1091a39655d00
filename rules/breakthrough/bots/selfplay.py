"""Self-play of *Breakthrough*: a bot on each side plays a whole game, from set-up to verdict.

``play(board, seed) -> Record`` (``board = scenarios.breakthrough.load_board(scenario,
level)``). Everything derives from ``seed`` (bytes):

* dice: :class:`rules.dice.SeededDice` of ``SHA-256(b"bita-selfplay-dice/1" + seed)``, named in
  the record's header, so :meth:`rules.game.Game.replay` replays it alone;
* the bots' tie-breaking: each bot module's ``players(seed)``.

Each side's bot is chosen by its version (:data:`BOTS`; both :data:`DEFAULT`, the planned
bots of :mod:`.planned`), and the record's header names it. The same seed and bots give the
same record, byte for byte. Pure: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Final

from rules.breakthrough.board import Board
from rules.breakthrough.bots import heuristic, planned
from rules.breakthrough.ruleset import Game
from rules.breakthrough.units import Side
from rules.dice import SeededDice
from rules.record import DiceSpec, Player, Record

MAX_COMMANDS: Final = 50_000
"""A safety net: a game of twelve turns is a few thousand commands."""

BOTS: Final = {heuristic.VERSION: heuristic, planned.VERSION: planned}
"""Bot modules by version: ``NAME``, ``VERSION`` and ``players(seed)`` each."""
DEFAULT: Final[Mapping[Side, str]] = {"american": planned.VERSION, "german": planned.VERSION}


def dice_seed(seed: bytes) -> bytes:
    return hashlib.sha256(b"bita-selfplay-dice/1" + seed).digest()


def game(board: Board, seed: bytes, versions: Mapping[Side, str] = DEFAULT) -> Game:
    """The finished game (for its events and states; :func:`play` gives its record)."""
    unknown = sorted(set(versions.values()) - set(BOTS))
    if unknown or set(versions) != {"american", "german"}:
        raise ValueError(f"bot versions {dict(versions)}: known are {sorted(BOTS)} a side")
    ds = dice_seed(seed)
    names: dict[str, Player] = {
        side: Player(
            kind="bot",
            name=BOTS[v].NAME,
            version=BOTS[v].VERSION,
            level=board.setup.level,
        )
        for side, v in versions.items()
    }
    g = Game.new(board, dice=SeededDice(ds), dice_spec=DiceSpec.seeded(ds), players=names)
    bots = {side: BOTS[v].players(seed)[side] for side, v in versions.items()}
    while g.outcome() is None:
        if len(g.history) > MAX_COMMANDS:
            raise RuntimeError(f"self-play passed {MAX_COMMANDS} commands")
        before = len(g.history)
        bots[g.state.side].play_phase(g)
        if len(g.history) == before:
            raise RuntimeError(f"the bot could not end {g.state.phase} (turn {g.state.turn})")
    return g


def play(board: Board, seed: bytes, versions: Mapping[Side, str] = DEFAULT) -> Record:
    """A whole game between the bots, as its record (``meta`` keeps the seed)."""
    return game(board, seed, versions).record(meta={"seed": seed.hex()})
