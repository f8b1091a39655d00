"""``ardennes rules``: the engine from the command line, for scripts, tests and bug reports.

``ardennes rules moves --position P --unit U``
    JSON: every hex the unit can reach this phase, with the cheapest path and its MP cost.
``ardennes rules apply --position P --commands C``
    Applies a JSONL file of commands in order. Prints one JSON line per command (its events
    and the state hash after it, or its rejection), then the final position as one JSON line.
``ardennes rules options --position P``
    JSON: what may be done now and by whom (``rules.ao.Game.options()``).
``ardennes rules supply --position P [--side S]``
    JSON: each unit's supply marker, what a Supply Judgment would mark now, its supply as a
    defender now, and its supply path (``rules.ao.supply_report``); both sides by default.
``ardennes rules interdiction --position P``
    JSON: the bridges interdicted for each side, stored and now (``rules.ao.interdiction_report``).
``ardennes rules odds --position P --attackers A,B --defenders HEX[,HEX]``
    JSON: the attack hex by hex and class by class, the odds and the CRT, and the refusal a
    declaration would get (``rules.ao.odds_report``); exit 1 when it would be refused.

``--ruleset breakthrough`` asks the same of *Breakthrough in the Ardennes*
(:mod:`ardennes_tui.cli.rules_breakthrough`: its positions, ``--level``, ``--two-player``);
``interdiction`` does not apply to it (one line, exit 2).

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
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import msgspec

from ardennes_tui.cli import rules_breakthrough
from ardennes_tui.cli.inputs import dice_source, read_input
from ardennes_tui.errors import UserError
from rules import DiceError, Rejection
from rules.ao import (
    Board,
    Game,
    GameState,
    Side,
    apply,
    decode_command,
    encode_command,
    encode_event,
    interdiction_report,
    legal_moves,
    new_game,
    odds_report,
    position,
    state_hash,
    supply_report,
)
from scenarios import load_board, scenario_numbers

RULESETS: Final = ("ao", "breakthrough")
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
    moves.set_defaults(func=_breakthrough(run_moves))
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
    app.set_defaults(func=_breakthrough(run_apply))
    opts = sub.add_parser("options", help="what may be done now, and by whom")
    _start_options(opts)
    opts.set_defaults(func=_breakthrough(run_options))
    sup = sub.add_parser("supply", help="every unit's supply: marker, judged now, as defender")
    _start_options(sup)
    sup.add_argument(
        "--side",
        choices=("german", "allied", "american"),
        help="one side (default: both; Breakthrough: american or german)",
    )
    sup.set_defaults(func=_breakthrough(run_supply))
    inter = sub.add_parser("interdiction", help="the bridges interdicted for each side")
    _start_options(inter)
    inter.set_defaults(func=_breakthrough(run_interdiction))
    odds = sub.add_parser("odds", help="an attack's strengths, odds and CRT, with every factor")
    _start_options(odds)
    odds.add_argument("--attackers", required=True, metavar="A,B", help="attacking unit ids")
    odds.add_argument("--defenders", required=True, metavar="HEX,HEX", help="attacked hexes")
    odds.set_defaults(func=_breakthrough(run_odds))


def _start_options(parser: argparse.ArgumentParser) -> None:
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--position", metavar="P", help="position file (JSON), or - for stdin")
    start.add_argument(
        "--scenario", type=int, metavar="N", help="start of scenario N (1-10; Breakthrough 1-3)"
    )
    parser.add_argument(
        "--ruleset",
        choices=RULESETS,
        default="ao",
        help="the game: ao (default, The Ardennes Offensive) or breakthrough",
    )
    parser.add_argument(
        "--level", type=int, choices=(1, 2, 3, 4), help="breakthrough: level of play (default 3)"
    )
    parser.add_argument(
        "--two-player",
        action="store_true",
        help="breakthrough: the two-player values (BA-13.2c; an email game's)",
    )


def _breakthrough(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``func`` for the AO; ``--ruleset breakthrough`` goes to its own answers."""

    def run(args: argparse.Namespace) -> int:
        if args.ruleset == "breakthrough":
            return rules_breakthrough.run(args)
        if args.level is not None or args.two_player:
            raise UserError("--level and --two-player go with --ruleset breakthrough", 2)
        if getattr(args, "side", None) == "american":
            raise UserError("--side: the AO's sides are german and allied", 2)
        return func(args)

    return run


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
    state = position.fill(board, state)  # the units it does not name are not in play
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


def run_apply(args: argparse.Namespace) -> int:
    board, state = _start(args)
    dice = dice_source(args, state.dice_drawn)
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


def _write(value: object) -> None:
    sys.stdout.buffer.write(msgspec.json.encode(value) + b"\n")
    sys.stdout.buffer.flush()


def run_options(args: argparse.Namespace) -> int:
    board, state = _start(args)
    _write(Game(board, state).options())
    return 0


def run_supply(args: argparse.Namespace) -> int:
    board, state = _start(args)
    sides: tuple[Side, ...] = (args.side,) if args.side else ("german", "allied")
    _write(
        {"state_hash": state_hash(state), "sides": [supply_report(board, state, s) for s in sides]}
    )
    return 0


def run_interdiction(args: argparse.Namespace) -> int:
    board, state = _start(args)
    _write(
        {"state_hash": state_hash(state), **msgspec.to_builtins(interdiction_report(board, state))}
    )
    return 0


def _names(text: str, what: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise UserError(f"--{what}: name at least one", 2)
    return names


def run_odds(args: argparse.Namespace) -> int:
    board, state = _start(args)
    attackers = _names(args.attackers, "attackers")
    defenders = _names(args.defenders, "defenders")
    for uid in attackers:
        us = state.find(uid)
        if us is None or us.hex is None or us.status != "on_map":
            raise UserError(f"--attackers: {uid!r} is not a unit on the map", 2)
    for h in defenders:
        if h not in board.game_map:
            raise UserError(f"--defenders: {h!r} is not a hex of the map", 2)
    report = odds_report(board, state, attackers, defenders)
    _write({"state_hash": state_hash(state), **msgspec.to_builtins(report)})
    if report.refusal is not None:
        print(f"ardennes: the attack would be refused: {report.refusal.message}", file=sys.stderr)
        return 1
    return 0
