"""The game record: what PGN is to chess, one format for every game we write down.

A record is UTF-8 JSON Lines (``docs/engine.md``, "The game record"):

1. a **header** ``{"kind": "header", "format": "ardennes-record", "version": 1, "rules": ...,
   "scenario": N, "dice": {...}, "players": {...}, "meta": {...}, "level": {...}}``: the
   format and rules versions, the scenario, where the dice come from (:class:`DiceSpec`, open
   to new kinds: email play adds its own), who played each side (:class:`Players`) and, for a
   game against the computer, its level of play (:class:`rules.levels.Level`: the levers the
   engine applies on replay; absent otherwise, as are players and meta left at their
   defaults);
2. one **command** a line, ``{"kind": "command", "n": i, "command": {...}, "hash": ...}``, with
   the state hash after it (:func:`rules.state.state_hash`);
3. a **footer** ``{"kind": "end", "commands": N, "turn": T, "phase": P, "hash": ...,
   "verdict": ...}`` with the final hash and the verdict (``null`` while the game goes on).

Hot-seat saves, games against the computer and self-play logs are all records, and the commands
of an email game concatenate to one. :func:`decode` reads strictly (known fields only, size
limits, lines numbered in order); :func:`replay` replays through the rules and names the first
command that is refused or whose hash differs, so a hand-edited record is never loaded silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final, Literal

import msgspec

from rules.commands import Command
from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.events import Event
from rules.levels import NUMBERS, Level
from rules.state import GameState, Verdict, state_hash

FORMAT: Final = "ardennes-record"
VERSION: Final = 1
RULES_VERSION: Final = "ao-1973+errata-1973-05-31/4"
"""The rules the engine plays: The Ardennes Offensive (SPI 1973) with the errata of 31 May 1973;
the number after the slash goes up whenever a change of the engine can change a game (2:
the CRT switch and paradrop dice became ``Roll`` commands; 3: the rules audit of issue 12 -
isolation, road-column contacts, advances, West-bank attacks, live road exit hexes, every
reinforcement placed; 4: issue 22 - the retreat priority counted in hexes gained, a road ford's
MP in Road Mode, a reactivated unit free to leave its edge hex)."""

MAX_RECORD_BYTES: Final = 16 << 20
"""The largest record read (a whole 18-turn game is about 0.4 MB)."""
MAX_LINE_BYTES: Final = 64 << 10
MAX_COMMANDS: Final = 100_000
"""No game comes near it (about 3,000 commands for 18 Game-Turns)."""

_HASH: Final = re.compile(r"[0-9a-f]{64}")
_HEX: Final = re.compile(r"(?:[0-9a-f]{2})+")
_DIGITS: Final = re.compile(r"[1-6]*")


class RecordError(ValueError):
    """An unreadable or inconsistent record; the message is one sentence for the player."""


class DiceSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Where a game's dice come from.

    ``kind``: ``"seeded"`` (:class:`rules.dice.SeededDice` of the bytes ``seed``, written as
    lowercase hex; ``text`` is the seed as the player typed it, when it has one), ``"listed"``
    (every die of the game in order, ``detail["values"]`` a string of digits 1-6: how an email
    game is exported as a record that replays on its own, its dice checked by the packets) or
    ``"none"`` (a game that never rolled). Email play adds its own kinds with their parameters in
    ``detail``; :func:`dice_for` builds only the kinds the engine knows, and other kinds are
    replayed with the dice source their provider passes in.
    """

    kind: str
    seed: str | None = None
    text: str | None = None
    detail: dict[str, str] = {}

    @classmethod
    def seeded(cls, seed: bytes, text: str | None = None) -> DiceSpec:
        """:class:`SeededDice` of ``seed`` (``text``: the seed as typed, if any)."""
        return cls(kind="seeded", seed=seed.hex(), text=text)

    @property
    def label(self) -> str:
        """The seed as a player reads it: the typed text, else hex (cut at 16 digits)."""
        if self.text is not None:
            return self.text
        h = self.seed or self.kind
        return f"{h[:16]}... (hex)" if len(h) > 16 else f"{h} (hex)"


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Who played one side: a human (``name`` optional) or a bot (``name``, ``version``, and
    in a game against the computer the ``level`` it played, :mod:`rules.levels`)."""

    kind: Literal["human", "bot"] = "human"
    name: str = ""
    version: str = ""
    level: int | None = None

    @property
    def label(self) -> str:
        if self.kind == "bot":
            who = f"bot {self.name}/{self.version}" if self.version else f"bot {self.name}"
            return who if self.level is None else f"{who} level {self.level}"
        return self.name or "human"


class Players(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who played each side."""

    german: Player = Player()
    allied: Player = Player()


class Header(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    tag_field="kind",
    tag="header",
):
    """The first line of a record (fields left at their defaults are not written)."""

    format: str
    version: int
    rules: str
    scenario: int
    dice: DiceSpec
    players: Players = Players()
    meta: dict[str, str] = {}
    """Free-form facts the writer adds (self-play seed, a title); never read by the rules."""
    level: Level | None = None
    """A game against the computer: its level of play, whose levers the engine applies on
    replay (:meth:`rules.Game.replay` builds the board at that level); None: the scenario as
    written."""


class Line(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="command"
):
    """One command and the state hash after it."""

    n: int
    command: Command
    hash: str


class Footer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="end"):
    """The last line: how many commands, where the game stands, its final hash and verdict."""

    commands: int
    turn: int
    phase: str
    hash: str
    verdict: Verdict | None = None


class Record(msgspec.Struct, frozen=True):
    """A decoded record (``footer`` is None only for a record cut short)."""

    header: Header
    lines: tuple[Line, ...]
    footer: Footer | None

    @property
    def commands(self) -> tuple[Command, ...]:
        return tuple(x.command for x in self.lines)


class Step(msgspec.Struct, frozen=True):
    """One accepted command of a game in memory: its events and the state hash after it."""

    command: Command
    events: tuple[Event, ...]
    hash: str


def make_record(
    *,
    scenario: int,
    dice: DiceSpec,
    players: Players,
    steps: Sequence[Step],
    final: GameState,
    meta: dict[str, str],
    level: Level | None = None,
) -> Record:
    """The record of a game: its header, its steps and a footer for ``final``."""
    header = Header(
        format=FORMAT,
        version=VERSION,
        rules=RULES_VERSION,
        scenario=scenario,
        dice=dice,
        players=players,
        meta=dict(sorted(meta.items())),
        level=level,
    )
    lines = tuple(Line(n=i, command=s.command, hash=s.hash) for i, s in enumerate(steps))
    footer = Footer(
        commands=len(lines),
        turn=final.turn,
        phase=final.phase,
        hash=steps[-1].hash if steps else state_hash(final),
        verdict=final.result,
    )
    return Record(header=header, lines=lines, footer=footer)


_ENC: Final = msgspec.json.Encoder(order="deterministic")
_DEC: Final = msgspec.json.Decoder(Header | Line | Footer)


def encode(record: Record) -> bytes:
    """The record as JSON Lines (deterministic bytes, ``\\n`` line ends)."""
    out = [_ENC.encode(record.header)]
    out.extend(_ENC.encode(x) for x in record.lines)
    if record.footer is not None:
        out.append(_ENC.encode(record.footer))
    return b"\n".join(out) + b"\n"


def looks_like_record(data: bytes) -> bool:
    """True when the first line of ``data`` is a record header (a cheap sniff; :func:`decode`
    decides)."""
    first = data.lstrip()[:4096].split(b"\n", 1)[0]
    return b'"kind":"header"' in first.replace(b" ", b"") and FORMAT.encode() in first


def decode(data: bytes) -> Record:
    """Strictly decode a record; raises :class:`RecordError` naming the first problem.

    Checks: size limits, UTF-8 JSON with known fields only, a header of this format and
    version, a valid dice source, command lines numbered 0, 1, ... with a 64-digit hash each,
    and a footer (when present) that counts them."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES >> 20} MiB")
    lines = [x for x in data.splitlines() if x.strip()]
    if not lines:
        raise RecordError("the record is empty")
    if len(lines) > MAX_COMMANDS + 2:
        raise RecordError(f"the record holds over {MAX_COMMANDS} commands")
    items: list[Any] = []
    for i, raw in enumerate(lines):
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(f"line {i + 1} is over {MAX_LINE_BYTES} bytes")
        try:
            items.append(_DEC.decode(raw))
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
            what = "the header" if i == 0 else f"line {i + 1}"
            raise RecordError(f"{what} is not a record line: {exc}") from None
        except RecursionError:  # msgspec skipping a deeply nested unknown field
            raise RecordError(f"line {i + 1}: JSON nested too deeply") from None
    head = items[0]
    if not isinstance(head, Header):
        raise RecordError("the first line is not a record header")
    if head.format != FORMAT:
        raise RecordError(f"the header's format is {head.format!r}, not {FORMAT!r}")
    if head.version != VERSION:
        raise RecordError(f"record version {head.version} is not supported (this is {VERSION})")
    if head.scenario < 1:
        raise RecordError(f"the header names scenario {head.scenario}")
    _check_dice(head.dice)
    _check_level(head)
    foot = items[-1] if len(items) > 1 and isinstance(items[-1], Footer) else None
    body = items[1:-1] if foot is not None else items[1:]
    for i, line in enumerate(body):
        if not isinstance(line, Line):
            raise RecordError(f"line {i + 2}: a header or end line in the middle of the record")
        if line.n != i:
            raise RecordError(
                f"command {i} ({tag(line.command)}) is numbered {line.n}: "
                "a line missing or out of order"
            )
        if not _HASH.fullmatch(line.hash):
            raise RecordError(f"command {i} ({tag(line.command)}): the hash is not 64 hex digits")
    if foot is not None:
        if foot.commands != len(body):
            raise RecordError(
                f"the end line counts {foot.commands} commands, the record holds {len(body)}"
            )
        if not _HASH.fullmatch(foot.hash):
            raise RecordError("the end line's hash is not 64 hex digits")
    return Record(header=head, lines=tuple(body), footer=foot)


def _check_level(head: Header) -> None:
    """A level of play is 1-4, and the header's bot (if it names one) played that level."""
    levels = [p.level for p in (head.players.german, head.players.allied) if p.level is not None]
    if head.level is None:
        if levels:
            raise RecordError("a player has a level of play, the header none")
        return
    if head.level.number not in NUMBERS:
        raise RecordError(f"the header's level {head.level.number} is not 1-4")
    bot = head.players.german if head.level.computer == "german" else head.players.allied
    if bot.level is not None and bot.level != head.level.number:
        raise RecordError(
            f"the {head.level.computer} bot played level {bot.level}, the header says "
            f"{head.level.number}"
        )


def _check_dice(spec: DiceSpec) -> None:
    if spec.kind == "listed" and not _DIGITS.fullmatch(spec.detail.get("values", "")):
        raise RecordError("the header's listed dice are not digits 1-6")
    if spec.kind == "seeded":
        if spec.seed is None or not _HEX.fullmatch(spec.seed):
            raise RecordError("the header's dice seed is not lowercase hex")
        if spec.text is not None and spec.text.encode().hex() != spec.seed:
            raise RecordError("the header's dice seed text and hex differ")
    elif spec.seed is not None and not _HEX.fullmatch(spec.seed):
        raise RecordError("the header's dice seed is not lowercase hex")


def dice_for(spec: DiceSpec) -> DiceSource | None:
    """The dice source of the kinds the engine knows (``seeded``; ``none`` gives None); raises
    :class:`RecordError` for another kind, whose provider must pass its own source."""
    if spec.kind == "seeded" and spec.seed is not None:
        return SeededDice(bytes.fromhex(spec.seed))
    if spec.kind == "none":
        return None
    if spec.kind == "listed":
        return ScriptedDice([int(c) for c in spec.detail.get("values", "")])
    raise RecordError(f"dice of kind {spec.kind!r} need their own provider to replay")


def tag(command: Command) -> str:
    """The command's type tag (``move``, ``end_phase``...), for messages."""
    return str(command.__struct_config__.tag)
