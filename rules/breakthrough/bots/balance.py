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

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from rules.breakthrough.board import Board
from rules.breakthrough.bots import selfplay
from rules.breakthrough.calibration import MEN_PER_POINT, TARGET_POINTS
from rules.breakthrough.ruleset import Game
from rules.breakthrough.sequence import strength_left
from rules.breakthrough.state import SIDES, CombatResolved, State
from rules.breakthrough.units import Side


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


class Census(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The combats one side attacked in over a game, for the loss model's check (G3): their
    number, the attackers' unmodified strength and the odds (hundredths, capped at 8.3's 6:1)
    summed, and the points each side lost in them (artillery losses included)."""

    side: Side
    combats: int
    strength: int
    odds: int
    attacker_lost: int
    defender_lost: int


def census(game: Game) -> tuple[Census, Census]:
    """The American's and the German's combats of a finished game (from its events; the
    attackers' strength as it stood before the Combat Phase that resolved them)."""
    sums = {s: [0, 0, 0, 0, 0] for s in SIDES}
    for i, step in enumerate(game.history):
        before = {u.id: u.strength for u in game.state_at(i).units}
        for e in step.events:
            if not isinstance(e, CombatResolved) or e.report.odds is None:
                continue
            r, odds = e.report, e.report.odds
            side: Side = "german" if r.attackers[0].startswith("de-") else "american"
            got = sums[side]
            got[0] += 1
            got[1] += sum(before.get(a, 0) for a in r.attackers)
            got[2] += min(odds.ratio, MAX_ODDS)
            got[3] += r.attacker_loss
            got[4] += r.defender_loss
    us, de = (Census(s, *sums[s]) for s in SIDES)
    return us, de


MAX_ODDS = 600
"""8.3's cap on the odds the defender's loss reads (``losses``)."""


def play(board: Board, seeds: Iterable[int]) -> list[Row]:
    """Self-play of ``board`` for each seed (its decimal text as the seed bytes)."""
    return [row(s, board, selfplay.game(board, str(s).encode()).state) for s in seeds]


class Played(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One game's :class:`Row` and each side's :class:`Census`."""

    row: Row
    american: Census
    german: Census


def play_with_census(
    board: Board, seeds: Iterable[int], versions: Mapping[Side, str] = selfplay.DEFAULT
) -> list[Played]:
    """:func:`play`, with each game's :func:`census`; ``versions``: each side's bot."""
    out = []
    for s in seeds:
        g = selfplay.game(board, str(s).encode(), versions)
        out.append(Played(row(s, board, g.state), *census(g)))
    return out


def census_table(games: Sequence[Played]) -> list[str]:
    """Per side, the mean over the games of its combats and what they cost, and the share of
    each side's whole loss that combat explains (the rest: air strikes, surrenders, the
    supply's and the retreats' extra losses)."""
    n = max(len(games), 1)
    out = [
        "| attacker | combats a game | mean attacking strength | mean odds (capped 6:1) "
        "| attacker lost a combat | defender lost a combat |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for side in SIDES:
        cs = [g.american if side == "american" else g.german for g in games]
        combats = sum(c.combats for c in cs)
        per = max(combats, 1)
        out.append(
            f"| {side} | {combats / n:.0f} | {sum(c.strength for c in cs) / per:.0f} | "
            f"{sum(c.odds for c in cs) / per / 100:.2f} | "
            f"{sum(c.attacker_lost for c in cs) / per:.2f} | "
            f"{sum(c.defender_lost for c in cs) / per:.2f} |"
        )
    us_in = sum(g.american.attacker_lost + g.german.defender_lost for g in games) / n
    de_in = sum(g.german.attacker_lost + g.american.defender_lost for g in games) / n
    us_all = sum(g.row.american_lost for g in games) / n
    de_all = sum(g.row.german_lost for g in games) / n
    out.append("")
    out.append(
        f"Lost in combat a game: American {us_in:.0f} of {us_all:.0f}, "
        f"German {de_in:.0f} of {de_all:.0f} points."
    )
    return out


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
