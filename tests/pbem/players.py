"""Test players for protocol tests: an Ed25519 key that signs raw messages (the SSHSIG framing
is tested on its own in ``test_sshsig.py``), and a bot-driven email game loop."""

from __future__ import annotations

import base64
import hashlib
import struct
from dataclasses import dataclass
from functools import cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

import rules
import scenarios
from pbem import protocol
from pbem.packets import DiceMode, Packet
from rules.bots import BotRng, bots_for


def _string(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def public_line(pub: Ed25519PublicKey) -> str:
    raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ssh-ed25519 " + base64.b64encode(_string(b"ssh-ed25519") + _string(raw)).decode()


@dataclass(frozen=True)
class PlayerKey:
    """A player: a deterministic Ed25519 key."""

    name: str

    @property
    def _key(self) -> Ed25519PrivateKey:
        return _private(self.name)

    @property
    def public_line(self) -> str:
        return public_line(self._key.public_key())

    @property
    def raw_private(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )

    def sign(self, message: bytes) -> bytes:
        return self.public_line.encode() + b"\n" + self._key.sign(message)


@cache
def _private(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())


def verify(blob: bytes, message: bytes) -> str:
    """The signer's key line of a :meth:`PlayerKey.sign` blob; ``ValueError`` if bad."""
    line, _, sig = blob.partition(b"\n")
    try:
        raw = base64.b64decode(line.split()[1])[-32:]
        Ed25519PublicKey.from_public_bytes(raw).verify(sig, message)
    except (InvalidSignature, IndexError, ValueError) as exc:
        raise ValueError("the signature does not verify") from exc
    return line.decode()


GAME_ID = "0f" * 16


def board(n: int) -> rules.Board:
    return scenarios.load_board(n)


def start(mode: DiceMode, scenario: int = 1) -> tuple[protocol.EmailGame, list[Packet], dict]:
    """An invitation by the German (key "hans") and the Allied acceptance (key "joe")."""
    keys = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}
    seed = hashlib.sha256(b"local").digest() if mode == "local" else None
    g, inv = protocol.invite(
        keys["german"],
        "german",
        scenario,
        mode,
        GAME_ID,
        board,
        verify,
        local_seed=seed,
    )
    _, acc = protocol.accept(keys["allied"], inv, board, verify)
    g.receive(acc, verify)
    return g, [inv, acc], keys


def bot_packet(g: protocol.EmailGame, keys: dict, bots: dict) -> Packet:
    """The next packet, its moves chosen by the heuristic bots."""
    want = g.expects()
    assert want is not None
    side, kind = want
    d = g.draft(keys[side], side)
    if kind == "reply":
        r = d.push(rules.StandingOrders(side=side))
        assert not isinstance(r, str), r
        return d.seal(verify)
    if rules.acting_side(d.scratch.state) == side and d.scratch.state.combat.orders(side) is None:
        d.push(rules.StandingOrders(side=side, advance="strongest"))
    while not d.ended():
        cmd = bots[side].choose(d.scratch)
        r = d.push(cmd)
        assert not isinstance(r, str), (cmd, r)
    return d.seal(verify)


def play(
    mode: DiceMode, scenario: int = 1, turns: int = 2
) -> tuple[protocol.EmailGame, list[Packet]]:
    """A bot game by email up to the start of Game-Turn ``turns + 1``: every packet goes
    through ``receive`` on the other side's copy too."""
    g, sent, keys = start(mode, scenario)
    other, _, _ = start(mode, scenario)
    bots = bots_for(BotRng(b"pbem-test"))
    while g.game is not None and g.game.state.turn <= turns and g.expects() is not None:
        p = bot_packet(g, keys, bots)
        other.receive(p, verify)
        sent.append(p)
    return g, sent
