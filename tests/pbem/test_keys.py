"""Identities (``docs/pbem-protocol.md``, section 1): key files, blobs, lines, fingerprints, the
key store, ``ardennes keygen`` and ``ardennes keys``; checked against the real ``ssh-keygen``."""

from __future__ import annotations

import base64
import getpass
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ardennes_tui import cli
from ardennes_tui.cli import keys as keys_command
from pbem import keys
from pbem.core import sshwire
from pbem.core.errors import PbemError
from pbem.keys import KeyFileError, KeyTypeError, PassphraseError
from tests.pbem import needs_ssh_keygen, ssh_keygen

# --- helpers ------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh Ardennes home (``$ARDENNES_HOME``) for the test."""
    path = tmp_path / "home"
    monkeypatch.setenv(keys.ENV_HOME, str(path))
    return path


def one_line(exc: pytest.ExceptionInfo[PbemError]) -> str:
    message = str(exc.value)
    assert message and "\n" not in message, message
    return message


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def write_key(path: Path, key: object, fmt: serialization.PrivateFormat) -> Path:
    assert isinstance(key, (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey, Ed25519PrivateKey))
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, fmt, serialization.NoEncryption())
    )
    return path


# --- raw keys, blobs, lines, fingerprints --------------------------------------------------


def test_generate_gives_distinct_ed25519_keys() -> None:
    a, b = keys.generate(), keys.generate()
    assert isinstance(a, Ed25519PrivateKey)
    assert keys.raw_private_bytes(a) != keys.raw_private_bytes(b)


def test_raw_private_bytes_is_the_32_byte_seed() -> None:
    key = keys.generate()
    raw = keys.raw_private_bytes(key)
    assert len(raw) == 32
    again = Ed25519PrivateKey.from_private_bytes(raw)
    assert keys.raw_public_bytes(again.public_key()) == keys.raw_public_bytes(key.public_key())


def test_public_blob_layout_and_round_trip() -> None:
    public = keys.generate().public_key()
    blob = keys.public_blob(public)
    raw = keys.raw_public_bytes(public)
    assert blob == b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + raw
    assert keys.raw_public_bytes(keys.parse_public_blob(blob)) == raw


@pytest.mark.parametrize(
    ("blob", "fragment"),
    [
        (b"", "truncated"),
        (b"\x00\x00\x00\x0bssh-ed25519", "truncated"),
        (b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x1f" + bytes(31), "32 bytes"),
        (b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(33), "trailing"),
        (b"\xff\xff\xff\xffssh-ed25519", "truncated"),
    ],
)
def test_damaged_public_blob_is_refused(blob: bytes, fragment: str) -> None:
    with pytest.raises(KeyFileError) as exc:
        keys.parse_public_blob(blob)
    assert fragment in one_line(exc)


def test_public_blob_of_another_type_is_refused() -> None:
    blob = sshwire.ssh_string(b"ssh-rsa") + sshwire.ssh_string(b"\x01\x00\x01")
    with pytest.raises(KeyTypeError) as exc:
        keys.parse_public_blob(blob)
    assert "RSA" in one_line(exc) and "ed25519" in str(exc.value)


def test_public_line_round_trip() -> None:
    public = keys.generate().public_key()
    line = keys.public_line(public, "german  player")
    assert line.startswith("ssh-ed25519 AAAA") and line.endswith(" german player")
    parsed, comment = keys.parse_public_line(line + "\n")
    assert keys.raw_public_bytes(parsed) == keys.raw_public_bytes(public)
    assert comment == "german player"
    assert keys.parse_public_line(keys.public_line(public))[1] == ""


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("", KeyFileError),
        ("ssh-ed25519", KeyFileError),
        ("ssh-ed25519 AAAA!!!!", KeyFileError),
        ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ", KeyTypeError),
        ("ecdsa-sha2-nistp256 AAAA", KeyTypeError),
    ],
)
def test_bad_public_line_is_refused(line: str, error: type[PbemError]) -> None:
    with pytest.raises(error) as exc:
        keys.parse_public_line(line)
    one_line(exc)


def test_public_line_whose_blob_is_of_another_type_is_refused() -> None:
    blob = sshwire.ssh_string(b"ssh-rsa") + sshwire.ssh_string(b"x")
    line = "ssh-ed25519 " + base64.b64encode(blob).decode()
    with pytest.raises(KeyTypeError):
        keys.parse_public_line(line)


def test_fingerprint_is_unpadded_base64_of_sha256_of_the_blob() -> None:
    public = keys.generate().public_key()
    digest = hashlib.sha256(keys.public_blob(public)).digest()
    fp = keys.fingerprint(public)
    assert fp == "SHA256:" + base64.b64encode(digest).decode().rstrip("=")
    assert len(fp) == len("SHA256:") + 43 and "=" not in fp


# --- the store: where, names, files and modes -----------------------------------------------


def test_home_directory_parameter_env_and_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(keys.ENV_HOME, raising=False)
    assert keys.home_dir() == Path(platformdirs.user_data_dir("ardennes"))
    assert keys.key_dir() == Path(platformdirs.user_data_dir("ardennes")) / "keys"
    monkeypatch.setenv(keys.ENV_HOME, str(tmp_path / "env"))
    assert keys.key_dir() == tmp_path / "env" / "keys"
    assert keys.key_dir(tmp_path / "param") == tmp_path / "param" / "keys"


@pytest.mark.parametrize(
    "name", ["", ".hidden", "../escape", "a/b", "x.pub", "-dash", "a b", "é", "x" * 65]
)
def test_bad_key_names_are_refused(name: str) -> None:
    with pytest.raises(KeyFileError) as exc:
        keys.validate_name(name)
    assert "bad key name" in one_line(exc)


def test_save_writes_openssh_private_key_0600_and_public_line(home: Path) -> None:
    key = keys.generate()
    stored = keys.save(key, "german")
    directory = home / "keys"
    assert stored.path == directory / "german"
    assert stored.public_path == directory / "german.pub"
    assert mode(stored.path) == 0o600
    assert mode(stored.public_path) == 0o644
    assert mode(directory) == 0o700
    assert stored.path.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    line = stored.public_path.read_text()
    assert line == keys.public_line(key.public_key(), "german") + "\n"
    assert stored.fingerprint == keys.fingerprint(key.public_key())
    assert not stored.encrypted
    assert sorted(p.name for p in directory.iterdir()) == ["german", "german.pub"]  # no temp
    loaded = keys.load_private_key(stored.path)
    assert keys.raw_private_bytes(loaded) == keys.raw_private_bytes(key)


def test_save_is_0600_whatever_the_umask(home: Path) -> None:
    old = os.umask(0)
    try:
        stored = keys.save(keys.generate(), "wide")
    finally:
        os.umask(old)
    assert mode(stored.path) == 0o600


def test_private_key_is_created_0600_exclusively(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No window with wider permissions: the file is born 0600 with O_EXCL, then linked."""
    calls: list[tuple[str, int, int]] = []
    real_open = os.open

    def spy(path: str | Path, flags: int, mode: int = 0o777, **kw: object) -> int:
        calls.append((str(path), flags, mode))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", spy)
    keys.save(keys.generate(), "spied")
    private = [c for c in calls if ".spied." in c[0] and ".pub" not in c[0]]
    assert len(private) == 1
    _, flags, created = private[0]
    assert created == 0o600
    assert flags & os.O_EXCL and flags & os.O_CREAT


def test_existing_key_is_never_overwritten(home: Path) -> None:
    keys.save(keys.generate(), "german")
    before = (home / "keys" / "german").read_bytes()
    with pytest.raises(KeyFileError) as exc:
        keys.save(keys.generate(), "german")
    assert "never overwritten" in one_line(exc)
    assert (home / "keys" / "german").read_bytes() == before


def test_a_lone_public_file_blocks_the_name(home: Path) -> None:
    (home / "keys").mkdir(parents=True)
    (home / "keys" / "allied.pub").write_text("x\n")
    with pytest.raises(KeyFileError):
        keys.save(keys.generate(), "allied")
    assert not (home / "keys" / "allied").exists()


def test_write_new_refuses_a_file_created_in_between(tmp_path: Path) -> None:
    """The final step is a hard link, which fails on an existing name (a race loses safely)."""
    target = tmp_path / "k"
    target.write_bytes(b"theirs")
    with pytest.raises(KeyFileError):
        keys._write_new(target, b"ours", 0o600)
    assert target.read_bytes() == b"theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["k"]


# --- passphrases ---------------------------------------------------------------------------


def test_passphrase_round_trip(home: Path) -> None:
    key = keys.generate()
    stored = keys.save(key, "secret", passphrase="correct horse")
    assert stored.encrypted and keys.is_encrypted(stored.path)
    assert b"bcrypt" in base64.b64decode(
        "".join(stored.path.read_text().splitlines()[1:-1])
    )  # the KDF ssh-keygen uses
    for secret in ("correct horse", b"correct horse"):
        loaded = keys.load_private_key(stored.path, secret)
        assert keys.raw_private_bytes(loaded) == keys.raw_private_bytes(key)


def test_wrong_passphrase_is_a_one_line_error(home: Path) -> None:
    stored = keys.save(keys.generate(), "secret", passphrase=b"right")
    with pytest.raises(PassphraseError) as exc:
        keys.load_private_key(stored.path, b"wrong")
    assert one_line(exc) == f"{stored.path}: wrong passphrase"
    with pytest.raises(PassphraseError) as exc:
        keys.load_private_key(stored.path, "")
    one_line(exc)


def test_missing_passphrase_is_a_one_line_error(home: Path) -> None:
    stored = keys.save(keys.generate(), "secret", passphrase=b"right")
    with pytest.raises(PassphraseError) as exc:
        keys.load_private_key(stored.path)
    assert "passphrase is needed" in one_line(exc)


def test_empty_passphrase_means_unencrypted_and_extra_passphrase_is_ignored(home: Path) -> None:
    stored = keys.save(keys.generate(), "plain", passphrase=b"")
    assert not stored.encrypted and not keys.is_encrypted(stored.path)
    keys.load_private_key(stored.path, b"anything")


# --- loading other files ----------------------------------------------------------------------


def test_other_key_types_are_refused(tmp_path: Path) -> None:
    ecdsa = ec.generate_private_key(ec.SECP256R1())
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    cases = {
        "ecdsa-openssh": (ecdsa, serialization.PrivateFormat.OpenSSH, "ECDSA"),
        "rsa-openssh": (rsa_key, serialization.PrivateFormat.OpenSSH, "RSA"),
        "rsa-pem": (rsa_key, serialization.PrivateFormat.TraditionalOpenSSL, "RSA"),
        "ec-pem": (ecdsa, serialization.PrivateFormat.TraditionalOpenSSL, "ECDSA"),
    }
    for name, (key, fmt, kind) in cases.items():
        path = write_key(tmp_path / name, key, fmt)
        with pytest.raises(KeyTypeError) as exc:
            keys.load_private_key(path, b"never asked")
        assert kind in one_line(exc) and "ed25519" in str(exc.value), name


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "not an OpenSSH private key"),
        (b"hello\n", "not an OpenSSH private key"),
        (
            b"-----BEGIN OPENSSH PRIVATE KEY-----\n!!!!\n-----END OPENSSH PRIVATE KEY-----\n",
            "base64",
        ),
        (
            b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
            "openssh-key-v1",
        ),
    ],
)
def test_damaged_files_are_refused(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "k"
    path.write_bytes(content)
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(path)
    assert fragment in one_line(exc)


def test_pkcs8_ed25519_is_not_an_openssh_key(tmp_path: Path) -> None:
    path = write_key(tmp_path / "p8", keys.generate(), serialization.PrivateFormat.PKCS8)
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(path)
    assert "not an OpenSSH private key" in one_line(exc)


def test_truncated_private_section_is_refused(home: Path) -> None:
    stored = keys.save(keys.generate(), "cut")
    lines = stored.path.read_text().splitlines()
    body = base64.b64decode("".join(lines[1:-1]))[:-20]
    stored.path.write_text("\n".join([lines[0], base64.b64encode(body).decode(), lines[-1]]) + "\n")
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(stored.path)
    assert "truncated" in one_line(exc)


def test_missing_file_directory_and_public_file(home: Path, tmp_path: Path) -> None:
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(tmp_path / "nope")
    assert "no such key file" in one_line(exc)
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(tmp_path)
    assert "directory" in one_line(exc)
    stored = keys.save(keys.generate(), "german")
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(stored.public_path)
    assert "is a public key" in one_line(exc)


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * (keys.MAX_KEY_FILE + 1))
    with pytest.raises(KeyFileError) as exc:
        keys.load_private_key(path)
    assert "too large" in one_line(exc)


def test_read_public_key_from_private_or_public_file_without_passphrase(home: Path) -> None:
    key = keys.generate()
    stored = keys.save(key, "german", passphrase=b"pw")
    raw = keys.raw_public_bytes(key.public_key())
    assert keys.raw_public_bytes(keys.read_public_key(stored.path)) == raw
    assert keys.raw_public_bytes(keys.read_public_key(stored.public_path)) == raw


def test_resolve_key_by_name_or_path(home: Path, tmp_path: Path) -> None:
    stored = keys.save(keys.generate(), "german")
    assert keys.resolve_key("german") == stored.path
    assert keys.resolve_key(str(stored.path)) == stored.path
    assert keys.load_key("german") is not None
    with pytest.raises(KeyFileError) as exc:
        keys.resolve_key("nobody")
    assert "no key named 'nobody'" in one_line(exc)


def test_list_keys_reports_damage(home: Path) -> None:
    assert keys.list_keys() == []
    a = keys.save(keys.generate(), "b-allied", passphrase=b"pw")
    g = keys.save(keys.generate(), "a-german")
    directory = home / "keys"
    (directory / "c-broken").write_text("garbage\n")
    (directory / ".d.tmp").write_text("ignored\n")
    keys.save(keys.generate(), "e-swapped")
    (directory / "e-swapped.pub").write_text(a.public_path.read_text())
    listed = keys.list_keys()
    assert [k.name for k in listed] == ["a-german", "b-allied", "c-broken", "e-swapped"]
    assert listed[0].fingerprint == g.fingerprint and not listed[0].encrypted
    assert listed[1].fingerprint == a.fingerprint and listed[1].encrypted
    assert listed[2].fingerprint is None and listed[2].problem
    assert listed[3].fingerprint is None and "does not match" in (listed[3].problem or "")


# --- against the real ssh-keygen --------------------------------------------------------------


@needs_ssh_keygen
def test_fingerprint_equals_ssh_keygen(home: Path) -> None:
    stored = keys.save(keys.generate(), "german", passphrase=b"pw")
    for path in (stored.public_path, stored.path):
        result = ssh_keygen("-l", "-f", str(path))
        assert result.returncode == 0, result.stderr
        words = result.stdout.decode().split()
        assert words[0] == "256" and words[-1] == "(ED25519)"
        assert words[1] == stored.fingerprint


@needs_ssh_keygen
@pytest.mark.parametrize("passphrase", [None, "pass phrase"])
def test_ssh_keygen_reads_our_private_key(home: Path, passphrase: str | None) -> None:
    key = keys.generate()
    stored = keys.save(key, "german", passphrase=passphrase)
    result = ssh_keygen("-y", "-P", passphrase or "", "-f", str(stored.path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().split()[:2] == keys.public_line(key.public_key()).split()
    if passphrase:
        wrong = ssh_keygen("-y", "-P", "wrong", "-f", str(stored.path))
        assert wrong.returncode != 0


@pytest.fixture
def ssh_keys(tmp_path: Path) -> Iterator[Path]:
    """A folder with real ``ssh-keygen`` keys: ed25519 plain and encrypted, ecdsa, rsa."""
    folder = tmp_path / "ssh"
    folder.mkdir()
    for name, args in {
        "id_ed25519": ["-t", "ed25519", "-N", ""],
        "id_ed25519_pw": ["-t", "ed25519", "-N", "s3cret"],
        "id_ecdsa": ["-t", "ecdsa", "-N", ""],
        "id_ecdsa_pw": ["-t", "ecdsa", "-N", "s3cret"],
        "id_rsa": ["-t", "rsa", "-b", "2048", "-N", ""],
        "id_rsa_pem": ["-t", "rsa", "-b", "2048", "-N", "", "-m", "PEM"],
    }.items():
        result = ssh_keygen("-q", *args, "-C", name, "-f", str(folder / name))
        assert result.returncode == 0, result.stderr
    yield folder


@needs_ssh_keygen
def test_loads_real_ssh_keygen_ed25519_keys(ssh_keys: Path) -> None:
    for name, secret in (("id_ed25519", None), ("id_ed25519_pw", "s3cret")):
        path = ssh_keys / name
        key = keys.load_private_key(path, secret)
        listed, comment = keys.parse_public_line((ssh_keys / f"{name}.pub").read_text())
        assert keys.raw_public_bytes(key.public_key()) == keys.raw_public_bytes(listed)
        assert comment == name
        assert keys.is_encrypted(path) == (secret is not None)
        fp = ssh_keygen("-l", "-f", str(path)).stdout.decode().split()[1]
        assert keys.fingerprint(key.public_key()) == fp
    with pytest.raises(PassphraseError) as exc:
        keys.load_private_key(ssh_keys / "id_ed25519_pw", "wrong")
    assert one_line(exc).endswith("wrong passphrase")
    with pytest.raises(PassphraseError):
        keys.load_private_key(ssh_keys / "id_ed25519_pw")


@needs_ssh_keygen
@pytest.mark.parametrize(
    ("name", "kind"),
    [("id_ecdsa", "ECDSA"), ("id_ecdsa_pw", "ECDSA"), ("id_rsa", "RSA"), ("id_rsa_pem", "RSA")],
)
def test_refuses_real_ssh_keygen_other_keys(ssh_keys: Path, name: str, kind: str) -> None:
    with pytest.raises(KeyTypeError) as exc:
        keys.load_private_key(ssh_keys / name)  # no passphrase asked: the type comes first
    message = one_line(exc)
    assert kind in message and "ed25519" in message
    with pytest.raises(KeyTypeError):
        keys.read_public_key(ssh_keys / f"{name}.pub")


# --- the command line -------------------------------------------------------------------------


@pytest.fixture
def keys_cli(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``ardennes keygen`` and ``ardennes keys`` registered (until ``COMMANDS`` lists them)."""
    if keys_command.register not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, keys_command.register))
    return home


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_keygen_without_passphrase(keys_cli: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["keygen", "german", "--no-passphrase"], capsys)
    assert (code, err) == (0, "")
    path = keys_cli / "keys" / "german"
    public = keys.read_public_key(path)
    assert f"key 'german': {keys.fingerprint(public)}" in out
    assert f"{path}.pub" in out and "NOT encrypted" in out
    assert mode(path) == 0o600
    keys.load_private_key(path)


def test_keygen_default_name_and_passphrase_file(
    keys_cli: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "pass"
    secret.write_bytes(b"my phrase\r\nsecond line ignored\n")
    code, out, err = run(["keygen", "--passphrase-file", str(secret)], capsys)
    assert (code, err) == (0, "")
    path = keys_cli / "keys" / keys_command.DEFAULT_NAME
    assert "encrypted with your passphrase" in out
    keys.load_private_key(path, b"my phrase")
    with pytest.raises(PassphraseError):
        keys.load_private_key(path, b"my phrase\r")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["keygen", "../x", "--no-passphrase"], "bad key name"),
        (["keygen", "x"], "--passphrase-file F or --no-passphrase"),
        (["keygen", "x", "--passphrase-file", "/nonexistent/pass"], "cannot read"),
    ],
)
def test_keygen_user_errors_are_one_line(
    keys_cli: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    fragment: str,
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    code, out, err = run(argv, capsys)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("ardennes: ") and fragment in err
    assert "Traceback" not in err


def test_keygen_refuses_empty_passphrase_file_and_existing_name(
    keys_cli: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.write_bytes(b"\n")
    code, _, err = run(["keygen", "x", "--passphrase-file", str(empty)], capsys)
    assert code != 0 and "empty" in err and err.count("\n") == 1
    assert run(["keygen", "x", "--no-passphrase"], capsys)[0] == 0
    code, _, err = run(["keygen", "x", "--no-passphrase"], capsys)
    assert code != 0 and "never overwritten" in err and err.count("\n") == 1
    code, _, err = run(["keygen", "x"], capsys)  # refused before any passphrase is asked
    assert code != 0 and "never overwritten" in err


def test_keygen_flags_are_exclusive(keys_cli: Path, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["keygen", "--no-passphrase", "--passphrase-file", str(tmp_path)])
    assert exc.value.code == 2


def test_keygen_asks_the_passphrase_twice_on_a_terminal(
    keys_cli: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["typed", "typed", "one", "other", ""])
    monkeypatch.setattr(getpass, "getpass", lambda prompt: next(answers))
    assert run(["keygen", "asked"], capsys)[0] == 0
    keys.load_private_key(keys_cli / "keys" / "asked", "typed")
    code, _, err = run(["keygen", "mismatch"], capsys)
    assert code != 0 and "differ" in err
    assert not (keys_cli / "keys" / "mismatch").exists()
    assert run(["keygen", "empty"], capsys)[0] == 0
    assert not keys.is_encrypted(keys_cli / "keys" / "empty")


def test_keys_lists_the_store(keys_cli: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["keys"], capsys)
    assert code == 0 and "no keys in" in out and "ardennes keygen" in out
    german = keys.save(keys.generate(), "german", passphrase=b"pw")
    allied = keys.save(keys.generate(), "allied")
    (keys_cli / "keys" / "broken").write_text("x\n")
    code, out, _ = run(["keys"], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"allied  {allied.fingerprint}  (not encrypted)"
    assert lines[1].startswith("broken  unreadable: ")
    assert lines[2] == f"german  {german.fingerprint}  (encrypted)"
    assert lines[3] == f"({keys_cli / 'keys'})"
