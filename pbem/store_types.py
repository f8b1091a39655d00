"""The game store's vocabulary: its limits, errors, ``meta.json`` and listings, and the checks of
ids, ``seq`` numbers and names from outside (``docs/pbem-protocol.md``, "The game store")."""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import msgspec
import platformdirs

from pbem.core.errors import PbemError
from rules.record import MAX_RECORD_BYTES

MAX_PACKET_BYTES: Final = 64 << 10
"""The largest packet the store keeps or reads (the protocol's limit, section 5)."""
MAX_PACKETS: Final = 1_000_000
"""``seq`` is below this (six digits in the file name)."""
MAX_META_BYTES: Final = 64 << 10
"""The largest ``meta.json`` read."""
MAX_EVIDENCE_BYTES: Final = 1 << 20
"""The largest piece of evidence kept or read (a rejected import may exceed a packet's size)."""
MAX_REFUSED_EVIDENCE: Final = 32
"""Refused packets kept as evidence per game (:meth:`pbem.store.Store.keep_evidence`): only a
key pinned in the game can make one, but that player could make them without end. The packets
of an equivocation are always kept (it stops the game: there is one)."""
MAX_LOCAL_BYTES: Final = MAX_RECORD_BYTES
"""The largest hot-seat record kept or read: a game record's limit (:mod:`rules.record`)."""
LOCK_WAIT: Final = 1.0
"""How long a writer waits for another one by default, in seconds."""

Side = Literal["german", "allied"]
AO_SIDES: Final[tuple[str, str]] = ("allied", "german")
"""The sides of a game whose ``meta.json`` names none: the AO's (a store from before rulesets)."""

STOPPED: Final = "equivocation"
"""The ``meta.json`` status of a game stopped by equivocation (protocol section 3): kept
whatever else the index says."""

GAME_ID: Final = re.compile(r"[0-9a-f]{32}")
LOCAL_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
EVIDENCE_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
PACKET_FILE: Final = re.compile(r"([0-9]{6})\.pkt")
STALE_CREATE: Final = 3600.0
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
    ignored on reading (a newer program may add some).

    The players' labels are kept under the AO's side names, as before rulesets: ``allied``
    holds the label of the game's first side (:attr:`sides`, its ruleset's), ``german`` the
    second's (:meth:`label`, :meth:`labels`, :func:`new_meta`)."""

    scenario: int
    our_side: str
    german: str = ""
    """Who plays the second side (the AO's German): a label (name, key fingerprint)."""
    allied: str = ""
    """Who plays the first side (the AO's Allied)."""
    address: str = ""
    """The opponent's mail address, when given apart from his label (:mod:`pbem.addresses`;
    empty in a store written before it existed)."""
    dice_mode: str = ""
    """``sealed``, ``open`` or ``local`` (protocol section 4)."""
    to_move: str = ""
    """Whose move it is, as the caller last computed it: a side, ``over``, or empty for
    unknown."""
    status: str = ""
    """A short free text for the listing (``waiting for the reply``, ``equivocation``)."""
    packets: int = -1
    """How many packets ``to_move`` and ``status`` were computed from: the index is current
    when the game holds that many (:attr:`GameInfo.stale`); -1 in a store written before."""
    created: str = ""
    """ISO 8601 UTC, set by the store."""
    last_activity: str = ""
    """ISO 8601 UTC, set by the store on every write."""
    sides: tuple[str, str] = AO_SIDES
    """The game's two sides (its ruleset's, :attr:`rules.ruleset.Ruleset.sides`); the AO's in
    a store written before rulesets."""

    def label(self, side: str) -> str:
        """The label of ``side``'s player ("" for none, or for a side not of this game)."""
        if side == self.sides[0]:
            return self.allied
        return self.german if side == self.sides[1] else ""

    def labels(self) -> dict[str, str]:
        """Each side's label, the second side first (the AO's German, then Allied)."""
        return {self.sides[1]: self.german, self.sides[0]: self.allied}

    @property
    def opponent(self) -> str:
        """The label of the other side's player."""
        return self.allied if self.our_side == self.sides[1] else self.german


def new_meta(
    *, scenario: int, our_side: str, sides: tuple[str, str], labels: dict[str, str], dice_mode: str
) -> GameMeta:
    """The ``meta.json`` of a new game of ``sides`` (each side's label in ``labels``)."""
    return GameMeta(
        scenario=scenario,
        our_side=our_side,
        german=labels.get(sides[1], ""),
        allied=labels.get(sides[0], ""),
        dice_mode=dice_mode,
        sides=sides,
    )


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
    stale: bool = False
    """``to_move`` and ``status`` were computed from fewer or more packets than the game holds
    (a writer stopped between the packet and the index): they say nothing until the index is
    written again (:meth:`pbem.games.Service.index`)."""


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
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise StoreError(f"{str(game_id)[:80]!r} is not a game id (32 lowercase hex digits)")
    return game_id


def check_seq(seq: object) -> int:
    if type(seq) is not int or not 0 <= seq < MAX_PACKETS:
        raise StoreError(f"{str(seq)[:40]!r} is not a packet number (0 to {MAX_PACKETS - 1})")
    return seq


def check_name(name: object, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(name, str) or not pattern.fullmatch(name):
        raise StoreError(f"{str(name)[:80]!r} is not a valid {what} name ({pattern.pattern})")
    return name


def check_bytes(data: object, limit: int, what: str) -> bytes:
    if not isinstance(data, bytes):
        raise StoreError(f"{what} must be bytes")
    if not data:
        raise StoreError(f"{what} is empty")
    if len(data) > limit:
        raise StoreError(f"{what} is over {limit} bytes")
    return data
