"""The game record: what PGN is to chess, one format for every game we write down.

A record is UTF-8 JSON Lines (``docs/engine.md``, "The game record"):

1. a **header** ``{"kind": "header", "format": "ardennes-record", "version": 1,
   "rules": ..., "scenario": N, "dice": {...}, "players": {...}, "meta": {...}, "level":
   {...}, "ruleset": ...}``: the format version, the ruleset's rules version, the scenario,
   where the dice come from (:class:`DiceSpec`, open to new kinds: email play adds its own),
   who played each side (:class:`Players`), for a game against the computer its level of
   play in the ruleset's form (the AO's :class:`rules.ao.levels.Level`: the levers the engine
   applies on replay; absent otherwise, as are players and meta left at their defaults) and
   the ruleset's id (:mod:`rules.ruleset`; absent: ``ao``, so every record of The Ardennes
   Offensive, old and new, reads as before, byte for byte);
2. one **command** a line, ``{"kind": "command", "n": i, "command": {...}, "hash": ...}``, with
   the state hash after it (:func:`rules.ruleset.state_hash_of`), the command in the
   ruleset's own form;
3. a **footer** ``{"kind": "end", "commands": N, "turn": T, "phase": P, "hash": ...,
   "verdict": ...}`` with the final hash and the verdict (``null`` while the game goes on).

Hot-seat saves, games against the computer and self-play logs are all records, and the commands
of an email game concatenate to one. :func:`decode` reads strictly (known fields only, size
limits, lines numbered in order; the commands, verdict and level of the header's ruleset,
found in :mod:`rules.registry`); :meth:`rules.game.Game.replay` replays through the rules and
names the first command that is refused or whose hash differs, so a hand-edited record is never
loaded silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final, Generic, Literal, TypeAlias, TypeVar

import msgspec

from rules import registry
from rules.dice import MAX_FACES, DiceSource, ScriptedDice, SeededDice
from rules.ruleset import Ruleset, state_hash_of
from rules.ruleset import tag as tag

FORMAT: Final = "ardennes-record"
VERSION: Final = 1
LEGACY_RULESET: Final = "ao"
"""The ruleset of a header that names none: every record written before issue 23, and every
record of The Ardennes Offensive still (the field is left out at its default, so their bytes
do not change)."""
RULES_VERSION: Final = "ao-1973+errata-1973-05-31/4"
"""Deprecated (phase 2 of issue 23 removes it): the AO's rules version, for ``pbem`` until it
asks the game's ruleset (:attr:`rules.ruleset.Ruleset.version`; ``rules.ao.RULES_VERSION``, a
test checks they agree)."""

MAX_RECORD_BYTES: Final = 16 << 20
"""The largest record read (a whole 18-turn game of the AO is about 0.4 MB)."""
MAX_LINE_BYTES: Final = 64 << 10
MAX_COMMANDS: Final = 100_000
"""No game comes near it (about 3,000 commands for 18 Game-Turns of the AO)."""

_HASH: Final = re.compile(r"[0-9a-f]{64}")
_HEX: Final = re.compile(r"(?:[0-9a-f]{2})+")
_DIGITS: Final = re.compile(r"[1-9]*")
_LIST: Final = re.compile(r"[1-9][0-9]{0,2}(?:,[1-9][0-9]{0,2})*")
_RULESET_ID: Final = re.compile(r"[a-z][a-z0-9]{0,15}")

C = TypeVar("C")
V = TypeVar("V")
L = TypeVar("L")

AnyRuleset = Ruleset[Any, Any, Any, Any, Any, Any, Any, Any]


class RecordError(ValueError):
    """An unreadable or inconsistent record; the message is one sentence for the player."""


class DiceSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Where a game's dice come from.

    ``kind``: ``"seeded"`` (:class:`rules.dice.SeededDice` of the bytes ``seed``, written as
    lowercase hex; ``text`` is the seed as the player typed it, when it has one), ``"listed"``
    (every die of the game in order, :meth:`listed`: how an email game is exported as a record
    that replays on its own, its dice checked by the packets) or
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

    @classmethod
    def listed(cls, values: Sequence[int]) -> DiceSpec:
        """Every die of a game, in order, in its one canonical spelling: ``detail["values"]``
        a string of one digit a die when every value is 1-9 (the AO's d6: the records written
        before percentage dice read unchanged), else ``detail["list"]``, the values in decimal
        separated by commas (*Breakthrough*'s percentages: ``"37,5,100"``)."""
        if any(not 1 <= v <= MAX_FACES for v in values):
            raise ValueError(f"a die is 1 to {MAX_FACES}")
        if all(v <= 9 for v in values):
            return cls(kind="listed", detail={"values": "".join(map(str, values))})
        return cls(kind="listed", detail={"list": ",".join(map(str, values))})

    @property
    def label(self) -> str:
        """The seed as a player reads it: the typed text, else hex (cut at 16 digits)."""
        if self.text is not None:
            return self.text
        h = self.seed or self.kind
        return f"{h[:16]}... (hex)" if len(h) > 16 else f"{h} (hex)"


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Who played one side: a human (``name`` optional) or a bot (``name``, ``version``, and
    in a game against the computer the ``level`` it played, :mod:`rules.ao.levels`)."""

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


Players: TypeAlias = dict[str, Player]
"""Who played each side, by the ruleset's side names (a side not named: a human, ``Player()``;
:func:`player`). A header written before the seam named the AO's ``german`` and ``allied``
in that order; the same JSON object reads as this mapping, and it is written with its keys
sorted (record format 1 unchanged: a reader never depended on the order)."""


def player(players: Players, side: str) -> Player:
    """Who played ``side`` (a human when the header names nobody)."""
    return players.get(side, Player())


class Header(
    msgspec.Struct,
    Generic[L],
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
    players: Players = {}
    meta: dict[str, str] = {}
    """Free-form facts the writer adds (self-play seed, a title); never read by the rules."""
    level: L | None = None
    """A game against the computer: its level of play in the ruleset's own form, whose levers
    the engine applies on replay (:meth:`rules.game.Game.replay`); None: the scenario as
    written."""
    ruleset: str = LEGACY_RULESET
    """The ruleset's id (:attr:`rules.ruleset.Ruleset.id`); left out for ``ao``."""


class Line(
    msgspec.Struct,
    Generic[C],
    frozen=True,
    forbid_unknown_fields=True,
    tag_field="kind",
    tag="command",
):
    """One command (the ruleset's) and the state hash after it."""

    n: int
    command: C
    hash: str


class Footer(
    msgspec.Struct,
    Generic[V],
    frozen=True,
    forbid_unknown_fields=True,
    tag_field="kind",
    tag="end",
):
    """The last line: how many commands, where the game stands, its final hash and verdict
    (the ruleset's)."""

    commands: int
    turn: int
    phase: str
    hash: str
    verdict: V | None = None


class Record(msgspec.Struct, frozen=True):
    """A decoded record (``footer`` is None only for a record cut short). Its commands,
    verdict and level are of the header's ruleset (:attr:`ruleset`)."""

    header: Header[Any]
    lines: tuple[Line[Any], ...]
    footer: Footer[Any] | None

    @property
    def commands(self) -> tuple[Any, ...]:
        return tuple(x.command for x in self.lines)

    @property
    def ruleset(self) -> str:
        """The id of the record's ruleset."""
        return self.header.ruleset


class Step(msgspec.Struct, Generic[C], frozen=True):
    """One accepted command of a game in memory: its events and the state hash after it."""

    command: C
    events: tuple[Any, ...]
    hash: str


def make_record(
    *,
    scenario: int,
    dice: DiceSpec,
    players: Players,
    steps: Sequence[Step[Any]],
    final: Any,
    meta: dict[str, str],
    level: Any = None,
    ruleset: AnyRuleset,
) -> Record:
    """The record of a game of ``ruleset``: its header, its steps and a footer for the state
    ``final``."""
    rs = ruleset
    header: Header[Any] = Header(
        format=FORMAT,
        version=VERSION,
        rules=rs.version,
        scenario=scenario,
        dice=dice,
        players=players,
        meta=dict(sorted(meta.items())),
        level=level,
        ruleset=rs.id,
    )
    lines = tuple(Line(n=i, command=s.command, hash=s.hash) for i, s in enumerate(steps))
    turn, phase = rs.where(final)
    footer: Footer[Any] = Footer(
        commands=len(lines),
        turn=turn,
        phase=phase,
        hash=steps[-1].hash if steps else state_hash_of(rs, final),
        verdict=rs.outcome(final),
    )
    return Record(header=header, lines=lines, footer=footer)


_ENC: Final = msgspec.json.Encoder(order="deterministic")


class _Sniff(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="header"
):
    """A header read only for its ruleset: the other fields are skipped (the strict read
    follows, with that ruleset's types), an unknown field is refused here already."""

    format: msgspec.Raw = msgspec.Raw()
    version: msgspec.Raw = msgspec.Raw()
    rules: msgspec.Raw = msgspec.Raw()
    scenario: msgspec.Raw = msgspec.Raw()
    dice: msgspec.Raw = msgspec.Raw()
    players: msgspec.Raw = msgspec.Raw()
    meta: msgspec.Raw = msgspec.Raw()
    level: msgspec.Raw = msgspec.Raw()
    ruleset: str = LEGACY_RULESET


class _NotHeader(msgspec.Struct, frozen=True, tag_field="kind", tag="command"):
    """A first line that is not a header (the strict read says so)."""


class _NotHeaderEnd(msgspec.Struct, frozen=True, tag_field="kind", tag="end"):
    """A first line that is not a header (the strict read says so)."""


_SNIFF: Final = msgspec.json.Decoder(_Sniff | _NotHeader | _NotHeaderEnd)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}


def _decoder(rs: AnyRuleset) -> msgspec.json.Decoder[Any]:
    """The strict decoder of one ruleset's record lines (built once per ruleset)."""
    dec = _DECODERS.get(rs.id)
    if dec is None:
        kinds = Header[rs.level_type] | Line[rs.command_type] | Footer[rs.verdict_type]  # type: ignore[name-defined]
        dec = _DECODERS[rs.id] = msgspec.json.Decoder(kinds)
    return dec


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


def record_ruleset(first_line: bytes) -> AnyRuleset:
    """The ruleset a record's header names (absent: ``ao``); :class:`RecordError` when the
    header is unreadable or names a ruleset this program does not have."""
    try:
        sniff = _SNIFF.decode(first_line)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"the header is not a record line: {exc}") from None
    except RecursionError:
        raise RecordError("line 1: JSON nested too deeply") from None
    # a first line that is no header: the strict read of any ruleset refuses it
    rid = sniff.ruleset if isinstance(sniff, _Sniff) else LEGACY_RULESET
    if not _RULESET_ID.fullmatch(rid):
        raise RecordError(f"the header's ruleset {rid[:20]!r} is not a ruleset id")
    try:
        return registry.get(rid)
    except KeyError:
        known = ", ".join(registry.ids()) or "none"
        raise RecordError(
            f"the record is of ruleset {rid!r}, which this program does not play "
            f"(it plays: {known})"
        ) from None


def decode(data: bytes) -> Record:
    """Strictly decode a record; raises :class:`RecordError` naming the first problem.

    Checks: size limits, UTF-8 JSON with known fields only, a header of this format and
    version naming a known ruleset, a valid dice source, command lines of that ruleset
    numbered 0, 1, ... with a 64-digit hash each, and a footer (when present) that counts
    them."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES >> 20} MiB")
    lines = [x for x in data.splitlines() if x.strip()]
    if not lines:
        raise RecordError("the record is empty")
    if len(lines) > MAX_COMMANDS + 2:
        raise RecordError(f"the record holds over {MAX_COMMANDS} commands")
    if len(lines[0]) > MAX_LINE_BYTES:
        raise RecordError(f"line 1 is over {MAX_LINE_BYTES} bytes")
    rs = record_ruleset(lines[0])
    dec = _decoder(rs)
    items: list[Any] = []
    for i, raw in enumerate(lines):
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(f"line {i + 1} is over {MAX_LINE_BYTES} bytes")
        try:
            items.append(dec.decode(raw))
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
    _check_level(rs, head)
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


def _check_level(rs: AnyRuleset, head: Header[Any]) -> None:
    """The header's level of play and its players' levels agree (the ruleset decides)."""
    unknown = sorted(set(head.players) - set(rs.sides))
    if unknown:
        raise RecordError(f"the header names players of {unknown[0]!r}, not a side of {rs.id!r}")
    bots = {side: p.level for side, p in sorted(head.players.items()) if p.level is not None}
    why = rs.check_header(head.level, bots)
    if why is not None:
        raise RecordError(why)


def _listed_values(spec: DiceSpec) -> list[int]:
    """The dice of a ``listed`` spec, checked canonical (:meth:`DiceSpec.listed`)."""
    keys = sorted(spec.detail)
    if keys == ["values"] and _DIGITS.fullmatch(spec.detail["values"]):
        return [int(c) for c in spec.detail["values"]]
    if keys == ["list"] and _LIST.fullmatch(spec.detail["list"]):
        values = [int(v) for v in spec.detail["list"].split(",")]
        if max(values) <= MAX_FACES and DiceSpec.listed(values).detail == spec.detail:
            return values
    raise RecordError(
        "the header's listed dice are neither one digit 1-9 a die (values) nor, when one is "
        f"over 9, decimals 1-{MAX_FACES} separated by commas (list)"
    )


def _check_dice(spec: DiceSpec) -> None:
    if spec.kind == "listed":
        _listed_values(spec)
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
        values = _listed_values(spec)
        return ScriptedDice(values, faces=max([6, *values]))
    raise RecordError(f"dice of kind {spec.kind!r} need their own provider to replay")
