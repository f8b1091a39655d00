"""Importing packets from mail into the store (``docs/pbem-protocol.md`` sections 3, 5, 8).

:func:`import_received` takes the blocks :func:`pbem.mail.read_armored` found, groups their
packets by game and takes each game's in ``seq`` order. A packet of a game in the store goes
through :meth:`pbem.core.protocol.EmailGame.receive` (every check of section 5) under the game's
lock and is appended only then; a packet already stored is a ``duplicate``; a refused one
changes nothing, and is kept under ``evidence/`` when a pinned key signed it; a second packet
signed for a place already taken is equivocation: both are kept and the game stops. An
invitation for a game we do not have is reported, to be accepted with ``ardennes accept``.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

import rules.ao
from pbem import invitations
from pbem.core import dicemodes, packets
from pbem.core.errors import PbemError
from pbem.core.packets import Packet
from pbem.core.protocol import EmailGame, Equivocation, Refused
from pbem.exchange import (
    STOPPED,
    ImportItem,
    ImportReport,
    Outcome,
    fingerprint_of,
    next_move,
    read_blocks,
)
from pbem.mail import Received
from pbem.store import EquivocationError, Store
from pbem.store_types import MAX_REFUSED_EVIDENCE

__all__ = ["Games", "import_received"]


class Games(Protocol):
    """What the importer needs of :class:`pbem.games.Service`."""

    store: Store

    def load(self, game_id: str, *, history: bool = True) -> EmailGame: ...

    def board(self, scenario: int) -> rules.ao.Board: ...

    def forget(self, game_id: str) -> None: ...

    def write_meta(self, game_id: str, game: EmailGame) -> None: ...


def import_received(games: Games, received: Received) -> ImportReport:
    """Check and store every packet of ``received`` (see the module docstring): each block,
    packet and game on its own, so one that is refused (or that no check foresaw) is one line
    of the report and the others go on."""
    report = ImportReport(notes=list(received.notes))
    report.items.extend(ImportItem("refused", reason=line) for line in received.damaged)
    by_game: dict[str, list[Packet]] = {}
    for block in read_blocks(received):
        if block.packet is None:
            report.items.append(ImportItem("refused", reason=block.error))
            continue
        same = by_game.setdefault(block.packet.body.game, [])
        if block.packet not in same:
            same.append(block.packet)
    if not by_game and not report.items:
        report.notes.append("no armoured packet found")
    known = set(games.store.game_ids())
    for game_id, found in by_game.items():
        found.sort(key=lambda p: p.body.seq)
        before = len(report.items)
        try:
            if game_id in known:
                _into(games, game_id, found, report.items)
            else:
                _unknown(games, found, report.items)
        except PbemError as exc:  # the game itself cannot be used now: locked, damaged
            games.forget(game_id)
            done = len(report.items) - before
            report.items.extend(_item(p, "refused", str(exc)) for p in found[done:])
    return report


def _item(p: Packet, outcome: Outcome, reason: str = "", after: str = "") -> ImportItem:
    b = p.body
    return ImportItem(
        outcome,
        game_id=b.game,
        seq=b.seq,
        author=b.author,
        kind=b.kind,
        reason=reason,
        after=after,
    )


def _unknown(games: Games, found: list[Packet], out: list[ImportItem]) -> None:
    """Packets of a game we do not have: an invitation is offered, the rest refused."""
    invited = False
    for p in found:
        b = p.body
        if b.kind != "invitation":
            hint = " (accept its invitation first)" if invited else ""
            out.append(_item(p, "refused", f"game {b.game[:8]} is not in the store{hint}"))
            continue
        if b.mode == "local":
            why = f"game {b.game[:8]} is a local game: it is played where it began, not accepted"
            out.append(_item(p, "refused", why))
            continue
        try:
            assert b.scenario is not None
            games.board(b.scenario)
            EmailGame.start(p, games.board)
        except (Refused, ValueError) as exc:
            out.append(_item(p, "refused", str(exc)))
            continue
        invited = True
        assert b.key is not None
        who = fingerprint_of(b.key)
        how = (
            f"kept in the store: accept it with: ardennes accept {b.game[:8]}"
            if invitations.keep(games.store, p)
            else "accept it with: ardennes accept FILE (the saved mail or its attachment)"
        )
        what = f"scenario {b.scenario}, {b.mode} dice, from {who} playing the {b.author}; {how}"
        what += f" ({dicemodes.ALLOWS[b.mode]})" if b.mode is not None else ""
        out.append(_item(p, "invitation", what))


def _into(games: Games, game_id: str, found: list[Packet], out: list[ImportItem]) -> None:
    """Packets of a game in the store, in ``seq`` order, under its lock; the index
    (``meta.json``) rewritten after each packet stored."""
    store = games.store
    with store.transaction(game_id):
        meta = store.meta(game_id)
        game = games.load(game_id, history=False)
        stopped = meta.status == STOPPED
        for p in found:
            b = p.body
            if game.duplicate(p):
                out.append(_item(p, "duplicate"))
                continue
            if stopped:
                out.append(_item(p, "skipped", f"game {game_id[:8]} stopped (equivocation)"))
                continue
            try:
                game.receive(p)
            except Equivocation as exc:
                kept: tuple[str, ...] = ()
                try:
                    store.append(game_id, b.seq, packets.encode(p))
                except EquivocationError as e:
                    kept = e.kept
                store.update_meta(
                    game_id, msgspec.structs.replace(store.meta(game_id), status=STOPPED)
                )
                stopped = True
                where = f"; both kept as evidence ({', '.join(kept)})" if kept else ""
                out.append(_item(p, "equivocation", f"{exc}{where}; the game stops"))
                continue
            except Refused as exc:
                out.append(_item(p, "refused", str(exc) + _keep_if_pinned(games, game_id, game, p)))
                continue
            except Exception as exc:  # a case no check foresaw: one line, and the game reread
                games.forget(game_id)
                game = games.load(game_id, history=False)
                why = f"packet {b.seq} could not be checked ({type(exc).__name__}: {exc})"
                out.append(_item(p, "refused", why.splitlines()[0][:300]))
                continue
            try:
                store.append(game_id, b.seq, packets.encode(p))
                games.write_meta(game_id, game)
            except BaseException:
                games.forget(game_id)
                raise
            want = game.expects()
            who = "" if want is None else meta.german if want[0] == "german" else meta.allied
            after = next_move(game, meta.our_side, who)
            out.append(_item(p, "accepted", after=after))


def _keep_if_pinned(games: Games, game_id: str, game: EmailGame, p: Packet) -> str:
    """Keep a refused packet under ``evidence/`` when it is the next packet of the chain (its
    ``seq`` and ``prev`` fit) and a key pinned in the game signed it: it proves that player
    sent an illegal packet. A packet merely out of order, or for another place in the chain,
    is not kept (mail reorders), nor one past the game's cap
    (:data:`pbem.store_types.MAX_REFUSED_EVIDENCE`). What to add to the refusal's line."""
    if p.body.seq != game.seq or p.body.prev != game.hashes[-1]:
        return ""
    if p.signer not in {party.key for party in game.parties.values()}:
        return ""
    name = games.store.keep_evidence(game_id, f"refused-{p.body.seq:06d}", packets.encode(p))
    if not name:
        return f" (not kept as evidence: the game keeps {MAX_REFUSED_EVIDENCE} refused packets)"
    return f" (kept as evidence: {name})"
