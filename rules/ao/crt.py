"""The two Combat Results Tables of [10.0], exactly as printed (AO-10.0a), and which one applies.

Results (AO-10.1): ``Ar n`` the attackers retreat n hexes, ``Dr n`` the defenders retreat n
hexes, ``Ex`` exchange, ``De`` defenders eliminated. Odds below 1-2 are read on the 1-2 column
and odds above 9-1 on the 9-1 column (:func:`rules.ao.odds.odds_column` never produces anything
else). The German player uses the German Initial CRT until he switches to the Standard CRT
(AO-10.3a, :func:`german_crt_after_roll`); the Allied player always uses the Standard CRT.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from rules.ao.state import Crt, GameState

ResultKind = Literal["Ar", "Dr", "Ex", "De"]
Table = Crt
"""``"initial"`` (German Initial CRT) or ``"standard"`` (Standard CRT)."""

ODDS_COLUMNS: Final[tuple[str, ...]] = (
    "1-2",
    "1-1",
    "2-1",
    "3-1",
    "4-1",
    "5-1",
    "6-1",
    "7-1",
    "8-1",
    "9-1",
)


class Result(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One cell of a CRT; ``hexes`` is the retreat length of Ar/Dr and 0 for Ex/De."""

    kind: ResultKind
    hexes: int = 0

    def __str__(self) -> str:
        return f"{self.kind}{self.hexes}" if self.hexes else self.kind


def _parse(cell: str) -> Result:
    if cell in ("Ex", "De"):
        return Result(kind=cell)  # type: ignore[arg-type]
    kind, n = cell[:2], int(cell[2:])
    if kind not in ("Ar", "Dr") or n < 1:
        raise ValueError(f"bad CRT cell {cell!r}")
    return Result(kind=kind, hexes=n)  # type: ignore[arg-type]


def _table(rows: str) -> tuple[tuple[Result, ...], ...]:
    out = []
    for die, line in enumerate(rows.strip().splitlines(), start=1):
        cells = line.split()
        if int(cells[0]) != die or len(cells) != 1 + len(ODDS_COLUMNS):
            raise ValueError(f"bad CRT row {line!r}")
        out.append(tuple(_parse(c) for c in cells[1:]))
    return tuple(out)


# Rows as printed in [10.0]: die roll, then the columns 1-2 ... 9-1.
_INITIAL: Final = _table(
    """
    1  Ar1 Dr1 Dr2 Dr3 Ex  Ex  De  De  De  De
    2  Ar1 Dr1 Dr1 Dr2 Ex  Ex  Ex  De  De  De
    3  Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De  De
    4  Ar2 Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De
    5  Ar2 Ar2 Dr1 Dr1 Dr2 Dr2 Dr3 Dr3 Ex  De
    6  Ar2 Ar2 Dr1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De
    """
)
_STANDARD: Final = _table(
    """
    1  Ar1 Dr1 Dr1 Dr2 Dr3 Ex  Ex  Ex  De  De
    2  Ar2 Dr1 Dr1 Dr1 Dr3 Dr3 Ex  Ex  Ex  De
    3  Ar2 Ar1 Dr1 Dr1 Dr2 Dr2 Dr3 Ex  Ex  De
    4  Ar3 Ar2 Ar1 Dr1 Dr2 Dr2 Dr2 Dr3 Ex  De
    5  Ar3 Ar2 Ar2 Ar1 Dr2 Dr2 Dr2 Dr3 Dr3 Ex
    6  Ar3 Ar3 Ar2 Ar1 Dr1 Dr1 Dr1 Dr2 Dr3 Ex
    """
)
TABLES: Final[dict[Table, tuple[tuple[Result, ...], ...]]] = {
    "initial": _INITIAL,
    "standard": _STANDARD,
}


def resolve(table: Table, column: str, die: int) -> Result:
    """The result in ``column`` (one of :data:`ODDS_COLUMNS`) for ``die`` (1-6) of ``table``."""
    if column not in ODDS_COLUMNS:
        raise ValueError(f"unknown odds column {column!r}; columns are {', '.join(ODDS_COLUMNS)}")
    if not 1 <= die <= 6:
        raise ValueError(f"die roll {die} is not 1-6")
    return TABLES[table][die - 1][ODDS_COLUMNS.index(column)]


def crt_for(state: GameState) -> Table:
    """The CRT of the phasing player's attacks: the German CRT switch for the German player
    (AO-10.3a), the Standard CRT for the Allied player."""
    return state.german_crt if state.side == "german" else "standard"


FIRST_SWITCH_TURN: Final = 6
"""From Game-Turn 6 the German player rolls for the switch to the Standard CRT (AO-10.3a)."""


def crt_switch_roll_due(turn: int, current: Crt) -> bool:
    """Whether the German player rolls for the CRT switch at the beginning of ``turn``: from
    Game-Turn 6 on, as long as he still uses the Initial CRT (AO-10.3a)."""
    return turn >= FIRST_SWITCH_TURN and current == "initial"


def german_crt_after_roll(current: Crt, die: int) -> Crt:
    """The German CRT after a switch roll: a 1 switches to the Standard CRT for good."""
    if not 1 <= die <= 6:
        raise ValueError(f"die roll {die} is not 1-6")
    return "standard" if current == "standard" or die == 1 else "initial"
