"""Test players for protocol tests: deterministic keys that sign real SSHSIG signatures, and a
bot-driven email game loop."""

from __future__ import annotations

import hashlib
from functools import cache

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import rules.ao
import scenarios
from pbem.aoplay import ao_side
from pbem.core import authoring, protocol
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DiceMode, Packet
from pbem.core.turn import batch_command
from rules.ao.bots import BotRng, bots_for


@cache
def PlayerKey(name: str) -> KeyIdentity:
    """A player with a deterministic Ed25519 key (SSHSIG signatures, ``pbem.core.identity``)."""
    return KeyIdentity(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest()))


GAME_ID = "0f" * 16


def board(n: int) -> rules.ao.Board:
    return scenarios.load_board(n)


def start(mode: DiceMode, scenario: int = 1) -> tuple[protocol.EmailGame, list[Packet], dict]:
    """An invitation by the German (key "hans") and the Allied acceptance (key "joe")."""
    keys = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}
    seed = hashlib.sha256(b"local").digest() if mode == "local" else None
    g, inv = authoring.invite(
        keys["german"],
        "german",
        scenario,
        mode,
        GAME_ID,
        board,
        local_seed=seed,
    )
    _, acc = authoring.accept(keys["allied"], inv, board)
    g.receive(acc)
    return g, [inv, acc], keys


def bot_packet(g: protocol.EmailGame, keys: dict, bots: dict) -> Packet:
    """The next packet, its moves chosen by the heuristic bots."""
    want = g.expects()
    assert want is not None
    side, kind = want
    d = authoring.draft(g, keys[side], side)
    if kind == "reply":
        r = d.push(rules.ao.StandingOrders(side=ao_side(side)))
        assert not isinstance(r, str), r
        return d.seal()
    if (
        rules.ao.acting_side(d.scratch.state) == side
        and d.scratch.state.combat.orders(side) is None
    ):
        d.push(rules.ao.StandingOrders(side=side, advance="strongest"))
    if kind == "resolution":  # a resolution resolves its batch first
        assert not isinstance(d.push(batch_command(d.scratch)), str)
    while not d.ended():
        cmd = bots[side].choose(d.scratch)
        if isinstance(cmd, rules.ao.ResolveAttacks) and d.complete():
            break  # sealed: the declared batch goes to the opponent
        r = d.push(cmd)
        assert not isinstance(r, str), (cmd, r)
    return d.seal()


def play(
    mode: DiceMode, scenario: int = 1, turns: int = 2
) -> tuple[protocol.EmailGame, list[Packet]]:
    """A bot game by email up to the start of Game-Turn ``turns + 1``: every packet goes
    through ``receive`` on the other side's copy too."""
    g, sent, keys = start(mode, scenario)
    other, _, _ = start(mode, scenario)
    bots = bots_for(BotRng(b"pbem-test"), batch=True)
    while g.game is not None and g.game.state.turn <= turns and g.expects() is not None:
        p = bot_packet(g, keys, bots)
        other.receive(p)
        sent.append(p)
    return g, sent


@cache
def played(mode: DiceMode, turns: int = 1) -> tuple[Packet, ...]:
    """The packets of :func:`play` (made once per process; replay them for a game)."""
    return tuple(play(mode, turns=turns)[1])
