"""What the play screen by email says and asks about a sealed batch (issue 21, item 1).

In a sealed game the attacks a player declares wait for the opponent's reply before their
dice, and his decisions during them follow his standing orders: a batch cannot be sealed
without them (``docs/pbem-protocol.md`` section 4, :meth:`pbem.core.turn.PacketPlay.
end_refusal`). So the first attack declared without standing orders opens the standing orders
dialog by itself, the orders proposed (:data:`ardennes_tui.screens.orders.PROPOSED`) and why
(:data:`ardennes_tui.screens.orders.SEALED_WHY`); until they are given, ``x``, ``r`` and ``e``
say what blocks sealing (:meth:`SealedBatchScreen.batch_hint`), and ``x`` names what any packet
still lacks (:meth:`SealedBatchScreen.not_complete`). On Game-Turn 1 a batch that leaves the
AO-4.2h* obligations unmet is sealed only after a warning (:meth:`SealedBatchScreen.
gt1_warning`).
"""

from __future__ import annotations

import rules.ao
from ardennes_tui.games.email_session import EmailSession
from ardennes_tui.present import game_view
from ardennes_tui.screens.play_screen import PlayScreen
from pbem.aoplay import ao_side


class SealedBatchScreen(PlayScreen):
    """The play screen's sealed-batch messages and dialog (a base of
    :class:`ardennes_tui.screens.email_play.EmailPlayScreen`, which sets :attr:`session`)."""

    session: EmailSession
    _orders_asked: bool

    def batch_hint(self) -> str:
        """What sealing the waiting batch needs, or how to seal it (sealed dice)."""
        s = self.session
        seq = s.draft.body.seq if s.draft is not None else "?"
        if s.needs_orders():
            return (
                "Give your standing orders first (x): in sealed games your decisions during "
                "the batch follow them."
            )
        if s.complete():
            return "Declare more with a."
        why = s.missing()
        return f"Packet {seq} cannot be sent yet: {why}." if why else ""

    def _batch_orders(self) -> None:
        """The standing orders dialog for a sealed batch: the defaults proposed and why they
        are needed; given, they go in the packet (the batch may then be sealed)."""
        from ardennes_tui.screens.orders import PROPOSED, SEALED_WHY, OrdersScreen

        s = self.session
        if s.draft is None or self.app.screen is not self or not s.needs_orders():
            return
        side = ao_side(s.draft.body.author)
        immune = game_view.immune_hexes_held(self.game, side)
        dialog = OrdersScreen(side, immune, PROPOSED, never_ask=True, why=SEALED_WHY)
        self.app.push_screen(dialog, self._batch_orders_given)

    def _batch_orders_given(self, command: rules.ao.StandingOrders | None) -> None:
        if command is None:
            self.say(f"No standing orders given. {self.batch_hint()}")
            return
        self._give_orders(command)

    def not_complete(self) -> str:
        """What the packet being written still lacks, in the protocol's words where it says
        more than "play on" (:meth:`EmailSession.missing`)."""
        s = self.session
        why = s.missing()
        state = self.game.state
        if why is None or why.startswith("the packet ends before"):
            now = f"now the {state.side.capitalize()} {game_view.PHASE_NAMES[state.phase]} Phase"
            until = "the turn passes to your opponent"
            if s.sealed:
                until += " or declared attacks wait for his reply"
            return f"play on until {until} ({now})"
        return why

    def gt1_warning(self) -> str:
        """Before a sealed batch of Game-Turn 1 goes out with the AO-4.2h* obligations unmet:
        what is left, and that another batch (two more mailings) follows; else ""."""
        s = self.session
        de, us = s.gt1_unmet()
        if not s.batch_waits() or (de, us) == (0, 0):
            return ""
        return (
            f". Careful: Game-Turn 1 obligations unmet (AO-4.2h*): {de} German units still "
            f"to attack, {us} US units still to be attacked. Declare them now (a), or another "
            "batch follows this one: two more mailings"
        )
