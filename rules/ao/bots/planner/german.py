"""The planner's German movement: the heuristic bot's scoring (:func:`rules.ao.bots.movement.score`:
the objectives, the plan, getting past Allied stacks) plus a look-ahead at the attacks the
move makes possible - concentration of force.

For every Allied hex next to where a unit may end, the planner knows the German attack
strength already next to it (units in place or moved there this phase, doubled out of the
West Wall, :func:`ao.attack_factor`) and values the attack on the Initial or Standard CRT
in use (:mod:`rules.ao.bots.planner.expected`: De and Ex kill, Ex costs the least-strength
minimal set, Dr gains ground, nothing moves a town's defenders, AO-11.f). A unit's move is
worth :data:`CONCENTRATE` points per VP of expected value it *adds* to the best of those
attacks (the column it lifts the attack to: 4-1 brings the Ex, 6-1 the De on the Initial
CRT) - in the Initial Movement Phase, just before the Combat Phase; half that in the
Mechanized Movement Phase (the attack waits a player-turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules import HexId, Rejection
from rules.ao import (
    Game,
    attack_factor,
    crt,
    odds_column,
)
from rules.ao.bots.context import Context
from rules.ao.bots.movement import score as heuristic_score
from rules.ao.bots.movement import unit_target
from rules.ao.bots.planner.expected import SCALE, Sides, Weights, expected_numerator, outcomes

CONCENTRATE: Final = 600
"""Points per VP of expected attack value a move adds (the heuristic's ``BEHIND`` is 100, a
hex of objective pull 10): measured, 60 gained little, 300-1,200 about the same (German wins
against the heuristic Allies, scenarios 1-10 seeds 5-8: 13, 22, 21 and 23 of 40 for 60, 300,
600, 1,200; the heuristic German 15)."""


class GermanPlan:
    """One German movement phase's attack table (see the module docstring), updated as units
    move."""

    def __init__(self, ctx: Context, game: Game, weights: Weights) -> None:
        self.ctx = ctx
        self.game = game
        board, state = game.board, game.state
        self.board = board
        self.state = state
        self.weights = weights
        self.table = crt.crt_for(state)
        self.scale = 2 if state.phase == "initial_movement" else 1
        m = board.game_map
        self.enemy: dict[HexId, list[str]] = {}
        for u in state.units:
            allied = u.in_play and u.hex is not None and board.defs[u.id].side == "allied"
            if allied and u.hex is not None and not m.is_allied_edge(u.hex):
                self.enemy.setdefault(u.hex, []).append(u.id)
        self.where: dict[str, HexId] = {}
        self.adjacent: dict[HexId, dict[str, int]] = {h: {} for h in self.enemy}
        for u in state.units:
            german = u.in_play and board.defs[u.id].side == "german"
            if german and u.hex is not None and not u.road_mode:
                self._add(u.id, u.hex)
        self.targets: dict[str, HexId | None] = {}
        self._value: dict[tuple[HexId, int], int] = {}

    def _strength(self, uid: str, h: HexId) -> int:
        return self.board.defs[uid].strength * attack_factor(
            self.board.game_map, h, "german", self.state.turn
        )

    def _add(self, uid: str, h: HexId) -> None:
        self.where[uid] = h
        for n in self.board.game_map.neighbours(h):
            if n in self.adjacent:
                self.adjacent[n][uid] = self._strength(uid, h)

    def _remove(self, uid: str) -> None:
        h = self.where.pop(uid, None)
        if h is None:
            return
        for n in self.board.game_map.neighbours(h):
            if n in self.adjacent:
                self.adjacent[n].pop(uid, None)

    def attack_value(self, e: HexId, strength: int, attackers: int) -> int:
        """Six times the expected value of an attack of ``strength`` by ``attackers`` units
        on the Allied hex ``e`` (thousandths of a VP; an Ex costs as many attackers as reach
        the defenders' strength if each were of average strength, AO-10.1b)."""
        key = (e, strength)
        hit = self._value.get(key)
        if hit is not None:
            return hit
        defs = [self.board.defs[x] for x in self.enemy[e]]
        face = sum(d.strength for d in defs)
        col = odds_column(strength, face)
        if isinstance(col, Rejection) or strength <= 0:
            value = 0
        else:
            k = max(1, attackers)
            ex = -(-face * k // strength)
            s = Sides(
                defenders=len(defs),
                trapped=(0, 0, 0),
                immune=self.board.game_map.hex(e).town is not None,
                ex_loss=min(k, max(1, ex)),
                attackers=0,
                att_trapped=(0, 0, 0),
            )
            value = max(0, expected_numerator(outcomes(self.table, col, s), self.weights))
        self._value[key] = value
        return value

    def concentration(self, uid: str, h: HexId) -> int:
        """Points for the attack value ``uid`` adds by ending in ``h`` (the best Allied hex
        next to it)."""
        m = self.board.game_map
        mine = self._strength(uid, h)
        best = 0
        for n in m.neighbours(h):
            near = self.adjacent.get(n)
            if near is None:
                continue
            others = {k: v for k, v in near.items() if k != uid}
            s0 = sum(others.values())
            before = self.attack_value(n, s0, len(others)) if others else 0
            after = self.attack_value(n, s0 + mine, len(others) + 1)
            best = max(best, after - before)
        return CONCENTRATE * self.scale * best // (2 * 6 * SCALE)

    def score(
        self, uid: str, h: HexId, road: bool, friends: Mapping[HexId, int], here: bool
    ) -> int:
        """The heuristic score of ``uid`` ending in ``h`` plus its concentration."""
        ctx, board, state = self.ctx, self.board, self.game.state
        if uid not in self.targets:
            start = state.unit(uid).hex
            assert start is not None
            reach = self.game.legal_moves(uid)
            self.targets[uid] = unit_target(ctx, board, uid, start, reach)
        s = heuristic_score(ctx, board, state, uid, h, road, friends, here, self.targets[uid])
        if not road:
            s += self.concentration(uid, h)
        return s

    def chosen(self, uid: str, h: HexId) -> None:
        """``uid`` ends in ``h``."""
        self._remove(uid)
        self._add(uid, h)


__all__ = ["CONCENTRATE", "GermanPlan"]
