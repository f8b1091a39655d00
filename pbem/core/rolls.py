"""Every die of a verified game, and each player's dice statistics (``docs/pbem-protocol.md``,
section 6).

:func:`rolls` lists each :class:`rules.DieRoll` event of the game's history with where it was
rolled (packet, Game-Turn, phase), what for, the inputs its seed was derived from (protocol
section 4: a sealed batch, the sealed CRT switch, an open or a local packet), who could have
computed it from which packet on, its value and the event it led to. :func:`statistics` counts
the faces of each player's rolls (combat: the attacker's; the CRT switch and the paradrop: the
German's) and of all of them, with Pearson's chi-square against a fair die and its p-value
(:mod:`pbem.core.stats`), for each kind of die the game rolled (a d6; a d100 in deciles).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pbem.core import stats
from pbem.core.packets import Packet
from pbem.core.protocol import ENDINGS, EmailGame
from pbem.core.turn import AnyGame
from rules.dice import DieRoll
from rules.game import Game

SHORT: Final = 12
"""Hex digits shown of a link, a reply hash or a seed."""
FEW_ROLLS: Final = 30
"""Under 5 expected per face, the chi-square p-value is only a rough guide."""


# -- the rolls ---------------------------------------------------------------------------------


DerivationKind = Literal["batch", "switch", "none", "open", "local", "record"]


@dataclass(frozen=True)
class Roll:
    """One die of a game: where, what for, from what, known to whom when, and what it did.

    ``packet``/``author``: the packet whose commands drew it and who wrote it (None for a
    record). ``turn``, ``side``, ``phase``: the player-turn and phase it was rolled in (the
    CRT switch: the first phase of its Game-Turn). ``of``: whose roll it is for the
    statistics (combat: the attacker; the CRT switch and the paradrop: the German).
    ``index``: the game's draw number, the ``index`` of ``SeededDice(seed).uniform(index,
    faces)``; ``faces``: the die's (6: a d6; 100: a percentage die).

    The derivation (protocol section 4): ``derivation`` is ``batch`` (sealed: a combat batch,
    number ``batch``: combat or the paradrop), ``switch`` (sealed: the CRT switch die at the
    start of the German's orders), ``open``, ``local`` or, for a record, ``record`` (its dice
    kind in ``seed``); ``author_link`` and ``other_link`` the links of the packet's author and
    of his opponent that went into the seed, ``reply`` the hash of the reply (batch) or of the
    previous packet (switch), each cut to :data:`SHORT` hex digits;
    ``seed`` the whole seed (hex). ``author_from``: the first packet after which the author
    could compute the roll; ``all_from``: after which both could (None: not a packet game).
    """

    packet: int | None
    author: str | None
    packet_kind: str | None
    command: int
    turn: int
    side: str
    phase: str
    purpose: str
    of: str
    index: int
    value: int
    derivation: DerivationKind
    batch: int
    author_link: str
    other_link: str
    reply: str
    seed: str
    author_from: int | None
    all_from: int | None
    effect: str
    event: Any
    """The event the roll led to, the ruleset's (the AO's ``CombatResolved``,
    ``CrtSwitchRolled``, the paradrop's ``UnitPlaced`` or ``UnitEliminated``), or None."""
    other: str | None = None
    """The author's opponent (None for a record)."""
    described: str = ""
    """What the die was for, in words (:meth:`rules.ruleset.Ruleset.describe_roll`: ``the
    attack on 3512``)."""
    faces: int = 6

    @property
    def kind(self) -> str:
        """``combat``, ``crt_switch`` or ``paradrop``: the purpose without its hexes."""
        return self.purpose.split(":", 1)[0]

    @property
    def known(self) -> str:
        """Who could have known the roll, from when (one short sentence)."""
        if self.packet is None or self.all_from is None or self.author is None:
            return "recorded"
        author = self.author.capitalize()
        if self.derivation in ("batch", "switch"):
            return (
                f"nobody before packet {self.author_from}; the {author} from it, "
                f"both from packet {self.all_from}"
            )
        if self.derivation == "open":
            return f"the {author} from packet {self.author_from}, both from packet {self.all_from}"
        return f"both players from packet {self.all_from}"


@dataclass(frozen=True)
class _PacketDice:
    """What all the rolls of one packet share."""

    seq: int
    author: str
    packet_kind: str
    kind: DerivationKind
    batch: int
    seed: bytes
    author_link: bytes
    other_link: bytes
    reply: bytes
    author_from: int
    all_from: int


def _published(email: EmailGame) -> dict[bytes, int]:
    """Every chain link (commitments included) and the packet that made it public."""
    out: dict[bytes, int] = {}
    for p in email.packets:
        b = p.body
        for value in (b.commitment, b.reveal):
            if value is not None:
                out.setdefault(bytes.fromhex(value), b.seq)
    return out


def _packet_dice(email: EmailGame) -> list[_PacketDice]:
    published = _published(email)
    out = []

    def before(seq: int) -> int:
        """The packet before ``seq`` that is not a resignation or a draw packet: the reply,
        or the packet that began the Game-Turn, whose identity the seed hashes."""
        return max(k for k in range(seq) if email.packets[k].body.kind not in ENDINGS)

    for d in email.derivations:
        p: Packet = email.packets[d.seq]
        author = p.body.author
        mine = published.get(d.author_link, d.seq)
        theirs = published.get(d.other_link, d.seq)
        kind: DerivationKind
        if d.kind == "batch":
            # the mover's own link is his from the start; the opponent's link and the reply
            # hash come with the reply (the packet before), his link reaches the opponent here
            kind, author_from, all_from = "batch", max(theirs, before(d.seq)), d.seq
        elif d.kind == "open":
            kind, author_from, all_from = "open", theirs, d.seq
        elif d.kind == "switch":
            # the author's link is his from the start; the previous packet (the opponent's)
            # reaches him with it; his link reaches the opponent with this packet
            kind, author_from, all_from = "switch", max(theirs, before(d.seq)), d.seq
        elif d.kind == "none":
            kind = "none"
            author_from = all_from = max(mine, theirs)
        else:
            kind, author_from, all_from = "local", 0, 0
        out.append(
            _PacketDice(
                seq=d.seq,
                author=author,
                packet_kind=p.body.kind,
                kind=kind,
                batch=d.batch,
                seed=d.seed,
                author_link=d.author_link,
                other_link=d.other_link,
                reply=d.reply,
                author_from=author_from,
                all_from=all_from,
            )
        )
    return out


def _die_rolls(game: AnyGame) -> Iterator[tuple[int, DieRoll, int, Any]]:
    """(command index, roll, its position in the events, the event after it)."""
    for i, step in enumerate(game.history):
        events = step.events
        for k, e in enumerate(events):
            if isinstance(e, DieRoll):
                after = events[k + 1] if k + 1 < len(events) else None
                yield i, e, k, after


def _short(b: bytes) -> str:
    return b.hex()[:SHORT]


def rolls(game: EmailGame | AnyGame) -> list[Roll]:
    """Every die of ``game`` in the order drawn (an email game, or a record's game), placed
    and described by its ruleset (:meth:`rules.ruleset.Ruleset.roll_place`)."""
    email = game if isinstance(game, EmailGame) else None
    g = email.game if email is not None else game
    if not isinstance(g, Game):
        return []
    per_packet = _packet_dice(email) if email is not None else []
    starts = email.first_command if email is not None else []
    out: list[Roll] = []
    for i, die, k, after in _die_rolls(g):
        place = g.ruleset.roll_place(g.state_at(i), g.history[i].events, k)
        turn, side, phase, of, effect = place.turn, place.side, place.phase, place.of, place.effect
        described = g.ruleset.describe_roll(die)
        j = bisect.bisect_right(starts, i) - 1
        if email is not None and j >= 0:
            pd = per_packet[j]
            out.append(
                Roll(
                    packet=pd.seq,
                    author=pd.author,
                    packet_kind=pd.packet_kind,
                    command=i,
                    turn=turn,
                    side=side,
                    phase=phase,
                    purpose=die.purpose,
                    of=of,
                    index=die.index,
                    value=die.value,
                    derivation=pd.kind,
                    batch=pd.batch,
                    author_link=_short(pd.author_link),
                    other_link=_short(pd.other_link),
                    reply=_short(pd.reply),
                    seed=pd.seed.hex(),
                    author_from=pd.author_from,
                    all_from=pd.all_from,
                    effect=effect,
                    event=after,
                    other=email.other(pd.author),
                    described=described,
                    faces=die.faces,
                )
            )
            continue
        spec = g.dice_spec
        out.append(
            Roll(
                packet=None,
                author=None,
                packet_kind=None,
                command=i,
                turn=turn,
                side=side,
                phase=phase,
                purpose=die.purpose,
                of=of,
                index=die.index,
                value=die.value,
                derivation="record",
                batch=0,
                author_link="",
                other_link="",
                reply="",
                seed=spec.seed or spec.kind,
                author_from=None,
                all_from=None,
                effect=effect,
                event=after,
                described=described,
                faces=die.faces,
            )
        )
    return out


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceStats:
    """The rolls of one player (``who``: a side, ``german``, ``allied``) or of all of them
    (``all``) with dice of ``faces`` faces: the counts per face or group of faces
    (:func:`pbem.core.stats.groups`: a d6 face by face, a d100 in deciles; ``labels`` names
    them), Pearson's chi-square against a fair die and its p-value (``df`` degrees of freedom:
    5 for a d6, 9 for a d100). ``rough`` when there are too few rolls (under 5 expected per
    count) for the p-value to mean much."""

    who: str
    n: int
    counts: tuple[int, ...]
    chi2: float
    p: float
    faces: int = 6

    @property
    def labels(self) -> tuple[str, ...]:
        """What each count counts: ``1`` ... ``6``, or ``1-10`` ... ``91-100``."""
        return stats.labels(self.faces)

    @property
    def df(self) -> int:
        return len(self.counts) - 1

    @property
    def rough(self) -> bool:
        return self.n < 5 * len(self.counts)


def _stats(who: str, values: Sequence[int], faces: int = 6) -> DiceStats:
    counts = stats.counts(values, faces)
    sizes = [b - a + 1 for a, b in stats.groups(faces)]
    chi2 = stats.chi_square(counts, sizes)
    p = stats.p_value(chi2, len(counts) - 1) if len(counts) > 1 else 1.0
    return DiceStats(who, len(values), counts, chi2, p, faces)


AO_SIDES: Final = ("allied", "german")
"""The sides :func:`statistics` counts when its caller names none (transitional, issue 23:
the app's audit screen does not pass its game's sides yet)."""


def statistics(all_rolls: Sequence[Roll], sides: Sequence[str] = AO_SIDES) -> list[DiceStats]:
    """For each kind of die rolled, fewest faces first (a game that rolled none: the d6),
    each side's rolls, the second side first (the AO's German, then the Allied), then all of
    them."""
    out: list[DiceStats] = []
    for faces in sorted({r.faces for r in all_rolls}) or [6]:
        mine = [r for r in all_rolls if r.faces == faces]
        out.extend(_stats(s, [r.value for r in mine if r.of == s], faces) for s in reversed(sides))
        out.append(_stats("all", [r.value for r in mine], faces))
    return out
