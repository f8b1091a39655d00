"""One packet's worth of play: which commands its author may give, what may roll, where it ends.

``docs/pbem-protocol.md`` sections 3 and 4. The same :class:`PacketPlay` checks a packet we
receive (:mod:`pbem.core.protocol`) and the packet a player is writing (:class:`Draft`), so what we
write is what the opponent accepts. A packet holds only commands its author may give: the
acting side's (:func:`rules.acting_side`), and standing orders for his own side that never
``ask`` (the opponent's decisions during a batch follow them).

In sealed mode a *batch* is what waits for the opponent's reply before its dice: the declared
attacks of a Combat Phase, or the paratroop drop (its hex named, its survival die due). A
batch is resolved only in a ``resolution`` packet, first and to its end; the only other die
is the CRT switch (``Roll`` at the start of the German's ``orders`` packet, drawn from a link
he reveals there). A packet ends where the turn passes to the other player; in sealed mode the
mover may also send it once a batch waits for the reply (:meth:`PacketPlay.complete`).
"""

from __future__ import annotations

from dataclasses import dataclass

import rules
from pbem.core.packets import DiceMode, PacketKind


def awaits_reply(s: rules.GameState) -> bool:
    """A batch waits for the reply (sealed mode): attacks are declared and nothing is being
    resolved, or the paratroop drop's survival die is due."""
    if s.roll is not None:
        return s.roll.purpose == "paradrop"
    return s.phase == "combat" and bool(s.combat.declared) and s.combat.current is None


def reveals(mode: DiceMode, kind: PacketKind, start: rules.GameState) -> bool:
    """Whether a ``kind`` packet that begins at ``start`` reveals its author's next link:
    every packet in open mode; in sealed mode the reply, the resolution, and the ``orders``
    packet that opens with the CRT switch die (protocol section 4)."""
    if mode == "open":
        return True
    if mode != "sealed":
        return False
    if kind in ("reply", "resolution"):
        return True
    return kind == "orders" and start.roll is not None and start.roll.purpose == "crt_switch"


def batch_command(s: rules.GameState) -> rules.Command:
    """The command that resolves the batch waiting in ``s``: the drop's ``Roll`` or
    ``ResolveAttacks`` (the first command of a sealed resolution)."""
    return rules.Roll() if s.roll is not None else rules.ResolveAttacks()


@dataclass
class PacketPlay:
    """The commands of one packet being pushed on ``game`` (whose dice are the packet's)."""

    game: rules.Game
    mode: DiceMode
    kind: PacketKind
    author: rules.Side
    resolved: bool = False
    finished: bool = False

    def refusal(self, cmd: rules.Command) -> str | None:
        """Why the author may not give ``cmd`` here, before trying it."""
        s = self.game.state
        sealed = self.mode == "sealed"
        sealed_batch = sealed and self.kind == "resolution"
        if isinstance(cmd, rules.StandingOrders):
            if cmd.side != self.author:
                return f"the {self.author} player gives standing orders for the {cmd.side}"
            if "ask" in (cmd.retreat, cmd.losses, cmd.advance) or cmd.clear:
                return "email games need standing orders that never ask (and are never cleared)"
            if sealed_batch and not self.batch_done():
                return "standing orders are set before the batch, not while it resolves"
            return None
        if self.kind == "reply":
            return "a reply holds only standing orders"
        acting = rules.acting_side(s)
        if acting != self.author:
            return f"it is the {acting} player's turn" if acting else "the game is over"
        if sealed_batch and not self.batch_done():
            if self.resolved or type(cmd) is not type(batch_command(s)):
                return "a resolution resolves its batch first, by standing orders, and nothing else"
            return None
        if not sealed:
            return None
        if isinstance(cmd, rules.ResolveAttacks) or (
            isinstance(cmd, rules.Roll) and s.roll is not None and s.roll.purpose == "paradrop"
        ):
            return "a batch is resolved only after the opponent's reply: send the packet now"
        return None

    def batch_done(self) -> bool:
        """The resolution's batch has been resolved to its end (sealed mode): after its
        ``ResolveAttacks`` (or the drop's ``Roll``) nothing was left declared, being resolved
        or waiting for a decision (a new batch declared afterwards does not undo that)."""
        return self.finished

    def push(self, cmd: rules.Command) -> rules.Applied | str:
        """Push ``cmd`` if the protocol and the rules allow it; else why not (and nothing
        changed)."""
        why = self.refusal(cmd)
        if why is not None:
            return why
        before = len(self.game.history)
        s = self.game.state
        batch = self.mode == "sealed" and self.kind == "resolution" and not self.resolved
        switch = isinstance(cmd, rules.Roll) and s.roll is not None
        switch = switch and s.roll is not None and s.roll.purpose == "crt_switch"
        r = self.game.push(cmd)
        if isinstance(r, rules.Rejection):
            return f"refused: {r.message}"
        rolled = self.game.state.dice_drawn != s.dice_drawn
        if rolled and self.mode == "sealed" and not (batch or switch):
            self.game.truncate(before)
            return "rolls a die outside a resolved batch"
        if batch:
            self.resolved = True
        c = self.game.state.combat
        done = c.current is None and c.pending is None and not c.declared
        if self.resolved and done and self.game.state.roll is None:
            self.finished = True
        return r

    def ended(self) -> bool:
        """Nothing more may go in the packet: the turn has passed to the other player, the game
        is over, or (sealed) the drop waits for the reply."""
        s = self.game.state
        if s.phase == "game_over":
            return True
        if self.kind == "reply":
            return False
        if self.mode == "sealed" and awaits_reply(s) and self._may_send():
            return s.roll is not None
        return rules.acting_side(s) != self.author

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
        if sealed and s.combat.orders(self.author) is None:
            if self.kind == "reply":
                return "a reply gives the defender's standing orders"
            if awaits_reply(s):
                return (
                    "give your standing orders before sending attacks: in sealed games your "
                    "decisions during a batch follow them"
                )
        if self.kind == "reply" or self.ended():
            return None
        if sealed and awaits_reply(s) and self._may_send():
            return None
        return "the packet ends before the turn passes to the other player"


def drawn_values(game: rules.Game, start: int) -> str:
    """The values of the dice drawn by the commands of ``game``'s history from ``start`` on,
    in order: a version 3 packet's ``dice`` (section 3)."""
    return "".join(
        str(e.value)
        for step in game.history[start:]
        for e in step.events
        if isinstance(e, rules.DieRoll)
    )
