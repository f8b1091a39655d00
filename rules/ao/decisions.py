"""The pending combat decision typed per kind, each carrying the command that answers it.

The state keeps one :class:`rules.ao.state.Decision` record (its bytes are part of the state
hash, so its shape stays); :func:`typed` reads it as one of four types, so that no client
rebuilds the kind-to-command table (:data:`COMMANDS`, which the engine checks with too):

* :class:`WaiveDecision` (AO-11.f*): the defender's immune ``hexes``; answered by
  ``WaiveImmunity(hexes)`` with any subset (:meth:`WaiveDecision.answer`);
* :class:`LossesDecision` (AO-10.1b): the attacker loses at least ``need`` face strength;
  ``sets`` are the minimal sets of his surviving attackers, any set of ``units`` reaching
  ``need`` is accepted (``ChooseLosses``);
* :class:`RetreatDecision` (AO-10.2a): the victor picks one of the equally ranked best
  ``paths`` of ``unit`` (``ChooseRetreat``);
* :class:`AdvanceDecision` (AO-9.6N): one of ``units`` advances into ``hex``, or none
  (``Advance``).

:attr:`rules.ao.Options.pending` is the typed decision of a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

import msgspec

from rules.ao.commands import Advance, ChooseLosses, ChooseRetreat, WaiveImmunity
from rules.ao.state import Decision, DecisionKind, GameState
from rules.ao.units import Side
from rules.hexgrid import HexId


class WaiveDecision(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """AO-11.f*: ``side`` may waive the Ar/Dr immunity of its units in any of ``hexes``."""

    kind: ClassVar[DecisionKind] = "waive_immunity"
    command: ClassVar[type[WaiveImmunity]] = WaiveImmunity
    side: Side
    case: str
    hexes: tuple[HexId, ...]

    def answer(self, hexes: tuple[HexId, ...] = ()) -> WaiveImmunity:
        """Waive the immunity of ``hexes`` (none: keep it everywhere)."""
        return WaiveImmunity(tuple(hexes))


class LossesDecision(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """AO-10.1b: the attacker ``side`` loses units of at least ``need`` face strength."""

    kind: ClassVar[DecisionKind] = "losses"
    command: ClassVar[type[ChooseLosses]] = ChooseLosses
    side: Side
    case: str
    need: int
    sets: tuple[tuple[str, ...], ...]
    """The minimal sets (each enough, none with a unit to spare)."""

    @property
    def units(self) -> tuple[str, ...]:
        """Every unit that may be lost, sorted."""
        return tuple(sorted({u for s in self.sets for u in s}))

    def answer(self, units: tuple[str, ...]) -> ChooseLosses:
        return ChooseLosses(tuple(units))


class RetreatDecision(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """AO-10.2a: the victor ``side`` picks the retreat of the enemy's ``unit``."""

    kind: ClassVar[DecisionKind] = "retreat"
    command: ClassVar[type[ChooseRetreat]] = ChooseRetreat
    side: Side
    case: str
    unit: str
    paths: tuple[tuple[HexId, ...], ...]
    """The equally ranked best paths."""

    def answer(self, path: tuple[HexId, ...]) -> ChooseRetreat:
        return ChooseRetreat(self.unit, tuple(path))


class AdvanceDecision(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """AO-9.6N: ``side`` may advance one of ``units`` into the vacated ``hex``."""

    kind: ClassVar[DecisionKind] = "advance"
    command: ClassVar[type[Advance]] = Advance
    side: Side
    case: str
    hex: HexId
    units: tuple[str, ...]

    def answer(self, unit: str | None = None) -> Advance:
        """Advance ``unit`` (None: decline)."""
        return Advance(self.hex, unit)


PendingDecision = WaiveDecision | LossesDecision | RetreatDecision | AdvanceDecision
"""A pending combat decision, typed by kind."""

COMMANDS: Final[
    Mapping[DecisionKind, type[WaiveImmunity | ChooseLosses | ChooseRetreat | Advance]]
] = {
    "waive_immunity": WaiveImmunity,
    "losses": ChooseLosses,
    "retreat": ChooseRetreat,
    "advance": Advance,
}
"""The command that answers each kind of decision (the one table: the engine's and clients')."""


def typed(d: Decision) -> PendingDecision:
    """The state's decision record ``d`` as its kind's type."""
    if d.kind == "waive_immunity":
        return WaiveDecision(side=d.side, case=d.case, hexes=tuple(c[0] for c in d.choices))
    if d.kind == "losses":
        return LossesDecision(side=d.side, case=d.case, need=d.need, sets=d.choices)
    if d.kind == "retreat":
        assert d.unit is not None
        return RetreatDecision(side=d.side, case=d.case, unit=d.unit, paths=d.choices)
    assert d.hex is not None
    return AdvanceDecision(
        side=d.side, case=d.case, hex=d.hex, units=tuple(c[0] for c in d.choices if c)
    )


def pending_decision(state: GameState) -> PendingDecision | None:
    """The decision ``state`` waits for, typed by kind (``Options.pending`` without the rest of
    the options), or None."""
    d = state.combat.pending
    return typed(d) if d is not None else None
