"""What the play screen by email reads from the store: the opponent's packets coming in.

``i`` imports them (:mod:`ardennes_tui.screens.import_dialog`); packets stored by another
program (``ardennes import`` or ``orders`` in another terminal) are noticed every
:attr:`IncomingScreen.POLL` seconds and said as after an import (issue 21, item 6). When an
import brought new orders, ``R`` plays them back from where the game was before it
(:mod:`ardennes_tui.screens.playback`; without an import, from the opponent's first command
after our last packet, else the whole game); ``A`` opens the audit of the game
(:mod:`ardennes_tui.screens.audit`). What the opponent wrote in his packets goes on the notice
line (:meth:`IncomingScreen.their_comments`; issue 21, item 2).
"""

from __future__ import annotations

from typing import ClassVar

from ardennes_tui.games.email_session import EmailSession
from ardennes_tui.present import audit_view
from ardennes_tui.rulesets.ao.screens.email_batch import SealedBatchScreen
from pbem.core.errors import PbemError


class IncomingScreen(SealedBatchScreen):
    """The play screen's import, store polling, playback and audit by email (the base of
    :class:`ardennes_tui.rulesets.ao.screens.email_play.EmailPlayScreen`, which sets the
    attributes below and reads the store again, :meth:`reload`)."""

    POLL: ClassVar[float] = 2.0
    """Seconds between two looks at the store for packets stored by another program."""

    session: EmailSession
    _packets_seen: int
    """How many packets the store held at the last look (:meth:`poll_store`)."""
    _commands_seen: int
    """How many commands the stored game held then."""
    imported_from: int | None
    """The number of stored commands before the last import that brought new ones (the
    playback, ``R``, starts there); None: no such import in this session."""

    def reload(self, said: str = "", offer: bool = True) -> None:
        """Read the store again and say ``said`` (the play screen by email's)."""
        raise NotImplementedError

    def _offer_reply(self) -> None:
        """Open the reply dialog when a reply is due (the play screen by email's)."""
        raise NotImplementedError

    def their_comments(self, since: int = 0) -> list[str]:
        """What the opponent wrote in his packets from ``since`` on (``Comment from the
        German player (packet 7): "..."``)."""
        s = self.session
        try:
            ours = s.service.store.meta(s.game_id).our_side
            said = s.service.comments(s.game_id)
        except (PbemError, OSError):
            return []
        return [
            audit_view.comment_line(seq, side, text)
            for seq, side, text in said
            if seq >= since and side != ours
        ]

    def action_import(self) -> None:
        """i: import the opponent's packets (a dialog)."""
        from ardennes_tui.screens.import_dialog import ImportDialog

        self._key()
        before = self._stored_commands()

        def imported(accepted: bool | None) -> None:
            self._imported(accepted, before)

        self.app.push_screen(ImportDialog(self.session.service), imported)

    def _packets(self) -> int:
        """How many packets the store holds for the game (-1: it cannot say)."""
        try:
            return self.session.service.store.count(self.session.game_id)
        except (PbemError, OSError):
            return -1

    def poll_store(self) -> None:
        """Every :attr:`POLL` seconds: when another program stored packets of this game
        (``ardennes import`` or ``orders`` in another terminal, the start screen of another
        window), read the store again and say so, as after an import."""
        n = self._packets()
        if n < 0 or n == self._packets_seen or self.app.screen is not self:
            return
        before = self._packets_seen
        self._packets_seen = n
        if before < 0:
            return
        self._imported(True, self._commands_seen, who="another program")

    def _stored_commands(self) -> int:
        """How many commands the store's game holds (not the draft's)."""
        s = self.session
        try:
            game = s.service.load(s.game_id).game
        except PbemError:
            return 0
        return len(game.history) if game is not None else 0

    def _imported(self, accepted: bool | None, before: int = 0, who: str = "") -> None:
        """After the import dialog (or packets stored by ``who``, another program): new
        orders are offered for playback first (a reply due waits for ``x``, or for the end of
        the playback)."""
        said = "Imported." if accepted else ""
        by = f" by {who}" if who else ""
        if who:
            said = f"Packets stored{by}."
        new = 0
        since = self._packets_seen
        if accepted:
            self.session.service.forget(self.session.game_id)
            new = self._stored_commands() - before
            if new > 0:
                self.imported_from = before
                said = (
                    f"Imported{by} 1 new order: R plays it back."
                    if new == 1
                    else f"Imported{by} {new} new orders: R plays them back."
                )
        self.reload(said, offer=new <= 0)
        if accepted:  # what the opponent wrote stays on the notice line
            self.notice = " ".join(
                x for x in (*self.their_comments(max(since, 0)), self.notice) if x
            )

    def action_playback(self) -> None:
        """R: the game as stored, played back from before the last import of this session,
        else from the opponent's first command after our last packet, else from its start."""
        from ardennes_tui.screens.playback import PlaybackScreen

        self._key()
        s = self.session
        try:
            game = s.service.load(s.game_id).game
        except PbemError as exc:
            self.say(f"No playback: {exc}")
            return
        if game is None or not game.history:
            self.say("Nothing to play back yet")
            return
        since = self.imported_from
        what = " (new since your import)"
        if since is None:
            try:
                since = s.since_our_last_packet()
            except PbemError:
                since = None
            what = " (new since your last packet)"
        title = f"Game {s.short}" + (what if since is not None else "")
        try:
            notes = audit_view.comment_steps(s.service.load(s.game_id))
        except PbemError:
            notes = {}
        self.app.push_screen(
            PlaybackScreen(game, start=since or 0, title=title, since=since, notes=notes),
            lambda _: self._offer_reply(),
        )

    def action_audit(self) -> None:
        """A: the audit of this game (every packet verified again, every roll)."""
        from ardennes_tui.present import game_list
        from ardennes_tui.screens.audit import AuditScreen

        self._key()
        s = self.session
        try:
            verified = audit_view.load(s.game_id, s.service.store)
        except ValueError as exc:
            self.say(f"No audit: {exc}")
            return
        mine = game_list.my_fingerprints(game_list.key_rows())
        self.app.push_screen(AuditScreen(audit_view.view(verified, mine)))
