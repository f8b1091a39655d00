"""How a unit counter is written in text: type letter, strength-movement, size."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rules.ao import UnitDef
from rules.hexgrid import HexId

UnitsByHex = Mapping[HexId, Sequence[UnitDef]]
"""Units placed on the map: hex -> stack, top counter first."""

TYPE_LETTER: Final[dict[str, str]] = {
    "infantry": "I",
    "armor": "A",
    "armored_infantry": "M",
    "armored_cavalry": "C",
    "airborne": "P",
    "glider": "G",
    "engineer": "E",
    "paratroop": "P",
}
"""One letter per unit type, shown on the map before strength-movement."""

TYPE_NAME: Final[dict[str, str]] = {
    "infantry": "inf",
    "armor": "arm",
    "armored_infantry": "arm inf",
    "armored_cavalry": "arm cav",
    "airborne": "airb",
    "glider": "glider",
    "engineer": "eng",
    "paratroop": "para",
}
"""Short type names for the side panel (it is 26 cells wide)."""


def counter_short(unit: UnitDef) -> str:
    """The map label of a counter: type letter and strength-movement, e.g. ``A7-4``.

    The letter is upper-case for German units and lower-case for Allied ones, so the side
    reads without colour too (``NO_COLOR``).
    """
    return type_letter(unit) + counter_values(unit)


def type_letter(unit: UnitDef) -> str:
    """The type letter of a counter: upper case German, lower case Allied."""
    letter = TYPE_LETTER.get(unit.type, "?")
    return letter.lower() if unit.side == "allied" else letter


def counter_values(unit: UnitDef) -> str:
    """Strength-movement, e.g. ``10-10``."""
    return f"{unit.strength}-{unit.movement}"


def counter_long(unit: UnitDef) -> str:
    """A one-line description, e.g. ``2 pz arm XX 7-4``."""
    return (
        f"{unit.designation} {TYPE_NAME.get(unit.type, unit.type)} {unit.size} "
        f"{unit.strength}-{unit.movement}"
    )
