"""*Breakthrough*'s record self-play for ``ardennes selfplay --ruleset breakthrough``: a bot on
each side (:func:`rules.breakthrough.bots.selfplay.play`) from set-up to verdict, and the
replay of such a record (``--replay``) on the board its header's set-up names.

The seed is the text given (``--seed 7``: the bytes ``b"7"``), so the game is the one
``rules.breakthrough.bots.selfplay.play(load_board(scenario, level), b"7")`` plays.
"""

from __future__ import annotations

from typing import Final

from rules.breakthrough import Game
from rules.breakthrough.board import Setup
from rules.breakthrough.bots.selfplay import play
from rules.game import Replayed
from rules.record import Record, RecordError
from scenarios.breakthrough.board import load_board

__all__ = ["LEVELS", "record_game", "replay", "summary"]

LEVELS: Final = (1, 2, 3, 4)
"""BA-2.1b: 3 the rules as written, 4 easiest for the German, 1 hardest."""


def record_game(scenario: int, seed: str, level: int = 3) -> Record:
    """The self-play game of ``scenario`` (1-3, BA-2.1g) at ``level`` from ``seed``, as its
    record; :class:`ValueError` (one sentence) for a scenario or level that cannot be played."""
    return play(load_board(scenario, level), seed.encode())


def summary(record: Record) -> str:
    """``scenario 1 seed 7 level 3: 1627 commands, american (american strategic), German
    score 90, hash c069c33a...`` (the caller adds where it went)."""
    v = record.footer.verdict if record.footer is not None else None
    level = record.header.level
    what = f"{v.winner or 'draw'} ({v.level or v.kind})" if v is not None else "no verdict"
    score = f", German score {v.score}" if v is not None and v.kind == "points" else ""
    seed = record.header.meta.get("seed", "")
    text = bytes.fromhex(seed).decode(errors="replace") if seed else "?"
    lvl = level.level if isinstance(level, Setup) else "?"
    final = record.footer.hash[:16] if record.footer is not None else "?"
    return (
        f"scenario {record.header.scenario} seed {text} level {lvl}: {len(record.lines)} "
        f"commands, {what}{score}, hash {final}"
    )


def replay(record: Record) -> Replayed[Game]:
    """Replay a *Breakthrough* record on the board its header's set-up names (scenario, level,
    historical option, solitaire or two-player), checking every hash; :class:`RecordError`
    for a header without a set-up, or one that names a scenario that cannot be played."""
    setup = record.header.level
    if not isinstance(setup, Setup):
        raise RecordError("a Breakthrough record names its set-up (scenario, level, options)")
    try:
        board = load_board(setup.scenario, setup.level, setup.historical, setup.two_player)
    except ValueError as exc:
        raise RecordError(f"the record's set-up: {exc}") from None
    return Game.replay(record, board)
