"""Signatures (``docs/pbem-protocol.md``, section 2): the SSHSIG framing, armour, every refusal,
byte flips anywhere, and interoperation with the real ``ssh-keygen -Y sign/verify``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import keys
from pbem.core import sshsig
from pbem.core.errors import PbemError
from pbem.core.sshsig import (
    BadMagic,
    BadSignature,
    MalformedSignature,
    NamespaceMismatch,
    SignatureError,
    UnsupportedHash,
    UnsupportedKeyType,
    UnsupportedVersion,
    WrongSigner,
)
from pbem.core.sshwire import ssh_string, ssh_uint32
from pbem.keys import PrivateKey, public_blob
from tests.pbem import needs_ssh_keygen, ssh_keygen

KEY = keys.generate()
MESSAGE = b'{"format":"ardennes-packet","version":1,"seq":7}'
BLOB = sshsig.sign(KEY, MESSAGE)


def build(
    key: PrivateKey = KEY,
    message: bytes = MESSAGE,
    *,
    magic: bytes = b"SSHSIG",
    version: int = 1,
    public: bytes | None = None,
    namespace: bytes = b"ardennes",
    reserved: bytes = b"",
    hash_algorithm: bytes = b"sha512",
    sig_type: bytes = b"ssh-ed25519",
    signature: bytes | None = None,
    trailing: bytes = b"",
) -> bytes:
    """An SSHSIG blob with any field chosen, correctly signed over what it says (so that the
    check under test, not the signature, is what refuses it)."""
    algorithm = hash_algorithm.decode() if hash_algorithm in (b"sha256", b"sha512") else "sha512"
    digest = hashlib.new(algorithm, message).digest()
    data = (
        b"SSHSIG"
        + ssh_string(namespace)
        + ssh_string(reserved)
        + ssh_string(hash_algorithm)
        + ssh_string(digest)
    )
    raw = key.sign(data) if signature is None else signature
    return (
        magic
        + ssh_uint32(version)
        + ssh_string(public_blob(key.public_key()) if public is None else public)
        + ssh_string(namespace)
        + ssh_string(reserved)
        + ssh_string(hash_algorithm)
        + ssh_string(ssh_string(sig_type) + ssh_string(raw))
        + trailing
    )


def refused(
    error: type[PbemError], blob: bytes, message: bytes = MESSAGE, namespace: str = "ardennes"
) -> str:
    with pytest.raises(error) as exc:
        sshsig.verify(blob, message, namespace)
    text = str(exc.value)
    assert text and "\n" not in text, text
    return text


# --- round trips and layout -------------------------------------------------------------------


def test_sign_verify_round_trip_returns_the_signer() -> None:
    public = sshsig.verify(BLOB, MESSAGE)
    assert keys.public_blob(public) == keys.public_blob(KEY.public_key())
    assert sshsig.verify(BLOB, MESSAGE, signer=KEY.public_key()) is not None


def test_blob_is_the_published_layout() -> None:
    assert build() == BLOB  # the framing of PROTOCOL.sshsig, field by field
    fields = sshsig.parse(BLOB)
    assert fields.public_key == keys.public_blob(KEY.public_key())
    assert (fields.namespace, fields.reserved, fields.hash_algorithm) == (
        b"ardennes",
        b"",
        b"sha512",
    )
    assert len(BLOB) == 6 + 4 + (4 + 51) + (4 + 8) + 4 + (4 + 6) + (4 + 83)


def test_signed_data_layout() -> None:
    data = sshsig.signed_data(b"abc")
    assert data == (
        b"SSHSIG\x00\x00\x00\x08ardennes\x00\x00\x00\x00\x00\x00\x00\x06sha512\x00\x00\x00\x40"
        + hashlib.sha512(b"abc").digest()
    )


def test_signatures_are_deterministic_and_namespaced() -> None:
    assert sshsig.sign(KEY, MESSAGE) == BLOB
    other = sshsig.sign(KEY, MESSAGE, namespace="git")
    assert sshsig.verify(other, MESSAGE, namespace="git") is not None
    assert other != BLOB


def test_armor_round_trip_and_line_length() -> None:
    text = sshsig.armor(BLOB)
    lines = text.splitlines()
    assert lines[0] == "-----BEGIN SSH SIGNATURE-----"
    assert lines[-1] == "-----END SSH SIGNATURE-----"
    assert text.endswith("\n")
    assert all(len(line) == 70 for line in lines[1:-2]) and 0 < len(lines[-2]) <= 70
    assert sshsig.dearmor(text) == BLOB
    assert sshsig.dearmor(text.encode()) == BLOB


def test_dearmor_tolerates_mail_whitespace() -> None:
    text = sshsig.armor(BLOB)
    assert sshsig.dearmor(text.replace("\n", "\r\n")) == BLOB
    assert sshsig.dearmor("\n\n  " + text.replace("\n", "  \n  ") + "\n\n") == BLOB


@pytest.mark.parametrize(
    ("mangle", "fragment"),
    [
        (lambda t: t.replace("-----BEGIN SSH SIGNATURE-----\n", ""), "does not start"),
        (lambda t: t.replace("-----END SSH SIGNATURE-----\n", ""), "does not end"),
        (lambda t: "Hello,\n" + t, "does not start"),
        (lambda t: t + "-- \nsignature\n", "does not end"),
        (lambda t: t.replace("U1NI", "U1N!"), "base64"),
        (lambda t: t.replace("U1NI", "U1N"), "base64"),
        (lambda t: "-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n", "does not end"),
        (lambda t: t.replace("U1NI", "U1NI" + "A" * 9000), "characters"),
        (lambda t: t.replace("U1NI", "U1NI" + "AAAA\n" * 1450), "bytes"),
    ],
)
def test_dearmor_refuses_damage(mangle, fragment: str) -> None:
    with pytest.raises(MalformedSignature) as exc:
        sshsig.dearmor(mangle(sshsig.armor(BLOB)))
    assert fragment in str(exc.value) and "\n" not in str(exc.value)


def test_dearmor_refuses_non_ascii_bytes() -> None:
    with pytest.raises(MalformedSignature):
        sshsig.dearmor(sshsig.armor(BLOB).encode() + "é".encode())


@pytest.mark.parametrize("namespace", ["", "a\nb", "x" * 65])
def test_bad_namespace_is_refused_when_signing(namespace: str) -> None:
    with pytest.raises(SignatureError):
        sshsig.sign(KEY, MESSAGE, namespace=namespace)


# --- every failure mode ----------------------------------------------------------------------


def test_bad_magic() -> None:
    assert "SSHSIG" in refused(BadMagic, build(magic=b"SSHSIH"))
    refused(BadMagic, b"")
    refused(BadMagic, b"-----BEGIN SSH SIGNATURE-----")


def test_unknown_version() -> None:
    assert "version 2" in refused(UnsupportedVersion, build(version=2))
    refused(UnsupportedVersion, build(version=0))


def test_namespace_mismatch() -> None:
    message = refused(NamespaceMismatch, sshsig.sign(KEY, MESSAGE, namespace="git"))
    assert "'git'" in message and "'ardennes'" in message
    refused(NamespaceMismatch, BLOB, namespace="file")
    refused(NamespaceMismatch, build(namespace=b"ardennes\x00"))


def test_hash_algorithm() -> None:
    assert "sha256" in refused(UnsupportedHash, build(hash_algorithm=b"sha256"))
    refused(UnsupportedHash, build(hash_algorithm=b"md5"))
    refused(UnsupportedHash, build(hash_algorithm=b""))


def test_key_type() -> None:
    rsa_blob = ssh_string(b"ssh-rsa") + ssh_string(b"\x01\x00\x01") + ssh_string(b"\x00\xc3")
    assert "RSA" in refused(UnsupportedKeyType, build(public=rsa_blob))
    refused(UnsupportedKeyType, build(sig_type=b"rsa-sha2-512"))
    ecdsa = ssh_string(b"ecdsa-sha2-nistp256") + ssh_string(b"nistp256") + ssh_string(b"\x04")
    assert "ECDSA" in refused(UnsupportedKeyType, build(public=ecdsa))


def test_bad_signature() -> None:
    assert "altered" in refused(BadSignature, BLOB, MESSAGE + b" ")
    refused(BadSignature, build(signature=bytes(64)))
    other = keys.generate()
    # another key's signature under this key's name
    refused(BadSignature, build(signature=other.sign(sshsig.signed_data(MESSAGE))))


def test_wrong_signer_names_both_fingerprints() -> None:
    other = keys.generate()
    with pytest.raises(WrongSigner) as exc:
        sshsig.verify(BLOB, MESSAGE, signer=other.public_key())
    text = str(exc.value)
    assert keys.fingerprint(KEY.public_key()) in text
    assert keys.fingerprint(other.public_key()) in text


@pytest.mark.parametrize(
    ("blob", "fragment"),
    [
        (build(trailing=b"\x00"), "trailing"),
        (build(reserved=b"tag"), "reserved"),
        (build(signature=bytes(63)), "64 bytes"),
        (build(public=keys.public_blob(KEY.public_key()) + b"\x00"), "trailing"),
        (build(public=keys.public_blob(KEY.public_key())[:-1]), "truncated"),
        (BLOB[:-1], "truncated"),
        (BLOB[:10] + b"\xff\xff\xff\xff" + BLOB[14:], "truncated"),
        (build() + bytes(sshsig.MAX_BLOB), "at most"),
    ],
    ids=[  # the blobs hold a key made at import: ids of their own, the same in every worker
        "trailing byte",
        "reserved field",
        "short signature",
        "public key with a trailing byte",
        "public key truncated",
        "blob truncated",
        "length past the end",
        "over the limit",
    ],
)
def test_malformed(blob: bytes, fragment: str) -> None:
    assert fragment in refused(MalformedSignature, blob)


def test_every_truncation_is_refused() -> None:
    for end in range(len(BLOB)):
        with pytest.raises(SignatureError):
            sshsig.verify(BLOB[:end], MESSAGE)


def test_every_byte_of_the_blob_matters() -> None:
    for position in range(len(BLOB)):
        for mask in (0x01, 0x80, 0xFF):
            flipped = bytearray(BLOB)
            flipped[position] ^= mask
            with pytest.raises(SignatureError):
                sshsig.verify(bytes(flipped), MESSAGE)


@given(position=st.integers(0, len(BLOB) - 1), bit=st.integers(0, 7))
def test_a_flipped_bit_anywhere_in_the_blob_is_refused(position: int, bit: int) -> None:
    flipped = bytearray(BLOB)
    flipped[position] ^= 1 << bit
    with pytest.raises(SignatureError):
        sshsig.verify(bytes(flipped), MESSAGE)


@given(message=st.binary(min_size=1, max_size=300), data=st.data())
def test_a_flipped_bit_anywhere_in_the_message_is_refused(message: bytes, data) -> None:
    blob = sshsig.sign(KEY, message)
    assert sshsig.verify(blob, message) is not None
    position = data.draw(st.integers(0, len(message) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(message)
    flipped[position] ^= 1 << bit
    with pytest.raises(BadSignature):
        sshsig.verify(blob, bytes(flipped))


# --- against the real ssh-keygen ----------------------------------------------------------------


@pytest.fixture
def signed(tmp_path: Path) -> Path:
    """A folder with our signature over a message, and an allowed_signers naming us german."""
    (tmp_path / "m.bin").write_bytes(MESSAGE)
    (tmp_path / "m.sig").write_text(sshsig.armor(BLOB))
    line = keys.public_line(KEY.public_key())
    (tmp_path / "allowed_signers").write_text(f"german {line}\n")
    return tmp_path


@needs_ssh_keygen
def test_ssh_keygen_verifies_our_signature(signed: Path) -> None:
    result = ssh_keygen(
        "-Y", "verify", "-f", str(signed / "allowed_signers"), "-I", "german",
        "-n", "ardennes", "-s", str(signed / "m.sig"), stdin=MESSAGE,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    fp = keys.fingerprint(KEY.public_key())
    assert f'Good "ardennes" signature for german with ED25519 key {fp}' in result.stdout.decode()
    check = ssh_keygen(
        "-Y", "check-novalidate", "-n", "ardennes", "-s", str(signed / "m.sig"), stdin=MESSAGE
    )
    assert check.returncode == 0, check.stderr
    assert f'Good "ardennes" signature with ED25519 key {fp}' in check.stdout.decode()


@needs_ssh_keygen
def test_ssh_keygen_refuses_our_signature_for_another_namespace_or_message(signed: Path) -> None:
    base = ["-Y", "verify", "-f", str(signed / "allowed_signers"), "-I", "german"]
    sig = ["-s", str(signed / "m.sig")]
    assert ssh_keygen(*base, "-n", "git", *sig, stdin=MESSAGE).returncode != 0
    assert ssh_keygen(*base, "-n", "ardennes", *sig, stdin=MESSAGE + b"x").returncode != 0
    flipped = bytearray(BLOB)
    flipped[-1] ^= 1
    (signed / "m.sig").write_text(sshsig.armor(bytes(flipped)))
    assert ssh_keygen(*base, "-n", "ardennes", *sig, stdin=MESSAGE).returncode != 0


@pytest.fixture
def ssh_key(tmp_path: Path) -> Path:
    """An ed25519 key made by ssh-keygen, and a message beside it."""
    path = tmp_path / "id_ed25519"
    made = ssh_keygen("-q", "-t", "ed25519", "-N", "", "-C", "allied", "-f", str(path))
    assert made.returncode == 0, made.stderr
    (tmp_path / "m.bin").write_bytes(MESSAGE)
    return path


def ssh_sign(key: Path, namespace: str, *options: str) -> bytes:
    message = key.parent / "m.bin"
    sig = key.parent / "m.bin.sig"
    sig.unlink(missing_ok=True)
    result = ssh_keygen("-Y", "sign", "-f", str(key), "-n", namespace, *options, str(message))
    assert result.returncode == 0, result.stderr
    return sig.read_bytes()


@needs_ssh_keygen
def test_ssh_keygen_signature_verifies_with_ours_and_is_byte_identical(ssh_key: Path) -> None:
    armoured = ssh_sign(ssh_key, "ardennes")
    public = sshsig.verify(sshsig.dearmor(armoured), MESSAGE)
    expected, _ = keys.parse_public_line((ssh_key.parent / "id_ed25519.pub").read_text())
    assert keys.public_blob(public) == keys.public_blob(expected)
    ours = sshsig.armor(sshsig.sign(keys.load_private_key(ssh_key), MESSAGE))
    assert ours.encode() == armoured  # Ed25519 is deterministic: the very same file
    with pytest.raises(BadSignature):
        sshsig.verify(sshsig.dearmor(armoured), MESSAGE[:-1])


@needs_ssh_keygen
def test_ssh_keygen_signature_for_another_namespace_is_refused(ssh_key: Path) -> None:
    blob = sshsig.dearmor(ssh_sign(ssh_key, "git"))
    refused(NamespaceMismatch, blob)
    assert sshsig.verify(blob, MESSAGE, namespace="git") is not None


@needs_ssh_keygen
def test_ssh_keygen_sha256_signature_is_refused(ssh_key: Path) -> None:
    blob = sshsig.dearmor(ssh_sign(ssh_key, "ardennes", "-O", "hashalg=sha256"))
    assert "sha256" in refused(UnsupportedHash, blob)


@needs_ssh_keygen
def test_ssh_keygen_ecdsa_signature_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "id_ecdsa"
    assert ssh_keygen("-q", "-t", "ecdsa", "-N", "", "-f", str(key)).returncode == 0
    (tmp_path / "m.bin").write_bytes(MESSAGE)
    blob = sshsig.dearmor(ssh_sign(key, "ardennes"))
    assert "ECDSA" in refused(UnsupportedKeyType, blob)
