"""The rest of a player-turn, kept while a sealed batch waits for the opponent's reply.

``ardennes orders`` fills our next packets with a file of commands. In sealed mode a packet
may end where a batch waits for the reply (the declared attacks, the paratroop drop): the
commands after that point belong to the resolution packet, which can only be written once the
reply is in. So :meth:`pbem.games.Service.orders` seals and stores what is complete and keeps
the rest here, as ``games/<id>/orders-rest.json`` (:func:`save`, under the game's lock): the
packet they are for (``seq``: the one after the reply), the comment, the commands. The next
``ardennes orders`` of the game (after the import of the reply) puts them first
(:func:`load`); once they are sealed or kept in a draft the file is removed (:func:`discard`).
If the game went elsewhere meanwhile (``seq`` no longer the next packet) they no longer apply:
:func:`set_aside` renames the file ``orders-rest-stale.json`` (never deleted).

Like the app's draft (:mod:`pbem.drafts`), the file is local: never signed nor sent.
"""

from __future__ import annotations

import contextlib
import os
from typing import Final

import msgspec

import rules.ao
from pbem.atomic import fsync_dir, read_limited, write_atomic
from pbem.core import packets
from pbem.store import Store, StoreError
from pbem.store_types import check_bytes, check_seq

__all__ = ["REST_FILE", "Rest", "discard", "load", "save", "set_aside"]

FORMAT: Final = "ardennes-orders-rest"
VERSION: Final = 1
REST_FILE: Final = "orders-rest.json"
STALE_FILE: Final = "orders-rest-stale.json"


class Rest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Commands kept for packet ``seq`` of ``game`` (the packet after the opponent's reply)."""

    format: str
    version: int
    game: str
    seq: int
    comment: str = ""
    commands: tuple[rules.ao.Command, ...] = ()


_ENC: Final = msgspec.json.Encoder()
_DEC: Final = msgspec.json.Decoder(Rest)


def make(game_id: str, seq: int, commands: list[rules.ao.Command], comment: str = "") -> Rest:
    return Rest(FORMAT, VERSION, game_id, seq, comment, tuple(commands))


def save(store: Store, rest: Rest) -> None:
    """Keep ``rest`` (replacing what was kept); :class:`StoreError` when it cannot."""
    check_seq(rest.seq)
    if len(rest.commands) > packets.MAX_COMMANDS:
        raise StoreError(f"over {packets.MAX_COMMANDS} commands to keep")
    data = check_bytes(_ENC.encode(rest), packets.MAX_PACKET_BYTES, "the commands kept")
    with store.transaction(rest.game):
        try:
            write_atomic(store.game_dir(rest.game) / REST_FILE, data)
        except OSError as exc:
            raise StoreError(f"cannot keep the commands: {exc.strerror or exc}") from None


def load(store: Store, game_id: str) -> Rest | None:
    """The commands kept for ``game_id`` (None: none); :class:`StoreError` for a damaged
    file."""
    path = store.game_dir(game_id) / REST_FILE
    what = f"game {game_id[:8]}: the commands kept ({REST_FILE})"
    try:
        data = read_limited(path, packets.MAX_PACKET_BYTES, what, StoreError)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{what} cannot be read: {exc.strerror or exc}") from None
    try:
        rest = _DEC.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise StoreError(f"{what} is damaged: {str(exc).splitlines()[0]}") from None
    if (rest.format, rest.version, rest.game) != (FORMAT, VERSION, game_id):
        raise StoreError(f"{what} is damaged: not {FORMAT} 1 of this game")
    return rest


def discard(store: Store, game_id: str) -> None:
    """Remove the kept commands of ``game_id`` (used)."""
    with store.transaction(game_id), contextlib.suppress(FileNotFoundError):
        os.unlink(store.game_dir(game_id) / REST_FILE)
        fsync_dir(store.game_dir(game_id))


def set_aside(store: Store, game_id: str) -> str:
    """Rename the kept commands ``orders-rest-stale.json`` (replacing an older one): they no
    longer apply; the new name ("" when there was nothing)."""
    directory = store.game_dir(game_id)
    with store.transaction(game_id):
        try:
            os.replace(directory / REST_FILE, directory / STALE_FILE)
            fsync_dir(directory)
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise StoreError(f"cannot set the kept commands aside: {exc.strerror}") from None
    return STALE_FILE
