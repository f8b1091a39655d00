"""One packet's worth of play: which commands its author may give, what may roll, where it ends.

``docs/pbem-protocol.md`` sections 3 and 4. The same :class:`PacketPlay` checks a packet we
receive (:mod:`pbem.core.protocol`) and the packet a player is writing (:class:`Draft`), so what we
write is what the opponent accepts. It knows the game only through its ruleset
(:class:`rules.ruleset.Ruleset`): a packet holds only commands its author may give, the acting
side's (the ruleset's options), and standing orders for his own side
(:meth:`~rules.ruleset.Ruleset.orders_side`) fit for email play
(:meth:`~rules.ruleset.Ruleset.orders_refusal`: the opponent's decisions during a batch
follow them).

In sealed mode a *batch* is what waits for the opponent's reply before its dice
(:meth:`~rules.ruleset.Ruleset.dice_wait` kind ``batch``: the AO's declared attacks or its
paratroop drop, Tiny's strike). A batch is resolved only in a ``resolution`` packet, first
(by its ``resolver`` command) and to its end; the only other die is a roll of the acting
player's own (kind ``own``: the AO's CRT switch, the ``Roll`` at the start of the German's
``orders`` packet, drawn from a link he reveals there). A packet ends where the turn passes to
the other player; in sealed mode the mover may also send it once a batch waits for the reply
(:meth:`PacketPlay.complete`), and must when he can add nothing to it (``extendable`` False).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core import dicelist
from pbem.core.dicelist import Die
from pbem.core.packets import DiceMode, PacketKind
from rules.game import Game
from rules.rejection import Rejection
from rules.ruleset import DiceWait

AnyGame = Game[Any, Any, Any, Any, Any, Any, Any, Any]
"""A game of any ruleset."""


def dice_wait(game: AnyGame, state: object | None = None) -> DiceWait:
    """The dice ``state`` (default: the game's) waits on, by its ruleset."""
    return game.ruleset.dice_wait(game.board, game.state if state is None else state)


def acting_side(game: AnyGame) -> str | None:
    """The side that gives the next command (None once the game is over)."""
    side: str | None = game.ruleset.acting(game.board, game.state)
    return side


def other_side(game: AnyGame, side: str) -> str:
    """The other of the ruleset's two sides."""
    a, b = game.ruleset.sides
    return b if side == a else a


def awaits_reply(game: AnyGame) -> bool:
    """A batch waits for the reply (sealed mode): the declared attacks, the drop's survival
    die, Tiny's strike."""
    return dice_wait(game).kind == "batch"


def reveals(mode: DiceMode, kind: PacketKind, game: AnyGame) -> bool:
    """Whether a ``kind`` packet that begins where ``game`` stands reveals its author's next
    link: every packet in open mode; in sealed mode the reply, the resolution, and the
    ``orders`` packet that opens with a roll of its author's own (protocol section 4)."""
    if mode == "open":
        return True
    if mode != "sealed":
        return False
    if kind in ("reply", "resolution"):
        return True
    return kind == "orders" and dice_wait(game).kind == "own"


def batch_command(game: AnyGame) -> Any:
    """The command that resolves the batch waiting in the game (the first command of a sealed
    resolution): the ruleset's ``resolver``."""
    return dice_wait(game).resolver


@dataclass
class PacketPlay:
    """The commands of one packet being pushed on ``game`` (whose dice are the packet's)."""

    game: AnyGame
    mode: DiceMode
    kind: PacketKind
    author: str
    resolved: bool = False
    finished: bool = False

    def refusal(self, cmd: Any) -> str | None:
        """Why the author may not give ``cmd`` here, before trying it."""
        rs = self.game.ruleset
        sealed = self.mode == "sealed"
        sealed_batch = sealed and self.kind == "resolution"
        orders = rs.orders_side(cmd)
        if orders is not None:
            if orders != self.author:
                return f"the {self.author} player gives standing orders for the {orders}"
            why: str | None = rs.orders_refusal(cmd)
            if why is not None:
                return why
            if sealed_batch and not self.batch_done():
                return "standing orders are set before the batch, not while it resolves"
            return None
        if self.kind == "reply":
            return "a reply holds only standing orders"
        acting = acting_side(self.game)
        if acting != self.author:
            return f"it is the {acting} player's turn" if acting else "the game is over"
        wait = dice_wait(self.game)
        if sealed_batch and not self.batch_done():
            if self.resolved or wait.kind != "batch" or type(cmd) is not type(wait.resolver):
                return "a resolution resolves its batch first, by standing orders, and nothing else"
            return None
        if not sealed:
            return None
        if wait.kind == "batch" and type(cmd) is type(wait.resolver):
            return "a batch is resolved only after the opponent's reply: send the packet now"
        return None

    def batch_done(self) -> bool:
        """The resolution's batch has been resolved to its end (sealed mode): after its
        resolving command nothing was left waiting for dice, being resolved or waiting for a
        decision (a new batch declared afterwards does not undo that)."""
        return self.finished

    def push(self, cmd: Any) -> Any:
        """Push ``cmd`` if the protocol and the rules allow it; else why not (and nothing
        changed). Accepted: the ruleset's applied result."""
        why = self.refusal(cmd)
        if why is not None:
            return why
        rs = self.game.ruleset
        before = len(self.game.history)
        drawn = rs.dice_drawn(self.game.state)
        batch = self.mode == "sealed" and self.kind == "resolution" and not self.resolved
        wait = dice_wait(self.game)
        own = wait.kind == "own" and type(cmd) is type(wait.resolver)
        r = self.game.push(cmd)
        if isinstance(r, Rejection):
            return f"refused: {r.message}"
        rolled = rs.dice_drawn(self.game.state) != drawn
        if rolled and self.mode == "sealed" and not (batch or own):
            self.game.truncate(before)
            return "rolls a die outside a resolved batch"
        if batch:
            self.resolved = True
        s = self.game.state
        if self.resolved and not rs.batch_open(s) and dice_wait(self.game).kind == "none":
            self.finished = True
        return r

    def ended(self) -> bool:
        """Nothing more may go in the packet: the turn has passed to the other player, the game
        is over, or (sealed) a batch waits for the reply that the mover cannot add to (the AO's
        drop, Tiny's strike)."""
        if self.game.outcome() is not None:
            return True
        if self.kind == "reply":
            return False
        wait = dice_wait(self.game)
        if self.mode == "sealed" and wait.kind == "batch" and self._may_send():
            return not wait.extendable
        return acting_side(self.game) != self.author

    def _may_send(self) -> bool:
        return self.kind != "resolution" or self.batch_done()

    def complete(self) -> bool:
        """The packet may be sealed now (:meth:`end_refusal` is None): it has ended, or (sealed)
        a batch waits for the reply (the mover may still add attacks to it)."""
        return self.end_refusal() is None

    def end_refusal(self) -> str | None:
        """Why the packet may not end here, else None."""
        s = self.game.state
        sealed = self.mode == "sealed"
        if sealed and self.kind == "resolution" and not self.batch_done():
            return "a resolution resolves its batch to its end"
        if sealed and not self.game.ruleset.orders_given(s, self.author):
            if self.kind == "reply":
                return "a reply gives the defender's standing orders"
            if awaits_reply(self.game):
                return (
                    "give your standing orders before sending attacks: in sealed games your "
                    "decisions during a batch follow them"
                )
        if self.kind == "reply" or self.ended():
            return None
        if sealed and awaits_reply(self.game) and self._may_send():
            return None
        return "the packet ends before the turn passes to the other player"


def drawn_dice(game: AnyGame, start: int) -> tuple[Die, ...]:
    """(faces, value) of the dice drawn by the commands of ``game``'s history from ``start``
    on, in order: what a packet's ``dice`` lists (section 3, :mod:`pbem.core.dicelist`)."""
    return dicelist.dice_of(e for step in game.history[start:] for e in step.events)
