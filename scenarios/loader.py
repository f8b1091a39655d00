"""Read and check the shipped scenario data (``scenarios/ardennes/``, validated with msgspec):

- ``oob.toml``: every counter of both sides (:class:`rules.ao.scenario.OobEntry`, printed values
  as :class:`rules.ao.units.UnitDef`); method and sources in ``oob.md``;
- ``setup.toml``: the historical set-up of 16 December (AO-17.a) by latitude/longitude, each
  unit marked ``front`` or ``rear`` for the free set-ups (AO-17.b, AO-17.c); snapped to hexes
  by :mod:`scenarios.setup`;
- ``schedules.toml``: the four reinforcement schedules of the errata (AO-17.d);
- ``scenarios.toml``: the ten scenarios (AO-18.a, AO-18.a*);
- ``map.json``: the compiled map (:func:`load_map`, decoded by :func:`rules.ao.gamemap.decode_map`).

Every file is read once per process.
"""

from __future__ import annotations

import functools
import importlib.resources
from typing import Final, TypeVar

import msgspec

from rules.ao.gamemap import GameMap, decode_map
from rules.ao.scenario import (
    ALLIED_ENTRY_SECTIONS,
    GERMAN_ENTRY_SECTIONS,
    MECHANIZED_TYPES,
    Arrival,
    OobEntry,
    ScenarioSpec,
    Schedule,
    ScheduleName,
    SetupEntry,
)
from rules.ao.units import Side, UnitDef

MAP_NAME: Final = "ardennes"
"""The folder of the shipped data under ``scenarios/``."""


class ScenarioDataError(ValueError):
    """The shipped scenario data is malformed or inconsistent."""


class _OobFile(msgspec.Struct, forbid_unknown_fields=True):
    unit: list[OobEntry]


class _SetupFile(msgspec.Struct, forbid_unknown_fields=True):
    unit: list[SetupEntry]


class _SchedulesFile(msgspec.Struct, forbid_unknown_fields=True):
    allied_historical: Schedule
    allied_slowed: Schedule
    german_historical: Schedule
    german_accelerated: Schedule


class _ScenariosFile(msgspec.Struct, forbid_unknown_fields=True):
    scenario: list[ScenarioSpec]


def read_data(name: str) -> bytes:
    """The bytes of the shipped data file ``scenarios/ardennes/<name>``."""
    return importlib.resources.files("scenarios").joinpath(MAP_NAME, name).read_bytes()


@functools.cache
def load_map(name: str = MAP_NAME) -> GameMap:
    """The compiled map shipped in ``scenarios/<name>/map.json``, loaded once per process."""
    return decode_map(
        importlib.resources.files("scenarios").joinpath(name, "map.json").read_bytes()
    )


_T = TypeVar("_T")


def _decode(name: str, typ: type[_T]) -> _T:
    try:
        return msgspec.toml.decode(read_data(name), type=typ)
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


def scenario_arrivals(spec: ScenarioSpec) -> tuple[Arrival, ...]:
    """The arrivals of both sides in scenario ``spec`` (its schedules by rate, AO-17.d),
    sorted by (turn, section, unit)."""
    allied: ScheduleName = "allied_slowed" if spec.allied_rate == "slowed" else "allied_historical"
    german: ScheduleName = (
        "german_accelerated" if spec.german_rate == "accelerated" else "german_historical"
    )
    arr = arrivals(allied) + arrivals(german)
    return tuple(sorted(arr, key=lambda a: (a.turn, a.section, a.unit)))
