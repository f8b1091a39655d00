"""A player key held by ``ssh-agent``: its signatures asked of the agent over its socket
(the SSH agent protocol, draft-miller-ssh-agent: ``SSH_AGENTC_REQUEST_IDENTITIES`` and
``SSH_AGENTC_SIGN_REQUEST``), so the private key never reaches this program
(``docs/pbem-protocol.md`` section 1).

:class:`AgentIdentity` signs packets as :class:`pbem.core.identity.KeyIdentity` does, and makes
the same dice chain: a version 3 chain's secret comes from the player's own Ed25519 signature
of a message in the namespace ``ardennes-dice`` (section 4), which the agent makes as the key
file would (Ed25519 is deterministic, RFC 8032). A game begun in version 2 needs the key file
(its chain came from the raw private key). Only ed25519 keys are used; every reply of the
agent is read strictly and bounded, and every failure is one :class:`AgentError` line.
"""

from __future__ import annotations

import os
import socket
import struct
from typing import Final

from pbem import keys
from pbem.core import sshsig
from pbem.core.errors import PbemError
from pbem.core.sshwire import SshReader, ssh_string, ssh_uint32

__all__ = ["AgentError", "AgentIdentity", "agent_keys", "find"]

ENV: Final = "SSH_AUTH_SOCK"
REQUEST_IDENTITIES: Final = 11
IDENTITIES_ANSWER: Final = 12
SIGN_REQUEST: Final = 13
SIGN_RESPONSE: Final = 14
FAILURE: Final = 5
MAX_REPLY: Final = 256 << 10
TIMEOUT: Final = 30.0


class AgentError(PbemError):
    """No agent, a key it does not hold, a refusal or a damaged reply: one line."""


def _socket_path(path: str | None) -> str:
    found = path if path is not None else os.environ.get(ENV)
    if not found:
        raise AgentError(f"no ssh-agent: {ENV} is not set (eval $(ssh-agent); ssh-add KEY)")
    return found


def _ask(path: str | None, kind: int, body: bytes) -> tuple[int, bytes]:
    """One request to the agent at ``path`` (default ``$SSH_AUTH_SOCK``): its reply type and
    contents."""
    where = _socket_path(path)
    message = bytes([kind]) + body
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(TIMEOUT)
            s.connect(where)
            s.sendall(ssh_uint32(len(message)) + message)
            head = _read(s, 4)
            (length,) = struct.unpack(">I", head)
            if not 1 <= length <= MAX_REPLY:
                raise AgentError(f"ssh-agent sent a reply of {length} bytes")
            reply = _read(s, length)
    except OSError as exc:
        raise AgentError(f"cannot talk to ssh-agent at {where}: {exc.strerror or exc}") from None
    return reply[0], reply[1:]


def _read(s: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise AgentError("ssh-agent closed the connection mid-reply")
        out += chunk
    return out


def agent_keys(path: str | None = None) -> list[keys.PublicKey]:
    """The ed25519 keys the agent holds (others ignored)."""
    kind, body = _ask(path, REQUEST_IDENTITIES, b"")
    if kind != IDENTITIES_ANSWER:
        raise AgentError(f"ssh-agent refused to list its keys (reply {kind})")
    reader = SshReader(body, "ssh-agent's key list", AgentError)
    out = []
    for _ in range(min(reader.uint32("number of keys"), 1000)):
        blob = reader.string("key blob")
        reader.string("comment")
        try:
            out.append(keys.parse_public_blob(blob))
        except PbemError:  # an RSA or ECDSA key, a security key: not ours to use
            continue
    return out


class AgentIdentity:
    """An ed25519 key in ``ssh-agent`` (at ``path``, default ``$SSH_AUTH_SOCK``) that signs
    packets (:class:`pbem.core.protocol.Identity`)."""

    __slots__ = ("_key", "_line", "path")

    def __init__(self, public_key: keys.PublicKey, path: str | None = None) -> None:
        self._key = public_key
        self._line = keys.public_line(public_key)
        self.path = path

    @property
    def public_line(self) -> str:
        return self._line

    @property
    def fingerprint(self) -> str:
        return keys.fingerprint(self._key)

    @property
    def raw_private(self) -> None:
        """An agent never gives the private key (a version 2 game needs the key file)."""
        return None

    def sign(self, message: bytes, namespace: str = sshsig.NAMESPACE) -> bytes:
        """The SSHSIG blob of ``message``: the agent signs its SSHSIG signed data."""
        data = sshsig.signed_data(message, namespace)
        request = ssh_string(keys.public_blob(self._key)) + ssh_string(data) + ssh_uint32(0)
        kind, body = _ask(self.path, SIGN_REQUEST, request)
        if kind != SIGN_RESPONSE:
            raise AgentError(f"ssh-agent refused to sign with {self.fingerprint} (reply {kind})")
        outer = SshReader(body, "ssh-agent's signature", AgentError)
        inner = SshReader(outer.string("signature"), "ssh-agent's signature", AgentError)
        outer.end()
        if inner.string("signature type") != keys.KEY_TYPE.encode():
            raise AgentError("ssh-agent signed with another algorithm than ssh-ed25519")
        raw = inner.string("ed25519 signature")
        inner.end()
        return sshsig.wrap(self._key, raw, namespace)


def find(fingerprint: str | None = None, path: str | None = None) -> AgentIdentity:
    """The agent's ed25519 key with ``fingerprint`` (``SHA256:...``), or its only one."""
    held = agent_keys(path)
    if fingerprint is not None:
        held = [k for k in held if keys.fingerprint(k) == fingerprint]
    if len(held) != 1:
        what = "no ed25519 key" if not held else f"{len(held)} ed25519 keys"
        hint = f" with {fingerprint}" if fingerprint else " (name one: --key agent:SHA256:...)"
        raise AgentError(f"ssh-agent holds {what}{hint}")
    return AgentIdentity(held[0], path)
