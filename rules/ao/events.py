"""Events: the facts a command produced, one tagged msgspec union (``type`` field).

A command is intent; its events say what happened, in order. Rejected commands emit none.
Events are for display and logs: the state after a command is the authority, and replay never
reads events.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.ao.state import Crt, Phase, RollPurpose, Supply, Verdict
from rules.ao.units import Side
from rules.dice import DieRoll
from rules.hexgrid import HexId, Hexside


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class UnitPlaced(_Event, tag="unit_placed", frozen=True):
    """A unit put on the map: set-up (AO-4.2a), a reinforcement entering (``case`` AO-14.1A,
    ``staging`` the road hexes it loses to earlier entries on that hex, AO-14.2B) or a
    paratroop unit surviving its drop (``case`` AO-15.b)."""

    unit: str
    hex: str
    case: str | None = None
    staging: int | None = None


class ReinforcementDelayed(_Event, tag="reinforcement_delayed", frozen=True):
    """Every entry hex of ``unit``'s section (and fallbacks) is held by the enemy: it enters on
    Game-Turn ``turn`` at the earliest, ``delays`` Game-Turns late (AO-14.1b)."""

    unit: str
    turn: int
    section: str
    delays: int


class ReinforcementWithdrawn(_Event, tag="reinforcement_withdrawn", frozen=True):
    """``unit``, a reinforcement that never left the entry hex ``hex`` it shares with other
    units, goes back off the map at the end of the movement phase (AO-8.0, AO-6.5G): it is due
    again at the next Reinforcement Phase."""

    unit: str
    hex: str
    case: str


class VictoryPointsTabulated(_Event, tag="victory_points_tabulated", frozen=True):
    """The tabulation at the end of Game-Turn ``turn`` (AO-16.E): the running totals, the exit
    VP held in them, and whether West-bank units are released now (AO-14.3C)."""

    turn: int
    german: int
    allied: int
    exit_vp: int
    wb_released: bool = False


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
    """The game is over after Game-Turn ``turn``; ``verdict`` says who won and why (AO-16)."""

    turn: int
    verdict: Verdict | None = None


class InterdictionSet(_Event, tag="interdiction_set", frozen=True):
    """The bridges interdicted for ``side`` (AO-13.1A at its Supply Judgment Phase, AO-13.2C
    lifted at the end of its player-turn)."""

    side: Side
    bridges: tuple[Hexside, ...]
    case: str


class CrtSwitchRolled(_Event, tag="crt_switch_rolled", frozen=True):
    """The German CRT roll at the beginning of a Game-Turn from GT6 (AO-10.3a)."""

    turn: int
    die: int
    crt: Crt


class RollRequired(_Event, tag="roll_required", frozen=True):
    """A die the German must roll next (``Roll``): the CRT switch (AO-10.3a) or the survival of
    the paratroop unit dropped on ``hex`` (AO-15.a, AO-15.b)."""

    purpose: RollPurpose
    case: str
    hex: HexId | None = None


class AttackDeclared(_Event, tag="attack_declared", frozen=True):
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    odds: str | None
    attack: int
    defence: int
    column: str


class AttackCancelled(_Event, tag="attack_cancelled", frozen=True):
    """A declared attack that can no longer be made when its turn comes (attackers or
    defenders gone after earlier results of the batch)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    reason: str


class ImmunityWaived(_Event, tag="immunity_waived", frozen=True):
    side: Side
    hexes: tuple[str, ...]


class CombatResolved(_Event, tag="combat_resolved", frozen=True):
    """The odds and result of one attack (the die is the preceding ``die_rolled``)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    attack: int
    defence: int
    column: str
    table: Crt
    die: int
    result: str


class ResultIgnored(_Event, tag="result_ignored", frozen=True):
    """Ar/Dr has no effect on ``unit``: town (AO-11.f), West Wall (AO-11.h) or fortified
    (AO-11.i) immunity."""

    unit: str
    hex: str
    case: str


class UnitRetreated(_Event, tag="unit_retreated", frozen=True):
    """A retreat along ``path``; ``dormant`` when it ended on an Allied Map Edge hex (AO-9.7P)."""

    unit: str
    start: str
    path: tuple[str, ...]
    dormant: bool = False


class RoadColumnContact(_Event, tag="road_column_contact", frozen=True):
    """A Road Mode unit ended its retreat next to ``other`` on the road (AO-6.7N): it survives
    and leaves Road Mode at its next Initial Movement Phase."""

    unit: str
    other: str
    hex: str


class UnitAdvanced(_Event, tag="unit_advanced", frozen=True):
    unit: str
    start: str
    end: str


class AdvanceDeclined(_Event, tag="advance_declined", frozen=True):
    side: Side
    hex: str


class VictoryPointsScored(_Event, tag="victory_points_scored", frozen=True):
    """``side`` scores ``points`` for the elimination of ``unit`` (AO-16.A)."""

    side: Side
    points: int
    unit: str


class DecisionPending(_Event, tag="decision_pending", frozen=True):
    """The resolution stops for a decision (``GameState.combat.pending``, see
    :class:`rules.ao.state.Decision`): who decides, what, under which case, and the choices (and
    for losses the face strength ``need``), so a log says what could have been chosen."""

    side: Side
    kind: str
    unit: str | None = None
    hex: str | None = None
    case: str = ""
    choices: tuple[tuple[str, ...], ...] = ()
    need: int = 0


class StandingOrdersSet(_Event, tag="standing_orders_set", frozen=True):
    side: Side


Event = (
    UnitPlaced
    | ReinforcementDelayed
    | ReinforcementWithdrawn
    | VictoryPointsTabulated
    | UnitMoved
    | RoadModeChanged
    | UnitEliminated
    | DormantReactivated
    | SupplyChanged
    | PhaseBegan
    | PhaseSkipped
    | GameEnded
    | DieRoll
    | InterdictionSet
    | CrtSwitchRolled
    | RollRequired
    | AttackDeclared
    | AttackCancelled
    | ImmunityWaived
    | CombatResolved
    | ResultIgnored
    | UnitRetreated
    | RoadColumnContact
    | UnitAdvanced
    | AdvanceDeclined
    | VictoryPointsScored
    | DecisionPending
    | StandingOrdersSet
)

_ENCODER: Final = msgspec.json.Encoder()


def encode_event(event: Event) -> bytes:
    return _ENCODER.encode(event)
