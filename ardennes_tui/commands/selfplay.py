"""``ardennes selfplay``: the heuristic bots play a game against each other.

``ardennes selfplay --scenario N --seed S [--turns T] -o FILE [--force]``
    Plays scenario N from seed S (dice and the bots' choices derive from it) and writes the
    command log (JSONL, ``docs/selfplay.md``); prints one summary line. An existing FILE is
    never overwritten without ``--force``.
``ardennes selfplay --replay FILE``
    Replays a log and checks the state hash after each command and at the end: exit 0 when it
    matches, 1 naming the first diverging command.
``ardennes selfplay --summary --scenario LIST --seeds LIST [--jobs N] [--games-out FILE]``
    Plays every (scenario, seed) to the end - the same games as ``--scenario N --seed S`` -
    in ``--jobs`` worker processes and prints the balance tables (Markdown): one row per
    scenario, then one row per game, sorted by (scenario, seed), so stdout depends only on the
    games. LISTs are comma-separated items, ``A-B`` an integer range (``1-10``, ``1,7,8``;
    seeds may also be text: ``1-5,alpha``). ``--games-out`` writes one JSON line per game
    (never over an existing file without ``--force``). Progress (one line a game) goes to
    stderr when it is a terminal, or with ``--progress``.

Bad arguments: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import msgspec

from ardennes_tui.cli import UserError
from rules.selfplay import (
    BOTS,
    BotError,
    GameRecord,
    LogError,
    TurnVP,
    encode_log,
    play,
    replay_log,
)
from rules.state import LAST_TURN, Verdict
from scenarios import load_board, scenario_numbers

MAX_LOG_BYTES = 64 << 20
MAX_GAMES: Final = 2000
"""The most games one ``--summary`` run plays (about 3 hours on one core)."""
MAX_JOBS: Final = 64
GT_CHECK: Final = 6
"""The Game-Turn whose tabulation the summary reports (the last one of an immediate win,
AO-16.2)."""

_NUMBER = re.compile(r"[0-9]{1,9}")
_CANONICAL = re.compile(r"0|[1-9][0-9]{0,17}")
"""A range end in ``--seeds``: the decimal text ``play`` is given (``str(n)``)."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "selfplay",
        help="let two bots play a game (or replay and check a self-play log)",
        description="Bot-versus-bot games for testing and balance: writes a replayable "
        "command log; --replay checks one; --summary plays a batch and prints the balance "
        "tables.",
    )
    parser.add_argument(
        "--scenario",
        metavar="N",
        help="scenario 1-10 (with --summary a list: 1,7 or 1-10)",
    )
    parser.add_argument("--seed", metavar="S", help="the game's seed (any text, e.g. 7)")
    parser.add_argument(
        "--turns", type=int, metavar="T", help=f"stop after Game-Turn T (1-{LAST_TURN})"
    )
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="log file to write")
    parser.add_argument(
        "--force", action="store_true", help="overwrite an existing FILE (-o or --games-out)"
    )
    parser.add_argument("--replay", type=Path, metavar="FILE", help="replay and check a log")
    batch = parser.add_argument_group("batch (--summary)")
    batch.add_argument(
        "--summary",
        action="store_true",
        help="play every (scenario, seed) to the end and print the balance tables",
    )
    batch.add_argument(
        "--seeds", metavar="LIST", help="seeds: integer ranges and/or texts, e.g. 1-20,x"
    )
    batch.add_argument(
        "--jobs", type=int, metavar="N", help=f"worker processes (1-{MAX_JOBS}, default 1)"
    )
    batch.add_argument(
        "--games-out", type=Path, metavar="FILE", help="also write one JSON line per game"
    )
    batch.add_argument(
        "--progress", action="store_true", help="a line per game on stderr even in a pipe"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.summary:
        return _summary(args)
    batch_only = [
        name
        for name, value in (
            ("--seeds", args.seeds),
            ("--jobs", args.jobs),
            ("--games-out", args.games_out),
            ("--progress", args.progress or None),
        )
        if value is not None
    ]
    if batch_only:
        raise UserError(f"{', '.join(batch_only)} only with --summary", 2)
    if args.replay is not None:
        if args.output is not None or args.scenario is not None or args.turns is not None:
            raise UserError("--replay takes no --scenario, --turns or -o", 2)
        return _replay(args.replay)
    if args.scenario is None or args.seed is None or args.output is None:
        raise UserError("selfplay needs --scenario N, --seed S and -o FILE (or --replay FILE)", 2)
    scenario = _one_scenario(args.scenario)
    if args.turns is not None and not 1 <= args.turns <= LAST_TURN:
        raise UserError(f"--turns must be 1-{LAST_TURN}, not {args.turns}", 2)
    if not args.seed:
        raise UserError("--seed: empty seed", 2)
    out: Path = args.output
    _check_output(out, args.force)
    record = play(load_board(scenario), args.seed, args.turns)
    _write_atomic(out, encode_log(record), args.force)
    v = record.verdict
    last = record.vp[-1] if record.vp else None
    vp = f"VP {last.german}-{last.allied} (German-Allied)" if last else "no Game-Turn ended"
    what = (
        f"{v.winner or 'draw'} ({v.kind})"
        if v is not None
        else f"stopped after GT{last.turn if last else 0}"
    )
    print(
        f"scenario {record.scenario} seed {record.seed}: {len(record.commands)} commands, "
        f"{what}, {vp}, hash {record.final_hash[:16]} -> {out}"
    )
    return 0


def _one_scenario(text: str) -> int:
    known = scenario_numbers()
    if not _NUMBER.fullmatch(text):
        hint = " (a list needs --summary)" if "," in text or "-" in text else ""
        raise UserError(f"--scenario: {text!r} is not a scenario number{hint}", 2)
    n = int(text)
    if n not in known:
        raise UserError(f"no scenario {n}: choose {known[0]}-{known[-1]}", 2)
    return n


def _check_output(out: Path, force: bool) -> None:
    if out.exists() and not force:
        raise UserError(f"{out} exists: use --force to overwrite it", 2)
    if out.parent and not out.parent.is_dir():
        raise UserError(f"no directory {out.parent}", 2)


def _write_atomic(out: Path, data: bytes, force: bool) -> None:
    """Write ``data`` to a temporary file beside ``out`` and rename it over ``out``."""
    tmp = out.with_name(out.name + ".tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        if not force and out.exists():  # created while the games were played
            raise UserError(f"{out} appeared meanwhile: not overwritten; the data is in {tmp}", 2)
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(f"cannot write {out}: {exc.strerror}", 2) from None


def _replay(path: Path) -> int:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}", 2) from None
    if len(data) > MAX_LOG_BYTES:
        raise UserError(f"{path} is over the {MAX_LOG_BYTES} byte limit", 2)
    try:
        result = replay_log(data, load_board)
    except LogError as exc:
        raise UserError(f"{path}: {exc}", 2) from None
    if result.ok:
        print(f"{path}: {result.message} ({result.final_hash[:16]})")
        return 0
    print(f"{path}: {result.message}", file=sys.stderr)
    return 1


# -- --summary ------------------------------------------------------------------------------------


class GameResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One game of a batch: a line of ``--games-out`` (the log's end line, without commands)."""

    scenario: int
    seed: str
    verdict: Verdict | None
    vp: tuple[TurnVP, ...]
    """The tabulation at the end of each Game-Turn played."""
    commands: int
    hash: str
    """The final state hash (as in the log of ``--scenario N --seed S``)."""


def game_result(record: GameRecord) -> GameResult:
    return GameResult(
        scenario=record.scenario,
        seed=record.seed,
        verdict=record.verdict,
        vp=record.vp,
        commands=len(record.commands),
        hash=record.final_hash,
    )


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
        r = _range(item, "--scenario", _NUMBER)
        if r is None:
            if not _NUMBER.fullmatch(item):
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
    return (0, int(seed), "") if _CANONICAL.fullmatch(seed) else (1, 0, seed)


def parse_seeds(text: str) -> tuple[str, ...]:
    """``--seeds``: integer ranges ``A-B`` and single seeds (any printable text without
    ``,`` or ``-``), each once; sorted by :func:`seed_key`. A seed is the text ``play`` gets:
    ``7`` from ``1-10`` is ``--seed 7``, ``07`` is another game."""
    chosen: set[str] = set()
    for item in _items(text, "--seeds"):
        r = _range(item, "--seeds", _CANONICAL)
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


def _summary(args: argparse.Namespace) -> int:
    conflicts = [
        name
        for name, value in (
            ("-o", args.output),
            ("--replay", args.replay),
            ("--turns", args.turns),
            ("--seed", args.seed),
        )
        if value is not None
    ]
    if conflicts:
        hint = " (use --seeds)" if args.seed is not None else ""
        raise UserError(f"--summary takes no {', '.join(conflicts)}{hint}", 2)
    if args.scenario is None or args.seeds is None:
        raise UserError("--summary needs --scenario LIST and --seeds LIST", 2)
    scenarios = parse_scenarios(args.scenario)
    seeds = parse_seeds(args.seeds)
    games = [(n, s) for n in scenarios for s in seeds]
    if len(games) > MAX_GAMES:
        raise UserError(f"{len(games)} games: at most {MAX_GAMES} a run", 2)
    jobs = 1 if args.jobs is None else args.jobs
    if not 1 <= jobs <= MAX_JOBS:
        raise UserError(f"--jobs must be 1-{MAX_JOBS}, not {jobs}", 2)
    out: Path | None = args.games_out
    if out is not None:
        _check_output(out, args.force)
    progress = args.progress or sys.stderr.isatty()
    results = play_all(games, jobs, _progress_line if progress else None)
    if out is not None:
        data = b"".join(_ENC.encode(r) + b"\n" for r in results)
        _write_atomic(out, data, args.force)
    sys.stdout.write(summary_markdown(results))
    return 0


_ENC: Final = msgspec.json.Encoder(order="deterministic")

Progress = Callable[[int, int, GameResult, float], None]


def _progress_line(done: int, total: int, r: GameResult, seconds: float) -> None:
    last = r.vp[-1]
    print(
        f"[{done}/{total}] scenario {r.scenario} seed {r.seed}: {_verdict_text(r.verdict)}, "
        f"VP {last.german}-{last.allied} at GT{last.turn}, {r.commands} commands, "
        f"{seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def play_one(game: tuple[int, str]) -> tuple[GameResult, float]:
    """Play one game of a batch (in a worker process): its result and the seconds it took."""
    t0 = time.perf_counter()
    record = play(load_board(game[0]), game[1])
    return game_result(record), time.perf_counter() - t0


def _ignore_sigint() -> None:  # workers: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_all(
    games: Sequence[tuple[int, str]], jobs: int, progress: Progress | None = None
) -> list[GameResult]:
    """Play ``games`` (``jobs`` at a time in worker processes when ``jobs`` > 1) and return
    their results sorted by (scenario, seed) whatever order they finished in."""
    results: list[GameResult] = []
    t0 = time.perf_counter()

    def done(r: GameResult, seconds: float) -> None:
        if r.verdict is None or not r.vp:
            raise UserError(f"scenario {r.scenario} seed {r.seed}: no verdict", 1)
        results.append(r)
        if progress is not None:
            progress(len(results), len(games), r, seconds)

    try:
        if jobs == 1 or len(games) < 2:
            for g in games:
                done(*play_one(g))
        else:
            pool = multiprocessing.get_context("spawn").Pool(
                min(jobs, len(games)), initializer=_ignore_sigint
            )
            try:
                for r in pool.imap_unordered(play_one, games, chunksize=1):
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
        if _CANONICAL.fullmatch(s):
            if run and int(s) != run[-1] + 1:
                flush()
            run.append(int(s))
        else:
            flush()
            parts.append(s)
    flush()
    return ",".join(parts)


def summary_markdown(results: Sequence[GameResult]) -> str:
    """The balance tables of ``results`` (sorted by (scenario, seed)): deterministic text."""
    scenarios = sorted({r.scenario for r in results})
    seeds = sorted({r.seed for r in results}, key=seed_key)
    by_scenario = [[r for r in results if r.scenario == n] for n in scenarios]
    return (
        f"## Self-play summary (bots {BOTS})\n\n"
        f"{_games(len(results))}: `ardennes selfplay --summary --scenario "
        f"{','.join(map(str, scenarios))} --seeds {compact_seeds(seeds)}`.\n"
        f'"end" is the last tabulation (GT{LAST_TURN}, or earlier for an immediate win); kills '
        f"= Allied units lost; best exits = the most exit VP held at any tabulation; German VP "
        f'GT{GT_CHECK} counts the games that reached it ("of k" when not all did).\n\n'
        + _table(SUMMARY_COLUMNS, [summary_row(g) for g in by_scenario])
        + "\n## Every game\n\n"
        + _table(GAME_COLUMNS, [game_row(r) for r in results])
    )
