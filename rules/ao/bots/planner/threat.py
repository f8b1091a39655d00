"""How dangerous a hex is for a stack of one side next enemy player-turn: a one-ply look-ahead
at the enemy's attack (AO-9.0, AO-10.0), used by the planner's movement.

The enemy units that can reach a hex next player-turn (hex distance at most
:data:`REACH_MECH` for mechanized units, :data:`REACH_FOOT` for the others) attack it with the
:data:`MOST_ATTACKERS` strongest of them; the odds of their printed strength against the
stack's give a CRT column (the enemy's table: the German Initial CRT until he switches,
AO-10.3). Per die face the stack loses every unit on ``De`` and ``Ex``, and on ``Dr n`` when
it is not in a town (AO-11.f) and has no ``n``-hex escape (AO-10.2b) - hexes one step farther
each time, not enemy-occupied or enemy-controlled where it is (AO-7.3D); for the Allies an
Allied Map Edge hex is an escape (AO-9.7P). :func:`expected_loss` is the expected number of
units lost, in thousandths of a unit (integer arithmetic).
"""

from __future__ import annotations

from typing import Any, Final, cast

from rules import HexId, Rejection, hexgrid
from rules.ao import (
    Board,
    GameState,
    Side,
    crt,
    enemy_controlled,
    odds_column,
)

REACH_MECH: Final = 4
REACH_FOOT: Final = 2
MOST_ATTACKERS: Final = 6


class Threat:
    """The enemy's reach over the map for ``side``'s stacks in ``state`` (see the module
    docstring)."""

    def __init__(self, board: Board, state: GameState, side: Side, table: str) -> None:
        self.board = board
        self.side: Side = side
        self.table = table
        m = board.game_map
        self.enemy_hexes: frozenset[HexId] = frozenset(
            u.hex
            for u in state.units
            if u.in_play and u.hex is not None and board.defs[u.id].side != side
        )
        self.controlled: frozenset[HexId] = enemy_controlled(board, state, side)
        reach: dict[HexId, list[int]] = {}
        for u in state.units:
            if not u.in_play or u.hex is None or board.defs[u.id].side == side:
                continue
            d = board.defs[u.id]
            r = REACH_MECH if d.mechanized else REACH_FOOT
            for h in hexgrid.disc(u.hex, r):
                if h in m:
                    reach.setdefault(h, []).append(d.strength)
        self.strength: dict[HexId, int] = {
            h: sum(sorted(v, reverse=True)[:MOST_ATTACKERS]) for h, v in reach.items()
        }
        self.towns: frozenset[HexId] = frozenset(h for h in m if m.hex(h).town is not None)
        self._escape: dict[tuple[HexId, int], bool] = {}

    def escape(self, h: HexId, n: int) -> bool:
        """A path of ``n`` hexes from ``h``, each one hex farther, through passable hexes
        neither enemy-occupied nor enemy-controlled (stacking aside)."""
        key = (h, n)
        hit = self._escape.get(key)
        if hit is not None:
            return hit
        m = self.board.game_map
        allied = self.side == "allied"

        def walk(here: HexId, depth: int) -> bool:
            if depth == n:
                return True
            for x in m.neighbours(here):
                if hexgrid.distance(h, x) != depth + 1:
                    continue
                if m.hex(x).terrain == "impassable" or x in self.enemy_hexes:
                    continue
                if x in self.controlled:
                    continue
                if m.is_allied_edge(x):
                    if allied:
                        return True
                    continue
                if walk(x, depth + 1):
                    return True
            return False

        hit = walk(h, 0)
        self._escape[key] = hit
        return hit

    def expected_loss(self, h: HexId, defence: int, units: int) -> int:
        """Thousandths of the units of a stack of ``units`` units and printed strength
        ``defence`` in ``h`` expected lost to the enemy's attack next player-turn (0 when no
        enemy unit can reach it)."""
        att = self.strength.get(h, 0)
        if att <= 0 or units <= 0 or defence <= 0:
            return 0
        col = odds_column(att, defence)
        if isinstance(col, Rejection):
            return 0
        rows = crt.TABLES[cast(Any, self.table)]
        i = crt.ODDS_COLUMNS.index(col)
        town = h in self.towns
        dead = 0
        for row in rows:
            r = row[i]
            if r.kind in ("De", "Ex") or (
                r.kind == "Dr" and not town and not self.escape(h, r.hexes)
            ):
                dead += units
        return dead * 1000 // 6


__all__ = ["MOST_ATTACKERS", "REACH_FOOT", "REACH_MECH", "Threat"]
