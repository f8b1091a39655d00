"""Packets (``pbem.packets``, protocol section 3): canonical bytes, hashes, strict decoding."""

from __future__ import annotations

import contextlib
import hashlib

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from pbem import packets
from pbem.packets import Body, PacketError, Step

GAME = "00112233445566778899aabbccddeeff"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
HASH = "ab" * 32


def fake_signer(message: bytes) -> bytes:
    """A stand-in for an SSHSIG blob (the real one is tested in test_sshsig.py)."""
    return b"SIG" + hashlib.sha256(message).digest()


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
        "commands": (Step(command=rules.EndPhase(), hash=HASH[:32]),),
    }
    base.update(kw)
    return invitation(**base)


def test_round_trip_and_hash() -> None:
    p = packets.sign(invitation(comment="Nuts!"), fake_signer)
    data = packets.encode(p)
    back = packets.decode(data)
    assert back == p and packets.encode(back) == data
    assert p.signature_blob == fake_signer(packets.canonical_bytes(p.body))
    assert (
        packets.packet_hash(p)
        == hashlib.sha256(packets.canonical_bytes(p.body) + p.signature_blob).hexdigest()
    )


def test_canonical_bytes_are_fixed() -> None:
    body = orders()
    assert packets.canonical_bytes(body) == (
        b'{"format":"ardennes-packet","version":2,"rules":"'
        + rules.record.RULES_VERSION.encode()
        + b'","game":"'
        + GAME.encode()
        + b'","seq":2,"prev":"'
        + HASH.encode()
        + b'","author":"german","kind":"orders","turn":1,"phase":"setup_allied",'
        b'"commands":[{"command":{"type":"end_phase"},"hash":"' + HASH[:32].encode() + b'"}]}'
    )


def test_the_hash_binds_the_signature() -> None:
    a = packets.sign(orders(), fake_signer)
    b = packets.sign(orders(), lambda m: fake_signer(m) + b"x")
    assert a.body == b.body and packets.packet_hash(a) != packets.packet_hash(b)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (lambda: invitation(format="other"), "is not ardennes-packet 2"),
        (lambda: invitation(version=1), "version 1 is not ardennes-packet 2"),
        (lambda: invitation(game="XYZ"), "game id is not 32 lowercase hex"),
        (lambda: invitation(seq=-1, prev=""), "negative"),
        (lambda: invitation(prev=HASH), "prev must be empty for the first"),
        (lambda: orders(prev=""), "prev must be empty for the first, 64 hex digits after"),
        (lambda: orders(kind="invitation", scenario=1, mode="sealed"), "only the first packet"),
        (lambda: orders(key=KEY), "a key and a commitment come with the first two"),
        (lambda: invitation(key="ssh-rsa AAAA"), "not an ssh-ed25519 public key"),
        (lambda: orders(reveal="12"), "the reveal is not 64 lowercase hex"),
        (lambda: invitation(mode=None), "scenario and dice mode come with the invitation"),
        (lambda: invitation(seed=HASH), "a dice seed comes only with a local invitation"),
        (lambda: invitation(mode="local"), "a dice seed comes only with a local invitation"),
        (lambda: orders(accept=True), "accept answers a draw offer"),
        (lambda: orders(comment="x" * 501), "the comment is over 500 characters"),
        (lambda: orders(commands=(Step(rules.EndPhase(), "00"),)), "command 0: the hash"),
        (
            lambda: orders(commands=(Step(rules.EndPhase(), HASH),)),
            "command 0: the hash is not 32 hex digits",
        ),
    ],
)
def test_bad_bodies_are_refused(body: object, message: str) -> None:
    with pytest.raises(PacketError) as exc:
        packets.sign(body(), fake_signer)  # type: ignore[operator]
    assert message in str(exc.value)


def test_decoding_is_strict() -> None:
    p = packets.sign(orders(), fake_signer)
    raw = msgspec.json.decode(packets.encode(p))
    raw["body"]["extra"] = 1
    with pytest.raises(PacketError, match="not a packet"):
        packets.decode(msgspec.json.encode(raw))
    with pytest.raises(PacketError, match="over 65536 bytes"):
        packets.decode(b" " * (packets.MAX_PACKET_BYTES + 1))
    with pytest.raises(PacketError, match="signature is not base64"):
        packets.decode(packets.encode(msgspec.structs.replace(p, signature="!!")))
    with pytest.raises(PacketError, match=r"nested too deeply|not a packet"):
        packets.decode(b'{"body":' + b"[" * 50_000)


@settings(max_examples=300)
@given(st.binary(max_size=2_000))
def test_decode_never_crashes(data: bytes) -> None:
    with contextlib.suppress(PacketError):
        packets.decode(data)


@settings(max_examples=300)
@given(st.data())
def test_any_changed_byte_changes_or_breaks_the_packet(data: st.DataObject) -> None:
    p = packets.sign(orders(comment="hold the line"), fake_signer)
    raw = bytearray(packets.encode(p))
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= data.draw(st.integers(1, 255))
    try:
        q = packets.decode(bytes(raw))
    except PacketError:
        return
    # still a packet: then its canonical bytes or its signature differ, so the signature
    # check (pbem.sshsig) fails for it
    assert (
        packets.canonical_bytes(q.body) != packets.canonical_bytes(p.body)
        or q.signature_blob != p.signature_blob
    )
