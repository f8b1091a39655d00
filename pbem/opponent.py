"""A computer opponent by email (``ardennes bot``): a player of its own, with its own key and
its own store, that answers a human's packets through the very paths a human uses.

The bot lives in a home of its own (default ``<ardennes home>/bot``: ``keys/bot``, an
unencrypted Ed25519 key made on first use, and a game store, :class:`pbem.store.Store`). Given
the text a human sent it (an invitation, packets), :meth:`BotOpponent.answer`:

1. imports it (:meth:`pbem.games.Service.import_text`: every check of the protocol, as any
   player's import; a refused packet changes nothing);
2. accepts each invitation found (:meth:`pbem.games.Service.accept`, the bot's kind and version
   in the acceptance's comment);
3. for every game touched, while the next packet is the bot's to write: drafts it, lets the bot
   (:func:`rules.ao.bots.registry.make_bot`, batch combat, level 3: an email game has no levels)
   choose its commands on the draft's copy of the game (:func:`pbem.selfplay.bot_fill`), and
   seals it (its own hash chain: sealed and open dice work as between two humans);
4. returns the armoured text the human has not seen (:meth:`pbem.games.Service.export`): the
   acceptance and the bot's packets, to import on the human's side.

The bot's tie-breaks come from a stream of its private key and the game id: the human cannot
foresee them, and the same store answers the same way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import rules.ao
from pbem import keys
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.games import Service
from pbem.selfplay import bot_fill
from pbem.store import Store
from rules.ao.bots import BotRng
from rules.ao.bots.registry import DEFAULT, make_bot

__all__ = ["KEY_NAME", "Answer", "BotOpponent", "default_home"]

KEY_NAME: Final = "bot"
"""The bot's key in its home's key store."""
MAX_PACKETS_A_TURN: Final = 200
"""A safety net: the bot never writes more packets in one answer (a whole player-turn is at
most a handful)."""


def default_home() -> Path:
    """The bot's home: ``bot`` under Ardennes' data directory (``$ARDENNES_HOME``...)."""
    return keys.home_dir() / "bot"


@dataclass
class Answer:
    """What :meth:`BotOpponent.answer` did: one line per event, and the text to send back."""

    lines: list[str] = field(default_factory=list)
    text: str = ""
    games: list[str] = field(default_factory=list)
    """The games it answered in (ids)."""
    refused: bool = False
    """A packet of the input was refused (it was not stored), or the input held none."""


class BotOpponent:
    """The computer as a player by email (see the module docstring): ``kind`` of bot
    (:data:`rules.ao.bots.registry.KINDS`) in ``home``."""

    def __init__(self, home: Path | None = None, kind: str = DEFAULT) -> None:
        self.home = home if home is not None else default_home()
        self.kind = kind
        make_bot(kind, "german", 3, BotRng(b"check"))  # ValueError: no such kind
        self.service = Service(Store(self.home))

    @property
    def store(self) -> Store:
        return self.service.store

    def identity(self) -> KeyIdentity:
        """The bot's key (``<home>/keys/bot``), made on first use (no passphrase: it is the
        computer's own)."""
        path = keys.key_dir(self.home) / KEY_NAME
        if not path.exists():
            keys.save(keys.generate(), KEY_NAME, home=self.home, comment="ardennes bot")
        return KeyIdentity(keys.load_private_key(path))

    def _bot(self, me: KeyIdentity, game_id: str, side: rules.ao.Side) -> rules.ao.bots.Bot:
        seed = hashlib.sha256(
            b"ardennes-bot-opponent/1" + me.raw_private + bytes.fromhex(game_id)
        ).digest()
        return make_bot(self.kind, side, rules.ao.levels.HISTORICAL, BotRng(seed), batch=True)

    def answer(self, data: str | bytes, game: str | None = None) -> Answer:
        """Import ``data`` (armoured text: an invitation, packets), accept the invitations,
        play every game it touched (or ``game``, an id or its start, with no input) and say
        what to send back. :class:`PbemError` for a store or a game that cannot be used."""
        out = Answer()
        me = self.identity()
        touched: list[str] = []
        if data:
            report = self.service.import_text(data)
            out.refused = bool(report.refused) or not report.items
            for item in report.items:
                if item.outcome == "invitation":
                    sent = self.service.accept(
                        me, data, comment=f"bot {self.kind} (ardennes bot)", opponent="you"
                    )
                    st = self.service.status(sent.game_id)
                    out.lines.append(
                        f"game {sent.game_id[:8]}: accepted, scenario {st.scenario}, the bot "
                        f"plays the {st.our_side.capitalize()}, {st.mode} dice"
                    )
                    touched.append(sent.game_id)
                    continue
                out.lines.append(item.line())
                if item.game_id and item.outcome in ("accepted", "duplicate"):
                    touched.append(item.game_id)
            out.lines.extend(f"note: {n}" for n in report.notes)
            if not report.items:
                out.lines.append("no armoured packet found")
        if game is not None:
            touched.append(self.store.find_game(game.lower()))
        texts: list[str] = []
        for gid in dict.fromkeys(touched):
            out.lines.extend(self.play(gid, me))
            out.games.append(gid)
            text = self.service.export(gid)
            if text:
                texts.append(text)
        out.text = "".join(texts)
        return out

    def play(self, game_id: str, me: KeyIdentity | None = None) -> list[str]:
        """Write every packet of ``game_id`` that is the bot's to write now; one line of what
        it did and one of whose move it is."""
        me = me if me is not None else self.identity()
        meta = self.store.meta(game_id)
        side = meta.our_side
        bot = self._bot(me, game_id, side)
        seqs: list[int] = []
        while True:
            g = self.service.load(game_id)
            want = g.expects()
            if want is None or want[0] != side:
                break
            if len(seqs) >= MAX_PACKETS_A_TURN:
                raise PbemError(f"game {game_id[:8]}: the bot wrote {len(seqs)} packets")
            draft = self.service.draft(game_id, me)
            bot_fill(draft, bot)
            self.service.seal(game_id, draft)
            seqs.append(draft.body.seq)
        lines = []
        if seqs:
            which = f"packet {seqs[0]}" if len(seqs) == 1 else f"packets {seqs[0]}-{seqs[-1]}"
            lines.append(f"game {game_id[:8]}: the bot ({side}) played {which}")
        lines.append(f"game {game_id[:8]}: {self.service.status(game_id).next}")
        return lines
