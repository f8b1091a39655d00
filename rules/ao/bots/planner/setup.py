"""The planner's German free set-up (AO-17.b): the historical set-up (AO-17.a), improved only
where the Game-Turn 1 attacks get better.

On Game-Turn 1 every American unit next to the start line must be attacked and every German
unit next to one must attack (AO-4.2h*), on the German Initial CRT (AO-10.3). The set-up's
value (:func:`setup_value`) is the expected value of those attacks: each German front-line
unit's attack strength (doubled out of the West Wall, :func:`ao.attack_factor`) shared
evenly, in integer arithmetic, among the American hexes next to it, and each American hex's
outcomes valued over the six die faces (:mod:`rules.ao.bots.planner.expected`, the German
planner's weights; towns immune to Dr, AO-11.f; Ex costs the least-strength minimal set,
AO-10.1b).

The search starts from the historical position and keeps a change only when it raises the
value: a swap of two front-line units, or a front-line unit moved to an empty front-line
hex (front-line units stay on the front line, one unit a hex, AO-17.b); rear units stay
where history put them (the panzer divisions on their roads). It stops when no change helps
or after :data:`MAX_PASSES` passes. So the free set-up is never worse than the historical
one by this measure; ``docs/selfplay.md`` measures it in play. Deterministic: changes are
tried in unit and hex order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules import HexId, Rejection
from rules.ao import (
    Board,
    GameState,
    Place,
    attack_factor,
    front_line,
    front_line_units,
    odds_column,
)
from rules.ao.bots.attack import ex_losses
from rules.ao.bots.free_setup import orders_to
from rules.ao.bots.planner.expected import Sides, Weights, expected_numerator, outcomes

MAX_PASSES: Final = 6


class SetupValue:
    """The Game-Turn 1 attack value of German front-line placements against the Americans of
    ``state`` (see the module docstring), with per-hex caching for the search."""

    def __init__(self, board: Board, state: GameState, weights: Weights) -> None:
        self.board = board
        self.weights = weights
        m = board.game_map
        self.americans: dict[HexId, list[str]] = {}
        for u in state.units:
            allied = u.status == "on_map" and board.defs[u.id].side == "allied"
            if allied and u.hex is not None and not m.is_allied_edge(u.hex):
                self.americans.setdefault(u.hex, []).append(u.id)
        self.targets: dict[HexId, tuple[HexId, ...]] = {}
        for h in front_line(m, "german"):
            self.targets[h] = tuple(sorted(n for n in m.neighbours(h) if n in self.americans))
        self.factor = {h: attack_factor(m, h, "german", 1) for h in self.targets}

    def value(self, where: Mapping[HexId, str]) -> int:
        """Six times the expected value (thousandths of a VP) of the Game-Turn 1 attacks with
        the front-line units at ``where`` (hex -> unit)."""
        share: dict[HexId, int] = {}
        units: dict[HexId, list[str]] = {}
        for h, uid in where.items():
            t = self.targets.get(h, ())
            if not t:
                continue
            strength = self.board.defs[uid].strength * self.factor[h]
            for a in t:
                share[a] = share.get(a, 0) + strength // len(t)
                units.setdefault(a, []).append(uid)
        return sum(self.hex_value(a, share[a], units[a]) for a in sorted(share))

    def hex_value(self, a: HexId, attack: int, attackers: list[str]) -> int:
        """Six times the expected value of ``attackers`` (strength ``attack``) on ``a``."""
        defs = self.board.defs
        dfn = [defs[x] for x in self.americans[a]]
        col = odds_column(attack, sum(d.strength for d in dfn))
        if isinstance(col, Rejection):
            return 0
        s = Sides(
            defenders=len(dfn),
            trapped=(0, 0, 0),
            immune=self.board.game_map.hex(a).town is not None,
            ex_loss=ex_losses([defs[x] for x in attackers], sum(d.strength for d in dfn)),
            attackers=len(attackers),
            att_trapped=(0, 0, 0),
        )
        return expected_numerator(outcomes("initial", col, s), self.weights)


def improved(board: Board, state: GameState, weights: Weights) -> dict[str, HexId]:
    """Where each German front-line unit goes (unit -> hex): the historical placement of
    ``state`` improved by swaps and moves along the front line while
    :meth:`SetupValue.value` rises (see the module docstring)."""
    m = board.game_map
    sv = SetupValue(board, state, weights)
    front = sorted(front_line(m, "german"))
    fl = front_line_units(board)
    where: dict[HexId, str] = {}
    for u in state.units:
        german = u.status == "on_map" and u.id in fl and board.defs[u.id].side == "german"
        if german and u.hex is not None and u.hex in sv.targets:
            where[u.hex] = u.id
    best = sv.value(where)
    for _ in range(MAX_PASSES):
        changed = False
        hexes = sorted(where)
        for i, a in enumerate(hexes):
            for b in [*hexes[i + 1 :], *(h for h in front if h not in where)]:
                if a not in where:
                    break
                trial = dict(where)
                ua, ub = trial.pop(a), trial.pop(b, None)
                trial[b] = ua
                if ub is not None:
                    trial[a] = ub
                v = sv.value(trial)
                if v > best:
                    best, where, changed = v, trial, True
            hexes = sorted(where)
        if not changed:
            break
    return {uid: h for h, uid in where.items()}


def german_orders(board: Board, state: GameState, weights: Weights) -> list[Place]:
    """The ``Place`` commands of the improved German free set-up (:func:`improved`)."""
    return orders_to(board, state, "german", improved(board, state, weights))


__all__ = ["MAX_PASSES", "SetupValue", "german_orders", "improved"]
