"""Levels of play against the computer, in the spirit of *Breakthrough in the Ardennes* (SSI,
1984), whose four levels "represent handicaps": level 3 is historical, level 4 the easiest for
the human and level 1 the hardest (``docs/selfplay.md``, "Levels").

A level is data: the side the computer plays and the levers it moves, which become part of the
game's set-up. ``scenarios.load_board(n, level=...)`` builds the board with the level's
reinforcement schedules, :mod:`rules.ao.victory` adds its VP handicap at every tabulation, and
the game record's header keeps the :class:`Level` so that a replay (``ardennes verify``, a
resumed game) rebuilds the same board (:meth:`rules.Game.replay`). Level 3 moves nothing: its
game is the scenario as written, command for command and hash for hash.

The levers are this game's own (AO-17.d, AO-16):

* **the errata's reinforcement schedules**: one *step* in favour of the German is his
  accelerated rate where the scenario has his historical one, else the Allied slowed rate
  where it has the Allied historical one; in favour of the Allies, the German historical rate
  where the scenario has the accelerated one, else the Allied historical rate where it has the
  slowed one;
* **a VP handicap**: a step that has no schedule left to change is :data:`VP_PER_STEP`
  Victory Points, added to the German total at every tabulation (AO-16.E) when he is favoured,
  taken from it when the Allies are (``Level.german_vp``, signed).

Per level (:data:`STEPS`): level 4 gives the human's side one step, level 3 none, level 2 the
computer's side one step, level 1 the computer's side two.

The third lever is **the bot's effort**: the bots are passed the level
(:func:`rules.ao.bots.registry.make_bot`); the planner thinks no move ahead at level 4 (it plays
as the heuristic bot, :data:`rules.ao.bots.registry.NO_LOOKAHEAD`) and with its look-ahead at
levels 1-3. The heuristic bot plays every level the same way.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.ao.scenario import AlliedRate, GermanRate, ScenarioSpec
from rules.ao.units import Side

__all__ = [
    "HISTORICAL",
    "NUMBERS",
    "STEPS",
    "VP_PER_STEP",
    "Level",
    "describe",
    "favoured",
    "level_for",
    "levers",
]

NUMBERS: Final = (1, 2, 3, 4)
"""The levels, hardest first (Breakthrough: "level four is the easiest level and level one is
the hardest")."""
HISTORICAL: Final = 3
"""The rules as written (Breakthrough: "at level three no modifications are made")."""
VP_PER_STEP: Final = 5
"""The VP handicap of one step that no schedule change is left for."""

STEPS: Final[dict[int, tuple[str, int]]] = {
    4: ("human", 1),
    3: ("human", 0),
    2: ("computer", 1),
    1: ("computer", 2),
}
"""Level -> (whose side is favoured: the human's or the computer's, how many steps)."""


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A game against the computer at level ``number`` (1-4), the computer playing
    ``computer``: the reinforcement rates played (AO-17.d; the scenario's own at level 3) and
    the VP added to the German total at every tabulation (AO-16.E; negative: taken from it)."""

    number: int
    computer: Side
    allied_rate: AlliedRate
    german_rate: GermanRate
    german_vp: int = 0

    @property
    def human(self) -> Side:
        """The side the human plays."""
        return "allied" if self.computer == "german" else "german"


def favoured(number: int, computer: Side) -> Side | None:
    """The side level ``number`` favours when the computer plays ``computer`` (None: level 3)."""
    whose, steps = STEPS[number]
    if steps == 0:
        return None
    human: Side = "allied" if computer == "german" else "german"
    return human if whose == "human" else computer


def level_for(spec: ScenarioSpec, number: int, computer: Side) -> Level:
    """The levers of level ``number`` in scenario ``spec`` with the computer playing
    ``computer`` (see the module docstring). ``ValueError`` for a level outside 1-4."""
    if number not in STEPS:
        raise ValueError(f"level {number} does not exist: the levels are 1-4")
    if computer not in ("german", "allied"):
        raise ValueError(f"the computer plays german or allied, not {computer!r}")
    allied: AlliedRate = spec.allied_rate
    german: GermanRate = spec.german_rate
    vp = 0
    side = favoured(number, computer)
    for _ in range(STEPS[number][1]):
        if side == "german" and german == "historical":
            german = "accelerated"
        elif side == "german" and allied == "historical":
            allied = "slowed"
        elif side == "allied" and german == "accelerated":
            german = "historical"
        elif side == "allied" and allied == "slowed":
            allied = "historical"
        else:
            vp += VP_PER_STEP if side == "german" else -VP_PER_STEP
    return Level(
        number=number, computer=computer, allied_rate=allied, german_rate=german, german_vp=vp
    )


def levers(level: Level, spec: ScenarioSpec | None = None) -> str:
    """What the level changes, in words (``German accelerated reinforcements; German VP +5 at
    every tabulation``); with ``spec`` only what differs from the scenario."""
    changes: list[str] = []
    if spec is None or level.german_rate != spec.german_rate:
        changes.append(f"German {level.german_rate} reinforcements")
    if spec is None or level.allied_rate != spec.allied_rate:
        changes.append(f"Allied {level.allied_rate} reinforcements")
    if level.german_vp:
        changes.append(f"German VP {level.german_vp:+d} at every tabulation")
    return "; ".join(changes) if changes else "the rules as written"


def describe(level: Level, spec: ScenarioSpec | None = None) -> str:
    """The level in words: ``level 2, computer German: German accelerated reinforcements``
    (:func:`levers`)."""
    return f"level {level.number}, computer {level.computer.capitalize()}: {levers(level, spec)}"
