"""Scripted packets: a list of commands (``ardennes orders``, JSONL) poured into the drafts
of a player's next packets, as :meth:`pbem.games.Service.orders` does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import rules
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame
from pbem.core.turn import batch_command

__all__ = ["Filled", "fill"]


@dataclass
class Filled:
    """What :func:`fill` did: ``used`` commands went into packets (sealed, or the ``open``
    one); ``sealed`` packets were sealed; ``open`` is the packet the commands ended inside
    (not sealed: kept as a draft by the caller); ``rest`` the commands after a sealed batch
    that waits for the opponent's reply (for the packet after it)."""

    used: int = 0
    sealed: int = 0
    open: Draft | None = None
    rest: list[rules.Command] = field(default_factory=list)


def fill(
    game: EmailGame,
    our_side: rules.Side,
    draft_for: Callable[[str], Draft],
    cmds: Sequence[rules.Command],
    comment: str,
) -> Filled:
    """Seal our next packets on ``game`` (in memory only) with ``cmds`` in order.
    ``draft_for(comment)`` is the draft of the next packet (the key checked). Stops at the
    first packet boundary where the opponent must act: sealed, where a batch waits for his
    reply (the commands left are the :attr:`Filled.rest`); a local game: where the commands
    end. Commands that end inside a packet leave it :attr:`Filled.open` (with at least one of
    them in it; none: a :class:`PbemError`). A standing orders command for our side is added
    first where we have none (engine/engine/strongest); a resolution packet whose commands
    do not open with its batch's ``ResolveAttacks`` (or the drop's ``Roll``) gets it first.
    Raises :class:`PbemError` for a refused command (its index and rule)."""
    out = Filled()
    i = 0
    while True:
        want = game.expects()
        if want is None or (out.sealed and i == len(cmds)):
            out.used = i
            return out
        side, kind = want
        if out.sealed and game.mode != "local" and side != our_side:
            out.used = i
            if kind == "reply":  # a sealed batch waits: the rest goes on after the reply
                out.rest = list(cmds[i:])
                out.used = len(cmds)
            return out
        d = draft_for(comment if not out.sealed else "")
        where = f"packet {d.body.seq} ({side} {kind})"
        first = cmds[i] if i < len(cmds) else None
        own = isinstance(first, rules.StandingOrders) and first.side == side
        if d.scratch.state.combat.orders(side) is None and not own:
            r = d.push(rules.StandingOrders(side=side, advance="strongest"))
            if isinstance(r, str):
                raise PbemError(f"{where}: the default standing orders: {r}")
        if kind == "resolution" and game.mode == "sealed":
            batch = batch_command(d.scratch.state)
            if not isinstance(first, type(batch)):
                r = d.push(batch)
                if isinstance(r, str):
                    raise PbemError(f"{where}: resolving the batch: {r}")
        begun = i
        if kind == "reply":  # standing orders only; the reply may end at once
            while i < len(cmds) and isinstance(cmds[i], rules.StandingOrders):
                _push(d, cmds, i, where)
                i += 1
        else:
            while not d.ended():
                if d.complete() and (i == len(cmds) or isinstance(cmds[i], rules.ResolveAttacks)):
                    break  # sealed: a batch declared waits for the reply; the rest after it
                if i == len(cmds):
                    if i == begun:
                        raise PbemError(
                            f"no command for {where}: it ends only where the turn passes to "
                            f"the other player (GT{d.scratch.state.turn} "
                            f"{d.scratch.state.phase}); nothing stored"
                        )
                    out.used, out.open = i, d
                    return out
                _push(d, cmds, i, where)
                i += 1
        d.seal()
        out.sealed += 1


def _push(d: Draft, cmds: Sequence[rules.Command], i: int, where: str) -> None:
    r = d.push(cmds[i])
    if isinstance(r, str):
        raise PbemError(
            f"command {i} ({rules.record.tag(cmds[i])}) in {where}: {r}; nothing stored"
        )
