"""Invitations received and not yet accepted, kept in the game store.

An invitation found by an import (``ardennes import`` of a mailbox, the app's ``i``) is not a
game yet: nothing of it is in the store, and there may be no file to give ``ardennes accept``.
So the importer keeps its armoured text, once verified, as ``invitations/<game id>.txt`` under
the store's root (:func:`keep`; at most :data:`MAX_KEPT`, never over a kept one): ``ardennes
games`` lists it, and ``ardennes accept GAME`` (an id or its start) accepts it from there
(:func:`find`); accepting removes it (:func:`discard`).

The file is only a copy of what was received: accepting reads and verifies it again, like any
file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from pathlib import Path
from typing import Final, NamedTuple

from pbem.atomic import read_limited, write_atomic
from pbem.core import packets
from pbem.core.armor import dearmor_all
from pbem.core.errors import PbemError
from pbem.core.headers import armor_packets
from pbem.core.packets import DEFAULT_RULESET, Packet
from pbem.store import Store

__all__ = ["Kept", "discard", "find", "keep", "kept"]

DIR: Final = "invitations"
MAX_KEPT: Final = 100
"""Invitations kept at most (a mailbox full of them keeps the first hundred)."""
_NAME: Final = re.compile(r"([0-9a-f]{32})\.txt")


class Kept(NamedTuple):
    """A kept invitation: its game id, the invitation, its armoured text, when."""

    game_id: str
    invitation: Packet
    text: str
    kept_at: str
    """When it was kept (ISO 8601 UTC, the file's time)."""


def _dir(store: Store) -> Path:
    return store.root / DIR


def keep(store: Store, invitation: Packet) -> bool:
    """Keep ``invitation`` (verified by the caller) unless it is kept already, its game is in
    the store, or :data:`MAX_KEPT` are kept; whether it is kept now."""
    gid = invitation.body.game
    if not re.fullmatch(r"[0-9a-f]{32}", gid) or gid in store.game_ids():
        return False
    folder = _dir(store)
    path = folder / f"{gid}.txt"
    try:
        if path.exists():
            return True
        if folder.is_dir() and sum(1 for _ in folder.iterdir()) >= MAX_KEPT:
            return False
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(
            path,
            armor_packets([invitation], invitation.body.ruleset or DEFAULT_RULESET).encode("ascii"),
        )
    except OSError:
        return False
    return True


def kept(store: Store) -> list[Kept]:
    """The invitations kept, sorted by game id; a damaged file is left out."""
    folder = _dir(store)
    if not folder.is_dir():
        return []
    out: list[Kept] = []
    for path in sorted(folder.iterdir()):
        m = _NAME.fullmatch(path.name)
        if m is None:
            continue
        try:
            text = read_limited(path, 4 * packets.MAX_PACKET_BYTES, path.name).decode("ascii")
            found = [packets.decode(a.payload) for a in dearmor_all(text)]
            found = [p for p in found if p.body.kind == "invitation"]
        except (OSError, UnicodeDecodeError, PbemError, ValueError):
            continue
        if len(found) == 1 and found[0].body.game == m.group(1):
            when = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC)
            out.append(Kept(m.group(1), found[0], text, when.isoformat(timespec="seconds")))
    return out


def find(store: Store, prefix: str) -> Kept | None:
    """The kept invitation whose game id starts with ``prefix`` (None: none; a
    :class:`PbemError` when several do)."""
    prefix = prefix.lower()
    if not re.fullmatch(r"[0-9a-f]{4,32}", prefix):
        return None
    found = [k for k in kept(store) if k.game_id.startswith(prefix)]
    if len(found) > 1:
        raise PbemError(f"{prefix} starts {len(found)} invitations kept: give more of the id")
    return found[0] if found else None


def discard(store: Store, game_id: str) -> None:
    """Forget the kept invitation of ``game_id`` (accepted); nothing if none."""
    with contextlib.suppress(OSError):
        (_dir(store) / f"{game_id}.txt").unlink(missing_ok=True)
