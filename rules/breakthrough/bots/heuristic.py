"""A simple but purposeful player for each side of *Breakthrough* (pure, deterministic).

:func:`play_phase` gives the acting side's commands for the phase that waits, ending with
:class:`~rules.breakthrough.state.EndPhase`, pushing each on the game as it goes (each command
sees the state the one before left). Ties are broken by a :class:`BotRng` the caller seeds.

* **German** (the attacker, 11.0): flies its air points at the American stack most German
  units touch; fills the front line's artillery and spends its replacements; in an Operation
  Phase plots every attack whose odds reach :data:`GERMAN_ODDS` with every unit next to the
  hex that still can, the first plotter advancing; moves the rest towards the nearest victory
  town it does not own (and, from :data:`EXIT_TURN`, the nearest exit hex), in travel mode on
  the roads when far from the enemy; exits units standing on an exit hex; fortifies the rest.
* **American** (the defender): interdicts and strikes the biggest German stack next to its
  line; fills artillery, replacements, air drops to cut-off units; counterattacks at
  :data:`AMERICAN_ODDS`; holds and fortifies the line; sends units away from the line to the
  American-owned victory town the Germans are nearest to.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Final

from rules import hexgrid
from rules.breakthrough import movement, operations, strength
from rules.breakthrough.board import Board
from rules.breakthrough.sequence import air_of, owner_of, profiles
from rules.breakthrough.state import (
    Advance,
    AirDrop,
    Attack,
    ChangeMode,
    Command,
    EndPhase,
    Exit,
    Fortify,
    Interdict,
    MaxArtillery,
    Move,
    Replace,
    State,
    Strike,
)
from rules.breakthrough.units import Side, Unit
from rules.hexgrid import HexId
from rules.rejection import Rejection

NAME: Final = "bita-heuristic"
VERSION: Final = "1"
GERMAN_ODDS: Final = 130
"""Hundredths: the German plots an attack at 1.3 to 1 or better."""
AMERICAN_ODDS: Final = 200
EXIT_TURN: Final = 6
MAX_COMMANDS_A_PHASE: Final = 2_000


class BotRng:
    """A deterministic stream of numbers from a seed (SHA-256 of the seed and a counter)."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.n = 0

    def below(self, n: int) -> int:
        """A number 0..n-1."""
        self.n += 1
        digest = hashlib.sha256(self.seed + self.n.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:8], "big") % n


def _live(state: State, side: Side) -> list[Unit]:
    return [u for u in state.units if u.side == side]


def _adjacent_enemies(u: Unit, state: State) -> list[Unit]:
    return [e for e in state.units if e.side != u.side and hexgrid.adjacent(e.hex, u.hex)]


def _near(u: Unit, state: State, radius: int) -> bool:
    return any(e.side != u.side and hexgrid.distance(e.hex, u.hex) <= radius for e in state.units)


def _gain(path: list[HexId], start: HexId, goal: HexId) -> int:
    """Hexes of distance to ``goal`` a path wins."""
    return hexgrid.distance(start, goal) - hexgrid.distance(path[-1], goal) if path else 0


class Player:
    """One side's bot over a game (``game`` a :class:`rules.breakthrough.Game`)."""

    def __init__(self, side: Side, rng: BotRng) -> None:
        self.side = side
        self.rng = rng
        self._threats: dict[tuple[int, int], HexId | None] = {}

    def push(self, game: Any, cmd: Command) -> bool:
        r = game.push(cmd)
        return not isinstance(r, Rejection)

    def play_phase(self, game: Any) -> None:
        """Every command of this side's current phase, ending it."""
        state: State = game.state
        if state.phase == "air":
            self._air(game)
        elif state.phase == "organization":
            self._organize(game)
        elif state.phase == "operation":
            self._operate(game)
        game.push(EndPhase())

    # -- Air Phase -------------------------------------------------------------------------

    def _air(self, game: Any) -> None:
        state: State = game.state
        points = air_of(state, self.side).left
        targets = self._strike_targets(state)
        strikes = min(points, len(targets), 2 if self.side == "american" else points)
        for h in targets[:strikes]:
            self.push(game, Strike(h))
        for _ in range(air_of(game.state, self.side).left - (1 if self.side == "american" else 0)):
            self.push(game, Interdict())

    def _strike_targets(self, state: State) -> list[HexId]:
        """Enemy hexes next to our units, the most of our units touching first."""
        score: dict[HexId, int] = {}
        for e in state.units:
            if e.side == self.side:
                continue
            touching = sum(
                1 for u in state.units if u.side == self.side and hexgrid.adjacent(u.hex, e.hex)
            )
            if touching:
                score[e.hex] = score.get(e.hex, 0) + touching * 10 + e.strength
        return sorted(score, key=lambda h: (-score[h], h))

    # -- Unit Organization Phase ---------------------------------------------------------------

    def _organize(self, game: Any) -> None:
        board: Board = game.board
        prof = profiles(board, game.state)
        for u in _live(game.state, self.side):
            if _adjacent_enemies(u, game.state) and prof[u.id].pool is not None:
                self.push(game, MaxArtillery(u.id))
        inf, arm = game.state.replacements
        if inf or arm:
            weak = sorted(
                _live(game.state, self.side),
                key=lambda u: (u.strength - prof[u.id].full, u.id),
            )
            for u in weak:
                room = prof[u.id].full - u.strength
                if room <= 0:
                    continue
                inf, arm = game.state.replacements
                have = inf if prof[u.id].type in ("INF", "AB", "VG", "FJ", "ENG") else arm
                if have > 0:
                    self.push(game, Replace(u.id, min(room, have)))
        for u in _live(game.state, self.side):
            if air_of(game.state, self.side).left <= 0:
                break
            if u.supply != "supplied":
                self.push(game, AirDrop(u.hex))

    # -- Operation Phases --------------------------------------------------------------------------

    def _operate(self, game: Any) -> None:
        self._attacks(game)
        if self.side == "german":
            for u in _live(game.state, "german"):
                if u.hex in game.board.exits and game.state.turn >= EXIT_TURN:
                    self.push(game, Exit(u.id))
        for uid in [u.id for u in _live(game.state, self.side)]:
            self._maneuver(game, uid)

    def _attacks(self, game: Any) -> None:
        board: Board = game.board
        need = GERMAN_ODDS if self.side == "german" else AMERICAN_ODDS
        targets = sorted(
            {e.hex for e in game.state.units if e.side != self.side},
        )
        for target in targets:
            state: State = game.state
            plotted = {p.unit for p in state.plots}
            attackers = [
                u
                for u in _live(state, self.side)
                if hexgrid.adjacent(u.hex, target)
                and u.op >= operations.ATTACK_COST
                and u.supply != "isolated"
                and u.id not in plotted
            ]
            if not attackers:
                continue
            defenders = [e for e in state.units if e.hex == target]
            pairs = [(a, hexgrid.hexside(a.hex, target) in board.rivers) for a in attackers]
            odds = strength.combat_odds(pairs, defenders, board.terrain[target])
            if odds.ratio < need:
                continue
            first = True
            for a in sorted(attackers, key=lambda u: (-u.strength, u.id)):
                if self.push(game, Attack(a.id, target)) and first:
                    if not a.advance:
                        self.push(game, Advance(a.id))
                    first = False

    def _objective(self, board: Board, state: State, u: Unit) -> HexId | None:
        owner = owner_of(board, state)
        if self.side == "german":
            goals = [h for h in board.towns if owner[h] != "german"]
            if state.turn >= EXIT_TURN:
                goals += sorted(board.exits)
        else:
            threat = self._threat(board, state, owner)
            if threat is None:
                return None
            goals = [threat]
        if not goals:
            return None
        return min(goals, key=lambda h: (hexgrid.distance(u.hex, h), h))

    def _threat(self, board: Board, state: State, owner: dict[HexId, Side]) -> HexId | None:
        """The American-owned victory town the Germans are nearest to (once a phase: the
        Germans do not move in the American's)."""
        key = (state.turn, state.stage)
        if key not in self._threats:
            germans = {e.hex for e in state.units if e.side == "german"}
            towns = [h for h in board.towns if owner[h] == "american"]
            self._threats[key] = (
                min(towns, key=lambda h: (min(hexgrid.distance(h, g) for g in germans), h))
                if towns and germans
                else None
            )
        return self._threats[key]

    def _maneuver(self, game: Any, uid: str) -> None:
        state: State = game.state
        board: Board = game.board
        u = next((x for x in state.units if x.id == uid), None)
        if u is None or u.op <= 0 or any(p.unit == uid for p in state.plots):
            return
        if self.side == "american" and _adjacent_enemies(u, state):
            self._fortify(game, u)  # the line holds (11.0)
            return
        goal = self._objective(board, state, u)
        if goal is None or goal == u.hex:
            self._fortify(game, u)
            return
        path = self._path(board, state, u, goal)
        profile = profiles(board, state)[uid]
        if u.mode == "normal" and profile.mobile and not u.divisional and not _near(u, state, 2):
            # travel mode when the road takes it nearer than its own feet (7.7d)
            cost = operations.mode_cost(u, profile, "travel")
            if u.supply == "supplied" and u.op > cost:
                trial = operations.change_mode(u, profile)
                if not isinstance(trial, Rejection):
                    road = self._path(board, state, trial, goal)
                    if _gain(road, u.hex, goal) > _gain(path, u.hex, goal) + 1:
                        self.push(game, ChangeMode(uid))
                        path = road
        elif u.mode == "travel" and (not path or _near(u, state, 2)):
            self.push(game, ChangeMode(uid))
            u = next(x for x in game.state.units if x.id == uid)
            path = self._path(board, game.state, u, goal)
        if path and self.push(game, Move(uid, tuple(path))):
            return
        self._fortify(game, next(x for x in game.state.units if x.id == uid))

    def _fortify(self, game: Any, u: Unit) -> None:
        if u.fort < 5:
            self.push(game, Fortify(u.id))

    def _path(self, board: Board, state: State, u: Unit, goal: HexId) -> list[HexId]:
        """A greedy path: each step the legal neighbour nearest ``goal`` (then the cheaper,
        then the rng), only while it gets nearer."""
        return walk(
            self, board, state, u, lambda h: hexgrid.distance(h, goal), self.side == "german"
        )


def walk(
    bot: Player,
    board: Board,
    state: State,
    u: Unit,
    cost: Callable[[HexId], int],
    stop_at_contact: bool,
) -> list[HexId]:
    """A greedy walk of ``u`` down ``cost`` (the distance to a goal, a route field): each step
    the legal neighbour of lowest cost (then the cheaper step, then ``bot``'s rng), only while
    the cost falls; ``stop_at_contact``: a hex next to the enemy ends it."""
    owner = owner_of(board, state)
    crossed = {site: frozenset(ids) for site, ids in state.crossed}
    mboard = board.movement_board(owner, frozenset(state.blown), state.turn, crossed)
    others = [x for x in state.units if x.id != u.id]
    zoc = movement.enemy_zoc(u.side, others)
    prof = profiles(board, state)
    cur = u
    path: list[HexId] = []
    moved = u.id in state.moved
    while cur.op > 0 and len(path) < 30:
        here = cost(cur.hex)
        options: list[tuple[int, int, int, HexId, movement.Step]] = []
        for n in hexgrid.neighbours(cur.hex):
            if n is None or n not in board.terrain:
                continue
            d = cost(n)
            if d >= here:
                continue
            step = movement.move(cur, n, mboard, [*others, cur], prof, moved, zoc)
            if isinstance(step, Rejection):
                continue
            options.append((d, step.cost, bot.rng.below(1000), n, step))
        if not options:
            break
        *_, n, step = min(options)
        mboard = movement.after_step(mboard, cur, step)
        cur = movement.apply_step(cur, step)
        path.append(n)
        moved = True
        if stop_at_contact and _adjacent_enemies(cur, state):
            break
    return path


def players(seed: bytes) -> dict[Side, Player]:
    """One bot a side, each with its own stream from ``seed``."""
    return {
        s: Player(s, BotRng(hashlib.sha256(b"bita-bot/1" + s.encode() + seed).digest()))
        for s in ("american", "german")
    }
