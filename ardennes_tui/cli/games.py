"""``ardennes games``: the games of the store (docs/pbem-protocol.md, "The game store").

One line per game, the most recently active first: the id (its first 8 hex digits;
``Store.find_game`` takes any unique start), the scenario, the side we play, whose move it is,
the dice mode, the last activity and the opponent, and what each dice mode listed allows
(:data:`pbem.core.dicemodes.SHORT`); then the hot-seat games (their scenario and where they
stand read from the record's first and last lines; a generated name by its first 8 hex digits)
and how to resume one (``ardennes --resume NAME``). ``--json`` prints the same as a list of
objects with the full ids. The store is ``$ARDENNES_HOME`` or the user data directory
(:mod:`pbem.store`).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import Any

from ardennes_tui.errors import UserError
from ardennes_tui.games.saves import short_name
from ardennes_tui.present.game_list import rows, when
from pbem.core import dicemodes
from pbem.store import Store, StoreError

__all__ = ["RESUME_HINT", "register", "render", "rows", "run"]

WIDTH = 80
"""The listing's width at most (a terminal of 80 columns)."""

RESUME_HINT = (
    "Hot-seat games: ardennes --resume NAME (a start of the name will do; "
    "--resume alone: the most recent)"
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "games",
        help="list the games: whose move, last activity",
        description="List the games of the store (play by email and hot-seat): the scenario, "
        "the side we play, whose move it is and the last activity.",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(func=run)


def render(games: list[dict[str, Any]]) -> str:
    """The text table of :func:`rows`."""
    if not games:
        return "No games yet.\n"
    table = [("GAME", "SC", "SIDE", "DICE", "TO MOVE", "LAST ACTIVITY", "OPPONENT")]
    for g in games:
        gid = g["id"][:8] if g["kind"] != "hot-seat" else short_name(g["id"])
        move = g["to_move"] or "?"
        if g["evidence"]:
            move += f" ({g['evidence']} evidence)"
        note = g["status"] if g["kind"] != "hot-seat" and g["status"] else ""
        table.append(
            (
                gid,
                str(g["scenario"] or "?"),
                g["side"].capitalize() if g["side"] else "?",
                g["dice"] or "-",
                move.capitalize() if move in ("german", "allied") else move,
                when(g["last_activity"]),
                " ".join(x for x in (g["opponent"], note and f"[{note}]") if x),
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    lines: list[str] = []
    for r in table:
        head = "  ".join(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True))
        line = f"{head}  {r[-1]}".rstrip()
        if len(line) <= WIDTH:
            lines.append(line)
        else:  # the opponent and the status under the row, indented: 80 columns at most
            lines.append(head.rstrip())
            lines += ["    " + x for x in textwrap.wrap(r[-1], WIDTH - 4)]
    for mode in dict.fromkeys(g["dice"] for g in games if g["dice"]):  # what each mode allows
        lines += textwrap.wrap(f"{mode} dice: {dicemodes.SHORT[mode]}", WIDTH)
    if any(g["kind"] == "hot-seat" for g in games):
        lines += textwrap.wrap(RESUME_HINT, WIDTH)
    return "".join(line + "\n" for line in lines)


def run(args: argparse.Namespace, root: Path | None = None) -> int:
    store = Store(root)
    try:
        games = rows(store)
    except (StoreError, OSError) as exc:
        raise UserError(f"cannot list the games in {store.root}: {exc}") from None
    if args.json:
        print(json.dumps([{k: v for k, v in g.items() if k != "dice"} for g in games], indent=2))
    else:
        print(render(games), end="")
    return 0
