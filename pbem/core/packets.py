"""Packets: the signed, hash-chained messages of an email game (``docs/pbem-protocol.md`` §3).

Version 3 signs the bytes, then parses. A packet on the wire is::

    body || "\\n" || sshsig

``body`` is the packet's JSON exactly as the author signed it and ``sshsig`` the binary SSHSIG
blob of his signature over those bytes (namespace ``ardennes``, :mod:`pbem.core.sshsig`). The JSON
holds no newline (it is canonical: no whitespace, and a string escapes its newlines), so the
first ``\\n`` ends it. :func:`decode` checks the signature over the body bytes *before* it
reads a byte of JSON, then decodes the JSON strictly (known fields only, each kind's fields
only, :func:`check_body`) and refuses JSON that is not in its one canonical spelling (the
bytes must equal :func:`canonical_bytes` of what they decode to). A packet's identity, its
:attr:`Packet.hash`, is the SHA-256 of its body bytes: two copies of one signed body are one
packet, whatever else differs; the next packet's ``prev`` names it.

Version 4 is version 3 with the ``dice`` of any faces (:mod:`pbem.core.dicelist`: runs such as
``d100:37,5 d6:4``, where version 3 lists digits 1-6); a game is written in version 3 until a
packet lists a die that is not a d6, and in version 4 from then on
(:func:`pbem.core.dicelist.version_for`), so the AO's and *Tiny*'s packets are as they were.

Version 2 (``{"body":{...},"signature":"<base64>"}``, the signature over the body's canonical
re-encoding) is still read as it is, never written: a game begun in version 2 verifies. Its
JSON and its base64 must be canonical too, so a copy spelled another way is refused, never
taken for another packet.

A :class:`Packet` exists only verified: :func:`decode` and :func:`sign` are its constructors,
and both check the signature; :attr:`Packet.signer` is the key that made it. Which key *should*
have made it is the protocol's question (:mod:`pbem.core.protocol`).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar

import msgspec

from pbem.core import dicelist, sshsig
from pbem.core import keyvalues as keys
from pbem.core.errors import PbemError, one_line

FORMAT: Final = "ardennes-packet"
VERSION: Final = 3
"""3: the signature covers the body bytes as sent, and the identity is their hash; the version
of every packet until one lists a die that is not a d6."""
ANY_FACES: Final = dicelist.ANY_FACES_VERSION
"""4: version 3 with ``dice`` of any faces (:mod:`pbem.core.dicelist`)."""
WRITTEN: Final = (VERSION, ANY_FACES)
"""The versions written (which one: :func:`pbem.core.dicelist.version_for`)."""
LEGACY: Final = 2
"""2: read as it is, never written (the signature over a re-encoding of the body)."""
STEP_HASH: Final = 32
"""Hex digits of the state hash a step carries: its first 128 bits. The receiver recomputes
every state, so the claimed hash only has to catch a divergence, and the full hashes are in
the game record (protocol section 3); the cut saves 32 hex digits a command."""
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

KINDS: Final[tuple[PacketKind, ...]] = (
    "invitation",
    "acceptance",
    "orders",
    "reply",
    "resolution",
    "resign",
    "draw_offer",
    "draw_answer",
)

FIELDS: Final[dict[str, frozenset[str]]] = {
    "invitation": frozenset(
        {"scenario", "ruleset", "mode", "key", "commitment", "seed", "comment"}
    ),
    "acceptance": frozenset({"key", "commitment", "comment"}),
    "orders": frozenset({"reveal", "commands", "dice", "comment"}),
    "reply": frozenset({"reveal", "commands", "comment"}),
    "resolution": frozenset({"reveal", "commands", "dice", "comment"}),
    "resign": frozenset({"comment"}),
    "draw_offer": frozenset({"comment"}),
    "draw_answer": frozenset({"accept", "comment"}),
}
"""The optional fields each kind may carry (every packet has the ten fields from ``format`` to
``phase``); any other is refused (protocol section 3, the field table)."""

_HEX32: Final = re.compile(r"[0-9a-f]{32}")
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_KEY: Final = re.compile(r"ssh-ed25519 [A-Za-z0-9+/]{68}")
_PHASE: Final = re.compile(r"[a-z_]{1,40}")
_SIDE: Final = re.compile(r"[a-z]{1,20}")
_RULESET: Final = re.compile(r"[a-z][a-z0-9]{0,15}")
DEFAULT_RULESET: Final = "ao"
"""The ruleset of an invitation that names none: The Ardennes Offensive, the only one before
the field existed (so every earlier game still reads as it was)."""


class PacketError(PbemError):
    """A packet that cannot be read; the message is one line naming the field."""


C = TypeVar("C")


class Step(msgspec.Struct, Generic[C], frozen=True, forbid_unknown_fields=True):
    """One command and the state hash after it (its first :data:`STEP_HASH` hex digits,
    :func:`step_hash`). Which commands exist is the game's ruleset's to say: :func:`decode`
    keeps each as its JSON bytes (``Step[msgspec.Raw]``), and the email game decodes them with
    its ruleset's command type, strictly and in their canonical spelling only
    (:meth:`pbem.core.protocol.EmailGame.receive`); a packet the game holds, or one written
    here, carries the ruleset's commands."""

    command: C
    hash: str


class Body(msgspec.Struct, Generic[C], frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Everything a packet says, in the order it is encoded and signed.

    ``scenario``, ``ruleset`` (absent: :data:`DEFAULT_RULESET`, the AO), ``mode`` and the
    sides come with the invitation; ``key`` (the author's
    OpenSSH public key, no comment) and ``commitment`` (his chain head, hex) with the
    invitation and the acceptance; ``reveal`` is the author's next chain link (hex);
    ``seed`` the dice seed of a local game (hex, invitation only); ``dice`` the dice the
    packet's commands drew, in order (version 3: their values, all d6; version 4: faces and
    values, :mod:`pbem.core.dicelist`); ``accept`` answers a draw offer.
    A field at its default is absent from the JSON (:data:`FIELDS`: which kind has which).
    """

    format: str
    version: int
    rules: str
    game: str
    seq: int
    prev: str
    author: str
    kind: PacketKind
    turn: int
    phase: str
    scenario: int | None = None
    ruleset: str | None = None
    mode: DiceMode | None = None
    key: str | None = None
    commitment: str | None = None
    reveal: str | None = None
    seed: str | None = None
    commands: tuple[Step[C], ...] = ()
    dice: str = ""
    accept: bool | None = None
    comment: str = ""


@dataclass(frozen=True, eq=False)
class Packet:
    """A verified packet (made only by :func:`decode` and :func:`sign`).

    ``signed`` is the exact message the signature covers (version 3: the body bytes as sent),
    ``signature`` the binary SSHSIG blob, ``signer`` the OpenSSH public key line of the key
    that signed it, ``wire`` the bytes as sent. Two packets are equal when their identities
    (:attr:`hash`) are."""

    body: Body[Any]
    signed: bytes
    signature: bytes
    signer: str
    wire: bytes
    hash: str
    """The packet's identity (hex): the SHA-256 of ``signed`` (version 2: of the re-encoded
    body and the signature blob)."""
    version: int = field(default=VERSION)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Packet) and other.hash == self.hash

    def __hash__(self) -> int:
        return hash(self.hash)


_ENC: Final = msgspec.json.Encoder(order="deterministic")
_BODY: Final = msgspec.json.Decoder(Body[msgspec.Raw])

Signer = Callable[[bytes], bytes]
"""Signs a message, returning the binary SSHSIG blob (:mod:`pbem.core.sshsig`, namespace
``ardennes``)."""


def canonical_bytes(body: Body[Any]) -> bytes:
    """The one spelling of ``body``: msgspec JSON, fields in declaration order, defaults
    left out, no whitespace (protocol section 3)."""
    return _ENC.encode(body)


def step_hash(state_hash: str) -> str:
    """What a step carries of a state hash: its first :data:`STEP_HASH` hex digits."""
    return state_hash[:STEP_HASH]


def packet_hash(packet: Packet) -> str:
    """The packet's identity (:attr:`Packet.hash`): the next packet's ``prev``."""
    return packet.hash


def signer_of(blob: bytes, message: bytes) -> str:
    """The public key line of the key whose SSHSIG ``blob`` signs ``message``; a
    :class:`PacketError` naming what failed otherwise."""
    try:
        return keys.public_line(sshsig.verify(blob, message))
    except PbemError as exc:
        raise PacketError(f"bad signature ({exc})") from None


def sign(body: Body[Any], signer: Signer) -> Packet:
    """``body`` (checked as :func:`decode` would) signed by ``signer``, as a version 3 or 4
    packet; the signature is checked too (an agent or a key that signs wrong is refused
    here)."""
    check_body(body)
    if body.version not in WRITTEN:
        raise PacketError(
            f"only version {VERSION} or {ANY_FACES} packets are written, not {body.version}"
        )
    signed = canonical_bytes(body)
    blob = signer(signed)
    who = signer_of(blob, signed)
    digest = hashlib.sha256(signed).hexdigest()
    return Packet(body, signed, blob, who, signed + b"\n" + blob, digest, body.version)


def encode(packet: Packet) -> bytes:
    """The packet's bytes as sent (what the armour carries)."""
    return packet.wire


def decode(data: bytes) -> Packet:
    """Read a packet: the signature over the body bytes first, then the JSON, strictly and in
    its canonical spelling only; :class:`PacketError` names the first problem."""
    if len(data) > MAX_PACKET_BYTES:
        raise PacketError(f"the packet is over {MAX_PACKET_BYTES} bytes")
    cut = data.find(b"\n")
    if cut < 0:  # a version 2 packet: JSON with the signature inside
        return _decode_legacy(data)
    signed, blob = data[:cut], data[cut + 1 :]
    who = signer_of(blob, signed)
    body = decode_body(signed)
    if body.version not in WRITTEN:
        raise PacketError(f"a version {VERSION} or {ANY_FACES} packet says version {body.version}")
    digest = hashlib.sha256(signed).hexdigest()
    return Packet(body, signed, blob, who, data, digest, body.version)


def decode_body(data: bytes) -> Body[msgspec.Raw]:
    """A body's JSON, strictly: known fields, the right types, its kind's fields only
    (:func:`check_body`), and exactly its canonical spelling (:func:`canonical_bytes`)."""
    try:
        body = _BODY.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise PacketError(f"not a packet: {one_line(str(exc), 200)}") from None
    except RecursionError:
        raise PacketError("not a packet: JSON nested too deeply") from None
    check_body(body)
    if canonical_bytes(body) != data:
        raise PacketError(
            f"packet {body.seq}: the JSON is not in its canonical spelling (protocol section 3)"
        )
    return body


def _present(b: Body[Any]) -> set[str]:
    """The optional fields ``b`` carries (those not at their default)."""
    out = set()
    for name in ("scenario", "ruleset", "mode", "key", "commitment", "reveal", "seed", "accept"):
        if getattr(b, name) is not None:
            out.add(name)
    if b.commands:
        out.add("commands")
    if b.dice:
        out.add("dice")
    if b.comment:
        out.add("comment")
    return out


def check_body(b: Body[Any]) -> None:
    """The checks of a body that need nothing but the body (and its version)."""
    if b.format != FORMAT or b.version not in (LEGACY, *WRITTEN):
        raise PacketError(
            f"format {b.format[:40]!r} version {b.version} is not {FORMAT} {LEGACY} to {ANY_FACES}"
        )
    where = f"packet {b.seq}"
    if not _HEX32.fullmatch(b.game):
        raise PacketError("the game id is not 32 lowercase hex digits")
    if b.seq < 0:
        raise PacketError(f"the sequence number {b.seq} is negative")
    if (b.seq == 0) != (b.prev == "") or (b.prev and not _HEX64.fullmatch(b.prev)):
        raise PacketError(f"{where}: prev must be empty for the first, 64 hex digits after")
    if (b.kind == "invitation") != (b.seq == 0):
        raise PacketError(f"{where}: only the first packet is an invitation")
    if not _SIDE.fullmatch(b.author):
        raise PacketError(f"{where}: the author {b.author[:20]!r} is not a side's name")
    if not 1 <= b.turn <= 99 or not _PHASE.fullmatch(b.phase):
        raise PacketError(f"{where}: turn {b.turn} or phase {b.phase[:40]!r} is out of range")
    extra = _present(b) - FIELDS[b.kind]
    if b.version == LEGACY:
        extra |= {"dice"} & _present(b)
    if extra:
        names = ", ".join(sorted(extra))
        article = "an" if b.kind[0] in "aeiou" else "a"
        raise PacketError(f"{where}: {article} {b.kind} packet carries no {names}")
    first_two = b.kind in ("invitation", "acceptance")
    if first_two and (b.key is None or b.commitment is None):
        raise PacketError(f"{where}: a key and a commitment come with the first two")
    if b.key is not None and not (_KEY.fullmatch(b.key) and _is_key(b.key)):
        raise PacketError(f"{where}: the key is not an ssh-ed25519 public key")
    for name, value in (("commitment", b.commitment), ("reveal", b.reveal), ("seed", b.seed)):
        if value is not None and not _HEX64.fullmatch(value):
            raise PacketError(f"{where}: the {name} is not 64 lowercase hex digits")
    if b.kind == "invitation" and (b.scenario is None or b.mode is None):
        raise PacketError(f"{where}: scenario and dice mode come with the invitation")
    if b.ruleset is not None and (
        not _RULESET.fullmatch(b.ruleset) or b.ruleset == DEFAULT_RULESET
    ):
        raise PacketError(
            f"{where}: the ruleset {b.ruleset[:20]!r} is not an id (the AO's is left out)"
        )
    if b.scenario is not None and not 1 <= b.scenario <= 99:
        raise PacketError(f"{where}: scenario {b.scenario} is out of range")
    if (b.seed is not None) != (b.kind == "invitation" and b.mode == "local"):
        raise PacketError(f"{where}: a dice seed comes only with a local invitation")
    if (b.accept is None) == (b.kind == "draw_answer"):
        raise PacketError(f"{where}: accept answers a draw offer, and only that")
    if len(b.comment) > MAX_COMMENT:
        raise PacketError(f"{where}: the comment is over {MAX_COMMENT} characters")
    if len(b.commands) > MAX_COMMANDS:
        raise PacketError(f"{where}: over {MAX_COMMANDS} commands")
    try:
        dicelist.parse(b.dice, b.version)
    except dicelist.DiceListError as exc:
        raise PacketError(f"{where}: the dice {exc}") from None
    for i, s in enumerate(b.commands):
        if not _HEX32.fullmatch(s.hash):
            raise PacketError(f"{where}, command {i}: the hash is not {STEP_HASH} hex digits")


def _is_key(line: str) -> bool:
    """``line`` holds an ed25519 public key (its 68 base64 digits have no spare bits: one
    spelling)."""
    try:
        keys.parse_public_line(line)
    except PbemError:
        return False
    return True


class _Legacy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A version 2 packet as sent: the body and the base64 of its SSHSIG blob."""

    body: Body[msgspec.Raw]
    signature: str


_LEGACY: Final = msgspec.json.Decoder(_Legacy)


def _decode_legacy(data: bytes) -> Packet:
    """A version 2 packet, read as it is: its JSON and base64 in their one spelling, the
    signature over the body's canonical bytes, its identity the hash of those bytes and the
    signature blob (what version 2 packets' ``prev`` name)."""
    try:
        old = _LEGACY.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise PacketError(f"not a packet: {one_line(str(exc), 200)}") from None
    except RecursionError:
        raise PacketError("not a packet: JSON nested too deeply") from None
    b = old.body
    if b.version != LEGACY:
        raise PacketError(f"a version {LEGACY} packet says version {b.version}")
    try:
        blob = base64.b64decode(old.signature, validate=True)
    except ValueError:  # binascii.Error, and a str that is not ASCII
        raise PacketError(f"packet {b.seq}: the signature is not base64") from None
    if base64.b64encode(blob).decode("ascii") != old.signature:
        raise PacketError(f"packet {b.seq}: the signature's base64 is not canonical")
    signed = canonical_bytes(b)
    who = signer_of(blob, signed)
    check_body(b)
    if _ENC.encode(old) != data:
        raise PacketError(
            f"packet {b.seq}: the JSON is not in its canonical spelling (protocol section 3)"
        )
    digest = hashlib.sha256(signed + blob).hexdigest()
    return Packet(b, signed, blob, who, data, digest, LEGACY)
