"""Order of battle, historical set-up, reinforcement schedules and the ten scenarios.

Data (``scenarios/ardennes/``, validated with msgspec on load):

- ``oob.toml``: every counter of both sides (:class:`OobEntry`, printed values as
  :class:`rules.units.UnitDef`); method and sources in ``oob.md``.
- ``setup.toml``: the historical set-up of 16 December (AO-17.a) by latitude/longitude, each
  unit marked ``front`` or ``rear`` for the free set-ups (AO-17.b, AO-17.c); snapped to hexes
  of the compiled map by :func:`rules.placement.place`.
- ``schedules.toml``: the four reinforcement schedules of the errata (AO-17.d).
- ``scenarios.toml``: the ten scenarios (AO-18.a, AO-18.a*).

Free set-up scenarios start from the historical placement too; the player may then rearrange
it within :func:`validate_free_setup` (in :mod:`rules.setup_rules`).
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Mapping
from typing import Final, Literal, TypeVar

import msgspec

from rules.gamemap import GameMap, load_map
from rules.hexgrid import HexId
from rules.placement import Line, Spot, place
from rules.start_line import front_line
from rules.units import Nationality, Side, Size, UnitDef, UnitType

Section = Literal["NE", "NW", "W", "SW", "SE", "WB", "east", "drop"]
ALLIED_ENTRY_SECTIONS: Final[frozenset[str]] = frozenset({"NE", "NW", "W", "SW", "SE", "WB"})
GERMAN_ENTRY_SECTIONS: Final[frozenset[str]] = frozenset({"east", "drop"})

SetupKind = Literal["historical", "free"]
AlliedRate = Literal["historical", "slowed"]
GermanRate = Literal["historical", "accelerated"]
ScheduleName = Literal[
    "allied_historical", "allied_slowed", "german_historical", "german_accelerated"
]
SCHEDULE_NAMES: Final[tuple[ScheduleName, ...]] = (
    "allied_historical",
    "allied_slowed",
    "german_historical",
    "german_accelerated",
)

MECHANIZED_TYPES: Final[frozenset[str]] = frozenset(
    {"armor", "armored_infantry", "armored_cavalry"}
)
"""Unit types that are mechanized (AO-3.32; AO-4.1 phase 5 moves only these again)."""

MAP_NAME: Final = "ardennes"


class ScenarioDataError(ValueError):
    """The shipped scenario data is malformed or inconsistent."""


# -- data files -------------------------------------------------------------------------------


class OobEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One counter as stored in ``oob.toml``: the printed values plus provenance."""

    id: str
    side: Side
    designation: str
    nationality: Nationality
    type: UnitType
    size: Size
    mechanized: bool
    strength: int
    movement: int
    formation: str
    basis: str
    aliases: tuple[str, ...] = ()

    def unit(self) -> UnitDef:
        return UnitDef(
            id=self.id,
            side=self.side,
            designation=self.designation,
            nationality=self.nationality,
            type=self.type,
            size=self.size,
            mechanized=self.mechanized,
            strength=self.strength,
            movement=self.movement,
        )


class _OobFile(msgspec.Struct, forbid_unknown_fields=True):
    unit: list[OobEntry]


class SetupEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit of the historical set-up: position, line or town pin, source.

    ``line`` (front/rear) is given for every unit without a ``town``; a town-pinned unit
    (errata M6) is on whichever line its town's hex is.
    """

    id: str
    lat: float
    lon: float
    source: str
    line: Line | None = None
    town: str | None = None
    bita: str | None = None


class _SetupFile(msgspec.Struct, forbid_unknown_fields=True):
    unit: list[SetupEntry]


class ScheduleGroup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a schedule: units entering together, with the text as printed."""

    turn: int
    section: Section
    printed: str
    units: tuple[str, ...]


class Schedule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    title: str
    group: tuple[ScheduleGroup, ...]


class _SchedulesFile(msgspec.Struct, forbid_unknown_fields=True):
    allied_historical: Schedule
    allied_slowed: Schedule
    german_historical: Schedule
    german_accelerated: Schedule


class ScenarioSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One row of the scenario table (AO-18.a)."""

    number: int
    title: str
    allied_setup: SetupKind
    allied_rate: AlliedRate
    german_setup: SetupKind
    german_rate: GermanRate
    expectation: str


class _ScenariosFile(msgspec.Struct, forbid_unknown_fields=True):
    scenario: list[ScenarioSpec]


# -- public API -------------------------------------------------------------------------------


class Arrival(msgspec.Struct, frozen=True):
    """A reinforcement: unit id, Game-Turn and entry section (AO-14.1A, AO-14.3C, AO-15.a)."""

    unit: str
    turn: int
    section: str  # "NE"|"NW"|"W"|"SW"|"SE"|"WB"|"east"|"drop"


class Scenario(msgspec.Struct, frozen=True):
    """Everything the rules engine needs to start a game of one scenario."""

    number: int
    title: str
    expectation: str
    allied_setup: str  # "historical" | "free"
    german_setup: str
    allied_rate: str  # "historical" | "slowed"
    german_rate: str  # "historical" | "accelerated"
    units: tuple[UnitDef, ...]  # every unit in this scenario, sorted by id
    setup: dict[str, str]  # unit id -> hex id at start (historical positions)
    arrivals: tuple[Arrival, ...]  # sorted by (turn, section, unit)


def _read(name: str) -> bytes:
    return importlib.resources.files("scenarios").joinpath(MAP_NAME, name).read_bytes()


_T = TypeVar("_T")


def _decode(name: str, typ: type[_T]) -> _T:
    try:
        return msgspec.toml.decode(_read(name), type=typ)
    except msgspec.DecodeError as exc:
        raise ScenarioDataError(f"{MAP_NAME}/{name}: {exc}") from None


@functools.cache
def oob_entries() -> tuple[OobEntry, ...]:
    """Every counter of both sides, in file order, checked."""
    entries = tuple(_decode("oob.toml", _OobFile).unit)
    seen: set[str] = set()
    for e in entries:
        if e.id in seen:
            raise ScenarioDataError(f"oob.toml: unit id {e.id} is listed twice")
        seen.add(e.id)
        if e.mechanized != (e.type in MECHANIZED_TYPES):
            raise ScenarioDataError(f"oob.toml: {e.id}: mechanized does not match type {e.type}")
        if e.strength < 1 or e.movement < 1:
            raise ScenarioDataError(f"oob.toml: {e.id}: strength and movement must be >= 1")
        if (e.nationality == "German") != (e.side == "german"):
            raise ScenarioDataError(f"oob.toml: {e.id}: nationality {e.nationality} on {e.side}")
    return entries


def load_oob() -> dict[str, UnitDef]:
    """Unit id -> printed values, for every counter of both sides (sorted by id)."""
    return {e.id: e.unit() for e in sorted(oob_entries(), key=lambda e: e.id)}


@functools.cache
def setup_entries() -> tuple[SetupEntry, ...]:
    """The historical set-up in file order (von der Heydte is not in it: he drops, AO-15.a)."""
    entries = tuple(_decode("setup.toml", _SetupFile).unit)
    oob = {e.id for e in oob_entries()}
    seen: set[str] = set()
    for e in entries:
        if e.id not in oob:
            raise ScenarioDataError(f"setup.toml: {e.id} is not in the order of battle")
        if e.id in seen:
            raise ScenarioDataError(f"setup.toml: {e.id} is listed twice")
        if (e.line is None) == (e.town is None):
            raise ScenarioDataError(f"setup.toml: {e.id}: give either a line or a town")
        seen.add(e.id)
    return entries


@functools.cache
def schedules() -> dict[ScheduleName, Schedule]:
    """The four reinforcement schedules of the errata, checked (AO-17.d)."""
    raw = _decode("schedules.toml", _SchedulesFile)
    out: dict[ScheduleName, Schedule] = {
        "allied_historical": raw.allied_historical,
        "allied_slowed": raw.allied_slowed,
        "german_historical": raw.german_historical,
        "german_accelerated": raw.german_accelerated,
    }
    units = {e.id: e for e in oob_entries()}
    at_start = {e.id for e in setup_entries()}
    for name, sched in out.items():
        side: Side = "allied" if name.startswith("allied") else "german"
        sections = ALLIED_ENTRY_SECTIONS if side == "allied" else GERMAN_ENTRY_SECTIONS
        seen: set[str] = set()
        for g in sched.group:
            if not 1 <= g.turn <= 18:
                raise ScenarioDataError(f"{name}: Game-Turn {g.turn} is not 1..18")
            if g.section not in sections:
                raise ScenarioDataError(f"{name}: section {g.section} is not a {side} section")
            for uid in g.units:
                e = units.get(uid)
                if e is None:
                    raise ScenarioDataError(f"{name}: {uid} is not in the order of battle")
                if e.side != side:
                    raise ScenarioDataError(f"{name}: {uid} is not a {side} unit")
                if uid in seen:
                    raise ScenarioDataError(f"{name}: {uid} arrives twice")
                if uid in at_start:
                    raise ScenarioDataError(f"{name}: {uid} is also in the set-up")
                if (g.section == "drop") != (uid == "de-vdh"):
                    raise ScenarioDataError(f"{name}: only von der Heydte drops (AO-15.b)")
                seen.add(uid)
    return out


def arrivals(name: ScheduleName) -> tuple[Arrival, ...]:
    """The arrivals of one schedule, sorted by (turn, section, unit)."""
    out = [
        Arrival(unit=uid, turn=g.turn, section=g.section)
        for g in schedules()[name].group
        for uid in g.units
    ]
    return tuple(sorted(out, key=lambda a: (a.turn, a.section, a.unit)))


@functools.cache
def scenario_specs() -> dict[int, ScenarioSpec]:
    """Scenario number -> its row of the table (AO-18.a with errata AO-18.a*)."""
    specs = _decode("scenarios.toml", _ScenariosFile).scenario
    out = {s.number: s for s in specs}
    if len(out) != len(specs):
        raise ScenarioDataError("scenarios.toml: a scenario number is listed twice")
    return dict(sorted(out.items()))


def scenario_numbers() -> tuple[int, ...]:
    """The scenario numbers, ascending (1..10)."""
    return tuple(scenario_specs())


def spots() -> tuple[Spot, ...]:
    """The historical set-up as placement requests, in file order."""
    units = {e.id: e for e in oob_entries()}
    return tuple(
        Spot(unit=e.id, side=units[e.id].side, line=e.line, lat=e.lat, lon=e.lon, town=e.town)
        for e in setup_entries()
    )


SETUP_HEXES: Final = "setup_hexes.json"
"""The historical set-up compiled to hex ids by ``python -m scenarios.build``."""


def historical_setup(gmap: GameMap | None = None) -> dict[str, HexId]:
    """Unit id -> hex of the historical set-up on ``gmap``.

    For the shipped map this is the committed ``setup_hexes.json`` (compiled with the map, so
    every machine starts from the same hexes without floating-point placement at load time);
    for another map it is computed with :func:`compile_setup`.
    """
    if gmap is None:
        return dict(_shipped_setup())
    return dict(_computed_setup(gmap))


def compile_setup(gmap: GameMap) -> dict[str, HexId]:
    """Snap the lat/lon set-up of ``setup.toml`` to hexes of ``gmap`` (``rules.placement``)."""
    return dict(sorted(place(gmap, spots()).items()))


def encode_setup(setup: Mapping[str, HexId]) -> bytes:
    """Canonical bytes of a compiled set-up: one ``"unit": "hex"`` per line, sorted by unit."""
    rows = [
        msgspec.json.encode(k) + b": " + msgspec.json.encode(v) for k, v in sorted(setup.items())
    ]
    return b"{\n" + b",\n".join(rows) + b"\n}\n"


@functools.cache
def _computed_setup(gmap: GameMap) -> tuple[tuple[str, HexId], ...]:
    return tuple(sorted(compile_setup(gmap).items()))


@functools.cache
def _shipped_setup() -> tuple[tuple[str, HexId], ...]:
    try:
        setup = msgspec.json.decode(_read(SETUP_HEXES), type=dict[str, str])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ScenarioDataError(f"{MAP_NAME}/{SETUP_HEXES}: {exc}") from None
    gmap = load_map(MAP_NAME)
    known = {e.id for e in oob_entries()}
    for unit, hex_id in setup.items():
        if unit not in known or hex_id not in gmap:
            raise ScenarioDataError(f"{MAP_NAME}/{SETUP_HEXES}: bad entry {unit!r}: {hex_id!r}")
    return tuple(sorted(setup.items()))


def front_line_units(gmap: GameMap | None = None) -> frozenset[str]:
    """Ids of the units whose historical hex is on their side's front line (AO-17.b/c).

    The others set up behind the front line. For units with a ``line`` in ``setup.toml`` this
    is that line; a town-pinned unit takes its town's.
    """
    gm = gmap if gmap is not None else load_map(MAP_NAME)
    units = {e.id: e.side for e in oob_entries()}
    return frozenset(
        uid for uid, h in historical_setup(gm).items() if h in front_line(gm, units[uid])
    )


def load_scenario(number: int) -> Scenario:
    """The scenario ``number`` with its units, historical set-up and arrivals.

    Raises KeyError for a number that is not a scenario.
    """
    spec = scenario_specs()[number]
    setup = historical_setup()
    allied: ScheduleName = "allied_slowed" if spec.allied_rate == "slowed" else "allied_historical"
    german: ScheduleName = (
        "german_accelerated" if spec.german_rate == "accelerated" else "german_historical"
    )
    arr = arrivals(allied) + arrivals(german)
    arr = tuple(sorted(arr, key=lambda a: (a.turn, a.section, a.unit)))
    oob = load_oob()
    ids = sorted(set(setup) | {a.unit for a in arr})
    return Scenario(
        number=spec.number,
        title=spec.title,
        expectation=spec.expectation,
        allied_setup=spec.allied_setup,
        german_setup=spec.german_setup,
        allied_rate=spec.allied_rate,
        german_rate=spec.german_rate,
        units=tuple(oob[i] for i in ids),
        setup=setup,
        arrivals=arr,
    )


def validate_free_setup(
    scenario: Scenario, side: Side, placement: Mapping[str, HexId]
) -> list[str]:
    """Problems with ``side``'s set-up ``placement`` (empty when valid): see rules.setup_rules."""
    from rules.setup_rules import validate_free_setup as validate

    return validate(scenario, side, placement)
