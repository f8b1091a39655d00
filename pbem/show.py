"""Where a game by email stands, as data: ``ardennes show GAME --json`` (``docs/pbem.md``,
"Where a game stands").

:func:`show` reads the store (every packet verified, :meth:`pbem.games.Service.load`) and
answers through the game's ruleset and its email kit (:mod:`pbem.kits`: the AO's position
format, its attacks with their odds): the position, whose move, what is pending (a sealed
batch waiting for the reply, a die of the mover's own such as the AO's CRT switch, a draw
offer), and what ``ardennes orders`` or the app keeps for the next packet (a draft, the
commands kept for after the reply). With the player's key the
kept draft is also played on a fresh draft of the next packet, so that its position (its dice
included) is shown too.

The shape is stable (``format`` ``ardennes-show/1``); fields are only ever added::

    {"format": "ardennes-show/1", "game": ID, "scenario": 1, "dice": "sealed",
     "our_side": "german", "players": {"german": ..., "allied": ...}, "packets": 4,
     "to_move": "allied", "ours": false, "expects": "reply", "next": "waiting for ...",
     "pending": [...], "verdict": null, "position": {...}, "draft": null, "kept": null}
"""

from __future__ import annotations

from typing import Any, Final

from pbem import drafts, orders_rest
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame, Identity
from pbem.core.turn import other_side
from pbem.exchange import batch_words, kit_of
from pbem.games import Service

__all__ = ["FORMAT", "show"]

FORMAT: Final = "ardennes-show/1"


def pending(email: EmailGame) -> list[dict[str, Any]]:
    """What the game waits on beyond the next packet's author: a sealed batch (what its
    ruleset's kit says it holds: the AO's attacks with their odds, or the drop's hex), a die
    of the mover's own (the AO's CRT switch), a draw offer."""
    out: list[dict[str, Any]] = []
    game = email.game
    want = email.expects()
    if game is None or want is None:
        return out
    kit = kit_of(email)
    side, kind = want
    if kind in ("reply", "resolution"):
        mover = side if kind == "resolution" else other_side(game, side)
        item: dict[str, Any] = {
            "kind": "batch",
            "what": batch_words(email, "reply").removeprefix("reply to the "),
            "side": mover,
            "waits_for": f"{side} {kind}",
        }
        item.update(kit.batch_detail(game))
        out.append(item)
    else:
        own = kit.own_roll(game.state)
        if own is not None:
            out.append(own)
    if kind == "draw_answer":
        out.append({"kind": "draw_offer", "by": other_side(game, side)})
    return out


def show(service: Service, game_id: str, me: Identity | None = None) -> dict[str, Any]:
    """The game ``game_id`` as :data:`FORMAT` data (see the module docstring); ``me``: the
    player's key, to play a kept draft (None: the draft is only counted)."""
    email = service.load(game_id)
    st = service.status(game_id)
    meta = service.store.meta(game_id)
    kit = kit_of(email)
    rs = email.ruleset
    state = email.game.state if email.game is not None else None
    if state is None:  # not yet accepted: the new game
        state = rs.new_game(service.board(email.scenario, rs.id))
    verdict = email.verdict
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": game_id,
        "scenario": st.scenario,
        "dice": st.mode,
        "our_side": st.our_side,
        "players": meta.labels(),
        "packets": st.packets,
        "to_move": st.to_move,
        "ours": st.ours,
        "expects": st.expects,
        "next": st.next,
        "pending": pending(email),
        "verdict": None if verdict is None else kit.verdict_data(verdict),
        "position": kit.position(state),
        "draft": _draft(service, game_id, me, st.ours),
        "kept": None,
    }
    rest = orders_rest.load(service.store, game_id)
    if rest is not None:
        out["kept"] = {"packet": rest.seq, "commands": len(rest.commands)}
    return out


def _draft(
    service: Service, game_id: str, me: Identity | None, ours: bool
) -> dict[str, Any] | None:
    """The saved draft of the next packet: its packet and orders, and (with ``me``, when it
    still applies) the position its orders lead to."""
    try:
        saved = drafts.load(service.store, game_id)
    except PbemError:
        return None
    if saved is None:
        return None
    out: dict[str, Any] = {"packet": saved.seq, "orders": len(saved.commands), "position": None}
    if me is None or not ours:
        return out
    try:
        d = service.draft(game_id, me, saved.comment)
    except PbemError:
        return out
    if saved.stale_for(d):
        out["stale"] = saved.stale_for(d)
        return out
    for cmd in saved.commands:
        if isinstance(d.push(cmd), str):
            out["stale"] = "a kept order is refused"
            return out
    out["position"] = kit_of(d.game).position(d.scratch.state)
    return out
