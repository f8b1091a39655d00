"""Packets (``pbem.core.packets``, protocol section 3): the signed bytes, the identity, strict and
canonical decoding, version 2 read as it is."""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.ao
from pbem.core import packets, sshsig
from pbem.core.packets import Body, PacketError, Step
from tests.kit.players import PlayerKey

GAME = "00112233445566778899aabbccddeeff"
HANS = PlayerKey("hans")
KEY = HANS.public_line
HASH = "ab" * 32


def invitation(**kw: object) -> Body:
    fields: dict[str, object] = {
        "format": packets.FORMAT,
        "version": packets.VERSION,
        "rules": rules.record.RULES_VERSION,
        "game": GAME,
        "seq": 0,
        "prev": "",
        "author": "german",
        "kind": "invitation",
        "turn": 1,
        "phase": "setup_allied",
        "scenario": 1,
        "mode": "sealed",
        "key": KEY,
        "commitment": HASH,
    }
    fields.update(kw)
    return Body(**fields)  # type: ignore[arg-type]


def orders(**kw: object) -> Body:
    base = {
        "seq": 2,
        "prev": HASH,
        "kind": "orders",
        "scenario": None,
        "mode": None,
        "key": None,
        "commitment": None,
        "commands": (Step(command=rules.ao.EndPhase(), hash=HASH[:32]),),
    }
    base.update(kw)
    return invitation(**base)


def wire(body_bytes: bytes, key: object = HANS) -> bytes:
    """``body_bytes`` as a version 3 packet signed by ``key``, whatever they hold."""
    return body_bytes + b"\n" + key.sign(body_bytes)  # type: ignore[attr-defined]


def legacy(body: Body, signature: str | None = None) -> bytes:
    """A version 2 packet: the JSON envelope, the signature over the canonical body."""
    body = msgspec.structs.replace(body, version=packets.LEGACY)
    blob = HANS.sign(packets.canonical_bytes(body))
    text = base64.b64encode(blob).decode() if signature is None else signature
    return msgspec.json.encode({"body": msgspec.to_builtins(body), "signature": text})


def test_a_packet_is_its_signed_bytes_then_its_signature() -> None:
    p = packets.sign(invitation(comment="Nuts!"), HANS.sign)
    body = packets.canonical_bytes(p.body)
    assert p.signed == body and p.wire == body + b"\n" + p.signature
    assert p.hash == hashlib.sha256(body).hexdigest() == packets.packet_hash(p)
    assert p.signer == KEY and p.version == 3
    assert sshsig.verify(p.signature, body) is not None
    back = packets.decode(p.wire)
    assert back == p and back.body == p.body and back.wire == p.wire


def test_canonical_bytes_are_fixed() -> None:
    body = orders(dice="35")
    assert packets.canonical_bytes(body) == (
        b'{"format":"ardennes-packet","version":3,"rules":"'
        + rules.record.RULES_VERSION.encode()
        + b'","game":"'
        + GAME.encode()
        + b'","seq":2,"prev":"'
        + HASH.encode()
        + b'","author":"german","kind":"orders","turn":1,"phase":"setup_allied",'
        b'"commands":[{"command":{"type":"end_phase"},"hash":"'
        + HASH[:32].encode()
        + b'"}],"dice":"35"}'
    )


def test_the_identity_is_the_signed_bytes_whatever_the_signature() -> None:
    """Only the signer could make a second valid signature over the same bytes (Ed25519 is
    strongly unforgeable; ours are deterministic): it would be the same packet."""
    a = packets.sign(orders(), HANS.sign)
    assert HANS.sign(a.signed) == a.signature
    other = dataclasses.replace(a, signature=b"another", wire=a.signed + b"\nanother")
    assert other == a and hash(other) == hash(a) and {a, other} == {a}
    assert a != packets.sign(orders(comment="x"), HANS.sign)


def test_the_signature_is_checked_before_the_json_is_read() -> None:
    junk = b'{"not": "json" [[[['
    with pytest.raises(
        PacketError, match=r"^bad signature \(not an SSH signature: starts with .not a "
    ):
        packets.decode(junk + b"\nnot a signature")
    with pytest.raises(PacketError, match=r"^bad signature \(bad signature by SHA256:"):
        packets.decode(junk + b"\n" + HANS.sign(b"something else"))
    with pytest.raises(PacketError, match=r"^not a packet: Object contains unknown field `not`"):
        packets.decode(wire(junk))


@pytest.mark.parametrize(
    ("spelling", "message"),
    [
        (lambda b: b.replace(b'"seq":2,', b'"seq":2 ,'), "canonical spelling"),
        (lambda b: b.replace(b'"seq":2,', b'"seq":2.0,'), "Expected `int`"),
        (lambda b: b.replace(b'"seq":2,', b'"seq":02,'), "malformed"),
        (lambda b: b.replace(b'"turn":1,', b'"turn":1,"comment":"",'), "canonical spelling"),
        (lambda b: b.replace(b'"kind":"orders",', b'"kind":"\\u006frders",'), "canonical"),
        (
            lambda b: (
                b.replace(b'"format":"ardennes-packet",', b"")[:-1]
                + b',"format":"ardennes-packet"}'
            ),
            "canonical spelling",
        ),
    ],
)
def test_only_the_canonical_json_is_read(spelling: object, message: str) -> None:
    """The same body spelled another way, validly signed, is refused: one body, one spelling,
    one identity."""
    body = packets.canonical_bytes(orders())
    other = spelling(body)  # type: ignore[operator]
    assert other != body
    with pytest.raises(PacketError, match=message):
        packets.decode(wire(other))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (lambda: invitation(format="other"), "is not ardennes-packet 2 to 4"),
        (lambda: invitation(version=1), "version 1 is not ardennes-packet 2 to 4"),
        (lambda: invitation(game="XYZ"), "game id is not 32 lowercase hex"),
        (lambda: invitation(seq=-1, prev=""), "negative"),
        (lambda: invitation(prev=HASH), "prev must be empty for the first"),
        (lambda: orders(prev=""), "prev must be empty for the first, 64 hex digits after"),
        (lambda: orders(kind="invitation", scenario=1, mode="sealed"), "only the first packet"),
        (lambda: orders(key=KEY), "an orders packet carries no key"),
        (lambda: orders(key=KEY, commitment=HASH), "carries no commitment, key"),
        (lambda: invitation(key="ssh-rsa AAAA"), "not an ssh-ed25519 public key"),
        (lambda: invitation(key=KEY.replace("NTE5", "NTE4")), "not an ssh-ed25519 public key"),
        (lambda: orders(reveal="12"), "the reveal is not 64 lowercase hex"),
        (lambda: invitation(mode=None), "scenario and dice mode come with the invitation"),
        (lambda: invitation(seed=HASH), "a dice seed comes only with a local invitation"),
        (lambda: invitation(mode="local"), "a dice seed comes only with a local invitation"),
        (lambda: orders(accept=True), "an orders packet carries no accept"),
        (lambda: orders(kind="draw_answer", commands=()), "accept answers a draw offer"),
        (lambda: orders(kind="resign", dice="3", commands=()), "carries no dice"),
        (lambda: orders(kind="reply", dice="3"), "a reply packet carries no dice"),
        (lambda: orders(dice="7"), "the dice are not digits 1 to 6"),
        (lambda: orders(turn=0), "turn 0 or phase 'setup_allied' is out of range"),
        (lambda: orders(phase="Combat!"), "is out of range"),
        (lambda: orders(comment="x" * 501), "the comment is over 500 characters"),
        (lambda: orders(commands=(Step(rules.ao.EndPhase(), "00"),)), "command 0: the hash"),
        (
            lambda: orders(commands=(Step(rules.ao.EndPhase(), HASH),)),
            "command 0: the hash is not 32 hex digits",
        ),
    ],
)
def test_bad_bodies_are_refused_when_signed_and_when_read(body: object, message: str) -> None:
    b = body()  # type: ignore[operator]
    with pytest.raises(PacketError) as exc:
        packets.sign(b, HANS.sign)
    assert message in str(exc.value)
    with pytest.raises(PacketError) as exc:
        packets.decode(wire(packets.canonical_bytes(b)))
    assert message in str(exc.value)


@pytest.mark.parametrize("field", ["mode", "scenario"])
def test_an_acceptance_with_a_lone_mode_or_scenario_is_refused(field: str) -> None:
    value = {"mode": "open", "scenario": 3}[field]
    acc = invitation(seq=1, prev=HASH, author="allied", kind="acceptance", mode=None, scenario=None)
    packets.sign(acc, HANS.sign)  # without it: fine
    bad = msgspec.structs.replace(acc, **{field: value})
    with pytest.raises(PacketError, match=f"packet 1: an acceptance packet carries no {field}"):
        packets.decode(wire(packets.canonical_bytes(bad)))


def test_decoding_is_strict() -> None:
    raw = msgspec.json.decode(packets.canonical_bytes(orders()))
    raw["extra"] = 1
    with pytest.raises(PacketError, match="not a packet: Object contains unknown field `extra`"):
        packets.decode(wire(msgspec.json.encode(raw)))
    with pytest.raises(PacketError, match="over 65536 bytes"):
        packets.decode(b" " * (packets.MAX_PACKET_BYTES + 1))
    with pytest.raises(PacketError, match=r"nested too deeply|not a packet"):
        packets.decode(wire(b'{"format":' + b"[" * 50_000))


def test_only_versions_3_and_4_are_written() -> None:
    with pytest.raises(PacketError, match="only version 3 or 4 packets are written, not 2"):
        packets.sign(orders(version=2), HANS.sign)


# -- version 2, read as it is --------------------------------------------------------------------


def test_a_version_2_packet_is_read_as_it_was_signed() -> None:
    data = legacy(orders())
    p = packets.decode(data)
    assert p.version == 2 and p.wire == data and p.signer == KEY
    assert p.signed == packets.canonical_bytes(p.body)
    assert p.hash == hashlib.sha256(p.signed + p.signature).hexdigest()


def test_a_version_2_signature_spelled_another_way_is_refused() -> None:
    """An SSHSIG blob of 178 bytes leaves 4 spare bits in its base64: 16 spellings of one
    signature. Only the canonical one is read; the others are refused, not taken for another
    packet (which stopped the game as equivocation, issue 20)."""
    good = legacy(orders())
    text = msgspec.json.decode(good)["signature"]
    assert len(base64.b64decode(text)) == 178 and text.endswith("==")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    i = alphabet.index(text[-3])  # 2 bits of data, 4 spare
    spellings = [text[:-3] + alphabet[(i & ~15) | k] + "==" for k in range(16)]
    assert text in spellings and len(set(spellings)) == 16
    for other in spellings:
        if other == text:
            continue
        assert base64.b64decode(other) == base64.b64decode(text)
        with pytest.raises(PacketError, match="packet 2: the signature's base64 is not canonical"):
            packets.decode(legacy(orders(), other))


@pytest.mark.parametrize("signature", ["é" * 240, "!!", ""])
def test_a_version_2_signature_that_is_not_base64_is_refused_in_one_line(signature: str) -> None:
    with pytest.raises(PacketError, match=r"^(packet 2: the signature is not base64|bad sig)"):
        packets.decode(legacy(orders(), signature))


def test_a_version_2_body_carries_no_dice() -> None:
    with pytest.raises(PacketError, match="an orders packet carries no dice"):
        packets.decode(legacy(orders(dice="3")))


# -- no input crashes the decoder ----------------------------------------------------------------


@settings(max_examples=300)
@given(st.binary(max_size=2_000))
def test_decode_never_crashes(data: bytes) -> None:
    with contextlib.suppress(PacketError):
        packets.decode(data)


@settings(max_examples=300)
@given(st.data())
def test_any_changed_byte_breaks_the_packet(data: st.DataObject) -> None:
    p = packets.sign(orders(comment="hold the line"), HANS.sign)
    raw = bytearray(p.wire)
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= data.draw(st.integers(1, 255))
    with pytest.raises(PacketError):
        packets.decode(bytes(raw))


def test_a_message_about_hostile_input_is_one_printable_line() -> None:
    """Found by ``make fuzz``: a field name with an escaped newline came back, newline and
    all, in msgspec's message."""
    with pytest.raises(PacketError) as exc:
        packets.decode(wire(b'{"x\\ny\\u0007":1}'))
    assert str(exc.value) == "not a packet: Object contains unknown field `x?y?`"
