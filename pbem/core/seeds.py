"""Where the dice of each packet come from (``docs/pbem-protocol.md`` section 4): the seed
of a sealed batch, of the CRT switch, of an open packet or of a local game, from the links the
players revealed and the identities of the packets before, and what went into it
(:class:`Derivation`, which the audit shows for every die)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pbem.core import chain
from pbem.core.packets import Body, DiceMode, Packet
from pbem.core.parties import Party
from rules.dice import SeededDice

ENDINGS: Final = frozenset({"resign", "draw_offer", "draw_answer"})
"""The packets that end a game (or offer to): no commands, no dice, any time after the
acceptance (a ``draw_answer`` only to the other player's offer). They count for nothing in a
seed."""


@dataclass(frozen=True)
class Derivation:
    """How a packet's dice seed was derived (protocol section 4): ``kind`` is ``batch``
    (sealed: a resolved batch, combat or the paradrop), ``switch`` (sealed: the CRT switch die
    at the start of an orders packet; ``reply`` then holds the previous packet's hash),
    ``none`` (sealed: a packet that may roll nothing; no seed), ``open`` or ``local``; the
    links and the reply hash that went into it."""

    seq: int
    kind: str
    seed: bytes
    batch: int = 0
    author_link: bytes = b""
    other_link: bytes = b""
    reply: bytes = b""


def dice_of(d: Derivation) -> SeededDice | None:
    """A packet's dice: none for a sealed packet that may roll nothing."""
    return None if d.kind == "none" else SeededDice(d.seed)


def game_bytes(game_id: str) -> bytes:
    return bytes.fromhex(game_id)


def last_play(sent: Sequence[Packet], hashes: Sequence[str]) -> str:
    """The identity of the last packet of ``sent`` that is not a resignation or a draw packet:
    what a batch's and a switch's seed hash, so that no draw offered and declined can change
    a die."""
    return next(h for p, h in zip(reversed(sent), reversed(hashes), strict=True)
                if p.body.kind not in ENDINGS)  # fmt: skip


def play_number(sent: Sequence[Packet], seq: int) -> int:
    """``seq`` without the resignations and draw packets before it: the number an open and a
    switch seed hash, which no draw offered and declined changes."""
    return seq - sum(1 for p in sent[:seq] if p.body.kind in ENDINGS)


@dataclass(frozen=True)
class SeedInputs:
    """What a game knows that a seed may hash: its id and dice mode, the local seed, the
    players, the packets so far and their identities, the batches resolved so far."""

    game_id: str
    mode: DiceMode
    local_seed: bytes | None
    parties: dict[str, Party]
    sent: Sequence[Packet]
    hashes: Sequence[str]
    batch: int


def derive(g: SeedInputs, b: Body[Any], reveal: bytes | None) -> Derivation:
    """Where the dice of packet ``b``'s commands come from, ``reveal`` the link it reveals."""
    game = game_bytes(g.game_id)
    me = g.parties[b.author]
    them = next(p for side, p in sorted(g.parties.items()) if side != b.author)
    if g.mode == "local":
        assert g.local_seed is not None
        return Derivation(b.seq, "local", g.local_seed)
    if g.mode == "open":
        assert reveal is not None
        seed = chain.open_seed(game, play_number(g.sent, b.seq), reveal, them.last)
        return Derivation(b.seq, "open", seed, author_link=reveal, other_link=them.last)
    prev = bytes.fromhex(last_play(g.sent, g.hashes))
    if b.kind == "resolution":
        assert reveal is not None
        batch = g.batch + 1
        seed = chain.batch_seed(game, batch, reveal, them.last, prev)
        return Derivation(b.seq, "batch", seed, batch, reveal, them.last, prev)
    if b.kind == "orders" and reveal is not None:  # it opens with the CRT switch die
        seed = chain.switch_seed(game, play_number(g.sent, b.seq), reveal, them.last, prev)
        return Derivation(b.seq, "switch", seed, 0, reveal, them.last, prev)
    # a reply (its link is for the batch) or orders that may roll nothing: no dice
    mine = reveal if reveal is not None else me.last
    return Derivation(b.seq, "none", b"", author_link=mine, other_link=them.last)
