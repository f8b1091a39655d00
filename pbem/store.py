"""The game store: every game as an append-only record of its packets (docs/pbem-protocol.md,
"The game store").

Packets here are opaque signed bytes with a game id and a ``seq``: the store neither decodes
nor verifies them (that is :mod:`pbem.packets`' job, before :meth:`Store.append`). Layout under
the root (``$ARDENNES_HOME``, else ``platformdirs.user_data_dir("ardennes")``)::

    games/<game-id>/packets/000000.pkt   one file per accepted packet, immutable once written
    games/<game-id>/meta.json            a small index (scenario, sides, whose move, times)
    games/<game-id>/evidence/            rejected or conflicting packets kept as proof
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
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

import msgspec
import platformdirs

from pbem.errors import PbemError
from rules.record import MAX_RECORD_BYTES

if sys.platform != "win32":
    import fcntl

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

MAX_PACKET_BYTES: Final = 64 << 10
"""The largest packet the store keeps or reads (the protocol's limit, section 5)."""
MAX_PACKETS: Final = 1_000_000
"""``seq`` is below this (six digits in the file name)."""
MAX_META_BYTES: Final = 64 << 10
"""The largest ``meta.json`` read."""
MAX_EVIDENCE_BYTES: Final = 1 << 20
"""The largest piece of evidence kept or read (a rejected import may exceed a packet's size)."""
MAX_LOCAL_BYTES: Final = MAX_RECORD_BYTES
"""The largest hot-seat record kept or read: a game record's limit (:mod:`rules.record`)."""
LOCK_WAIT: Final = 1.0
"""How long a writer waits for another one by default, in seconds."""

Side = Literal["german", "allied"]

_GAME_ID: Final = re.compile(r"[0-9a-f]{32}")
_LOCAL_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_EVIDENCE_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_PACKET_FILE: Final = re.compile(r"([0-9]{6})\.pkt")
_TMP_SUFFIX: Final = ".tmp"
_STALE_CREATE: Final = 3600.0
"""Seconds after which an abandoned ``games/.new-*`` directory (a crash in
:meth:`Store.create_game`) is removed."""


class StoreError(PbemError):
    """A store operation refused: one line for the player (a bad id, a missing or damaged
    game, a gap in ``seq``, a size limit, locking unsupported)."""


class GameLocked(StoreError):
    """Another process (or another :class:`Store`) holds the game's lock."""


class EquivocationError(StoreError):
    """Two different packets for one ``seq`` (protocol section 3): both are kept under
    ``evidence/`` (:attr:`kept`) and the packet already accepted stays in ``packets/``."""

    def __init__(self, game_id: str, seq: int, kept: tuple[str, str]) -> None:
        super().__init__(
            f"game {game_id}: two different packets with seq {seq} (equivocation); "
            f"both kept as evidence ({kept[0]}, {kept[1]})"
        )
        self.game_id = game_id
        self.seq = seq
        self.kept = kept


class GameMeta(msgspec.Struct, kw_only=True, frozen=True):
    """``meta.json``: a small index of one game, written by the caller (:meth:`Store.create_game`,
    :meth:`Store.update_meta`) except the times, which the store sets. Unknown fields are
    ignored on reading (a newer program may add some)."""

    scenario: int
    our_side: Side
    german: str = ""
    """Who plays the German side: a label (name, key fingerprint)."""
    allied: str = ""
    """Who plays the Allied side."""
    dice_mode: str = ""
    """``sealed``, ``open`` or ``local`` (protocol section 4)."""
    to_move: str = ""
    """Whose move it is, as the caller last computed it: ``german``, ``allied``, ``over``, or
    empty for unknown."""
    status: str = ""
    """A short free text for the listing (``waiting for the reply``, ``equivocation``)."""
    created: str = ""
    """ISO 8601 UTC, set by the store."""
    last_activity: str = ""
    """ISO 8601 UTC, set by the store on every write."""

    @property
    def opponent(self) -> str:
        """The label of the other side's player."""
        return self.allied if self.our_side == "german" else self.german


@dataclass(frozen=True)
class GameInfo:
    """One line of ``ardennes games``: a game of the store (:meth:`Store.games`)."""

    game_id: str
    scenario: int
    our_side: str
    opponent: str
    to_move: str
    status: str
    packets: int
    evidence: int
    last_activity: str
    problem: str = ""
    """Why the game could not be read (a damaged ``meta.json``, a gap), else empty."""


@dataclass(frozen=True)
class LocalInfo:
    """A hot-seat record of the store (:meth:`Store.list_local`)."""

    name: str
    size: int
    last_activity: str
    """The file's modification time, ISO 8601 UTC."""


def default_root() -> Path:
    """``$ARDENNES_HOME`` when set, else ``platformdirs.user_data_dir("ardennes")``."""
    home = os.environ.get("ARDENNES_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("ardennes"))


def new_game_id() -> str:
    """A fresh game id: 32 lowercase hex digits from the system's random source."""
    return secrets.token_hex(16)


def check_game_id(game_id: object) -> str:
    """``game_id`` if it is 32 lowercase hex digits, else :class:`StoreError`."""
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise StoreError(f"{str(game_id)[:80]!r} is not a game id (32 lowercase hex digits)")
    return game_id


def _check_seq(seq: object) -> int:
    if type(seq) is not int or not 0 <= seq < MAX_PACKETS:
        raise StoreError(f"{str(seq)[:40]!r} is not a packet number (0 to {MAX_PACKETS - 1})")
    return seq


def _check_name(name: object, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(name, str) or not pattern.fullmatch(name):
        raise StoreError(f"{str(name)[:80]!r} is not a valid {what} name ({pattern.pattern})")
    return name


def _check_bytes(data: object, limit: int, what: str) -> bytes:
    if not isinstance(data, bytes):
        raise StoreError(f"{what} must be bytes")
    if not data:
        raise StoreError(f"{what} is empty")
    if len(data) > limit:
        raise StoreError(f"{what} is over {limit} bytes")
    return data


def _now_iso(clock: Callable[[], datetime]) -> str:
    return clock().astimezone(UTC).isoformat(timespec="seconds")


def _read_limited(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``; :class:`StoreError` when it is over ``limit``."""
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise StoreError(f"{what} is over {limit} bytes")
    return data


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: a temporary file in the same directory, flushed and
    ``fsync``-ed, renamed with ``os.replace``, then the directory ``fsync``-ed. On any failure
    the temporary file is removed and ``path`` is as it was."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=_TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _clean_temps(directory: Path, prefix: str = ".") -> None:
    """Remove the temporary files a crashed writer left in ``directory`` (call with the lock)."""
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(directory):
            if entry.name.startswith(prefix) and entry.name.endswith(_TMP_SUFFIX):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


_META_DEC: Final = msgspec.json.Decoder(GameMeta)


class _Lock:
    """An exclusive ``flock`` on one file, held by one :class:`Store`, re-entrant."""

    def __init__(self, path: Path, label: str) -> None:
        self.path = path
        self.label = label
        self.fd: int | None = None
        self.depth = 0

    def acquire(self, wait: float) -> bool:
        """Take the lock (waiting at most ``wait`` seconds); True on the first acquisition."""
        if self.depth:
            self.depth += 1
            return False
        if sys.platform == "win32":  # pragma: no cover
            raise StoreError("the game store needs POSIX file locks (fcntl.flock)")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise GameLocked(f"{self.label} is open in another process") from None
                time.sleep(0.02)
            except BaseException:
                os.close(fd)
                raise
        self.fd = fd
        self.depth = 1
        return True

    def release(self) -> None:
        self.depth -= 1
        if self.depth == 0 and self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None


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
        self._locks: dict[Path, _Lock] = {}

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
            lock = self._locks[path] = _Lock(path, label)
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
                _clean_temps(sub)

        with self._locked(directory / ".lock", f"game {game_id}", clean):
            yield

    @contextlib.contextmanager
    def local_session(self, name: str) -> Iterator[None]:
        """Hold the lock of hot-seat record ``name`` for the block (the app holds it while the
        game is open, so a second copy of the program refuses to open the same game)."""
        _check_name(name, _LOCAL_NAME, "hot-seat game")
        self.local_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.local_dir / f".{name}.lock"
        with self._locked(
            path, f"game {name}", lambda: _clean_temps(self.local_dir, f".{name}.jsonl.")
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
                _fsync_dir(tmp / sub)
            _write_atomic(tmp / "meta.json", msgspec.json.encode(meta))
            try:
                os.rename(tmp, target)  # fails when target exists and is not empty
            except OSError:
                raise StoreError(f"game {game_id} already exists") from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        _fsync_dir(self.games_dir)
        return meta

    def _clean_stale_creations(self) -> None:
        cutoff = time.time() - _STALE_CREATE
        with contextlib.suppress(FileNotFoundError):
            for entry in os.scandir(self.games_dir):
                if entry.name.startswith(".new-"):
                    with contextlib.suppress(OSError):
                        if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                            shutil.rmtree(entry.path, ignore_errors=True)

    def meta(self, game_id: str) -> GameMeta:
        """The ``meta.json`` of ``game_id``; :class:`StoreError` if missing or damaged."""
        path = self._existing(game_id) / "meta.json"
        data = _read_limited(path, MAX_META_BYTES, f"game {game_id}: meta.json")
        try:
            return _META_DEC.decode(data)
        except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
            raise StoreError(f"game {game_id}: meta.json is damaged: {exc}") from None

    def update_meta(self, game_id: str, meta: GameMeta) -> GameMeta:
        """Replace the meta of ``game_id`` by ``meta`` (its ``created`` kept, ``last_activity``
        set now), e.g. ``store.update_meta(gid, msgspec.structs.replace(store.meta(gid),
        to_move="allied"))``; returns the meta written."""
        if not isinstance(meta, GameMeta):
            raise StoreError("meta must be a GameMeta")
        with self.transaction(game_id):
            old = self.meta(game_id)
            meta = msgspec.structs.replace(
                meta, created=old.created, last_activity=_now_iso(self._clock)
            )
            _write_atomic(self.game_dir(game_id) / "meta.json", msgspec.json.encode(meta))
        return meta

    def _packet_seqs(self, game_id: str) -> list[int]:
        """The ``seq`` of every packet file, checked contiguous from 0 (temporary files and
        other names ignored)."""
        seqs = []
        for entry in os.scandir(self._existing(game_id) / "packets"):
            m = _PACKET_FILE.fullmatch(entry.name)
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
        path = self._existing(game_id) / "packets" / f"{_check_seq(seq):06d}.pkt"
        try:
            data = _read_limited(path, MAX_PACKET_BYTES, f"game {game_id}: packet {seq}")
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
        _check_seq(seq)
        _check_bytes(data, MAX_PACKET_BYTES, f"packet {seq}")
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
            _write_atomic(directory / "packets" / f"{seq:06d}.pkt", data)
            self._touch(game_id)
        return True

    def _touch(self, game_id: str) -> None:
        """Set ``last_activity`` (with the lock held). A crash before this leaves an older
        time, never a lost packet."""
        meta = msgspec.structs.replace(self.meta(game_id), last_activity=_now_iso(self._clock))
        _write_atomic(self.game_dir(game_id) / "meta.json", msgspec.json.encode(meta))

    # -- evidence ----------------------------------------------------------------------------

    def _keep(self, game_id: str, name: str, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()[:16]
        file = f"{name}.{digest}.bin"
        path = self.game_dir(game_id) / "evidence" / file
        if not path.exists():
            _write_atomic(path, data)
        return file

    def keep_evidence(self, game_id: str, name: str, data: bytes) -> str:
        """Keep ``data`` under ``evidence/`` of ``game_id`` as proof (a packet that failed a
        check, protocol section 5; an equivocation); the file is ``<name>.<16 hex of its
        SHA-256>.bin``, so the same bytes are kept once and nothing is overwritten. Returns the
        file name. Changes nothing else in the game."""
        _check_name(name, _EVIDENCE_NAME, "evidence")
        _check_bytes(data, MAX_EVIDENCE_BYTES, "evidence")
        with self.transaction(game_id):
            return self._keep(game_id, name, data)

    def evidence(self, game_id: str) -> dict[str, bytes]:
        """Every piece of evidence of ``game_id``, by file name."""
        directory = self._existing(game_id) / "evidence"
        out = {}
        for entry in sorted(os.scandir(directory), key=lambda e: e.name):
            if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
                continue
            out[entry.name] = _read_limited(
                Path(entry.path), MAX_EVIDENCE_BYTES, f"game {game_id}: evidence {entry.name}"
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
            e.name
            for e in entries
            if _GAME_ID.fullmatch(e.name) and e.is_dir(follow_symlinks=False)
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
            out.append(
                GameInfo(
                    game_id=gid,
                    scenario=meta.scenario,
                    our_side=meta.our_side,
                    opponent=meta.opponent,
                    to_move=meta.to_move,
                    status=meta.status,
                    packets=n,
                    evidence=ev,
                    last_activity=meta.last_activity,
                )
            )
        out.sort(key=lambda g: g.last_activity, reverse=True)
        return out

    # -- hot-seat records --------------------------------------------------------------------

    def _local_path(self, name: str) -> Path:
        return self.local_dir / f"{_check_name(name, _LOCAL_NAME, 'hot-seat game')}.jsonl"

    def save_local(self, name: str, data: bytes) -> None:
        """Write the hot-seat record ``name`` (atomically, replacing its previous version),
        holding its lock (:meth:`local_session`). The app calls this after every command."""
        path = self._local_path(name)
        _check_bytes(data, MAX_LOCAL_BYTES, f"hot-seat game {name}")
        with self.local_session(name):
            _write_atomic(path, data)

    def load_local(self, name: str) -> bytes:
        """The hot-seat record ``name``; :class:`StoreError` if there is none."""
        path = self._local_path(name)
        try:
            return _read_limited(path, MAX_LOCAL_BYTES, f"hot-seat game {name}")
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
            if ext != "jsonl" or not dot or not _LOCAL_NAME.fullmatch(stem):
                continue
            try:
                st = e.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            when = datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds")
            out.append(LocalInfo(stem, st.st_size, when))
        out.sort(key=lambda x: (x.last_activity, x.name), reverse=True)
        return out
