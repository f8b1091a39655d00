"""The email game: who writes which packet, what it may hold, and where its dice come from.

``docs/pbem-protocol.md`` sections 3-5. An :class:`EmailGame` is the chain of accepted packets
and what follows from them: the pinned keys, each player's commitment and revealed links, and
the :class:`rules.ao.Game` replayed through the rules. :meth:`EmailGame.receive` checks a packet
and changes nothing unless every check passes (:mod:`pbem.core.authoring` writes them).

Who writes: the side that must act in the rules (:func:`rules.ao.acting_side`) writes an
``orders`` packet (or a ``resolution`` packet, sealed mode, after a reply). A packet holds
only commands its author may give: the acting side's, and standing orders for his own side.
It ends where the turn passes to the other player: the acting side changes, the game ends,
or, in sealed mode, attacks are declared and wait for the opponent's ``reply``.

Either player may end the game at any time after the acceptance (:data:`ENDINGS`): a
``resign`` packet gives it to the other side; a ``draw_offer`` waits for the other player's
``draw_answer`` (nothing else may come first, but a resignation), which ends the game drawn
or lets it go on where it was. Their verdicts (kind ``resignation`` or ``agreement``) are the
email game's own (:attr:`EmailGame.verdict`): the rules' game stays where it was.

The players and the refusals are :mod:`pbem.core.parties`, where each packet's dice come
from :mod:`pbem.core.seeds`; their names are exported here too (``__all__``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from pbem.core import chain, dicelist, packets, seeds
from pbem.core.packets import Body, DiceMode, Packet, PacketKind, step_hash
from pbem.core.parties import Equivocation, Identity, Party, Refused, fingerprint_of
from pbem.core.seeds import ENDINGS, Derivation, dice_of, game_bytes
from pbem.core.turn import (
    AnyGame,
    PacketPlay,
    acting_side,
    awaits_reply,
    drawn_dice,
    reveals,
)
from pbem.core.typed import AnyRuleset, body_decoder, ruleset_of, typed
from rules import registry
from rules.dice import SeededDice
from rules.game import Game
from rules.record import DiceSpec, tag
from rules.ruleset import state_hash_of

__all__ = [
    "ENDINGS",
    "START",
    "Derivation",
    "EmailGame",
    "Equivocation",
    "Identity",
    "Party",
    "Refused",
    "dice_of",
    "fingerprint_of",
    "game_bytes",
]


START: Final = (1, "setup_allied")
"""Where an AO invitation and acceptance stand: the game before the Allied set-up (any
ruleset's: where its new game stands, :meth:`EmailGame.start_where`)."""

BoardFor = Callable[[int], Any]
"""The board of a scenario number, for the game's ruleset (the AO's: ``scenarios.load_board``)."""


class EmailGame:
    """The accepted packets of one game and everything that follows from them."""

    @classmethod
    def start(cls, invitation: Packet, board_for: BoardFor) -> EmailGame:
        """A game from its invitation, which must be signed by the key it carries."""
        game = cls(invitation, board_for)
        game._check_signer(invitation)
        return game

    @classmethod
    def replay(cls, chain_of_packets: Sequence[Packet], board_for: BoardFor) -> EmailGame:
        """Every packet checked from the invitation on; raises :class:`Refused` at the first
        that fails (``ardennes verify``)."""
        if not chain_of_packets:
            raise Refused("no packets")
        game = cls.start(chain_of_packets[0], board_for)
        for p in chain_of_packets[1:]:
            game.receive(p)
        return game

    def __init__(self, invitation: Packet, board_for: BoardFor) -> None:
        b = invitation.body
        if b.kind != "invitation" or b.scenario is None or b.mode is None:
            raise Refused("packet 0 is not an invitation")
        self.ruleset: AnyRuleset = ruleset_of(b)
        """The game's rules (the invitation names them)."""
        self.game_class: type[AnyGame] = registry.game_class(self.ruleset.id) or Game
        """Its game class (:func:`rules.registry.game_class`: the AO's ``rules.ao.Game``)."""
        self._decoder = body_decoder(self.ruleset)
        if b.author not in self.ruleset.sides:
            raise Refused(f"packet 0: {b.author!r} is not a side of {self.ruleset.id}")
        self.board_for = board_for
        self.start_where: tuple[int, str] = self.ruleset.where(
            self.ruleset.new_game(board_for(b.scenario))
        )
        """(turn, phase) of the new game, where the invitation and the acceptance stand."""
        if (b.turn, b.phase) != self.start_where:
            raise Refused(f"packet 0: an invitation stands where the game begins, {self._start}")
        if invitation.version > packets.VERSION:
            raise Refused(
                f"packet 0: an invitation is version {packets.VERSION} (version "
                f"{packets.ANY_FACES} begins with the first packet listing a die not a d6)"
            )
        assert b.key is not None and b.commitment is not None
        self.game_id: str = b.game
        self.scenario: int = b.scenario
        self.mode: DiceMode = b.mode
        self.inviter: str = b.author
        self.packets: list[Packet] = [invitation]
        self.hashes: list[str] = [invitation.hash]
        self.parties: dict[str, Party] = {
            b.author: Party(b.author, b.key, bytes.fromhex(b.commitment), invitation.version)
        }
        self.local_seed: bytes | None = bytes.fromhex(b.seed) if b.seed else None
        self.game: AnyGame | None = None
        self.batch = 0
        """Combat batches resolved so far (sealed mode)."""
        self.derivations: list[Derivation] = []
        """Where the dice of each packet after the acceptance came from (for the audit)."""
        self.first_command: list[int] = []
        """The index in the game's history of each such packet's first command."""
        self.ending: Any = None
        """The verdict of a resignation or an accepted draw (the rules' game stays as it
        was)."""
        self.offer: int | None = None
        """The ``seq`` of a draw offer waiting for its answer."""
        self.partial = False
        """Resumed from a snapshot (:meth:`resume`): the rules' game starts at its state, and
        :attr:`derivations` and :attr:`first_command` cover only the packets since."""

    @classmethod
    def resume(
        cls,
        chain_of_packets: Sequence[Packet],
        board_for: BoardFor,
        state: Any,
    ) -> EmailGame:
        """The game of ``chain_of_packets``, packets a store verified when it kept them,
        resumed at ``state`` (a snapshot of the game after them) without replaying their
        commands: the chain, the signers against the pinned keys and every revealed link are
        checked again, and ``state`` must be the state whose hash the packets' last command
        carries (:class:`Refused` otherwise: replay instead). The result is :attr:`partial`."""
        if not chain_of_packets:
            raise Refused("no packets")
        game = cls.start(chain_of_packets[0], board_for)
        for p in chain_of_packets[1:]:
            game._resume(p)
        if game.game is None:
            return game
        claimed = next(
            (p.body.commands[-1].hash for p in reversed(game.packets) if p.body.commands), None
        )
        start = step_hash(game.game.state_hash())
        if step_hash(state_hash_of(game.ruleset, state)) != (
            claimed if claimed is not None else start
        ):
            raise Refused("the snapshot is not the state the packets reached")
        game.game = game.game_class(
            game.game.board, state, dice_spec=game._dice_spec(), ruleset=game.ruleset
        )
        for p in game.packets:
            if p.body.kind in ("resign", "draw_answer"):
                game._verdict_of(p.body, state)
        game.partial = True
        return game

    def _resume(self, packet: Packet) -> None:
        """``packet`` appended as :meth:`receive` would, but for its commands (see
        :meth:`resume`)."""
        b = packet.body
        if b.game != self.game_id or b.seq != self.seq or b.prev != self.hashes[-1]:
            raise Refused(f"packet {b.seq} does not follow packet {self.seq - 1}")
        self._check_signer(packet)
        packet = self.typed(packet)
        if b.kind == "acceptance":
            self._accept(packet)
            return
        if b.reveal is not None:
            link = bytes.fromhex(b.reveal)
            if not chain.verify_link(self.parties[b.author].last, link):
                raise Refused(f"packet {b.seq}: the revealed link does not match its chain")
            self.parties[b.author].revealed.append(link)
        if self.mode == "sealed" and b.kind == "resolution":
            self.batch += 1
        if b.kind == "draw_offer":
            self.offer = b.seq
        elif b.kind == "draw_answer":
            self.offer = None
        self.packets.append(packet)
        self.hashes.append(packet.hash)

    @property
    def _start(self) -> str:
        turn, phase = self.start_where
        return f"Game-Turn {turn}, {phase.replace('_', ' ')}"

    def other(self, side: str) -> str:
        """The other of the game's two sides."""
        a, b = self.ruleset.sides
        return b if side == a else a

    def _verdict_of(self, b: Body[Any], state: object) -> None:
        """The verdict of a resignation or an accepted draw, in ``state`` (the ruleset's
        :meth:`~rules.ruleset.Ruleset.players_verdict`: the AO's carries its VP)."""
        rs = self.ruleset
        if b.kind == "resign":
            why = f"the {b.author.capitalize()} player resigned"
            self.ending = rs.players_verdict(state, self.other(b.author), "resignation", why)
        elif b.kind == "draw_answer" and b.accept:
            self.ending = rs.players_verdict(state, None, "agreement", "a draw by agreement")

    # -- where the game stands ------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The sequence number of the next packet."""
        return len(self.packets)

    @property
    def verdict(self) -> Any:
        """How the game ended: the rules' verdict, a resignation or a draw by agreement;
        None while it goes on."""
        if self.ending is not None:
            return self.ending
        return self.game.outcome() if self.game is not None else None

    def expects(self) -> tuple[str, PacketKind] | None:
        """Who writes the next packet and of which kind; None once the game is over. (A
        resignation or a draw offer may come instead, from either player: :data:`ENDINGS`.)"""
        if self.game is None:
            return self.other(self.inviter), "acceptance"
        if self.game.outcome() is not None or self.ending is not None:
            return None
        if self.offer is not None:
            return self.other(self.packets[self.offer].body.author), "draw_answer"
        last = next(p.body for p in reversed(self.packets) if p.body.kind not in ENDINGS)
        if (
            self.mode == "sealed"
            and awaits_reply(self.game)
            and last.kind in ("orders", "resolution")
        ):
            return self.other(last.author), "reply"
        side = acting_side(self.game)
        assert side is not None
        return side, "resolution" if last.kind == "reply" else "orders"

    # -- reading a packet from outside ----------------------------------------------------------

    def duplicate(self, packet: Packet) -> bool:
        """``packet`` is one the game holds already: the same signed bytes (its identity),
        however it travelled (section 3)."""
        b = packet.body
        return (
            b.game == self.game_id and 0 <= b.seq < self.seq and self.hashes[b.seq] == packet.hash
        )

    def receive(self, packet: Packet) -> None:
        """Check ``packet`` (verified by its signer: :mod:`pbem.core.packets`) and append it;
        raises :class:`Refused` (nothing changed) or :class:`Equivocation`. A packet already
        accepted (:meth:`duplicate`) is a no-op."""
        b = packet.body
        where = f"packet {b.seq}"
        if b.game != self.game_id:
            raise Refused(f"{where} is for game {b.game[:8]}, not {self.game_id[:8]}")
        if b.seq < self.seq:
            if self.duplicate(packet):
                return
            old = self.packets[b.seq]
            if old.body.author != b.author:
                raise Refused(f"{where} is already in the game: this one is not its twin")
            self._check_signer(packet)
            raise Equivocation(
                f"{where}: the {b.author} player signed two different packets {b.seq}",
                old,
                packet,
            )
        if b.seq > self.seq:
            raise Refused(f"{where} is out of order: packet {self.seq} comes next")
        if b.prev != self.hashes[-1]:
            raise Refused(f"{where} does not follow packet {self.seq - 1} (prev hash differs)")
        why = dicelist.version_refusal(b.version, self.packets[-1].version, b.dice)
        if why is not None:
            raise Refused(f"{where} {why}")
        if b.rules != self.ruleset.version:
            raise Refused(
                f"{where} was written for rules {b.rules[:40]}, this is {self.ruleset.version}"
            )
        self._check_signer(packet)
        self._apply(self.typed(packet))

    def _check_signer(self, packet: Packet) -> None:
        """``packet`` was signed by the key pinned for its author (the invitation and the
        acceptance: the key they carry)."""
        b = packet.body
        pinned = self.parties.get(b.author)
        key = pinned.key if pinned is not None else b.key
        if key is None or packet.signer != key:
            raise Refused(
                f"packet {b.seq}: signed by {fingerprint_of(packet.signer)}, but the {b.author} "
                f"player's key is {fingerprint_of(key) if key else 'not known'}"
            )

    # -- applying an accepted packet ------------------------------------------------------------

    def _apply(self, packet: Packet) -> None:
        """Apply ``packet`` (signature already checked); raises :class:`Refused`, leaving the
        game as it was."""
        b = packet.body
        want = self.expects()
        if want is None:
            raise Refused(f"packet {b.seq}: the game is over")
        side, kind = want
        if b.kind in ENDINGS and self.game is not None:
            if b.kind == "draw_offer" and self.offer is not None:
                raise Refused(f"packet {b.seq}: a draw offer already waits for its answer")
            self._end(packet)
            return
        if (b.author, b.kind) != (side, kind):
            a = "an" if b.author == "allied" else "a"
            raise Refused(
                f"packet {b.seq}: {a} {b.author} {b.kind} packet, but the next is the {side} "
                f"player's {kind}"
            )
        if kind == "acceptance":
            self._accept(packet)
            return
        assert self.game is not None
        reveal = self._check_reveal(b)
        derived = self.seed_for(b, reveal)
        history = len(self.game.history)
        try:
            self._play(b, dice_of(derived))
            turn, phase = self.ruleset.where(self.game.state)
            if (b.turn, b.phase) != (turn, phase):
                raise Refused(
                    f"packet {b.seq} says Game-Turn {b.turn}, {b.phase[:30]}; the game is at "
                    f"Game-Turn {turn}, {phase}"
                )
        except Refused:
            self.game.truncate(history)
            raise
        if reveal is not None:
            self.parties[b.author].revealed.append(reveal)
        if derived.kind == "batch":
            self.batch += 1
        self.derivations.append(derived)
        self.first_command.append(history)
        self.packets.append(packet)
        self.hashes.append(packet.hash)

    def _end(self, packet: Packet) -> None:
        """A resignation, a draw offer or its answer (protocol section 3)."""
        assert self.game is not None
        b = packet.body
        s = self.game.state
        turn, phase = self.ruleset.where(s)
        if (b.turn, b.phase) != (turn, phase):
            raise Refused(
                f"packet {b.seq} says Game-Turn {b.turn}, {b.phase[:30]}; the game is at "
                f"Game-Turn {turn}, {phase}"
            )
        if b.kind == "draw_offer":
            self.offer = b.seq
        elif b.kind == "draw_answer":
            if self.offer is None or self.packets[self.offer].body.author == b.author:
                raise Refused(f"packet {b.seq}: there is no draw offer of the other player")
            self.offer = None
        self._verdict_of(b, s)
        self.derivations.append(Derivation(b.seq, "none", b""))
        self.first_command.append(len(self.game.history))
        self.packets.append(packet)
        self.hashes.append(packet.hash)

    def _accept(self, packet: Packet) -> None:
        b = packet.body
        assert b.key is not None and b.commitment is not None
        if b.key == self.parties[self.inviter].key:
            raise Refused(f"packet {b.seq}: the invitee signs with the inviter's key")
        if (b.turn, b.phase) != self.start_where:
            raise Refused(f"packet {b.seq}: an acceptance stands at {self._start}")
        self.parties[b.author] = Party(b.author, b.key, bytes.fromhex(b.commitment), packet.version)
        board = self.board_for(self.scenario)
        self.game = self.game_class.new(
            board, dice=None, dice_spec=self._dice_spec(), ruleset=self.ruleset
        )
        self.packets.append(packet)
        self.hashes.append(packet.hash)

    def salt(self, side: str) -> bytes:
        """What salts ``side``'s chain beyond the game id: for the invitee, the hash of the
        invitation, so an inviter who reuses an old game id cannot replay his links."""
        return b"" if side == self.inviter else bytes.fromhex(self.hashes[0])

    def _dice_spec(self) -> DiceSpec:
        return DiceSpec(kind=f"pbem-{self.mode}", detail={"game": self.game_id})

    def _check_reveal(self, b: Body[Any]) -> bytes | None:
        """The link ``b`` reveals, checked against its author's chain; whether one is due."""
        assert self.game is not None
        due = reveals(self.mode, b.kind, self.game)
        if due != (b.reveal is not None):
            what = "must reveal its author's next link" if due else "reveals no link"
            raise Refused(f"packet {b.seq}: a {self.mode} {b.kind} packet {what}")
        if b.reveal is None:
            return None
        link = bytes.fromhex(b.reveal)
        if not chain.verify_link(self.parties[b.author].last, link):
            raise Refused(
                f"packet {b.seq}: the revealed link does not match the {b.author} player's "
                "commitment chain"
            )
        return link

    def last_play(self) -> str:
        """The identity of the last packet that is not a resignation or a draw packet
        (:func:`pbem.core.seeds.last_play`)."""
        return seeds.last_play(self.packets, self.hashes)

    def play_number(self, seq: int) -> int:
        """``seq`` without the resignations and draw packets before it
        (:func:`pbem.core.seeds.play_number`)."""
        return seeds.play_number(self.packets, seq)

    def seed_for(self, b: Body[Any], reveal: bytes | None) -> Derivation:
        """Where the dice of packet ``b``'s commands come from (protocol section 4,
        :func:`pbem.core.seeds.derive`)."""
        inputs = seeds.SeedInputs(
            self.game_id,
            self.mode,
            self.local_seed,
            self.parties,
            self.packets,
            self.hashes,
            self.batch,
        )
        return seeds.derive(inputs, b, reveal)

    def typed(self, packet: Packet) -> Packet:
        """``packet`` with its commands decoded by the game's ruleset (:func:`typed`)."""
        return typed(packet, self.ruleset, self._decoder)

    def _play(self, b: Body[Any], dice: SeededDice | None) -> None:
        """Push ``b``'s commands with ``dice`` (:class:`pbem.core.turn.PacketPlay`: who may give
        each, what may roll, where the packet ends) and check every state hash."""
        assert self.game is not None
        self.game.dice = dice
        history = len(self.game.history)
        play = PacketPlay(self.game, self.mode, b.kind, b.author)
        for i, step in enumerate(b.commands):
            where = f"packet {b.seq}, command {i} ({tag(step.command)})"
            r = play.push(step.command)
            if isinstance(r, str):
                raise Refused(f"{where}: {r}")
            if step_hash(self.game.state_hash()) != step.hash:
                raise Refused(
                    f"{where}: state hash {self.game.state_hash()[:16]} where the packet has "
                    f"{step.hash[:16]}"
                )
        why = play.end_refusal()
        if why is not None:
            raise Refused(f"packet {b.seq}: {why}")
        why = dicelist.listed_refusal(b.dice, b.version, drawn_dice(self.game, history))
        if why is not None:
            raise Refused(f"packet {b.seq}: {why}")
