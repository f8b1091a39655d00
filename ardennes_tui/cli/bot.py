"""``ardennes bot [FILE|-] [--game GAME] [-o FILE]``: the computer as your opponent by email.

The bot is a player of its own (:class:`pbem.opponent.BotOpponent`: its own key and store, in
``--home DIR``, default ``<ardennes home>/bot``). Give it what you would mail your opponent (an
invitation, your packets: a file, ``-`` for standard input); it imports it with every check of
the protocol, accepts an invitation, plays its side's packets and writes what it would mail
back (the acceptance, its packets) to standard output or ``-o FILE``, for you to import
(``ardennes import FILE``, or ``i`` in the app). What it did goes to standard error, one line
each. With no input, ``--game GAME`` plays and writes again whatever is due in that game.
Exit status 1 when a packet of the input was refused or the bot's store cannot be used, 2 for
a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ardennes_tui.cli.inputs import read_input
from ardennes_tui.errors import UserError
from pbem.core.errors import PbemError
from rules.ao.bots.registry import DEFAULT, kind_names

MAX_INPUT = 64 << 20


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bot",
        help="the computer as your opponent by email: it answers your packets",
        description="The computer plays an email game against you as a player of its own (its "
        "own key and store): give it what you would mail your opponent (an invitation, your "
        "packets); it imports them, accepts an invitation, plays its packets and writes what "
        "it would mail back, for you to import.",
    )
    parser.add_argument("source", nargs="?", metavar="FILE|-", help="what you sent (- stdin)")
    parser.add_argument(
        "--game", metavar="GAME", help="with no FILE: play and write again what is due in GAME"
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the bot's answer to FILE"
    )
    parser.add_argument(
        "--kind", choices=kind_names(), default=DEFAULT, help=f"which bot (default {DEFAULT})"
    )
    parser.add_argument(
        "--home",
        type=Path,
        metavar="DIR",
        help="the bot's own key and store (default: bot/ in the ardennes data directory)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.source is None and args.game is None:
        raise UserError("bot needs FILE (what you sent it; - for standard input) or --game", 2)
    data = read_input(args.source, MAX_INPUT, stdin=True) if args.source is not None else b""
    try:
        from pbem.opponent import BotOpponent  # the bots' code only when a bot plays

        answer = BotOpponent(args.home, args.kind).answer(data, args.game)
    except PbemError as exc:
        raise UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1) from None
    for line in answer.lines:
        print(line, file=sys.stderr)
    out: Path | None = args.output
    if not answer.text:
        print("nothing to send", file=sys.stderr)
    elif out is not None:
        try:
            out.write_text(answer.text, encoding="ascii")
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror}", 2) from None
        print(f"written to {out}", file=sys.stderr)
    else:
        sys.stdout.write(answer.text)
    return 1 if answer.refused else 0
