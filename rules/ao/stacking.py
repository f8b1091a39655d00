"""Stacking (AO-8): the limit, the German infantry division rule, and the MP costs.

At most one division equivalent per hex at all times (AO-8.0): three regiments or brigades
(one stacking point each, :attr:`rules.ao.units.UnitDef.stacking_points`), or one German infantry
division, which stacks with nothing (AO-8.2C). Status markers and Road Mode do not change a
unit's stacking value (AO-8.2D). Allied units on Allied Map Edge hexes have no limit (AO-8.3F).

MP costs (AO-8.1A, AO-5.2H): moving into a hex that holds other friendly units costs +6 MP
(mechanized) / +2 MP (non-mechanized) on top of the terrain cost; *destacking* costs the same.
We charge destacking whenever a unit leaves a hex in which other friendly units remain - its
start hex or any hex of its path (``docs/rules-notes.md``, AO-8.1A). Units on Allied Map Edge
hexes pay neither (AO-8.3F: those hexes stand for larger areas off the map).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.ao.gamemap import GameMap
from rules.ao.state import Board, GameState
from rules.ao.units import STACK_LIMIT, UnitDef
from rules.hexgrid import HexId
from rules.rejection import Rejection


def stacking_cost(unit: UnitDef) -> int:
    """The MP to stack with or destack from friendly units (AO-8.1A)."""
    return 6 if unit.mechanized else 2


def stack_points(units: Iterable[UnitDef]) -> int:
    """Division equivalents in thirds (AO-8.0)."""
    return sum(u.stacking_points for u in units)


def exempt(game_map: GameMap, unit: UnitDef, hex_id: HexId) -> bool:
    """Allied units on Allied Map Edge hexes are free of the limit (AO-8.3F)."""
    return unit.side == "allied" and game_map.is_allied_edge(hex_id)


def check_stack(
    game_map: GameMap, unit: UnitDef, hex_id: HexId, others: Sequence[UnitDef]
) -> Rejection | None:
    """Whether ``unit`` may join the friendly ``others`` in ``hex_id``."""
    if not others or exempt(game_map, unit, hex_id):
        return None
    if unit.is_german_infantry_division:
        return Rejection(
            "AO-8.2C",
            f"{unit.id} is a German infantry division and stacks with nothing "
            f"({hex_id} holds {', '.join(o.id for o in others)})",
        )
    div = [o.id for o in others if o.is_german_infantry_division]
    if div:
        return Rejection(
            "AO-8.2C",
            f"{unit.id} may not stack with the German infantry division {div[0]} ({hex_id})",
        )
    total = stack_points(others) + unit.stacking_points
    if total > STACK_LIMIT:
        return Rejection(
            "AO-8.0",
            f"{unit.id} would make {total} regiment-equivalents in {hex_id}; "
            f"the limit is {STACK_LIMIT}",
        )
    return None


def over_limit(board: Board, state: GameState) -> list[HexId]:
    """Hexes whose stack breaks AO-8.0/AO-8.2C (sorted); empty in every legal state."""
    by_hex: dict[HexId, list[UnitDef]] = {}
    for u in state.units:
        if u.hex is not None and u.status in ("on_map", "dormant"):
            by_hex.setdefault(u.hex, []).append(board.defs[u.id])
    bad: list[HexId] = []
    for h in sorted(by_hex):
        units = by_hex[h]
        if len(units) < 2 or all(exempt(board.game_map, u, h) for u in units):
            continue
        if any(u.is_german_infantry_division for u in units) or stack_points(units) > STACK_LIMIT:
            bad.append(h)
    return bad
