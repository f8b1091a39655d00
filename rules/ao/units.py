"""Unit definitions: the printed values of a counter (AO-3.3).

A counter has a side, a designation as printed in the reinforcement schedules (``cca7``,
``2ss a``, ``79 i``), a nationality, a type (which decides whether it is mechanized, AO-3.32),
a size (which decides stacking, AO-8.0), a combat strength and a movement allowance.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

Side = Literal["allied", "german"]
SIDES: Final[tuple[Side, ...]] = ("german", "allied")

Nationality = Literal["US", "British", "French", "German"]

Size = Literal["XX", "X", "III", "II"]
"""Division, brigade, regiment, battalion (the schedules list one ``401G (II)``)."""

UnitType = Literal[
    "infantry",
    "armor",
    "armored_infantry",
    "armored_cavalry",
    "airborne",
    "glider",
    "engineer",
    "paratroop",
]
"""``airborne``: US parachute infantry (``pi``); ``glider``: glider infantry (``G``);
``paratroop``: German Fallschirmjäger (von der Heydte)."""


class UnitDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The printed values of one counter."""

    id: str
    side: Side
    designation: str
    nationality: Nationality
    type: UnitType
    size: Size
    mechanized: bool
    strength: int
    movement: int

    @property
    def is_german_infantry_division(self) -> bool:
        """A Volksgrenadier/infantry division: stacks with nothing (AO-8.2C)."""
        return self.side == "german" and self.size == "XX"

    @property
    def stacking_points(self) -> int:
        """Division equivalents in thirds: 3 for a German infantry division, else 1 (AO-8.0)."""
        return 3 if self.is_german_infantry_division else 1


STACK_LIMIT: Final = 3
"""At most one division equivalent (three regiments/brigades) per hex (AO-8.0)."""
