"""One packet's worth of play: which commands its author may give, what may roll, where it ends.

``docs/pbem-protocol.md`` section 3. The same :class:`PacketPlay` checks a packet we receive
(:mod:`pbem.protocol`) and the packet a player is writing (:class:`Draft`), so what we write is
what the opponent accepts. A packet holds only commands its author may give: the acting side's
(:func:`rules.acting_side`), and standing orders for his own side that never ``ask`` (the
opponent's decisions during a batch follow them). In sealed mode a batch is resolved only in a
``resolution`` packet, once, and nothing else rolls outside one but the rolls no decision can
influence (the CRT switch at the start of a Game-Turn, the paradrop). A packet ends where the
turn passes to the other player.
"""

from __future__ import annotations

from dataclasses import dataclass

import rules
from pbem.packets import DiceMode, PacketKind

FREE_ROLLS = (rules.EndPhase, rules.Drop)
"""Commands that may roll outside a resolved batch (sealed mode): the CRT switch (AO-10.3a)
at the start of a Game-Turn, the paradrop (AO-15.b)."""


def awaits_reply(s: rules.GameState) -> bool:
    """Attacks are declared and nothing is being resolved: the batch waits for the reply."""
    return s.phase == "combat" and bool(s.combat.declared) and s.combat.current is None


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
        sealed_batch = self.mode == "sealed" and self.kind == "resolution"
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
        if (
            sealed_batch
            and not self.batch_done()
            and (not isinstance(cmd, rules.ResolveAttacks) or self.resolved)
        ):
            return "a resolution resolves its batch first, by standing orders, and nothing else"
        if (
            self.mode == "sealed"
            and isinstance(cmd, rules.ResolveAttacks)
            and (self.kind != "resolution" or self.resolved)
        ):
            return "a batch is resolved only after the opponent's reply"
        return None

    def batch_done(self) -> bool:
        """The resolution's batch has been resolved to its end (sealed mode): after its
        ``ResolveAttacks`` nothing was left declared, being resolved or waiting for a decision
        (a new batch declared afterwards does not undo that)."""
        return self.finished

    def push(self, cmd: rules.Command) -> rules.Applied | str:
        """Push ``cmd`` if the protocol and the rules allow it; else why not (and nothing
        changed)."""
        why = self.refusal(cmd)
        if why is not None:
            return why
        before = len(self.game.history)
        drawn = self.game.state.dice_drawn
        r = self.game.push(cmd)
        if isinstance(r, rules.Rejection):
            return f"refused: {r.message}"
        rolled = self.game.state.dice_drawn != drawn
        sealed_roll = self.mode == "sealed" and self.kind != "resolution"
        if rolled and sealed_roll and not isinstance(cmd, FREE_ROLLS):
            self.game.truncate(before)
            return "rolls a die outside a resolved batch"
        if isinstance(cmd, rules.ResolveAttacks):
            self.resolved = True
        c = self.game.state.combat
        if self.resolved and c.current is None and c.pending is None and not c.declared:
            self.finished = True
        return r

    def ended(self) -> bool:
        """The turn has passed to the other player (or the game is over)."""
        s = self.game.state
        if s.phase == "game_over":
            return True
        if self.kind == "reply":
            return False
        if self.mode == "sealed" and awaits_reply(s):
            return self.kind != "resolution" or self.resolved
        return rules.acting_side(s) != self.author

    def end_refusal(self) -> str | None:
        """Why the packet may not end here, else None."""
        s = self.game.state
        if self.mode == "sealed" and self.kind == "resolution" and not self.batch_done():
            return "a resolution resolves the declared attacks to their end"
        if self.mode == "sealed" and s.combat.orders(self.author) is None:
            if self.kind == "reply":
                return "a reply gives the defender's standing orders"
            if awaits_reply(s):
                return (
                    "give your standing orders before sending attacks: in sealed games your "
                    "decisions during a batch follow them"
                )
        if self.kind != "reply" and not self.ended():
            return "the packet ends before the turn passes to the other player"
        return None
