"""Self-play by email: the bots play a whole game as two players, each with his own key and
store, exchanging only armoured text (``ardennes selfplay --dice sealed|open|local``).

:func:`play` runs two :class:`pbem.games.Service` on two stores (in a temporary directory
unless ``root`` is given): the ruleset's second side invites (the AO's German), the first
accepts (the Allied), and from then on the player whose packet comes next drafts it, lets his
bot (the ruleset's email kit's :meth:`~pbem.kits.EmailKit.selfplay_bots`: the AO's
:func:`rules.ao.bots.bots_for`) choose every command on the draft's scratch game, seals it,
and the other imports the armoured text he was sent (:meth:`pbem.games.Service.import_text`);
nothing else passes between them. A ``local`` game has one player and one store (the second
side signed with the derived partner key, as in a hot-seat game). The packets are the
protocol's (``docs/pbem-protocol.md``): every one was checked by the receiving side, and
:func:`pbem.audit.verify` checks the file of them.

Everything derives from the seed's text, so the same seed gives the same packets, byte for
byte (Ed25519 signatures are deterministic, and packets carry no time):

* each player's key: the Ed25519 private key ``SHA-256("ardennes-selfplay-key/1" || side ||
  seed)`` (:func:`player_key`);
* the game id: the first 16 bytes of ``SHA-256("ardennes-selfplay-game/1" || scenario "/"
  mode "/" seed)`` (:func:`selfplay_game_id`; another ruleset than the AO: ``ruleset "/"``
  before it);
* a local game's dice seed: the kit's :meth:`~pbem.kits.EmailKit.selfplay_dice` (the AO's: the
  record self-play's, ``SHA-256("ardennes-selfplay-dice/1" || seed)``,
  :func:`rules.ao.bots.selfplay.dice_seed`); sealed and open dice come from the two players'
  hash chains, which derive from their keys and the game id;
* the bots' tie-breaks: the kit's (the AO's: :class:`rules.ao.bots.BotRng` of
  ``rules.ao.bots.selfplay.bot_seed(seed)``, as in the record self-play).


The game differs from the record self-play of the same seed: its dice are the protocol's,
and the defender's decisions during the mover's combat follow his standing orders.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import kits
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DEFAULT_RULESET, DiceMode, Packet
from pbem.core.turn import batch_command, dice_wait
from pbem.exchange import armor_packets
from pbem.games import Service
from pbem.kits import Bot
from pbem.store import Store
from rules import registry

__all__ = [
    "MAX_PACKETS",
    "EmailSelfPlay",
    "Mailing",
    "SelfPlayError",
    "bot_fill",
    "play",
    "player_key",
    "selfplay_game_id",
]

MAX_PACKETS: Final = 20_000
"""A safety net: a whole sealed game of 18 Game-Turns writes a few hundred packets."""


class SelfPlayError(PbemError):
    """A self-play game went wrong: a bot's command refused, or a packet one side wrote that
    the other refused (a bug, never a player's error)."""


def player_key(side: str, seed: int | str) -> KeyIdentity:
    """The self-play player's key of ``side``, derived from the seed (see the module doc)."""
    raw = hashlib.sha256(b"ardennes-selfplay-key/1" + side.encode() + str(seed).encode())
    return KeyIdentity(Ed25519PrivateKey.from_private_bytes(raw.digest()))


def selfplay_game_id(
    scenario: int, mode: DiceMode, seed: int | str, ruleset: str = DEFAULT_RULESET
) -> str:
    """The game id of the self-play game of ``scenario`` of ``ruleset`` with ``mode`` dice
    from ``seed``."""
    head = "" if ruleset == DEFAULT_RULESET else f"{ruleset}/"
    text = f"{head}{scenario}/{mode}/{seed}".encode()
    return hashlib.sha256(b"ardennes-selfplay-game/1" + text).digest()[:16].hex()


@dataclass(frozen=True)
class Mailing:
    """One armoured text one player sent the other (a local game: one sealed draft)."""

    author: str
    seqs: tuple[int, ...]
    """The packets it holds."""
    text: str


@dataclass(frozen=True)
class EmailSelfPlay:
    """A self-play game by email: its packets (as both stores hold them), every mailing, and
    where the game ended."""

    scenario: int
    seed: str
    mode: DiceMode
    turns: int | None
    game_id: str
    packets: tuple[Packet, ...]
    mailings: tuple[Mailing, ...]
    commands: int
    final_hash: str
    turn: int
    phase: str
    verdict: Any
    """The ruleset's verdict; None when the game was cut short by ``turns``."""
    vp: tuple[int, int] | None
    """The last score tabulated (:meth:`pbem.kits.EmailKit.score`: the AO's German, Allied
    VP), None before the first."""
    fingerprints: dict[str, str]
    ruleset: str = DEFAULT_RULESET

    def text(self) -> str:
        """Every packet, in order, as armour blocks (what ``-o FILE`` holds)."""
        return armor_packets(self.packets, self.ruleset)


@contextmanager
def _root(root: Path | None) -> Iterator[Path]:
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
        yield root
        return
    with tempfile.TemporaryDirectory(prefix="ardennes-selfplay-") as tmp:
        yield Path(tmp)


class _Table:
    """The players' services, keys and bots, and what passed between them."""

    def __init__(
        self, root: Path, mode: DiceMode, seed: str, kit: kits.EmailKit | None = None
    ) -> None:
        self.mode = mode
        self.kit = kit = kit if kit is not None else kits.get(DEFAULT_RULESET)
        self.sides = registry.get(kit.id).sides
        first, second = self.sides
        self.me = {s: player_key(s, seed) for s in (second, first)}
        if mode == "local":  # one player at one keyboard: one store, one key
            one = Service(Store(root / "local"))
            self.svc = {s: one for s in (second, first)}
            self.me[first] = self.me[second]
        else:
            self.svc = {s: Service(Store(root / s)) for s in (second, first)}
        # each player's own bots (the AO's: from the same derivation as the record
        # self-play, declaring a Combat Phase's attacks together, one reply a phase)
        bots = kit.selfplay_bots(seed)
        self.bots: dict[str, Bot] = {s: bots[s] for s in (second, first)}
        self.mailings: list[Mailing] = []
        self.vp: tuple[int, int] | None = None

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def deliver(self, author: str, text: str, *, read: bool = True) -> None:
        """The other player imports ``text`` (unless ``read`` is false: the invitation, which
        he accepts); every packet in it must go in."""
        seqs = tuple(int(line[5:]) for line in text.splitlines() if line.startswith("Seq: "))
        self.mailings.append(Mailing(author, seqs, text))
        if self.mode == "local" or not read:
            return
        report = self.svc[self.other(author)].import_text(text)
        bad = [i for i in report.items if i.outcome not in ("accepted", "duplicate")]
        if bad or not report.items:
            lines = "; ".join(report.lines()) or "nothing found"
            raise SelfPlayError(f"the {self.other(author)} player refused: {lines}")

    def write(self, draft: Draft) -> None:
        """The bot of the draft's author fills it."""
        for e in bot_fill(draft, self.bots[draft.body.author]):
            score = self.kit.score(e)
            if score is not None:
                self.vp = score


def bot_fill(draft: Draft, bot: Bot) -> list[Any]:
    """Let ``bot`` (playing the draft's author) write ``draft``: standing orders first where
    the author has none (the ruleset's email kit's
    :meth:`~pbem.kits.EmailKit.default_orders`: the AO's engine/engine/strongest), then, in a
    resolution, the command that resolves its batch (:func:`pbem.core.turn.batch_command`),
    then, but in a reply (which holds only those), the bot's commands on the draft's scratch
    game until the packet ends. The events of every command; :class:`SelfPlayError` if one is
    refused (a bug in the bot)."""
    side = draft.body.author
    rs = draft.scratch.ruleset
    events: list[Any] = []

    def push(cmd: Any) -> None:
        turn, phase = rs.where(draft.scratch.state)
        r = draft.push(cmd)
        if isinstance(r, str):
            raise SelfPlayError(f"GT{turn} {side} {phase}: {cmd!r} refused: {r}")
        events.extend(r.events)

    default = kits.get(rs.id).default_orders(side)
    if default is not None and not rs.orders_given(draft.scratch.state, side):
        push(default)
    if draft.body.kind == "resolution":  # it resolves its batch first (protocol section 4)
        push(batch_command(draft.scratch))
    if draft.body.kind != "reply":
        while not draft.ended():
            cmd = bot.choose(draft.scratch)
            wait = dice_wait(draft.scratch)
            resolves = wait.kind == "batch" and type(cmd) is type(wait.resolver)
            if resolves and draft.complete():
                break  # sealed: the batch is declared; it goes to the opponent for his reply
            push(cmd)
    return events


def play(
    scenario: int,
    seed: int | str,
    mode: DiceMode,
    turns: int | None = None,
    *,
    root: Path | None = None,
    ruleset: str = DEFAULT_RULESET,
) -> EmailSelfPlay:
    """Self-play ``scenario`` of ``ruleset`` by email with ``mode`` dice from ``seed`` (see
    the module doc) until the verdict, or until Game-Turn ``turns`` is over. The stores are
    kept under ``root`` (one directory a side, ``german/`` and ``allied/``, or ``local/``)
    when it is given, else in a temporary directory removed afterwards. Raises
    :class:`SelfPlayError` (a bot's command or a packet refused) or :class:`PbemError` (no
    such scenario, no email kit for the ruleset)."""
    if turns is not None and turns < 1:
        raise ValueError("turns must be at least 1")
    seed = str(seed)
    kit = kits.get(ruleset)
    with _root(root) as where:
        t = _Table(where, mode, seed, kit)
        first, second = t.sides
        inviter, accepter = t.svc[second], t.svc[first]
        game_id = selfplay_game_id(scenario, mode, seed, ruleset)
        local = kit.selfplay_dice(seed) if mode == "local" else None
        sent = inviter.invite(
            t.me[second],
            scenario=scenario,
            side=second,
            mode=mode,
            opponent="" if mode == "local" else f"{first} bot",
            game_id=game_id,
            local_seed=local,
            ruleset=ruleset,
        )
        t.deliver(second, sent.text, read=False)
        if mode != "local":
            sent = accepter.accept(t.me[first], sent.text, opponent=f"{second} bot")
            t.deliver(first, sent.text)
        while True:
            g = inviter.load(game_id) if mode == "local" else accepter.load(game_id)
            want = g.expects()
            assert g.game is not None
            if want is None or (turns is not None and g.ruleset.where(g.game.state)[0] > turns):
                break
            if len(g.packets) >= MAX_PACKETS:
                raise SelfPlayError(f"no end after {MAX_PACKETS} packets")
            side = want[0]
            svc = t.svc[side]
            draft = svc.draft(game_id, t.me[side])
            t.write(draft)
            t.deliver(side, svc.seal(game_id, draft).text)
        game = inviter.load(game_id)
        if mode != "local":
            mine = inviter.store.packets(game_id)
            if mine != accepter.store.packets(game_id):
                raise SelfPlayError("the two stores hold different packets")
        assert game.game is not None
        turn, phase = game.ruleset.where(game.game.state)
        return EmailSelfPlay(
            scenario=scenario,
            seed=seed,
            mode=mode,
            turns=turns,
            game_id=game_id,
            packets=tuple(game.packets),
            mailings=tuple(t.mailings),
            commands=len(game.game.history),
            final_hash=game.game.state_hash(),
            turn=turn,
            phase=phase,
            verdict=game.game.outcome(),
            vp=t.vp,
            fingerprints={s: t.me[s].fingerprint for s in (second, first)},
            ruleset=ruleset,
        )
