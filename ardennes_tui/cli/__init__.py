"""The ``ardennes`` command: no arguments opens the app; subcommands print or script.

Each subcommand is a module of this package (``map``, ``scenarios``, ``oob``, ``rules``,
``selfplay``, ``games``, ``keys``, ``audit``, ``email``, ``endings``, ``bot``) that provides
``register(subparsers)``, which adds its parser and sets ``func`` to a ``run(args) -> int``.
User errors (:class:`UserError`, raised by the commands and by the app while it loads a game)
print one line on stderr and exit non-zero, never a traceback.

The command line imports the app, never the reverse: only ``python -m ardennes_tui``
(:mod:`ardennes_tui.__main__`) imports this package (a layers contract in ``pyproject.toml``).
:class:`UserError` itself is the app's (:mod:`ardennes_tui.errors`), re-exported here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from ardennes_tui.cli import audit as audit_command
from ardennes_tui.cli import bot as bot_command
from ardennes_tui.cli import email as email_commands
from ardennes_tui.cli import endings as ending_commands
from ardennes_tui.cli import games, oob, scenarios, selfplay
from ardennes_tui.cli import keys as keys_command
from ardennes_tui.cli import map as map_command
from ardennes_tui.cli import orders as orders_command
from ardennes_tui.cli import rules as rules_command
from ardennes_tui.cli import show as show_command
from ardennes_tui.errors import UserError
from pbem.core.dicemodes import ALLOWS
from rules.ao.bots.registry import DEFAULT, kind_names
from rules.ao.levels import HISTORICAL, NUMBERS

__all__ = ["UserError", "build_parser", "main"]

COMMANDS: tuple[Callable[[Any], None], ...] = (
    map_command.register,
    scenarios.register,
    oob.register,
    rules_command.register,
    selfplay.register,
    games.register,
    keys_command.register,
    audit_command.register,
    email_commands.register,
    orders_command.register,
    show_command.register,
    ending_commands.register,
    bot_command.register,
)
"""The subcommands' ``register``, in the order ``--help`` lists them."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="ardennes",
        description="The Ardennes Offensive (SPI, 1973) in the terminal, by email. "
        "With no command and no option, opens the start screen (your games, new games, "
        "import, watch, audit, keys); --scenario N (or --seed) starts a hot-seat game.",
    )
    parser.add_argument(
        "--scenario",
        type=int,
        default=None,
        metavar="N",
        help="start a hot-seat game of scenario N (1-10; default 1 with --seed)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--load",
        type=Path,
        metavar="FILE",
        help="open the game record in FILE (an exported game or a self-play game), every "
        "command replayed and checked; the game goes on in the store under a new name (FILE "
        "is never written)",
    )
    source.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="NAME",
        help="reopen a hot-seat game of the store (saved after every order), replayed and "
        "checked: the most recent one, or NAME (a unique start of it will do; ardennes games "
        "lists them)",
    )
    source.add_argument(
        "--email",
        nargs="+",
        metavar=("GAME|new|accept", "FILE"),
        help="play GAME by email in the app (a game of the store: its id or a unique start; "
        "ardennes games lists them); 'new' starts one (with --scenario, --side, --dice, "
        "--opponent) and 'accept FILE' accepts the invitation in FILE, then the app opens on "
        "the text to send",
    )
    source.add_argument(
        "--watch",
        metavar="FILE|GAME",
        help="play a game back step by step from its start: a game record (an exported "
        "game, a self-play game), a file of packets, or a game of the store",
    )
    source.add_argument(
        "--audit",
        metavar="FILE|GAME",
        help="the audit on screen: every roll, who could have known it when, the dice "
        "statistics, and whether the chain and every signature verify",
    )
    parser.add_argument(
        "--vs-bot",
        action="store_true",
        help="play against the computer: a new game of --scenario N (default 1), your --side "
        "(default german), --level 1-4 (default 3: the rules as written; 4 helps you, 2 and 1 "
        "the computer); saved in the store like a hot-seat game (--resume reopens it)",
    )
    parser.add_argument(
        "--level",
        dest="vs_level",
        type=int,
        choices=NUMBERS,
        help="with --vs-bot: the level of play (docs/selfplay.md, Levels)",
    )
    parser.add_argument(
        "--bot",
        dest="vs_kind",
        choices=kind_names(),
        help=f"with --vs-bot: which bot plays the computer (default {DEFAULT})",
    )
    parser.add_argument(
        "--key",
        metavar="K",
        help="with --email: your key, a name in the key store or an OpenSSH key file "
        "(default: the store's key pinned in the game, or its only key)",
    )
    parser.add_argument(
        "--passphrase-file",
        type=Path,
        metavar="F",
        help="with --email: read the key's passphrase from F (else it is asked before the "
        "app starts)",
    )
    parser.add_argument(
        "--side",
        choices=("german", "allied"),
        help="with --email new or --vs-bot: your side",
    )
    parser.add_argument(
        "--dice",
        choices=("sealed", "open", "local"),
        help=f"with --email new: the dice mode ({ALLOWS['sealed']}; {ALLOWS['open']}, in one "
        f"mailing a player-turn; {ALLOWS['local']}, both sides yours, nothing to send)",
    )
    parser.add_argument(
        "--opponent",
        metavar="ADDR",
        help="with --email new or accept: your opponent's name or mail address (the send "
        "screen's m mails to an address)",
    )
    parser.add_argument(
        "--opponent-bot",
        action="store_true",
        help="with --email new (sealed or open dice): the computer is your opponent by email "
        "(ardennes bot, its own key and store): it accepts at once; give it each packet you "
        "send with: ardennes bot FILE -o ANSWER, and import its answer",
    )
    parser.add_argument(
        "--seed",
        metavar="TEXT",
        help="the dice seed of a new game (default: random; a saved game keeps its own)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for register in COMMANDS:
        register(sub)
    return parser


def _run_app(args: argparse.Namespace) -> int:
    """``ardennes`` with no command: the start screen (no option at all), a playback
    (``--watch``), the audit (``--audit``), or a hot-seat game."""
    from ardennes_tui.cli import start

    viewing = args.watch is not None or args.audit is not None
    if viewing and (args.scenario is not None or args.seed is not None):
        raise UserError("--scenario and --seed do not go with --watch or --audit", 2)
    if args.watch is not None:
        return start.run_watch(args.watch)
    if args.audit is not None:
        return start.run_audit(args.audit)
    from ardennes_tui.cli.play import run_app

    scenario = args.scenario if args.scenario is not None else 1
    if args.vs_bot:
        if args.load is not None or args.resume is not None:
            raise UserError("--vs-bot starts a new game: --load and --resume reopen one", 2)
        versus = (args.side or "german", args.vs_level or HISTORICAL, args.vs_kind or DEFAULT)
        return run_app(scenario, seed=args.seed, versus=versus)
    alone = all(getattr(args, x) is None for x in ("scenario", "seed", "load", "resume"))
    if alone:
        return start.run_start()
    return run_app(scenario, args.load, seed=args.seed, resume=args.resume)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        no_email = args.command is None and args.email is None
        if no_email and (args.key is not None or args.passphrase_file is not None):
            raise UserError("--key and --passphrase-file go with --email GAME", 2)
        if not args.vs_bot and (args.vs_level is not None or args.vs_kind is not None):
            raise UserError("--level and --bot go with --vs-bot", 2)
        if args.vs_bot and (args.command is not None or args.email is not None):
            raise UserError("--vs-bot is a game in the app: no command, no --email", 2)
        if args.vs_bot and (args.dice is not None or args.opponent is not None):
            raise UserError("--dice and --opponent go with --email new", 2)
        if no_email and not args.vs_bot and args.side is not None:
            raise UserError(
                "--side, --dice and --opponent go with --email new (--side also with --vs-bot)", 2
            )
        if args.opponent_bot and (args.email is None or args.email[:1] != ["new"]):
            raise UserError("--opponent-bot goes with --email new", 2)
        if no_email and any(x is not None for x in (args.dice, args.opponent)):
            raise UserError("--side, --dice and --opponent go with --email new", 2)
        if args.command is None and args.email is not None:
            from ardennes_tui.cli.play import run_email

            if args.scenario is None:
                args.scenario = 1
            return run_email(args)
        if args.command is None:
            return _run_app(args)
        code: int = args.func(args)
        return code
    except UserError as exc:
        print(f"ardennes: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:  # e.g. `ardennes map | head`
        return 0
