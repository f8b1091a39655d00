"""Identities: Ed25519 keys, their files and fingerprints (``docs/pbem-protocol.md``, section 1).

The key store (files); keys as values (blobs, lines, fingerprints) are
:mod:`pbem.core.keyvalues`, whose names this module also gives. A player is an Ed25519 key
(``cryptography``). Keys made by ``ardennes keygen`` live in the key
store, ``<home>/keys/NAME`` (the private key, OpenSSH format, mode 0600, optionally encrypted
with a passphrase: bcrypt KDF and AES-256, as ``ssh-keygen`` does) and ``<home>/keys/NAME.pub``
(one OpenSSH public key line); ``<home>`` is ``$ARDENNES_HOME`` or the user data directory.
Any OpenSSH ed25519 private key file serves as well; other key types are refused. A key is
shown as its OpenSSH fingerprint, exactly what ``ssh-keygen -l`` prints. The SSH wire format
is :mod:`pbem.core.sshwire`; all cryptography is ``cryptography``'s.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
)

from pbem.atomic import read_limited
from pbem.core.errors import PbemError
from pbem.core.keyvalues import (
    KEY_TYPE,
    ONLY_ED25519,
    KeyFileError,
    KeyTypeError,
    PrivateKey,
    PublicKey,
    fingerprint,
    parse_public_blob,
    parse_public_line,
    public_blob,
    public_line,
    raw_private_bytes,
    raw_public_bytes,
)
from pbem.core.sshwire import SshReader

__all__ = [
    "ENV_HOME",
    "KEY_TYPE",
    "KeyFileError",
    "KeyTypeError",
    "PassphraseError",
    "PrivateKey",
    "PublicKey",
    "StoredKey",
    "check_free",
    "fingerprint",
    "generate",
    "home_dir",
    "is_encrypted",
    "key_dir",
    "list_keys",
    "load_key",
    "load_private_key",
    "parse_public_blob",
    "parse_public_line",
    "private_key_bytes",
    "public_blob",
    "public_line",
    "raw_private_bytes",
    "raw_public_bytes",
    "read_public_key",
    "resolve_key",
    "save",
    "validate_name",
]

ENV_HOME = "ARDENNES_HOME"
"""The environment variable that replaces ``platformdirs.user_data_dir("ardennes")``."""

MAX_KEY_FILE = 64 * 1024
"""The largest key file read (an ed25519 private key file is about 450 bytes)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_OPENSSH_MAGIC = b"openssh-key-v1\x00"
_PEM_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_PEM_END = "-----END OPENSSH PRIVATE KEY-----"


class PassphraseError(KeyFileError):
    """An encrypted key without its passphrase, or with a wrong one."""


def generate() -> PrivateKey:
    """A new Ed25519 private key (section 1), from the operating system's random source."""
    return Ed25519PrivateKey.generate()


def home_dir(home: Path | str | None = None) -> Path:
    """Ardennes' data directory: ``home`` if given, else ``$ARDENNES_HOME`` if set, else
    ``platformdirs.user_data_dir("ardennes")`` (section 1)."""
    if home is not None:
        return Path(home).expanduser()
    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("ardennes"))


def key_dir(home: Path | str | None = None) -> Path:
    """The key store, ``<home>/keys`` (see :func:`home_dir`)."""
    return home_dir(home) / "keys"


def validate_name(name: str) -> str:
    """``name`` if it can name a key in the store: 1-64 letters, digits, ``.``, ``_``, ``-``,
    starting with a letter or digit, not ending in ``.pub``."""
    if not _NAME.fullmatch(name) or name.endswith(".pub"):
        raise KeyFileError(
            f"bad key name {name[:70]!r}: use 1-64 letters, digits, '.', '_' or '-' "
            "(starting with a letter or digit, not ending in .pub)"
        )
    return name


def _passphrase_bytes(passphrase: bytes | str | None) -> bytes | None:
    if passphrase is None:
        return None
    return passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase


def private_key_bytes(key: PrivateKey, passphrase: bytes | str | None = None) -> bytes:
    """The private key file's bytes: OpenSSH format, encrypted with ``passphrase`` (bcrypt KDF,
    as ``ssh-keygen`` does) unless it is ``None`` or empty."""
    secret = _passphrase_bytes(passphrase)
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(secret) if secret else serialization.NoEncryption()
    )
    try:
        return key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, encryption
        )
    except UnsupportedAlgorithm as exc:  # no bcrypt module
        raise KeyFileError(
            f"cannot encrypt the key ({exc}): install bcrypt (pip install bcrypt)"
        ) from None


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Write a new file with exactly ``mode``, atomically, never replacing an existing file.

    The bytes go to a temporary file created with ``mode`` (``O_EXCL``, so never a wider mode
    at any time), are synced, then hard-linked to ``path`` (which fails if ``path`` exists).
    """
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        try:
            os.fchmod(fd, mode)  # exactly ``mode``: created as ``mode & ~umask``, never wider
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise KeyFileError(f"{path} exists: keys are never overwritten") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def check_free(name: str, home: Path | str | None = None) -> Path:
    """The path ``<home>/keys/NAME`` for a new key: the name must be valid
    (:func:`validate_name`) and neither ``NAME`` nor ``NAME.pub`` may exist yet."""
    path = key_dir(home) / validate_name(name)
    for existing in (path, path.with_name(f"{name}.pub")):
        if existing.exists() or existing.is_symlink():
            raise KeyFileError(f"{existing} exists: keys are never overwritten")
    return path


@dataclass(frozen=True)
class StoredKey:
    """A key of the store (or a key file): its name, files and public key.

    ``public_key`` is ``None`` when the files cannot be read; ``problem`` then says why.
    """

    name: str
    path: Path
    public_key: PublicKey | None
    encrypted: bool
    problem: str | None = None

    @property
    def public_path(self) -> Path:
        """The ``.pub`` file beside the private key."""
        return self.path.with_name(self.path.name + ".pub")

    @property
    def fingerprint(self) -> str | None:
        """The key's fingerprint (:func:`fingerprint`), ``None`` if unreadable."""
        return None if self.public_key is None else fingerprint(self.public_key)


def save(
    key: PrivateKey,
    name: str,
    *,
    passphrase: bytes | str | None = None,
    home: Path | str | None = None,
    comment: str | None = None,
) -> StoredKey:
    """Store ``key`` as ``<home>/keys/NAME`` (OpenSSH private key, mode 0600, encrypted with
    ``passphrase`` unless it is ``None`` or empty) and ``NAME.pub`` (the public key line,
    comment ``comment`` or ``NAME``), section 1.

    Both files are created atomically and never overwrite anything: a name already taken
    raises :class:`KeyFileError`. The key directory is created with mode 0700.
    """
    path = check_free(name, home)
    pub_path = path.with_name(f"{name}.pub")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = private_key_bytes(key, passphrase)
    line = public_line(key.public_key(), name if comment is None else comment) + "\n"
    _write_new(path, data, 0o600)
    _write_new(pub_path, line.encode("ascii"), 0o644)
    secret = _passphrase_bytes(passphrase)
    return StoredKey(name, path, key.public_key(), encrypted=bool(secret))


def _too_large(message: str) -> KeyFileError:
    return KeyFileError(f"{message}: too large for a key file")


def _read_file(path: Path) -> bytes:
    try:
        return read_limited(path, MAX_KEY_FILE, str(path), _too_large)
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no such key file") from None
    except IsADirectoryError:
        raise KeyFileError(f"{path} is a directory, not a key file") from None
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read the key file ({exc.strerror})") from None


@dataclass(frozen=True)
class _Header:
    cipher: bytes
    public_blob: bytes


def _parse_header(path: Path, data: bytes) -> _Header:
    """The unencrypted head of an OpenSSH private key file: its cipher and public key blob.

    Other formats are refused with a one-line message (a ``.pub`` file, a PEM RSA or EC key,
    a PKCS#8 key)."""
    text = data.decode("ascii", "replace").strip()
    first = text.splitlines()[0].strip() if text else ""
    if first.startswith(("ssh-", "ecdsa-", "sk-")):
        raise KeyFileError(f"{path} is a public key: give the private key file (without .pub)")
    if first == "-----BEGIN RSA PRIVATE KEY-----":
        raise KeyTypeError(f"{path}: an RSA key: {ONLY_ED25519}")
    if first in ("-----BEGIN EC PRIVATE KEY-----", "-----BEGIN DSA PRIVATE KEY-----"):
        kind = "an ECDSA" if "EC " in first else "a DSA"
        raise KeyTypeError(f"{path}: {kind} key: {ONLY_ED25519}")
    lines = [line.strip() for line in text.splitlines()]
    if len(lines) < 3 or lines[0] != _PEM_BEGIN or lines[-1] != _PEM_END:
        raise KeyFileError(
            f"{path} is not an OpenSSH private key (-----BEGIN OPENSSH PRIVATE KEY-----)"
        )
    try:
        body = base64.b64decode("".join(lines[1:-1]), validate=True)
    except binascii.Error:
        raise KeyFileError(f"{path}: the private key's base64 is damaged") from None
    reader = SshReader(body, f"{path}", KeyFileError)
    if body[: len(_OPENSSH_MAGIC)] != _OPENSSH_MAGIC:
        raise reader.fail("not an openssh-key-v1 private key")
    reader.raw(len(_OPENSSH_MAGIC), "magic")
    cipher = reader.string("cipher name")
    reader.string("KDF name")
    reader.string("KDF options")
    if reader.uint32("number of keys") != 1:
        raise reader.fail("holds more than one key")
    blob = reader.string("public key")
    reader.string("private section")
    reader.end()
    return _Header(cipher, blob)


def is_encrypted(path: Path | str) -> bool:
    """Whether the OpenSSH private key file ``path`` is encrypted (needs a passphrase)."""
    path = Path(path).expanduser()
    return _parse_header(path, _read_file(path)).cipher != b"none"


def read_public_key(path: Path | str) -> PublicKey:
    """The public key of a private key file (from its unencrypted head, so no passphrase is
    needed) or of an OpenSSH public key line file (``.pub``). Non-ed25519 keys are refused."""
    path = Path(path).expanduser()
    data = _read_file(path)
    text = data.decode("ascii", "replace").strip()
    if text.startswith(KEY_TYPE + " ") or (text and " " in text and "-----" not in text):
        return parse_public_line(text.splitlines()[0], f"{path}: ")[0]
    return parse_public_blob(_parse_header(path, data).public_blob, f"{path}: ")


def load_private_key(path: Path | str, passphrase: bytes | str | None = None) -> PrivateKey:
    """The Ed25519 private key of the OpenSSH private key file ``path`` (our store's or any
    ``ssh-keygen -t ed25519`` key, section 1).

    Refused, each with a one-line message: a missing or damaged file, another format or key
    type (:class:`KeyTypeError`, checked before any passphrase is asked), an encrypted key
    without its passphrase or with a wrong one (:class:`PassphraseError`). The passphrase is
    ignored for an unencrypted key.
    """
    path = Path(path).expanduser()
    data = _read_file(path)
    header = _parse_header(path, data)
    expected = parse_public_blob(header.public_blob, f"{path}: ")
    encrypted = header.cipher != b"none"
    secret = _passphrase_bytes(passphrase) if encrypted else None
    if encrypted and secret is None:
        raise PassphraseError(f"{path} is encrypted: its passphrase is needed")
    if encrypted and not secret:
        raise PassphraseError(f"{path}: wrong passphrase")
    try:
        key = serialization.load_ssh_private_key(data, secret)
    except UnsupportedAlgorithm as exc:
        raise KeyFileError(f"{path}: cannot decrypt the key ({exc})") from None
    except (ValueError, TypeError) as exc:
        if encrypted and "checksum" in str(exc):
            raise PassphraseError(f"{path}: wrong passphrase") from None
        raise KeyFileError(f"{path}: damaged OpenSSH private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):  # pragma: no cover - the header said ed25519
        raise KeyTypeError(f"{path}: not an ed25519 key: {ONLY_ED25519}")
    if raw_public_bytes(key.public_key()) != raw_public_bytes(expected):
        raise KeyFileError(f"{path}: the private key does not match its public key")
    return key


def resolve_key(spec: str | Path, home: Path | str | None = None) -> Path:
    """The private key file that ``spec`` means: a key of the store by name if there is one,
    else a file path (``~`` expanded)."""
    text = str(spec)
    if _NAME.fullmatch(text) and not text.endswith(".pub"):
        stored = key_dir(home) / text
        if stored.exists():
            return stored
    path = Path(text).expanduser()
    if path.exists():
        return path
    raise KeyFileError(f"no key named {text[:70]!r} in {key_dir(home)} and no such file")


def load_key(
    spec: str | Path,
    passphrase: bytes | str | None = None,
    home: Path | str | None = None,
) -> PrivateKey:
    """:func:`load_private_key` of :func:`resolve_key` (a store name or a file path)."""
    return load_private_key(resolve_key(spec, home), passphrase)


def _stored(path: Path) -> StoredKey:
    name = path.name
    try:
        data = _read_file(path)
        header = _parse_header(path, data)
        public_key = parse_public_blob(header.public_blob, f"{path}: ")
        encrypted = header.cipher != b"none"
        pub_path = path.with_name(name + ".pub")
        if pub_path.exists():
            listed = read_public_key(pub_path)
            if raw_public_bytes(listed) != raw_public_bytes(public_key):
                return StoredKey(
                    name, path, None, encrypted, f"{pub_path.name} does not match the private key"
                )
    except PbemError as exc:
        return StoredKey(name, path, None, False, str(exc))
    return StoredKey(name, path, public_key, encrypted)


def list_keys(home: Path | str | None = None) -> list[StoredKey]:
    """The keys of the store, by name; a damaged one has ``public_key`` ``None`` and says
    why in ``problem``."""
    directory = key_dir(home)
    if not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.iterdir()):
        name = path.name
        if name.endswith(".pub") or not _NAME.fullmatch(name) or not path.is_file():
            continue
        found.append(_stored(path))
    return found
