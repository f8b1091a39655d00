"""``ardennes verify FILE|GAME`` and ``ardennes audit FILE|GAME [--json]``
(``docs/pbem-protocol.md``, sections 4 and 5).

Both read a file of armoured packets (any text around them: a saved mail will do), a game
record, or a game of the store (its id or the start of it, as ``ardennes games`` shows it),
``-`` for standard input (:mod:`pbem.sources`), and check the whole game from its first packet
(:func:`pbem.audit.verify`).

``verify`` prints one line: ``OK: ...`` (game, scenario, dice mode, packets, commands, where
the game stands or its verdict, both pinned key fingerprints, the final state hash) and exits
0, or ``FAILED: ...`` with the first failure, naming the packet, and exits 1. ``audit`` prints
every die roll (packet, Game-Turn, phase, purpose, what its seed was derived from, who could
have known it from when, the value and its effect), then each player's dice statistics (faces,
chi-square, p-value); ``--json`` prints the same for tools. Input that cannot be read at all
(no such file or game, too large, no packets in it) is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ardennes_tui.errors import UserError
from pbem import audit
from pbem.sources import Source, SourceError, load_source
from pbem.store import Store

FAILED = 1
"""The exit status of a game that does not verify (unreadable input: 2, a UserError)."""

_SOURCE_HELP = (
    "a file of armoured packets (a saved mail will do), a game record, a game of the store "
    "(its id or its start, as `ardennes games` shows it), or - for standard input"
)


def register(subparsers: Any) -> None:
    verify: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help="check a whole email game: signatures, chain, dice, rules",
        description="Check a whole game from its first packet: every signature against the "
        "pinned keys, the chain of packets, the revealed dice links, every command through "
        "the rules and every state hash. Prints one line: OK and a summary (exit 0), or "
        "FAILED and the first failure (exit 1).",
    )
    verify.add_argument("source", metavar="FILE|GAME", help=_SOURCE_HELP)
    verify.set_defaults(func=run_verify)

    aud: argparse.ArgumentParser = subparsers.add_parser(
        "audit",
        help="every die roll of a game, where it came from, and the dice statistics",
        description="Verify a game, then list every die roll: packet, Game-Turn, phase, "
        "purpose, the chain links and reply its seed was derived from, who could have known "
        "it from which packet on, its value and its effect; then each player's dice "
        "statistics (counts per face, chi-square against a fair die, p-value).",
    )
    aud.add_argument("source", metavar="FILE|GAME", help=_SOURCE_HELP)
    aud.add_argument("--json", action="store_true", help="print JSON for tools")
    aud.set_defaults(func=run_audit)


def _load(arg: str, root: Path | None) -> Source:
    try:
        return load_source(arg, Store(root), stdin=sys.stdin.buffer if arg == "-" else None)
    except SourceError as exc:
        raise UserError(str(exc)) from None


def run_verify(args: argparse.Namespace, root: Path | None = None) -> int:
    v = audit.verify(_load(args.source, root))
    print(v.line)
    return 0 if v.ok else FAILED


def run_audit(args: argparse.Namespace, root: Path | None = None) -> int:
    v = audit.verify(_load(args.source, root))
    if not v.ok:
        if args.json:
            print(json.dumps({"ok": False, "failure": v.line}, indent=2))
        else:
            print(v.line)
        return FAILED
    a = audit.audit(v)
    if args.json:
        print(json.dumps({"ok": True, **audit.audit_json(a)}, indent=2))
    else:
        print(audit.format_audit(a), end="")
    return 0
