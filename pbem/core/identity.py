"""A player's key as the protocol uses it: SSHSIG signatures and the dice chain's secret.

:class:`KeyIdentity` fits :class:`pbem.core.protocol.Identity`; :func:`verify` is the protocol's
verifier (``docs/pbem-protocol.md`` sections 1-2): it returns the signer's public key line, which
the protocol compares with the key pinned for the packet's author.
"""

from __future__ import annotations

from pbem.core import keyvalues as keys
from pbem.core import sshsig


class KeyIdentity:
    """An Ed25519 private key (``pbem.keys``) that signs packets."""

    __slots__ = ("_key", "_line")

    def __init__(self, private_key: keys.PrivateKey) -> None:
        self._key = private_key
        self._line = keys.public_line(private_key.public_key())

    @property
    def public_line(self) -> str:
        """``ssh-ed25519 AAAA...``, without a comment: what packets pin."""
        return self._line

    @property
    def fingerprint(self) -> str:
        return keys.fingerprint(self._key.public_key())

    @property
    def raw_private(self) -> bytes:
        """The 32-byte private key: the dice chain's secret of a game begun in version 2
        (HKDF, section 4), a local game's partner key."""
        return keys.raw_private_bytes(self._key)

    def sign(self, message: bytes, namespace: str = sshsig.NAMESPACE) -> bytes:
        """The binary SSHSIG blob of ``message`` (namespace ``ardennes`` unless given)."""
        return sshsig.sign(self._key, message, namespace)


def verify(blob: bytes, message: bytes) -> str:
    """The public key line of the key that made the SSHSIG ``blob`` over ``message``;
    :class:`pbem.core.sshsig.SignatureError` (a ``ValueError``) when it does not verify."""
    return keys.public_line(sshsig.verify(blob, message))
