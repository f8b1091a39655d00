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

from dataclasses import dataclass, field
from typing import Any

import msgspec

from pbem.core import chain, dicelist, packets, sshsig
from pbem.core.chain import Chain
from pbem.core.packets import Body, DiceMode, Packet, PacketKind, Step, step_hash
from pbem.core.protocol import (
    ENDINGS,
    BoardFor,
    EmailGame,
    Identity,
    Refused,
    dice_of,
    game_bytes,
)
from pbem.core.turn import AnyGame, PacketPlay, drawn_dice, reveals
from pbem.core.typed import ruleset_of
from rules import registry

__all__ = ["Draft", "accept", "draft", "ending", "invite"]


def draft(game: EmailGame, me: Identity, side: str, comment: str = "") -> Draft:
    """The next packet of ``game``, to be written by ``me`` playing ``side``: push commands on
    the draft's own copy of the game (with the packet's dice), then :meth:`Draft.seal`."""
    want = game.expects()
    if want is None or want[0] != side or game.game is None:
        raise Refused(f"it is not the {side} player's packet now")
    kind = want[1]
    if kind == "draw_answer":
        raise Refused("answer the draw offer first (ardennes draw GAME --accept or --decline)")
    reveal: bytes | None = None
    if reveals(game.mode, kind, game.game):
        party = game.parties[side]
        secret = _secret(me, game.game_id, game.salt(side), party.version)
        reveal = Chain(secret).link(len(party.revealed) + 1)
    body = _body(game, side, kind, comment, reveal=reveal.hex() if reveal is not None else None)
    dice = dice_of(game.seed_for(body, reveal))
    scratch = game.game_class(game.game.board, game.game.state, dice=dice, ruleset=game.ruleset)
    return Draft(game, me, body, PacketPlay(scratch, game.mode, kind, side))


def _body(game: EmailGame, side: str, kind: PacketKind, comment: str, **more: object) -> Body[Any]:
    """The next packet's body: the game where it stands, in the version of the packet before
    (version 4 from the first die not a d6 on: :meth:`Draft.seal`), the rest in ``more``."""
    assert game.game is not None
    turn, phase = game.ruleset.where(game.game.state)
    return Body(
        format=packets.FORMAT,
        version=dicelist.version_for((), game.packets[-1].version),
        rules=game.ruleset.version,
        game=game.game_id,
        seq=game.seq,
        prev=game.hashes[-1],
        author=side,
        kind=kind,
        turn=turn,
        phase=phase,
        comment=comment,
        **more,  # type: ignore[arg-type]
    )


def ending(
    game: EmailGame,
    me: Identity,
    side: str,
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
    body: Body[Any]
    play: PacketPlay
    steps: list[Step[Any]] = field(default_factory=list)

    @property
    def scratch(self) -> AnyGame:
        """The copy of the game the draft plays on (its dice are the packet's)."""
        return self.play.game

    def push(self, cmd: Any) -> Any:
        """Add ``cmd`` if the protocol and the rules allow it (the ruleset's applied result);
        else why not (a string)."""
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
        turn, phase = self.game.ruleset.where(self.play.game.state)
        drawn = drawn_dice(self.play.game, 0)  # the scratch game's history is the packet's
        version = dicelist.version_for(drawn, self.game.packets[-1].version)
        body = msgspec.structs.replace(
            self.body,
            version=version,
            commands=tuple(self.steps),
            turn=turn,
            phase=phase,
            dice=dicelist.spell(drawn, version),
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
    side: str,
    scenario: int,
    mode: DiceMode,
    game_id: str,
    board_for: BoardFor,
    *,
    local_seed: bytes | None = None,
    comment: str = "",
    ruleset: str = packets.DEFAULT_RULESET,
) -> tuple[EmailGame, Packet]:
    """The invitation of a new game (packet 0): ``me`` plays ``side`` of ``scenario`` of
    ``ruleset`` (an id of :mod:`rules.registry`; the AO's is left out of the packet) with
    ``mode`` dice; the game id is 16 random bytes (hex) the caller draws. A local game also
    carries its dice seed (``local_seed``, 32 bytes from the operating system)."""
    try:
        rs = registry.get(ruleset)
    except KeyError:
        have = ", ".join(registry.ids())
        raise Refused(f"no ruleset {ruleset!r} (this program has {have})") from None
    turn, phase = rs.where(rs.new_game(board_for(scenario)))
    body: Body[Any] = Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=rs.version,
        game=game_id,
        seq=0,
        prev="",
        author=side,
        kind="invitation",
        turn=turn,
        phase=phase,
        scenario=scenario,
        ruleset=None if ruleset == packets.DEFAULT_RULESET else ruleset,
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
    board_for: BoardFor,
    comment: str = "",
) -> tuple[EmailGame, Packet]:
    """Accept ``invitation`` (checked first): the acceptance (packet 1) pins ``me`` for the
    other side."""
    game = EmailGame.start(invitation, board_for)
    b = invitation.body
    turn, phase = game.start_where
    body: Body[Any] = Body(
        format=packets.FORMAT,
        version=packets.VERSION,
        rules=ruleset_of(b).version,
        game=b.game,
        seq=1,
        prev=game.hashes[-1],
        author=game.other(b.author),
        kind="acceptance",
        turn=turn,
        phase=phase,
        key=me.public_line,
        commitment=_head(me, b.game, bytes.fromhex(game.hashes[0])),
        comment=comment,
    )
    packet = packets.sign(body, me.sign)
    game.receive(packet)
    return game, packet
