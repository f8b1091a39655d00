"""Self-play of *Breakthrough*: a bot on each side plays a whole game, from set-up to verdict.

``play(board, seed) -> Record`` (``board = scenarios.breakthrough.load_board(scenario,
level)``). Everything derives from ``seed`` (bytes):

* dice: :class:`rules.dice.SeededDice` of ``SHA-256(b"bita-selfplay-dice/1" + seed)``, named in
  the record's header, so :meth:`rules.game.Game.replay` replays it alone;
* the bots' tie-breaking: :func:`.heuristic.players` of the seed.

The same seed gives the same record, byte for byte. Pure: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
from typing import Final

from rules.breakthrough.board import Board
from rules.breakthrough.bots import heuristic, planned
from rules.breakthrough.ruleset import Game
from rules.dice import SeededDice
from rules.record import DiceSpec, Player, Record

MAX_COMMANDS: Final = 50_000
"""A safety net: a game of twelve turns is a few thousand commands."""


def dice_seed(seed: bytes) -> bytes:
    return hashlib.sha256(b"bita-selfplay-dice/1" + seed).digest()


def game(board: Board, seed: bytes) -> Game:
    """The finished game (for its events and states; :func:`play` gives its record)."""
    ds = dice_seed(seed)
    bot = Player(kind="bot", name=planned.NAME, version=planned.VERSION, level=board.setup.level)
    g = Game.new(
        board,
        dice=SeededDice(ds),
        dice_spec=DiceSpec.seeded(ds),
        players={"american": bot, "german": bot},
    )
    bots = planned.players(seed)
    while g.outcome() is None:
        if len(g.history) > MAX_COMMANDS:
            raise RuntimeError(f"self-play passed {MAX_COMMANDS} commands")
        before = len(g.history)
        bots[g.state.side].play_phase(g)
        if len(g.history) == before:
            raise RuntimeError(f"the bot could not end {g.state.phase} (turn {g.state.turn})")
    return g


def play(board: Board, seed: bytes) -> Record:
    """A whole game between the bots, as its record (``meta`` keeps the seed)."""
    return game(board, seed).record(meta={"seed": seed.hex()})
