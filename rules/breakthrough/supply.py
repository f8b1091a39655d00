"""The Supply Phase and supply's effects (4.0-4.4, G16, G17, C8, C17): BA-4.0a-4.4b.

4.1: "to be in supply a unit must be able to trace a line of supply no more than two hexes,
unblocked by enemy hexes, to a supplied road. A supplied road is one that can trace a line of
[road] hexes off a friendly map edge, unblocked by enemy hexes. American friendly map edges are
the north, south and west edges. The Germans have only the east map edge. An enemy hex is one
that either contains an enemy unit or one that was last entered by an enemy unit. ... Note that
enemy zones of control (hexes next to enemy units) do not block the supply trace." 4.2: "A unit
is isolated if it is unsupplied, surrounded by enemy zones of control or units (zones of control
must be exerted by a adjacent enemy units to be effective), and not under the command control
of a division. A unit is under the command control of a division by being itself a divisional
unit, or by being on or adjacent to a hex containing a divisional unit." 4.4: automatic supply
on the first turns, and the fuel effect from 20 December.

The map comes in as a :class:`SupplyGround` of plain sets (every hex, road hexsides, blown
bridges, each side's friendly-edge road hexes); positions as the units and the owner of each
hex. The readings (G16, G17, C8, C17) are in ``docs/rules-notes-breakthrough.md`` ("Supply").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough.units import Draws, Side, Supply, Unit, enemy_of
from rules.hexgrid import HexId, Hexside
from rules.rejection import Rejection

TRACE_HEXES: Final = 2
"""BA-4.1a: "no more than two hexes" from the unit's hex to a supplied road hex."""
AUTO_SUPPLY_LAST_TURN: Final[Mapping[Side, int]] = {"american": 2, "german": 3}
"""BA-4.4a: American units supplied on 16-17 December, German units through 18 December."""
FUEL_FIRST_TURN: Final = 5
FUEL_CHANCE: Final = 12
"""BA-4.4b (C8, G17): from 20 December (turn 5) a German unit that traces supply runs out of
fuel on a draw of 12 or less, and is unsupplied."""


@dataclass(frozen=True)
class SupplyGround:
    """What supply needs of the map, as plain values."""

    cells: frozenset[HexId]
    """Every hex of the map."""
    roads: frozenset[Hexside]
    """Road hexsides (``rules.hexgrid.hexside`` keys) (BA-1.4e)."""
    edge_roads: Mapping[Side, frozenset[HexId]]
    """Road hexes on each side's friendly map edges, where supplied roads start (BA-4.1b-c)."""
    blown: frozenset[Hexside] = field(default_factory=frozenset)
    """Road hexsides whose bridge is blown: no road across them (G16)."""


class SupplyChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit's Supply Phase result: its status before and after, and why."""

    unit: str
    before: Supply
    after: Supply
    automatic: bool = False
    """Supplied by 4.4a, without a trace."""
    fuel_draw: int | None = None
    """The fuel draw, for a German unit that traced supply from turn 5 (BA-4.4b)."""
    out_of_fuel: bool = False
    to_normal: bool = False
    """Changed from travel to normal mode (BA-4.3g)."""


def live(units: Iterable[Unit]) -> list[Unit]:
    """The units on the map (an eliminated unit has strength 0)."""
    return [u for u in units if u.strength > 0]


def enemy_hexes(side: Side, units: Iterable[Unit], owner: Mapping[HexId, Side]) -> frozenset[HexId]:
    """``side``'s enemy hexes (BA-4.1d): those holding an enemy unit or last entered by one
    (owned by the enemy, BA-1.4f)."""
    foe = enemy_of(side)
    held = {u.hex for u in live(units) if u.side == foe}
    return frozenset(held | {h for h, s in owner.items() if s == foe})


def _road_steps(ground: SupplyGround, h: HexId) -> list[HexId]:
    out: list[HexId] = []
    for n in hexgrid.neighbours(h):
        if n is None or n not in ground.cells:
            continue
        side_key = hexgrid.hexside(h, n)
        if side_key in ground.roads and side_key not in ground.blown:
            out.append(n)
    return out


def supplied_roads(
    side: Side, ground: SupplyGround, units: Iterable[Unit], owner: Mapping[HexId, Side]
) -> frozenset[HexId]:
    """``side``'s supplied road hexes (BA-4.1b-d): the road net flooded along road hexsides
    from the road hexes of its friendly map edges, never into or through an enemy hex. Zones
    of control do not matter (BA-4.1e)."""
    enemy = enemy_hexes(side, units, owner)
    start = sorted(
        h for h in ground.edge_roads.get(side, frozenset()) if h in ground.cells and h not in enemy
    )
    seen = set(start)
    todo = list(start)
    while todo:
        h = todo.pop()
        for n in _road_steps(ground, h):
            if n not in seen and n not in enemy:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def trace_length(
    start: HexId, ground: SupplyGround, roads: frozenset[HexId], enemy: frozenset[HexId]
) -> int | None:
    """Hexes from ``start`` to the nearest supplied road hex through hexes of the map that are
    not enemy hexes, or ``None`` beyond two (BA-4.1a). Terrain and rivers do not matter (G16).
    """
    frontier = [start]
    seen = {start}
    for steps in range(TRACE_HEXES + 1):
        if any(h in roads for h in frontier):
            return steps
        nxt: list[HexId] = []
        for h in frontier:
            for n in hexgrid.neighbours(h):
                if n is not None and n in ground.cells and n not in seen and n not in enemy:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return None


def surrounded(unit: Unit, units: Iterable[Unit], cells: frozenset[HexId]) -> bool:
    """Whether every hex around ``unit`` holds an enemy unit or lies in the zone of control of
    an enemy unit adjacent to ``unit`` (BA-4.2b). Hexes off the map are no way out (G16)."""
    foe = [u.hex for u in live(units) if u.side != unit.side and hexgrid.adjacent(u.hex, unit.hex)]
    if not foe:
        return False
    closed = set(foe)
    for f in foe:
        closed.update(n for n in hexgrid.neighbours(f) if n is not None)
    around = [n for n in hexgrid.neighbours(unit.hex) if n is not None and n in cells]
    return all(n in closed for n in around)


def command_control(unit: Unit, units: Iterable[Unit]) -> bool:
    """Whether ``unit`` is under a division's command control (BA-4.2c): it is a divisional
    unit, or a friendly divisional unit is in its hex or next to it (any division, G16)."""
    if unit.divisional:
        return True
    return any(
        u.divisional
        and u.side == unit.side
        and (u.hex == unit.hex or hexgrid.adjacent(u.hex, unit.hex))
        for u in live(units)
        if u.id != unit.id
    )


def traced(
    unit: Unit,
    ground: SupplyGround,
    units: Sequence[Unit],
    owner: Mapping[HexId, Side],
    roads: frozenset[HexId] | None = None,
) -> Supply:
    """``unit``'s status by the trace alone (BA-4.2a-c): supplied, unsupplied or isolated."""
    enemy = enemy_hexes(unit.side, units, owner)
    net = supplied_roads(unit.side, ground, units, owner) if roads is None else roads
    if trace_length(unit.hex, ground, net, enemy) is not None:
        return "supplied"
    if surrounded(unit, units, ground.cells) and not command_control(unit, units):
        return "isolated"
    return "unsupplied"


def automatic(side: Side, turn: int) -> bool:
    """Whether ``side``'s units are supplied without a trace on ``turn`` (BA-4.4a)."""
    return turn <= AUTO_SUPPLY_LAST_TURN[side]


def _traced_all(
    turn: int, units: Sequence[Unit], ground: SupplyGround, owner: Mapping[HexId, Side]
) -> dict[str, Supply]:
    nets = {
        s: supplied_roads(s, ground, units, owner)
        for s in ("american", "german")
        if not automatic(s, turn)
    }
    return {
        u.id: "supplied" if u.side not in nets else traced(u, ground, units, owner, nets[u.side])
        for u in live(units)
    }


def fuel_rolls(
    turn: int, units: Sequence[Unit], ground: SupplyGround, owner: Mapping[HexId, Side]
) -> tuple[str, ...]:
    """The units that take a fuel draw this Supply Phase, in draw order (BA-4.4b): from turn 5,
    every German unit whose trace succeeds, by id. The Ruleset asks the dice for this many."""
    if turn < FUEL_FIRST_TURN:
        return ()
    status = _traced_all(turn, units, ground, owner)
    return tuple(
        sorted(u.id for u in live(units) if u.side == "german" and status[u.id] == "supplied")
    )


def supply_phase(
    turn: int,
    units: Sequence[Unit],
    ground: SupplyGround,
    owner: Mapping[HexId, Side],
    draws: Draws,
) -> tuple[list[Unit], tuple[SupplyChange, ...]]:
    """The Supply Phase (BA-4.0a, BA-4.2a-c, BA-4.3g, BA-4.4a-b): every unit's new status, all
    traced against the same position, in the order given; the report by unit id.

    A side's units are supplied on its automatic turns (4.4a) without a trace. From turn 5 each
    German unit that traces supply takes one fuel draw (:func:`fuel_rolls` order); 12 or less
    makes it unsupplied whatever the trace (4.4b, C8). A unit in travel mode that the trace
    leaves unsupplied or isolated changes to normal mode; one unsupplied by the fuel effect
    keeps its mode (4.3g).
    """
    status = _traced_all(turn, units, ground, owner)
    fuel: dict[str, int] = {}
    for uid in fuel_rolls(turn, units, ground, owner):
        fuel[uid] = draws.next()
    changes: dict[str, SupplyChange] = {}
    out: list[Unit] = []
    for u in units:
        if u.id not in status:
            out.append(u)
            continue
        after = status[u.id]
        draw = fuel.get(u.id)
        dry = draw is not None and draw <= FUEL_CHANCE
        if dry:
            after = "unsupplied"
        to_normal = u.mode == "travel" and after != "supplied" and not dry
        changes[u.id] = SupplyChange(
            u.id, u.supply, after, automatic(u.side, turn), draw, dry, to_normal
        )
        out.append(msgspec.structs.replace(u, supply=after, mode="normal" if to_normal else u.mode))
    return out, tuple(changes[k] for k in sorted(changes))


# --- supply's effects (4.3) ---------------------------------------------------------------


def allowance(points: int, supply: Supply) -> int:
    """The operation points a unit receives for a phase (BA-4.3a, BA-4.3i): halved (rounded
    down) when unsupplied, zero when isolated.

    >>> allowance(24, "supplied"), allowance(9, "unsupplied"), allowance(24, "isolated")
    (24, 4, 0)
    """
    if supply == "isolated":
        return 0
    return points // 2 if supply == "unsupplied" else points


Work = Literal["blow a bridge", "build a bridge", "fortify"]


def _cut_off(unit: Unit) -> bool:
    # 4.3: isolated units "suffer the same penalities as unsupplied units" (C17).
    return unit.supply != "supplied"


def check_artillery_transfer(unit: Unit) -> Rejection | None:
    """An unsupplied or isolated unit may not transfer artillery in or out (BA-4.3d, C17)."""
    if _cut_off(unit):
        return Rejection("BA-4.3d", f"{unit.id} is {unit.supply}: no artillery transfer in or out")
    return None


def check_work(unit: Unit, work: Work) -> Rejection | None:
    """An unsupplied or isolated unit may not blow or build bridges nor fortify (BA-4.3e, C17)."""
    if _cut_off(unit):
        return Rejection("BA-4.3e", f"{unit.id} is {unit.supply}: it may not {work}")
    return None


def check_travel_mode(unit: Unit) -> Rejection | None:
    """An unsupplied or isolated unit may not change to travel mode (BA-4.3f)."""
    if _cut_off(unit):
        return Rejection("BA-4.3f", f"{unit.id} is {unit.supply}: it may not change to travel mode")
    return None


def check_attack(unit: Unit) -> Rejection | None:
    """An isolated unit may not attack (BA-4.3k); an unsupplied one may, at half strength."""
    if unit.supply == "isolated":
        return Rejection("BA-4.3k", f"{unit.id} is isolated: it may not attack")
    return None
