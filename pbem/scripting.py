"""Scripted packets: a list of commands (``ardennes orders``, JSONL) poured into the drafts
of a player's next packets, as :meth:`pbem.games.Service.orders` does."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rules
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame

__all__ = ["fill"]


def fill(
    game: EmailGame,
    our_side: rules.Side,
    draft_for: Callable[[str], Draft],
    cmds: Sequence[rules.Command],
    comment: str,
) -> int:
    """Seal our next packets on ``game`` (in memory only) with ``cmds`` in order; how many
    were used. ``draft_for(comment)`` is the draft of the next packet (the key checked).
    Stops at the first packet boundary where the opponent must act (a local game: where the
    commands end; sealed: where they end with attacks declared, the batch then waiting for
    the reply; its ``ResolveAttacks`` opens the resolution packet); a standing orders command
    for our side is added first where we have none
    (engine/engine/strongest). Raises :class:`PbemError` for a refused command (its index
    and rule) or commands that end inside a packet."""
    i = 0
    sealed = 0
    while True:
        want = game.expects()
        if want is None or (sealed and i == len(cmds)):
            return i
        side, kind = want
        if sealed and game.mode != "local" and side != our_side:
            return i
        d = draft_for(comment if not sealed else "")
        where = f"packet {d.body.seq} ({side} {kind})"
        first = cmds[i] if i < len(cmds) else None
        own = isinstance(first, rules.StandingOrders) and first.side == side
        if d.scratch.state.combat.orders(side) is None and not own:
            r = d.push(rules.StandingOrders(side=side, advance="strongest"))
            if isinstance(r, str):
                raise PbemError(f"{where}: the default standing orders: {r}")
        if kind == "reply":  # standing orders only; the reply may end at once
            while i < len(cmds) and isinstance(cmds[i], rules.StandingOrders):
                _push(d, cmds, i, where)
                i += 1
        else:
            while not d.ended():
                if i == len(cmds) and d.complete():
                    break  # sealed: the commands end with a batch declared, sent for the reply
                if i == len(cmds):
                    raise PbemError(
                        f"the commands end inside {where}: it ends only where the turn "
                        f"passes to the other player (GT{d.scratch.state.turn} "
                        f"{d.scratch.state.phase}); nothing stored"
                    )
                _push(d, cmds, i, where)
                i += 1
        d.seal()
        sealed += 1


def _push(d: Draft, cmds: Sequence[rules.Command], i: int, where: str) -> None:
    r = d.push(cmds[i])
    if isinstance(r, str):
        raise PbemError(
            f"command {i} ({rules.record.tag(cmds[i])}) in {where}: {r}; nothing stored"
        )
