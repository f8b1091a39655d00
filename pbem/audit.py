"""``ardennes verify`` and ``ardennes audit``: check a whole game from its first packet, and
account for every die it rolled.

:func:`verify` replays a :class:`pbem.sources.Source` from the invitation on, every check of
``docs/pbem-protocol.md`` section 5 (signatures against the pinned keys, the chain, the
revealed links, every command through the rules, every state hash), or a game record through
the rules (:meth:`rules.Game.replay`), and answers in one line: the summary, or the first
failure.

:func:`rolls` lists every die of a verified game (each :class:`rules.DieRoll` event of its
history) with where it was rolled (packet, Game-Turn, phase), what for, the inputs its seed
was derived from (protocol section 4: a sealed combat batch, a free roll, an open or a local
packet), who could have computed it from which packet on, its value and the event it led to.
:func:`statistics` counts the faces of each player's rolls (combat: the attacker's; the CRT
switch and the paradrop: the German's) and of all of them, with Pearson's chi-square against a
fair die and its p-value (:mod:`pbem.stats`). :func:`format_audit` is the text of
``ardennes audit`` (fits 100 columns), :func:`audit_json` its ``--json``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import msgspec

import rules
import scenarios
from pbem import identity, keys, stats
from pbem.errors import PbemError
from pbem.packets import Packet
from pbem.protocol import EmailGame, Verifier
from pbem.sources import Source

__all__ = [
    "WIDTH",
    "Audit",
    "DiceStats",
    "Roll",
    "Verified",
    "audit",
    "audit_json",
    "format_audit",
    "rolls",
    "statistics",
    "verify",
]

WIDTH: Final = 100
"""Columns of :func:`format_audit`'s text."""
SHORT: Final = 12
"""Hex digits shown of a link, a reply hash or a seed."""
FEW_ROLLS: Final = 30
"""Under 5 expected per face, the chi-square p-value is only a rough guide."""

BoardFor = Callable[[int], rules.Board]


# -- verify ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verified:
    """What :func:`verify` found: ``line`` is the one-line summary when ``ok``, else the first
    failure. ``email`` is the email game as far as it verified (packets), ``game`` the rules'
    game as far as it verified (both kinds of source)."""

    source: Source
    ok: bool
    line: str
    email: EmailGame | None = None
    game: rules.Game | None = None


def _fingerprint(key_line: str) -> str:
    try:
        return keys.fingerprint(keys.parse_public_line(key_line)[0])
    except PbemError:
        return "?"


def _standing(game: rules.Game | None) -> str:
    if game is None:
        return "not yet accepted"
    s = game.state
    v = s.result
    if v is not None:
        who = f"{v.winner.capitalize()} wins" if v.winner else "a draw"
        return f"game over, {who} ({v.kind}, VP {v.german_vp}:{v.allied_vp})"
    return f"Game-Turn {s.turn}, {s.side.capitalize()} {s.phase.replace('_', ' ')}"


def _replay_packets(
    source: Source, board_for: BoardFor, verifier: Verifier
) -> tuple[EmailGame | None, str | None]:
    """The email game as far as the packets verify, and the first failure (None: all good).
    The same checks as :meth:`EmailGame.replay`, keeping the part that verified."""
    chain = source.packets
    if not chain:
        return None, source.problem or f"{source.name}: no packets"
    first = chain[0].body.seq
    if first != 0:
        return None, (
            f"{source.name} starts at packet {first}: a game is verified from its first "
            "packet, the invitation"
        )
    game: EmailGame | None = None
    where = "packet 0"
    try:
        game = EmailGame.start(chain[0], board_for, verifier)
        for p in chain[1:]:
            where = f"packet {p.body.seq}"
            game.receive(p, verifier)
    except PbemError as exc:
        return game, str(exc)
    except Exception as exc:  # hostile input must not end in a traceback
        return game, f"{where} could not be checked: {type(exc).__name__}: {exc}"
    return game, source.problem


def _replay_record(source: Source, board_for: BoardFor) -> tuple[rules.Game | None, str | None]:
    record = source.record
    if record is None:
        return None, source.problem or f"{source.name}: no game record"
    try:
        board = board_for(record.header.scenario)
        r = rules.Game.replay(record, board)
    except (rules.RecordError, PbemError) as exc:
        return None, f"{source.name}: {exc}"
    except Exception as exc:
        return None, f"{source.name} could not be replayed: {type(exc).__name__}: {exc}"
    if not r.ok:
        return r.game, f"{source.name}: {r.error}"
    return r.game, None


def verify(
    source: Source,
    board_for: BoardFor = scenarios.load_board,
    verifier: Verifier = identity.verify,
) -> Verified:
    """Check the whole game of ``source`` from its first packet (or its record's first
    command): every check of protocol section 5, every command through the rules."""
    if source.kind == "record":
        game, failure = _replay_record(source, board_for)
        if failure is not None:
            return Verified(source, False, f"FAILED: {failure}", game=game)
        assert game is not None and source.record is not None
        head = source.record.header
        line = (
            f"OK: record {source.name}, scenario {head.scenario}, {head.dice.kind} dice, "
            f"{len(game.history)} commands, {_standing(game)}; German {head.players.german.label}"
            f", Allied {head.players.allied.label}; final state {game.state_hash()}"
        )
        return Verified(source, True, line, game=game)
    email, failure = _replay_packets(source, board_for, verifier)
    game = email.game if email is not None else None
    if failure is not None:
        gid = f"game {email.game_id[:8]}: " if email is not None else ""
        return Verified(source, False, f"FAILED: {gid}{failure}", email=email, game=game)
    assert email is not None
    fps = {side: _fingerprint(p.key) for side, p in email.parties.items()}
    commands = len(game.history) if game is not None else 0
    final = game.state_hash() if game is not None else "-"
    line = (
        f"OK: game {email.game_id}, scenario {email.scenario}, {email.mode} dice, "
        f"{len(email.packets)} packets, {commands} commands, {_standing(game)}; "
        f"German key {fps.get('german', '-')}, Allied key {fps.get('allied', '-')}; "
        f"final state {final}"
    )
    return Verified(source, True, line, email=email, game=game)


# -- the rolls ---------------------------------------------------------------------------------


DerivationKind = Literal["batch", "free", "open", "local", "record"]


@dataclass(frozen=True)
class Roll:
    """One die of a game: where, what for, from what, known to whom when, and what it did.

    ``packet``/``author``: the packet whose commands drew it and who wrote it (None for a
    record). ``turn``, ``side``, ``phase``: the player-turn and phase it was rolled in (the
    CRT switch: the first phase of its Game-Turn). ``of``: whose roll it is for the
    statistics (combat: the attacker; the CRT switch and the paradrop: the German).
    ``index``: the game's draw number, the ``index`` of ``SeededDice(seed).d6(index)``.

    The derivation (protocol section 4): ``derivation`` is ``batch`` (sealed: a combat batch,
    number ``batch``), ``free`` (sealed: a roll no decision can influence), ``open``,
    ``local`` or, for a record, ``record`` (its dice kind in ``seed``); ``author_link`` and
    ``other_link`` the links of the packet's author and of his opponent that went into the
    seed, ``reply`` the hash of the reply (batch), each cut to :data:`SHORT` hex digits;
    ``seed`` the whole seed (hex). ``author_from``: the first packet after which the author
    could compute the roll; ``all_from``: after which both could (None: not a packet game).
    """

    packet: int | None
    author: rules.Side | None
    packet_kind: str | None
    command: int
    turn: int
    side: rules.Side
    phase: str
    purpose: str
    of: rules.Side
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
    event: rules.Event | None
    """The event the roll led to (a :class:`rules.CombatResolved`, a
    :class:`rules.CrtSwitchRolled`, the paradrop's :class:`rules.UnitPlaced` or
    :class:`rules.UnitEliminated`)."""

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
        if self.derivation == "batch":
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
    author: rules.Side
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
    for d in email.derivations:
        p: Packet = email.packets[d.seq]
        author = p.body.author
        mine = published.get(d.author_link, d.seq)
        theirs = published.get(d.other_link, d.seq)
        kind: DerivationKind
        if d.kind == "batch":
            # the mover's own link is his from the start; the opponent's link and the reply
            # hash come with the reply (the packet before), his link reaches the opponent here
            kind, author_from, all_from = "batch", max(theirs, d.seq - 1), d.seq
        elif d.kind == "open":
            kind, author_from, all_from = "open", theirs, d.seq
        elif d.kind == "free":
            kind = "free"
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


def _effect(roll: rules.DieRoll, after: rules.Event | None, before: rules.GameState) -> str:
    if isinstance(after, rules.CombatResolved):
        return f"{after.column} on the {after.table} CRT: {after.result}"
    if isinstance(after, rules.CrtSwitchRolled):
        if after.crt != before.german_crt:
            return f"switches to the {after.crt} CRT"
        return f"keeps the {after.crt} CRT"
    if isinstance(after, rules.UnitPlaced):
        return f"{after.unit} lands in {after.hex}"
    if isinstance(after, rules.UnitEliminated):
        return f"{after.unit} eliminated in {after.hex}"
    return "" if after is None else str(after.__struct_config__.tag)


def _where(
    events: Sequence[rules.Event], k: int, before: rules.GameState
) -> tuple[int, rules.Side, str]:
    """The Game-Turn, player-turn side and phase of the roll at ``events[k]``."""
    turn, side, phase = before.turn, before.side, str(before.phase)
    for e in events[:k]:
        if isinstance(e, rules.PhaseBegan):
            turn, side, phase = e.turn, e.side, str(e.phase)
    roll = events[k]
    if isinstance(roll, rules.DieRoll) and roll.purpose == "crt_switch":
        # rolled on entering a Game-Turn (AO-10.3a), before its first phase begins
        for e in events[k + 1 :]:
            if isinstance(e, rules.PhaseBegan):
                return e.turn, e.side, str(e.phase)
    return turn, side, phase


def _die_rolls(game: rules.Game) -> Iterator[tuple[int, rules.DieRoll, int, rules.Event | None]]:
    """(command index, roll, its position in the events, the event after it)."""
    for i, step in enumerate(game.history):
        events = step.events
        for k, e in enumerate(events):
            if isinstance(e, rules.DieRoll):
                after = events[k + 1] if k + 1 < len(events) else None
                yield i, e, k, after


def _short(b: bytes) -> str:
    return b.hex()[:SHORT]


def rolls(game: EmailGame | rules.Game) -> list[Roll]:
    """Every die of ``game`` in the order drawn (an email game, or a record's game)."""
    email = game if isinstance(game, EmailGame) else None
    g = email.game if email is not None else game
    if not isinstance(g, rules.Game):
        return []
    per_packet = _packet_dice(email) if email is not None else []
    starts = email.first_command if email is not None else []
    out: list[Roll] = []
    for i, die, k, after in _die_rolls(g):
        before = g.state_at(i)
        step_events = g.history[i].events
        turn, side, phase = _where(step_events, k, before)
        of: rules.Side = side if die.purpose.startswith("combat") else "german"
        effect = _effect(die, after, before)
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
            )
        )
    return out


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceStats:
    """The faces of one player's rolls (``who``: ``german``, ``allied``) or of all of them
    (``all``), with Pearson's chi-square against a fair die and its p-value (5 degrees of
    freedom). ``rough`` when there are too few rolls (under 5 expected per face) for the
    p-value to mean much."""

    who: str
    n: int
    counts: tuple[int, int, int, int, int, int]
    chi2: float
    p: float

    @property
    def rough(self) -> bool:
        return self.n < FEW_ROLLS


def _stats(who: str, values: Sequence[int]) -> DiceStats:
    counts = stats.face_counts(values)
    chi2 = stats.chi_square(counts)
    return DiceStats(who, len(values), counts, chi2, stats.p_value(chi2))


def statistics(all_rolls: Sequence[Roll]) -> list[DiceStats]:
    """The German's rolls, the Allied's, then all of them."""
    return [
        _stats("german", [r.value for r in all_rolls if r.of == "german"]),
        _stats("allied", [r.value for r in all_rolls if r.of == "allied"]),
        _stats("all", [r.value for r in all_rolls]),
    ]


# -- the audit ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Audit:
    """A verified game's rolls and their statistics (``verified.ok`` is True)."""

    verified: Verified
    rolls: tuple[Roll, ...]
    stats: tuple[DiceStats, ...]


def audit(verified: Verified) -> Audit:
    """The rolls and statistics of a game :func:`verify` accepted (a game that failed has
    no audit: ``ValueError``)."""
    if not verified.ok:
        raise ValueError("only a verified game is audited")
    found = rolls(verified.email if verified.email is not None else _game(verified))
    return Audit(verified, tuple(found), tuple(statistics(found)))


def _game(verified: Verified) -> rules.Game:
    assert verified.game is not None
    return verified.game


_HEAD: Final = (
    f"{'PKT':>4} {'GT':>2} {'SIDE':<6} {'PHASE':<19} {'PURPOSE':<18} {'DRAW':>4} "
    f"{'D':>1}  {'OF':<6} EFFECT"
)


def _fit(line: str) -> list[str]:
    """``line`` cut to :data:`WIDTH` columns, the rest on indented lines."""
    out = []
    indent = " " * 8
    while len(line) > WIDTH:
        cut = line.rfind(" ", len(indent) + 1, WIDTH)
        if cut <= len(indent):
            cut = WIDTH
        out.append(line[:cut].rstrip())
        line = indent + line[cut:].lstrip()
    out.append(line)
    return out


def _group_line(r: Roll) -> list[str]:
    """The lines above a packet's rolls: where its seed came from, who knew it when."""
    if r.packet is None or r.author is None:
        return [f"record: its header lists the dice ({r.seed[:40]})"]
    me, them = r.author.capitalize(), rules.other_side(r.author).capitalize()
    links = f"{me} {r.author_link}, {them} {r.other_link}"
    if r.derivation == "batch":
        what = f"batch {r.batch}: {links}, reply {r.reply}"
    elif r.derivation == "local":
        what = f"local seed {r.seed[:SHORT]} (the invitation's)"
    else:
        what = f"{r.derivation}: {links}"
    head = f"#{r.packet} {me} {r.packet_kind}, {what}"
    return [*_fit(head), *_fit(f"    known: {r.known}")]


def _row(r: Roll) -> str:
    pkt = "-" if r.packet is None else str(r.packet)
    line = (
        f"{pkt:>4} {r.turn:>2} {r.side.capitalize():<6} {r.phase:<19} {r.purpose:<18} "
        f"{r.index:>4} {r.value:>1}  {r.of.capitalize():<6} {r.effect}"
    )
    return "\n".join(_fit(line))


def _stats_lines(all_stats: Sequence[DiceStats]) -> list[str]:
    out = [
        "Dice statistics: each player's rolls (combat: the attacker; CRT switch, paradrop: the",
        "German) against a fair die; Pearson's chi-square, 5 degrees of freedom.",
        f"{'ROLLS OF':<8} {'N':>5} "
        + " ".join(f"{f:>5}" for f in stats.FACES)
        + f" {'CHI2':>7} {'P':>7}",
    ]
    for s in all_stats:
        name = "All" if s.who == "all" else s.who.capitalize()
        faces = " ".join(f"{c:>5}" for c in s.counts)
        mark = " *" if s.rough and s.n else ""
        chi2 = f"{s.chi2:>7.2f} {s.p:>7.4f}" if s.n else f"{'-':>7} {'-':>7}"
        out.append(f"{name:<8} {s.n:>5} {faces} {chi2}{mark}")
    if any(s.rough and s.n for s in all_stats):
        out.append(f"* under {FEW_ROLLS} rolls (5 expected per face): the p-value is only a guide")
    return out


def _facts(v: Verified) -> list[str]:
    """The head of the audit: the game, where it stands, the keys, the final state."""
    g, email = v.game, v.email
    final = g.state_hash() if g is not None else "-"
    commands = len(g.history) if g is not None else 0
    if email is None:
        rec = v.source.record
        dice = rec.header.dice.kind if rec is not None else "?"
        return [
            f"Record {v.source.name}: scenario {rec.header.scenario if rec else '?'}, "
            f"{dice} dice, {commands} commands, verified",
            f"Standing:    {_standing(g)}",
            f"Final state: {final}",
        ]
    fps = {side: _fingerprint(p.key) for side, p in email.parties.items()}
    return [
        f"Game {email.game_id}: scenario {email.scenario}, {email.mode} dice, "
        f"{len(email.packets)} packets, {commands} commands, verified",
        f"Standing:    {_standing(g)}",
        f"German key:  {fps.get('german', '-')}",
        f"Allied key:  {fps.get('allied', '-')}",
        f"Final state: {final}",
    ]


def format_audit(a: Audit) -> str:
    """The text of ``ardennes audit``: where the game stands, every roll grouped by packet
    (what its seed was derived from, who could know it when), then the statistics."""
    lines = [*_facts(a.verified), ""]
    if not a.rolls:
        lines.append("No die was rolled.")
    else:
        lines.append(f"{len(a.rolls)} dice rolled (draw: the game's die number; D: its value)")
        lines.append(_HEAD)
        last: int | None = -1
        for r in a.rolls:
            if r.packet != last:
                lines.extend(_group_line(r))
                last = r.packet
            lines.append(_row(r))
    lines.append("")
    lines.extend(_stats_lines(a.stats))
    return "\n".join(lines) + "\n"


def _roll_json(r: Roll) -> dict[str, Any]:
    return {
        "packet": r.packet,
        "author": r.author,
        "packet_kind": r.packet_kind,
        "command": r.command,
        "turn": r.turn,
        "side": r.side,
        "phase": r.phase,
        "purpose": r.purpose,
        "of": r.of,
        "draw": r.index,
        "value": r.value,
        "derivation": {
            "kind": r.derivation,
            "batch": r.batch or None,
            "author_link": r.author_link or None,
            "other_link": r.other_link or None,
            "reply": r.reply or None,
            "seed": r.seed,
        },
        "known": {"author_from": r.author_from, "all_from": r.all_from, "text": r.known},
        "effect": r.effect,
        "event": msgspec.to_builtins(r.event) if r.event is not None else None,
    }


def audit_json(a: Audit) -> dict[str, Any]:
    """``ardennes audit --json``: the summary, every roll, the statistics."""
    v = a.verified
    email = v.email
    game: dict[str, Any] = {"summary": v.line, "source": v.source.name, "kind": v.source.kind}
    if email is not None:
        game |= {
            "id": email.game_id,
            "scenario": email.scenario,
            "mode": email.mode,
            "packets": len(email.packets),
            "keys": {side: _fingerprint(p.key) for side, p in sorted(email.parties.items())},
        }
    if v.game is not None:
        game |= {"commands": len(v.game.history), "final_state": v.game.state_hash()}
    return {
        "game": game,
        "rolls": [_roll_json(r) for r in a.rolls],
        "stats": [
            {
                "of": s.who,
                "n": s.n,
                "counts": dict(zip(map(str, stats.FACES), s.counts, strict=True)),
                "chi2": s.chi2,
                "p": s.p,
            }
            for s in a.stats
        ],
    }
