"""A whole email game of *Tiny* or *Tiny percent* (``tests/kit/tiny.py``, ``tiny_percent.py``)
between two players' copies of the game, through the ``pbem`` services that know no ruleset:
each packet drafted and sealed on its author's copy, sent as its wire bytes and received by the
other's.

The game: Red picks morale 2, Blue 3 (TINY-2); turn 1 Red moves to 0201, Blue to 0301; from
turn 2 each side strikes the other (TINY-4, or TINY-P1), the strike waits for the defender's
reply (sealed dice) and the striker's resolution rolls it and ends his turn, until a strike
eliminates or turn 3 ends (TINY-5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core import authoring, packets
from pbem.core.headers import armor_packets
from pbem.core.packets import DiceMode, Packet
from pbem.core.protocol import EmailGame
from tests.kit import tiny, tiny_percent
from tests.kit.players import PlayerKey

KEYS = {"red": PlayerKey("rosa"), "blue": PlayerKey("bert")}
RULESETS = (tiny.TINY.id, tiny_percent.TINY_D100.id)
"""The rulesets :func:`play` plays (importing this module registers both)."""


def board_for(scenario: int) -> tiny.Board:
    assert scenario == 1
    return tiny.Board()


def packet(games: dict[str, EmailGame], side: str, *cmds: Any) -> Packet:
    """``side``'s next packet with ``cmds``, sealed on his copy of the game and received on
    the other player's (as the mail would bring it: the wire bytes, decoded)."""
    me = games[side]
    d = authoring.draft(me, KEYS[side], side)
    for c in cmds:
        r = d.push(c)
        assert not isinstance(r, str), (c, r)
    assert d.complete(), d.play.end_refusal()
    sent = d.seal()
    other = next(s for s in games if s != side)
    games[other].receive(packets.decode(packets.encode(sent)))
    return sent


def play(
    game_id: str, ruleset: str = "tiny", mode: DiceMode = "sealed"
) -> tuple[dict[str, EmailGame], list[Packet]]:
    """The game of the module docstring to its end, both players' copies, and every packet
    sent."""
    seed = bytes.fromhex(game_id) * 2 if mode == "local" else None  # local: the invitation's
    red, inv = authoring.invite(
        KEYS["red"], "red", 1, mode, game_id, board_for, local_seed=seed, ruleset=ruleset
    )
    blue, acc = authoring.accept(KEYS["blue"], packets.decode(inv.wire), board_for)
    red.receive(packets.decode(acc.wire))
    games = {"red": red, "blue": blue}
    sent = [inv, acc]
    sent.append(packet(games, "red", tiny.Pick(2)))
    sent.append(packet(games, "blue", tiny.Pick(3)))
    sent.append(packet(games, "red", tiny.Move("red-1", "0201"), tiny.EndPhase()))
    sent.append(packet(games, "blue", tiny.Move("blue-1", "0301"), tiny.EndPhase()))
    target = {"red": "blue-1", "blue": "red-1"}
    while (want := red.expects()) is not None:  # from turn 2 on: each side strikes
        side, kind = want
        if kind == "orders" and mode == "sealed":  # the strike waits for the reply
            sent.append(packet(games, side, tiny.Strike(target[side])))
        elif kind == "reply":  # nothing to decide in Tiny: only the link for the die
            sent.append(packet(games, side))
        else:  # the resolution (open: the orders): the dice, then the end of the turn
            d = authoring.draft(games[side], KEYS[side], side)
            if mode != "sealed":
                assert not isinstance(d.push(tiny.Strike(target[side])), str)
            assert not isinstance(d.push(tiny.Roll()), str)
            if not d.ended():
                assert not isinstance(d.push(tiny.EndPhase()), str)
            res = d.seal()
            games["blue" if side == "red" else "red"].receive(packets.decode(res.wire))
            sent.append(res)
    return games, sent


def mail_file(sent: list[Packet], tmp_path: Path, ruleset: str = "tiny") -> Path:
    """``sent`` armoured one after another in a file, as saved mails would be."""
    path = tmp_path / f"{ruleset}-game.txt"
    path.write_text("Mail from Rosa:\n\n" + armor_packets(sent, ruleset))
    return path
