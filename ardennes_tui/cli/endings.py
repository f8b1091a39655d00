"""``ardennes resign GAME`` and ``ardennes draw GAME --offer|--accept|--decline``: end a game by
email, or offer to (``docs/pbem-protocol.md`` section 3; the work is :mod:`pbem.endings`).

The packet is signed with the player's key, checked as the opponent will check it, stored, and
written to standard output, ``-o FILE`` or ``--mailto ADDR`` with what the opponent has not
seen yet, as ``ardennes orders`` does. A problem is one line on stderr: exit 1 for a refusal
(the game is over, no offer to answer, a wrong key), 2 for a usage error.
"""

from __future__ import annotations

import argparse
from typing import Any

from ardennes_tui.cli.email import (
    fail,
    game_id_of,
    key_options,
    player_identity,
    say,
    send_options,
    send_text,
    status_lines,
)
from pbem import endings
from pbem.core.errors import PbemError
from pbem.games import Service
from pbem.store import Store


def register(subparsers: Any) -> None:
    resign: argparse.ArgumentParser = subparsers.add_parser(
        "resign",
        help="resign a game by email: the other side wins",
        description="Resign GAME (an id or its start): a signed resign packet, stored and "
        "written to send to your opponent; the game is over, your opponent wins.",
    )
    resign.add_argument("game", metavar="GAME")
    resign.add_argument("--comment", default="", metavar="TEXT", help="a note to your opponent")
    key_options(resign)
    send_options(resign)
    resign.set_defaults(func=run_resign)

    draw: argparse.ArgumentParser = subparsers.add_parser(
        "draw",
        help="offer a draw in a game by email, or answer your opponent's offer",
        description="Offer a draw in GAME, or accept or decline your opponent's offer: a "
        "signed packet, stored and written to send. An accepted draw ends the game; a declined "
        "one lets it go on where it was. An offer waits for its answer before any other move.",
    )
    draw.add_argument("game", metavar="GAME")
    action = draw.add_mutually_exclusive_group(required=True)
    for name in ("offer", "accept", "decline"):
        action.add_argument(
            f"--{name}", dest="action", action="store_const", const=name, help=f"{name} a draw"
        )
    draw.add_argument("--comment", default="", metavar="TEXT", help="a note to your opponent")
    key_options(draw)
    send_options(draw)
    draw.set_defaults(func=run_draw)


def _run(args: argparse.Namespace, what: str) -> int:
    try:
        store = Store()
        service = Service(store)
        game_id = game_id_of(store, args.game)
        me = player_identity(args, service, game_id)
        if what == "resign":
            sent = endings.resign(service, game_id, me, args.comment)
        else:
            sent = endings.draw(service, game_id, me, args.action, args.comment)
        seq = store.count(game_id) - 1
        say(f"game {game_id[:8]}: packet {seq} ({what}) sealed and stored")
        status_lines(service, game_id)
        if service.load(game_id).mode != "local":
            send_text(sent.text, args, f"Ardennes {game_id[:8]}: packet {seq}", game_id, store)
    except PbemError as exc:
        fail(exc)
    return 0


def run_resign(args: argparse.Namespace) -> int:
    return _run(args, "resign")


_DRAW = {"offer": "draw offer", "accept": "draw accepted", "decline": "draw declined"}


def run_draw(args: argparse.Namespace) -> int:
    return _run(args, _DRAW[args.action])
