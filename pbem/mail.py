"""Mail transport for armoured packets (``docs/pbem-protocol.md``, "Armour and transport").

Sending: :func:`build_message` makes a ``text/plain`` UTF-8 message with the armoured text as
its body and again as an attachment ``ardennes-GAME-SEQ.txt`` (a client that mangles the body
rarely touches an attachment); :func:`send_smtp` sends it with :mod:`smtplib` as the user's
config file says (:mod:`pbem.config`), :func:`send_sendmail` through ``sendmail -t -oi``.

Receiving: :func:`extract_texts` yields the candidate texts of a plain text file, an ``.eml``
(every ``text/*`` part and text-like attachment, transfer encoding and charset decoded), an
mbox file or a Maildir directory, from a path or from bytes (standard input).
:func:`read_armored` reads every block of them on its own (:func:`pbem.core.armor.dearmor_each`)
and drops copies: a damaged block is one line and hides nothing else. Input is hostile: sizes
are capped per message and in total, a part that cannot be decoded is skipped with a note, and
nothing but :class:`MailError` (the source itself cannot be read) is raised.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import ipaddress
import mailbox
import os
import re
import smtplib
import ssl
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Protocol

from pbem.config import SmtpConfig
from pbem.core.armor import Armored, ArmorError, dearmor_all, dearmor_each
from pbem.core.errors import PbemError

__all__ = [
    "MAX_MESSAGE",
    "MAX_MESSAGES",
    "MAX_TOTAL",
    "Candidate",
    "Found",
    "MailError",
    "Received",
    "attachment_name",
    "build_message",
    "extract_texts",
    "read_armored",
    "send_sendmail",
    "send_smtp",
]

MAX_MESSAGE = 32 * 1024 * 1024
"""Bytes of one message (Gmail's limit is 25 MB, MIME-encoded)."""
MAX_TOTAL = 256 * 1024 * 1024
"""Bytes read from one source (a whole mbox or Maildir)."""
MAX_MESSAGES = 20_000
"""Messages read from one mbox or Maildir."""
MAX_PARTS = 200
"""MIME parts looked at in one message."""

_TEXT_NAME = re.compile(r".*\.(txt|asc|text|ardennes)$", re.IGNORECASE)
_HEADER_START = re.compile(rb"[!-9;-~]+:")
_MESSAGE_HEADERS = frozenset(
    {b"from", b"to", b"subject", b"date", b"message-id", b"mime-version", b"content-type"}
    | {b"received", b"return-path", b"delivered-to", b"x-mozilla-status"}
)
_MBOX_FROM = re.compile(rb"From \S+ +[^\n]*\d:\d\d")  # "From sender Thu Jan  1 00:00:00 2024"
_SAFE = re.compile(r"[^A-Za-z0-9-]+")


class MailError(PbemError):
    """Mail that could not be sent, or a source that could not be read. One line."""


# --- sending ---------------------------------------------------------------------------------


def attachment_name(text: str) -> str:
    """``ardennes-GAME-SEQ.txt`` from the blocks in ``text`` (``SEQ`` is ``first-last`` for
    several), ``ardennes-packet.txt`` if they carry no Game/Seq."""
    try:
        blocks = dearmor_all(text)
    except ArmorError:
        blocks = []
    game = blocks[0].headers.get("Game", "") if blocks else ""
    seqs = [b.headers.get("Seq", "") for b in blocks]
    seq = "" if not seqs else seqs[0] if len(set(seqs)) == 1 else f"{seqs[0]}-{seqs[-1]}"
    name = "-".join(p for p in (_SAFE.sub("", game)[:32], _SAFE.sub("", seq)[:24]) if p)
    return f"ardennes-{name or 'packet'}.txt"


def build_message(
    to: str | Sequence[str],
    subject: str,
    text: str,
    *,
    from_addr: str | None = None,
    filename: str | None = None,
    note: str = "",
) -> EmailMessage:
    """The message: ``text`` as the UTF-8 ``text/plain`` body and as a text attachment
    (``filename``, default :func:`attachment_name`); ``note`` (what the mail is and what to
    do with it, :mod:`pbem.cover`) opens the body, before the text, never in the attachment."""
    recipients = [to] if isinstance(to, str) else list(to)
    if not recipients:
        raise MailError("no recipient")
    msg = EmailMessage()
    try:
        if from_addr is not None:
            msg["From"] = from_addr
        msg["To"] = ", ".join(recipients)
        msg["Subject"] = subject
        msg["Date"] = email.utils.formatdate(localtime=True)
        domain = email.utils.parseaddr(from_addr or "")[1].rpartition("@")[2] or "ardennes.local"
        msg["Message-ID"] = email.utils.make_msgid("ardennes", domain=domain)
        msg["X-Mailer"] = "ardennes"
        # ASCII in short lines (the armour) goes as is; other text as quoted-printable, never
        # 8bit, which some relays mangle
        body = f"{note}\n\n{text}" if note else text
        plain = body.isascii() and all(len(line) <= 78 for line in body.splitlines())
        cte = "7bit" if plain else "quoted-printable"
        msg.set_content(body, charset="utf-8", cte=cte)
        msg.add_attachment(
            text,
            subtype="plain",
            charset="utf-8",
            cte=cte,
            filename=filename or attachment_name(text),
        )
    except (ValueError, TypeError) as exc:  # a header with a line break, a bad address
        raise MailError(f"cannot build the message: {exc}") from None
    return msg


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def send_smtp(
    config: SmtpConfig,
    to: str | Sequence[str],
    subject: str,
    text: str,
    *,
    filename: str | None = None,
    ssl_context: ssl.SSLContext | None = None,
    note: str = "",
) -> EmailMessage:
    """Send ``text`` (:func:`build_message`) through the SMTP server of ``config``: implicit
    TLS (``ssl``), STARTTLS (``starttls``, refused if the server does not offer it) or plain
    (``none``); log in if ``user`` is set. A password is never sent unencrypted except to a
    loopback host. ``ssl_context`` defaults to the system's verified context. Returns the
    message sent; raises :class:`MailError` (or :class:`pbem.config.ConfigError`)."""
    msg = build_message(to, subject, text, from_addr=config.from_addr, filename=filename, note=note)
    if config.user is not None and config.security == "none" and not _is_loopback(config.host):
        raise MailError(
            f"refusing to send the SMTP password unencrypted to {config.host}: set security "
            '= "starttls" or "ssl"'
        )
    password = config.resolve_password() if config.user is not None else None
    context = ssl_context or ssl.create_default_context()
    where = f"SMTP {config.host}:{config.port}"
    try:
        server: smtplib.SMTP
        if config.security == "ssl":
            server = smtplib.SMTP_SSL(
                config.host, config.port, timeout=config.timeout, context=context
            )
        else:
            server = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
        with server:
            if config.security == "starttls":
                server.starttls(context=context)
            if config.user is not None:
                server.login(config.user, password or "")
            refused = server.send_message(msg)
    except smtplib.SMTPAuthenticationError as exc:
        raise MailError(f"{where}: login as {config.user} refused ({exc.smtp_code})") from None
    except smtplib.SMTPNotSupportedError as exc:
        raise MailError(f"{where}: {exc}") from None
    except smtplib.SMTPResponseException as exc:
        reply = exc.smtp_error
        if isinstance(reply, bytes):
            reply = reply.decode("utf-8", "replace")
        raise MailError(f"{where}: {exc.smtp_code} {_one_line(reply)}") from None
    except (smtplib.SMTPException, OSError) as exc:  # ssl.SSLError is an OSError
        raise MailError(f"{where}: {_one_line(str(exc)) or type(exc).__name__}") from None
    if refused:
        raise MailError(f"{where}: recipients refused: {', '.join(sorted(refused))}")
    return msg


def send_sendmail(
    to: str | Sequence[str],
    subject: str,
    text: str,
    sendmail_path: str = "/usr/sbin/sendmail",
    *,
    from_addr: str | None = None,
    filename: str | None = None,
    timeout: float = 60.0,
    note: str = "",
) -> EmailMessage:
    """Send ``text`` (:func:`build_message`) with ``sendmail -t -oi`` (recipients from the
    headers, a lone ``.`` line is not the end). Returns the message; raises
    :class:`MailError`."""
    msg = build_message(to, subject, text, from_addr=from_addr, filename=filename, note=note)
    try:
        done = subprocess.run(
            [sendmail_path, "-t", "-oi"],
            input=msg.as_bytes(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise MailError(f"{sendmail_path}: {_one_line(str(exc))}") from None
    if done.returncode != 0:
        err = _one_line(done.stderr.decode("utf-8", "replace"))
        raise MailError(f"{sendmail_path} exited with status {done.returncode}: {err}")
    return msg


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


# --- receiving -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A text that may hold armoured blocks, and where it came from (for messages)."""

    origin: str
    text: str


@dataclass(frozen=True)
class Found:
    """A block read back, with the candidate text it was first found in."""

    origin: str
    block: Armored


@dataclass
class Received:
    """What :func:`read_armored` found: the blocks (first copy of each), the damaged blocks
    (one line each, where they were), and notes on what was skipped (parts, messages over a
    limit, a damaged copy in a message that also held a readable one)."""

    found: list[Found] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)

    @property
    def blocks(self) -> list[Armored]:
        return [f.block for f in self.found]


def _decode_text(data: bytes) -> str:
    """Bytes of a plain text file: UTF-16 by its mark, else UTF-8 (the armour is ASCII, so
    whatever is not UTF-8 around it is replaced, not refused)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8-sig", "replace")


def _looks_like_message(data: bytes) -> bool:
    """An RFC 5322 message: header lines first, among them one that mail always has."""
    head = data[:65536].lstrip(b"\xef\xbb\xbf").split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    lines = head.splitlines()
    if not lines or not _HEADER_START.match(lines[0]):
        return False
    names = {line.split(b":", 1)[0].strip().lower() for line in lines if b":" in line}
    return bool(names & _MESSAGE_HEADERS)


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        raise ValueError("no payload")
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, "replace")
    except LookupError:  # an unknown charset: the armour is ASCII anyway
        return payload.decode("utf-8", "replace")


def _message_texts(data: bytes, origin: str, notes: list[str]) -> Iterator[Candidate]:
    """The text parts of one message: text/plain bodies, text/* and *.txt attachments,
    messages forwarded inside it. text/html only when there is no other text."""
    try:
        msg = email.message_from_bytes(data, policy=email.policy.compat32)
        parts = list(msg.walk())
    except Exception as exc:  # hostile input: the parser's failure modes are not documented
        notes.append(f"{origin}: not a readable message ({type(exc).__name__}), skipped")
        return
    if len(parts) > MAX_PARTS:
        notes.append(f"{origin}: only the first {MAX_PARTS} of {len(parts)} parts read")
        parts = parts[:MAX_PARTS]
    texts: list[Candidate] = []
    html: list[Candidate] = []
    for number, part in enumerate(parts):
        where = f"{origin} part {number}" if len(parts) > 1 else origin
        try:
            if part.is_multipart():
                continue
            ctype = part.get_content_type()
            filename = part.get_filename() or ""
            if not (
                ctype.startswith("text/")
                or _TEXT_NAME.fullmatch(filename)
                or (ctype == "application/octet-stream" and not filename)
            ):
                continue
            text = _part_text(part)
        except Exception as exc:  # broken encodings, charsets or headers
            notes.append(f"{where}: undecodable part skipped ({type(exc).__name__})")
            continue
        label = f"{where} ({filename})" if filename else where
        (html if ctype == "text/html" else texts).append(Candidate(label, text))
    texts = texts or [Candidate(c.origin, _html_to_text(c.text)) for c in html]
    yield from texts
    if b"ARDENNES PACKET" in data and not any("ARDENNES PACKET" in c.text for c in texts):
        # the armour is in a part we did not recognise: try the raw message as a last resort
        yield Candidate(f"{origin} (raw)", _decode_text(data))


def _html_to_text(html: str) -> str:
    """Enough of HTML to find armour in it: line breaks at block tags, entities decoded."""
    import html as html_module

    text = re.sub(r"(?i)<\s*(br|/p|/div|/blockquote|/pre|/tr|p|div)\b[^>]*>\r?\n?", "\n", html)
    text = re.sub(r"<[^>]*>", "", text)
    return html_module.unescape(text)


class _Readable(Protocol):
    def read(self, size: int | None = None, /) -> bytes: ...


def _read_capped(f: _Readable, origin: str, notes: list[str]) -> bytes | None:
    data = f.read(MAX_MESSAGE + 1)
    if not isinstance(data, bytes):
        return None
    if len(data) > MAX_MESSAGE:
        notes.append(f"{origin}: over {MAX_MESSAGE} bytes, skipped")
        return None
    return data


def _mbox_texts(path: Path, notes: list[str]) -> Iterator[Candidate]:
    box = mailbox.mbox(path, create=False)
    total = 0
    try:
        keys = list(box.iterkeys())
        first = max(0, len(keys) - MAX_MESSAGES)
        if first:
            notes.append(f"{path}: only the last {MAX_MESSAGES} of {len(keys)} messages read")
        for count, key in enumerate(keys[first:], start=first + 1):
            origin = f"{path} message {count}"
            with box.get_file(key) as f:
                data = _read_capped(f, origin, notes)
            if data is None:
                continue
            total += len(data)
            if total > MAX_TOTAL:
                notes.append(f"{path}: stopped after {MAX_TOTAL} bytes")
                return
            yield from _message_texts(data, origin, notes)
    finally:
        box.close()


def _maildir_texts(path: Path, notes: list[str]) -> Iterator[Candidate]:
    box = mailbox.Maildir(path, factory=None, create=False)
    total = 0
    keys = sorted(box.iterkeys())  # unique names start with the delivery time
    if len(keys) > MAX_MESSAGES:
        notes.append(f"{path}: only the last {MAX_MESSAGES} of {len(keys)} messages read")
        keys = keys[-MAX_MESSAGES:]
    for key in keys:
        origin = f"{path} message {key}"
        try:
            with box.get_file(key) as f:
                data = _read_capped(f, origin, notes)
        except (OSError, KeyError) as exc:  # delivered or removed while we read
            notes.append(f"{origin}: unreadable ({type(exc).__name__}), skipped")
            continue
        if data is None:
            continue
        total += len(data)
        if total > MAX_TOTAL:
            notes.append(f"{path}: stopped after {MAX_TOTAL} bytes")
            return
        yield from _message_texts(data, origin, notes)


def _bytes_texts(data: bytes, origin: str, notes: list[str]) -> Iterator[Candidate]:
    if _MBOX_FROM.match(data):
        yield from _mbox_bytes_texts(data, origin, notes)
    elif _looks_like_message(data):
        yield from _message_texts(data, origin, notes)
    else:
        yield Candidate(origin, _decode_text(data))


def _mbox_bytes_texts(data: bytes, origin: str, notes: list[str]) -> Iterator[Candidate]:
    """An mbox given as bytes (standard input): split at ``From `` lines, as mboxrd does."""
    messages = re.split(rb"(?:^|\r?\n)From [^\n]*\n", data)
    count = 0
    for raw in messages:
        if not raw.strip():
            continue
        count += 1
        if count > MAX_MESSAGES:
            notes.append(f"{origin}: only the first {MAX_MESSAGES} messages read")
            return
        unquoted = re.sub(rb"(?m)^>(>*From )", rb"\1", raw)
        yield from _message_texts(unquoted, f"{origin} message {count}", notes)


def extract_texts(
    source: str | os.PathLike[str] | bytes, notes: list[str] | None = None
) -> Iterator[Candidate]:
    """The candidate texts of ``source``: a path (a text file, an ``.eml``, an mbox file, a
    Maildir directory) or the bytes of one of the first three. What is skipped (too large,
    undecodable) is appended to ``notes``. Raises :class:`MailError` if the source itself
    cannot be read."""
    notes = [] if notes is None else notes
    if isinstance(source, bytes):
        if len(source) > MAX_TOTAL:
            raise MailError(f"input of {len(source)} bytes is over the {MAX_TOTAL}-byte limit")
        yield from _bytes_texts(source, "<stdin>", notes)
        return
    path = Path(source)
    try:
        if path.is_dir():
            if not all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
                raise MailError(f"{path} is a directory but not a Maildir (cur, new, tmp)")
            yield from _maildir_texts(path, notes)
            return
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(1024)
        if _MBOX_FROM.match(head):
            if size > MAX_TOTAL:
                raise MailError(f"{path}: mbox of {size} bytes is over the {MAX_TOTAL} limit")
            yield from _mbox_texts(path, notes)
            return
        if size > MAX_MESSAGE:
            raise MailError(f"{path}: {size} bytes is over the {MAX_MESSAGE}-byte limit")
        data = path.read_bytes()
    except OSError as exc:
        raise MailError(f"cannot read {path}: {exc.strerror or exc}") from None
    except mailbox.Error as exc:
        raise MailError(f"cannot read {path}: {exc}") from None
    yield from _bytes_texts(data, str(path), notes)


def read_armored(source: str | os.PathLike[str] | bytes) -> Received:
    """Every block in ``source`` (:func:`extract_texts`), each read on its own
    (:func:`pbem.core.armor.dearmor_each`), the first copy of each. A damaged block is a line of
    :attr:`Received.damaged`, or only a note when a readable block has the game and ``Seq``
    its header lines seem to give (the attachment survived what the client did to the body).
    :class:`MailError` when the source itself cannot be read."""
    received = Received()
    seen: set[tuple[tuple[tuple[str, str], ...], bytes]] = set()
    errors: list[tuple[str, ArmorError]] = []
    for candidate in extract_texts(source, received.notes):
        if "ARDENNES PACKET" not in candidate.text:
            continue
        for item in dearmor_each(candidate.text):
            if isinstance(item, ArmorError):
                errors.append((candidate.origin, item))
            elif item.key() not in seen:
                seen.add(item.key())
                received.found.append(Found(candidate.origin, item))
    intact = {
        (f.block.headers.get("Game", ""), f.block.headers.get("Seq", "")) for f in received.found
    }
    for origin, exc in errors:
        line = f"{origin}: {exc}"
        if exc.place != ("", "") and exc.place in intact:
            received.notes.append(line)
        else:
            received.damaged.append(line)
    return received
