"""Drafts kept across a quit: the packet being written, saved in the game store.

The app (``ardennes --email GAME``) writes the commands of the packet it is writing after
every order and every undo to ``games/<id>/draft.json`` (:func:`save`: atomically, holding the
game's lock), with the ``seq``, ``prev`` hash and author of the packet they were written for
and its comment. A draft is local: it is never signed nor sent, and nothing else reads it.

When the game opens again the commands are pushed again onto a fresh draft
(:mod:`ardennes_tui.games.email_session`); a saved draft that no longer applies (another packet
stored meanwhile: its ``seq`` or ``prev`` differs; a command refused; a damaged file) is
:func:`set_aside` as ``draft-stale.<16 hex of its SHA-256>.json`` next to it, never deleted.
Sealing the packet discards its draft (:func:`discard`, :meth:`pbem.games.Service.seal`);
other orders sealed for that packet (``ardennes orders``) leave it to be set aside.

    drafts.save(store, game_id, SavedDraft.of(draft))
    saved = drafts.load(store, game_id)       # None, or StoreError for a damaged file
    why = saved.stale_for(fresh_draft)         # "" when it still applies
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from typing import Final

import msgspec

import rules.ao
from pbem.aoplay import ao_side
from pbem.atomic import fsync_dir, read_limited, write_atomic
from pbem.core import packets
from pbem.core.authoring import Draft
from pbem.store import Store, StoreError
from pbem.store_types import check_bytes, check_seq

__all__ = [
    "DRAFT_FILE",
    "MAX_DRAFT_BYTES",
    "SavedDraft",
    "discard",
    "load",
    "remove",
    "save",
    "set_aside",
]

FORMAT: Final = "ardennes-draft"
VERSION: Final = 1
DRAFT_FILE: Final = "draft.json"
MAX_DRAFT_BYTES: Final = packets.MAX_PACKET_BYTES
"""A draft is never larger than the packet it becomes (its commands without their hashes)."""
_HEX64: Final = re.compile(r"[0-9a-f]{64}")


class SavedDraft(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``draft.json``: the commands of packet ``seq`` of ``game`` (following the packet whose
    hash is ``prev``, written by ``author``) and its comment, not signed."""

    format: str
    version: int
    game: str
    seq: int
    prev: str
    author: rules.ao.Side
    comment: str = ""
    commands: tuple[rules.ao.Command, ...] = ()

    @classmethod
    def of(cls, draft: Draft) -> SavedDraft:
        """What to save of ``draft``."""
        b = draft.body
        return cls(
            format=FORMAT,
            version=VERSION,
            game=b.game,
            seq=b.seq,
            prev=b.prev,
            author=ao_side(b.author),
            comment=b.comment,
            commands=tuple(s.command for s in draft.steps),
        )

    def stale_for(self, draft: Draft) -> str:
        """Why this saved draft does not belong to the fresh ``draft`` ("" when it does)."""
        b = draft.body
        if self.game != b.game:
            return f"it is for game {self.game[:8]}"
        if self.seq != b.seq:
            return f"it was written for packet {self.seq}, the next packet is {b.seq}"
        if self.prev != b.prev or self.author != b.author:
            return f"packet {self.seq - 1} is not the one it followed"
        return ""


_ENC: Final = msgspec.json.Encoder()
_DEC: Final = msgspec.json.Decoder(SavedDraft)


def _check(saved: SavedDraft, game_id: str) -> None:
    """The checks msgspec's types do not make; :class:`StoreError` names the first."""
    if saved.format != FORMAT or saved.version != VERSION:
        raise StoreError(f"format {saved.format!r} version {saved.version} is not {FORMAT} 1")
    if saved.game != game_id:
        raise StoreError(f"it is for game {saved.game[:8]!r}")
    check_seq(saved.seq)
    if (saved.seq == 0) != (saved.prev == "") or (saved.prev and not _HEX64.fullmatch(saved.prev)):
        raise StoreError("its prev hash is not 64 hex digits")
    if len(saved.comment) > packets.MAX_COMMENT:
        raise StoreError(f"its comment is over {packets.MAX_COMMENT} characters")
    if len(saved.commands) > packets.MAX_COMMANDS:
        raise StoreError(f"it holds over {packets.MAX_COMMANDS} commands")


def save(store: Store, game_id: str, saved: SavedDraft) -> None:
    """Write ``saved`` as the draft of ``game_id`` (replacing the previous one), holding the
    game's lock; :class:`StoreError` when it cannot (locked, too big, a disk error)."""
    _check(saved, game_id)
    data = check_bytes(_ENC.encode(saved), MAX_DRAFT_BYTES, f"the draft of packet {saved.seq}")
    with store.transaction(game_id):
        try:
            write_atomic(store.game_dir(game_id) / DRAFT_FILE, data)
        except OSError as exc:
            raise StoreError(f"cannot write the draft: {exc.strerror or exc}") from None


def load(store: Store, game_id: str) -> SavedDraft | None:
    """The saved draft of ``game_id``, None when there is none; :class:`StoreError` when the
    file is damaged (too big, not a draft, not this game's)."""
    path = store.game_dir(game_id) / DRAFT_FILE
    what = f"game {game_id[:8]}: the saved draft"
    try:
        data = read_limited(path, MAX_DRAFT_BYTES, what, StoreError)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{what} cannot be read: {exc.strerror or exc}") from None
    try:
        saved = _DEC.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:  # ValidationError included
        raise StoreError(f"{what} is damaged: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise StoreError(f"{what} is damaged: JSON nested too deeply") from None
    try:
        _check(saved, game_id)
    except StoreError as exc:
        raise StoreError(f"{what} is damaged: {exc}") from None
    return saved


def discard(store: Store, game_id: str, sealed: SavedDraft) -> bool:
    """Remove the saved draft of ``game_id`` if it is ``sealed`` (the draft of the packet just
    sealed: the same packet, commands and comment): True when removed. Any other draft (of
    another packet, other orders for this one, a damaged file) stays for :func:`set_aside`."""
    with store.transaction(game_id):
        try:
            saved = load(store, game_id)
        except StoreError:
            return False
        if saved != sealed:
            return False
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(store.game_dir(game_id) / DRAFT_FILE)
            fsync_dir(store.game_dir(game_id))
        except OSError:  # the packet is sealed all the same; set aside on the next opening
            return False
    return True


def remove(store: Store, game_id: str) -> None:
    """Remove the saved draft of ``game_id`` whose commands were sealed (``ardennes orders``
    went on from it); nothing when there is none."""
    with store.transaction(game_id):
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(store.game_dir(game_id) / DRAFT_FILE)
            fsync_dir(store.game_dir(game_id))
        except OSError as exc:
            raise StoreError(f"cannot remove the saved draft: {exc.strerror or exc}") from None


def set_aside(store: Store, game_id: str) -> str:
    """Rename the saved draft of ``game_id`` to ``draft-stale.<16 hex>.json`` (its content's
    SHA-256: the same draft set aside twice is one file, never another one overwritten);
    returns the new name ("" when there was no draft); :class:`StoreError` when it cannot."""
    directory = store.game_dir(game_id)
    path = directory / DRAFT_FILE
    with store.transaction(game_id):
        try:
            with path.open("rb") as fh:  # hashed in chunks: any size
                digest = hashlib.file_digest(fh, "sha256").hexdigest()
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise StoreError(f"cannot read the saved draft: {exc.strerror or exc}") from None
        name = f"draft-stale.{digest[:16]}.json"
        target = directory / name
        try:
            if target.exists():  # the same bytes: already kept
                os.unlink(path)
            else:
                os.rename(path, target)
            fsync_dir(directory)
        except OSError as exc:
            raise StoreError(f"cannot set the saved draft aside: {exc.strerror or exc}") from None
    return name
