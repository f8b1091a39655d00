"""``ardennes rules``: the engine from the command line, for scripts, tests and bug reports.

``ardennes rules moves --position P --unit U``
    JSON: every hex the unit can reach this phase, with the cheapest path and its MP cost.
``ardennes rules apply --position P --commands C``
    Applies a JSONL file of commands in order. Prints one JSON line per command (its events
    and the state hash after it, or its rejection), then the final position as one JSON line.

Instead of ``--position P`` (a position file, ``docs/position-format.md``; ``-`` reads stdin),
``--scenario N`` starts from scenario N before the Allied set-up. Commands that roll (combat,
the CRT switch, the paradrop) need dice: ``--dice-seed HEX`` (a game's seed) or ``--dice 3,5,1``
(scripted draws from the position's dice index on).

Exit status: 0 when everything applied; 1 when a command was rejected (the rest are not
applied; the position printed is the one before it); 2 for unreadable input. Every failure
prints one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Final

import msgspec

from ardennes_tui.cli.inputs import read_input
from ardennes_tui.errors import UserError
from rules import (
    Board,
    DiceError,
    DiceSource,
    GameState,
    Rejection,
    ScriptedDice,
    SeededDice,
    apply,
    decode_command,
    encode_command,
    encode_event,
    legal_moves,
    new_game,
    position,
    state_hash,
)
from scenarios import load_board, scenario_numbers

MAX_POSITION_BYTES: Final = 1 << 20
MAX_COMMANDS_BYTES: Final = 16 << 20


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rules",
        help="query and drive the rules engine (JSON in, JSON out)",
        description="Query and drive the rules engine from scripts.",
    )
    sub = parser.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    moves = sub.add_parser("moves", help="where a unit can move now, with costs and paths")
    _start_options(moves)
    moves.add_argument("--unit", required=True, help="unit id, e.g. de-1ss-a")
    moves.set_defaults(func=run_moves)
    app = sub.add_parser("apply", help="apply a JSONL file of commands")
    _start_options(app)
    app.add_argument("--commands", required=True, type=Path, metavar="C", help="JSONL file")
    dice = app.add_mutually_exclusive_group()
    dice.add_argument(
        "--dice-seed",
        metavar="HEX",
        help="draw dice from this seed (rules.dice.SeededDice), e.g. the seed of a game",
    )
    dice.add_argument(
        "--dice",
        metavar="LIST",
        help="scripted dice for the draws from the position's dice index on, e.g. 3,5,1",
    )
    app.set_defaults(func=run_apply)


def _start_options(parser: argparse.ArgumentParser) -> None:
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--position", metavar="P", help="position file (JSON), or - for stdin")
    start.add_argument("--scenario", type=int, metavar="N", help="start of scenario N (1-10)")


def _start(args: argparse.Namespace) -> tuple[Board, GameState]:
    """The board and the state to start from, checked against each other."""
    if args.scenario is not None:
        number = int(args.scenario)
        if number not in scenario_numbers():
            raise UserError(f"no scenario {number}: choose 1-10", 2)
        board = load_board(number)
        return board, new_game(board)
    raw = read_input(args.position, MAX_POSITION_BYTES, "position", stdin=True)
    try:
        state = position.loads(raw)
    except position.PositionError as exc:
        raise UserError(f"position {args.position}: {exc}", 2) from None
    if state.scenario not in scenario_numbers():
        raise UserError(f"position {args.position}: no scenario {state.scenario}", 2)
    board = load_board(state.scenario)
    problems = position.check(board, state)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"position {args.position}: {problems[0]}{more}", 2)
    return board, state


def run_moves(args: argparse.Namespace) -> int:
    board, state = _start(args)
    if args.unit not in board.defs:
        raise UserError(f"no unit {args.unit!r} in scenario {state.scenario}", 2)
    reach = legal_moves(board, state, args.unit)
    out = {
        "unit": args.unit,
        "state_hash": state_hash(state),
        "moves": {h: reach[h] for h in sorted(reach)},
    }
    sys.stdout.buffer.write(msgspec.json.encode(out) + b"\n")
    return 0


def _dice(args: argparse.Namespace, start: int) -> DiceSource | None:
    """The dice source of ``--dice-seed`` or ``--dice`` (None: commands needing dice fail)."""
    if args.dice_seed is not None:
        try:
            seed = bytes.fromhex(args.dice_seed)
        except ValueError:
            raise UserError(f"--dice-seed: not hexadecimal: {args.dice_seed!r}", 2) from None
        if not seed:
            raise UserError("--dice-seed: empty seed", 2)
        return SeededDice(seed)
    if args.dice is not None:
        try:
            values = [int(v) for v in args.dice.split(",")]
            return ScriptedDice(values, start=start)
        except (ValueError, DiceError) as exc:
            raise UserError(f"--dice: {exc}", 2) from None
    return None


def run_apply(args: argparse.Namespace) -> int:
    board, state = _start(args)
    dice = _dice(args, state.dice_drawn)
    raw = read_input(args.commands, MAX_COMMANDS_BYTES, "commands", stdin=True)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"commands {args.commands}: not UTF-8 text", 2) from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    commands = []
    for n, line in lines:
        try:
            commands.append(decode_command(line))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise UserError(f"commands {args.commands} line {n}: {exc}", 2) from None
    out = sys.stdout.buffer
    code = 0
    for index, cmd in enumerate(commands):
        try:
            result = apply(board, state, cmd, dice)
        except DiceError as exc:
            raise UserError(f"command {index}: {exc}", 2) from None
        record: dict[str, Any] = {"index": index, "command": msgspec.Raw(encode_command(cmd))}
        if isinstance(result, Rejection):
            record["rejected"] = {"case": result.case, "message": result.message}
            out.write(msgspec.json.encode(record) + b"\n")
            print(f"ardennes: command {index} rejected: {result.message}", file=sys.stderr)
            code = 1
            break
        state = result.state
        record["events"] = [msgspec.Raw(encode_event(e)) for e in result.events]
        record["state_hash"] = state_hash(state)
        out.write(msgspec.json.encode(record) + b"\n")
    final = msgspec.json.encode(msgspec.json.decode(position.dumps(state)))
    out.write(final + b"\n")
    out.flush()
    return code
