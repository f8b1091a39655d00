"""``ardennes selfplay --summary``: a batch of bot games and its balance tables.

The lists of ``--scenario`` and ``--seeds`` (:func:`parse_scenarios`, :func:`parse_seeds`),
the games played in worker processes (:func:`play_all`, one :class:`GameResult` each) and the
Markdown tables (:func:`summary_markdown`), whose text depends only on the games. The command
itself (its options and files) is :mod:`ardennes_tui.cli.selfplay`.
"""

from __future__ import annotations

import functools
import multiprocessing
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

from ardennes_tui.errors import UserError
from rules.ao import LAST_TURN, Side, Verdict, levels
from rules.ao.bots.registry import make_bot
from rules.ao.bots.rng import BotRng
from rules.ao.bots.selfplay import SELFPLAY_BOT, BotError, SelfPlayGame, TurnVP, play
from scenarios import load_board, scenario_numbers, scenario_specs

MAX_GAMES: Final = 2000
"""The most games one ``--summary`` run plays (about 3 hours on one core)."""
GT_CHECK: Final = 6
"""The Game-Turn whose tabulation the summary reports (the last one of an immediate win,
AO-16.2)."""

NUMBER = re.compile(r"[0-9]{1,9}")
"""A scenario number in ``--scenario``."""
CANONICAL = re.compile(r"0|[1-9][0-9]{0,17}")
"""A range end in ``--seeds``: the decimal text ``play`` is given (``str(n)``)."""


class GameResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One game of a batch: a line of ``--games-out`` (the log's end line, without commands;
    ``level`` and ``computer`` only for a batch at a level of play)."""

    scenario: int
    seed: str
    verdict: Verdict | None
    vp: tuple[TurnVP, ...]
    """The tabulation at the end of each Game-Turn played."""
    commands: int
    hash: str
    """The final state hash (as in the log of ``--scenario N --seed S``)."""
    level: int | None = None
    computer: Side | None = None


def game_summary(record: SelfPlayGame) -> GameResult:
    lv = record.record.header.level
    return GameResult(
        scenario=record.scenario,
        seed=record.seed,
        verdict=record.verdict,
        vp=record.vp,
        commands=len(record.commands),
        hash=record.final_hash,
        level=lv.number if lv is not None else None,
        computer=lv.computer if lv is not None else None,
    )


AtLevel = tuple[int, Side] | None
"""A batch's level of play and the side the computer plays in it (None: no level)."""


def level_of(scenario: int, at: AtLevel) -> levels.Level | None:
    """The levers of ``at`` in ``scenario`` (:func:`rules.ao.levels.level_for`)."""
    if at is None:
        return None
    return levels.level_for(scenario_specs()[scenario], at[0], at[1])


def _items(text: str, option: str) -> list[str]:
    if not text.strip():
        raise UserError(f"{option}: empty list", 2)
    items = [x.strip() for x in text.split(",")]
    if "" in items:
        raise UserError(f"{option}: empty item in {text!r}", 2)
    return items


def _range(item: str, option: str, end: re.Pattern[str]) -> range | None:
    """``A-B`` as ``range(A, B + 1)``; None when ``item`` has no ``-``."""
    if "-" not in item:
        return None
    lo, _, hi = item.partition("-")
    if not (end.fullmatch(lo) and end.fullmatch(hi)):
        raise UserError(f"{option}: bad range {item!r} (A-B: integers, no leading zero, A <= B)", 2)
    a, b = int(lo), int(hi)
    if a > b:
        raise UserError(f"{option}: bad range {item!r} ({a} > {b})", 2)
    return range(a, b + 1)


def parse_scenarios(text: str) -> tuple[int, ...]:
    """``--scenario`` of ``--summary``: numbers and ranges, e.g. ``1,7`` or ``1-10``
    (ascending, each once)."""
    known = scenario_numbers()
    chosen: set[int] = set()
    for item in _items(text, "--scenario"):
        r = _range(item, "--scenario", NUMBER)
        if r is None:
            if not NUMBER.fullmatch(item):
                raise UserError(f"--scenario: {item!r} is not a scenario number", 2)
            r = range(int(item), int(item) + 1)
        for n in r:  # stops at the first unknown number, however long the range
            if n not in known:
                raise UserError(f"no scenario {n}: choose {known[0]}-{known[-1]}", 2)
            if n in chosen:
                raise UserError(f"--scenario: scenario {n} given twice", 2)
            chosen.add(n)
    return tuple(sorted(chosen))


def seed_key(seed: str) -> tuple[int, int, str]:
    """Integer seeds (decimal, no leading zero) in numeric order, then text seeds."""
    return (0, int(seed), "") if CANONICAL.fullmatch(seed) else (1, 0, seed)


def parse_seeds(text: str) -> tuple[str, ...]:
    """``--seeds``: integer ranges ``A-B`` and single seeds (any printable text without
    ``,`` or ``-``), each once; sorted by :func:`seed_key`. A seed is the text ``play`` gets:
    ``7`` from ``1-10`` is ``--seed 7``, ``07`` is another game."""
    chosen: set[str] = set()
    for item in _items(text, "--seeds"):
        r = _range(item, "--seeds", CANONICAL)
        if r is None:
            if not item.isprintable():
                raise UserError(f"--seeds: {item!r} has unprintable characters", 2)
            seeds: Sequence[str] = (item,)
        elif len(r) > MAX_GAMES:
            raise UserError(f"--seeds: {item} is over {MAX_GAMES} seeds", 2)
        else:
            seeds = [str(n) for n in r]
        for s in seeds:
            if s in chosen:
                raise UserError(f"--seeds: seed {s} given twice", 2)
            chosen.add(s)
        if len(chosen) > MAX_GAMES:
            raise UserError(f"--seeds: over {MAX_GAMES} seeds", 2)
    return tuple(sorted(chosen, key=seed_key))


Progress = Callable[[int, int, GameResult, float], None]


def progress_line(done: int, total: int, r: GameResult, seconds: float) -> None:
    last = r.vp[-1]
    print(
        f"[{done}/{total}] scenario {r.scenario} seed {r.seed}: {_verdict_text(r.verdict)}, "
        f"VP {last.german}-{last.allied} at GT{last.turn}, {r.commands} commands, "
        f"{seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def play_one(
    game: tuple[int, str, AtLevel], german: str = SELFPLAY_BOT, allied: str = SELFPLAY_BOT
) -> tuple[GameResult, float]:
    """Play one game of a batch (in a worker process) with the bots ``german`` and ``allied``
    (:data:`rules.ao.bots.registry.KINDS`): its result and the seconds it took."""
    t0 = time.perf_counter()
    record = play(
        load_board(game[0]),
        game[1],
        level=level_of(game[0], game[2]),
        german=german,
        allied=allied,
    )
    return game_summary(record), time.perf_counter() - t0


def bots_label(german: str = SELFPLAY_BOT, allied: str = SELFPLAY_BOT) -> str:
    """The bots of a batch with their versions: ``heuristic/4`` when both sides play the same
    bot, else ``German planner/1, Allied heuristic/4``."""

    def label(kind: str, side: Side) -> str:
        bot = make_bot(kind, side, 3, BotRng(b""))
        return f"{bot.name}/{bot.version}"

    g, a = label(german, "german"), label(allied, "allied")
    return g if g == a else f"German {g}, Allied {a}"


def _ignore_sigint() -> None:  # workers: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_all(
    games: Sequence[tuple[int, str]],
    jobs: int,
    progress: Progress | None = None,
    at: AtLevel = None,
    german: str = SELFPLAY_BOT,
    allied: str = SELFPLAY_BOT,
) -> list[GameResult]:
    """Play ``games`` (``jobs`` at a time in worker processes when ``jobs`` > 1; at level
    ``at``) with the bots ``german`` and ``allied`` and return their results sorted by
    (scenario, seed) whatever order they finished in."""
    one = functools.partial(play_one, german=german, allied=allied)
    results: list[GameResult] = []
    batch = [(n, s, at) for n, s in games]
    t0 = time.perf_counter()

    def done(r: GameResult, seconds: float) -> None:
        if r.verdict is None or not r.vp:
            raise UserError(f"scenario {r.scenario} seed {r.seed}: no verdict", 1)
        results.append(r)
        if progress is not None:
            progress(len(results), len(games), r, seconds)

    try:
        if jobs == 1 or len(games) < 2:
            for g in batch:
                done(*one(g))
        else:
            pool = multiprocessing.get_context("spawn").Pool(
                min(jobs, len(games)), initializer=_ignore_sigint
            )
            try:
                for r in pool.imap_unordered(one, batch, chunksize=1):
                    done(*r)
                pool.close()
            except BaseException:
                pool.terminate()  # Ctrl-C or a failed game: stop the other games now
                raise
            finally:
                pool.join()
    except BotError as exc:
        raise UserError(f"a bot failed: {exc}", 1) from None
    except KeyboardInterrupt:
        raise UserError(f"interrupted after {len(results)} of {len(games)} games", 130) from None
    if progress is not None:
        print(
            f"{_games(len(games))} in {time.perf_counter() - t0:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    return sorted(results, key=lambda r: (r.scenario, seed_key(r.seed)))


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def mean(values: Sequence[int]) -> str:
    """The mean with one decimal, rounded half up, in integer arithmetic."""
    n, total = len(values), sum(values)
    tenths = (20 * abs(total) + n) // (2 * n)
    sign = "-" if total < 0 and tenths else ""
    return f"{sign}{tenths // 10}.{tenths % 10}"


def _verdict_text(v: Verdict | None) -> str:
    return "-" if v is None else f"{v.winner or 'draw'} ({v.kind})"


def _at(r: GameResult, turn: int) -> TurnVP | None:
    return next((v for v in r.vp if v.turn == turn), None)


SUMMARY_COLUMNS: Final = (
    "scenario",
    "games",
    "German / draw / Allied",
    "immediate German",
    "German VP end mean (min-max)",
    "kills end mean",
    "exit VP end mean",
    "Allied VP end mean",
    f"German VP GT{GT_CHECK} mean (max)",
    "best exits",
    "commands mean",
)
GAME_COLUMNS: Final = (
    "scenario",
    "seed",
    "verdict",
    "end GT",
    "German VP",
    "Allied VP",
    "kills",
    "exit VP",
    f"German VP GT{GT_CHECK}",
    "best exits",
    "commands",
)


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |\n"


def _table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    return _row(columns) + "|" + "---|" * len(columns) + "\n" + "".join(_row(r) for r in rows)


def summary_row(games: Sequence[GameResult]) -> list[object]:
    """The summary cells of one scenario's games (each with a verdict and a tabulation)."""
    ends = [r.vp[-1] for r in games]
    winners = [r.verdict.winner if r.verdict else None for r in games]
    immediate = sum(
        1 for r in games if r.verdict and r.verdict.kind == "immediate" and r.verdict.winner
    )
    german = [e.german for e in ends]
    gt = [v.german for r in games if (v := _at(r, GT_CHECK)) is not None]
    if not gt:
        gt_cell = "-"
    else:
        gt_cell = f"{mean(gt)} ({max(gt)})"
        if len(gt) < len(games):
            gt_cell += f" of {len(gt)}"
    return [
        games[0].scenario,
        len(games),
        f"{winners.count('german')} / {winners.count(None)} / {winners.count('allied')}",
        immediate,
        f"{mean(german)} ({min(german)}-{max(german)})",
        mean([e.allied_lost for e in ends]),
        mean([e.exit_vp for e in ends]),
        mean([e.allied for e in ends]),
        gt_cell,
        max(v.exit_vp for r in games for v in r.vp),
        mean([r.commands for r in games]),
    ]


def game_row(r: GameResult) -> list[object]:
    end = r.vp[-1]
    gt = _at(r, GT_CHECK)
    return [
        r.scenario,
        r.seed,
        _verdict_text(r.verdict),
        end.turn,
        end.german,
        end.allied,
        end.allied_lost,
        end.exit_vp,
        "-" if gt is None else gt.german,
        max(v.exit_vp for v in r.vp),
        r.commands,
    ]


def compact_seeds(seeds: Sequence[str]) -> str:
    """``seeds`` (sorted by :func:`seed_key`) as a ``--seeds`` list: runs of integers as
    ranges (``1-20,alpha``)."""
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run.clear()

    for s in seeds:
        if CANONICAL.fullmatch(s):
            if run and int(s) != run[-1] + 1:
                flush()
            run.append(int(s))
        else:
            flush()
            parts.append(s)
    flush()
    return ",".join(parts)


def _level_lines(results: Sequence[GameResult], scenarios: Sequence[int]) -> tuple[str, str, str]:
    """The title's words, the command's options and a line of the levers per scenario for a
    batch at a level ("" three times for a batch at no level)."""
    first = results[0] if results else None
    if first is None or first.level is None or first.computer is None:
        return "", "", ""
    at = (first.level, first.computer)
    levers = "; ".join(
        f"scenario {n}: {levels.levers(lv, scenario_specs()[n])}"
        for n in scenarios
        if (lv := level_of(n, at)) is not None
    )
    return (
        f", level {at[0]}, computer {at[1].capitalize()}",
        f" --level {at[0]} --computer {at[1]}",
        f"Levers: {levers}.\n",
    )


def summary_markdown(
    results: Sequence[GameResult], german: str = SELFPLAY_BOT, allied: str = SELFPLAY_BOT
) -> str:
    """The balance tables of ``results`` (sorted by (scenario, seed)), played by the bots
    ``german`` and ``allied``: deterministic text."""
    scenarios = sorted({r.scenario for r in results})
    seeds = sorted({r.seed for r in results}, key=seed_key)
    by_scenario = [[r for r in results if r.scenario == n] for n in scenarios]
    title, options, levers = _level_lines(results, scenarios)
    kinds = "".join(
        f" --{side} {kind}"
        for side, kind in (("german", german), ("allied", allied))
        if kind != SELFPLAY_BOT
    )
    return (
        f"## Self-play summary (bots {bots_label(german, allied)}{title})\n\n"
        f"{_games(len(results))}: `ardennes selfplay --summary --scenario "
        f"{','.join(map(str, scenarios))} --seeds {compact_seeds(seeds)}{options}{kinds}`.\n"
        + levers
        + f'"end" is the last tabulation (GT{LAST_TURN}, or earlier for an immediate win); kills '
        f"= Allied units lost; best exits = the most exit VP held at any tabulation; German VP "
        f'GT{GT_CHECK} counts the games that reached it ("of k" when not all did).\n\n'
        + _table(SUMMARY_COLUMNS, [summary_row(g) for g in by_scenario])
        + "\n## Every game\n\n"
        + _table(GAME_COLUMNS, [game_row(r) for r in results])
    )
