"""Resigning and drawing a game by email (``ardennes resign``, ``ardennes draw``, the app's
commands; ``docs/pbem-protocol.md`` section 3).

:func:`resign` and :func:`draw` write the packet (:func:`pbem.core.authoring.ending`: signed,
checked as the opponent will check it), store it and return the armoured text the opponent has
not seen, as :meth:`pbem.games.Service.seal` does. Either player may resign or offer a draw
whenever the game is not over, even while the other is to move; the other player answers an
offer (accept or decline) before anything else but a resignation. A packet written while the
opponent wrote his own for the same place in the chain is the second to arrive there: the
opponent's import refuses it (the place is taken), and the player imports the opponent's
packet, then writes his again.
"""

from __future__ import annotations

from typing import Literal

import rules.ao
from pbem.aoplay import ao_side
from pbem.core import authoring, packets
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame, Identity, Refused
from pbem.exchange import verdict_text
from pbem.games import Sent, Service, local_partner

__all__ = ["DrawAction", "draw", "resign"]

DrawAction = Literal["offer", "accept", "decline"]


def _side(service: Service, game_id: str, game: EmailGame) -> rules.ao.Side:
    """Who speaks for us: our side; in a local game, the side to move (both are ours)."""
    if game.mode != "local":
        return service.store.meta(game_id).our_side
    want = game.expects()
    return ao_side(want[0] if want is not None else game.inviter)


def _write(
    service: Service,
    game_id: str,
    me: Identity,
    kind: packets.PacketKind,
    comment: str,
    accept: bool | None = None,
) -> Sent:
    store = service.store
    with store.transaction(game_id):
        meta = store.meta(game_id)
        service.check_going(game_id, meta)
        game = service.load(game_id, history=False)
        if game.verdict is not None:
            raise PbemError(f"game {game_id[:8]} is over: {verdict_text(game.verdict)}")
        side = _side(service, game_id, game)
        service.check_key(game_id, me.public_line)
        signer: Identity = me
        if game.mode == "local" and side != game.inviter:
            signer = local_partner(me, game_id, game.parties[side].key)
        try:
            p = authoring.ending(game, signer, side, kind, accept=accept, comment=comment)
            store.append(game_id, p.body.seq, packets.encode(p))
        except Refused as exc:
            service.forget(game_id)
            raise PbemError(f"game {game_id[:8]}: {exc}") from None
        except BaseException:
            service.forget(game_id)
            raise
        service.write_meta(game_id, game)
    return Sent(game_id, service.export(game_id))


def resign(service: Service, game_id: str, me: Identity, comment: str = "") -> Sent:
    """Our resignation of ``game_id``: the game is over, the other side wins."""
    return _write(service, game_id, me, "resign", comment)


def draw(
    service: Service, game_id: str, me: Identity, action: DrawAction, comment: str = ""
) -> Sent:
    """Offer a draw, or accept or decline the opponent's offer (accepted: the game is over,
    drawn; declined: it goes on where it was)."""
    if action == "offer":
        return _write(service, game_id, me, "draw_offer", comment)
    return _write(service, game_id, me, "draw_answer", comment, accept=action == "accept")
