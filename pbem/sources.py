"""Where a game to check comes from: the ``FILE|GAME`` argument of ``ardennes verify`` and
``ardennes audit``.

:func:`load_source` reads one of:

* a **text file of armoured packets** (``docs/pbem-protocol.md`` section 7): any text around
  the blocks, mail quoting and all (:func:`pbem.core.armor.dearmor_all`), each block decoded
  strictly (:func:`pbem.core.packets.decode`); the blocks may come in any order (they are sorted by
  ``seq``), copies of one packet count once;
* a **game record** (:mod:`rules.record`, its first line a ``{"kind":"header"...}``);
* a **game of the local store** (:class:`pbem.store.Store`): its id or a unique start of it,
  as ``ardennes games`` shows it;
* ``-``: standard input, read as a file.

Two kinds of trouble are kept apart. Input that cannot be read at all (no such file or game,
over the size limit, nothing in it that looks like packets or a record) raises
:class:`SourceError`: ``ardennes verify`` exits 2. Content that is there but damaged (an
armour checksum, a packet or record that does not decode, an armour header that contradicts
its packet) is a verification failure: the :class:`Source` carries it as :attr:`Source.problem`
and :func:`pbem.audit.verify` reports it (exit 1). Every message is one line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import BinaryIO, Final

import rules
from pbem.core import armor, packets
from pbem.core.errors import PbemError
from pbem.core.headers import armor_headers
from pbem.core.packets import Packet
from pbem.core.verify import Source
from pbem.store import Store

__all__ = ["MAX_SOURCE_BYTES", "Source", "SourceError", "load_source"]

MAX_SOURCE_BYTES: Final = 16 << 20
"""The largest file read: a game record's limit (``rules.record.MAX_RECORD_BYTES``) and the
armour's (``pbem.core.armor.MAX_TEXT``) are both 16 MiB."""


_GAME_PREFIX: Final = re.compile(r"[0-9a-f]{1,32}")


class SourceError(PbemError):
    """The input cannot be read at all (``ardennes verify`` exits 2). One line."""


def _read_file(arg: str, stdin: BinaryIO | None) -> bytes:
    if arg == "-":
        if stdin is None:
            raise SourceError("no standard input to read")
        data = stdin.read(MAX_SOURCE_BYTES + 1)
    else:
        path = Path(arg)
        if path.is_dir():
            raise SourceError(f"{arg} is a directory, not a file of packets or a game record")
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_SOURCE_BYTES + 1)
        except OSError as exc:
            raise SourceError(f"cannot read {arg}: {exc.strerror or exc}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceError(f"{arg} is over the {MAX_SOURCE_BYTES >> 20} MiB limit")
    return data


def _header_problem(index: int, block: armor.Armored, p: Packet) -> str | None:
    """The first armour header line that contradicts the packet it carries (the checksum
    binds the headers to the payload against damage, not against someone who recomputes it;
    a reader should not be misled by the readable lines)."""
    for key, value in armor_headers(p).items():
        shown = block.headers.get(key)
        if shown is not None and shown != value:
            return (
                f"block {index}: the header line says {key}: {shown}, the packet itself "
                f"{value} (altered headers)"
            )
    return None


def _from_text(name: str, data: bytes) -> Source:
    text = data.decode("utf-8", errors="replace")
    try:
        blocks = armor.dearmor_all(text)
    except armor.ArmorError as exc:
        return Source("packets", name, problem=f"{name}: {exc}")
    if not blocks:
        raise SourceError(f"{name} holds no armoured packets and is not a game record")
    found: dict[str, Packet] = {}
    problem = None
    for i, block in enumerate(blocks, start=1):
        try:
            p = packets.decode(block.payload)
        except packets.PacketError as exc:
            problem = f"block {i} ({_describe(block)}): {exc}"
            break
        except Exception as exc:  # hostile input: one line, never a traceback
            problem = f"block {i} ({_describe(block)}): could not be read ({type(exc).__name__})"
            break
        problem = _header_problem(i, block, p)
        if problem is not None:
            break
        found.setdefault(p.hash, p)  # copies of one packet (however armoured) count once
    ordered = sorted(found.values(), key=lambda p: p.body.seq)
    return Source("packets", name, packets=tuple(ordered), problem=problem)


def _describe(block: armor.Armored) -> str:
    seq = block.headers.get("Seq")
    return f"Seq {seq}" if seq is not None else "no Seq header"


def _from_record(name: str, data: bytes) -> Source:
    try:
        record = rules.record.decode(data)
    except rules.RecordError as exc:
        return Source("record", name, problem=f"{name}: {exc}")
    return Source("record", name, record=record)


def _from_store(prefix: str, store: Store) -> Source:
    try:
        gid = store.find_game(prefix)
        raw = store.packets(gid)
    except PbemError as exc:
        raise SourceError(str(exc)) from None
    except OSError as exc:
        raise SourceError(f"cannot read the store at {store.root}: {exc}") from None
    name = f"game {gid}"
    found: list[Packet] = []
    problem = None
    for seq, data in enumerate(raw):
        try:
            p = packets.decode(data)
        except packets.PacketError as exc:
            problem = f"{name}, stored packet {seq}: {exc}"
            break
        except Exception as exc:
            problem = f"{name}, stored packet {seq} could not be read ({type(exc).__name__})"
            break
        if p.body.seq != seq:
            problem = f"{name}: the store's packet {seq} is packet {p.body.seq} of its game"
            break
        found.append(p)
    if not found and problem is None:
        raise SourceError(f"{name} holds no packets yet")
    return Source("store", name, packets=tuple(found), problem=problem)


def load_source(arg: str, store: Store | None = None, stdin: BinaryIO | None = None) -> Source:
    """Read ``arg``: a file (``-`` for ``stdin``) of armoured packets or a game record, else
    the game of ``store`` (default: the user's, :class:`pbem.store.Store`) whose id starts
    with ``arg``. Raises :class:`SourceError` for input that cannot be read at all."""
    if not isinstance(arg, str) or not arg:
        raise SourceError("name a file of packets, a game record or a game of the store")
    try:
        exists = arg == "-" or Path(arg).exists()
    except (OSError, ValueError):  # a NUL byte, a name too long
        exists = False
    if exists:
        data = _read_file(arg, stdin)
        if rules.record.looks_like_record(data):
            return _from_record(arg, data)
        return _from_text(arg, data)
    if _GAME_PREFIX.fullmatch(arg):
        return _from_store(arg, store if store is not None else Store())
    raise SourceError(f"{arg}: no such file, and not a game id (hex digits, as `ardennes games`)")
