"""The command line's input files: read whole, up to a size limit, failures as one line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ardennes_tui.errors import UserError
from rules.dice import DiceError, DiceSource, ScriptedDice, SeededDice


def read_input(path: str | Path, limit: int, what: str = "", *, stdin: bool = False) -> bytes:
    """The bytes of ``path`` (with ``stdin``, ``-`` reads stdin), refusing more than ``limit``
    bytes; a failure is a :class:`UserError` (exit 2) naming ``what`` and the path."""
    name = f"{what} {path}" if what else str(path)
    try:
        if stdin and str(path) == "-":
            raw = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as fh:
                raw = fh.read(limit + 1)
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror}", 2) from None
    if len(raw) > limit:
        raise UserError(f"{name} is over the {limit} byte limit", 2)
    return raw


def dice_source(args: argparse.Namespace, start: int, faces: int = 6) -> DiceSource | None:
    """The dice of ``--dice-seed`` (hex) or ``--dice`` (values, comma-separated, each 1 to
    ``faces``: the AO's d6, Breakthrough's d100) for ``ardennes rules apply``, drawn from
    ``start`` on; None when neither is given (a command that needs dice is then refused)."""
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
            return ScriptedDice(values, start=start, faces=faces)
        except (ValueError, DiceError) as exc:
            raise UserError(f"--dice: {exc}", 2) from None
    return None
