"""``ardennes games``: the games of the store (docs/pbem-protocol.md, "The game store").

One line per game, the most recently active first: the id (its first 8 hex digits;
``Store.find_game`` takes any unique start), the scenario, the side we play, whose move it is,
the last activity and the opponent; then the hot-seat games (their scenario and where they
stand read from the record's first and last lines; a generated name by its first 8 hex digits)
and how to resume one (``ardennes --resume NAME``). ``--json`` prints the same as a list of
objects with the full ids. The store is ``$ARDENNES_HOME`` or the user data directory
(:mod:`pbem.store`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import msgspec

from ardennes_tui.errors import UserError
from ardennes_tui.game_view import PHASE_NAMES
from ardennes_tui.saves import short_name
from pbem.store import LocalInfo, Store, StoreError
from rules import record

RESUME_HINT = (
    "Hot-seat games: ardennes --resume NAME (a start of the name will do; "
    "--resume alone: the most recent)"
)

_HEAD_BYTES = 64 << 10
"""How much of a hot-seat record the listing reads at each end (a header, a footer)."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "games",
        help="list the games: whose move, last activity",
        description="List the games of the store (play by email and hot-seat): the scenario, "
        "the side we play, whose move it is and the last activity.",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(func=run)


def _local_standing(store: Store, info: LocalInfo) -> tuple[int | None, str]:
    """The scenario of a hot-seat record and where it stands (``GT3 Combat``), from its
    header and end lines only; ``(None, "?")`` for a record that does not say."""
    path = store.local_dir / f"{info.name}.jsonl"
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD_BYTES)
            fh.seek(max(0, info.size - _HEAD_BYTES))
            tail = fh.read(_HEAD_BYTES)
    except OSError:
        return None, "?"
    lines = [x for x in head.splitlines()[:1] + tail.splitlines()[-1:] if x.strip()]
    try:
        header = msgspec.json.decode(lines[0], type=record.Header)
    except (IndexError, msgspec.DecodeError):
        return None, "?"
    try:
        footer = msgspec.json.decode(lines[-1], type=record.Footer)
    except msgspec.DecodeError:
        return header.scenario, "?"
    if footer.phase == "game_over":
        return header.scenario, "over"
    names: dict[str, str] = {k: v for k, v in PHASE_NAMES.items()}
    phase = names.get(footer.phase, footer.phase)
    return header.scenario, f"GT{footer.turn} {phase}"


def rows(store: Store) -> list[dict[str, Any]]:
    """The games of ``store`` as ``ardennes games --json`` prints them."""
    out: list[dict[str, Any]] = []
    for g in store.games():
        out.append(
            {
                "id": g.game_id,
                "kind": "pbem",
                "scenario": g.scenario or None,
                "side": g.our_side,
                "to_move": g.to_move,
                "last_activity": g.last_activity,
                "opponent": g.opponent,
                "status": g.problem or g.status,
                "packets": g.packets,
                "evidence": g.evidence,
            }
        )
    for info in store.list_local():
        scenario, standing = _local_standing(store, info)
        out.append(
            {
                "id": info.name,
                "kind": "hot-seat",
                "scenario": scenario,
                "side": "both",
                "to_move": standing,
                "last_activity": info.last_activity,
                "opponent": "",
                "status": "",
                "packets": None,
                "evidence": 0,
            }
        )
    return out


def _when(iso: str) -> str:
    """``2024-12-16T05:31:00+00:00`` as ``2024-12-16 05:31 UTC``."""
    if len(iso) >= 16 and iso.endswith("+00:00"):
        return f"{iso[:10]} {iso[11:16]} UTC"
    return iso or "?"


def render(games: list[dict[str, Any]]) -> str:
    """The text table of :func:`rows`."""
    if not games:
        return "No games yet.\n"
    table = [("GAME", "SC", "SIDE", "TO MOVE", "LAST ACTIVITY", "OPPONENT")]
    for g in games:
        gid = g["id"][:8] if g["kind"] == "pbem" else short_name(g["id"])
        move = g["to_move"] or "?"
        if g["evidence"]:
            move += f" ({g['evidence']} evidence)"
        note = g["status"] if g["kind"] == "pbem" and g["status"] else ""
        table.append(
            (
                gid,
                str(g["scenario"] or "?"),
                g["side"].capitalize() if g["side"] else "?",
                move.capitalize() if move in ("german", "allied") else move,
                _when(g["last_activity"]),
                " ".join(x for x in (g["opponent"], note and f"[{note}]") if x),
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    text = "".join(
        "  ".join([*(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)), r[-1]]).rstrip()
        + "\n"
        for r in table
    )
    if any(g["kind"] == "hot-seat" for g in games):
        text += RESUME_HINT + "\n"
    return text


def run(args: argparse.Namespace, root: Path | None = None) -> int:
    store = Store(root)
    try:
        games = rows(store)
    except (StoreError, OSError) as exc:
        raise UserError(f"cannot list the games in {store.root}: {exc}") from None
    if args.json:
        print(json.dumps(games, indent=2))
    else:
        print(render(games), end="")
    return 0
