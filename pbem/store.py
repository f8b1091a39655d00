"""The game store: every game as an append-only record of its packets (docs/pbem-protocol.md,
"The game store").

Packets here are opaque signed bytes with a game id and a ``seq``: the store neither decodes
nor verifies them (that is :mod:`pbem.core.packets`' job, before :meth:`Store.append`). Layout under
the root (``$ARDENNES_HOME``, else ``platformdirs.user_data_dir("ardennes")``)::

    games/<game-id>/packets/000000.pkt   one file per accepted packet, immutable once written
    games/<game-id>/meta.json            a small index (scenario, sides, whose move, times)
    games/<game-id>/evidence/            rejected or conflicting packets kept as proof
    games/<game-id>/draft.json           the app's packet being written (pbem.drafts)
    games/<game-id>/.lock                the writer's lock
    local/<name>.jsonl                   hot-seat game records, rewritten after every command

Every write goes to a temporary file in the same directory, is flushed and ``fsync``-ed,
renamed over its name with ``os.replace``, and the directory is ``fsync``-ed: a crash at any
point leaves either the old file or the new one, never a part, and loses no packet already
written (``tests/pbem/test_store.py::test_crash``). A packet file is never overwritten:
appending the same bytes again is a no-op, different bytes for a ``seq`` already written are
**equivocation** (:class:`EquivocationError`), and both versions are kept under ``evidence/``.

One writer per game: :meth:`Store.transaction` (and every write) holds ``fcntl.flock`` on the
game's ``.lock``. The lock is advisory (it stops other copies of this program, not other
programs) and POSIX-only; on other systems every write refuses with :class:`StoreError`.
Reads take no lock: they only ever see whole files. Game ids, ``seq`` numbers and names from
outside are validated before any path is built from them, and every read is size-limited.

    store = Store()                                   # or Store(tmp_path) in tests
    store.create_game(gid, GameMeta(scenario=1, our_side="german", german="me", allied="you"))
    with store.transaction(gid):                      # verify and append under one lock
        store.append(gid, len(store.packets(gid)), packet_bytes)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import msgspec

from pbem.atomic import FileLock, clean_temps, fsync_dir, read_limited, write_atomic

if sys.platform != "win32":
    pass

__all__ = [
    "MAX_EVIDENCE_BYTES",
    "MAX_LOCAL_BYTES",
    "MAX_META_BYTES",
    "MAX_PACKETS",
    "MAX_PACKET_BYTES",
    "EquivocationError",
    "GameInfo",
    "GameLocked",
    "GameMeta",
    "LocalInfo",
    "Side",
    "Store",
    "StoreError",
    "check_game_id",
    "default_root",
    "new_game_id",
]

from pbem.store_types import (
    EVIDENCE_NAME,
    GAME_ID,
    LOCAL_NAME,
    LOCK_WAIT,
    MAX_EVIDENCE_BYTES,
    MAX_LOCAL_BYTES,
    MAX_META_BYTES,
    MAX_PACKET_BYTES,
    MAX_PACKETS,
    MAX_REFUSED_EVIDENCE,
    PACKET_FILE,
    STALE_CREATE,
    STOPPED,
    EquivocationError,
    GameInfo,
    GameLocked,
    GameMeta,
    LocalInfo,
    Side,
    StoreError,
    check_bytes,
    check_game_id,
    check_name,
    check_seq,
    default_root,
    new_game_id,
)


def _now_iso(clock: Callable[[], datetime]) -> str:
    return clock().astimezone(UTC).isoformat(timespec="seconds")


_META_DEC: Final = msgspec.json.Decoder(GameMeta)


class Store:
    """The games of one user (see the module docstring); ``root`` defaults to
    :func:`default_root`, ``clock`` (for the times in ``meta.json``) to the system's,
    ``lock_wait`` is how long a write waits for another writer before :class:`GameLocked`.

    Not thread-safe; one :class:`Store` per process is the intended use."""

    def __init__(
        self,
        root: Path | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
        lock_wait: float = LOCK_WAIT,
    ) -> None:
        self.root = root if root is not None else default_root()
        self._clock = clock if clock is not None else (lambda: datetime.now(UTC))
        self.lock_wait = lock_wait
        self._locks: dict[Path, FileLock] = {}

    # -- paths -------------------------------------------------------------------------------

    @property
    def games_dir(self) -> Path:
        return self.root / "games"

    @property
    def local_dir(self) -> Path:
        return self.root / "local"

    def game_dir(self, game_id: str) -> Path:
        """The directory of ``game_id`` (validated; it may not exist)."""
        return self.games_dir / check_game_id(game_id)

    def _existing(self, game_id: str) -> Path:
        directory = self.game_dir(game_id)
        if not (directory / "meta.json").is_file():
            raise StoreError(f"game {game_id} is not in the store ({self.games_dir})")
        return directory

    # -- locks -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, path: Path, label: str, on_first: Callable[[], None]) -> Iterator[None]:
        lock = self._locks.get(path)
        if lock is None:
            lock = self._locks[path] = FileLock(path, label, GameLocked)
        if lock.acquire(self.lock_wait):
            try:
                on_first()
            except BaseException:
                lock.release()
                raise
        try:
            yield
        finally:
            lock.release()

    @contextlib.contextmanager
    def transaction(self, game_id: str) -> Iterator[None]:
        """Hold the game's lock for the block (re-entrant in this :class:`Store`): check a
        packet against :meth:`packets` and :meth:`append` it with nobody writing in between.
        :class:`GameLocked` ("game X is open in another process") after ``lock_wait``
        seconds. The lock is advisory and POSIX-only (``fcntl.flock``)."""
        directory = self._existing(game_id)

        def clean() -> None:  # what a writer killed mid-write left behind
            for sub in (directory, directory / "packets", directory / "evidence"):
                clean_temps(sub)

        with self._locked(directory / ".lock", f"game {game_id}", clean):
            yield

    @contextlib.contextmanager
    def local_session(self, name: str) -> Iterator[None]:
        """Hold the lock of hot-seat record ``name`` for the block (the app holds it while the
        game is open, so a second copy of the program refuses to open the same game)."""
        check_name(name, LOCAL_NAME, "hot-seat game")
        self.local_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.local_dir / f".{name}.lock"
        with self._locked(
            path, f"game {name}", lambda: clean_temps(self.local_dir, f".{name}.jsonl.")
        ):
            yield

    # -- games -------------------------------------------------------------------------------

    def create_game(self, game_id: str, meta: GameMeta) -> GameMeta:
        """Create the empty game ``game_id`` with ``meta`` (its times set now); returns the
        meta written. Built in a temporary directory and renamed into place, so a game exists
        whole or not at all. :class:`StoreError` if the game exists."""
        check_game_id(game_id)
        if not isinstance(meta, GameMeta):
            raise StoreError("meta must be a GameMeta")
        self.games_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._clean_stale_creations()
        target = self.game_dir(game_id)
        if target.exists():
            raise StoreError(f"game {game_id} already exists")
        now = _now_iso(self._clock)
        meta = msgspec.structs.replace(meta, created=now, last_activity=now)
        tmp = Path(tempfile.mkdtemp(dir=self.games_dir, prefix=f".new-{game_id}-"))
        try:
            for sub in ("packets", "evidence"):
                (tmp / sub).mkdir(mode=0o700)
                fsync_dir(tmp / sub)
            write_atomic(tmp / "meta.json", msgspec.json.encode(meta))
            try:
                os.rename(tmp, target)  # fails when target exists and is not empty
            except OSError:
                raise StoreError(f"game {game_id} already exists") from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        fsync_dir(self.games_dir)
        return meta

    def _clean_stale_creations(self) -> None:
        cutoff = time.time() - STALE_CREATE
        with contextlib.suppress(FileNotFoundError):
            for entry in os.scandir(self.games_dir):
                if entry.name.startswith(".new-"):
                    with contextlib.suppress(OSError):
                        if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                            shutil.rmtree(entry.path, ignore_errors=True)

    def meta(self, game_id: str) -> GameMeta:
        """The ``meta.json`` of ``game_id``; :class:`StoreError` if missing or damaged."""
        path = self._existing(game_id) / "meta.json"
        data = read_limited(path, MAX_META_BYTES, f"game {game_id}: meta.json", StoreError)
        try:
            return _META_DEC.decode(data)
        except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
            raise StoreError(f"game {game_id}: meta.json is damaged: {exc}") from None

    def update_meta(self, game_id: str, meta: GameMeta, *, touch: bool = True) -> GameMeta:
        """Replace the meta of ``game_id`` by ``meta`` (its ``created`` kept, ``last_activity``
        set now, or kept with ``touch=False``: a change that is no move of the game), e.g.
        ``store.update_meta(gid, msgspec.structs.replace(store.meta(gid), to_move="allied"))``;
        returns the meta written."""
        if not isinstance(meta, GameMeta):
            raise StoreError("meta must be a GameMeta")
        with self.transaction(game_id):
            old = self.meta(game_id)
            when = _now_iso(self._clock) if touch else old.last_activity
            meta = msgspec.structs.replace(meta, created=old.created, last_activity=when)
            write_atomic(self.game_dir(game_id) / "meta.json", msgspec.json.encode(meta))
        return meta

    def _packet_seqs(self, game_id: str) -> list[int]:
        """The ``seq`` of every packet file, checked contiguous from 0 (temporary files and
        other names ignored)."""
        seqs = []
        for entry in os.scandir(self._existing(game_id) / "packets"):
            m = PACKET_FILE.fullmatch(entry.name)
            if m:
                seqs.append(int(m.group(1)))
        seqs.sort()
        for i, seq in enumerate(seqs):
            if seq != i:
                raise StoreError(f"game {game_id}: packet {i} is missing (the next is {seq})")
        return seqs

    def count(self, game_id: str) -> int:
        """How many packets ``game_id`` holds (the next ``seq``)."""
        return len(self._packet_seqs(game_id))

    def packet(self, game_id: str, seq: int) -> bytes:
        """The bytes of packet ``seq`` of ``game_id``."""
        path = self._existing(game_id) / "packets" / f"{check_seq(seq):06d}.pkt"
        try:
            data = read_limited(path, MAX_PACKET_BYTES, f"game {game_id}: packet {seq}", StoreError)
        except FileNotFoundError:
            raise StoreError(f"game {game_id} has no packet {seq}") from None
        if not data:
            raise StoreError(f"game {game_id}: packet {seq} is empty")
        return data

    def packets(self, game_id: str) -> list[bytes]:
        """Every packet of ``game_id`` in ``seq`` order (checked contiguous from 0)."""
        return [self.packet(game_id, seq) for seq in self._packet_seqs(game_id)]

    def append(self, game_id: str, seq: int, data: bytes) -> bool:
        """Keep ``data`` as packet ``seq`` of ``game_id`` (the caller has verified it); True
        when written, False when the same bytes were already there (a no-op).

        ``seq`` must be the next one (:meth:`count`) or one already written: different bytes
        for a written ``seq`` raise :class:`EquivocationError` after keeping both under
        ``evidence/``. Holds the game's lock (:meth:`transaction`)."""
        check_seq(seq)
        check_bytes(data, MAX_PACKET_BYTES, f"packet {seq}")
        with self.transaction(game_id):
            n = self.count(game_id)
            if seq < n:
                old = self.packet(game_id, seq)
                if old == data:
                    return False
                kept = (
                    self._keep(game_id, f"seq-{seq:06d}", old),
                    self._keep(game_id, f"seq-{seq:06d}", data),
                )
                raise EquivocationError(game_id, seq, kept)
            if seq > n:
                raise StoreError(f"game {game_id}: packet {seq} arrives before packet {n}")
            directory = self.game_dir(game_id)
            write_atomic(directory / "packets" / f"{seq:06d}.pkt", data)
            self._touch(game_id)
        return True

    def _touch(self, game_id: str) -> None:
        """Set ``last_activity`` (with the lock held). A crash before this leaves an older
        time, never a lost packet."""
        meta = msgspec.structs.replace(self.meta(game_id), last_activity=_now_iso(self._clock))
        write_atomic(self.game_dir(game_id) / "meta.json", msgspec.json.encode(meta))

    # -- evidence ----------------------------------------------------------------------------

    def _keep(self, game_id: str, name: str, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()[:16]
        file = f"{name}.{digest}.bin"
        path = self.game_dir(game_id) / "evidence" / file
        if not path.exists():
            write_atomic(path, data)
        return file

    def keep_evidence(self, game_id: str, name: str, data: bytes) -> str:
        """Keep ``data`` under ``evidence/`` of ``game_id`` as proof (a refused packet that a
        pinned key signed, protocol section 5); the file is ``<name>.<16 hex of its
        SHA-256>.bin``, so the same bytes are kept once and nothing is overwritten. Returns the
        file name, or "" when the game already keeps :data:`MAX_REFUSED_EVIDENCE` such files
        (the packets of an equivocation, :meth:`append`, are not counted). Changes nothing
        else in the game."""
        check_name(name, EVIDENCE_NAME, "evidence")
        check_bytes(data, MAX_EVIDENCE_BYTES, "evidence")
        with self.transaction(game_id):
            directory = self.game_dir(game_id) / "evidence"
            file = f"{name}.{hashlib.sha256(data).hexdigest()[:16]}.bin"
            kept = [
                e.name
                for e in os.scandir(directory)
                if e.name.endswith(".bin") and not e.name.startswith(("seq-", "."))
            ]
            if file not in kept and len(kept) >= MAX_REFUSED_EVIDENCE:
                return ""
            return self._keep(game_id, name, data)

    def evidence(self, game_id: str) -> dict[str, bytes]:
        """Every piece of evidence of ``game_id``, by file name."""
        directory = self._existing(game_id) / "evidence"
        out = {}
        for entry in sorted(os.scandir(directory), key=lambda e: e.name):
            if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
                continue
            out[entry.name] = read_limited(
                Path(entry.path),
                MAX_EVIDENCE_BYTES,
                f"game {game_id}: evidence {entry.name}",
                StoreError,
            )
        return out

    # -- listing -----------------------------------------------------------------------------

    def game_ids(self) -> list[str]:
        """The ids of the games in the store, sorted."""
        try:
            entries = list(os.scandir(self.games_dir))
        except FileNotFoundError:
            return []
        return sorted(
            e.name for e in entries if GAME_ID.fullmatch(e.name) and e.is_dir(follow_symlinks=False)
        )

    def find_game(self, prefix: str) -> str:
        """The id of the one game whose id starts with ``prefix`` (1 to 32 lowercase hex
        digits, as ``ardennes games`` shows 8); :class:`StoreError` for none or several."""
        if not isinstance(prefix, str) or not re.fullmatch(r"[0-9a-f]{1,32}", prefix):
            raise StoreError(f"{str(prefix)[:80]!r} is not a game id or its start (hex digits)")
        found = [g for g in self.game_ids() if g.startswith(prefix)]
        if len(found) != 1:
            what = "no game" if not found else f"{len(found)} games"
            raise StoreError(f"{what} in the store with an id starting {prefix}")
        return found[0]

    def games(self) -> list[GameInfo]:
        """Every game, the most recently active first; a game that cannot be read is listed
        with its :attr:`GameInfo.problem` rather than hidden."""
        out = []
        for gid in self.game_ids():
            try:
                meta = self.meta(gid)
                n = self.count(gid)
                ev = sum(1 for e in os.scandir(self.game_dir(gid) / "evidence") if e.name[0] != ".")
            except (StoreError, OSError) as exc:
                out.append(GameInfo(gid, 0, "", "", "", "", 0, 0, "", problem=str(exc)))
                continue
            stale = meta.packets != n
            out.append(
                GameInfo(
                    game_id=gid,
                    scenario=meta.scenario,
                    our_side=meta.our_side,
                    opponent=meta.opponent,
                    to_move="" if stale else meta.to_move,
                    status="" if stale and meta.status != STOPPED else meta.status,
                    packets=n,
                    evidence=ev,
                    last_activity=meta.last_activity,
                    stale=stale,
                )
            )
        out.sort(key=lambda g: g.last_activity, reverse=True)
        return out

    # -- hot-seat records --------------------------------------------------------------------

    def _local_path(self, name: str) -> Path:
        return self.local_dir / f"{check_name(name, LOCAL_NAME, 'hot-seat game')}.jsonl"

    def save_local(self, name: str, data: bytes) -> None:
        """Write the hot-seat record ``name`` (atomically, replacing its previous version),
        holding its lock (:meth:`local_session`). The app calls this after every command."""
        path = self._local_path(name)
        check_bytes(data, MAX_LOCAL_BYTES, f"hot-seat game {name}")
        with self.local_session(name):
            write_atomic(path, data)

    def load_local(self, name: str) -> bytes:
        """The hot-seat record ``name``; :class:`StoreError` if there is none."""
        path = self._local_path(name)
        try:
            return read_limited(path, MAX_LOCAL_BYTES, f"hot-seat game {name}", StoreError)
        except FileNotFoundError:
            raise StoreError(f"hot-seat game {name} is not in the store") from None

    def list_local(self) -> list[LocalInfo]:
        """The hot-seat records, the most recently saved first."""
        try:
            entries = list(os.scandir(self.local_dir))
        except FileNotFoundError:
            return []
        out = []
        for e in entries:
            stem, dot, ext = e.name.rpartition(".")
            if ext != "jsonl" or not dot or not LOCAL_NAME.fullmatch(stem):
                continue
            try:
                st = e.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            when = datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds")
            out.append(LocalInfo(stem, st.st_size, when))
        out.sort(key=lambda x: (x.last_activity, x.name), reverse=True)
        return out
