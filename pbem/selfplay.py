"""Self-play by email: the bots play a whole game as two players, each with his own key and
store, exchanging only armoured text (``ardennes selfplay --dice sealed|open|local``).

:func:`play` runs two :class:`pbem.games.Service` on two stores (in a temporary directory
unless ``root`` is given): the German invites, the Allied accepts, and from then on the player
whose packet comes next drafts it, lets his bot (:func:`rules.ao.bots.bots_for`) choose every
command on the draft's scratch game, seals it, and the other imports the armoured text he was
sent (:meth:`pbem.games.Service.import_text`); nothing else passes between them. A ``local``
game has one player and one store (the second side signed with the derived partner key, as
in a hot-seat game). The packets are the protocol's (``docs/pbem-protocol.md``): every one was
checked by the receiving side, and :func:`pbem.audit.verify` checks the file of them.

Everything derives from the seed's text, so the same seed gives the same packets, byte for
byte (Ed25519 signatures are deterministic, and packets carry no time):

* each player's key: the Ed25519 private key ``SHA-256("ardennes-selfplay-key/1" || side ||
  seed)`` (:func:`player_key`);
* the game id: the first 16 bytes of ``SHA-256("ardennes-selfplay-game/1" || scenario "/"
  mode "/" seed)`` (:func:`selfplay_game_id`);
* a local game's dice seed: the record self-play's, ``SHA-256("ardennes-selfplay-dice/1" ||
  seed)`` (:func:`rules.ao.bots.selfplay.dice_seed`); sealed and open dice come from the two
  players' hash chains, which derive from their keys and the game id;
* the bots' tie-breaks: :class:`rules.ao.bots.BotRng` of ``rules.ao.bots.selfplay.bot_seed(seed)``,
  as in the record self-play.

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
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import rules.ao
from pbem.aoplay import ao_game, ao_side
from pbem.core.authoring import Draft
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DiceMode, Packet
from pbem.core.turn import batch_command
from pbem.exchange import armor_packets
from pbem.games import Service
from pbem.store import Store
from rules.ao.bots import Bot, BotRng, bots_for
from rules.ao.bots.selfplay import bot_seed, dice_seed

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

_SIDES: Final[tuple[rules.ao.Side, ...]] = ("german", "allied")


class SelfPlayError(PbemError):
    """A self-play game went wrong: a bot's command refused, or a packet one side wrote that
    the other refused (a bug, never a player's error)."""


def player_key(side: rules.ao.Side, seed: int | str) -> KeyIdentity:
    """The self-play player's key of ``side``, derived from the seed (see the module doc)."""
    raw = hashlib.sha256(b"ardennes-selfplay-key/1" + side.encode() + str(seed).encode())
    return KeyIdentity(Ed25519PrivateKey.from_private_bytes(raw.digest()))


def selfplay_game_id(scenario: int, mode: DiceMode, seed: int | str) -> str:
    """The game id of the self-play game of ``scenario`` with ``mode`` dice from ``seed``."""
    text = f"{scenario}/{mode}/{seed}".encode()
    return hashlib.sha256(b"ardennes-selfplay-game/1" + text).digest()[:16].hex()


@dataclass(frozen=True)
class Mailing:
    """One armoured text one player sent the other (a local game: one sealed draft)."""

    author: rules.ao.Side
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
    verdict: rules.ao.Verdict | None
    """None when the game was cut short by ``turns``."""
    vp: tuple[int, int] | None
    """The last tabulation (German, Allied VP), None before the first."""
    fingerprints: dict[rules.ao.Side, str]

    def text(self) -> str:
        """Every packet, in order, as armour blocks (what ``-o FILE`` holds)."""
        return armor_packets(self.packets)


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

    def __init__(self, root: Path, mode: DiceMode, seed: str) -> None:
        self.mode = mode
        self.me = {s: player_key(s, seed) for s in _SIDES}
        if mode == "local":  # one player at one keyboard: one store, one key
            one = Service(Store(root / "local"))
            self.svc = {s: one for s in _SIDES}
            self.me["allied"] = self.me["german"]
        else:
            self.svc = {s: Service(Store(root / s)) for s in _SIDES}
        # each player's own bots, from the same derivation as the record self-play; they
        # declare a Combat Phase's attacks together (one reply per phase in sealed mode)
        bots = bots_for(BotRng(bot_seed(seed)), batch=True)
        self.bots: dict[rules.ao.Side, Bot] = {s: bots[s] for s in _SIDES}
        self.mailings: list[Mailing] = []
        self.vp: tuple[int, int] | None = None

    def deliver(self, author: rules.ao.Side, text: str, *, read: bool = True) -> None:
        """The other player imports ``text`` (unless ``read`` is false: the invitation, which
        he accepts); every packet in it must go in."""
        seqs = tuple(int(line[5:]) for line in text.splitlines() if line.startswith("Seq: "))
        self.mailings.append(Mailing(author, seqs, text))
        if self.mode == "local" or not read:
            return
        report = self.svc[rules.ao.other_side(author)].import_text(text)
        bad = [i for i in report.items if i.outcome not in ("accepted", "duplicate")]
        if bad or not report.items:
            lines = "; ".join(report.lines()) or "nothing found"
            raise SelfPlayError(f"the {rules.ao.other_side(author)} player refused: {lines}")

    def write(self, draft: Draft) -> None:
        """The bot of the draft's author fills it."""
        for e in bot_fill(draft, self.bots[ao_side(draft.body.author)]):
            if isinstance(e, rules.ao.VictoryPointsTabulated):
                self.vp = (e.german, e.allied)


def bot_fill(draft: Draft, bot: Bot) -> list[rules.ao.Event]:
    """Let ``bot`` (playing the draft's author) write ``draft``: standing orders first where
    the author has none (engine/engine/strongest), then, in a resolution, the command that
    resolves its batch (:func:`pbem.core.turn.batch_command`), then, but in a reply (which holds
    only those), the bot's commands on the draft's scratch game until the packet ends. The events
    of every command; :class:`SelfPlayError` if one is refused (a bug in the bot)."""
    side = draft.body.author
    events: list[rules.ao.Event] = []

    def push(cmd: rules.ao.Command) -> None:
        s = draft.scratch.state
        r = draft.push(cmd)
        if isinstance(r, str):
            raise SelfPlayError(f"GT{s.turn} {s.side} {s.phase}: {cmd!r} refused: {r}")
        events.extend(r.events)

    if draft.scratch.state.combat.orders(side) is None:
        push(rules.ao.StandingOrders(side=ao_side(side), advance="strongest"))
    if draft.body.kind == "resolution":  # it resolves its batch first (protocol section 4)
        push(batch_command(draft.scratch))
    if draft.body.kind != "reply":
        while not draft.ended():
            cmd = bot.choose(ao_game(draft.scratch))
            if isinstance(cmd, rules.ao.ResolveAttacks) and draft.complete():
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
) -> EmailSelfPlay:
    """Self-play ``scenario`` by email with ``mode`` dice from ``seed`` (see the module doc)
    until the verdict, or until Game-Turn ``turns`` is over. The stores are kept under
    ``root`` (``german/`` and ``allied/``, or ``local/``) when it is given, else in a
    temporary directory removed afterwards. Raises :class:`SelfPlayError` (a bot's command
    or a packet refused) or :class:`PbemError` (no such scenario)."""
    if turns is not None and turns < 1:
        raise ValueError("turns must be at least 1")
    seed = str(seed)
    with _root(root) as where:
        t = _Table(where, mode, seed)
        german, allied = t.svc["german"], t.svc["allied"]
        game_id = selfplay_game_id(scenario, mode, seed)
        local = dice_seed(seed) if mode == "local" else None
        sent = german.invite(
            t.me["german"],
            scenario=scenario,
            side="german",
            mode=mode,
            opponent="" if mode == "local" else "allied bot",
            game_id=game_id,
            local_seed=local,
        )
        t.deliver("german", sent.text, read=False)
        if mode != "local":
            sent = allied.accept(t.me["allied"], sent.text, opponent="german bot")
            t.deliver("allied", sent.text)
        while True:
            g = german.load(game_id) if mode == "local" else t.svc["allied"].load(game_id)
            want = g.expects()
            assert g.game is not None
            if want is None or (turns is not None and g.game.state.turn > turns):
                break
            if len(g.packets) >= MAX_PACKETS:
                raise SelfPlayError(f"no end after {MAX_PACKETS} packets")
            side = want[0]
            svc = t.svc[ao_side(side)]
            draft = svc.draft(game_id, t.me[ao_side(side)])
            t.write(draft)
            t.deliver(ao_side(side), svc.seal(game_id, draft).text)
        game = german.load(game_id)
        if mode != "local":
            mine = german.store.packets(game_id)
            if mine != allied.store.packets(game_id):
                raise SelfPlayError("the two stores hold different packets")
        assert game.game is not None
        state = game.game.state
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
            turn=state.turn,
            phase=state.phase,
            verdict=game.game.outcome(),
            vp=t.vp,
            fingerprints={s: t.me[s].fingerprint for s in _SIDES},
        )
