"""ASCII armour (``pbem/core/armor.py``; ``docs/pbem-protocol.md``, "Armour and transport"): round
trips, what mail clients do to text, refusals of damage, and fuzzing for "ArmorError or a
result, never another exception"."""

from __future__ import annotations

import base64
import hashlib
import re
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core import armor as armor_module
from pbem.core import zdict
from pbem.core.armor import BEGIN, END, LINE_WIDTH, Armored, ArmorError, dearmor_all
from tests.kit import zdict_build


def armor(payload: bytes, headers: Mapping[str, str], *, compress: bool = False) -> str:
    """The armour without compression, whose layout these tests read line by line (the
    compressed form has its own tests at the end)."""
    return armor_module.armor(payload, headers, compress=compress)


def armor_all(blocks: Iterable[tuple[bytes, Mapping[str, str]]]) -> str:
    return armor_module.armor_all(blocks, compress=False)


HEADERS = {
    "Game": "3f9a0c2e7b1d4c8e9f0a1b2c3d4e5f60",
    "Seq": "7",
    "Side": "german",
    "Turn": "3",
    "Phase": "combat",
    "Kind": "orders",
}
PAYLOAD = bytes(range(256)) * 3 + b'{"format":"ardennes-packet","version":1}'
OTHER = {**HEADERS, "Seq": "8", "Side": "allied", "Kind": "reply"}


def text_of(payload: bytes = PAYLOAD, headers: dict[str, str] | None = None) -> str:
    return armor(payload, HEADERS if headers is None else headers)


def one(text: str) -> Armored:
    blocks = dearmor_all(text)
    assert len(blocks) == 1
    return blocks[0]


def refused(text: str, *fragments: str) -> str:
    with pytest.raises(ArmorError) as info:
        dearmor_all(text)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
    return message


def quote(text: str, prefix: str = "> ", blank: str = ">") -> str:
    """Quote as a mail client does: ``prefix`` before each line, ``blank`` for empty ones."""
    return "\n".join(prefix + line if line else blank for line in text.splitlines()) + "\n"


def hard_wrap(text: str, width: int) -> str:
    """Wrap every line at ``width`` as a client does, repeating the quote prefix."""
    out: list[str] = []
    for line in text.splitlines():
        prefix = re.match(r"[> ]*", line)
        assert prefix is not None
        head, rest = prefix.group(0), line[len(prefix.group(0)) :]
        room = max(1, width - len(head))
        out += [head + rest[i : i + room] for i in range(0, len(rest), room)] or [line]
    return "\n".join(out) + "\n"


def rewrap_base64(text: str, width: int) -> str:
    """Re-split the base64 lines (not the headers) at ``width``, as a reflowing client does."""
    lines = text.splitlines()
    blank = lines.index("")
    end = lines.index(END)
    body = "".join(lines[blank + 1 : end - 1])
    new = [body[i : i + width] for i in range(0, len(body), width)]
    return "\n".join([*lines[: blank + 1], *new, *lines[end - 1 :]]) + "\n"


# --- writing ---------------------------------------------------------------------------------


def test_layout() -> None:
    lines = text_of().splitlines()
    assert lines[0] == BEGIN and lines[-1] == END
    assert lines[1:7] == [f"{k}: {v}" for k, v in HEADERS.items()]
    assert lines[7] == ""
    assert re.fullmatch(r"=[A-Za-z0-9+/]{8}", lines[-2])
    assert all(len(line) <= LINE_WIDTH for line in lines)
    assert max(len(line) for line in lines[8:-2]) == LINE_WIDTH
    assert text_of().isascii()


@given(
    payload=st.binary(max_size=3000),
    seq=st.integers(0, 10**6),
    phase=st.sampled_from(["combat", "movement", "Mechanized Movement", "set-up"]),
)
def test_round_trip(payload: bytes, seq: int, phase: str) -> None:
    headers = {**HEADERS, "Seq": str(seq), "Phase": phase}
    block = one(armor(payload, headers))
    assert block.payload == payload
    assert dict(block.headers) == headers
    assert list(block.headers) == list(headers)


def test_empty_payload_and_no_headers() -> None:
    assert one(armor(b"", {})) == Armored({}, b"")
    assert one(armor(b"x", {})).payload == b"x"


@pytest.mark.parametrize(
    ("headers", "fragment"),
    [
        ({"Game": "a\nb"}, "bad value"),
        ({"Game": "a\rb"}, "bad value"),
        ({"Game": "zwölf"}, "bad value"),
        ({"Game": ""}, "bad value"),
        ({"Game": " a"}, "bad value"),
        ({"Game": "a "}, "bad value"),
        ({"Game": "a  b"}, "bad value"),
        ({"Game": "x" * 70}, "longer than"),
        ({"game": "a"}, "bad header name"),
        ({"Ga me": "a"}, "bad header name"),
        ({"Ga:me": "a"}, "bad header name"),
        ({f"K{i}": "v" for i in range(17)}, "too many"),
    ],
)
def test_bad_headers_refused(headers: dict[str, str], fragment: str) -> None:
    with pytest.raises(ArmorError, match=fragment):
        armor(b"x", headers)


def test_payload_over_limit_refused() -> None:
    with pytest.raises(ArmorError, match="over the"):
        armor(b"\0" * (armor_module.MAX_PAYLOAD + 1), HEADERS)


# --- what mail does to text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "blank"),
    [("> ", ">"), ("> ", "> "), (">> ", ">>"), ("> > ", "> >"), (">", ">"), (">>>> ", "")],
)
def test_quoted(prefix: str, blank: str) -> None:
    text = "On Tue, Bob wrote:\n" + quote(text_of(), prefix, blank) + "\nMy answer below.\n"
    assert one(text).payload == PAYLOAD


def test_quoted_reply_of_a_reply() -> None:
    """A reply quoting the opponent's reply, which quoted the packet: mixed depths."""
    first = "Here is my move.\n\n" + text_of() + "\nCheers, Ann\n"
    second = "On Mon, Ann wrote:\n" + quote(first) + "\nGot it, thinking.\n"
    third = "On Tue, Bob wrote:\n" + quote(second) + "\n" + text_of(b"next", OTHER)
    blocks = dearmor_all(third)
    assert [b.payload for b in blocks] == [PAYLOAD, b"next"]


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_ends(newline: str) -> None:
    assert one(text_of().replace("\n", newline)).payload == PAYLOAD


def test_byte_order_mark_spaces_and_invisible_characters() -> None:
    lines = text_of().splitlines()
    spaced = "\ufeff" + "\n".join(f"  {line}\t " for line in lines)
    assert one(spaced).payload == PAYLOAD
    zero_width = text_of().replace("Seq", "S\u200beq").replace("\n=", "\n\u00a0=")
    assert one(zero_width).payload == PAYLOAD


@pytest.mark.parametrize("width", [60, 64, 72, 76, 80, 1])
def test_rewrapped_base64(width: int) -> None:
    assert one(rewrap_base64(text_of(), width)).payload == PAYLOAD


@pytest.mark.parametrize("width", [60, 72])
def test_quoted_then_hard_wrapped(width: int) -> None:
    """``> `` quoting pushes 76-column lines past the client's width: it breaks them."""
    text = hard_wrap(quote(text_of(), ">> "), width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert one(text).payload == PAYLOAD


def test_base64_joined_into_one_line() -> None:
    """format=flowed de-flowing or a paste into a one-line field joins the base64 lines."""
    assert one(rewrap_base64(text_of(), 10**6)).payload == PAYLOAD
    lines = text_of().splitlines()
    checksum_joined = "\n".join([*lines[:-3], lines[-3] + lines[-2], lines[-1]])
    assert one(checksum_joined).payload == PAYLOAD


def test_blank_lines_inside_base64() -> None:
    lines = text_of().splitlines()
    spread = [*lines[:9], "", ">", "  ", *lines[9:11], "", *lines[11:]]
    assert one("\n".join(spread)).payload == PAYLOAD
    assert one("\n".join([*lines[:7], *lines[8:]])).payload == PAYLOAD  # no blank after headers


def test_prose_around_and_on_the_marker_lines() -> None:
    lines = text_of().splitlines()
    text = (
        "Dear Bob,\n\nmy move -- "
        + lines[0]
        + "\n"
        + "\n".join(lines[1:-1])
        + lines[-1]
        + " -- regards\nAnn\n"
    )
    assert one(text).payload == PAYLOAD


def test_two_blocks_in_one_mail_in_order_and_copies_dropped() -> None:
    a, b = text_of(), text_of(b"second", OTHER)
    text = f"Packets:\n\n{a}\nand\n\n{b}\n-- \nsig\n"
    assert [x.payload for x in dearmor_all(text)] == [PAYLOAD, b"second"]
    assert [x.payload for x in dearmor_all(a + b + quote(a))] == [PAYLOAD, b"second"]
    both = armor_all([(PAYLOAD, HEADERS), (b"second", OTHER)])
    assert [x.headers["Seq"] for x in dearmor_all(both)] == ["7", "8"]
    assert dearmor_all("no armour here\n") == []


def test_same_payload_other_headers_are_two_blocks() -> None:
    assert len(dearmor_all(text_of() + text_of(headers=OTHER))) == 2


# --- refusals --------------------------------------------------------------------------------


def test_missing_end() -> None:
    refused(text_of().replace(END, ""), "block 1 (line 1)", "no END line")
    refused(text_of().replace(END, "") + text_of(), "block 1", "before the next BEGIN")


def test_end_without_begin() -> None:
    refused(text_of().replace(BEGIN, "Hello"), "END line 25 without a BEGIN")


def test_second_block_named() -> None:
    damaged = text_of(b"second", OTHER).replace("Kind: reply", "Kind: orders")
    refused(text_of() + "\n" + damaged, "block 2 (line 27)", "checksum mismatch")


def test_bad_base64_line_named() -> None:
    lines = text_of().splitlines()
    lines[10] = lines[10][:5] + "*" + lines[10][6:]
    refused("\n".join(lines), "block 1", "bad base64 on line 11")


def test_no_checksum() -> None:
    lines = text_of().splitlines()
    refused("\n".join([*lines[:-2], lines[-1]]), "no checksum line")


def test_changed_header_caught() -> None:
    refused(text_of().replace("Seq: 7", "Seq: 8"), "checksum mismatch: damaged in transit")
    refused(text_of().replace("Side: german\n", ""), "checksum mismatch")
    refused(text_of().replace("Kind: orders", "Kind: orders\nExtra: 1"), "checksum mismatch")
    refused(text_of().replace("Kind: orders", "Seq: 7"), "header Seq repeated on line 7")


def test_non_canonical_base64_caught() -> None:
    """The unused low bits of the last base64 character: a change there is still refused."""
    text = text_of(b"ab")  # "YWI=": "I" carries 2 unused bits
    assert "YWI=" in text
    refused(text.replace("YWI=", "YWJ="), "bad base64")


def separator_only(text: str, i: int, new: str) -> bool:
    """The change replaces the space after a header's colon by white space (not a line end) or
    an invisible character: not content."""
    invisible = "\ufeff\u200b\u200c\u200d\u2060\u00ad"
    return text[i - 1] == ":" and (new.isspace() or new in invisible) and new not in "\r\n"


@given(data=st.data())
def test_any_changed_character_caught(data: st.DataObject) -> None:
    """Replace one character anywhere in the header lines, the base64 or the checksum line:
    refused, whatever the replacement (a newline, a space, a quote mark, any code point). The
    one exception is not content: the space after a header's colon may become other white
    space (a tab, a no-break space) or an invisible character, and the block reads back
    unchanged."""
    text = text_of(PAYLOAD[:200], {**HEADERS, "Phase": "Mechanized Movement"})
    start = len(BEGIN) + 1
    stop = text.index(END) - 1
    positions = [i for i in range(start, stop) if text[i] != "\n"]
    i = data.draw(st.sampled_from(positions), label="position")
    new = data.draw(st.characters(codec="utf-8").filter(lambda c: c != text[i]), label="char")
    changed = text[:i] + new + text[i + 1 :]
    if separator_only(text, i, new):
        assert dearmor_all(changed) == dearmor_all(text)
        return
    with pytest.raises(ArmorError):
        dearmor_all(changed)


REPLACEMENTS = " \t\n\r>=:-+/Aa0Z9\x00\x1f\xa0\u200b\ufeffé€"


def test_every_position_every_kind_of_replacement() -> None:
    """Exhaustively: every character between BEGIN and END, replaced by each of a set of
    characters that mail or typing produce (same rule as above)."""
    text = text_of(PAYLOAD[:120], {**HEADERS, "Phase": "Mechanized Movement"})
    original = dearmor_all(text)
    start, stop = len(BEGIN) + 1, text.index(END) - 1
    tried = 0
    for i in range(start, stop):
        if text[i] == "\n":
            continue
        for new in REPLACEMENTS:
            if new == text[i]:
                continue
            tried += 1
            changed = text[:i] + new + text[i + 1 :]
            if separator_only(text, i, new):
                assert dearmor_all(changed) == original
                continue
            with pytest.raises(ArmorError):
                dearmor_all(changed)
    assert tried > 5000


@given(index=st.integers(0, len(PAYLOAD) - 1), mask=st.integers(1, 255))
def test_any_changed_payload_byte_caught(index: int, mask: int) -> None:
    """The base64 of a payload with one byte changed, under the original checksum."""
    text = text_of()
    damaged = bytearray(PAYLOAD)
    damaged[index] ^= mask
    b64 = base64.b64encode(damaged).decode()
    lines = text.splitlines()
    body = [b64[i : i + LINE_WIDTH] for i in range(0, len(b64), LINE_WIDTH)]
    forged = "\n".join([*lines[:8], *body, *lines[-2:]])
    refused(forged, "checksum mismatch: damaged in transit")


@given(cut=st.integers(len(BEGIN), len(text_of()) - 2))
def test_truncated_anywhere_caught(cut: int) -> None:
    """Cut anywhere after the BEGIN line (cut before it, there is no block at all)."""
    refused(text_of()[:cut], "block 1 (line 1)", "no END line (truncated?)")


def test_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    big = armor(b"\0" * 200, HEADERS)
    monkeypatch.setattr(armor_module, "MAX_PAYLOAD", 100)
    refused(big, "block 1", "payload over the 100-byte limit")
    monkeypatch.setattr(armor_module, "MAX_TEXT", 50)
    refused(big, "over the 50 limit")
    monkeypatch.undo()
    monkeypatch.setattr(armor_module, "MAX_BLOCKS", 2)
    small = armor(b"a", HEADERS)
    three = small + armor(b"b", HEADERS) + armor(b"c", HEADERS)
    refused(three, "more than 2 blocks")
    assert len(dearmor_all(three.rsplit(BEGIN, 1)[0])) == 2


def test_not_text_refused() -> None:
    with pytest.raises(ArmorError):
        dearmor_all(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ArmorError):
        armor("str", HEADERS)  # type: ignore[arg-type]


# --- fuzzing: ArmorError or a result, nothing else ------------------------------------------

FRAGMENTS = [
    BEGIN,
    END,
    "\n",
    "\r\n",
    "\r",
    "> ",
    ">",
    " ",
    "=",
    "==",
    ":",
    "Game: x",
    "Seq: 1",
    "\ufeff",
    "\u200b",
    "AAAA",
    "QUJD",
    "=AAAAAAAA",
    "-----",
    "BEGIN",
    "\x00",
    "é",
]


def _never_other(text: str) -> list[Armored]:
    try:
        return dearmor_all(text)
    except ArmorError as exc:
        assert "\n" not in str(exc)
        return []


@given(text=st.text())
def test_fuzz_arbitrary_text(text: str) -> None:
    _never_other(text)


@given(parts=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=5), max_size=60))
def test_fuzz_armour_like_text(parts: list[str]) -> None:
    _never_other("".join(parts))


MUTATIONS = st.tuples(
    st.sampled_from(["insert", "delete", "replace", "dup-line", "drop-line", "swap-lines"]),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.sampled_from(FRAGMENTS) | st.characters(),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutations=st.lists(MUTATIONS, min_size=1, max_size=6))
def test_fuzz_mutated_armour(mutations: list[tuple[str, int, int, str]]) -> None:
    """Two valid blocks, mutated: whatever is read back is one of the originals (a mutation
    never yields a different block that passes the checksum)."""
    originals = [Armored(HEADERS, PAYLOAD[:300]), Armored(OTHER, b"second packet")]
    text = "Hi,\n" + armor_all((b.payload, b.headers) for b in originals) + "bye\n"
    for kind, a, b, chunk in mutations:
        lines = text.split("\n")
        i, j = a % (len(text) + 1), b % len(lines)
        k = a % len(lines)
        if kind == "insert":
            text = text[:i] + chunk + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + 1 + b % 4 :]
        elif kind == "replace":
            text = text[:i] + chunk + text[i + 1 :]
        elif kind == "dup-line":
            text = "\n".join([*lines[: j + 1], lines[j], *lines[j + 1 :]])
        elif kind == "drop-line":
            text = "\n".join(lines[:j] + lines[j + 1 :])
        else:
            lines[j], lines[k] = lines[k], lines[j]
            text = "\n".join(lines)
    for block in _never_other(text):
        assert block in originals


# --- compression -------------------------------------------------------------------------------


def test_packets_are_deflated_when_it_pays() -> None:
    text = armor(PAYLOAD * 4, HEADERS, compress=True)
    lines = text.splitlines()
    assert lines[7] == "Encoding: deflate+dict2" and lines[8] == ""
    assert len(text) < len(armor(PAYLOAD * 4, HEADERS))
    block = one(text)
    assert block.payload == PAYLOAD * 4 and dict(block.headers) == HEADERS
    # incompressible bytes go as they are
    noise = bytes((i * 7919) % 251 for i in range(200))
    assert "Encoding" not in armor(zlib.compress(noise), HEADERS, compress=True)


def _deflated(body: bytes, encoding: str = "deflate") -> str:
    """A block whose payload is ``body`` with the ``encoding`` header, checksum and all."""
    head = {**HEADERS, "Encoding": encoding}
    b64 = base64.b64encode(body).decode()
    lines = [BEGIN, *(f"{k}: {v}" for k, v in head.items()), ""]
    lines += [b64[i : i + 76] for i in range(0, len(b64), 76)]
    lines += [armor_module.checksum(head, body), END]
    return "\n".join(lines) + "\n"


def test_a_decompression_bomb_is_refused() -> None:
    bomb = zlib.compress(b"\0" * (armor_module.MAX_PAYLOAD + 1), 9)
    assert len(bomb) < 200
    with pytest.raises(ArmorError, match="inflates past the 65536-byte limit"):
        dearmor_all(_deflated(bomb))


def test_a_damaged_or_trailing_deflate_stream_is_refused() -> None:
    good = zlib.compress(PAYLOAD, 9)
    with pytest.raises(ArmorError, match="deflated payload is damaged"):
        dearmor_all(_deflated(good[:-4]))
    with pytest.raises(ArmorError, match="deflated payload is damaged"):
        dearmor_all(_deflated(good + b"extra"))
    with pytest.raises(ArmorError, match="Encoding header is the armour's own"):
        armor_module.armor(b"x", {**HEADERS, "Encoding": "deflate"})


def test_the_preset_dictionaries_are_pinned_and_pay() -> None:
    """Each ``deflate+dictN`` is zlib with one fixed preset dictionary: its hash never changes
    (a changed dictionary would misread every block written with it), each is published for
    readers of their own, ``deflate+dict2`` is what ``tests/kit/zdict_build.py`` makes, and on
    a format 3 packet it beats ``deflate+dict1``, which beats plain deflate."""
    assert dict(zdict.SHA256) == {
        "deflate+dict1": "94dc911ace54862aabb5b15a232b926c6ea34c7c78448140d424125fb7ab1d3e",
        "deflate+dict2": "17adda3e2469dd65cd1b1985a1c6ea22e5a4119f68c99f3aad6f06be58887079",
    }
    docs = Path(__file__).parents[2] / "docs"
    for name, dictionary in zdict.ENCODINGS.items():
        assert hashlib.sha256(dictionary).hexdigest() == zdict.SHA256[name]
        # the copy the protocol's readers take (docs/pbem-protocol.md section 7)
        assert (docs / f"pbem-zdict{name[-1]}.bin").read_bytes() == dictionary
    # if the order of battle changed, the dictionary did not: pin the old unit list in the
    # script, or make a deflate+dict3
    assert zdict_build.build() == zdict.ENCODINGS["deflate+dict2"]
    module = Path(__file__).parents[2] / "pbem" / "core" / "zdict2.py"
    assert zdict_build.module(zdict_build.build()) == module.read_text()
    assert zdict.WRITTEN == "deflate+dict2"
    text = (Path(__file__).parents[1] / "data" / "records" / "email-s1-sealed.txt").read_text()
    packet = dearmor_all(text)[7].payload  # an orders packet of format 3: move, place, drop
    assert packet.startswith(b'{"format":"ardennes-packet","version":3,') and len(packet) > 700

    def deflated(dictionary: bytes | None) -> int:
        z = zlib.compressobj(9, zdict=dictionary) if dictionary else zlib.compressobj(9)
        return len(z.compress(packet) + z.flush())

    plain, old, new = (
        deflated(None),
        deflated(zdict.ENCODINGS["deflate+dict1"]),
        deflated(zdict.ENCODINGS["deflate+dict2"]),
    )
    assert new < old < plain and new < plain * 4 // 5, (plain, old, new)
    with_dict = armor_module.armor(packet, HEADERS)
    assert "Encoding: deflate+dict2" in with_dict
    assert one(with_dict).payload == packet
    old_text = armor_module.armor(packet, HEADERS, encoding="deflate+dict1")
    assert "Encoding: deflate+dict1" in old_text and one(old_text).payload == packet
    plain_text = armor_module.armor(packet, HEADERS, encoding="deflate")  # no dictionary
    assert "Encoding: deflate\n" in plain_text and one(plain_text).payload == packet
    with pytest.raises(ArmorError, match="unknown Encoding 'deflate\\+dict9'"):
        armor_module.armor(packet, HEADERS, encoding="deflate+dict9")


def test_plain_deflate_blocks_are_still_read_and_the_two_are_not_confused() -> None:
    """Blocks written before the dictionary (``Encoding: deflate``) still read; a stream
    deflated with the dictionary under the plain header is damage, and the reverse too."""
    assert one(_deflated(zlib.compress(PAYLOAD, 9))).payload == PAYLOAD
    for name, other in (("deflate+dict1", "deflate+dict2"), ("deflate+dict2", "deflate+dict1")):
        z = zlib.compressobj(9, zdict=zdict.ENCODINGS[name])
        with_dict = z.compress(PAYLOAD) + z.flush()
        assert one(_deflated(with_dict, name)).payload == PAYLOAD
        with pytest.raises(ArmorError, match="deflated payload is damaged"):
            dearmor_all(_deflated(with_dict))
        with pytest.raises(ArmorError, match="deflated payload is damaged"):
            dearmor_all(_deflated(with_dict, other))  # the header's Adler-32 is the other's
        with pytest.raises(ArmorError, match="deflated payload is damaged"):
            dearmor_all(_deflated(zlib.compress(PAYLOAD, 9), name))
    with pytest.raises(ArmorError, match=r"unknown Encoding 'deflate\+dict3'"):
        dearmor_all(_deflated(with_dict, "deflate+dict3"))
