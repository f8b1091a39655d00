"""The vocabulary of scenarios: order of battle, set-up, reinforcement schedules, the ten
scenarios (AO-17, AO-18). Types only: :mod:`scenarios` reads and checks the data files
(``scenarios/ardennes/*.toml``) into these, and :func:`scenarios.load_board` puts one
scenario on a :class:`rules.ao.state.Board`; the engine never reads a file.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from rules.ao.units import Side, UnitDef
from rules.hexgrid import HexId

Section = Literal["NE", "NW", "W", "SW", "SE", "WB", "east", "drop"]
"""A reinforcement's entry section: an Allied map-edge section (AO-14.1A), ``WB`` for the
West-bank units (AO-14.3C), the German ``east`` edge, or ``drop`` (AO-15.a)."""
ALLIED_ENTRY_SECTIONS: Final[frozenset[str]] = frozenset({"NE", "NW", "W", "SW", "SE", "WB"})
GERMAN_ENTRY_SECTIONS: Final[frozenset[str]] = frozenset({"east", "drop"})

Line = Literal["front", "rear"]
"""Where a set-up unit stands for the free set-ups: on its side's front line or behind it
(AO-17.b, AO-17.c; :mod:`rules.ao.start_line`)."""

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


class OobEntry(UnitDef, frozen=True, forbid_unknown_fields=True):
    """One counter as stored in ``oob.toml``: the printed values plus provenance."""

    formation: str
    basis: str
    aliases: tuple[str, ...] = ()

    def unit(self) -> UnitDef:
        """The printed values alone."""
        return msgspec.convert(self, UnitDef, from_attributes=True)


class SetupEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit of the historical set-up (AO-17.a): position, line or town pin, source.

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


class ScheduleGroup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a schedule: units entering together, with the text as printed."""

    turn: int
    section: Section
    printed: str
    units: tuple[str, ...]


class Schedule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the four reinforcement schedules of the errata (AO-17.d)."""

    title: str
    group: tuple[ScheduleGroup, ...]


class ScenarioSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One row of the scenario table (AO-18.a)."""

    number: int
    title: str
    allied_setup: SetupKind
    allied_rate: AlliedRate
    german_setup: SetupKind
    german_rate: GermanRate
    expectation: str

    def setup_kind(self, side: Side) -> SetupKind:
        """How ``side`` sets up: historical (AO-17.a) or free (AO-17.b/c)."""
        return self.allied_setup if side == "allied" else self.german_setup


class Arrival(msgspec.Struct, frozen=True):
    """A reinforcement: unit id, Game-Turn and entry section (AO-14.1A, AO-14.3C, AO-15.a)."""

    unit: str
    turn: int
    section: Section


class Scenario(msgspec.Struct, frozen=True):
    """One scenario as loaded (:func:`scenarios.load_scenario`): its row of the table, its
    units, historical set-up and arrivals."""

    number: int
    title: str
    expectation: str
    allied_setup: SetupKind
    german_setup: SetupKind
    allied_rate: AlliedRate
    german_rate: GermanRate
    units: tuple[UnitDef, ...]  # every unit in this scenario, sorted by id
    setup: dict[str, HexId]  # unit id -> hex id at start (historical positions)
    arrivals: tuple[Arrival, ...]  # sorted by (turn, section, unit)
