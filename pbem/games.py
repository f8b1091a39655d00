"""The email game service: what the command line and the app do with a game by email.

A :class:`Service` joins the protocol (:mod:`pbem.core.protocol`: checks and drafts), the store
(:mod:`pbem.store`: packets kept append-only, ``meta.json``) and the armour
(:mod:`pbem.exchange`). Every packet that enters the store has passed
:meth:`pbem.core.protocol.EmailGame.receive` (``docs/pbem-protocol.md`` section 5) under the game's
lock (:meth:`pbem.store.Store.transaction`); a refused one changes nothing (a refused packet
signed by a pinned key is kept under ``evidence/``, and so are both packets of an
equivocation, which stops the game).

    service = Service(Store())
    sent = service.invite(me, scenario=1, side="german", mode="sealed")   # mail sent.text
    report = service.import_text(mail_text)                               # the reply
    draft = service.draft(sent.game_id, me)          # push commands, then:
    sent = service.seal(sent.game_id, draft)         # mail sent.text

A local game (hot-seat, ``mode="local"``) has one player: the protocol pins two different
keys, so the second side signs with a key derived from the player's own
(:func:`local_partner`) and the player needs only his.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import rules.ao
import scenarios
from pbem import drafts, invitations, mail, scripting, snapshots
from pbem.aoplay import ao_other, ao_side
from pbem.core import authoring, packets, sshsig
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DiceMode, Packet
from pbem.core.protocol import EmailGame, Identity, Refused
from pbem.exchange import (
    STOPPED,
    ImportItem,
    ImportReport,
    armor_packets,
    fingerprint_of,
    game_record,
    next_packet,
    read_blocks,
    verdict_text,
)
from pbem.gamestatus import Status, status_of
from pbem.importer import import_received
from pbem.scripting import Ordered
from pbem.store import GameMeta, Store, new_game_id
from pbem.store_types import check_game_id

__all__ = [
    "STOPPED",
    "ImportItem",
    "ImportReport",
    "Sent",
    "Service",
    "Status",
    "fingerprint_of",
    "local_partner",
]

_SIDES: tuple[rules.ao.Side, ...] = ("german", "allied")
_MODES = ("sealed", "open", "local")


@dataclass(frozen=True)
class Sent:
    """What to send: the game and its packets as armoured text ("" when there is nothing)."""

    game_id: str
    text: str


def local_partner(me: Identity, game_id: str, pinned: str | None = None) -> KeyIdentity:
    """The key that signs the second side of ``me``'s local game ``game_id``, derived from
    ``me``'s key and the game id (HKDF-SHA256), so nothing more is kept: from ``me``'s
    signature of ``"ardennes local partner/3" || game id`` in the namespace ``ardennes-local``
    (a key in ``ssh-agent`` plays too), or, for a game begun before version 3, from the raw
    private key. With ``pinned`` (the key the game pinned for that side), the one that is it."""
    game = bytes.fromhex(game_id)
    signature = sshsig.signature_bytes(
        me.sign(b"ardennes local partner/3" + game, "ardennes-local")
    )
    sources = [(signature, b"ardennes local partner/3")]
    if me.raw_private is not None:
        sources.append((me.raw_private, b"ardennes local partner/1"))
    for secret, info in sources:
        seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=game, info=info).derive(secret)
        partner = KeyIdentity(Ed25519PrivateKey.from_private_bytes(seed))
        if pinned is None or partner.public_line == pinned:
            return partner
    raise PbemError(f"game {game_id[:8]}: this key does not sign for the other side")


@functools.cache
def _shipped_board(scenario: int) -> rules.ao.Board:
    """The board of a shipped scenario, built once per process (its derived tables, built on
    first use, are then shared by every game of that scenario)."""
    return scenarios.load_board(scenario)


class Service:
    """The games of one store, by email (see the module docstring). ``board_for`` builds a
    scenario's board (default :func:`scenarios.load_board`)."""

    def __init__(
        self, store: Store, *, board_for: Callable[[int], rules.ao.Board] | None = None
    ) -> None:
        self.store = store
        self._board_for = board_for if board_for is not None else _shipped_board
        self._boards: dict[int, rules.ao.Board] = {}
        self._games: dict[str, EmailGame] = {}

    # -- helpers ---------------------------------------------------------------------------

    def board(self, scenario: int) -> rules.ao.Board:
        """The board of ``scenario`` (built once per service)."""
        board = self._boards.get(scenario)
        if board is None:
            try:
                board = self._board_for(scenario)
            except KeyError:
                raise PbemError(f"there is no scenario {scenario}") from None
            self._boards[scenario] = board
        return board

    def _store_new(self, game_id: str, meta: GameMeta, game: EmailGame) -> None:
        self.store.create_game(game_id, meta)
        with self.store.transaction(game_id):
            for p in game.packets:
                self.store.append(game_id, p.body.seq, packets.encode(p))
            self.write_meta(game_id, game)
        self._games[game_id] = game

    def forget(self, game_id: str) -> None:
        """Drop the game kept in memory (the next :meth:`load` replays the store)."""
        self._games.pop(game_id, None)

    def write_meta(self, game_id: str, game: EmailGame, *, touch: bool = True) -> None:
        """Set ``meta.json``'s whose move and status from ``game``, and the number of packets
        they describe (the index is current while the store holds that many)."""
        meta = self.store.meta(game_id)
        want = game.expects()
        to_move = "over" if want is None else want[0]
        status = meta.status if meta.status == STOPPED else next_packet(game)
        new = msgspec.structs.replace(
            meta, to_move=to_move, status=status, packets=len(game.packets)
        )
        self.store.update_meta(game_id, new, touch=touch)
        snapshots.write(self.store, game_id, game)

    def index(self, game_id: str) -> GameMeta:
        """``meta.json`` of ``game_id``, written again from the packets first when it
        describes another number of them (a writer stopped between a packet and the index)."""
        with self.store.transaction(game_id):
            meta = self.store.meta(game_id)
            if meta.packets != self.store.count(game_id):
                self.write_meta(game_id, self.load(game_id, history=False), touch=False)
                meta = self.store.meta(game_id)
            return meta

    def _label(self, meta: GameMeta, side: rules.ao.Side) -> str:
        return meta.german if side == "german" else meta.allied

    def check_going(self, game_id: str, meta: GameMeta) -> None:
        """Refuse to write in a game stopped by equivocation."""
        if meta.status == STOPPED:
            raise PbemError(
                f"game {game_id[:8]} is stopped: equivocation (two different packets signed "
                f"for one place; see {self.store.game_dir(game_id) / 'evidence'})"
            )

    # -- starting a game -------------------------------------------------------------------

    def invite(
        self,
        me: Identity,
        *,
        scenario: int,
        side: rules.ao.Side,
        mode: DiceMode,
        opponent: str = "",
        comment: str = "",
        game_id: str | None = None,
        local_seed: bytes | None = None,
    ) -> Sent:
        """A new game: its invitation (packet 0) stored and returned armoured, to send. A
        ``local`` game is accepted at once (the dice seed from ``os.urandom``).

        ``game_id`` and ``local_seed`` (a local game's 32-byte dice seed) are drawn at random
        unless given: self-play (:mod:`pbem.selfplay`) derives them from its seed so that the
        same seed gives the same packets. A player's game takes the defaults."""
        if side not in _SIDES:
            raise PbemError(f"the side is german or allied, not {side!r}")
        if mode not in _MODES:
            raise PbemError(f"the dice mode is sealed, open or local, not {mode!r}")
        if local_seed is not None and (mode != "local" or len(local_seed) != 32):
            raise PbemError("a dice seed is given only to a local game, and has 32 bytes")
        self.board(scenario)
        if game_id is None:
            game_id = new_game_id()
        else:
            check_game_id(game_id)
            if game_id in self.store.game_ids():
                raise PbemError(f"game {game_id[:8]} is already in the store")
        seed = None
        if mode == "local":
            seed = local_seed if local_seed is not None else os.urandom(32)
        game, invitation = authoring.invite(
            me,
            side,
            scenario,
            mode,
            game_id,
            self.board,
            local_seed=seed,
            comment=comment,
        )
        other = rules.ao.other_side(side)
        if mode == "local":
            _, acceptance = authoring.accept(local_partner(me, game_id), invitation, self.board)
            game.receive(acceptance)
            opponent = opponent or "yourself (local game)"
        labels = {side: me.fingerprint, other: opponent}
        meta = GameMeta(
            scenario=scenario,
            our_side=side,
            german=labels["german"],
            allied=labels["allied"],
            dice_mode=mode,
        )
        self._store_new(game_id, meta, game)
        return Sent(game_id, armor_packets(game.packets, game.ruleset.id))

    def invitation(self, text: str | bytes) -> Packet:
        """The one invitation (packet 0) in armoured ``text``, for a game not in the store."""
        found: list[Packet] = []
        for block in read_blocks(self._read(text)):
            p = block.packet
            if p is not None and p.body.kind == "invitation" and p not in found:
                found.append(p)
        if not found:
            raise PbemError("no invitation found in the text")
        if len(found) > 1:
            ids = ", ".join(p.body.game[:8] for p in found)
            raise PbemError(f"{len(found)} invitations in the text (games {ids}): give one")
        b = found[0].body
        if b.game in self.store.game_ids():
            raise PbemError(f"game {b.game[:8]} is already in the store")
        if b.mode == "local":
            raise PbemError(f"game {b.game[:8]} is a local game: it cannot be accepted")
        return found[0]

    def accept(
        self, me: Identity, text: str | bytes, comment: str = "", *, opponent: str = ""
    ) -> Sent:
        """Accept the invitation in ``text`` (any mail text holding its armour): checked, the
        game created in the store with packets 0-1, the acceptance returned armoured."""
        invitation = self.invitation(text)
        b = invitation.body
        assert b.scenario is not None and b.mode is not None and b.key is not None
        self.board(b.scenario)
        game, _ = authoring.accept(me, invitation, self.board, comment)
        ours = ao_other(b.author)
        labels = {ours: me.fingerprint, b.author: opponent or fingerprint_of(b.key)}
        meta = GameMeta(
            scenario=b.scenario,
            our_side=ours,
            german=labels["german"],
            allied=labels["allied"],
            dice_mode=b.mode,
        )
        self._store_new(b.game, meta, game)
        invitations.discard(self.store, b.game)  # kept by an import: accepted now
        return Sent(b.game, armor_packets(game.packets[1:], game.ruleset.id))

    # -- reading a game --------------------------------------------------------------------

    def load(self, game_id: str, *, history: bool = True) -> EmailGame:
        """The game of the stored packets, every one verified (kept for the next call while
        the store holds no other packets). With ``history`` it is replayed from the
        invitation (the rules' history whole: the record, playback); without, it resumes at
        the store's verified snapshot when there is one (:mod:`pbem.snapshots`; partial)."""
        n = self.store.count(game_id)
        cached = self._games.get(game_id)
        if cached is not None and len(cached.packets) == n and not (history and cached.partial):
            return cached
        self.forget(game_id)
        chain = []
        for seq, data in enumerate(self.store.packets(game_id)):
            try:
                chain.append(packets.decode(data))
            except PbemError as exc:
                raise PbemError(
                    f"game {game_id[:8]}: stored packet {seq} is damaged: {exc}"
                ) from None
        if not chain:
            raise PbemError(f"game {game_id[:8]} has no packets")
        if chain[0].body.game != game_id:
            raise PbemError(f"game {game_id[:8]}: the stored invitation is for another game")
        game = None
        state = None if history else snapshots.read(self.store, game_id, n)
        if state is not None:
            try:
                game = EmailGame.resume(chain, self.board, state)
            except Refused:
                game = None  # the snapshot does not fit its packets: replay them
        if game is None:
            try:
                game = EmailGame.replay(chain, self.board)
            except Refused as exc:
                raise PbemError(
                    f"game {game_id[:8]}: the stored packets do not verify: {exc}"
                ) from None
        self._games[game_id] = game
        return game

    def status(self, game_id: str) -> Status:
        """Where ``game_id`` stands (see :class:`pbem.gamestatus.Status`)."""
        game = self.load(game_id, history=False)
        meta = self.store.meta(game_id)
        return status_of(game_id, game, meta, len(self.store.evidence(game_id)))

    def pinned(self, game_id: str) -> str:
        """The public key line pinned for our side (a local game: the inviter's)."""
        game = self.load(game_id, history=False)
        meta = self.store.meta(game_id)
        side = game.inviter if game.mode == "local" else meta.our_side
        party = game.parties.get(side)
        if party is None:
            raise PbemError(f"game {game_id[:8]}: no key pinned for the {side} yet")
        return party.key

    def check_key(self, game_id: str, public_line: str) -> None:
        """Refuse a key that is not the one pinned for our side, naming both fingerprints."""
        pinned = self.pinned(game_id)
        if public_line != pinned:
            meta = self.store.meta(game_id)
            raise PbemError(
                f"key {fingerprint_of(public_line)} is not the {meta.our_side} key of game "
                f"{game_id[:8]}, {fingerprint_of(pinned)}"
            )

    # -- writing packets -------------------------------------------------------------------

    def _draft_on(
        self, game_id: str, game: EmailGame, meta: GameMeta, me: Identity, comment: str
    ) -> Draft:
        want = game.expects()
        if want is None:
            raise PbemError(f"game {game_id[:8]} is over: {verdict_text(game.verdict)}")
        side, kind = want
        if kind == "draw_answer":
            if game.mode == "local" or side == meta.our_side:
                raise PbemError(
                    f"game {game_id[:8]}: the {ao_other(side)} player offers a draw: "
                    f"answer it first: ardennes draw {game_id[:8]} --accept or --decline"
                )
            raise PbemError(f"game {game_id[:8]}: your draw offer waits for the {side}'s answer")
        if game.mode != "local" and side != meta.our_side:
            who = self._label(meta, ao_side(side))
            raise PbemError(
                f"game {game_id[:8]}: not your move: waiting for the {side} player"
                + (f" ({who})" if who else "")
                + f" since {meta.last_activity}"
            )
        self.check_key(game_id, me.public_line)
        signer: Identity = me
        if game.mode == "local" and side != game.inviter:
            signer = local_partner(me, game_id, game.parties[side].key)
        return authoring.draft(game, signer, side, comment)

    def draft(self, game_id: str, me: Identity, comment: str = "") -> Draft:
        """The next packet of ``game_id`` if it is ours to write (else :class:`PbemError`
        saying who we wait for), signed by ``me`` (the key pinned for our side) when sealed."""
        meta = self.store.meta(game_id)
        self.check_going(game_id, meta)
        return self._draft_on(game_id, self.load(game_id, history=False), meta, me, comment)

    def seal(self, game_id: str, draft: Draft) -> Sent:
        """Sign ``draft``, check it as the opponent will, store it (and discard its saved
        draft, :mod:`pbem.drafts`); the armoured packets the opponent has not seen."""
        with self.store.transaction(game_id):
            n = self.store.count(game_id)
            if draft.body.game != game_id or draft.body.seq != n or draft.game.seq != n:
                raise PbemError(
                    f"game {game_id[:8]} has moved on since this draft (it holds {n} packets): "
                    "draft again"
                )
            self.check_going(game_id, self.store.meta(game_id))
            try:
                packet = draft.seal()
                self.store.append(game_id, packet.body.seq, packets.encode(packet))
            except BaseException:
                self.forget(game_id)
                raise
            self._games[game_id] = draft.game
            self.write_meta(game_id, draft.game)
            drafts.discard(self.store, game_id, drafts.SavedDraft.of(draft))  # the app's
        return Sent(game_id, self.export(game_id))

    def orders(
        self,
        game_id: str,
        me: Identity,
        commands: Sequence[rules.ao.Command],
        comment: str = "",
    ) -> Ordered:
        """Script our next packets with ``commands`` (``ardennes orders``): see
        :func:`pbem.scripting.orders`."""
        return scripting.orders(self, game_id, me, commands, comment)

    def draft_on(
        self, game_id: str, game: EmailGame, meta: GameMeta, me: Identity, comment: str = ""
    ) -> Draft:
        """The draft of ``game``'s next packet (``game`` held by the caller, under the game's
        lock), signed by ``me``."""
        return self._draft_on(game_id, game, meta, me, comment)

    # -- sending ---------------------------------------------------------------------------

    def unseen(self, game_id: str) -> list[Packet]:
        """The packets the opponent has not seen: those after his last packet."""
        game = self.load(game_id, history=False)
        opponent = rules.ao.other_side(self.store.meta(game_id).our_side)
        last = max((p.body.seq for p in game.packets if p.body.author == opponent), default=-1)
        return list(game.packets[last + 1 :])

    def export(self, game_id: str) -> str:
        """The armoured packets the opponent has not seen ("" when there are none)."""
        return armor_packets(self.unseen(game_id), self.load(game_id, history=False).ruleset.id)

    def export_record(self, game_id: str) -> bytes:
        """The game as a :mod:`rules.record` that replays on its own (``ardennes selfplay
        --replay``): every command, the dice listed in order (each packet's dice recomputed
        from its derivation), the players as labelled in the store."""
        meta = self.store.meta(game_id)
        return game_record(self.load(game_id), meta.german, meta.allied)

    # -- receiving -------------------------------------------------------------------------

    @staticmethod
    def _read(data: str | bytes) -> mail.Received:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return mail.read_armored(raw)

    def comments(self, game_id: str) -> list[tuple[int, rules.ao.Side, str]]:
        """:func:`comments` of the stored game ``game_id``."""
        return comments(self.load(game_id))

    def import_text(self, data: str | bytes) -> ImportReport:
        """Every armoured packet in ``data`` (text, a mail, an mbox), checked and stored (see
        :mod:`pbem.importer`)."""
        try:
            received = self._read(data)
        except mail.MailError as exc:
            return ImportReport([ImportItem("refused", reason=str(exc))])
        return import_received(self, received)

    def import_source(self, source: str | os.PathLike[str]) -> ImportReport:
        """:meth:`import_text` of a file, an ``.eml``, an mbox or a Maildir
        (:func:`pbem.mail.read_armored`); :class:`pbem.mail.MailError` if it cannot be read."""
        return import_received(self, mail.read_armored(source))


def comments(game: EmailGame) -> list[tuple[int, rules.ao.Side, str]]:
    """``(seq, author, comment)`` of each packet of ``game`` that carries a comment, in order
    (what a player wrote to his opponent: ``orders --comment``, the app's ``m``)."""
    return [
        (p.body.seq, ao_side(p.body.author), p.body.comment) for p in game.packets if p.body.comment
    ]
