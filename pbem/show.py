"""Where a game by email stands, as data: ``ardennes show GAME --json`` (``docs/pbem.md``,
"Where a game stands").

:func:`show` reads the store (every packet verified, :meth:`pbem.games.Service.load`) and
answers through the engine's public API (``rules.ao.position``, ``rules.ao.preview_attack``,
``rules.ao.acting_side``): the position, whose move, what is pending (a sealed batch waiting for
the reply, the CRT switch die, a draw offer), and what ``ardennes orders`` or the app keeps for
the next packet (a draft, the commands kept for after the reply). With the player's key the
kept draft is also played on a fresh draft of the next packet, so that its position (its dice
included) is shown too.

The shape is stable (``format`` ``ardennes-show/1``); fields are only ever added::

    {"format": "ardennes-show/1", "game": ID, "scenario": 1, "dice": "sealed",
     "our_side": "german", "players": {"german": ..., "allied": ...}, "packets": 4,
     "to_move": "allied", "ours": false, "expects": "reply", "next": "waiting for ...",
     "pending": [...], "verdict": null, "position": {...}, "draft": null, "kept": null}
"""

from __future__ import annotations

import json
from typing import Any, Final

import rules.ao
from pbem import drafts, orders_rest
from pbem.aoplay import ao_game, ao_other
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame, Identity
from pbem.exchange import batch_words, verdict_text
from pbem.games import Service

__all__ = ["FORMAT", "show"]

FORMAT: Final = "ardennes-show/1"


def _attacks(game: rules.ao.Game) -> list[dict[str, Any]]:
    """The declared attacks of ``game``'s state, each with its odds now."""
    s = game.state
    out: list[dict[str, Any]] = []
    for a in s.combat.declared:
        p = rules.ao.preview_attack(game.board, s, list(a.attackers), list(a.defenders))
        odds = p.column if isinstance(p, rules.ao.Preview) else None
        row: dict[str, Any] = {
            "attackers": list(a.attackers),
            "defenders": list(a.defenders),
            "odds": odds,
        }
        if a.odds:
            row["asked"] = a.odds
        out.append(row)
    return out


def pending(email: EmailGame) -> list[dict[str, Any]]:
    """What the game waits on beyond the next packet's author: a sealed batch (its attacks
    with their odds, or the drop's hex), the CRT switch die, a draw offer."""
    out: list[dict[str, Any]] = []
    game = email.game
    want = email.expects()
    if game is None or want is None:
        return out
    s = game.state
    side, kind = want
    if kind in ("reply", "resolution"):
        mover = side if kind == "resolution" else ao_other(side)
        item: dict[str, Any] = {
            "kind": "batch",
            "what": batch_words(email, "reply").removeprefix("reply to the "),
            "side": mover,
            "waits_for": f"{side} {kind}",
        }
        if s.roll is not None and s.roll.purpose == "paradrop":
            item["hex"] = s.roll.hex
        else:
            item["attacks"] = _attacks(ao_game(game))
        out.append(item)
    elif s.roll is not None and s.roll.purpose == "crt_switch":
        out.append({"kind": "crt_switch", "side": s.side})
    if kind == "draw_answer":
        out.append({"kind": "draw_offer", "by": ao_other(side)})
    return out


def show(service: Service, game_id: str, me: Identity | None = None) -> dict[str, Any]:
    """The game ``game_id`` as :data:`FORMAT` data (see the module docstring); ``me``: the
    player's key, to play a kept draft (None: the draft is only counted)."""
    email = service.load(game_id)
    st = service.status(game_id)
    meta = service.store.meta(game_id)
    game = email.game
    if game is None:
        board = service.board(email.scenario)
        game = rules.ao.Game.new(board)
    verdict = email.verdict
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": game_id,
        "scenario": st.scenario,
        "dice": st.mode,
        "our_side": st.our_side,
        "players": {"german": meta.german, "allied": meta.allied},
        "packets": st.packets,
        "to_move": st.to_move,
        "ours": st.ours,
        "expects": st.expects,
        "next": st.next,
        "pending": pending(email),
        "verdict": None
        if verdict is None
        else {
            "winner": verdict.winner,
            "kind": verdict.kind,
            "german_vp": verdict.german_vp,
            "allied_vp": verdict.allied_vp,
            "reason": verdict.reason,
            "text": verdict_text(verdict),
        },
        "position": json.loads(rules.ao.position.dumps(game.state)),
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
    out["position"] = json.loads(rules.ao.position.dumps(d.scratch.state))
    return out
