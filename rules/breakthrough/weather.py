"""Weather and the air points it brings (9.0, 3.1, 2.1): BA-9.0a-f, BA-3.1a-c.

9.0: "Weather affects the number of air points that each side receives. A ground freeze
starting December 24th (turn nine) and lasting until the end of the game is independent of the
weather". The chances by turn are the chart's at the end of the manual (C1, C2: the chart's
figures add up to 100%, the text's to 130% and 102%). One draw (1..100) a turn, in the Air
Phase, when the turn's chart has more than one kind of weather (G9); the kinds are taken in
the chart's order, Overcast, Fog, Clear: a draw of 1..overcast is Overcast, the next fog
percent Fog, the rest Clear.

3.1: "The American player receives air points according to the weather: Clear - six points Fog
- two points Overcast - zero points The German player receives two air points on December 18th
(turn three) and receives the air point every turn with Fog weather." 2.1: level 4, "the German
player is given one more air point when due air points"; level 2, the American "two
additional air points"; level 1, "four additional air points". The readings (C11, C12) are in
``docs/rules-notes-breakthrough.md`` ("Weather and air").
"""

from __future__ import annotations

from typing import Final, Literal

from rules.breakthrough.units import PERCENT, Side

Weather = Literal["overcast", "fog", "clear"]
Level = Literal[1, 2, 3, 4]
"""The level of play (2.1): 3 historical; 4 helps the German; 2 and 1 help the American."""

FIRST_TURN: Final = 1
LAST_TURN: Final = 12
"""Turn n is December 15 + n (BA-1.4a)."""

CHANCES: Final[tuple[tuple[int, int, tuple[int, int, int]], ...]] = (
    (1, 2, (100, 0, 0)),
    (3, 6, (50, 50, 0)),
    (7, 9, (16, 34, 50)),
    (10, 12, (0, 34, 66)),
)
"""``(first turn, last turn, (overcast, fog, clear))`` percent: 16-17, 18-21, 22-24, 25-27
December (BA-9.0c-f; C1 and C2 read as the chart)."""

FREEZE_TURN: Final = 9
"""The ground freeze from 24 December (turn 9) to the end (BA-9.0b)."""

AMERICAN_AIR: Final[dict[Weather, int]] = {"clear": 6, "fog": 2, "overcast": 0}
"""BA-3.1a."""
GERMAN_AIR_TURN: Final = 3
GERMAN_AIR_ON_TURN_3: Final = 2
GERMAN_AIR_FOG: Final = 1
"""BA-3.1b (C11): two on 18 December whatever the weather, else one with Fog."""
GERMAN_LEVEL_BONUS: Final[dict[int, int]] = {4: 1}
AMERICAN_LEVEL_BONUS: Final[dict[int, int]] = {2: 2, 1: 4}
"""BA-3.1c (C12): each only when the side is due air points at all."""


def _check_turn(turn: int) -> None:
    if not FIRST_TURN <= turn <= LAST_TURN:
        raise ValueError(f"turn {turn} is not 1..12 (16-27 December)")


def chances(turn: int) -> dict[Weather, int]:
    """The percent chance of each weather on ``turn`` (BA-9.0c-f).

    >>> chances(4)
    {'overcast': 50, 'fog': 50, 'clear': 0}
    """
    _check_turn(turn)
    for first, last, (overcast, fog, clear) in CHANCES:
        if first <= turn <= last:
            return {"overcast": overcast, "fog": fog, "clear": clear}
    raise AssertionError("unreachable: CHANCES covers turns 1..12")  # pragma: no cover


def needs_draw(turn: int) -> bool:
    """Whether the turn's weather is uncertain, so the Air Phase takes a draw (G9).

    16 and 17 December are 100% Overcast: no draw.
    """
    return sum(1 for p in chances(turn).values() if p > 0) > 1


def weather(turn: int, draw: int | None) -> Weather:
    """The turn's weather from its draw (1..100), in the chart's order (BA-9.0c-f, G9).

    ``draw`` is ``None`` exactly when :func:`needs_draw` is false.

    >>> weather(1, None), weather(4, 50), weather(4, 51), weather(8, 16), weather(8, 17)
    ('overcast', 'overcast', 'fog', 'overcast', 'fog')
    >>> weather(8, 50), weather(8, 51), weather(11, 34), weather(11, 35)
    ('fog', 'clear', 'fog', 'clear')
    """
    table = chances(turn)
    if not needs_draw(turn):
        if draw is not None:
            raise ValueError(f"turn {turn}'s weather is certain: no draw")
        return next(w for w, p in table.items() if p == PERCENT)
    if draw is None:
        raise ValueError(f"turn {turn}'s weather needs a draw 1..100")
    if not 1 <= draw <= PERCENT:
        raise ValueError(f"a percentage draw is 1..100, not {draw}")
    bound = 0
    for kind, percent in table.items():
        bound += percent
        if draw <= bound:
            return kind
    raise AssertionError("unreachable: the chances add up to 100")  # pragma: no cover


def ground_freeze(turn: int) -> bool:
    """Whether the freeze costs of 13.5 apply: from 24 December (turn 9), whatever the
    weather (BA-9.0b)."""
    _check_turn(turn)
    return turn >= FREEZE_TURN


def air_points(side: Side, turn: int, kind: Weather, level: Level = 3) -> int:
    """The air points ``side`` receives in the Air Phase of ``turn`` (BA-3.1a-c, BA-9.0a).

    American: 6 Clear, 2 Fog, 0 Overcast, plus 2 (level 2) or 4 (level 1) when that is not 0.
    German: 2 on 18 December (turn 3) whatever the weather, else 1 with Fog, plus 1 at level 4
    when that is not 0 (C11, C12).

    >>> air_points("american", 10, "clear"), air_points("american", 10, "clear", 1)
    (6, 10)
    >>> air_points("german", 3, "overcast"), air_points("german", 5, "fog", 4)
    (2, 2)
    """
    _check_turn(turn)
    if level not in (1, 2, 3, 4):
        raise ValueError(f"level {level} is not 1..4")
    if side == "american":
        base = AMERICAN_AIR[kind]
        bonus = AMERICAN_LEVEL_BONUS.get(level, 0)
    else:
        if turn == GERMAN_AIR_TURN:
            base = GERMAN_AIR_ON_TURN_3
        else:
            base = GERMAN_AIR_FOG if kind == "fog" else 0
        bonus = GERMAN_LEVEL_BONUS.get(level, 0)
    return base + bonus if base > 0 else 0
