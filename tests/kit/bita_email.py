"""A sealed email game of *Breakthrough* between two players' copies of the game, through the
``pbem`` services that know no ruleset, each side's commands given by its self-play bot
(``rules.breakthrough.bots.heuristic``): each packet drafted and sealed on its author's copy,
sent as its wire bytes and received by the other's.

A packet holds its author's phases until the turn passes or a batch he declared waits (the
sealed orders end there); the reply is empty (nothing is decided inside a batch: no standing
orders); the resolution opens with the resolver (``EndPhase``) and goes on with its author's
phases. The American opens each day (``dawn``) with his own roll (the weather, the fuel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import authoring, packets
from pbem.core.packets import Packet
from pbem.core.protocol import EmailGame
from rules.breakthrough.board import Board
from rules.breakthrough.bots import heuristic
from rules.breakthrough.state import EndPhase
from scenarios.breakthrough.board import load_board
from tests.kit.players import PlayerKey

KEYS = {"german": PlayerKey("hans"), "american": PlayerKey("amy")}


def board_for(scenario: int) -> Board:
    return load_board(scenario)


def _bot_commands(game: Any, bots: Mapping[str, heuristic.Player]) -> list[Any]:
    """The commands the acting side's bot gives for its phase, tried on a copy."""
    g = game.copy()
    n = len(g.history)
    bots[g.state.side].play_phase(g)
    out = [s.command for s in g.history[n:]]
    if not out or not isinstance(out[-1], EndPhase):
        out.append(EndPhase())  # the copy could not roll its resolver: the draft will say
    return out


def packet(games: dict[str, EmailGame], side: str, bots: Mapping[str, heuristic.Player]) -> Packet:
    """``side``'s next packet, sealed on his copy and received on the other's."""
    d = authoring.draft(games[side], KEYS[side], side)
    if d.play.kind == "resolution":
        r = d.push(EndPhase())
        assert not isinstance(r, str), r
    if d.play.kind != "reply":
        done = False
        while not done and not d.ended():
            for c in _bot_commands(d.scratch, bots):
                r = d.push(c)
                if isinstance(r, str):
                    assert "send the packet now" in r, (c, r)
                    done = True
                    break
                if d.ended():
                    break
    assert d.complete(), d.play.end_refusal()
    sent = d.seal()
    other = "american" if side == "german" else "german"
    games[other].receive(packets.decode(packets.encode(sent)))
    return sent


def play(
    game_id: str, scenario: int = 1, until_turn: int | None = None, seed: bytes = b"mail"
) -> tuple[dict[str, EmailGame], list[Packet]]:
    """The game to its end (or to the first packet that begins on ``until_turn``): both
    copies and every packet sent."""
    bots: dict[str, heuristic.Player] = {str(k): v for k, v in heuristic.players(seed).items()}
    de, inv = authoring.invite(
        KEYS["german"], "german", scenario, "sealed", game_id, board_for, ruleset="breakthrough"
    )
    us, acc = authoring.accept(KEYS["american"], packets.decode(inv.wire), board_for)
    de.receive(packets.decode(acc.wire))
    games = {"german": de, "american": us}
    sent = [inv, acc]
    while (want := de.expects()) is not None:
        assert de.game is not None
        if until_turn is not None and de.game.state.turn >= until_turn:
            break
        sent.append(packet(games, want[0], bots))
    return games, sent
