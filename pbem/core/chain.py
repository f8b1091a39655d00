"""Dice material: each player's hash chain and the seeds derived from revealed links.

``docs/pbem-protocol.md`` section 4. A player's secret for a game is derived from his private
key and the game id (HKDF-SHA256), so there is nothing extra to keep; from it a chain of
:data:`LINKS` links is built backwards, ``x_N = secret`` and ``x_{k-1} = H(x_k)``, and its head
``x_0`` is his commitment. He reveals ``x_1``, ``x_2``, ... in order; anyone checks a link
against the one before it with one hash. Every seed below hashes fixed-length fields only
(16-byte game id, 32-byte links and hashes, 8-byte counters), so no two inputs collide by
concatenation.
"""

from __future__ import annotations

import hashlib
from typing import Final

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.core.errors import PbemError

LINKS: Final = 4096
"""Links in a chain: one per combat batch (sealed) or per packet (open) the player takes part
in. A whole 18-turn game needs a few hundred at most."""

LINK_BYTES: Final = 32
GAME_ID_BYTES: Final = 16


class ChainError(PbemError):
    """A link that does not hash to the one before it, or a chain used past its end."""


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _check(name: str, value: bytes, size: int) -> bytes:
    if len(value) != size:
        raise ChainError(f"{name} must be {size} bytes, not {len(value)}")
    return value


def chain_secret(raw_private_key: bytes, game_id: bytes, context: bytes = b"") -> bytes:
    """The player's chain secret for ``game_id``: HKDF-SHA256 of the raw 32-byte Ed25519
    private key, salted with the game id; ``context`` (the invitee: the hash of the
    invitation) goes into HKDF's info, so a reused game id never gives the same chain
    (protocol section 4)."""
    _check("the game id", game_id, GAME_ID_BYTES)
    return HKDF(
        algorithm=hashes.SHA256(),
        length=LINK_BYTES,
        salt=game_id,
        info=b"ardennes dice chain/1" + context,
    ).derive(raw_private_key)


DICE_NAMESPACE: Final = "ardennes-dice"
"""The SSHSIG namespace of the signature a version 3 chain secret comes from: no packet
signature (namespace ``ardennes``) can ever be one."""


def dice_message(game_id: bytes, context: bytes = b"") -> bytes:
    """What a player signs (namespace :data:`DICE_NAMESPACE`) to make his version 3 chain
    secret: ``"ardennes dice chain/3" || game id (16 bytes) || context`` (the invitee's context
    is the invitation's hash, 32 bytes; the inviter's is empty)."""
    return b"ardennes dice chain/3" + _check("the game id", game_id, GAME_ID_BYTES) + context


def signed_secret(signature: bytes, game_id: bytes, context: bytes = b"") -> bytes:
    """The player's version 3 chain secret: HKDF-SHA256 of his 64-byte Ed25519 signature of
    :func:`dice_message` (deterministic, RFC 8032; never published), salted with the game id,
    with ``"ardennes dice chain/3" || context`` as HKDF's info. A key held by ``ssh-agent``
    makes it as well as a key file (protocol section 4)."""
    _check("the Ed25519 signature", signature, 64)
    return HKDF(
        algorithm=hashes.SHA256(),
        length=LINK_BYTES,
        salt=_check("the game id", game_id, GAME_ID_BYTES),
        info=b"ardennes dice chain/3" + context,
    ).derive(signature)


def down(link: bytes) -> bytes:
    """The link before ``link``: ``SHA-256("ardennes-link/1" || link)``."""
    return hashlib.sha256(b"ardennes-link/1" + _check("a link", link, LINK_BYTES)).digest()


class Chain:
    """A player's chain: ``link(0)`` is the commitment, ``link(k)`` the k-th revealed link."""

    __slots__ = ("_links",)

    def __init__(self, secret: bytes, length: int = LINKS) -> None:
        x = _check("the chain secret", secret, LINK_BYTES)
        out = [x]
        for _ in range(length):
            x = down(x)
            out.append(x)
        out.reverse()
        self._links: tuple[bytes, ...] = tuple(out)

    @property
    def commitment(self) -> bytes:
        """``x_0``, published in the invitation or the acceptance."""
        return self._links[0]

    def link(self, k: int) -> bytes:
        """``x_k`` (``k`` from 1): the ``k``-th link its owner reveals."""
        if not 0 <= k < len(self._links):
            raise ChainError(f"the chain has no link {k} (it has {len(self._links) - 1})")
        return self._links[k]


def verify_link(previous: bytes, link: bytes) -> bool:
    """Whether ``link`` is the link after ``previous`` (``down(link) == previous``)."""
    return len(link) == LINK_BYTES and down(link) == previous


def batch_seed(
    game_id: bytes, batch: int, mover: bytes, opponent: bytes, reply_hash: bytes
) -> bytes:
    """The dice seed of the game's ``batch``-th combat batch (sealed mode): both players'
    links for it and the hash of the reply that fixed the defender's choices."""
    return hashlib.sha256(
        b"ardennes-batch/1"
        + _check("the game id", game_id, GAME_ID_BYTES)
        + _u64(batch)
        + _check("the mover's link", mover, LINK_BYTES)
        + _check("the opponent's link", opponent, LINK_BYTES)
        + _check("the reply hash", reply_hash, 32)
    ).digest()


def switch_seed(game_id: bytes, seq: int, author: bytes, opponent: bytes, prev: bytes) -> bytes:
    """The seed of a die due at the start of a sealed ``orders`` packet (the German CRT switch,
    AO-10.3a): the link the author reveals with the packet, the opponent's last link, and the
    hash of the packet before it (the opponent's, signature included). The author cannot
    compute it before that packet arrives, the opponent not before the author's link does."""
    return hashlib.sha256(
        b"ardennes-switch/1"
        + _check("the game id", game_id, GAME_ID_BYTES)
        + _u64(seq)
        + _check("the author's link", author, LINK_BYTES)
        + _check("the opponent's link", opponent, LINK_BYTES)
        + _check("the previous packet's hash", prev, 32)
    ).digest()


def open_seed(game_id: bytes, seq: int, author: bytes, opponent: bytes) -> bytes:
    """The seed of a packet's rolls in open mode: the link the author reveals with it and the
    last link of the opponent."""
    return hashlib.sha256(
        b"ardennes-open/1"
        + _check("the game id", game_id, GAME_ID_BYTES)
        + _u64(seq)
        + _check("the author's link", author, LINK_BYTES)
        + _check("the opponent's link", opponent, LINK_BYTES)
    ).digest()
