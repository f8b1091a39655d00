"""Mail transport (``pbem/mail.py``, ``pbem/config.py``; ``docs/pbem-protocol.md``, "Armour and
transport"): a real SMTP server on loopback (aiosmtpd: plain, STARTTLS with login, implicit
TLS), a fake ``sendmail``, and reading back from ``.eml`` files, an mbox, a Maildir and
standard input, as mail clients deliver them."""

from __future__ import annotations

import datetime
import email
import email.policy
import ipaddress
import mailbox
import os
import ssl
import stat
from collections.abc import Iterator
from dataclasses import dataclass, replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import mail as mail_module
from pbem.config import ConfigError, SmtpConfig, config_path, load_config
from pbem.core.armor import ArmorError, armor, armor_all, dearmor_all
from pbem.mail import (
    MailError,
    attachment_name,
    build_message,
    extract_texts,
    read_armored,
    send_sendmail,
    send_smtp,
)
from tests.kit.mail import Inbox, free_port

GAME = "3f9a0c2e7b1d4c8e9f0a1b2c3d4e5f60"
HEADERS = {
    "Game": GAME,
    "Seq": "7",
    "Side": "german",
    "Turn": "3",
    "Phase": "combat",
    "Kind": "orders",
}
OTHER = {**HEADERS, "Seq": "8", "Side": "allied", "Kind": "reply"}
PAYLOAD = bytes(range(256)) * 4
TEXT = armor(PAYLOAD, HEADERS)
TWO = armor_all([(PAYLOAD, HEADERS), (b"second", OTHER)])


def payloads(source: Any) -> list[bytes]:
    return [b.payload for b in read_armored(source).blocks]


# --- building --------------------------------------------------------------------------------


def test_message_body_and_attachment() -> None:
    msg = build_message("bob@example.org", "Ardennes: turn 3", TEXT, from_addr="Ann <ann@x.org>")
    assert msg["To"] == "bob@example.org" and msg["From"] == "Ann <ann@x.org>"
    assert msg.get_content_type() == "multipart/mixed"
    body, attachment = list(msg.iter_parts())
    assert body.get_content_type() == "text/plain"
    assert body.get_content_charset() == "utf-8"
    assert body["Content-Transfer-Encoding"] == "7bit"  # ASCII, short lines: as is
    assert body.get_content().rstrip("\n") == TEXT.rstrip("\n")
    assert attachment.get_filename() == f"ardennes-{GAME}-7.txt"
    assert attachment.get_content_type() == "text/plain"
    assert payloads(msg.as_bytes()) == [PAYLOAD]
    assert msg["Message-ID"].endswith("@x.org>")


def test_attachment_names() -> None:
    assert attachment_name(TWO) == f"ardennes-{GAME}-7-8.txt"
    assert attachment_name("no armour") == "ardennes-packet.txt"
    hostile = armor(b"x", {"Game": "../../etc/passwd", "Seq": "1/2"})
    assert attachment_name(hostile) == "ardennes-etcpasswd-12.txt"


def test_non_ascii_prose_is_encoded_and_read_back() -> None:
    text = "Grüße aus Bastogne — à toi.\n\n" + TEXT
    msg = build_message(["a@x.org", "b@y.org"], "Zug 3 — Ardennes", text, from_addr="a@x.org")
    assert msg["To"] == "a@x.org, b@y.org"
    raw = msg.as_bytes()
    assert raw.isascii()
    assert payloads(raw) == [PAYLOAD]


@pytest.mark.parametrize(
    ("to", "subject"),
    [("bob@x.org\nBcc: eve@x.org", "s"), ("bob@x.org", "s\r\nBcc: e@x"), ([], "s")],
)
def test_header_injection_refused(to: Any, subject: str) -> None:
    with pytest.raises(MailError):
        build_message(to, subject, TEXT)


# --- a real SMTP server on loopback ----------------------------------------------------------


@dataclass(frozen=True)
class Tls:
    server: ssl.SSLContext
    client: ssl.SSLContext


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    """A self-signed certificate for 127.0.0.1 and a client context that trusts only it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ardennes test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    d = tmp_path_factory.mktemp("tls")
    (d / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (d / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(d / "cert.pem", d / "key.pem")
    client = ssl.create_default_context(cafile=str(d / "cert.pem"))
    return Tls(server, client)


def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
    from aiosmtpd.smtp import AuthResult  # type: ignore[import-untyped,unused-ignore]

    ok = data.login == b"ann" and data.password == b"s3cret pass"
    return AuthResult(success=ok, handled=False)  # False: aiosmtpd answers 535


@pytest.fixture
def smtp_server(request: pytest.FixtureRequest, tls: Tls) -> Iterator[tuple[Inbox, int]]:
    """``plain``: no TLS, no login; ``starttls``: STARTTLS required, then login required;
    ``ssl``: implicit TLS."""
    controller_module = pytest.importorskip("aiosmtpd.controller")
    kind = request.param
    store = Inbox()
    port = free_port()
    kwargs: dict[str, Any] = {}
    if kind == "starttls":
        kwargs = dict(
            tls_context=tls.server,
            require_starttls=True,
            authenticator=authenticator,
            auth_required=True,
            auth_require_tls=True,
        )
    elif kind == "ssl":
        kwargs = dict(ssl_context=tls.server)
    controller = controller_module.Controller(store, hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    try:
        yield store, port
    finally:
        controller.stop()


def smtp_config(port: int, security: str, **kw: Any) -> SmtpConfig:
    return SmtpConfig(
        host="127.0.0.1",
        port=port,
        security=security,  # type: ignore[arg-type]
        from_addr="Ann <ann@example.org>",
        timeout=10,
        **kw,
    )


@pytest.mark.parametrize("smtp_server", ["plain"], indirect=True)
def test_smtp_plain(smtp_server: tuple[Inbox, int]) -> None:
    store, port = smtp_server
    send_smtp(smtp_config(port, "none"), "bob@example.org", "Ardennes 7-8", TWO)
    [(sender, rcpts, content)] = store.messages
    assert sender == "ann@example.org" and rcpts == ["bob@example.org"]
    received = read_armored(content)
    assert [b.payload for b in received.blocks] == [PAYLOAD, b"second"]
    assert [b.headers["Seq"] for b in received.blocks] == ["7", "8"]
    assert received.notes == []


@pytest.mark.parametrize("smtp_server", ["starttls"], indirect=True)
def test_smtp_starttls_with_login(smtp_server: tuple[Inbox, int], tls: Tls) -> None:
    store, port = smtp_server
    config = smtp_config(port, "starttls", user="ann", password="s3cret pass")
    send_smtp(config, ["bob@example.org", "ref@example.org"], "t", TEXT, ssl_context=tls.client)
    [(_, rcpts, content)] = store.messages
    assert rcpts == ["bob@example.org", "ref@example.org"]
    assert payloads(content) == [PAYLOAD]


@pytest.mark.parametrize("smtp_server", ["starttls"], indirect=True)
def test_smtp_password_command(smtp_server: tuple[Inbox, int], tls: Tls) -> None:
    store, port = smtp_server
    config = smtp_config(port, "starttls", user="ann", password_command="printf 's3cret pass'")
    send_smtp(config, "bob@example.org", "t", TEXT, ssl_context=tls.client)
    assert len(store.messages) == 1


@pytest.mark.parametrize("smtp_server", ["starttls"], indirect=True)
def test_smtp_wrong_password(smtp_server: tuple[Inbox, int], tls: Tls) -> None:
    store, port = smtp_server
    config = smtp_config(port, "starttls", user="ann", password="guess")
    with pytest.raises(MailError, match=r"login as ann refused \(535\)") as info:
        send_smtp(config, "bob@example.org", "t", TEXT, ssl_context=tls.client)
    assert "guess" not in str(info.value)
    assert store.messages == []


@pytest.mark.parametrize("smtp_server", ["starttls"], indirect=True)
def test_smtp_untrusted_certificate_refused(smtp_server: tuple[Inbox, int]) -> None:
    _, port = smtp_server
    config = smtp_config(port, "starttls", user="ann", password="s3cret pass")
    with pytest.raises(MailError, match="CERTIFICATE_VERIFY_FAILED"):
        send_smtp(config, "bob@example.org", "t", TEXT)  # the system's trust store


@pytest.mark.parametrize("smtp_server", ["ssl"], indirect=True)
def test_smtp_implicit_tls(smtp_server: tuple[Inbox, int], tls: Tls) -> None:
    store, port = smtp_server
    send_smtp(smtp_config(port, "ssl"), "bob@example.org", "t", TEXT, ssl_context=tls.client)
    assert payloads(store.messages[0][2]) == [PAYLOAD]


@pytest.mark.parametrize("smtp_server", ["plain"], indirect=True)
def test_smtp_starttls_not_offered(smtp_server: tuple[Inbox, int], tls: Tls) -> None:
    store, port = smtp_server
    with pytest.raises(MailError, match="STARTTLS extension not supported"):
        send_smtp(smtp_config(port, "starttls"), "b@x.org", "t", TEXT, ssl_context=tls.client)
    assert store.messages == []


def test_smtp_password_never_sent_in_clear() -> None:
    config = replace(smtp_config(1, "none", user="ann", password="pw"), host="smtp.example.org")
    with pytest.raises(MailError, match="refusing to send the SMTP password unencrypted"):
        send_smtp(config, "b@x.org", "t", TEXT)


def test_smtp_connection_refused() -> None:
    with pytest.raises(MailError, match=r"SMTP 127\.0\.0\.1:\d+"):
        send_smtp(smtp_config(free_port(), "none"), "b@x.org", "t", TEXT)


# --- sendmail --------------------------------------------------------------------------------


def fake_sendmail(tmp_path: Path, body: str = 'cat > "$OUT/stdin"') -> Path:
    script = tmp_path / "sendmail"
    script.write_text(f'#!/bin/sh\nOUT="{tmp_path}"\necho "$@" > "$OUT/args"\n{body}\n')
    script.chmod(0o755)
    return script


def test_sendmail(tmp_path: Path) -> None:
    script = fake_sendmail(tmp_path)
    send_sendmail("bob@example.org", "Ardennes", TWO, str(script), from_addr="ann@example.org")
    assert (tmp_path / "args").read_text().split() == ["-t", "-oi"]
    raw = (tmp_path / "stdin").read_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["To"] == "bob@example.org"
    assert payloads(raw) == [PAYLOAD, b"second"]


def test_sendmail_failure(tmp_path: Path) -> None:
    script = fake_sendmail(tmp_path, 'echo "no route to host\nmore" >&2; exit 75')
    with pytest.raises(MailError, match="exited with status 75: no route to host more"):
        send_sendmail("bob@example.org", "s", TEXT, str(script))
    with pytest.raises(MailError, match="nonexistent"):
        send_sendmail("bob@example.org", "s", TEXT, str(tmp_path / "nonexistent"))


# --- reading: .eml, mbox, Maildir, stdin -----------------------------------------------------


def reply_quoting(original: EmailMessage, new_text: str) -> EmailMessage:
    """A reply as a mail client makes it: new text on top, the original body quoted below."""
    body = original.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    quoted = "\n".join("> " + line if line else ">" for line in body.get_content().splitlines())
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = "bob@y.org", "ann@x.org", "Re: Ardennes"
    reply.set_content(f"{new_text}\nOn Tue, Ann wrote:\n{quoted}\n")
    return reply


@pytest.mark.parametrize("cte", ["base64", "quoted-printable", "7bit", "8bit"])
def test_eml_transfer_encodings(tmp_path: Path, cte: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@x.org", "bob@y.org", "Ardennes"
    prose = "Here is my turn." if cte == "7bit" else "Voilà mon tour."
    msg.set_content(prose + "\n\n" + TWO, charset="utf-8", cte=cte)
    path = tmp_path / "turn.eml"
    path.write_bytes(msg.as_bytes())
    assert f"Content-Transfer-Encoding: {cte}".encode() in path.read_bytes()
    assert payloads(path) == [PAYLOAD, b"second"]


def test_eml_attachment_only_and_latin1_body(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@x.org", "bob@y.org", "Ardennes"
    msg.set_content("Tour ci-joint, à bientôt.", charset="iso-8859-1", cte="quoted-printable")
    msg.add_attachment(
        TEXT.encode(),
        maintype="application",
        subtype="octet-stream",
        filename="ardennes-x-7.txt",
        cte="base64",
    )
    path = tmp_path / "turn.eml"
    path.write_bytes(msg.as_bytes())
    received = read_armored(path)
    assert received.blocks[0].payload == PAYLOAD
    assert "ardennes-x-7.txt" in received.found[0].origin


def test_eml_damaged_body_intact_attachment(tmp_path: Path) -> None:
    msg = build_message("bob@y.org", "s", TEXT, from_addr="ann@x.org")
    raw = msg.as_bytes()
    line = TEXT.splitlines()[10].encode()
    damaged = raw.replace(line, line[:20] + b"#" + line[21:], 1)  # the body, not the base64 copy
    assert damaged != raw
    received = read_armored(damaged)
    assert received.blocks[0].payload == PAYLOAD
    assert len(received.notes) == 1 and "bad base64 on line" in received.notes[0]


def test_a_damaged_block_is_one_line_and_hides_nothing(tmp_path: Path) -> None:
    damaged = TEXT.replace("Seq: 7", "Seq: 9")
    received = read_armored((damaged + "\n" + TEXT.replace("Seq: 7", "Seq: 8")).encode())
    second = 1 + len(TEXT.splitlines()) + 1
    assert received.damaged == [
        "<stdin>: block 1 (line 1): checksum mismatch: damaged in transit",
        f"<stdin>: block 2 (line {second}): checksum mismatch: damaged in transit",
    ]
    assert received.blocks == []
    line = TEXT.splitlines()[10]
    copy = TEXT.replace(line, line[:20] + ("A" if line[20] != "A" else "B") + line[21:])
    received = read_armored((copy + "\n" + TEXT).encode())  # a damaged copy, then the intact
    assert received.damaged == [] and received.blocks[0].payload == PAYLOAD
    assert received.notes == ["<stdin>: block 1 (line 1): checksum mismatch: damaged in transit"]


def test_html_only_message() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@x.org", "bob@y.org", "Ardennes"
    html = "<html><body><p>My turn:</p><div>" + TEXT.replace("\n", "<br>\n") + "</div></body>"
    msg.set_content(html, subtype="html")
    assert payloads(msg.as_bytes()) == [PAYLOAD]


def test_forwarded_message_inside_a_message() -> None:
    inner = build_message("bob@y.org", "turn", TEXT, from_addr="ann@x.org")
    outer = EmailMessage()
    outer["From"], outer["To"], outer["Subject"] = "bob@y.org", "ref@z.org", "Fwd: turn"
    outer.set_content("See the forwarded turn.")
    outer.add_attachment(inner)
    assert payloads(outer.as_bytes()) == [PAYLOAD]


def write_mbox(path: Path, messages: list[EmailMessage]) -> None:
    box = mailbox.mbox(path, create=True)
    box.lock()
    try:
        for m in messages:
            box.add(m)
        box.flush()
    finally:
        box.unlock()
        box.close()


def conversation() -> list[EmailMessage]:
    first = build_message("bob@y.org", "Ardennes 7", TEXT, from_addr="ann@x.org")
    spam = EmailMessage()
    spam["From"], spam["To"], spam["Subject"] = "x@spam.org", "bob@y.org", "Offer"
    spam.set_content("From here on, buy now.\n-----BEGIN nothing-----\n")
    reply = reply_quoting(first, armor(b"second", OTHER))
    return [first, spam, reply]


def test_mbox(tmp_path: Path) -> None:
    path = tmp_path / "inbox"
    write_mbox(path, conversation())
    received = read_armored(path)
    assert [b.payload for b in received.blocks] == [PAYLOAD, b"second"]
    assert received.notes == []
    assert "message 1" in received.found[0].origin and "message 3" in received.found[1].origin
    assert [b.payload for b in read_armored(path.read_bytes()).blocks] == [PAYLOAD, b"second"]


def test_maildir(tmp_path: Path) -> None:
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path, create=True)
    for m in conversation():
        box.add(m)
    box.close()
    received = read_armored(path)
    assert sorted(b.headers["Seq"] for b in received.blocks) == ["7", "8"]


def test_maildir_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path, create=True)
    big = build_message("bob@y.org", "big", TEXT + "x" * 5000, from_addr="ann@x.org")
    box.add(big)
    box.add(build_message("bob@y.org", "small", armor(b"second", OTHER), from_addr="ann@x.org"))
    box.close()
    monkeypatch.setattr(mail_module, "MAX_MESSAGE", 4000)
    received = read_armored(path)
    assert received.blocks[0].payload == b"second"
    assert any("over 4000 bytes, skipped" in n for n in received.notes)


def test_stdin_and_plain_text(tmp_path: Path) -> None:
    assert payloads(("\ufeff> " + TEXT.replace("\n", "\r\n> ")).encode()) == [PAYLOAD]
    assert payloads(TEXT.encode("utf-16")) == [PAYLOAD]
    assert payloads(b"From the front, my move:\n" + TEXT.encode()) == [PAYLOAD]
    assert payloads(b"Game: on\n\n" + TEXT.encode()) == [PAYLOAD]
    (tmp_path / "turn.txt").write_text("Hi\n\n" + TEXT + "\nBye\n", encoding="latin-1")
    assert payloads(tmp_path / "turn.txt") == [PAYLOAD]
    assert read_armored(b"nothing here").blocks == []


def test_unreadable_sources(tmp_path: Path) -> None:
    with pytest.raises(MailError, match="cannot read"):
        list(extract_texts(tmp_path / "missing.eml"))
    (tmp_path / "dir").mkdir()
    with pytest.raises(MailError, match="not a Maildir"):
        list(extract_texts(tmp_path / "dir"))


def test_hostile_message_parts() -> None:
    raw = (
        b"From: a@x.org\r\nTo: b@y.org\r\nSubject: s\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="B"\r\n\r\n'
        b"--B\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n"
        b'--B\r\nContent-Type: text/plain; charset="utf-8\r\n\r\n' + TEXT.encode() + b"\r\n"
        b"--B\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--B"
    )
    notes: list[str] = []
    texts = list(extract_texts(raw, notes))
    assert any("ARDENNES PACKET" in t.text for t in texts)
    assert payloads(raw) == [PAYLOAD]


@given(data=st.binary(max_size=3000))
def test_fuzz_bytes(data: bytes) -> None:
    for source in (
        data,
        b"From: a@x.org\nSubject: s\n\n" + data,
        b"From a Mon 00:00 2024\n" + data,
    ):
        try:
            read_armored(source)
        except (ArmorError, MailError) as exc:
            assert "\n" not in str(exc)


@given(
    cte=st.sampled_from(["base64", "quoted-printable", "7bit"]),
    cut=st.integers(0, 4000),
    junk=st.binary(max_size=20),
)
def test_fuzz_damaged_messages(cte: str, cut: int, junk: bytes) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@x.org", "bob@y.org", "Ardennes"
    msg.set_content(TEXT, cte=cte)
    raw = msg.as_bytes()
    cut %= len(raw) + 1
    try:
        received = read_armored(raw[:cut] + junk + raw[cut + len(junk) :])
    except (ArmorError, MailError):
        return
    assert all(b.payload == PAYLOAD for b in received.blocks)


# --- the config file -------------------------------------------------------------------------


def write_config(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(mode)
    return path


def test_config(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        '[smtp]\nhost = "smtp.x.org"\nsecurity = "ssl"\nuser = "ann"\npassword = "pw"\n'
        'from = "Ann <ann@x.org>"\n\n[mailbox]\npath = "~/Mail/ardennes"\n',
    )
    config = load_config(path)
    assert config.smtp is not None and config.mailbox is not None
    assert (config.smtp.host, config.smtp.port, config.smtp.security) == ("smtp.x.org", 465, "ssl")
    assert config.smtp.resolve_password() == "pw"
    assert "pw" not in repr(config.smtp)
    assert config.mailbox.path == Path.home() / "Mail" / "ardennes"
    assert load_config(tmp_path / "none.toml").smtp is None


def test_config_defaults_and_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_config(tmp_path, '[smtp]\nhost = "h"\nfrom = "a@x.org"\n', mode=0o644)
    monkeypatch.setenv("ARDENNES_CONFIG", str(path))
    assert config_path() == path
    smtp = load_config().smtp
    assert smtp is not None
    assert (smtp.port, smtp.security, smtp.user, smtp.resolve_password()) == (
        587,
        "starttls",
        None,
        None,
    )
    monkeypatch.delenv("ARDENNES_CONFIG")
    assert config_path().name == "config.toml" and "ardennes" in str(config_path())


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[smtp]\nhost = "h"\nfrom = "a"\nhots = "x"\n', "unknown key 'hots'"),
        ('[smpt]\nhost = "h"\n', "unknown table 'smpt'"),
        ('[smtp]\nhost = "h"\n', "host and from are required"),
        ('[smtp]\nhost = "h"\nfrom = "a"\nsecurity = "tls"\n', "security must be"),
        ('[smtp]\nhost = "h"\nfrom = "a"\nport = 0\n', "port must be"),
        ('[smtp]\nhost = "h"\nfrom = "a"\nport = "25"\n', "port must be"),
        ('[smtp]\nhost = 3\nfrom = "a"\n', "host must be a non-empty one-line string"),
        ('[smtp]\nhost = "h"\nfrom = "a"\npassword = "p"\npassword_command = "c"\n', "not both"),
        ("[smtp\n", "not valid TOML"),
        ("[mailbox]\n", "path is required"),
        ("smtp = 1\n", "must be a table"),
    ],
)
def test_config_refusals(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as info:
        load_config(write_config(tmp_path, text))
    assert "\n" not in str(info.value)


@pytest.mark.skipif(os.name != "posix", reason="file modes")
def test_config_password_readable_by_others_refused(tmp_path: Path) -> None:
    text = '[smtp]\nhost = "h"\nfrom = "a"\nuser = "u"\npassword = "p"\n'
    path = write_config(tmp_path, text, mode=0o644)
    assert path.stat().st_mode & stat.S_IROTH
    with pytest.raises(ConfigError, match="chmod 600"):
        load_config(path)


def test_password_command_failures() -> None:
    base = SmtpConfig(host="h", from_addr="a")
    assert replace(base, password_command="printf 'pw\\nrest'").resolve_password() == "pw"
    for command, fragment in [
        ("false", "status 1"),
        ("true", "no password"),
        ("/nonexistent/cmd", "password_command failed"),
        ("'unbalanced", "password_command failed"),
    ]:
        with pytest.raises(ConfigError, match=fragment):
            replace(base, password_command=command).resolve_password()


def test_dearmor_of_what_was_sent_is_the_same_object_shape() -> None:
    [a] = dearmor_all(TEXT)
    assert dict(a.headers) == HEADERS and a.payload == PAYLOAD
