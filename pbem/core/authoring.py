"""Writing packets: the next packet's draft, the invitation and the acceptance, and the
packets that end a game (``docs/pbem-protocol.md`` sections 3 and 4).

:func:`draft` opens the next packet of the player whose turn it is, with the dice computed as
the receiver will compute them; :meth:`Draft.seal` signs it and applies it to the game as the
opponent will (:meth:`pbem.core.protocol.EmailGame.receive`), so what is written is what the
opponent accepts. :func:`invite` and :func:`accept` begin a game; :func:`ending` writes a
resignation, a draw offer or its answer. A player's dice chain comes from his key
(:func:`_secret`): in version 3 from his own signature of a message in the namespace
``ardennes-dice`` (so a key held by ``ssh-agent`` plays), in a game begun in version 2 from
the raw private key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

import rules
from pbem.core import chain, packets, sshsig
from pbem.core.chain import Chain
from pbem.core.packets import Body, DiceMode, Packet, PacketKind, Step, step_hash
from pbem.core.protocol import ENDINGS, EmailGame, Identity, Refused, dice_of, game_bytes
from pbem.core.turn import PacketPlay, drawn_values, reveals

__all__ = ["Draft", "accept", "draft", "ending", "invite"]


def draft(game: EmailGame, me: Identity, side: rules.Side, comment: str = "") -> Draft:
    """The next packet of ``game``, to be written by ``me`` playing ``side``: push commands on
    the draft's own copy of the game (with the packet's dice), then :meth:`Draft.seal`."""
    want = game.expects()
    if want is None or want[0] != side or game.game is None:
        raise Refused(f"it is not the {side} player's packet now")
    kind = want[1]
    if kind == "draw_answer":
        raise Refused("answer the draw offer first (ardennes draw GAME --accept or --decline)")
    reveal: bytes | None = None
    if reveals(game.mode, kind, game.game.state):
        party = game.parties[side]
        secret = _secret(me, game.game_id, game.salt(side), party.version)
        reveal = Chain(secret).link(len(party.revealed) + 1)
    body = _body(game, side, kind, comment, reveal=reveal.hex() if reveal is not None else None)
    dice = dice_of(game.seed_for(body, reveal))
    scratch = rules.Game(game.game.board, game.game.state, dice=dice)
    return Draft(game, me, body, PacketPlay(scratch, game.mode, kind, side))


def _body(
    game: EmailGame, side: rules.Side, kind: PacketKind, comment: str, **more: object
) -> Body:
    """The next packet's body: the game where it stands, the rest in ``more``."""
    assert game.game is not None
    return Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=rules.record.RULES_VERSION,
        game=game.game_id,
        seq=game.seq,
        prev=game.hashes[-1],
        author=side,
        kind=kind,
        turn=game.game.state.turn,
        phase=game.game.state.phase,
        comment=comment,
        **more,  # type: ignore[arg-type]
    )


def ending(
    game: EmailGame,
    me: Identity,
    side: rules.Side,
    kind: PacketKind,
    *,
    accept: bool | None = None,
    comment: str = "",
) -> Packet:
    """A ``resign``, ``draw_offer`` or ``draw_answer`` packet of ``side`` (signed by ``me``),
    checked and applied to ``game`` as the opponent will (protocol section 3): a resignation
    or a draw offer whenever the game is not over, an answer to the other player's offer."""
    if kind not in ENDINGS:
        raise Refused(f"a {kind} packet is not one that ends the game")
    if game.game is None:
        raise Refused("the game has not begun: it is accepted first")
    body = _body(game, side, kind, comment, accept=accept)
    packet = packets.sign(body, me.sign)
    game.receive(packet)
    return packet


@dataclass
class Draft:
    """A packet being written: its commands are tried on a copy of the game."""

    game: EmailGame
    me: Identity
    body: Body
    play: PacketPlay
    steps: list[Step] = field(default_factory=list)

    @property
    def scratch(self) -> rules.Game:
        """The copy of the game the draft plays on (its dice are the packet's)."""
        return self.play.game

    def push(self, cmd: rules.Command) -> rules.Applied | str:
        """Add ``cmd`` if the protocol and the rules allow it; else why not."""
        r = self.play.push(cmd)
        if not isinstance(r, str):
            self.steps.append(Step(command=cmd, hash=step_hash(self.play.game.state_hash())))
        return r

    def ended(self) -> bool:
        """Nothing more goes in this packet: the turn has passed to the other player (or, sealed,
        the drop waits for the reply)."""
        return self.play.ended()

    def complete(self) -> bool:
        """The packet may be sealed now: it has ended, or (sealed) a batch of attacks waits
        for the reply (more attacks may still be added to it)."""
        return self.play.complete()

    def seal(self) -> Packet:
        """Sign the packet and apply it to the game (checked as the opponent will)."""
        why = self.play.end_refusal()
        if why is not None:
            raise Refused(why)
        s = self.play.game.state
        drawn = drawn_values(self.play.game, 0)  # the scratch game's history is the packet's
        body = msgspec.structs.replace(
            self.body, commands=tuple(self.steps), turn=s.turn, phase=s.phase, dice=drawn
        )
        packet = packets.sign(body, self.me.sign)
        self.game.receive(packet)
        return packet


# -- starting a game ---------------------------------------------------------------------------


def _secret(me: Identity, game_id: str, salt: bytes, version: int) -> bytes:
    """``me``'s chain secret for the game (section 4): version 3, from ``me``'s signature of a
    message of its own (:func:`pbem.core.chain.dice_message`, namespace ``ardennes-dice``), so a
    key in ``ssh-agent`` plays; a game begun in version 2, from the raw private key."""
    game = game_bytes(game_id)
    if version == packets.LEGACY:
        raw = me.raw_private
        if raw is None:
            raise Refused(
                "this game began in version 2: its dice chain comes from the private key file "
                "itself, which an agent does not give (use --key FILE)"
            )
        return chain.chain_secret(raw, game, salt)
    message = chain.dice_message(game, salt)
    first = me.sign(message, chain.DICE_NAMESPACE)
    if me.sign(message, chain.DICE_NAMESPACE) != first:
        raise Refused(
            "the key signs the same message two ways: the dice chain needs a deterministic "
            "ed25519 signer (OpenSSH, ssh-agent and this program all are)"
        )
    return chain.signed_secret(sshsig.signature_bytes(first), game, salt)


def _head(me: Identity, game_id: str, salt: bytes = b"") -> str:
    return chain.Chain(_secret(me, game_id, salt, packets.VERSION)).commitment.hex()


def invite(
    me: Identity,
    side: rules.Side,
    scenario: int,
    mode: DiceMode,
    game_id: str,
    board_for: Callable[[int], rules.Board],
    *,
    local_seed: bytes | None = None,
    comment: str = "",
) -> tuple[EmailGame, Packet]:
    """The invitation of a new game (packet 0): ``me`` plays ``side`` of ``scenario`` with
    ``mode`` dice; the game id is 16 random bytes (hex) the caller draws. A local game also
    carries its dice seed (``local_seed``, 32 bytes from the operating system)."""
    body = Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=rules.record.RULES_VERSION,
        game=game_id,
        seq=0,
        prev="",
        author=side,
        kind="invitation",
        turn=1,
        phase="setup_allied",
        scenario=scenario,
        mode=mode,
        key=me.public_line,
        commitment=_head(me, game_id),
        seed=local_seed.hex() if local_seed is not None else None,
        comment=comment,
    )
    packet = packets.sign(body, me.sign)
    return EmailGame.start(packet, board_for), packet


def accept(
    me: Identity,
    invitation: Packet,
    board_for: Callable[[int], rules.Board],
    comment: str = "",
) -> tuple[EmailGame, Packet]:
    """Accept ``invitation`` (checked first): the acceptance (packet 1) pins ``me`` for the
    other side."""
    game = EmailGame.start(invitation, board_for)
    b = invitation.body
    body = Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=rules.record.RULES_VERSION,
        game=b.game,
        seq=1,
        prev=game.hashes[-1],
        author=rules.other_side(b.author),
        kind="acceptance",
        turn=1,
        phase="setup_allied",
        key=me.public_line,
        commitment=_head(me, b.game, bytes.fromhex(game.hashes[0])),
        comment=comment,
    )
    packet = packets.sign(body, me.sign)
    game.receive(packet)
    return game, packet
