"""Events: the facts a command produced, one tagged msgspec union (``type`` field).

A command is intent; its events say what happened, in order. Rejected commands emit none.
Events are for display and logs: the state after a command is the authority, and replay never
reads events.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.state import Phase, Supply
from rules.units import Side


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class UnitPlaced(_Event, tag="unit_placed", frozen=True):
    unit: str
    hex: str


class UnitMoved(_Event, tag="unit_moved", frozen=True):
    """A completed move: start and end hex, the whole path and the MP it cost."""

    unit: str
    start: str
    end: str
    path: tuple[str, ...]
    cost: int
    road_mode: bool


class RoadModeChanged(_Event, tag="road_mode_changed", frozen=True):
    """``road_mode`` is the new mode; ``forced`` for AO-6.7L* conversions."""

    unit: str
    hex: str
    road_mode: bool
    cost: int
    forced: bool = False


class UnitEliminated(_Event, tag="unit_eliminated", frozen=True):
    unit: str
    hex: str | None
    case: str


class DormantReactivated(_Event, tag="dormant_reactivated", frozen=True):
    unit: str
    hex: str


class SupplyChanged(_Event, tag="supply_changed", frozen=True):
    unit: str
    supply: Supply
    case: str


class PhaseBegan(_Event, tag="phase_began", frozen=True):
    turn: int
    side: Side
    phase: Phase


class PhaseSkipped(_Event, tag="phase_skipped", frozen=True):
    """A phase that the rules remove (GT1 Initial Movement, AO-4.2c)."""

    turn: int
    side: Side
    phase: Phase
    case: str


class GameEnded(_Event, tag="game_ended", frozen=True):
    turn: int


Event = (
    UnitPlaced
    | UnitMoved
    | RoadModeChanged
    | UnitEliminated
    | DormantReactivated
    | SupplyChanged
    | PhaseBegan
    | PhaseSkipped
    | GameEnded
)

_ENCODER: Final = msgspec.json.Encoder()


def encode_event(event: Event) -> bytes:
    return _ENCODER.encode(event)
