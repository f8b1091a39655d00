"""Look-ahead helpers: supply traced for a hypothetical position, and how trapped a unit would
be where it stands (the planner's retreat, advance and movement choices).

* :func:`supplied_at`: can a unit of the net's side in ``h`` trace supply - at most three hexes
  (AO-12.1A, ``ao.SUPPLY_PATH_HEXES``) through hexes open to it, not across an interdicted
  bridge (AO-13.2B), to a road hex joined to its supply sources (:func:`ao.supply_net`)?
* :func:`exits_count`: how many of 1-, 2- and 3-hex retreats a unit in ``h`` would lack
  (AO-10.2b), on a position with the unit moved there.
* :func:`moved`: a position with units moved or removed (nothing else changes), for these
  questions only - never given to the engine.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from rules import HexId
from rules.ao import SUPPLY_PATH_HEXES, Board, GameState
from rules.ao.bots.retreats import RetreatContext, has_retreat


def supplied_at(board: Board, closed: frozenset[HexId], net: frozenset[HexId], h: HexId) -> bool:
    """A supply path of at most :data:`ao.SUPPLY_PATH_HEXES` steps from ``h`` through hexes
    not in ``closed`` to a hex of ``net`` (AO-12.1A; interdicted bridges are left to the net:
    the first three hexes rarely cross the Meuse)."""
    if h in net:
        return True
    m = board.game_map
    seen = {h}
    frontier = [h]
    for _ in range(SUPPLY_PATH_HEXES):
        nxt: list[HexId] = []
        for x in frontier:
            for n in m.neighbours(x):
                if n in seen or n in closed:
                    continue
                if n in net:
                    return True
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return False


def moved(state: GameState, where: Iterable[tuple[str, HexId | None]]) -> GameState:
    """``state`` with each ``(unit, hex)`` moved there (``None``: removed from the map)."""
    rows = []
    for uid, h in where:
        u = state.unit(uid)
        if h is None:
            rows.append(msgspec.structs.replace(u, hex=None, status="eliminated"))
        else:
            rows.append(msgspec.structs.replace(u, hex=h, status="on_map", road_mode=False))
    return state.replace_units(rows)


def retreats_lacking(board: Board, state: GameState, uid: str) -> int:
    """How many of the 1-, 2- and 3-hex retreats ``uid`` would lack where it stands in
    ``state`` (0: it can retreat any distance; 3: any Dr eliminates it, AO-10.2b)."""
    ctx = RetreatContext(board, state, board.defs[uid].side)
    return sum(1 for n in (1, 2, 3) if not has_retreat(board, state, uid, n, ctx))


__all__ = ["moved", "retreats_lacking", "supplied_at"]
