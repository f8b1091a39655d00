"""A unit as the manual's screens show it: 13.3's statistics line and 13.1's symbol (pure text).

13.3: "GER 116 PZ DIV ADVANCE-N COMBAT: 105 ARTILLERY: 30 OPERATION: 20 FORT:2 EFF: 100%
STACK: 2 NORMAL SUPPLIED" (BA-13.3a), and "Only during the Unit organization Phase and only for
units that belong to a Corps Artillery Pool", "LVIII CORPS ARTILLERY: 40" (BA-13.3b). The app
draws with these; the keys and menus are its own.
"""

from __future__ import annotations

from typing import Final

from rules.breakthrough.profile import Profile
from rules.breakthrough.units import Unit

SIDE_WORD: Final = {"german": "GER", "american": "US"}
"""13.3's side prefix ("GER"); the American's is not printed, "US" is our reading."""

TYPE_SYMBOL: Final = {
    "AB": "airborne",
    "FJ": "airborne",
    "INF": "infantry",
    "VG": "infantry",
    "ENG": "engineer",
    "PZGR": "panzergrenadier",
    "PZ": "armor",
    "ARM": "armor",
    "CAV": "recon",
}
"""13.1: airborne or Fallschirmjager; infantry or Volksgrenadier; engineer; panzergrenadier;
panzer, tank or armored; recon or cavalry (BA-13.1a)."""


def size(profile: Profile, divisional: bool) -> str:
    """13.1's size mark: ``XX`` division, ``X`` brigade (an independent unit that is not a
    battalion), ``||`` battalion, ``|||`` regiment or combat command (BA-13.1a, BA-1.5c)."""
    if divisional:
        return "XX"
    if profile.battalion:
        return "||"
    if profile.division is None and profile.type != "ENG":
        return "X"
    if profile.division is None:
        return "||"
    return "|||"


def symbol(profile: Profile, divisional: bool = False) -> str:
    """The unit's symbol in words: its type's and its size's (BA-13.1a)."""
    return f"{TYPE_SYMBOL[profile.type]} {size(profile, divisional)}"


def describe(unit: Unit, name: str, corps_artillery: tuple[str, int] | None = None) -> str:
    """13.3's line for ``unit`` named ``name`` (``116 PZ DIV``, ``422/106/XVII INF``);
    ``corps_artillery`` (corps, points) in the Unit Organization Phase for a unit of a pool
    (BA-13.3a-b)."""
    text = (
        f"{SIDE_WORD[unit.side]} {name} ADVANCE-{'Y' if unit.advance else 'N'} "
        f"COMBAT: {unit.strength} ARTILLERY: {unit.artillery} OPERATION: {unit.op} "
        f"FORT:{unit.fort} EFF: {unit.efficiency}% STACK: {unit.stack} "
        f"{unit.mode.upper()} {unit.supply.upper()}"
    )
    if corps_artillery is not None:
        corps, points = corps_artillery
        text += f" {corps} CORPS ARTILLERY: {points}"
    return text
