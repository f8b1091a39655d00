"""ASCII armour for packets: text that survives being pasted into, and quoted out of, email.

``docs/pbem-protocol.md``, "Armour and transport". A packet's bytes are opaque here. A block
reads::

    -----BEGIN ARDENNES PACKET-----
    Game: 3f2a...
    Seq: 7
    Side: german
    Turn: 3
    Phase: combat
    Kind: orders

    eyJmb3JtYXQiOiJhcmRlbm5lcy1wYWNrZXQiLCJ2ZXJzaW9uIjoxLCJydWxlcyI6IjEiLCJnYW1l
    ...
    =Q2xB3r9k
    -----END ARDENNES PACKET-----

The header lines are for people (and mail filters); the payload is base64 in lines of at most
76 characters (RFC 2045); the last line before END is ``=`` and the base64 of the first six
bytes of ``SHA-256("ardennes-armor/1\\n" || header lines || "\\n" || payload)``.

Why not OpenPGP's CRC24: current OpenPGP (RFC 9580) says the CRC24 footer SHOULD NOT be
generated, it covers the payload only (an altered header goes unnoticed) and its 24 bits let
one damaged block in 16 million through. A truncated SHA-256 binds the header lines to the
payload and misses a change with probability 2^-48. It detects *damage*, not forgery: the
packet's signature (section 2) is what an attacker cannot recompute.

:func:`dearmor_all` finds every block in arbitrary text and tolerates what mail does to text:
``>``/``> >``/``>>`` quoting at any depth, CRLF or CR line ends, a UTF-8 byte-order mark,
zero-width characters, spaces around lines, base64 lines joined or split at other widths,
blank lines inside the base64, and prose around (or on the same line as) the markers. It
refuses everything else with a one-line :class:`ArmorError` naming the block, its line and the
fault, and raises nothing else, whatever the input.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from pbem.core import zdict
from pbem.core.errors import PbemError

__all__ = [
    "BEGIN",
    "END",
    "LINE_WIDTH",
    "MAX_BLOCKS",
    "MAX_PAYLOAD",
    "MAX_TEXT",
    "ArmorError",
    "Armored",
    "armor",
    "armor_all",
    "checksum",
    "dearmor_all",
    "dearmor_each",
]

BEGIN = "-----BEGIN ARDENNES PACKET-----"
END = "-----END ARDENNES PACKET-----"
LINE_WIDTH = 76
"""Characters per base64 line (RFC 2045), well under RFC 5322's 78."""
MAX_PAYLOAD = 64 * 1024
"""Bytes of one packet (``docs/pbem-protocol.md`` section 5: 64 KiB per packet)."""
MAX_TEXT = 16 * 1024 * 1024
"""Characters of text :func:`dearmor_all` reads at once."""
MAX_BLOCKS = 1024
"""Blocks in one text."""
MAX_HEADERS = 16
MAX_HEADER_LINE = 64
ENCODING = "Encoding"
"""The armour's own header: how the payload is compressed (:func:`armor`)."""
DEFLATE = "deflate"
"""zlib (RFC 1950), no preset dictionary: read, no longer written."""

_DOMAIN = b"ardennes-armor/1\n"
_CHECKSUM_BYTES = 6
_KEY = re.compile(r"[A-Z][A-Za-z0-9-]{0,23}")
_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")  # printable ASCII, single inner spaces
_HEADER_LINE = re.compile(r"([A-Za-z][A-Za-z0-9-]*):(.*)")
_B64_LINE = re.compile(r"[A-Za-z0-9+/=]*")
_CHECKSUM = re.compile(r"[A-Za-z0-9+/]{8}")
_QUOTE = re.compile(r"^[\s>]*")  # any depth of quoting, with or without spaces
_NEWLINE = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"\s+")
_MARKERS = re.compile(f"({re.escape(BEGIN)}|{re.escape(END)})")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"))


class ArmorError(PbemError):
    """Armoured text that cannot be read (or headers that cannot be written). One line.

    ``place`` is what a damaged block's header lines seem to say of it (``Game``, ``Seq``;
    empty when unreadable): enough to tell a damaged copy of a packet found intact elsewhere
    from a packet lost (:func:`pbem.mail.read_armored`)."""

    place: tuple[str, str] = ("", "")


def _damaged(message: str, body: list[tuple[int, str]]) -> ArmorError:
    """The error of a damaged block, with the ``Game`` and ``Seq`` its lines seem to give."""
    exc = ArmorError(message)
    said = dict(x.split(":", 1) for _, x in body if x.startswith(("Game:", "Seq:")))
    exc.place = (said.get("Game", "").strip(), said.get("Seq", "").strip())
    return exc


@dataclass(frozen=True)
class Armored:
    """One block read back: its header lines in order and the payload bytes."""

    headers: Mapping[str, str]
    payload: bytes

    def key(self) -> tuple[tuple[tuple[str, str], ...], bytes]:
        """What identifies the block, to drop copies of the same one (quoted and attached)."""
        return tuple(self.headers.items()), self.payload


def checksum(headers: Mapping[str, str], payload: bytes) -> str:
    """The checksum line: ``=`` and 8 base64 characters (48 bits of SHA-256)."""
    h = hashlib.sha256(_DOMAIN)
    for key, value in headers.items():
        h.update(f"{key}: {value}\n".encode("ascii"))
    h.update(b"\n")
    h.update(payload)
    return "=" + base64.b64encode(h.digest()[:_CHECKSUM_BYTES]).decode("ascii")


def _check_headers(headers: Mapping[str, str]) -> None:
    if len(headers) > MAX_HEADERS:
        raise ArmorError(f"too many header lines ({len(headers)}, at most {MAX_HEADERS})")
    for key, value in headers.items():
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise ArmorError(f"bad header name {key!r}: a capital letter, then letters/digits/-")
        if not isinstance(value, str) or not _VALUE.fullmatch(value):
            raise ArmorError(
                f"bad value for header {key}: {value!r} (printable ASCII, no leading, "
                "trailing or double spaces, not empty)"
            )
        if len(key) + 2 + len(value) > MAX_HEADER_LINE:
            raise ArmorError(f"header line {key} is longer than {MAX_HEADER_LINE} characters")


def armor(
    payload: bytes,
    headers: Mapping[str, str],
    *,
    compress: bool = True,
    encoding: str = zdict.WRITTEN,
) -> str:
    """Armour ``payload`` under ``headers`` (``Game``, ``Seq``, ``Side``, ``Turn``,
    ``Phase``, ``Kind``, as the caller gives them, in that order). Ends with a newline.

    With ``compress`` (the default) the payload is deflated (zlib, level 9, with the preset
    dictionary :data:`pbem.core.zdict.ENCODINGS` gives ``encoding``, by default the AO's
    ``deflate+dict2``; ``deflate``: none) when that makes it smaller, and a last header
    ``Encoding:`` names it; the checksum covers the bytes as sent. Packets are JSON with many
    repeated keys, so this roughly thirds them."""
    if not isinstance(payload, bytes | bytearray):
        raise ArmorError("the payload must be bytes")
    if len(payload) > MAX_PAYLOAD:
        raise ArmorError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    _check_headers(headers)
    if ENCODING in headers:
        raise ArmorError(f"the {ENCODING} header is the armour's own")
    if encoding != zdict.DEFLATE and encoding not in zdict.ENCODINGS:
        raise ArmorError(f"unknown {ENCODING} {encoding[:20]!r}")
    payload = bytes(payload)
    if compress:
        preset = zdict.ENCODINGS.get(encoding)
        z = zlib.compressobj(9, zdict=preset) if preset else zlib.compressobj(9)
        packed = z.compress(payload) + z.flush()
        if len(packed) < len(payload):
            headers = {**headers, ENCODING: encoding}
            payload = packed
    b64 = base64.b64encode(payload).decode("ascii")
    lines = [BEGIN, *(f"{k}: {v}" for k, v in headers.items()), ""]
    lines += [b64[i : i + LINE_WIDTH] for i in range(0, len(b64), LINE_WIDTH)]
    lines += [checksum(headers, payload), END]
    return "\n".join(lines) + "\n"


def armor_all(
    packets: Iterable[tuple[bytes, Mapping[str, str]]],
    *,
    compress: bool = True,
    encoding: str = zdict.WRITTEN,
) -> str:
    """Several blocks one after another, separated by a blank line."""
    return "\n".join(
        armor(payload, headers, compress=compress, encoding=encoding)
        for payload, headers in packets
    )


def _pieces(text: str) -> Iterator[tuple[int, str]]:
    """(line number, content) with quoting and spaces stripped; a marker that shares its line
    with other text (a mail client joined lines) becomes a piece of its own."""
    for number, raw in enumerate(_NEWLINE.split(text), start=1):
        line = _QUOTE.sub("", raw, count=1).strip()
        if BEGIN not in line and END not in line:
            yield number, line
            continue
        for part in _MARKERS.split(line):
            part = _QUOTE.sub("", part, count=1).strip()
            if part:
                yield number, part


def _read_block(index: int, start: int, body: list[tuple[int, str]]) -> Armored:
    where = f"block {index} (line {start})"
    headers: dict[str, str] = {}
    i = 0
    while i < len(body) and (not body[i][1] or ":" in body[i][1]):  # blank lines tolerated
        number, line = body[i]
        if not line:
            i += 1
            continue
        m = _HEADER_LINE.fullmatch(line)
        if m is None:
            raise ArmorError(f"{where}: malformed header line {number}: {line[:40]!r}")
        key, value = m.group(1), m.group(2).strip()
        if key in headers:
            raise ArmorError(f"{where}: header {key} repeated on line {number}")
        headers[key] = value
        if len(headers) > MAX_HEADERS:
            raise ArmorError(f"{where}: more than {MAX_HEADERS} header lines")
        i += 1
    chunks: list[str] = []
    size = 0
    limit = (MAX_PAYLOAD + 2) // 3 * 4 + 9  # base64 of the largest payload, then the checksum
    for number, line in body[i:]:
        if not line:
            continue
        compact = _SPACE.sub("", line)
        if not _B64_LINE.fullmatch(compact):
            raise ArmorError(
                f"{where}: bad base64 on line {number} (damaged in transit?): {line[:40]!r}"
            )
        chunks.append(compact)
        size += len(compact)
        if size > limit:
            raise ArmorError(f"{where}: payload over the {MAX_PAYLOAD}-byte limit")
    joined = "".join(chunks)
    if len(joined) < 9 or joined[-9] != "=" or not _CHECKSUM.fullmatch(joined[-8:]):
        raise ArmorError(
            f"{where}: no checksum line (=XXXXXXXX) before the END line (damaged in transit?)"
        )
    b64, check = joined[:-9], joined[-9:]
    try:
        payload = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise ArmorError(f"{where}: bad base64 (damaged in transit)") from None
    if base64.b64encode(payload).decode("ascii") != b64:  # padding bits, misplaced '='
        raise ArmorError(f"{where}: bad base64 (damaged in transit)")
    if len(payload) > MAX_PAYLOAD:
        raise ArmorError(f"{where}: payload over the {MAX_PAYLOAD}-byte limit")
    try:
        expected = checksum(headers, payload)
    except UnicodeEncodeError:
        raise ArmorError(f"{where}: header lines are not ASCII (damaged in transit)") from None
    if check != expected:
        raise ArmorError(f"{where}: checksum mismatch: damaged in transit")
    encoding = headers.pop(ENCODING, None)
    if encoding is not None:
        if encoding != DEFLATE and encoding not in zdict.ENCODINGS:
            raise ArmorError(f"{where}: unknown {ENCODING} {encoding[:20]!r}")
        payload = _inflate(where, payload, zdict.ENCODINGS.get(encoding))
    return Armored(headers=headers, payload=payload)


def _inflate(where: str, data: bytes, dictionary: bytes | None) -> bytes:
    """Undo the deflate (with the preset ``dictionary``, if any), refusing more than
    :data:`MAX_PAYLOAD` bytes out (a decompression bomb) and a stream that does not end where
    the data does (or starts from another dictionary: its Adler-32 is in the header)."""
    if dictionary and (len(data) < 2 or not data[1] & 0x20):  # RFC 1950 FDICT not set
        raise ArmorError(f"{where}: the deflated payload is damaged")
    d = zlib.decompressobj(zdict=dictionary) if dictionary else zlib.decompressobj()
    try:
        out = d.decompress(data, MAX_PAYLOAD + 1)
    except zlib.error:
        raise ArmorError(f"{where}: the deflated payload is damaged") from None
    if len(out) > MAX_PAYLOAD or d.unconsumed_tail:
        raise ArmorError(f"{where}: the payload inflates past the {MAX_PAYLOAD}-byte limit")
    if not d.eof or d.unused_data:
        raise ArmorError(f"{where}: the deflated payload is damaged")
    return out


def dearmor_each(text: str) -> list[Armored | ArmorError]:
    """Every block in ``text``, in order, each read on its own: its :class:`Armored`, or the
    :class:`ArmorError` that says what is wrong with it (a damaged block does not hide the
    blocks after it). Exact copies are dropped; ``[]`` if there is no block. A text over
    :data:`MAX_TEXT` or past :data:`MAX_BLOCKS` blocks ends in one error; nothing is raised."""
    if not isinstance(text, str):
        return [ArmorError("armoured text must be str")]
    if len(text) > MAX_TEXT:
        return [ArmorError(f"text of {len(text)} characters is over the {MAX_TEXT} limit")]
    text = text.translate(_INVISIBLE)
    found: list[Armored | ArmorError] = []
    seen: set[tuple[tuple[tuple[str, str], ...], bytes]] = set()
    index = 0
    start = 0
    body: list[tuple[int, str]] | None = None
    for number, piece in _pieces(text):
        if piece == BEGIN:
            index += 1
            if body is not None:
                found.append(
                    _damaged(
                        f"block {index - 1} (line {start}): no END line before the next BEGIN "
                        f"on line {number} (truncated?)",
                        body,
                    )
                )
            if index > MAX_BLOCKS:
                found.append(ArmorError(f"more than {MAX_BLOCKS} blocks in one text"))
                return found
            body, start = [], number
        elif piece == END:
            if body is None:
                found.append(ArmorError(f"END line {number} without a BEGIN line (truncated?)"))
                continue
            try:
                block = _read_block(index, start, body)
            except ArmorError as exc:
                found.append(_damaged(str(exc), body))
            else:
                if block.key() not in seen:
                    seen.add(block.key())
                    found.append(block)
            body = None
        elif body is not None:
            body.append((number, piece))
    if body is not None:
        found.append(_damaged(f"block {index} (line {start}): no END line (truncated?)", body))
    return found


def dearmor_all(text: str) -> list[Armored]:
    """Every block in ``text``, in order, exact copies dropped; ``[]`` if there is none.

    Raises :class:`ArmorError` (only) for the first damaged block, a missing END, an END
    without a BEGIN, or text, payload or block count over the limits
    (:func:`dearmor_each` reads past them)."""
    out = []
    for item in dearmor_each(text):
        if isinstance(item, ArmorError):
            raise item
        out.append(item)
    return out
