"""The Reinforcement Phase (5.0-5.2, G18): BA-5.0a, BA-5.1a, BA-5.2a-c.

One call a side a turn: :func:`reinforce` takes the units due (this turn's arrivals of 13.2
and those delayed before), the units on the map, the side's unit limit and the exited German
strength, and returns who enters where, who waits and who never comes.

G18 reading: a reinforcement enters in travel mode (7.7e lets reinforcements stack in travel
mode, so they arrive in it), supplied, with no operation points (the allowance of 7.4 is
credited to every unit alike); delayed units come first, in the order they were due (date,
then order of battle); the "nearby map edge road hex" is the side's friendly-edge road hex
nearest the printed one that it may enter (then the lowest id); with none free the unit waits
a turn. Exited strength is counted cumulatively, unmodified, as 7.10 says "combat points".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough.units import MAX_STACK, Side, Unit
from rules.hexgrid import HexId

Edge = Literal["north", "south", "west", "east"]

UNIT_LIMIT: Final = {"american": 57, "german": 70}
"""5.2: "The American may have fifty-seven and the German seventy" (BA-5.2a)."""
EXIT_POINTS_PER_DELAY: Final = 50
"""5.2: "For every 50 combat points exited ... the very next reinforcing unit on the north or
west map edge permanently delayed" (BA-5.2c)."""
DELAYABLE_EDGES: Final[frozenset[Edge]] = frozenset({"north", "west"})


class Arrival(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit due: as it will enter (``unit.hex`` is its printed entry hex, 13.2), the map
    edge of that hex, the turn it was first due and its place in the order of battle."""

    unit: Unit
    edge: Edge
    turn: int
    order: int


class Reinforced(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the phase did for one side."""

    entered: tuple[Unit, ...]
    delayed: tuple[Arrival, ...]
    """Still due next turn (BA-5.2b)."""
    cancelled: tuple[str, ...]
    """Permanently delayed (BA-5.2c)."""
    cancelled_total: int
    """Every permanent delay so far, this phase's included."""


def permanent_delays(exited_strength: int) -> int:
    """How many American arrivals the German exits have cancelled in all (BA-5.2c)."""
    return exited_strength // EXIT_POINTS_PER_DELAY


def _fits(unit: Unit, hex_id: HexId, units: Sequence[Unit]) -> bool:
    """No enemy unit there and room for its stacking points (BA-5.1a; travel-mode
    reinforcements may stack together, 7.7e)."""
    here = [u for u in units if u.hex == hex_id and u.strength > 0]
    if any(u.side != unit.side for u in here):
        return False
    return sum(u.stack for u in here) + unit.stack <= MAX_STACK


def entry_hex(unit: Unit, units: Sequence[Unit], edge_roads: frozenset[HexId]) -> HexId | None:
    """Where ``unit`` enters: its printed hex, or the nearest friendly-edge road hex it fits
    in (BA-5.0a, BA-5.1a, G18); None when there is none."""
    if _fits(unit, unit.hex, units):
        return unit.hex
    candidates = sorted((hexgrid.distance(unit.hex, h), h) for h in edge_roads if h != unit.hex)
    for _, h in candidates:
        if _fits(unit, h, units):
            return h
    return None


def reinforce(
    side: Side,
    due: Sequence[Arrival],
    units: Sequence[Unit],
    edge_roads: frozenset[HexId],
    limit: int | None = None,
    exited_strength: int = 0,
    cancelled_before: int = 0,
) -> Reinforced:
    """Enter ``side``'s reinforcements (BA-5.0a, BA-5.1a, BA-5.2a-c, G18).

    ``units`` are every unit on the map (both sides); ``edge_roads`` the side's friendly-edge
    road hexes; ``exited_strength`` the German strength exited so far and
    ``cancelled_before`` the American arrivals already cancelled for it."""
    cap = UNIT_LIMIT[side] if limit is None else limit
    board = list(units)
    owed = permanent_delays(exited_strength) - cancelled_before if side == "american" else 0
    entered: list[Unit] = []
    delayed: list[Arrival] = []
    cancelled: list[str] = []
    for a in sorted(due, key=lambda a: (a.turn, a.order, a.unit.id)):
        if owed > 0 and a.edge in DELAYABLE_EDGES:
            owed -= 1
            cancelled.append(a.unit.id)
            continue
        if sum(1 for u in board if u.side == side and u.strength > 0) + 1 > cap:
            delayed.append(a)
            continue
        arriving = msgspec.structs.replace(a.unit, mode="travel", supply="supplied", op=0)
        where = entry_hex(arriving, board, edge_roads)
        if where is None:
            delayed.append(a)
            continue
        arriving = msgspec.structs.replace(arriving, hex=where)
        board.append(arriving)
        entered.append(arriving)
    return Reinforced(
        tuple(entered), tuple(delayed), tuple(cancelled), cancelled_before + len(cancelled)
    )
