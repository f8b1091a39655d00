"""The order of battle of *Breakthrough in the Ardennes*: ``oob.toml``, typed and checked.

13.2 (every unit: strength, arrival date, start hex, mobility; BA-13.2a-d), 13.4 (the corps
artillery pools, BA-13.4a-c), 7.4 (the operation point allowances, BA-7.4c-f) and 5.2 (the unit
limits, BA-5.2a). :func:`load_oob` decodes the file strictly (msgspec, unknown fields refused)
and checks it: unique ids, coordinates on the grid, known classes and pools, and that every
unit's fields say what its ``printed`` line of the manual says, except where the line names the
slip (``O1``...) that was corrected (``docs/rules-notes-breakthrough.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

import msgspec

from scenarios.breakthrough.grid import Coord, CoordError, parse_label

OOB_PATH: Final = Path(__file__).resolve().parent / "oob.toml"
MAX_OOB_BYTES: Final = 512 * 1024

Side = Literal["american", "german"]
UnitType = Literal["INF", "ARM", "CAV", "ENG", "AB", "PZGR", "PZ", "VG", "FJ"]

FIRST_DAY: Final = 16
LAST_DAY: Final = 27

PRINTED: Final = re.compile(
    r"^(\S+) (INF|ARM|CAV|ENG|AB|PZGR|PZ|VG|FJ) (\d+) (\d+)(?:st|nd|rd|th) (\d+,\d+)(\*?) ([YN])$"
)
"""A line of 13.2 as printed: designation, type, combat, start date, start hex, ``*``, Mob."""


class OobDataError(ValueError):
    """``oob.toml`` is missing, too large or inconsistent."""


class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit of 13.2 (corrected; ``printed`` is the manual's line)."""

    id: str
    side: Side
    designation: str
    unit: str
    division: str
    """The division as 13.4 names it ("2A", "3FJ", "116PZ" ...); "" for an independent unit."""
    corps: str
    type: UnitType
    combat: int
    day: int
    hex: str
    mobile: bool
    corridor: bool
    allowance: str
    printed: str
    combat_two_player: int | None = None
    slip: str = ""

    @property
    def coord(self) -> Coord:
        """The start (day 16) or entry hex."""
        return parse_label(self.hex)

    @property
    def at_start(self) -> bool:
        """On the map on 16 December (BA-13.2b)."""
        return self.day == FIRST_DAY

    def combat_value(self, two_player: bool) -> int:
        """The combat value: two-player games use the note under 13.2 (BA-13.2c)."""
        if two_player and self.combat_two_player is not None:
            return self.combat_two_player
        return self.combat


class Allowance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A base allowance of 7.4: ``first`` at the start of the turn, ``second`` for the second
    operation phase (BA-7.4c-d)."""

    id: str
    side: Side
    text: str
    first: int
    second: int


class Pool(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A corps artillery pool of 13.4 (``reinforcement_day`` 0: no reinforcement points)."""

    side: Side
    corps: str
    divisions: tuple[str, ...]
    points: int
    reinforcement: int
    reinforcement_day: int


class Limits(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """5.2's unit limits and 7.4's second-phase maxima."""

    units_american: int
    units_german: int
    second_phase_max_american_mobile: int
    second_phase_max_german_mobile: int
    second_phase_max_non_mobile: int


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    limits: Limits
    allowance: tuple[Allowance, ...]
    pool: tuple[Pool, ...]
    unit: tuple[Unit, ...]


class OrderOfBattle:
    """The loaded order of battle, with lookups (read-only)."""

    def __init__(self, f: _File) -> None:
        self.limits: Final = f.limits
        self.units: Final = f.unit
        self.pools: Final = f.pool
        self.allowances: Final = f.allowance
        self._unit: Mapping[str, Unit] = MappingProxyType({u.id: u for u in f.unit})
        self._allow: Mapping[str, Allowance] = MappingProxyType({a.id: a for a in f.allowance})
        self._pool: Mapping[tuple[Side, str], Pool] = MappingProxyType(
            {(p.side, p.corps): p for p in f.pool}
        )

    def unit(self, unit_id: str) -> Unit:
        """The unit with id ``unit_id`` (``KeyError`` if none)."""
        return self._unit[unit_id]

    def side(self, side: Side) -> tuple[Unit, ...]:
        """A side's units, in the manual's order."""
        return tuple(u for u in self.units if u.side == side)

    def allowance(self, u: Unit) -> Allowance:
        """The 7.4 base allowance of ``u``."""
        return self._allow[u.allowance]

    def pool(self, u: Unit) -> Pool | None:
        """The Artillery Corps Pool of ``u``: its corps' pool, for a unit that belongs to a
        division (BA-6.4a, BA-13.4c); ``None`` for an independent unit or a corps without one."""
        if not u.division:
            return None
        return self._pool.get((u.side, u.corps))

    def unit_limit(self, side: Side) -> int:
        """Units a side may have on the map at one time (BA-5.2a)."""
        return self.limits.units_american if side == "american" else self.limits.units_german


def _check(f: _File) -> None:
    ids: set[str] = set()
    allow = {a.id: a for a in f.allowance}
    for u in f.unit:
        where = f"unit {u.id}"
        if u.id in ids:
            raise OobDataError(f"{where}: duplicate id")
        ids.add(u.id)
        try:
            parse_label(u.hex)
        except CoordError as exc:
            raise OobDataError(f"{where}: {exc}") from None
        if not FIRST_DAY <= u.day <= LAST_DAY:
            raise OobDataError(f"{where}: day {u.day} is not 16-27 December")
        if u.allowance not in allow or allow[u.allowance].side != u.side:
            raise OobDataError(f"{where}: no {u.side} allowance class {u.allowance!r}")
        _check_printed(u)
    for p in f.pool:
        if p.reinforcement_day and not FIRST_DAY <= p.reinforcement_day <= LAST_DAY:
            raise OobDataError(f"pool {p.corps}: reinforcement day {p.reinforcement_day}")


def _check_printed(u: Unit) -> None:
    """The fields must say what the manual's line says, unless the line names a slip."""
    m = PRINTED.match(u.printed)
    if m is None:
        raise OobDataError(f"unit {u.id}: printed line {u.printed!r} is not a 13.2 line")
    desig, typ, combat, day, hexlabel, star, mob = m.groups()
    printed = (desig, typ, int(combat), int(day), hexlabel, star == "*", mob == "Y")
    ours = (u.designation, u.type, u.combat, u.day, u.hex, u.corridor, u.mobile)
    if printed != ours and not u.slip:
        raise OobDataError(f"unit {u.id}: differs from the manual's line and names no slip")
    if printed == ours and u.slip:
        raise OobDataError(f"unit {u.id}: names slip {u.slip} but says what the manual says")


def decode_oob(raw: bytes) -> OrderOfBattle:
    """Parse and check ``oob.toml`` bytes."""
    if len(raw) > MAX_OOB_BYTES:
        raise OobDataError(f"order of battle is {len(raw)} bytes, over {MAX_OOB_BYTES}")
    try:
        f = msgspec.toml.decode(raw, type=_File)
    except msgspec.DecodeError as exc:
        raise OobDataError(f"not a Breakthrough order of battle: {exc}") from None
    _check(f)
    return OrderOfBattle(f)


def load_oob(path: Path = OOB_PATH) -> OrderOfBattle:
    """Read ``oob.toml`` (one clear :class:`OobDataError` on any problem)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_OOB_BYTES + 1)
    except OSError as exc:
        raise OobDataError(f"cannot read {path}: {exc.strerror}") from None
    return decode_oob(raw)
