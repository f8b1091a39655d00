"""Air missions (3.0-3.5, G8, G28): BA-3.0a, BA-3.2a, BA-3.3a, BA-3.4a-d, BA-3.5a-b.

3.3: "Every air point allocated to interdiction acts as reduce operation points received by
enemy units. The more points allocated the greater the effect. Enemy units are randomly
effected." 3.4: "Every enemy unit in the hex under attack has a 50% chance of being
disrupted. In addition, units in travel mode have a 33% chance of being strafed. Disrupted
units use half of their efficiency. Strafed units use 30% of their combat strength and are
changed to normal mode." 3.5: "Air points not used in the Air Phase may be used [for] air drops
in the unit Organization Phase. An air drop in a hex brings all units up one supply level
(isolated to unsupplied and unsupplied to supplied)."

What the manual leaves open (G8) is ours, in ``docs/rules-notes-breakthrough.md`` ("Weather
and air"): one air point a ground attack or an air drop; interdiction affects each enemy unit
with a chance of 5% per point and halves the operation points it receives in both Operation
Phases of the turn; disruption, strafing and interdiction last until the next Air Phase. The
rules make no random numbers: draws (1..100) come in through :class:`Draws`, in the order the
functions document. The combat effects of disruption and strafing are in :mod:`.strength`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec
import msgspec.structs

from rules.breakthrough.units import PERCENT, Draws, Side, Supply, Unit
from rules.hexgrid import HexId
from rules.rejection import Rejection

MISSION_COST = 1
"""Air points a ground attack or an air drop costs (G8)."""
DISRUPT_CHANCE = 50
"""BA-3.4a."""
STRAFE_CHANCE = 33
"""BA-3.4b."""
INTERDICTION_PER_POINT = 5
"""Percent chance, per air point on interdiction, that an enemy unit is interdicted (G8)."""
UP_ONE: dict[Supply, Supply] = {"isolated": "unsupplied", "unsupplied": "supplied"}
"""BA-3.5b."""


class AirHit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one ground attack did to one unit, with its draws."""

    unit: str
    disrupt_draw: int
    disrupted: bool
    strafe_draw: int | None = None
    """``None``: the unit was not in travel mode, so no strafing draw."""
    strafed: bool = False


class GroundAttack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ground attack's report: the hex, who flew it, and each enemy unit's result."""

    hex: HexId
    side: Side
    hits: tuple[AirHit, ...]


def interdiction_chance(points: int) -> int:
    """The percent chance that each enemy unit is interdicted (BA-3.3a, G8): 5 per air point,
    at most 100.

    >>> interdiction_chance(0), interdiction_chance(6), interdiction_chance(30)
    (0, 30, 100)
    """
    if points < 0:
        raise ValueError("interdiction points are never negative")
    return min(PERCENT, INTERDICTION_PER_POINT * points)


def interdict(side: Side, points: int, units: Iterable[Unit], draws: Draws) -> frozenset[str]:
    """The enemy units ``side``'s interdiction hits this turn (BA-3.3a, G8).

    With ``points`` on interdiction, every enemy unit on the map (id order) takes one draw
    and is interdicted when it is at most :func:`interdiction_chance`; no draws at all with
    no points. An interdicted unit receives half its operation points (:func:`received`).
    """
    chance = interdiction_chance(points)
    if chance == 0:
        return frozenset()
    foes = sorted((u for u in units if u.side != side and u.strength > 0), key=lambda u: u.id)
    hit = [u.id for u in foes if draws.next() <= chance]
    return frozenset(hit)


def received(points: int, interdicted: bool) -> int:
    """The operation points a unit receives in an Operation Phase, after interdiction: half,
    rounded down, when interdicted this turn (BA-3.3a, G8). Supply's cut (BA-4.3a) comes
    first: pass the allowance after it.

    >>> received(24, True), received(9, True), received(9, False)
    (12, 4, 9)
    """
    return points // 2 if interdicted else points


def check_ground_attack(
    side: Side, air_left: int, target: HexId, units: Iterable[Unit]
) -> Rejection | None:
    """Why ``side`` may not strike ``target`` now, or ``None`` (BA-3.0a, BA-3.4a)."""
    if air_left < MISSION_COST:
        return Rejection("BA-3.0a", f"{side} has no air point left for a ground attack")
    if not any(u.hex == target and u.side != side and u.strength > 0 for u in units):
        return Rejection("BA-3.4a", f"no enemy unit in {target} to attack from the air")
    return None


def ground_attack(
    side: Side, target: HexId, units: Sequence[Unit], draws: Draws
) -> tuple[list[Unit], GroundAttack]:
    """Strike ``target`` (BA-3.4a-d): the units after it, in the order given, and the report.

    Every enemy unit in the hex, in id order, draws for disruption (50 or less: disrupted);
    one in travel mode then draws for strafing (33 or less: strafed, and changed to normal
    mode). A unit already disrupted or strafed stays so; a strafed unit is in normal mode, so a
    second strike cannot strafe it again. The effects last until :func:`clear_effects`.
    Refusals are :func:`check_ground_attack`'s, made before.
    """
    hits: list[AirHit] = []
    after: dict[str, Unit] = {}
    struck = (u for u in units if u.hex == target and u.side != side and u.strength > 0)
    for u in sorted(struck, key=lambda u: u.id):
        d = draws.next()
        disrupted = d <= DISRUPT_CHANCE
        s: int | None = None
        strafed = False
        if u.mode == "travel":
            s = draws.next()
            strafed = s <= STRAFE_CHANCE
        hits.append(AirHit(u.id, d, disrupted, s, strafed))
        after[u.id] = msgspec.structs.replace(
            u,
            disrupted=u.disrupted or disrupted,
            strafed=u.strafed or strafed,
            mode="normal" if strafed else u.mode,
        )
    return [after.get(u.id, u) for u in units], GroundAttack(target, side, tuple(hits))


def clear_effects(units: Iterable[Unit]) -> list[Unit]:
    """Disruption and strafing end at the next Air Phase (G8): every unit cleared."""
    return [
        msgspec.structs.replace(u, disrupted=False, strafed=False)
        if u.disrupted or u.strafed
        else u
        for u in units
    ]


def check_air_drop(
    side: Side, air_left: int, target: HexId, units: Iterable[Unit]
) -> Rejection | None:
    """Why ``side`` may not drop supplies on ``target`` now, or ``None`` (BA-3.5a-b).

    It needs an air point left over from the Air Phase and a unit of its own in the hex that
    is not already supplied.
    """
    if air_left < MISSION_COST:
        return Rejection(
            "BA-3.5a", f"{side} has no air point left from the Air Phase for an air drop"
        )
    own = [u for u in units if u.hex == target and u.side == side]
    if not own:
        return Rejection("BA-3.5b", f"no {side} unit in {target} to drop supplies to")
    if all(u.supply == "supplied" for u in own):
        return Rejection("BA-3.5b", f"every {side} unit in {target} is already supplied")
    return None


def air_drop(side: Side, target: HexId, units: Sequence[Unit]) -> list[Unit]:
    """An air drop on ``target`` (BA-3.5b): every ``side`` unit in it one supply level up,
    isolated to unsupplied, unsupplied to supplied, until the next Supply Phase traces again.
    One drop serves the whole hex. Refusals are :func:`check_air_drop`'s, made before."""
    return [
        msgspec.structs.replace(u, supply=UP_ONE[u.supply])
        if u.hex == target and u.side == side and u.supply in UP_ONE
        else u
        for u in units
    ]


class AirPoints(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A side's air points in a turn: received, put on interdiction, spent on missions.

    ``left`` carries from the Air Phase to the Unit Organization Phase of the same turn, for
    air drops only (BA-3.5a), and is lost after it.
    """

    received: int
    interdiction: int = 0
    missions: int = 0

    @property
    def left(self) -> int:
        return self.received - self.interdiction - self.missions

    def add_interdiction(self) -> AirPoints | Rejection:
        """(I)nterdiction: one more point on interdiction (BA-3.2a)."""
        if self.left < 1:
            return Rejection("BA-3.2a", "no air point left to add to interdiction")
        return msgspec.structs.replace(self, interdiction=self.interdiction + 1)

    def spend_mission(self) -> AirPoints | Rejection:
        """A ground attack or an air drop: one point (G8)."""
        if self.left < MISSION_COST:
            return Rejection("BA-3.0a", "no air point left for a mission")
        return msgspec.structs.replace(self, missions=self.missions + MISSION_COST)


def allocating_sides(american: int, german: int) -> tuple[Side, ...]:
    """Who gets the air mission menu this Air Phase, in order (BA-3.2a, G28): each side with
    air points, the American first. With none, the phase passes with no menu.

    >>> allocating_sides(6, 0), allocating_sides(2, 1), allocating_sides(0, 0)
    (('american',), ('american', 'german'), ())
    """
    sides: list[Side] = []
    if american > 0:
        sides.append("american")
    if german > 0:
        sides.append("german")
    return tuple(sides)
