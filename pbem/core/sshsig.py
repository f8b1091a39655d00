"""Signatures in the OpenSSH SSHSIG format, namespace ``ardennes`` (``docs/pbem-protocol.md``,
section 2).

The framing is OpenSSH's published ``PROTOCOL.sshsig``; the primitive is ``cryptography``'s
Ed25519. The data signed is::

    "SSHSIG" || string(namespace) || string("") || string("sha512") || string(SHA-512(message))

and the signature is the structure::

    "SSHSIG" || uint32(1) || string(public key blob) || string(namespace) || string("")
             || string("sha512") || string(string("ssh-ed25519") || string(signature64))

armoured between ``-----BEGIN SSH SIGNATURE-----`` and ``-----END SSH SIGNATURE-----`` with
base64 lines of 70 characters, byte for byte what ``ssh-keygen -Y sign`` writes (Ed25519 is
deterministic, so the same key and message give the same file). So the stock tool checks any
packet::

    ssh-keygen -Y verify -f allowed_signers -I german -n ardennes -s m.sig < m.bin

Parsing is strict: every length is checked, nothing may follow the last field, the blob and
the armour have size caps, the reserved field must be empty, and only ``sha512`` and
``ssh-ed25519`` are accepted. Every refusal is a :class:`SignatureError` subclass whose
one-line message names what failed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature

from pbem.core.errors import PbemError
from pbem.core.keyvalues import (
    KEY_TYPE,
    KeyFileError,
    KeyTypeError,
    PrivateKey,
    PublicKey,
    fingerprint,
    parse_public_blob,
    public_blob,
)
from pbem.core.sshwire import SshReader, ssh_string, ssh_uint32

__all__ = [
    "ARMOR_BEGIN",
    "ARMOR_END",
    "HASH_ALGORITHM",
    "MAGIC",
    "MAX_ARMOR",
    "MAX_BLOB",
    "NAMESPACE",
    "VERSION",
    "BadMagic",
    "BadSignature",
    "MalformedSignature",
    "NamespaceMismatch",
    "SignatureError",
    "Sshsig",
    "UnsupportedHash",
    "UnsupportedKeyType",
    "UnsupportedVersion",
    "WrongSigner",
    "allowed_signers",
    "armor",
    "dearmor",
    "parse",
    "sign",
    "signature_bytes",
    "signed_data",
    "verify",
    "wrap",
]

MAGIC = b"SSHSIG"
"""The six bytes that open both the signature and the data signed (``PROTOCOL.sshsig``)."""

VERSION = 1
"""The only SSHSIG version."""

NAMESPACE = "ardennes"
"""The namespace of every Ardennes signature (section 2): it keeps them apart from any other
use of the same key (git commits, files)."""

HASH_ALGORITHM = "sha512"
"""The message hash: ``ssh-keygen``'s default, and the only one accepted."""

MAX_BLOB = 4096
"""The largest SSHSIG blob accepted (an ed25519 one has 178 bytes plus the namespace)."""

MAX_ARMOR = 8192
"""The largest armoured signature accepted, in characters."""

ARMOR_BEGIN = "-----BEGIN SSH SIGNATURE-----"
ARMOR_END = "-----END SSH SIGNATURE-----"
_LINE = 70  # ssh-keygen's base64 line length (sshbuf_dtob64 with wrapping)
_MAX_NAMESPACE = 64


class SignatureError(PbemError):
    """A signature refused: the subclass names what failed."""


class MalformedSignature(SignatureError):
    """Not a well-formed SSHSIG: bad armour or base64, a length, trailing bytes, a size cap."""


class BadMagic(SignatureError):
    """The blob does not start with ``SSHSIG``."""


class UnsupportedVersion(SignatureError):
    """An SSHSIG version other than 1."""


class NamespaceMismatch(SignatureError):
    """A signature made for another namespace (another use of the key), section 2."""


class UnsupportedHash(SignatureError):
    """A hash algorithm other than ``sha512``."""


class UnsupportedKeyType(SignatureError):
    """A signature by a key that is not ed25519, or a signature of another type."""


class WrongSigner(SignatureError):
    """A valid-looking signature by another key than the one expected (key substitution,
    section 1): the message names both fingerprints."""


class BadSignature(SignatureError):
    """The Ed25519 signature does not verify: the message or the signature was altered."""


@dataclass(frozen=True)
class Sshsig:
    """The fields of an SSHSIG blob, parsed but not verified (see :func:`parse`)."""

    public_key: bytes
    """The signer's public key blob."""
    namespace: bytes
    reserved: bytes
    hash_algorithm: bytes
    signature: bytes
    """The signature field: ``string(type) || string(signature bytes)``."""


def _show(data: bytes) -> str:
    """A short printable form of an untrusted field, for a one-line message."""
    text = data[:40].decode("ascii", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(text + ("..." if len(data) > 40 else ""))


def _check_namespace(namespace: str) -> bytes:
    raw = namespace.encode("utf-8")
    if not raw or len(raw) > _MAX_NAMESPACE or not namespace.isprintable():
        raise SignatureError(f"bad namespace {namespace[:40]!r}: 1-64 printable characters")
    return raw


def signed_data(message: bytes, namespace: str = NAMESPACE) -> bytes:
    """The bytes Ed25519 signs for ``message`` (``PROTOCOL.sshsig``, section 2)::

    "SSHSIG" || string(namespace) || string("") || string("sha512") || string(SHA-512(message))
    """
    return (
        MAGIC
        + ssh_string(_check_namespace(namespace))
        + ssh_string(b"")
        + ssh_string(HASH_ALGORITHM.encode())
        + ssh_string(hashlib.sha512(message).digest())
    )


def sign(private_key: PrivateKey, message: bytes, namespace: str = NAMESPACE) -> bytes:
    """The binary SSHSIG blob of ``private_key``'s signature over ``message`` in
    ``namespace`` (section 2); :func:`armor` makes the text form."""
    return wrap(
        private_key.public_key(), private_key.sign(signed_data(message, namespace)), namespace
    )


def wrap(public_key: PublicKey, signature: bytes, namespace: str = NAMESPACE) -> bytes:
    """The SSHSIG blob of ``signature``, the 64-byte Ed25519 signature of
    :func:`signed_data` by ``public_key`` (made here, or by ``ssh-agent``: :mod:`pbem.agent`)."""
    if len(signature) != 64:
        raise MalformedSignature(f"an ed25519 signature has 64 bytes, not {len(signature)}")
    return (
        MAGIC
        + ssh_uint32(VERSION)
        + ssh_string(public_blob(public_key))
        + ssh_string(_check_namespace(namespace))
        + ssh_string(b"")
        + ssh_string(HASH_ALGORITHM.encode())
        + ssh_string(ssh_string(KEY_TYPE.encode()) + ssh_string(signature))
    )


def armor(blob: bytes) -> str:
    """The armoured signature, as ``ssh-keygen -Y sign`` writes it: the BEGIN line, base64
    in lines of 70 characters, the END line, each ending in a newline."""
    encoded = base64.b64encode(blob).decode("ascii")
    lines = [encoded[i : i + _LINE] for i in range(0, len(encoded), _LINE)]
    return "\n".join([ARMOR_BEGIN, *lines, ARMOR_END]) + "\n"


def allowed_signers(principals: Iterable[tuple[str, str]]) -> str:
    """An OpenSSH ``allowed_signers`` file (``ssh-keygen(1)``, ALLOWED SIGNERS): one line per
    ``(principal, public key line)``, each key allowed in the namespace ``ardennes`` only, for
    ``ssh-keygen -Y verify -f FILE -I PRINCIPAL -n ardennes``."""
    lines = []
    for principal, key in principals:
        if not principal.isalnum():
            raise SignatureError(f"bad principal {principal[:40]!r}: letters and digits only")
        lines.append(f'{principal} namespaces="{NAMESPACE}" {key}\n')
    return "".join(lines)


def dearmor(text: str | bytes) -> bytes:
    """The SSHSIG blob of an armoured signature (:func:`armor`). Whitespace around the lines
    (``\\r\\n`` from mail, indentation) is ignored; anything else before the BEGIN line or
    after the END line, or a damaged base64, is refused (:class:`MalformedSignature`)."""
    if len(text) > MAX_ARMOR:
        raise MalformedSignature(
            f"armoured signature of {len(text)} characters (at most {MAX_ARMOR})"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("ascii")
        except UnicodeDecodeError:
            raise MalformedSignature("armoured signature: not ASCII text") from None
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != ARMOR_BEGIN:
        raise MalformedSignature(f"armoured signature: does not start with {ARMOR_BEGIN}")
    if lines[-1] != ARMOR_END or len(lines) < 3:
        raise MalformedSignature(f"armoured signature: does not end with {ARMOR_END}")
    try:
        blob = base64.b64decode("".join(lines[1:-1]), validate=True)
    except binascii.Error:
        raise MalformedSignature("armoured signature: damaged base64") from None
    if len(blob) > MAX_BLOB:
        raise MalformedSignature(f"SSHSIG of {len(blob)} bytes (at most {MAX_BLOB})")
    return blob


def parse(blob: bytes) -> Sshsig:
    """The fields of an SSHSIG blob: magic and version checked, every length checked, no
    trailing bytes, at most :data:`MAX_BLOB` bytes. Nothing is verified."""
    if len(blob) > MAX_BLOB:
        raise MalformedSignature(f"SSHSIG of {len(blob)} bytes (at most {MAX_BLOB})")
    reader = SshReader(blob, "SSHSIG", MalformedSignature)
    magic = blob[: len(MAGIC)]
    if magic != MAGIC:
        raise BadMagic(f"not an SSH signature: starts with {_show(magic)}, not 'SSHSIG'")
    reader.raw(len(MAGIC), "magic")
    version = reader.uint32("version")
    if version != VERSION:
        raise UnsupportedVersion(f"SSHSIG version {version}: only version {VERSION} is known")
    fields = Sshsig(
        public_key=reader.string("public key"),
        namespace=reader.string("namespace"),
        reserved=reader.string("reserved field"),
        hash_algorithm=reader.string("hash algorithm"),
        signature=reader.string("signature"),
    )
    reader.end()
    return fields


def signature_bytes(blob: bytes) -> bytes:
    """The 64-byte Ed25519 signature inside the SSHSIG ``blob`` (parsed strictly, not
    verified): what a version 3 dice chain's secret is derived from (section 4)."""
    reader = SshReader(parse(blob).signature, "SSHSIG signature field", MalformedSignature)
    sig_type = reader.string("signature type")
    raw = reader.string("signature")
    reader.end()
    if sig_type != KEY_TYPE.encode() or len(raw) != 64:
        raise UnsupportedKeyType("not an ed25519 signature of 64 bytes")
    return raw


def verify(
    blob: bytes,
    message: bytes,
    namespace: str = NAMESPACE,
    *,
    signer: PublicKey | None = None,
) -> PublicKey:
    """The public key whose SSHSIG ``blob`` signs ``message`` in ``namespace`` (section 2).

    With ``signer``, the signature must also be that key's (section 1, key substitution:
    :class:`WrongSigner` names both fingerprints). Checks, in order: the structure
    (:class:`MalformedSignature`, :class:`BadMagic`, :class:`UnsupportedVersion`), the key
    type (:class:`UnsupportedKeyType`), the namespace (:class:`NamespaceMismatch`), the
    reserved field (empty), the hash algorithm (:class:`UnsupportedHash`), the signature's
    type and length, the signer, then the Ed25519 signature itself (:class:`BadSignature`).
    """
    fields = parse(blob)
    try:
        public_key = parse_public_blob(fields.public_key)
    except KeyTypeError as exc:
        raise UnsupportedKeyType(f"SSHSIG signer: {exc}") from None
    except KeyFileError as exc:
        raise MalformedSignature(f"SSHSIG signer: {exc}") from None
    expected = _check_namespace(namespace)
    if fields.namespace != expected:
        raise NamespaceMismatch(
            f"signature for namespace {_show(fields.namespace)}, not {namespace!r}: "
            "made for another use of the key"
        )
    if fields.reserved:
        raise MalformedSignature(
            f"SSHSIG reserved field is not empty ({len(fields.reserved)} bytes)"
        )
    if fields.hash_algorithm != HASH_ALGORITHM.encode():
        raise UnsupportedHash(
            f"SSHSIG hash algorithm {_show(fields.hash_algorithm)}: only {HASH_ALGORITHM!r}"
        )
    reader = SshReader(fields.signature, "SSHSIG signature field", MalformedSignature)
    sig_type = reader.string("signature type")
    raw = reader.string("signature")
    reader.end()
    if sig_type != KEY_TYPE.encode():
        raise UnsupportedKeyType(
            f"signature of type {_show(sig_type)} by an {KEY_TYPE} key: only {KEY_TYPE!r}"
        )
    if len(raw) != 64:
        raise MalformedSignature(f"an ed25519 signature has 64 bytes, not {len(raw)}")
    if signer is not None and public_blob(signer) != fields.public_key:
        raise WrongSigner(
            f"signed by {fingerprint(public_key)}, not by the expected key {fingerprint(signer)}"
        )
    try:
        public_key.verify(raw, signed_data(message, namespace))
    except InvalidSignature:
        raise BadSignature(
            f"bad signature by {fingerprint(public_key)}: the message or the signature was altered"
        ) from None
    return public_key
