"""Retreats and advances after combat (8.4, G4, G5): BA-8.4a-g.

8.4: "Retreats are based on the percent of casualties lost, unit efficiencies, fortification
levels and a random. Units in towns and units without retreat routes will not retreat, but
will incur an additional strength loss. Unit retreating into an enemy ZOC will incur
additional casualties. The computer will automatically retreat and advance units. Generally,
units will retreat toward friendly lines away from the attacking force. The first unit to plot
the attack will advance first if eligible. Units will not advance or retreat where normally
prohibited in regular movement. Units expend operation points when retreating on advancing
(except ZOC costs). A unit will advance or retreat even if it has insufficience operation
points."

The map comes in as a :class:`Ground`: terrain per hex, each side's friendly map-edge hexes
and the regular movement cost (a callable that returns ``None`` where regular movement is
prohibited: off the map, hexrow 0 for Germans, the corridor, a river without a bridge, a
travel-mode unit off the road...). Positions, ownership and zones of control are worked out
from the units themselves. One hex a retreat or an advance (G4, G5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import msgspec.structs

from rules import hexgrid
from rules.breakthrough import efficiency
from rules.breakthrough.units import MAX_STACK, PERCENT, Side, Terrain, Unit, enemy_of
from rules.hexgrid import HexId, Hexside

MoveCost = Callable[[Unit, HexId, HexId], int | None]
"""Regular movement's operation cost from one hex to an adjacent one, ZOC costs excluded;
``None`` where regular movement is prohibited (BA-8.4f)."""

RETREAT_PER_CASUALTY_PERCENT: Final = 2
RETREAT_PER_FORT_LEVEL: Final = 10
"""The retreat chance (BA-8.4a, G4): 2 per percent of the unit's strength lost in the combat,
plus half of its efficiency below 100, minus 10 per fortification level, within 0..100."""
HOLD_LOSS_PERCENT: Final = 10
"""A unit that must retreat but is in a town or has no route loses 10% more of its strength
(rounded up; BA-8.4b, G4)."""
ZOC_LOSS_PERCENT: Final = 10
"""A unit retreating into an enemy ZOC loses 10% more of its strength (rounded up; BA-8.4c)."""


@dataclass(frozen=True)
class Ground:
    """What retreats and advances need of the map, as plain values."""

    terrain: Mapping[HexId, Terrain]
    home: Mapping[Side, frozenset[HexId]]
    """Each side's friendly map-edge hexes: "friendly lines" to retreat toward (BA-4.1c)."""
    move_cost: MoveCost
    rivers: frozenset[Hexside] = field(default_factory=frozenset)
    """River hexsides: an attack across one is cut (BA-8.2b)."""


def retreat_chance(casualty_percent: int, efficiency_percent: int, fort: int) -> int:
    """The percent chance that a defending unit retreats (BA-8.4a, BA-7.8d, G4).

    >>> retreat_chance(20, 80, 0), retreat_chance(20, 80, 2), retreat_chance(50, 40, 0)
    (50, 30, 100)
    """
    raw = (
        RETREAT_PER_CASUALTY_PERCENT * casualty_percent
        + (100 - efficiency_percent) // 2
        - RETREAT_PER_FORT_LEVEL * fort
    )
    return max(0, min(PERCENT, raw))


def must_retreat(casualty_percent: int, efficiency_percent: int, fort: int, draw: int) -> bool:
    """The unit retreats when the draw (1..100) is at most its chance."""
    if not 1 <= draw <= PERCENT:
        raise ValueError(f"a percentage draw is 1..100, not {draw}")
    return draw <= retreat_chance(casualty_percent, efficiency_percent, fort)


def extra_loss(strength: int, percent: int) -> int:
    """``percent`` of ``strength``, rounded up: the added losses of BA-8.4b-c."""
    return -(-strength * percent // 100)


def enemy_zoc(side: Side, units: Iterable[Unit]) -> frozenset[HexId]:
    """The hexes in the zone of control of ``side``'s enemies: the six around each (BA-7.6a)."""
    out: set[HexId] = set()
    for u in units:
        if u.side != side and u.strength > 0:
            out.update(h for h in hexgrid.neighbours(u.hex) if h is not None)
    return frozenset(out)


def room_for(unit: Unit, hex_id: HexId, units: Iterable[Unit]) -> bool:
    """Whether ``unit`` may stack in ``hex_id`` (BA-7.6g, BA-7.7e): no enemy there, at most
    three stacking points, and no two travel-mode units together."""
    here = [u for u in units if u.hex == hex_id and u.id != unit.id and u.strength > 0]
    if any(u.side != unit.side for u in here):
        return False
    if sum(u.stack for u in here) + unit.stack > MAX_STACK:
        return False
    return not (unit.mode == "travel" and any(u.mode == "travel" for u in here))


def retreat_hex(
    unit: Unit,
    attacker_hexes: Sequence[HexId],
    units: Sequence[Unit],
    owner: Mapping[HexId, Side],
    ground: Ground,
) -> HexId | None:
    """Where ``unit`` retreats, or None when it has no route (BA-8.4d, BA-8.4f, G4).

    Candidates: the adjacent hexes regular movement may enter with room to stack. Chosen by,
    in turn: not in an enemy ZOC; farthest from the nearest attacking hex; owned by its own
    side; nearest its friendly map edges; then the lowest hex id.
    """
    zoc = enemy_zoc(unit.side, units)
    home = ground.home.get(unit.side, frozenset())
    best: tuple[tuple[int, int, int, int, str], HexId] | None = None
    for h in hexgrid.neighbours(unit.hex):
        if h is None or h in attacker_hexes:
            continue
        if ground.move_cost(unit, unit.hex, h) is None or not room_for(unit, h, units):
            continue
        key = (
            int(h in zoc),
            -min((hexgrid.distance(h, a) for a in attacker_hexes), default=0),
            int(owner.get(h) != unit.side),
            min((hexgrid.distance(h, e) for e in home), default=0),
            h,
        )
        if best is None or key < best[0]:
            best = (key, h)
    return None if best is None else best[1]


class Moved(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit's retreat or advance, or its holding on (``to`` is None)."""

    unit: str
    origin: HexId
    to: HexId | None
    op_spent: int
    extra_loss: int
    """BA-8.4b (held on where it had to retreat) or BA-8.4c (retreated into an enemy ZOC)."""


def moved(unit: Unit, to: HexId, cost: int) -> Unit:
    """``unit`` in ``to``: operation points spent even if insufficient (BA-8.4g), the
    fortification level back to zero (BA-7.8c) and a hex's efficiency lost (BA-8.1b)."""
    return msgspec.structs.replace(
        unit,
        hex=to,
        op=max(0, unit.op - cost),
        fort=0,
        efficiency=efficiency.after_move(unit.efficiency, unit.mode),
    )


def retreat(
    unit: Unit,
    attacker_hexes: Sequence[HexId],
    units: Sequence[Unit],
    owner: Mapping[HexId, Side],
    ground: Ground,
) -> tuple[Unit, Moved]:
    """Carry out a retreat result for ``unit`` (BA-8.4b-d, BA-8.4f-g).

    In a town, or with no route, it stays and loses 10% more; otherwise it moves one hex,
    spending the regular cost without ZOC costs, and loses 10% more if that hex is in an
    enemy ZOC. A strength of 0 after the extra loss is an elimination.
    """
    if ground.terrain.get(unit.hex) == "town":
        to = None
    else:
        to = retreat_hex(unit, attacker_hexes, units, owner, ground)
    if to is None:
        loss = min(unit.strength, extra_loss(unit.strength, HOLD_LOSS_PERCENT))
        after = msgspec.structs.replace(unit, strength=unit.strength - loss)
        return after, Moved(unit.id, unit.hex, None, 0, loss)
    cost = ground.move_cost(unit, unit.hex, to)
    assert cost is not None  # retreat_hex only offers hexes regular movement may enter
    into_zoc = to in enemy_zoc(unit.side, units)
    loss = extra_loss(unit.strength, ZOC_LOSS_PERCENT) if into_zoc else 0
    loss = min(loss, unit.strength)
    after = moved(msgspec.structs.replace(unit, strength=unit.strength - loss), to, cost)
    return after, Moved(unit.id, unit.hex, to, unit.op - after.op, loss)


def advance(
    attackers: Sequence[Unit],
    target: HexId,
    units: Sequence[Unit],
    ground: Ground,
) -> tuple[list[Unit], list[Moved]]:
    """Advance into the emptied ``target`` (BA-8.4e-g, BA-7.9d, G5).

    ``attackers`` are in plotted order; each with the advance flag, still alive, for which
    regular movement into ``target`` is allowed and which has room to stack there, advances
    one hex, the first plotter first, until the hex is full. Returns every unit (moved ones
    replaced) and the advances.
    """
    board = {u.id: u for u in units}
    done: list[Moved] = []
    if any(u.hex == target and u.strength > 0 and u.side != attackers[0].side for u in units):
        return list(units), done
    for a in attackers:
        unit = board.get(a.id)
        if unit is None or unit.strength == 0 or not unit.advance:
            continue
        cost = ground.move_cost(unit, unit.hex, target)
        if cost is None or not room_for(unit, target, board.values()):
            continue
        after = moved(unit, target, cost)
        board[unit.id] = after
        done.append(Moved(unit.id, unit.hex, target, unit.op - after.op, 0))
    return [board[u.id] for u in units], done


def new_owner(owner: Mapping[HexId, Side], entered: HexId, side: Side) -> dict[HexId, Side]:
    """A hex changes owner when a unit moves into an enemy hex (BA-1.4f), retreats and
    advances included."""
    out = dict(owner)
    if out.get(entered) == enemy_of(side) or entered not in out:
        out[entered] = side
    return out
