"""The planned bots of *Breakthrough* (version 2, issue 24): a German who plays the German plan
and an American who reinforces the threatened sectors (pure, deterministic).

Both reuse :class:`.heuristic.Player`'s Air Phase, replacements and air drops and change what
matters to the plan:

* **German.** Each unit follows its army's axis (:data:`.plan.AXES`): the infantry (VG, FJ,
  engineers) makes for the nearest victory town of its axis the German does not own; the
  panzer, panzergrenadier and reconnaissance units drive for the axis' exit hexes (BA-7.10a),
  taking a town of the axis that lies ahead of them and within :data:`DETOUR` of their way,
  and leave the map as soon as they stand on an exit (10.1d: ``strength // 3`` points every
  turn from the exit to the end). Units walk down a route field (:class:`.plan.Fields`), in
  travel mode on the roads away from the enemy, and stop next to it. Every unit within
  :data:`SUPPORT_RANGE` of the enemy takes its artillery (6.4, ``MaxArtillery``). Attacks (7.9)
  are plotted best odds first, the strongest adjacent units added until the odds reach
  :data:`GERMAN_ENOUGH`, and only at :data:`GERMAN_ODDS` or more, the first plotter advancing;
  before the moves and again after them. In the Unit Organization Phase two or three
  regiments of a mobile division in one hex build up into the divisional unit (BA-6.6a), so
  that the division attacks and advances as one (``build_up=False`` turns it off; over 20
  seeds neither way measured better: ``docs/rules-notes-breakthrough.md``, "The bots").
* **American.** Units in contact hold and fortify; every other unit, the arriving ones
  included (5.0), is sent to the American-held victory town or exit hex whose threat (German
  strength within :data:`THREAT_RADIUS`, less the American strength on or next to it) less
  :data:`DISTANCE_WEIGHT` a hex of distance is the largest; a unit sent lowers the threat it
  answers by its strength. It counterattacks as version 1 does, at :data:`.heuristic.AMERICAN_ODDS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules import hexgrid
from rules.breakthrough import operations, strength
from rules.breakthrough.board import Board
from rules.breakthrough.bots.heuristic import BotRng, Player, _adjacent_enemies, _live, walk
from rules.breakthrough.bots.plan import UNREACHED, Axis, Fields, axis_of
from rules.breakthrough.sequence import owner_of, profiles
from rules.breakthrough.state import Advance, Attack, BuildUp, Exit, MaxArtillery, State
from rules.breakthrough.units import Side, Unit
from rules.hexgrid import HexId

NAME: Final = "bita-planned"
VERSION: Final = "2"
GERMAN_ODDS: Final = 200
"""Hundredths: the German plots at 2 to 1 or better, the break-even of 8.3's loss model
(the defender loses half the attacker's loss times the odds, on average)..."""
GERMAN_TOWN_ODDS: Final = 200
"""... and on a victory town (kept apart: the town's defenders never retreat, 8.4)."""
GERMAN_ENOUGH: Final = 600
"""Attackers are added, strongest first, until the odds reach 6 to 1, where 8.3's loss model
caps them: more attackers only lose more."""
DETOUR: Final = 12
"""Route cost a panzer unit turns aside for a victory town ahead of it."""
THREAT_RADIUS: Final = 4
DISTANCE_WEIGHT: Final = 20
"""Threat points a hex of distance is worth to the American."""
GIVE_UP: Final = -200
"""A threat scored this low (far and small) is left to others."""
SUPPORT_RANGE: Final = 3
"""Hexes from the enemy within which a German unit takes its artillery."""
MOBILE_TYPES: Final = frozenset({"PZ", "PZGR", "CAV"})


def _corps(board: Board, state: State, uid: str) -> str:
    named = board.names.get(uid)
    if named is not None:
        return named[1]
    prof = profiles(board, state)[uid]
    return prof.pool or ""


class German(Player):
    """The German plan (module docstring)."""

    def __init__(self, rng: BotRng, *, build_up: bool = True) -> None:
        super().__init__("german", rng)
        self.build_up = build_up
        self._fields: Fields | None = None

    def fields(self, board: Board) -> Fields:
        if self._fields is None or self._fields.board is not board:
            self._fields = Fields(board)
        return self._fields

    # -- organization: build-up ---------------------------------------------------------------

    def _organize(self, game: Any) -> None:
        if self.build_up:
            self._build_up(game)
        self._artillery(game)
        super()._organize(game)

    def _artillery(self, game: Any) -> None:
        """Artillery to every unit within :data:`SUPPORT_RANGE` of the enemy (6.4): the ones
        that will attack this turn, not only those already in contact."""
        prof = profiles(game.board, game.state)
        americans = [e.hex for e in game.state.units if e.side == "american"]
        for u in _live(game.state, "german"):
            if prof[u.id].pool is None:
                continue
            if any(hexgrid.distance(u.hex, h) <= SUPPORT_RANGE for h in americans):
                self.push(game, MaxArtillery(u.id))

    def _build_up(self, game: Any) -> None:
        """Two or three regiments of one mobile division in a hex build up (BA-6.6a)."""
        state: State = game.state
        prof = profiles(game.board, state)
        groups: dict[tuple[HexId, str], list[Unit]] = {}
        for u in _live(state, "german"):
            p = prof[u.id]
            if u.divisional or p.division is None or not p.mobile or u.supply != "supplied":
                continue
            groups.setdefault((u.hex, p.division), []).append(u)
        for (_, _), regs in sorted(groups.items()):
            if len(regs) >= 2:
                first, *rest = sorted(regs, key=lambda u: (-u.strength, u.id))
                self.push(game, BuildUp(first.id, tuple(r.id for r in rest[:2])))

    # -- operations ---------------------------------------------------------------------------

    def _operate(self, game: Any) -> None:
        self._exits(game)
        self._attacks(game)
        for uid in [u.id for u in _live(game.state, "german")]:
            self._maneuver(game, uid)
        self._exits(game)
        self._attacks(game)

    def _exits(self, game: Any) -> None:
        for u in _live(game.state, "german"):
            if u.hex in game.board.exits:
                self.push(game, Exit(u.id))

    def _attacks(self, game: Any) -> None:
        board: Board = game.board
        tried: set[HexId] = set()
        while True:
            best = self._best_attack(board, game.state, tried)
            if best is None:
                return
            target, attackers = best
            tried.add(target)
            for i, a in enumerate(attackers):
                if self.push(game, Attack(a.id, target)) and i == 0 and not a.advance:
                    self.push(game, Advance(a.id))

    def _best_attack(
        self, board: Board, state: State, tried: set[HexId]
    ) -> tuple[HexId, list[Unit]] | None:
        """The enemy hex with the best odds at or above the German's threshold, and the
        attackers that reach :data:`GERMAN_ENOUGH` (all of them if they cannot)."""
        plotted = {p.unit for p in state.plots}
        targeted = {p.target for p in state.plots}
        able = [
            u
            for u in _live(state, "german")
            if u.op >= operations.ATTACK_COST and u.supply != "isolated" and u.id not in plotted
        ]
        best: tuple[int, HexId, list[Unit]] | None = None
        hexes = {e.hex for e in state.units if e.side == "american"} - targeted - tried
        for target in sorted(hexes):
            near = sorted(
                (a for a in able if hexgrid.adjacent(a.hex, target)),
                key=lambda u: (-u.strength, u.id),
            )
            if not near:
                continue
            defenders = [e for e in state.units if e.hex == target]
            chosen: list[Unit] = []
            odds = 0
            for a in near:
                chosen.append(a)
                odds = self._odds(board, chosen, defenders, target)
                if odds >= GERMAN_ENOUGH:
                    break
            need = GERMAN_TOWN_ODDS if target in board.towns else GERMAN_ODDS
            if odds >= need and (best is None or odds > best[0]):
                best = (odds, target, chosen)
        return None if best is None else (best[1], best[2])

    @staticmethod
    def _odds(board: Board, attackers: list[Unit], defenders: list[Unit], target: HexId) -> int:
        pairs = [(a, hexgrid.hexside(a.hex, target) in board.rivers) for a in attackers]
        return strength.combat_odds(pairs, defenders, board.terrain[target]).ratio

    # -- movement -----------------------------------------------------------------------------

    def _goal_set(self, board: Board, state: State, u: Unit) -> tuple[HexId, ...]:
        owner = owner_of(board, state)
        axis: Axis = axis_of(_corps(board, state, u.id))
        f = self.fields(board)
        open_towns = [t for t in axis.towns if owner[t] != "german"]
        if profiles(board, state)[u.id].type in MOBILE_TYPES:
            to_exit = f.to(axis.exits)
            here = to_exit.get(u.hex, UNREACHED)
            ahead = [
                t
                for t in open_towns
                if to_exit.get(t, UNREACHED) < here and f.cost((t,), u.hex) <= DETOUR
            ]
            if ahead:
                return (min(ahead, key=lambda t: (f.cost((t,), u.hex), t)),)
            return axis.exits
        if open_towns:
            return (min(open_towns, key=lambda t: (f.cost((t,), u.hex), t)),)
        return axis.exits

    def _objective(self, board: Board, state: State, u: Unit) -> HexId | None:
        goals = self._goal_set(board, state, u)
        if u.hex in goals:
            return None
        return min(goals, key=lambda h: (self.fields(board).cost((h,), u.hex), h))

    def _path(self, board: Board, state: State, u: Unit, goal: HexId) -> list[HexId]:
        return field_walk(self, board, state, u, self.fields(board).to((goal,)), True)


def field_walk(
    bot: Player,
    board: Board,
    state: State,
    u: Unit,
    field: Mapping[HexId, int],
    stop_at_contact: bool,
) -> list[HexId]:
    """A greedy walk down ``field`` (:func:`heuristic.walk` on the route costs): each step the
    legal neighbour of lowest route cost, only while the cost falls; ``stop_at_contact``: a hex
    next to the enemy ends it."""
    return walk(bot, board, state, u, lambda h: field.get(h, UNREACHED), stop_at_contact)


class American(Player):
    """The American defence (module docstring)."""

    def __init__(self, rng: BotRng) -> None:
        super().__init__("american", rng)
        self._fields: Fields | None = None
        self._orders: dict[tuple[int, int], dict[str, HexId]] = {}

    def fields(self, board: Board) -> Fields:
        if self._fields is None or self._fields.board is not board:
            self._fields = Fields(board)
        return self._fields

    def _objective(self, board: Board, state: State, u: Unit) -> HexId | None:
        return self._assign(board, state).get(u.id)

    def _assign(self, board: Board, state: State) -> dict[str, HexId]:
        """Once a phase: each free American unit's threatened town or exit (module doc)."""
        key = (state.turn, state.stage)
        got = self._orders.get(key)
        if got is not None:
            return got
        owner = owner_of(board, state)
        germans = [e for e in state.units if e.side == "german"]
        spots = sorted(
            {h for h in board.towns if owner[h] == "american"}
            | {h for h in board.exits if owner[h] == "american"}
        )
        need: dict[HexId, int] = {}
        for h in spots:
            threat = sum(g.strength for g in germans if hexgrid.distance(g.hex, h) <= THREAT_RADIUS)
            if threat == 0:
                continue
            have = sum(
                a.strength
                for a in state.units
                if a.side == "american" and hexgrid.distance(a.hex, h) <= 1
            )
            need[h] = threat - have
        free = sorted(
            (a for a in _live(state, "american") if not _adjacent_enemies(a, state) and a.op > 0),
            key=lambda a: (-a.strength, a.id),
        )
        orders: dict[str, HexId] = {}
        for a in free:
            if not need:
                break
            if a.hex in need and need[a.hex] > 0:
                goal = a.hex  # already on a threatened spot: stay
            else:
                goal = max(need, key=lambda h: (need[h] - 20 * hexgrid.distance(a.hex, h), h))
                if need[goal] - 20 * hexgrid.distance(a.hex, goal) <= -200:
                    continue
            orders[a.id] = goal
            need[goal] -= a.strength
        self._orders = {key: orders}
        return orders

    def _path(self, board: Board, state: State, u: Unit, goal: HexId) -> list[HexId]:
        return field_walk(self, board, state, u, self.fields(board).to((goal,)), False)


def players(seed: bytes) -> dict[Side, Player]:
    """One planned bot a side, each with its own stream from ``seed``; one route cache."""
    import hashlib

    def rng(side: str) -> BotRng:
        return BotRng(hashlib.sha256(b"bita-bot/2" + side.encode() + seed).digest())

    return {"american": American(rng("american")), "german": German(rng("german"))}
