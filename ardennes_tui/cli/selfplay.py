"""``ardennes selfplay``: the heuristic bots play a game against each other.

``ardennes selfplay --scenario N --seed S [--turns T] -o FILE [--force]``
    Plays scenario N from seed S (dice and the bots' choices derive from it) and writes the
    game record (``rules.record``, ``docs/engine.md``); prints one summary line. An existing FILE is
    never overwritten without ``--force``.
``ardennes selfplay --scenario N --seed S --dice sealed|open|local [--turns T] -o FILE``
    The same by email (:mod:`pbem.selfplay`): two players, each with his own key and store
    (derived from the seed), exchange only armoured text; FILE holds every packet in order,
    armoured, for ``ardennes verify FILE`` and ``ardennes audit FILE``. Same seed, same bytes.
``--german BOT`` / ``--allied BOT``
    Which bot plays each side (``heuristic``, the default, ``planner`` or ``planner-hist``,
    :mod:`rules.ao.bots.registry`); the record's header names each side's bot and version. Not
    with ``--dice`` (the email game plays the heuristic bots) or ``--replay``.
``--level L --computer SIDE`` (with either of the above, or ``--summary``)
    The game at level of play L (1-4, :mod:`rules.ao.levels`), the bot of SIDE playing the
    computer (at level L) and the other the human (at level 3): the board set up for the
    level, the record's header naming it (by email: not offered, an email game has no levels).
``ardennes selfplay --ruleset breakthrough --scenario 1-3 --seed S [--level L] -o FILE``
    *Breakthrough in the Ardennes* (issue 24): a bot on each side plays the whole scenario
    (1 First Seven Days, 2 Last Seven Days, 3 Twelve Days) at BA-2.1b's level L (default 3,
    the rules as written) and writes its record
    (:mod:`ardennes_tui.rulesets.breakthrough.selfplay`); with ``--dice`` it plays by email as
    above (the rules as written, two players).
``ardennes selfplay --replay FILE``
    Replays a record of the AO or of *Breakthrough* (its header names its ruleset and, for
    *Breakthrough*, its set-up) and checks the state hash after each command and at the end:
    exit 0 when every one matches, 1 naming the first diverging command.
``ardennes selfplay --summary --scenario LIST --seeds LIST [--jobs N] [--games-out FILE]``
    Plays every (scenario, seed) to the end - the same games as ``--scenario N --seed S`` -
    in ``--jobs`` worker processes and prints the balance tables (Markdown): one row per
    scenario, then one row per game, sorted by (scenario, seed), so stdout depends only on the
    games. LISTs are comma-separated items, ``A-B`` an integer range (``1-10``, ``1,7,8``;
    seeds may also be text: ``1-5,alpha``). ``--games-out`` writes one JSON line per game
    (never over an existing file without ``--force``). Progress (one line a game) goes to
    stderr when it is a terminal, or with ``--progress``.

The batch (lists, games, tables) is :mod:`ardennes_tui.cli.selfplay_summary`. Bad arguments:
one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Final

import msgspec

import rules.ao
from ardennes_tui.cli.inputs import read_input
from ardennes_tui.cli.ruleset_option import add_ruleset_option
from ardennes_tui.cli.selfplay_summary import (
    MAX_GAMES,
    NUMBER,
    AtLevel,
    level_of,
    parse_scenarios,
    parse_seeds,
    play_all,
    progress_line,
    summary_markdown,
)
from ardennes_tui.errors import UserError
from ardennes_tui.rulesets.breakthrough import selfplay as bita_selfplay
from pbem import kits
from pbem import selfplay as email_selfplay
from pbem.core.errors import PbemError
from pbem.core.packets import DEFAULT_RULESET, DiceMode
from rules import registry
from rules.ao import LAST_TURN
from rules.ao.bots.registry import kind_names
from rules.ao.bots.selfplay import SELFPLAY_BOT, encode, play
from rules.game import Replayed
from scenarios import load_board, scenario_numbers

MAX_LOG_BYTES = rules.record.MAX_RECORD_BYTES
MAX_JOBS: Final = 64
DICE_MODES: Final = ("sealed", "open", "local")
BREAKTHROUGH: Final = "breakthrough"


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "selfplay",
        help="let two bots play a game (or replay and check a game record)",
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
    parser.add_argument(
        "--dice",
        choices=DICE_MODES,
        help="play by email with these dice: two players, keys and stores, armoured text only; "
        "-o FILE gets every packet (check it with ardennes verify/audit)",
    )
    add_ruleset_option(parser, "the game (by email with --dice; a record: the AO or breakthrough)")
    for side in ("german", "allied"):
        parser.add_argument(
            f"--{side}",
            choices=kind_names(),
            metavar="BOT",
            help=f"the {side.capitalize()} bot: {', '.join(kind_names())} (default heuristic)",
        )
    parser.add_argument(
        "--level",
        type=int,
        choices=rules.ao.levels.NUMBERS,
        help="play at this level of play (3: the rules as written; 4 helps the human's side, "
        "2 and 1 the computer's): needs --computer; Breakthrough: BA-2.1b's level, alone",
    )
    parser.add_argument(
        "--computer",
        choices=("german", "allied"),
        help="with --level: the side whose bot plays the computer",
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


def _given(args: argparse.Namespace, **options: str) -> list[str]:
    """The options (``dest="--flag"``, in that order) given on the command line: a value (even
    0), or a flag set."""
    given = [(flag, getattr(args, dest)) for dest, flag in options.items()]
    return [flag for flag, value in given if value is not None and value is not False]


def _at_level(args: argparse.Namespace) -> AtLevel:
    """``--level L --computer SIDE`` (both or neither)."""
    if (args.level is None) != (args.computer is None):
        raise UserError("--level and --computer go together", 2)
    if args.level is None:
        return None
    if args.dice is not None or args.replay is not None:
        raise UserError("--level goes with a game or --summary, not --dice or --replay", 2)
    return (args.level, args.computer)


def run(args: argparse.Namespace) -> int:
    if args.ruleset != DEFAULT_RULESET:
        return _other_ruleset(args)
    at = _at_level(args)
    if args.summary:
        return _summary(args, at)
    batch_only = _given(
        args, seeds="--seeds", jobs="--jobs", games_out="--games-out", progress="--progress"
    )
    if batch_only:
        raise UserError(f"{', '.join(batch_only)} only with --summary", 2)
    if args.replay is not None:
        if _given(
            args,
            output="-o",
            scenario="--scenario",
            turns="--turns",
            dice="--dice",
            german="--german",
            allied="--allied",
        ):
            raise UserError(
                "--replay takes no --scenario, --turns, --dice, --german, --allied or -o", 2
            )
        return _replay(args.replay)
    if args.scenario is None or args.seed is None or args.output is None:
        raise UserError("selfplay needs --scenario N, --seed S and -o FILE (or --replay FILE)", 2)
    if args.ruleset != DEFAULT_RULESET:
        return _other_ruleset(args)
    scenario = _one_scenario(args.scenario)
    if args.turns is not None and not 1 <= args.turns <= LAST_TURN:
        raise UserError(f"--turns must be 1-{LAST_TURN}, not {args.turns}", 2)
    if not args.seed:
        raise UserError("--seed: empty seed", 2)
    out: Path = args.output
    _check_output(out, args.force)
    if args.dice is not None:
        if _given(args, german="--german", allied="--allied"):
            raise UserError("--dice plays the heuristic bots: no --german or --allied", 2)
        return _by_email(scenario, args.seed, args.dice, args.turns, out, args.force)
    record = play(
        load_board(scenario),
        args.seed,
        args.turns,
        level=level_of(scenario, at),
        german=args.german or SELFPLAY_BOT,
        allied=args.allied or SELFPLAY_BOT,
    )
    _write_atomic(out, encode(record), args.force)
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


def _other_ruleset(args: argparse.Namespace) -> int:
    """Self-play of a ruleset other than the AO: by email (``--dice``), its scenarios from its
    email kit; *Breakthrough*'s record self-play (``--level``, BA-2.1b); ``--replay`` (the
    record names its ruleset)."""
    record_play = args.ruleset == BREAKTHROUGH and args.dice is None
    if args.summary or (args.dice is None and args.replay is None and not record_play):
        raise UserError(
            f"--ruleset {args.ruleset} plays by email only (--dice sealed|open|local)"
            if args.ruleset != BREAKTHROUGH
            else "--summary plays the AO (Breakthrough's balance: rules-notes-breakthrough.md)",
            2,
        )
    if args.computer is not None or _given(args, german="--german", allied="--allied"):
        raise UserError(
            "--computer, --german and --allied choose the AO's bots (Breakthrough: --level)", 2
        )
    if args.level is not None and (args.dice is not None or args.replay is not None):
        raise UserError("--level goes with a game, not --dice or --replay", 2)
    batch_only = _given(
        args, seeds="--seeds", jobs="--jobs", games_out="--games-out", progress="--progress"
    )
    if batch_only:
        raise UserError(f"{', '.join(batch_only)} only with --summary", 2)
    if args.replay is not None:
        if _given(args, output="-o", scenario="--scenario", turns="--turns", dice="--dice"):
            raise UserError("--replay takes no --scenario, --turns, --dice or -o", 2)
        return _replay(args.replay)
    if args.scenario is None or args.seed is None or args.output is None:
        raise UserError("selfplay needs --scenario N, --seed S and -o FILE (or --replay FILE)", 2)
    known = sorted(kits.get(args.ruleset).scenarios())
    if not NUMBER.fullmatch(args.scenario) or int(args.scenario) not in known:
        choose = ", ".join(map(str, known))
        raise UserError(f"--scenario: {args.ruleset} has the scenarios {choose}", 2)
    if args.turns is not None and args.turns < 1:
        raise UserError(f"--turns must be at least 1, not {args.turns}", 2)
    if not args.seed:
        raise UserError("--seed: empty seed", 2)
    _check_output(args.output, args.force)
    scenario = int(args.scenario)
    if args.dice is None:
        return _breakthrough_record(scenario, args)
    return _by_email(
        scenario, args.seed, args.dice, args.turns, args.output, args.force, args.ruleset
    )


def _breakthrough_record(scenario: int, args: argparse.Namespace) -> int:
    """*Breakthrough*'s record self-play: a bot on each side from set-up to verdict (all the
    scenario's turns: no ``--turns``)."""
    if args.turns is not None:
        raise UserError("--turns: Breakthrough's record self-play plays the whole game", 2)
    level = 3 if args.level is None else args.level
    try:
        record = bita_selfplay.record_game(scenario, args.seed, level)
    except ValueError as exc:
        raise UserError(str(exc), 2) from None
    _write_atomic(args.output, rules.record.encode(record), args.force)
    print(f"{bita_selfplay.summary(record)} -> {args.output}")
    return 0


def _by_email(
    scenario: int,
    seed: str,
    mode: DiceMode,
    turns: int | None,
    out: Path,
    force: bool,
    ruleset: str = DEFAULT_RULESET,
) -> int:
    try:
        game = email_selfplay.play(scenario, seed, mode, turns, ruleset=ruleset)
    except PbemError as exc:
        raise UserError(f"self-play by email failed: {exc}") from None
    _write_atomic(out, game.text().encode("ascii"), force)
    v = game.verdict
    first, second = registry.get(ruleset).sides
    if game.vp and ruleset == DEFAULT_RULESET:
        vp = f"VP {game.vp[0]}-{game.vp[1]} (German-Allied)"
    elif game.vp:  # the kit's score: the second side's, then the first's
        vp = f"score {second.capitalize()} {game.vp[0]}, {first.capitalize()} {game.vp[1]}"
    else:
        vp = "no Game-Turn ended" if ruleset == DEFAULT_RULESET else "no score"
    what = f"{v.winner or 'draw'} ({v.kind})" if v is not None else f"stopped after GT{turns}"
    print(
        f"scenario {scenario} seed {game.seed} ({mode} dice, game {game.game_id[:8]}): "
        f"{game.commands} commands in {len(game.packets)} packets, {what}, {vp}, "
        f"hash {game.final_hash[:16]} -> {out}"
    )
    return 0


def _one_scenario(text: str) -> int:
    known = scenario_numbers()
    if not NUMBER.fullmatch(text):
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
    data = read_input(path, MAX_LOG_BYTES)
    result: Replayed[Any]
    try:
        record = rules.record.decode(data)
        if record.ruleset == BREAKTHROUGH:
            result = bita_selfplay.replay(record)
        elif record.ruleset == DEFAULT_RULESET:
            result = rules.ao.Game.replay(record, _board(record.header.scenario))
        else:
            raise ValueError(
                f"the record is of {record.ruleset}: --replay checks ao and {BREAKTHROUGH}"
            )
    except (rules.RecordError, ValueError) as exc:
        raise UserError(f"{path}: {exc}", 2) from None
    if result.ok:
        n = len(result.game.history)
        print(
            f"{path}: replayed {n} commands: every hash matches ({result.game.state_hash()[:16]})"
        )
        return 0
    print(f"{path}: {result.error}", file=sys.stderr)
    return 1


def _board(number: int) -> rules.ao.Board:
    if number not in scenario_numbers():
        raise ValueError(f"the header names scenario {number}, which does not exist")
    return load_board(number)


def _summary(args: argparse.Namespace, at: AtLevel) -> int:
    conflicts = _given(
        args, output="-o", replay="--replay", turns="--turns", seed="--seed", dice="--dice"
    )
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
    german, allied = args.german or SELFPLAY_BOT, args.allied or SELFPLAY_BOT
    results = play_all(games, jobs, progress_line if progress else None, at, german, allied)
    if out is not None:
        data = b"".join(_ENC.encode(r) + b"\n" for r in results)
        _write_atomic(out, data, args.force)
    sys.stdout.write(summary_markdown(results, german, allied))
    return 0


_ENC: Final = msgspec.json.Encoder(order="deterministic")
