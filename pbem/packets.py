"""Packets: the signed, hash-chained messages of an email game (``docs/pbem-protocol.md`` §3).

A :class:`Packet` is a :class:`Body` and the author's SSHSIG signature over the body's
canonical bytes (:func:`canonical_bytes`: msgspec JSON, fields in declaration order, no
whitespace). Its hash (:func:`packet_hash`) covers the body and the signature, and the next
packet's ``prev`` binds it. :func:`decode` reads a packet strictly: known fields only, size
limits, hex fields of the right length; the checks that need the game (seq, prev, keys,
links, the rules) are the importer's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable
from typing import Final, Literal

import msgspec

from pbem.errors import PbemError
from rules import Command, Side

FORMAT: Final = "ardennes-packet"
VERSION: Final = 2
"""2: a step carries the first 128 bits of the state hash (:data:`STEP_HASH`), not all 256."""
STEP_HASH: Final = 32
"""Hex digits of the state hash a step carries: its first 128 bits. The receiver recomputes
every state, so the claimed hash only has to catch a divergence, and the full hashes are in
the game record (protocol section 3); cutting them keeps a player-turn under 3 KB."""
MAX_PACKET_BYTES: Final = 64 << 10
"""The largest packet read: a whole player-turn of commands is a few KB."""
MAX_COMMENT: Final = 500
MAX_COMMANDS: Final = 2_000

PacketKind = Literal[
    "invitation",
    "acceptance",
    "orders",
    "reply",
    "resolution",
    "resign",
    "draw_offer",
    "draw_answer",
]
DiceMode = Literal["sealed", "open", "local"]

_HEX32: Final = re.compile(r"[0-9a-f]{32}")
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_KEY: Final = re.compile(r"ssh-ed25519 [A-Za-z0-9+/]{68}")


class PacketError(PbemError):
    """A packet that cannot be read; the message is one line naming the field."""


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One command and the state hash after it (its first :data:`STEP_HASH` hex digits,
    :func:`step_hash`)."""

    command: Command
    hash: str


class Body(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Everything a packet says, in the order it is encoded and signed.

    ``scenario``, ``mode`` and the sides come with the invitation; ``key`` (the author's
    OpenSSH public key, no comment) and ``commitment`` (his chain head, hex) with the
    invitation and the acceptance; ``reveal`` is the author's next chain link (hex);
    ``seed`` the dice seed of a local game (hex, invitation only); ``accept`` answers a draw
    offer.
    """

    format: str
    version: int
    rules: str
    game: str
    seq: int
    prev: str
    author: Side
    kind: PacketKind
    turn: int
    phase: str
    scenario: int | None = None
    mode: DiceMode | None = None
    key: str | None = None
    commitment: str | None = None
    reveal: str | None = None
    seed: str | None = None
    commands: tuple[Step, ...] = ()
    accept: bool | None = None
    comment: str = ""


class Packet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A body and its signature: the base64 of the binary SSHSIG blob."""

    body: Body
    signature: str

    @property
    def signature_blob(self) -> bytes:
        try:
            return base64.b64decode(self.signature, validate=True)
        except binascii.Error:
            raise PacketError("the signature is not base64") from None


_ENC: Final = msgspec.json.Encoder(order="deterministic")
_DEC: Final = msgspec.json.Decoder(Packet)

Signer = Callable[[bytes], bytes]
"""Signs a message, returning the binary SSHSIG blob (``pbem.sshsig``)."""


def canonical_bytes(body: Body) -> bytes:
    """What the author signs: the body as canonical JSON."""
    return _ENC.encode(body)


def step_hash(state_hash: str) -> str:
    """What a step carries of a state hash: its first :data:`STEP_HASH` hex digits."""
    return state_hash[:STEP_HASH]


def packet_hash(packet: Packet) -> str:
    """SHA-256 of the canonical body and the signature blob, hex: the next packet's ``prev``."""
    return hashlib.sha256(canonical_bytes(packet.body) + packet.signature_blob).hexdigest()


def sign(body: Body, signer: Signer) -> Packet:
    """``body`` signed by ``signer`` (after checking it as :func:`decode` would)."""
    check_body(body)
    blob = signer(canonical_bytes(body))
    return Packet(body=body, signature=base64.b64encode(blob).decode("ascii"))


def encode(packet: Packet) -> bytes:
    """The packet's bytes (what the armour carries)."""
    return _ENC.encode(packet)


def decode(data: bytes) -> Packet:
    """Strictly decode a packet; :class:`PacketError` names the first problem."""
    if len(data) > MAX_PACKET_BYTES:
        raise PacketError(f"the packet is over {MAX_PACKET_BYTES} bytes")
    try:
        packet = _DEC.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise PacketError(f"not a packet: {exc}") from None
    except RecursionError:
        raise PacketError("not a packet: JSON nested too deeply") from None
    check_body(packet.body)
    _ = packet.signature_blob
    return packet


def check_body(b: Body) -> None:
    """The checks of a body that need nothing but the body."""
    if b.format != FORMAT or b.version != VERSION:
        raise PacketError(f"format {b.format!r} version {b.version} is not {FORMAT} {VERSION}")
    if not _HEX32.fullmatch(b.game):
        raise PacketError("the game id is not 32 lowercase hex digits")
    if b.seq < 0:
        raise PacketError(f"the sequence number {b.seq} is negative")
    if (b.seq == 0) != (b.prev == "") or (b.prev and not _HEX64.fullmatch(b.prev)):
        raise PacketError(f"packet {b.seq}: prev must be empty for the first, 64 hex digits after")
    if (b.kind == "invitation") != (b.seq == 0):
        raise PacketError(f"packet {b.seq}: only the first packet is an invitation")
    first_two = b.kind in ("invitation", "acceptance")
    if first_two != (b.key is not None) or first_two != (b.commitment is not None):
        raise PacketError(f"packet {b.seq}: a key and a commitment come with the first two")
    if b.key is not None and not _KEY.fullmatch(b.key):
        raise PacketError(f"packet {b.seq}: the key is not an ssh-ed25519 public key")
    for name, value in (("commitment", b.commitment), ("reveal", b.reveal), ("seed", b.seed)):
        if value is not None and not _HEX64.fullmatch(value):
            raise PacketError(f"packet {b.seq}: the {name} is not 64 lowercase hex digits")
    if (b.kind == "invitation") != (b.scenario is not None and b.mode is not None):
        raise PacketError(f"packet {b.seq}: scenario and dice mode come with the invitation")
    if (b.seed is not None) != (b.kind == "invitation" and b.mode == "local"):
        raise PacketError(f"packet {b.seq}: a dice seed comes only with a local invitation")
    if (b.accept is not None) != (b.kind == "draw_answer"):
        raise PacketError(f"packet {b.seq}: accept answers a draw offer, and only that")
    if len(b.comment) > MAX_COMMENT:
        raise PacketError(f"packet {b.seq}: the comment is over {MAX_COMMENT} characters")
    if len(b.commands) > MAX_COMMANDS:
        raise PacketError(f"packet {b.seq}: over {MAX_COMMANDS} commands")
    for i, s in enumerate(b.commands):
        if not _HEX32.fullmatch(s.hash):
            raise PacketError(
                f"packet {b.seq}, command {i}: the hash is not {STEP_HASH} hex digits"
            )
