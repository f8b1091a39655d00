"""Keys as values: Ed25519 public keys in the OpenSSH forms, blob, line and fingerprint
(``docs/pbem-protocol.md``, section 1). No file is read here (the key store is
:mod:`pbem.keys`); the SSH wire format is :mod:`pbem.core.sshwire`, all cryptography is
``cryptography``'s.
"""

from __future__ import annotations

import base64
import hashlib
from typing import TypeAlias

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pbem.core.errors import PbemError
from pbem.core.sshwire import SshReader, ssh_string

__all__ = [
    "KEY_TYPE",
    "ONLY_ED25519",
    "KeyFileError",
    "KeyTypeError",
    "PrivateKey",
    "PublicKey",
    "fingerprint",
    "parse_public_blob",
    "parse_public_line",
    "public_blob",
    "public_line",
    "raw_private_bytes",
    "raw_public_bytes",
]

PrivateKey: TypeAlias = Ed25519PrivateKey
"""A player's private key (section 1): ``cryptography``'s Ed25519 private key."""

PublicKey: TypeAlias = Ed25519PublicKey
"""A player's public key (section 1): ``cryptography``'s Ed25519 public key."""

KEY_TYPE = "ssh-ed25519"
"""The OpenSSH name of the only key type Ardennes uses."""

_KEY_TYPE_NAMES = {
    "ssh-rsa": "an RSA key",
    "ssh-dss": "a DSA key",
    "ecdsa-sha2-nistp256": "an ECDSA key",
    "ecdsa-sha2-nistp384": "an ECDSA key",
    "ecdsa-sha2-nistp521": "an ECDSA key",
    "sk-ssh-ed25519@openssh.com": "a security-key (FIDO) ed25519 key",
    "sk-ecdsa-sha2-nistp256@openssh.com": "a security-key (FIDO) ECDSA key",
}
ONLY_ED25519 = "Ardennes uses ed25519 keys only (ardennes keygen, or ssh-keygen -t ed25519)"


class KeyFileError(PbemError):
    """A key file that is missing, unreadable, damaged, or already there (never overwritten)."""


class KeyTypeError(PbemError):
    """A key that is not ed25519 (RSA, ECDSA, DSA, security keys): refused (section 1)."""


def raw_private_bytes(key: PrivateKey) -> bytes:
    """The 32-byte Ed25519 private key (the RFC 8032 seed), the HKDF input of the dice chain
    (section 4: ``ikm = raw private key``)."""
    return key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )


def raw_public_bytes(public_key: PublicKey) -> bytes:
    """The 32-byte Ed25519 public key."""
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_blob(public_key: PublicKey) -> bytes:
    """The OpenSSH public key blob, ``string "ssh-ed25519" || string key32`` (section 1)."""
    return ssh_string(KEY_TYPE.encode()) + ssh_string(raw_public_bytes(public_key))


def _key_type_refusal(key_type: bytes, where: str) -> KeyTypeError:
    name = key_type.decode("ascii", "replace")
    described = _KEY_TYPE_NAMES.get(name, f"a key of type {name[:40]!r}")
    return KeyTypeError(f"{where}{described}: {ONLY_ED25519}")


def parse_public_blob(blob: bytes, where: str = "") -> PublicKey:
    """The public key of an OpenSSH public key blob; only ``ssh-ed25519`` (32 bytes, nothing
    after). A blob of another key type raises :class:`KeyTypeError`; a damaged one
    :class:`KeyFileError`. ``where`` (e.g. ``"FILE: "``) prefixes the messages."""
    reader = SshReader(blob, f"{where}public key blob", KeyFileError)
    key_type = reader.string("key type")
    if key_type != KEY_TYPE.encode():
        raise _key_type_refusal(key_type, where)
    raw = reader.string("ed25519 key")
    reader.end()
    if len(raw) != 32:
        raise reader.fail(f"an ed25519 key has 32 bytes, not {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def fingerprint(public_key: PublicKey) -> str:
    """The OpenSSH fingerprint, ``SHA256:`` and the unpadded base64 of the SHA-256 of the
    public key blob: exactly what ``ssh-keygen -l`` prints (section 1)."""
    digest = hashlib.sha256(public_blob(public_key)).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def public_line(public_key: PublicKey, comment: str = "") -> str:
    """The OpenSSH public key line, ``ssh-ed25519 AAAA... comment`` (no newline)."""
    encoded = base64.b64encode(public_blob(public_key)).decode("ascii")
    comment = " ".join(comment.split())
    return f"{KEY_TYPE} {encoded} {comment}" if comment else f"{KEY_TYPE} {encoded}"


def parse_public_line(line: str, where: str = "") -> tuple[PublicKey, str]:
    """The key and comment of an OpenSSH public key line (``ssh-ed25519 AAAA... comment``,
    as in a ``.pub`` file or after the principal of an ``allowed_signers`` line).

    The type word must be ``ssh-ed25519`` and agree with the blob's; the base64 is strict.
    """
    parts = line.strip().split(None, 2)
    if len(parts) < 2:
        raise KeyFileError(f"{where}not an OpenSSH public key line (ssh-ed25519 AAAA...)")
    key_type, encoded = parts[0], parts[1]
    comment = parts[2] if len(parts) == 3 else ""
    if key_type != KEY_TYPE:
        raise _key_type_refusal(key_type.encode(), where)
    try:
        blob = base64.b64decode(encoded, validate=True)
    except ValueError:  # binascii.Error, and text that is not ASCII
        raise KeyFileError(f"{where}the public key's base64 is damaged") from None
    public_key = parse_public_blob(blob, where)
    return public_key, comment
