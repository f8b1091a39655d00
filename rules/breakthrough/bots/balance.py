"""The balance reading of self-play (issue 24): verdicts against 10.2c's levels and each side's
losses against history (pure; ``python -m tests.kit.bita_balance`` prints the table).

One :class:`Row` a game: the German score and the level it reaches (BA-10.2c), and each side's
strength lost (every point that entered the game, replacements included, less what is on the
map and, for the German, what exited: 10.1f's count) in strength points and in men, at the
men a point stands for on 16 December (:data:`~rules.breakthrough.calibration.MEN_PER_POINT`,
Cole p. 650). History: :data:`~rules.breakthrough.calibration.TARGET_POINTS`, about 30,000
American and 33,000 German casualties from 16 to 27 December (the notes, "Calibration (G3)").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from rules.breakthrough.board import Board
from rules.breakthrough.bots import selfplay
from rules.breakthrough.calibration import MEN_PER_POINT, TARGET_POINTS
from rules.breakthrough.sequence import strength_left
from rules.breakthrough.state import SIDES, State


class Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One game: its seed, the German score and level, the points each side lost."""

    seed: int
    score: int
    level: str
    american_lost: int
    german_lost: int
    exited: int
    towns: int

    @property
    def american_men(self) -> int:
        return self.american_lost * MEN_PER_POINT["american"]

    @property
    def german_men(self) -> int:
        return self.german_lost * MEN_PER_POINT["german"]


def row(seed: int, board: Board, state: State) -> Row:
    """The balance figures of a finished game."""
    if state.score is None or state.result is None:
        raise ValueError("the game is not over")
    lost = [state.committed[SIDES.index(s)] - strength_left(state, s) for s in SIDES]
    towns = sum(1 for h in board.towns if h in set(state.german_hexes))
    return Row(
        seed, state.score.total, state.score.level, lost[0], lost[1], len(state.exited), towns
    )


def play(board: Board, seeds: Iterable[int]) -> list[Row]:
    """Self-play of ``board`` for each seed (its decimal text as the seed bytes)."""
    return [row(s, board, selfplay.game(board, str(s).encode()).state) for s in seeds]


def table(rows: Sequence[Row]) -> list[str]:
    """The rows as a Markdown table, with the mean losses against history."""
    out = [
        "| seed | German score | level (10.2c) | towns held | exits | US lost (pts / men) "
        "| German lost (pts / men) |",
        "|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r.seed} | {r.score} | {r.level} | {r.towns} | {r.exited} | "
            f"{r.american_lost} / {r.american_men:,} | {r.german_lost} / {r.german_men:,} |"
        )
    if rows:
        n = len(rows)
        us = sum(r.american_lost for r in rows) // n
        de = sum(r.german_lost for r in rows) // n
        out.append(
            f"| mean | {sum(r.score for r in rows) // n} | | | | "
            f"{us} / {us * MEN_PER_POINT['american']:,} | {de} / {de * MEN_PER_POINT['german']:,} |"
        )
        hist_us, hist_de = TARGET_POINTS["american"], TARGET_POINTS["german"]
        out.append(
            f"| history | | | | | {hist_us} / {hist_us * MEN_PER_POINT['american']:,} | "
            f"{hist_de} / {hist_de * MEN_PER_POINT['german']:,} |"
        )
        levels: dict[str, int] = {}
        for r in rows:
            levels[r.level] = levels.get(r.level, 0) + 1
        out.append("")
        out.append("Levels: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())))
    return out
