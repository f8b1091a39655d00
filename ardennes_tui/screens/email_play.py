"""The play screen on a game by email (``ardennes --email GAME``).

The same screen as hot-seat play (:class:`PlayScreen`: the modes, the keys, the panel), but
its game is an :class:`ardennes_tui.games.email_session.EmailSession`'s: when the next packet is
ours every order goes through the packet's draft (the protocol's checks: what we may give, what may
roll; a refusal is one line on the message line, as the engine's are), undo rebuilds the draft
without its last command, and the map shows the draft's copy of the game. The draft is saved
in the store after every order: quitting and opening the game again restores it (the message
line says so, or why a saved draft was set aside). Once the draft is
complete (the turn passes to the opponent, or in sealed mode the attacks are declared and
wait for his reply) ``x`` (or ``e``) twice seals it: stored, then the send screen
(:mod:`ardennes_tui.screens.send`). A sealed-mode reply is a dialog: our standing orders
(:mod:`ardennes_tui.screens.orders`), then sealed and sent. When the next packet is not ours
the game is shown read-only and the message line says who we wait for and since when. What
comes in from the store (``i``, packets stored by another program, ``R``, ``A``, the opponent's
comments) is :mod:`ardennes_tui.screens.email_incoming`'s; what the screen says and asks about
a sealed batch, :mod:`ardennes_tui.screens.email_batch`'s.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import events
from textual.binding import BindingType

import rules.ao
from ardennes_tui.games.email_session import EmailSession, Outgoing, mail_address, mail_text
from ardennes_tui.modes import Mode
from ardennes_tui.present import game_view
from ardennes_tui.present.effects import event_log
from ardennes_tui.screens.email_incoming import IncomingScreen
from ardennes_tui.screens.palette import PaletteCommand
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.bindings import bindings
from ardennes_tui.widgets.map_view import Zoom
from pbem.aoplay import ao_game, ao_side
from pbem.core.errors import PbemError


class EmailPlayScreen(IncomingScreen):
    """Play game ``session`` by email."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *PlayScreen.BINDINGS,
        *bindings("email"),
    ]
    ORDERS_NEVER_ASK = True

    def __init__(
        self,
        session: EmailSession,
        *,
        cursor: rules.HexId | None = None,
        zoom: Zoom = "detail",
        has_smtp: bool = False,
        outgoing: Outgoing | None = None,
    ) -> None:
        super().__init__(session.game, cursor=cursor, zoom=zoom)
        self.session = session
        self.has_smtp = has_smtp
        self.outgoing = outgoing
        """Text to send shown at once (``--email new|accept``: the invitation, the
        acceptance)."""
        self._confirm_send = False
        self._packets_seen = -1
        self._commands_seen = 0
        self._confirm_resign = False
        self._orders_asked = False
        """The standing orders dialog was opened by itself for a sealed batch (only once)."""
        self.imported_from = None

    # -- what changes from hot-seat play ------------------------------------------------------

    def say(self, message: str) -> None:
        """The message line; while the packet is complete it also says how to send it. Once
        the turn has passed to the opponent the mode's hint is his (``German set-up: ... e
        accepts it``): it is not shown as ours."""
        s = self.session
        if s.ended() and s.kind != "reply" and message == self.mode.hint():
            message = "The turn passes to your opponent."
        if s.complete() and not self._confirm_send:
            seq = s.draft.body.seq if s.draft else "?"
            message = f"{message} Packet {seq} complete: x seals and sends it (Backspace: undo)"
        elif s.needs_orders() and "standing orders" not in message:
            message = f"{message} Sealing needs your standing orders: x gives them."
        self.message = message.strip()

    def may_skip(self) -> bool:
        """Only while the packet is being written, and not complete."""
        s = self.session
        return s.draft is not None and not s.complete() and s.kind != "reply"

    def store(self) -> bool:
        """Nothing to write: the packet goes to the store when it is sealed."""
        return True

    def play(self, command: rules.ao.Command) -> rules.ao.Applied | None:
        s = self.session
        if isinstance(command, rules.ao.ResolveAttacks) and s.batch_waits():
            after = "Sealed dice: the attacks are resolved after your opponent's reply."
            self.say(f"{after} {self.batch_hint()}")
            return None
        asked = s.needs_orders()
        r = self.session.push(command)
        if isinstance(r, str):
            self.say(r[:1].upper() + r[1:])
            return None
        self._changed(r.events)
        if self.session.unsaved:
            self.say(self.session.unsaved)
        elif self.session.ended():
            self.say("The turn passes to your opponent.")
        elif self.session.complete():
            self.say("Attacks declared (a declares more; sealed dice: no roll before the reply).")
        if s.needs_orders() and not asked and not self._orders_asked:
            # the first batch of a sealed game: the standing orders it needs, asked at once
            self._orders_asked = True
            self.call_after_refresh(self._batch_orders)
        return r

    def reload(self, said: str = "", offer: bool = True) -> None:
        """Read the store again (after a seal, an import): a new draft or the stored game;
        ``offer``: open the reply dialog at once when a reply is due."""
        try:
            self.session.refresh()
        except PbemError as exc:
            self.say(str(exc))
            return
        self._packets_seen = self._packets()  # what the store holds now is seen
        self._commands_seen = self._stored_commands()
        self._confirm_send = False
        self.game = self.session.game
        self._changed()
        # a saved draft set aside (stale) stays on the notice line until the next order
        self.notice = self.session.notice
        self.say(" ".join(x for x in (said, self.opening()) if x))
        if offer:
            self._offer_reply()

    def opening(self) -> str:
        """What the message line says about the game: whose move, what to do."""
        s = self.session
        if s.draft is None:
            return s.waiting()
        kind = s.kind
        if kind == "reply":
            return "Your reply is due: x gives your standing orders and sends it"
        if kind == "resolution" and s.game.state.roll is not None:
            return f"Your opponent replied. {self.mode.hint()}"
        if kind == "resolution":
            return f"Your opponent replied: resolve the attacks (r). {self.mode.hint()}"
        return f"Your move (packet {s.draft.body.seq}). {self.mode.hint()}"

    def on_mount(self, event: events.Mount | None = None) -> None:
        super().on_mount()  # the play screen's (Textual would call it after this one)
        if event is not None:
            event.prevent_default()
        self._packets_seen = self._packets()
        self._commands_seen = self._stored_commands()
        self.set_interval(self.POLL, self.poll_store)
        # the session's notice, and what the opponent wrote since our last packet
        said = self.their_comments(self.session.our_last_seq() + 1)
        self.notice = " ".join(x for x in (*said, self.session.notice) if x)
        self.say(f"Game {self.session.short} by email. {self.opening()}")
        if self.outgoing is not None:
            out, self.outgoing = self.outgoing, None
            self.call_after_refresh(self._send_screen, out.seq, out.text, out.title)
            return
        self._offer_reply()

    def _key(self) -> Mode:
        self._confirm_send = False
        return super()._key()

    # -- the shared keys ------------------------------------------------------------------------

    def action_end_phase(self) -> None:
        """e: as in hot-seat play; a reply: the same as x. It never seals: once the packet is
        complete (or a sealed batch waits) it says what x does, or what sealing needs."""
        s = self.session
        if s.draft is None:
            self.say(s.waiting())
            return
        if s.kind == "reply":
            self.action_send()
            return
        self._confirm_send = False
        if s.ended():  # never sealed by e: only x seals (e e ends phases, out of habit)
            self._confirm_end = False
            self.say("The turn passes to your opponent.")
            return
        if s.batch_waits():
            self._confirm_end = False
            self.say(f"Declared attacks wait for your opponent's reply. {self.batch_hint()}")
            return
        super().action_end_phase()

    def action_undo(self) -> None:
        """Backspace/U: rebuild the draft without its last command."""
        self._key()
        r = self.session.undo()
        if isinstance(r, str):
            self.say(r)
            return
        self.game = self.session.game
        self._changed()
        self.say(self.session.unsaved or f"Undone: {type(r).__name__}")

    def log_lines(self) -> list[str]:
        """The log of the whole game: the packets stored (the opponent's imported ones too),
        then the packet being written (the map's game is only the draft's copy)."""
        s = self.session
        try:
            stored = s.service.load(s.game_id).game
        except PbemError:
            stored = None
        if stored is None or s.draft is None:
            return event_log(ao_game(stored) if stored is not None else self.game)
        return event_log(ao_game(stored), self.game.events)

    def action_save(self) -> None:
        """s: where the game is (the store holds every sealed packet)."""
        self._key()
        short = self.session.short
        self.say(
            f"Game {short} is in the store (every sealed packet, and the orders of the packet "
            f"being written); ardennes export {short} --record writes the game record"
        )

    # -- the email keys -------------------------------------------------------------------------

    def action_send(self) -> None:
        """x: seal the complete packet (x again) and open the send screen; a reply: the
        standing orders dialog first."""
        s = self.session
        if s.draft is None:
            self.say(s.waiting())
            return
        if s.kind == "reply":
            self._reply_dialog()
            return
        if s.needs_orders():
            self.say(self.batch_hint())
            self._batch_orders()
            return
        if not s.complete():
            self.say(f"Packet {s.draft.body.seq} is not complete: {self.not_complete()}")
            return
        if not self._confirm_send:
            self._confirm_send = True
            said = f'comment: "{s.comment}"' if s.comment else "no comment: m writes one"
            self.say(
                f"Press x again to sign and send packet {s.draft.body.seq} ({said})"
                f"{self.gt1_warning()}"
            )
            return
        self._seal()

    def _seal(self) -> None:
        self._confirm_send = False
        s = self.session
        try:
            seq, sent = s.seal()
        except PbemError as exc:
            self.say(f"Not sealed: {exc}")
            return
        self.reload(f"Packet {seq} sealed and stored.")
        if sent.text and s.service.load(s.game_id).mode != "local":
            self._send_screen(seq, sent.text)

    def _send_screen(self, seq: int, text: str, title: str = "") -> None:
        """The send screen for ``text`` (packet ``seq`` first)."""
        from ardennes_tui.screens.send import SendScreen

        s = self.session
        mailer = None
        if self.has_smtp:

            def mailer(text: str, to: str) -> str:
                return mail_text(s.service, s.game_id, seq, text, to)

        address = mail_address(s.service, s.game_id)
        self.app.push_screen(
            SendScreen(s.game_id, seq, text, mailer=mailer, address=address, title=title)
        )

    def action_comment(self) -> None:
        """m: the comment of the packet being written (a dialog)."""
        from ardennes_tui.screens.comment import CommentDialog

        self._key()
        s = self.session
        if s.draft is None:
            self.say(s.waiting())
            return

        def given(comment: str | None) -> None:
            if comment is None:
                self.say("Comment unchanged")
                return
            trouble = s.set_comment(comment)
            if trouble is not None:
                self.say(trouble)
                return
            self.game = s.game
            self._changed()
            seq = s.draft.body.seq if s.draft is not None else "?"
            self.say(
                f'Packet {seq} says to your opponent: "{comment}"'
                if comment
                else f"Packet {seq} has no comment"
            )

        self.app.push_screen(CommentDialog(s.draft.body.seq, s.comment), given)

    def _offer_reply(self) -> None:
        if self.session.kind == "reply":
            self.call_after_refresh(self._reply_dialog)

    def _reply_dialog(self) -> None:
        from ardennes_tui.screens.orders import OrdersScreen

        if self.session.kind != "reply" or self.app.screen is not self:
            return
        side = ao_side(self.session.draft.body.author if self.session.draft else "german")
        current = self.game.state.combat.orders(side)
        immune = game_view.immune_hexes_held(self.game, side)
        dialog = OrdersScreen(side, immune, current, never_ask=True)
        self.app.push_screen(dialog, self._give_reply)

    def _give_reply(self, command: rules.ao.StandingOrders | None) -> None:
        if command is None:
            self.say("Your reply is due: x gives your standing orders and sends it")
            return
        r = self.session.push(command)
        if isinstance(r, str):
            self.say(f"Not given: {r} (x: try again)")
            self.session.refresh()  # a fresh draft for the next try
            return
        self._seal()

    def palette_commands(self) -> list[PaletteCommand]:
        """As in hot-seat play while it is your move (only the view when it is not), with
        sealing once the packet is complete, and import."""
        s = self.session
        out = super().palette_commands()
        if s.draft is None:
            return [c for c in out if not c.order] + [self._import_command(), *self._endings()]
        if s.kind == "reply":
            title = "Give your standing orders and send the reply"
            out.insert(0, PaletteCommand(title, "x", self._reply_dialog, True))
        elif s.complete():
            title = f"Seal and send packet {s.draft.body.seq}"
            out.insert(0, PaletteCommand(title, "x x", self._seal, True))
        title = f"A comment to your opponent in packet {s.draft.body.seq}"
        out.append(PaletteCommand(title, "m", self.action_comment))
        return [*out, self._import_command(), *self._endings()]

    def _import_command(self) -> PaletteCommand:
        return PaletteCommand("Import your opponent's packets", "i", self.action_import)

    def _endings(self) -> list[PaletteCommand]:
        """Resign, offer a draw, or answer the opponent's offer (``ardennes resign``,
        ``ardennes draw``); resigning asks to be chosen twice."""
        st = self.session.status()
        if st.verdict is not None or st.state == "equivocation":
            return []
        if st.expects == "draw_answer" and st.ours:
            return [
                PaletteCommand("Accept the draw offered", "", partial(self._end, "accept")),
                PaletteCommand("Decline the draw offered", "", partial(self._end, "decline")),
            ]
        out = [
            PaletteCommand("Resign the game (choose it twice)", "", partial(self._end, "resign"))
        ]
        if st.expects != "draw_answer":
            out.append(PaletteCommand("Offer a draw", "", partial(self._end, "offer")))
        return out

    def _end(self, action: str) -> None:
        if action == "resign" and not self._confirm_resign:
            self._confirm_resign = True
            self.say("Resign the game? Choose it again in the palette (Ctrl+P) to resign.")
            return
        self._confirm_resign = False
        try:
            seq, sent = self.session.end(action)
        except PbemError as exc:
            self.say(f"Not sent: {exc}")
            return
        self.reload(f"Packet {seq} ({action}) signed and stored.")
        if sent.text and self.session.service.load(self.session.game_id).mode != "local":
            self._send_screen(seq, sent.text)
