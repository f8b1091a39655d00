"""The players of an email game as the protocol sees them (``docs/pbem-protocol.md`` sections
1 and 4): a key that signs (:class:`Identity`), and, in a game, the key pinned for a side with
its commitment and the chain links revealed so far (:class:`Party`); and the protocol's
refusals (:class:`Refused`, :class:`Equivocation`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pbem.core import keyvalues as keys
from pbem.core import sshsig
from pbem.core.errors import PbemError
from pbem.core.packets import Packet


class Identity(Protocol):
    """A player's key as the protocol needs it: a key file (:class:`pbem.core.identity.KeyIdentity`)
    or a key held by ``ssh-agent`` (:mod:`pbem.agent`)."""

    @property
    def public_line(self) -> str: ...

    @property
    def fingerprint(self) -> str: ...

    @property
    def raw_private(self) -> bytes | None:
        """The raw private key, only for a game begun in version 2 (its dice chain came
        from it); None when the key is not at hand (an agent's)."""

    def sign(self, message: bytes, namespace: str = sshsig.NAMESPACE) -> bytes:
        """The binary SSHSIG blob of ``message`` in ``namespace``."""


class Refused(PbemError):
    """A packet the protocol refuses: one line naming the packet and what failed."""


class Equivocation(Refused):
    """Two different packets signed by the same player for the same place in the chain."""

    def __init__(self, message: str, kept: Packet, other: Packet) -> None:
        super().__init__(message)
        self.kept = kept
        self.other = other


@dataclass
class Party:
    """One player: the pinned key, the chain head, the links revealed so far."""

    side: str
    key: str
    commitment: bytes
    version: int
    """The version of the packet that carried the commitment: how the chain's secret was
    derived (section 4)."""
    revealed: list[bytes] = field(default_factory=list)

    @property
    def last(self) -> bytes:
        """The last link revealed (the commitment before the first)."""
        return self.revealed[-1] if self.revealed else self.commitment


def fingerprint_of(key_line: str) -> str:
    """The OpenSSH fingerprint of a public key line, for messages ("?" if it cannot be read)."""
    try:
        return keys.fingerprint(keys.parse_public_line(key_line)[0])
    except PbemError:
        return "?"
