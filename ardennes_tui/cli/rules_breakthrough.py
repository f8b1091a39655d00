"""``ardennes rules ACTION --ruleset breakthrough``: the same questions as for the AO, asked of
*Breakthrough in the Ardennes* (:mod:`ardennes_tui.rulesets.breakthrough.queries`).

``--scenario N`` (1-3, BA-2.1g) starts from the scenario's first state; ``--position P`` is
a *Breakthrough* state as JSON (``ardennes show --json``'s ``position``, or the last line of
``rules apply``). ``--level L`` (BA-2.1b, default 3) and ``--two-player`` (BA-13.2c's values)
choose the board. Hexes go in as ids (``2412``) or as the manual's ``x,y`` (``19,23``).

* ``options``: :meth:`Ruleset.options` and the dice the state waits on;
* ``moves --unit U``: every hex U can reach now, cost, points left and path (13.5), and why
  it may not move now (``refusal``);
* ``apply --commands C``: the JSONL commands in order (``--dice 37,82`` scripts d100 draws;
  ``--dice-seed HEX`` draws from a seed), one JSON line each, then the final position;
* ``supply [--side american|german]``: each unit's marker and its trace now (BA-4.2a-c);
* ``odds --attackers A,B --defenders HEX``: one combat (one hex, G14: ``2412`` or
  ``19,23``), every factor, the artillery, the odds; exit 1 when the plots would be refused;
* ``interdiction``: does not apply (the AO's bridge interdiction): one line, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Final

import msgspec

from ardennes_tui.cli.inputs import dice_source, read_input
from ardennes_tui.errors import UserError
from ardennes_tui.rulesets.breakthrough import queries
from ardennes_tui.rulesets.breakthrough.queries import Board, QueryError, State
from rules import DiceError

MAX_POSITION_BYTES: Final = 1 << 20
MAX_COMMANDS_BYTES: Final = 16 << 20
D100: Final = 100


def _write(value: object) -> None:
    sys.stdout.buffer.write(msgspec.json.encode(value) + b"\n")
    sys.stdout.buffer.flush()


def _start(args: argparse.Namespace) -> tuple[Board, State]:
    raw = None
    if args.position is not None:
        raw = read_input(args.position, MAX_POSITION_BYTES, "position", stdin=True)
    level = 3 if args.level is None else args.level
    try:
        return queries.start(args.scenario, raw, level, args.two_player)
    except QueryError as exc:
        where = f"position {args.position}" if raw is not None else f"scenario {args.scenario}"
        raise UserError(f"{where}: {exc}", 2) from None


def run(args: argparse.Namespace) -> int:
    """Answer ``args.rules_command`` for *Breakthrough*."""
    action = args.rules_command
    if action == "interdiction":
        raise UserError(
            "rules interdiction: Breakthrough has no bridge interdiction (the AO's); its air "
            "interdiction (BA-3.3) shows in rules options (air_left) and the unit's state",
            2,
        )
    board, state = _start(args)
    try:
        if action == "options":
            _write(queries.options(board, state))
        elif action == "moves":
            _write(queries.moves(board, state, args.unit))
        elif action == "supply":
            if args.side == "allied":
                raise QueryError("--side: Breakthrough's sides are american and german")
            _write(queries.supply_report(board, state, args.side))
        elif action == "odds":
            return _odds(args, board, state)
        elif action == "apply":
            return _apply(args, board, state)
    except QueryError as exc:
        raise UserError(str(exc), 2) from None
    return 0


def _odds(args: argparse.Namespace, board: Board, state: State) -> int:
    attackers = [x.strip() for x in args.attackers.split(",") if x.strip()]
    if not attackers:
        raise UserError("--attackers: name at least one", 2)
    target = queries.hex_arg(args.defenders.strip(), board)  # one hex: one combat, G14
    report = queries.odds(board, state, attackers, target)
    _write(report)
    if report["refusal"] is not None:
        msg = report["refusal"]["message"]
        print(f"ardennes: the attack would be refused: {msg}", file=sys.stderr)
        return 1
    return 0


def _apply(args: argparse.Namespace, board: Board, state: State) -> int:
    dice = dice_source(args, state.dice_drawn, D100)
    raw = read_input(args.commands, MAX_COMMANDS_BYTES, "commands", stdin=True)
    try:
        text = raw.decode("utf-8")
        commands = [c for _, c in queries.decode_commands(text)]
    except UnicodeDecodeError:
        raise UserError(f"commands {args.commands}: not UTF-8 text", 2) from None
    except QueryError as exc:
        raise UserError(f"commands {args.commands} {exc}", 2) from None
    out = sys.stdout.buffer
    code = 0
    try:
        for line, after, refused in queries.apply_commands(board, state, commands, dice):
            out.write(msgspec.json.encode(line) + b"\n")
            state = after
            if refused is not None:
                index: Any = line["index"]
                print(f"ardennes: command {index} rejected: {refused.message}", file=sys.stderr)
                code = 1
    except DiceError as exc:
        raise UserError(f"dice: {exc}", 2) from None
    out.write(queries.position_bytes(state) + b"\n")
    out.flush()
    return code
