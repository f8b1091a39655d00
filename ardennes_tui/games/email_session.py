"""A game by email as the app plays it (``ardennes --email GAME``); no Textual.

An :class:`EmailSession` joins one game of the store (:class:`pbem.games.Service`) and the
player's key. When the next packet is ours it holds its :class:`pbem.core.authoring.Draft`: the play
screen pushes every order through :meth:`push` (the protocol's own checks, then the rules'),
shows :attr:`game` (the draft's scratch copy) and seals the packet with :meth:`seal` once it
has :meth:`ended`. Undo rebuilds the draft from the start minus its last command (never a die
roll: the dice of a packet are fixed by its place in the chain). After every order and undo the
draft's commands are saved in the store (:mod:`pbem.drafts`), and :meth:`refresh` (the session
opening) pushes them again onto a fresh draft: quitting mid-packet loses nothing; a saved draft
that no longer applies is set aside, and :attr:`notice` says so in one line. When the next
packet is not ours the session shows the game as the store holds it, read-only, and
:meth:`status` says who we wait for and since when.

    session = EmailSession(Service(Store()), game_id, me)
    session.push(rules.ao.EndPhase())         # Applied, or why not (one line)
    if session.ended():
        sent = session.seal()              # stored; sent.text is the armoured text to send
        path = save_text(sent.text, game_id, seq, Path.cwd())
"""

from __future__ import annotations

import email.utils
from pathlib import Path
from typing import NamedTuple

import rules.ao
from pbem import addresses, config, drafts, endings, mail
from pbem.aoplay import ao_game, ao_side
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.packets import MAX_COMMENT
from pbem.core.protocol import Identity
from pbem.core.turn import awaits_reply
from pbem.cover import mail_cover
from pbem.drafts import SavedDraft
from pbem.games import Sent, Service, Status

__all__ = ["EmailSession", "Outgoing", "mail_address", "mail_text", "save_text"]


class Outgoing(NamedTuple):
    """Armoured text stored and yet to send, for the send screen: packet ``seq``'s (the first
    one in ``text``), ``title`` what the screen says it is."""

    seq: int
    text: str
    title: str


class EmailSession:
    """Game ``game_id`` of ``service``'s store, played with the key ``me`` (already checked
    against the key pinned for our side)."""

    def __init__(self, service: Service, game_id: str, me: Identity) -> None:
        self.service = service
        self.game_id = game_id
        self.me = me
        self.draft: Draft | None = None
        """The next packet while it is ours to write (None: not our move, or over)."""
        self.notice = ""
        """A line to show on opening: what the last :meth:`refresh` did with a saved draft
        (or "")."""
        self.unsaved = ""
        """Why the draft's last change is not saved in the store (one line, or "")."""
        self._saving = True
        self.refresh()

    # -- where the game stands ---------------------------------------------------------------

    @property
    def short(self) -> str:
        return self.game_id[:8]

    def status(self) -> Status:
        return self.service.status(self.game_id)

    def refresh(self) -> str:
        """Read the store again: a new draft when the next packet is ours (with the commands
        of the draft saved for it pushed again), else none; the :attr:`notice`."""
        self.service.forget(self.game_id)
        st = self.status()
        self.draft = None
        if st.ours and st.state != "equivocation" and st.expects != "draw_answer":
            self.draft = self.service.draft(self.game_id, self.me)
        self.notice = self._restore()
        return self.notice

    def _restore(self) -> str:
        """Push the saved draft's commands onto :attr:`draft` (a fresh one): one line saying
        so, or why it no longer applies (then it is set aside, never deleted); "" for none."""
        try:
            saved = drafts.load(self.service.store, self.game_id)
        except PbemError as exc:
            return self._set_aside("", str(exc))
        if saved is None:
            return ""
        where = f"packet {saved.seq}"
        if self.draft is None:
            stored = saved.seq < self.seq
            why = f"packet {saved.seq} was stored meanwhile" if stored else "not your move"
            return self._set_aside(where, why)
        why = saved.stale_for(self.draft)
        if why:
            return self._set_aside(where, why)
        draft = self.service.draft(self.game_id, self.me, saved.comment)
        for i, cmd in enumerate(saved.commands):
            if draft.ended() and draft.body.kind != "reply":
                return self._set_aside(where, f"the packet is complete before its command {i}")
            r = draft.push(cmd)
            if isinstance(r, str):
                return self._set_aside(where, f"its command {i} is refused: {r}")
        self.draft = draft
        n = len(saved.commands)
        if n == 0:
            return ""
        return f"Restored your {n} unsent order{'s' if n != 1 else ''} of packet {saved.seq}."

    def _set_aside(self, where: str, why: str) -> str:
        what = f"The saved orders of {where}" if where else "The saved orders"
        try:
            name = drafts.set_aside(self.service.store, self.game_id)
        except PbemError as exc:
            self._saving = False  # never over a draft that could not be kept aside
            self.unsaved = "Not saved: a saved draft that no longer applies is in the way"
            return f"{what} no longer apply ({why}) and stay in the store ({exc}): not saving"
        return f"{what} no longer apply ({why}): kept aside in the store as {name}."

    def _save(self) -> None:
        """Save the draft's commands in the store (one line in :attr:`unsaved` if not)."""
        if self.draft is None or not self._saving:
            return
        try:
            drafts.save(self.service.store, self.game_id, SavedDraft.of(self.draft))
        except PbemError as exc:
            self.unsaved = f"Not saved (quitting would lose this packet's orders): {exc}"
            return
        self.unsaved = ""

    @property
    def game(self) -> rules.ao.Game:
        """What the map shows: the draft's scratch copy, else the game as stored."""
        if self.draft is not None:
            return ao_game(self.draft.scratch)
        game = self.service.load(self.game_id).game
        if game is None:  # not accepted yet: the scenario's start
            board = self.service.board(self.service.load(self.game_id).scenario)
            return rules.ao.Game.new(board)
        return ao_game(game)

    @property
    def kind(self) -> str | None:
        """The kind of packet being written (``orders``, ``reply``, ``resolution``)."""
        return self.draft.body.kind if self.draft is not None else None

    @property
    def seq(self) -> int:
        """The sequence number of the next packet."""
        return self.service.store.count(self.game_id)

    def our_last_seq(self) -> int:
        """The sequence number of our last stored packet (-1: none, or the store cannot
        say)."""
        try:
            email = self.service.load(self.game_id)
            ours = self.service.store.meta(self.game_id).our_side
        except PbemError:
            return -1
        return max((p.body.seq for p in email.packets if p.body.author == ours), default=-1)

    def since_our_last_packet(self) -> int | None:
        """How many commands of the stored game came before the opponent's packets that
        followed our last one (where a playback of his new orders starts); None when he has
        sent no command since, or both sides are ours (a local game)."""
        email = self.service.load(self.game_id)
        game = email.game
        if game is None or email.mode == "local":
            return None
        ours = self.service.store.meta(self.game_id).our_side
        last = max((p.body.seq for p in email.packets if p.body.author == ours), default=-1)
        for d, first in zip(email.derivations, email.first_command, strict=True):
            author = email.packets[d.seq].body.author
            if d.seq > last and author != ours and first < len(game.history):
                return first
        return None

    def ended(self) -> bool:
        """Nothing more goes in the draft: the turn passes to the opponent (or the game is
        over, or, sealed, the drop waits for the reply)."""
        return self.draft is not None and self.draft.ended()

    def complete(self) -> bool:
        """The draft may be sealed: it has ended, or (sealed) declared attacks wait for the
        opponent's reply (more may still be declared)."""
        return self.draft is not None and self.draft.complete()

    @property
    def sealed(self) -> bool:
        """The packet being written is a sealed-dice game's (its batches wait for the reply)."""
        return self.draft is not None and self.draft.play.mode == "sealed"

    def batch_waits(self) -> bool:
        """Sealed dice, our orders packet: attacks are declared (or the drop named) and wait
        for the opponent's reply before their dice (:func:`pbem.core.turn.awaits_reply`)."""
        return self.sealed and self.kind == "orders" and awaits_reply(self.game)

    def needs_orders(self) -> bool:
        """A batch waits and our side has no standing orders yet: the packet cannot be sealed
        until it has (``docs/pbem-protocol.md`` section 4: our decisions during the
        opponent's resolution... and during our own batch follow them)."""
        if self.draft is None or not self.batch_waits():
            return False
        return self.game.state.combat.orders(ao_side(self.draft.body.author)) is None

    def missing(self) -> str | None:
        """Why the draft may not be sealed now, in the protocol's words (None: it may);
        :meth:`pbem.core.turn.PacketPlay.end_refusal`."""
        if self.draft is None:
            return self.waiting()
        return self.draft.play.end_refusal()

    def gt1_unmet(self) -> tuple[int, int]:
        """Game-Turn 1, German Combat Phase: how many German units are in no declared attack
        and how many US units no declared attack aims at, of those bound by AO-4.2h*; (0, 0)
        elsewhere."""
        o = self.game.options()
        state = self.game.state
        aimed = {h for a in state.combat.declared for h in a.defenders}
        busy = {u for a in state.combat.declared for u in a.attackers}
        us = [u for u in o.must_be_attacked if state.unit(u).hex not in aimed]
        return len([u for u in o.must_attack if u not in busy]), len(us)

    def waiting(self) -> str:
        """One line: whose move it is (with since when when we wait)."""
        st = self.status()
        if st.state == "equivocation":
            return f"Game {self.short} is stopped: equivocation (ardennes status {self.short})"
        if st.waiting_for:
            return f"Not your move: waiting for {st.waiting_for} since {st.since} (i: import)"
        return st.next

    # -- writing the packet ------------------------------------------------------------------

    def push(self, cmd: rules.ao.Command) -> rules.ao.Applied | str:
        """Add ``cmd`` to the draft (the protocol's checks, then the rules'); else why not."""
        if self.draft is None:
            return self.waiting()
        if self.draft.ended() and self.draft.body.kind != "reply":
            return f"Packet {self.draft.body.seq} is complete: x seals and sends it"
        r: rules.ao.Applied | str = self.draft.push(cmd)
        if not isinstance(r, str):
            self._save()
        return r

    def undo(self) -> rules.ao.Command | str:
        """Take back the draft's last command (rebuilding the draft without it): the command,
        or why not (a die roll, an end of phase, nothing in this packet)."""
        if self.draft is None:
            return self.waiting()
        if not self.draft.steps:
            return "Nothing to undo in this packet"
        why = self.draft.scratch.undo_refusal()
        if why is not None:
            return why
        keep = [s.command for s in self.draft.steps[:-1]]
        last: rules.ao.Command = self.draft.steps[-1].command
        draft = self.service.draft(self.game_id, self.me, self.draft.body.comment)
        for cmd in keep:
            r = draft.push(cmd)
            if isinstance(r, str):  # pragma: no cover - the same commands on the same dice
                raise PbemError(f"cannot rebuild the draft: {r}")
        self.draft = draft
        self._save()
        return last

    @property
    def comment(self) -> str:
        """The comment of the packet being written ("" for none)."""
        return self.draft.body.comment if self.draft is not None else ""

    def set_comment(self, comment: str) -> str | None:
        """Give the packet being written ``comment`` (the draft rebuilt with it, its orders
        pushed again: the same dice), saved with them; None, or why not (one line)."""
        if self.draft is None:
            return self.waiting()
        if len(comment) > MAX_COMMENT:
            return f"A comment has at most {MAX_COMMENT} characters"
        draft = self.service.draft(self.game_id, self.me, comment)
        for step in self.draft.steps:
            r = draft.push(step.command)
            if isinstance(r, str):  # pragma: no cover - the same commands on the same dice
                return f"Cannot keep the orders with the comment: {r}"
        self.draft = draft
        self._save()
        return None

    def seal(self) -> tuple[int, Sent]:
        """Sign and store the draft (its saved copy discarded): its sequence number and what
        to send. A new draft follows when the next packet is ours again (a local game)."""
        if self.draft is None:
            raise PbemError(self.waiting())
        seq = self.draft.body.seq
        sent = self.service.seal(self.game_id, self.draft)
        self.refresh()
        return seq, sent

    def end(self, action: str) -> tuple[int, Sent]:
        """``resign``, or a draw ``offer``, ``accept`` or ``decline`` (:mod:`pbem.endings`,
        as ``ardennes resign`` and ``ardennes draw`` do): its sequence number and what to
        send."""
        if action == "resign":
            sent = endings.resign(self.service, self.game_id, self.me)
        else:
            sent = endings.draw(self.service, self.game_id, self.me, action)  # type: ignore[arg-type]
        seq = self.service.store.count(self.game_id) - 1
        self.refresh()
        return seq, sent


# -- sending -------------------------------------------------------------------------------


def save_text(text: str, game_id: str, seq: int, folder: Path) -> Path:
    """Write ``text`` to ``ardennes-GAME-SEQ.txt`` in ``folder`` (``-2``, ``-3``... when the
    name is taken: never over another file); the path. ``OSError`` when it cannot."""
    stem = f"ardennes-{game_id[:8]}-{seq}"
    for n in range(1, 1000):
        path = folder / (f"{stem}.txt" if n == 1 else f"{stem}-{n}.txt")
        try:
            with path.open("x", encoding="ascii") as fh:
                fh.write(text)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"{folder / stem}.txt and 998 more are taken")


def mail_address(service: Service, game_id: str) -> str | None:
    """The opponent's address (:func:`pbem.addresses.opponent_address`: the one kept for the
    game, else his label when it is one), None when none is known or the store cannot say."""
    try:
        return addresses.opponent_address(service.store, game_id)
    except PbemError:
        return None


def mail_text(service: Service, game_id: str, seq: int, text: str, to: str | None = None) -> str:
    """Mail ``text`` to the opponent through the config's ``[smtp]``: to ``to`` (checked, and
    kept for the game when it has no address yet), else to the game's address; one line
    saying what happened (never raises a :class:`PbemError`)."""
    try:
        cfg = config.load_config()
    except PbemError as exc:
        return f"Not mailed: {exc}"
    if cfg.smtp is None:
        return f"Not mailed: no [smtp] table in {cfg.path}"
    kept = ""
    if to is not None:
        try:
            to = addresses.check_address(to)
            if addresses.remember(service.store, game_id, to):
                kept = f" (the address is kept for game {game_id[:8]})"
        except addresses.AddressError as exc:
            return f"Not mailed: {exc}"
        except PbemError as exc:
            kept = f" (the address is not kept: {exc})"
    else:
        to = mail_address(service, game_id)
    if to is None:
        return "Not mailed: no mail address for your opponent (m asks for one)"
    try:
        name = email.utils.parseaddr(cfg.smtp.from_addr)[0]
        try:
            subject, note = mail_cover(service, game_id, name)
        except PbemError:
            subject, note = f"Ardennes {game_id[:8]}: packet {seq}", ""
        mail.send_smtp(cfg.smtp, to, subject, text, note=note)
    except PbemError as exc:
        return f"Not mailed: {exc}{kept}"
    return f"Mailed to {to}{kept}"
