"""Scripted packets: a list of commands (``ardennes orders``, JSONL) poured into the drafts
of a player's next packets (:func:`fill`), stored with what is kept for later
(:func:`orders`, :meth:`pbem.games.Service.orders`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import rules.ao
from pbem import drafts, orders_rest
from pbem.aoplay import ao_side
from pbem.core import packets
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame, Identity
from pbem.core.turn import batch_command
from pbem.store import GameMeta, Store


class OrdersService(Protocol):
    """What :func:`orders` uses of :class:`pbem.games.Service` (which calls it)."""

    @property
    def store(self) -> Store: ...
    def load(self, game_id: str, *, history: bool = True) -> EmailGame: ...
    def check_going(self, game_id: str, meta: GameMeta) -> None: ...
    def forget(self, game_id: str) -> None: ...
    def write_meta(self, game_id: str, game: EmailGame, *, touch: bool = True) -> None: ...
    def export(self, game_id: str) -> str: ...
    def draft_on(
        self, game_id: str, game: EmailGame, meta: GameMeta, me: Identity, comment: str = ""
    ) -> Draft: ...


__all__ = ["Filled", "Ordered", "fill", "orders"]


@dataclass
class Filled:
    """What :func:`fill` did: ``used`` commands went into packets (sealed, or the ``open``
    one); ``sealed`` packets were sealed; ``open`` is the packet the commands ended inside
    (not sealed: kept as a draft by the caller); ``rest`` the commands after a sealed batch
    that waits for the opponent's reply (for the packet after it)."""

    used: int = 0
    sealed: int = 0
    open: Draft | None = None
    rest: list[rules.ao.Command] = field(default_factory=list)


def fill(
    game: EmailGame,
    our_side: rules.ao.Side,
    draft_for: Callable[[str], Draft],
    cmds: Sequence[rules.ao.Command],
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
        own = isinstance(first, rules.ao.StandingOrders) and first.side == side
        if d.scratch.state.combat.orders(side) is None and not own:
            r = d.push(rules.ao.StandingOrders(side=ao_side(side), advance="strongest"))
            if isinstance(r, str):
                raise PbemError(f"{where}: the default standing orders: {r}")
        if kind == "resolution" and game.mode == "sealed":
            batch = batch_command(d.scratch)
            if not isinstance(first, type(batch)):
                r = d.push(batch)
                if isinstance(r, str):
                    raise PbemError(f"{where}: resolving the batch: {r}")
        begun = i
        if kind == "reply":  # standing orders only; the reply may end at once
            while i < len(cmds) and isinstance(cmds[i], rules.ao.StandingOrders):
                _push(d, cmds, i, where)
                i += 1
        else:
            while not d.ended():
                if d.complete() and (
                    i == len(cmds) or isinstance(cmds[i], rules.ao.ResolveAttacks)
                ):
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


def _push(d: Draft, cmds: Sequence[rules.ao.Command], i: int, where: str) -> None:
    r = d.push(cmds[i])
    if isinstance(r, str):
        raise PbemError(
            f"command {i} ({rules.record.tag(cmds[i])}) in {where}: {r}; nothing stored"
        )


class Ordered(NamedTuple):
    """What :func:`orders` did: what to send, how many packets it sealed, how many
    commands the unfinished next packet's draft holds (-1: none kept), how many commands it
    kept for the packet after the opponent's reply, and what it did with commands kept by
    the last call (one line, or "")."""

    text: str
    """The armoured packets the opponent has not seen (what ``ardennes export`` writes)."""
    sealed: int
    draft: int
    rest: int
    kept: str


def orders(
    service: OrdersService,
    game_id: str,
    me: Identity,
    commands: Sequence[rules.ao.Command],
    comment: str = "",
) -> Ordered:
    """Script our next packets: the ``commands`` fill the drafts of our consecutive
    packets in order (standing orders engine/engine/strongest for our side first where we
    have none), after the commands kept by the last call, if they still apply
    (:mod:`pbem.orders_rest`, :mod:`pbem.drafts`). Stops at the first packet boundary
    where the opponent must act; in sealed mode, where a batch waits for his reply: the
    complete packets are stored, the commands after the batch kept for the packet after
    his reply (:mod:`pbem.orders_rest`). Commands that end inside a packet leave it as
    the saved draft (the app's, :mod:`pbem.drafts`): the next call, or the app, goes on
    from there. All or nothing: a refused command (its index and rule), or commands left
    over where the turn passes to the opponent, are a :class:`PbemError` and nothing is
    stored or kept."""
    with service.store.transaction(game_id):
        meta = service.store.meta(game_id)
        service.check_going(game_id, meta)
        game = service.load(game_id, history=False)
        start = len(game.packets)
        kept, said = _kept_orders(service, game_id, game, meta, me)
        kept_draft = bool(kept) and "draft" in said
        cmds = [*kept, *commands]
        try:
            filled = fill(
                game,
                meta.our_side,
                lambda note: service.draft_on(game_id, game, meta, me, note),
                cmds,
                comment,
            )
        except BaseException:
            service.forget(game_id)  # the game in memory holds unstored packets
            raise
        if filled.used < len(cmds):
            service.forget(game_id)
            want = game.expects()
            who = f"the {want[0]} player" if want else "the end of the game"
            raise PbemError(
                f"{len(cmds) - filled.used} command(s) left over: the turn passes to "
                f"{who} after command {filled.used - 1}; nothing stored"
            )
        try:
            for p in game.packets[start:]:
                service.store.append(game_id, p.body.seq, packets.encode(p))
            orders_rest.discard(service.store, game_id)
            if filled.rest:
                rest = orders_rest.make(game_id, len(game.packets) + 1, filled.rest)
                orders_rest.save(service.store, rest)
            if filled.open is not None:
                drafts.save(service.store, game_id, drafts.SavedDraft.of(filled.open))
            elif kept_draft:  # its commands went into a sealed packet
                drafts.remove(service.store, game_id)
        except BaseException:
            service.forget(game_id)
            raise
        service.write_meta(game_id, game)
        open_n = len(filled.open.steps) if filled.open is not None else -1
        return Ordered(
            service.export(game_id),
            len(game.packets) - start,
            open_n,
            len(filled.rest),
            said,
        )


def _kept_orders(
    service: OrdersService, game_id: str, game: EmailGame, meta: GameMeta, me: Identity
) -> tuple[list[rules.ao.Command], str]:
    """The commands kept by the last ``orders`` that still apply (the draft of the next
    packet, else the rest kept for it), and one line saying so (or why they were set
    aside)."""
    n = len(game.packets)
    saved = drafts.load(service.store, game_id)
    if saved is not None:
        fresh = service.draft_on(game_id, game, meta, me, saved.comment)
        why = saved.stale_for(fresh)
        if not why:
            k = len(saved.commands)
            return list(saved.commands), f"the {k} command(s) kept in packet {n}'s draft first"
        name = drafts.set_aside(service.store, game_id)
        return [], f"the draft kept no longer applies ({why}): set aside as {name}"
    rest = orders_rest.load(service.store, game_id)
    if rest is None:
        return [], ""
    if rest.seq != n:
        name = orders_rest.set_aside(service.store, game_id)
        why = f"they were for packet {rest.seq}, the next is {n}"
        return [], f"the commands kept no longer apply ({why}): set aside as {name}"
    k = len(rest.commands)
    return list(rest.commands), f"the {k} command(s) kept for packet {n} first"
