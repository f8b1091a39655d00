"""The command line's input files: read whole, up to a size limit, failures as one line."""

from __future__ import annotations

import sys
from pathlib import Path

from ardennes_tui.errors import UserError


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
