"""The ``ardennes`` command: no arguments opens the app; subcommands print or script.

Each subcommand lives in its own module under :mod:`ardennes_tui.commands` and provides
``register(subparsers)``, which adds its parser and sets ``func`` to a ``run(args) -> int``.
User errors print one line on stderr and exit non-zero, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

COMMAND_MODULES = ("map", "scenarios", "oob", "rules", "selfplay")
"""Modules of :mod:`ardennes_tui.commands`, in the order ``--help`` lists them."""


class UserError(Exception):
    """A problem with the user's input: reported as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="ardennes",
        description="The Ardennes Offensive (SPI, 1973) in the terminal, by email. "
        "With no command, starts a hot-seat game.",
    )
    parser.add_argument(
        "--scenario",
        type=int,
        default=1,
        metavar="N",
        help="the scenario to play (1-10, default 1)",
    )
    parser.add_argument(
        "--load",
        type=Path,
        metavar="FILE",
        help="replay the game in FILE: a saved game (JSONL; s in the game saves there) or a "
        "self-play log (checked; s saves to a new ardennes-sN.jsonl)",
    )
    parser.add_argument(
        "--seed",
        metavar="TEXT",
        help="the dice seed of a new game (default: random; a saved game keeps its own)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"ardennes_tui.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ardennes_tui.commands.{name}":
                raise
            continue  # a command not built yet
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            from ardennes_tui.app import run_app

            return run_app(args.scenario, args.load, seed=args.seed)
        code: int = args.func(args)
        return code
    except UserError as exc:
        print(f"ardennes: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:  # e.g. `ardennes map | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
