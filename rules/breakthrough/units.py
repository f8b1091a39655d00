"""The plain values a Breakthrough combat reads: a unit's fighting state and the draws.

A :class:`Unit` carries what 1.5 lists of a unit that combat needs (BA-1.5a): combat
strength, efficiency, fortification level, supply status, mode, artillery points, stacking
value, remaining operation points, the advance flag of 7.3/7.9 and the air effects of 3.4.
Everything is an integer; percentages are whole percents. Hexes are ``rules.hexgrid`` ids
(``CCRR``); the map reaches the rules as plain sets and mappings (:mod:`.retreat`), so no map
type is needed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import msgspec

from rules.hexgrid import HexId

Side = Literal["american", "german"]
Terrain = Literal["clear", "rough", "forest", "town"]
Supply = Literal["supplied", "unsupplied", "isolated"]
Mode = Literal["normal", "travel"]

MIN_EFFICIENCY: Final = 40
"""8.1: "Each unit has an efficiency that ranges from 40% to 100%" (BA-8.1a)."""
MAX_EFFICIENCY: Final = 100
MAX_FORT: Final = 5
"""7.8: "Unit may fortify to five levels" (BA-7.8a)."""
MAX_STACK: Final = 3
"""7.6: "No more than three stacking points may be in a hex at any one time" (BA-7.6g)."""
PERCENT: Final = 100
"""A percentage draw is ``1 <= draw <= PERCENT``: the ruleset's ``uniform(index, 100)``
(``rules.dice``: 1..n), used as it comes; "a 40% chance" is a draw of 40 or less."""


def enemy_of(side: Side) -> Side:
    """The other side."""
    return "german" if side == "american" else "american"


class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit as combat sees it (BA-1.5a). ``strength`` is the unmodified combat strength."""

    id: str
    side: Side
    hex: HexId
    strength: int
    efficiency: int = MAX_EFFICIENCY
    mode: Mode = "normal"
    supply: Supply = "supplied"
    fort: int = 0
    divisional: bool = False
    stack: int = 1
    """Stacking value: 1, or the units built into a divisional unit (BA-7.6g)."""
    artillery: int = 0
    op: int = 0
    """Remaining operation points."""
    advance: bool = False
    """The (A)dvance flag, "Y" (BA-7.3a, BA-7.9d)."""
    disrupted: bool = False
    """Hit by a ground attack this turn: uses half of its efficiency (BA-3.4c)."""
    strafed: bool = False
    """Strafed this turn: uses 30% of its combat strength (BA-3.4d, C22)."""

    def __post_init__(self) -> None:
        if self.strength < 0 or self.artillery < 0 or self.op < 0:
            raise ValueError(f"{self.id}: strength, artillery and op are never negative")
        if not MIN_EFFICIENCY <= self.efficiency <= MAX_EFFICIENCY:
            raise ValueError(f"{self.id}: efficiency {self.efficiency} is not 40..100 (BA-8.1a)")
        if not 0 <= self.fort <= MAX_FORT:
            raise ValueError(f"{self.id}: fortification level {self.fort} is not 0..5 (BA-7.8a)")
        if not 1 <= self.stack <= MAX_STACK:
            raise ValueError(f"{self.id}: stacking value {self.stack} is not 1..3 (BA-7.6g)")


class DrawsExhaustedError(IndexError):
    """A combat needed more percentage draws than the caller supplied."""


class Draws:
    """A cursor over a sequence of percentage draws (each ``1..100``), consumed in order.

    The rules never make a random number: the caller passes the ruleset's dice
    (``uniform(index, 100)``) as a sequence, and the events record how many were used.
    """

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        self.used = 0

    def next(self) -> int:
        """The next draw; refuses a value outside ``1..100``."""
        if self.used >= len(self.values):
            raise DrawsExhaustedError(f"combat needs draw {self.used}; only {len(self.values)}")
        value = self.values[self.used]
        if not 1 <= value <= PERCENT:
            raise ValueError(f"draw {self.used} is {value}, not a percentage 1..100")
        self.used += 1
        return value
