"""The ruleset's dice as the pure rule functions read them (BA-8.0a, G14).

Every draw is ``uniform(index, 100)`` of the game's :class:`rules.dice.DiceSource` at the
state's ``dice_drawn``: :class:`Roller` hands a phase's procedure a :class:`units.Draws` over
the endless stream from there, then records each draw it used as a
:class:`rules.dice.DieRoll` event with its purpose (``combat:2627``, ``fuel:de-13-5fj``...) and
moves the position on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from rules.breakthrough.state import Event
from rules.breakthrough.units import PERCENT, Draws
from rules.dice import DiceSource, DieRoll


class NoDiceError(Exception):
    """A command needs a die and the game has no dice source."""


class _Stream(Sequence[int]):
    """The ruleset's percentage dice from draw ``start`` on, as the sequence the pure rule
    functions read (``units.Draws``): item ``i`` is ``uniform(start + i, 100)``."""

    def __init__(self, dice: DiceSource | None, start: int) -> None:
        self.dice = dice
        self.start = start

    def __len__(self) -> int:
        return 1 << 30

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(i.start or 0, i.stop)]
        if self.dice is None:
            raise NoDiceError
        return self.dice.uniform(self.start + i, PERCENT)

    def __iter__(self) -> Iterator[int]:  # pragma: no cover - never iterated whole
        raise TypeError("an endless stream")


class Roller:
    """Hands out :class:`units.Draws` at the state's dice position and writes each draw
    used as a :class:`rules.dice.DieRoll` event (``dice_drawn`` counts them)."""

    def __init__(self, dice: DiceSource | None, drawn: int, events: list[Event]) -> None:
        self.dice = dice
        self.drawn = drawn
        self.events = events

    def draws(self) -> Draws:
        return Draws(_Stream(self.dice, self.drawn))

    def commit(self, draws: Draws, purposes: Sequence[str] | str) -> None:
        """Record the ``draws.used`` draws taken, each with its purpose."""
        for i in range(draws.used):
            purpose = purposes if isinstance(purposes, str) else purposes[i]
            self.events.append(DieRoll(self.drawn + i, draws.values[i], purpose, faces=PERCENT))
        self.drawn += draws.used

    def one(self, purpose: str) -> int:
        d = self.draws()
        value = d.next()
        self.commit(d, purpose)
        return value
