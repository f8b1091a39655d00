"""``ardennes orders GAME [--commands FILE]``: your next packets of a game by email from a file
of commands (JSONL, ``docs/position-format.md``), as :meth:`pbem.games.Service.orders` plays
them: sealed and stored, what to send written as ``ardennes export`` writes it; in sealed
mode stopping where a batch waits for the reply (the rest kept for after it), and a packet
the commands end inside kept as its draft (``docs/pbem.md``, section 5).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import msgspec

import rules.ao
from ardennes_tui.cli import email as cli_email
from ardennes_tui.errors import UserError
from pbem.core.errors import PbemError
from pbem.games import Service
from pbem.store import Store

__all__ = ["register", "run_orders"]


def register(subparsers: Any) -> None:
    orders: argparse.ArgumentParser = subparsers.add_parser(
        "orders",
        help="play your next packets from a file of commands",
        description="Fill your next packets of GAME with the commands of FILE (JSONL, one "
        "command a line, as 'ardennes rules apply' reads them), sign them and write what to "
        "send. All or nothing: a refused command is named with its rule. Sealed dice: where a "
        "batch waits for your opponent's reply the complete packets go out and the commands "
        "after it are kept for after the reply; commands that end inside a packet are kept as "
        "its draft. The next orders of the game puts what was kept first.",
    )
    orders.add_argument("game", metavar="GAME")
    orders.add_argument(
        "--commands",
        type=Path,
        metavar="FILE",
        help="the commands (none: only those kept by the last orders of the game)",
    )
    orders.add_argument("--comment", default="", metavar="TEXT", help="a note to your opponent")
    cli_email.key_options(orders)
    cli_email.send_options(orders)
    orders.set_defaults(func=run_orders)


def _read_commands(path: Path) -> list[rules.ao.Command]:
    text = cli_email.read_packet_input(str(path)).decode("utf-8", "replace")
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(rules.ao.decode_command(line))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise UserError(f"{path}: line {number}: not a command: {exc}", 2) from None
    return out


def run_orders(args: argparse.Namespace) -> int:
    commands = _read_commands(args.commands) if args.commands is not None else []
    try:
        store = Store()
        service = Service(store)
        game_id = cli_email.game_id_of(store, args.game)
        short = game_id[:8]
        before = store.count(game_id)
        me = cli_email.player_identity(args, service, game_id)
        done = service.orders(game_id, me, commands, args.comment)
        if done.kept:
            cli_email.say(f"game {short}: {done.kept}")
        after = before + done.sealed
        which = f"packet {before}" if after == before + 1 else f"packets {before}-{after - 1}"
        if done.sealed:
            cli_email.say(f"game {short}: {which} sealed and stored")
        if done.rest:
            other = rules.ao.other_side(store.meta(game_id).our_side).capitalize()
            cli_email.say(
                f"game {short}: {done.rest} command(s) kept for packet {after + 1}, after the "
                f"{other} reply to your batch: import it, then: ardennes orders {short}"
            )
        if done.draft >= 0:
            cli_email.say(
                f"game {short}: packet {after} not complete: its {done.draft} order(s) kept "
                f"as its draft (ardennes show {short} shows where they lead; go on with "
                f"ardennes orders {short} --commands MORE, or in the app)"
            )
        cli_email.status_lines(service, game_id)
        if done.sealed and service.load(game_id).mode != "local":
            cli_email.send_text(done.text, args, f"Ardennes {short}: {which}", game_id, store)
    except PbemError as exc:
        cli_email.fail(exc)
    return 0
