"""``ardennes selfplay``: the heuristic bots play a game against each other.

``ardennes selfplay --scenario N --seed S [--turns T] -o FILE [--force]``
    Plays scenario N from seed S (dice and the bots' choices derive from it) and writes the
    command log (JSONL, ``docs/selfplay.md``); prints one summary line. An existing FILE is
    never overwritten without ``--force``.
``ardennes selfplay --replay FILE``
    Replays a log and checks the state hash after each command and at the end: exit 0 when it
    matches, 1 naming the first diverging command.

Bad arguments: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ardennes_tui.cli import UserError
from rules.scenario import scenario_numbers
from rules.selfplay import LogError, encode_log, play, replay_log
from rules.state import LAST_TURN

MAX_LOG_BYTES = 64 << 20


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "selfplay",
        help="let two bots play a game (or replay and check a self-play log)",
        description="Bot-versus-bot games for testing and balance: writes a replayable "
        "command log; --replay checks one.",
    )
    parser.add_argument("--scenario", type=int, metavar="N", help="scenario 1-10")
    parser.add_argument("--seed", metavar="S", help="the game's seed (any text, e.g. 7)")
    parser.add_argument(
        "--turns", type=int, metavar="T", help=f"stop after Game-Turn T (1-{LAST_TURN})"
    )
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="log file to write")
    parser.add_argument("--force", action="store_true", help="overwrite an existing FILE")
    parser.add_argument("--replay", type=Path, metavar="FILE", help="replay and check a log")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.replay is not None:
        if args.output is not None or args.scenario is not None or args.turns is not None:
            raise UserError("--replay takes no --scenario, --turns or -o", 2)
        return _replay(args.replay)
    if args.scenario is None or args.seed is None or args.output is None:
        raise UserError("selfplay needs --scenario N, --seed S and -o FILE (or --replay FILE)", 2)
    if args.scenario not in scenario_numbers():
        raise UserError(f"no scenario {args.scenario}: choose 1-10", 2)
    if args.turns is not None and not 1 <= args.turns <= LAST_TURN:
        raise UserError(f"--turns must be 1-{LAST_TURN}, not {args.turns}", 2)
    if not args.seed:
        raise UserError("--seed: empty seed", 2)
    out: Path = args.output
    if out.exists() and not args.force:
        raise UserError(f"{out} exists: use --force to overwrite it", 2)
    if out.parent and not out.parent.is_dir():
        raise UserError(f"no directory {out.parent}", 2)
    record = play(args.scenario, args.seed, args.turns)
    data = encode_log(record)
    tmp = out.with_name(out.name + ".tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, out)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}", 2) from None
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


def _replay(path: Path) -> int:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}", 2) from None
    if len(data) > MAX_LOG_BYTES:
        raise UserError(f"{path} is over the {MAX_LOG_BYTES} byte limit", 2)
    try:
        result = replay_log(data)
    except LogError as exc:
        raise UserError(f"{path}: {exc}", 2) from None
    if result.ok:
        print(f"{path}: {result.message} ({result.final_hash[:16]})")
        return 0
    print(f"{path}: {result.message}", file=sys.stderr)
    return 1
