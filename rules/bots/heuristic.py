"""Heuristic bots: given (board, state) and a :class:`~rules.bots.rng.BotRng`, the next command
for whatever the engine waits for. Pure and deterministic: the same state, the same stream
position and the same phase memory give the same command.

Each :class:`Bot` plays one side; :func:`rules.selfplay.play` asks the bot of the side that must
act (the phasing side, or the side of a pending combat decision). A bot remembers, for the
current phase only, which units it has already considered, so a unit it leaves in place is not
reconsidered. See ``docs/selfplay.md`` for the heuristics.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from rules import crt, paradrop, reinforcements
from rules.bots.attack import attack_value
from rules.bots.free_setup import is_free, place_orders
from rules.bots.plan import Plan, hold_gain, holders, make_plan, target_fields
from rules.bots.retreats import RetreatContext, trapped
from rules.bots.rng import BotRng
from rules.combat import defender_supply, gt1_unmet, immunity_case
from rules.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    Command,
    DeclareAttack,
    Drop,
    EndPhase,
    Move,
    Place,
    ResolveAttacks,
    WaiveImmunity,
)
from rules.crt import ODDS_COLUMNS, crt_for
from rules.engine import Applied, apply
from rules.gamemap import GameMap
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move
from rules.odds import attack_strength_in, column_rank, defence_strength_in, odds_column
from rules.rejection import Rejection
from rules.roadmode import road_links
from rules.state import Board, Decision, GameState, Supply, UnitState, other_side
from rules.units import Side

FIELDS_KEY: Final = "bots.fields"
OBJECTIVE_TOWNS: Final[Mapping[str, int]] = {"Liège": 6, "Bastogne": 5, "St. Vith": 3}
"""German objective towns and their pull (how many hexes of detour they are worth)."""
MEUSE_BRIDGE_PULL: Final = 4
GARRISON: Final = 40
"""The Allied bot's bonus for the first unit to end in an objective town (Liège, Bastogne,
St. Vith, the Meuse bridge towns): worth a long march away from the front."""
GOOD_TERRAIN: Final = ("rough",)
ROAD_MODE_SAFE: Final = 4
"""A unit may end a move in Road Mode only this many hexes or more from the nearest enemy."""
NEAR_FRONT: Final = 12
"""Units this close to an enemy also search normal-mode arrivals (a second search)."""
GERMAN_ODDS: Final = "3-1"
GERMAN_ODDS_GOOD_TERRAIN: Final = "2-1"
GERMAN_ODDS_INITIAL_CRT: Final = "2-1"
ALLIED_ODDS: Final = "3-1"
MIN_VALUE: Final = 0.15
"""The German attacks a hex when the attack's expected value (:mod:`rules.bots.attack`) is at
least this."""
NEAR_ENOUGH: Final = 0.05
"""Of the attacker groups of one hex, the smallest within this of the best value is used."""
ROAD_TARGET: Final = 0.15
"""Bonus to the value of attacking a town or road junction (it opens the roads)."""
SETUP: Final = 4
"""German Initial Movement: per adjacent enemy hex no stronger than ``WEAK_RATIO`` x the unit."""
WEAK_RATIO: Final = 1
SURROUND: Final = 5
"""German Mechanized Movement: per adjacent enemy hex (its zone of control closes retreats)."""
BEHIND: Final = 100
"""German, both movement phases: per adjacent enemy hex the unit is *past* (its hex nearer the
objectives than the enemy's): its zone of control closes that enemy's retreats, so a Dr
eliminates it. Worth ten hexes of the objective pull: this is what makes the kills."""
PULL: Final = 30
"""German unit with a plan target (:mod:`rules.bots.plan`): per hex of distance to it (three
times the general objective pull: a gap of four hexes is worth leaving a ``BEHIND`` post)."""
OFF_SUPPLY: Final = 150
"""German unit with a plan target: ending outside the supply zone."""
GAP: Final = 3
"""An exploiter follows its plan only when it can get this many hexes nearer its town."""
HOLD: Final = 60
"""German, holding mode: per exit VP the unit would hold that no other unit holds."""
HOLD_BASTOGNE: Final = 4
"""German, holding mode: being the German in Bastogne is worth this many exit VP."""
ENOUGH_ODDS: Final = "4-1"
"""Attackers are added, strongest first, until the odds reach this column (then
:func:`declared_odds` may lower the declared odds)."""
_INF: Final = 10**6


def declared_odds(table: str, column: str) -> str | None:
    """The odds to declare (AO-9.4L) for an attack at real odds ``column`` on ``table``: keep
    a column with three or more De results; else reduce to the best column at or below it
    with neither Ex nor Ar (no loss to the attacker) - 3-1 on the German Initial CRT, 4-1 on
    the Standard CRT. None: declare the real odds."""
    rows = crt.TABLES[cast(Any, table)]
    i = column_rank(column)
    kinds = [r[i].kind for r in rows]
    if kinds.count("De") >= 3:
        return None
    for j in range(i, -1, -1):
        if all(r[j].kind not in ("Ex", "Ar") for r in rows):
            return None if j == i else ODDS_COLUMNS[j]
    return None


def min_odds(board: Board, state: GameState, target: HexId) -> str:
    """The lowest odds the phasing side's bot attacks ``target`` at: the German 2-1 anywhere
    while he uses the Initial CRT (its 2-1 column has no attacker result), then 3-1, or 2-1
    when the defender is in a town or rough terrain; the Allies 3-1."""
    if state.side != "german":
        return ALLIED_ODDS
    if state.german_crt == "initial":
        return GERMAN_ODDS_INITIAL_CRT
    good = target in fields(board).towns or board.game_map.hex(target).terrain in GOOD_TERRAIN
    return GERMAN_ODDS_GOOD_TERRAIN if good else GERMAN_ODDS


class Fields:
    """Per-board tables the bots score with (kept in ``board.cache``)."""

    __slots__ = ("bridge_hexes", "garrison", "junctions", "objective", "passable", "towns")

    def __init__(self, board: Board) -> None:
        m = board.game_map
        self.passable: tuple[HexId, ...] = tuple(h for h in m if m.hex(h).terrain != "impassable")
        self.towns: frozenset[HexId] = frozenset(h for h in m if m.hex(h).town is not None)
        junctions = set()
        for h in self.passable:
            roads = sum(1 for n in m.neighbours(h) if m.side(h, n).road)
            if roads >= 3:
                junctions.add(h)
        self.junctions: frozenset[HexId] = frozenset(junctions)
        bridges: set[HexId] = set()
        for s in m.sides():
            if s.river == "Meuse" and s.crossing is not None:
                bridges.update(s.hexes)
        self.bridge_hexes: frozenset[HexId] = frozenset(bridges)
        pulls: dict[HexId, int] = {}
        for d in m.exit_hexes():
            vp = d.exit_vp or 0
            pulls[d.id] = vp - (1 if d.edge in ("SE", "SW") else 0)
        towns = m.towns()
        for name, pull in OBJECTIVE_TOWNS.items():
            if name in towns:
                pulls[towns[name]] = max(pulls.get(towns[name], 0), pull)
        for h in bridges:
            pulls[h] = max(pulls.get(h, 0), MEUSE_BRIDGE_PULL)
        self.objective: dict[HexId, int] = _potential(m, self.passable, pulls)
        self.garrison: frozenset[HexId] = frozenset(
            {towns[n] for n in OBJECTIVE_TOWNS if n in towns} | (bridges & self.towns)
        )


def _potential(
    m: GameMap, passable: Iterable[HexId], pulls: Mapping[HexId, int]
) -> dict[HexId, int]:
    """``min over objectives o of (distance(h, o) - pull(o))`` by a multi-source Dijkstra."""
    ok = set(passable)
    dist: dict[HexId, int] = {}
    heap = [(-p, h) for h, p in sorted(pulls.items()) if h in ok]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if h in dist:
            continue
        dist[h] = d
        for n in m.neighbours(h):
            if n in ok and n not in dist:
                heapq.heappush(heap, (d + 1, n))
    return dist


def fields(board: Board) -> Fields:
    f = board.cache.get(FIELDS_KEY)
    if isinstance(f, Fields):
        return f
    f = Fields(board)
    board.cache[FIELDS_KEY] = f
    return f


def distance_field(m: GameMap, sources: Iterable[HexId]) -> dict[HexId, int]:
    """Hex steps from the nearest of ``sources`` (breadth-first over the whole map)."""
    dist: dict[HexId, int] = {}
    frontier = sorted(set(sources))
    for h in frontier:
        dist[h] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            for n in m.neighbours(h):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


def _side_of(board: Board, uid: str) -> Side:
    return board.defs[uid].side


class Bot:
    """A heuristic player of one side. ``rng`` breaks ties among equally scored choices."""

    def __init__(self, side: Side, rng: BotRng) -> None:
        self.side: Side = side
        self.rng = rng
        self._key: tuple[int, str, str] | None = None
        self._done: set[str] = set()
        self._enemy_dist: dict[HexId, int] = {}
        self._enemy_strength: dict[HexId, int] = {}
        self._trapped: dict[tuple[HexId, tuple[str, ...]], tuple[int, int, int]] = {}
        self._plan: Plan | None = None
        self._held: dict[HexId, set[str]] = {}
        self._target: HexId | None = None
        self._orders: list[Place] | None = None

    # -- memory -----------------------------------------------------------------------------

    def _phase(self, board: Board, state: GameState) -> None:
        key = (state.turn, state.side, state.phase)
        if key != self._key:
            self._key = key
            self._done = set()
            self._trapped = {}
            enemy = other_side(self.side)
            hexes: dict[HexId, int] = {}
            for u in state.units:
                if u.in_play and u.hex is not None and _side_of(board, u.id) == enemy:
                    hexes[u.hex] = hexes.get(u.hex, 0) + board.defs[u.id].strength
            self._enemy_strength = hexes
            self._enemy_dist = distance_field(board.game_map, hexes)
            self._plan = None
            if self.side == "german" and state.phase in (
                "initial_movement",
                "mechanized_movement",
            ):
                self._plan = make_plan(board, state)

    # -- entry point --------------------------------------------------------------------------

    def next_command(self, board: Board, state: GameState) -> Command:
        """The command this bot gives now (a decision, a placement, a move, an attack or
        ``EndPhase``)."""
        d = state.combat.pending
        if d is not None:
            return self.decide(board, state, d)
        self._phase(board, state)
        phase = state.phase
        if phase == "reinforcement":
            return self._reinforce(board, state) or EndPhase()
        if phase in ("initial_movement", "mechanized_movement"):
            return self._drop(board, state) or self._move(board, state) or EndPhase()
        if phase == "combat":
            return self._combat(board, state) or EndPhase()
        if phase in ("setup_allied", "setup_german"):
            return self._free_setup(board, state) or EndPhase()
        return EndPhase()  # supply judgment

    # -- decisions ----------------------------------------------------------------------------

    def decide(self, board: Board, state: GameState, d: Decision) -> Command:
        """Never waive immunity; the engine's best-ranked retreat (random among the tied best);
        the weakest minimal Ex loss; advance the strongest mechanized unit into a cleared
        town or objective, else decline."""
        if d.kind == "waive_immunity":
            return WaiveImmunity(())
        if d.kind == "losses":
            scored = [(sum(board.defs[u].strength for u in c), len(c), c) for c in d.choices]
            low = min(scored)[:2]
            return ChooseLosses(self.rng.choice([c for s, n, c in scored if (s, n) == low]))
        if d.kind == "retreat":
            assert d.unit is not None
            return ChooseRetreat(d.unit, self.rng.choice(d.choices))
        assert d.hex is not None
        f = fields(board)
        units = [c[0] for c in d.choices if c]
        if self.side == "german":
            # the German also advances a unit that gets nearer its objectives (the front moves)
            ahead = f.objective.get(d.hex, _INF)
            units = [u for u in units if ahead < f.objective.get(state.unit(u).hex or "", -_INF)]
            if units and d.hex not in f.towns:
                top = max(board.defs[u].strength for u in units)
                return Advance(
                    d.hex, self.rng.choice([u for u in units if board.defs[u].strength == top])
                )
            units = [c[0] for c in d.choices if c]
        if units and (d.hex in f.towns or (d.hex in f.objective and f.objective[d.hex] < 0)):
            top = max(board.defs[u].strength for u in units)
            return Advance(
                d.hex, self.rng.choice([u for u in units if board.defs[u].strength == top])
            )
        return Advance(d.hex)

    # -- set-up ---------------------------------------------------------------------------------

    def _free_setup(self, board: Board, state: GameState) -> Command | None:
        """A free set-up (AO-17.b/c, :mod:`rules.bots.free_setup`): the next ``Place`` of the
        planned rearrangement the engine accepts; a historical set-up is accepted as it is."""
        if state.side != self.side or not is_free(board, self.side):
            return None
        if self._orders is None:
            self._orders = place_orders(board, state, self.side, fields(board).objective)
        while self._orders:
            cmd = self._orders.pop(0)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
        return None

    # -- reinforcements and the drop ----------------------------------------------------------

    def _reinforce(self, board: Board, state: GameState) -> Command | None:
        try:
            due = reinforcements.due(board, state, self.side, state.turn)
        except (AttributeError, LookupError):
            return None  # the engine does not keep reinforcement records yet
        for uid, section in due:
            if uid in self._done or state.unit(uid).status != "not_arrived":
                continue
            self._done.add(uid)
            entries = list(reinforcements.entry_hexes(board, state, self.side, section))
            entries.sort(key=lambda h: (self._enemy_dist.get(h, _INF), h))
            for h in entries:
                if self.side == "german" and any(
                    state.at(x) for x in (h, *road_links(board.game_map, h))
                ):
                    # one unit per entry hex and away from friends on the road: legal even
                    # if it does not move on (AO-8.0, AO-6.5G) once staging ends
                    continue
                cmd = Place(uid, h)
                if isinstance(apply(board, state, cmd), Applied):
                    return cmd
        return None

    def _drop(self, board: Board, state: GameState) -> Command | None:
        if self.side != "german" or not paradrop.drop_required(board, state):
            return None
        hexes = paradrop.drop_hexes(board, state)
        obj = fields(board).objective
        safe = [h for h in hexes if self._enemy_dist.get(h, _INF) >= 2] or list(hexes)
        if not safe:
            return None
        best = min(obj.get(h, _INF) for h in safe)
        return Drop(self.rng.choice([x for x in safe if obj.get(x, _INF) == best]))

    # -- movement -----------------------------------------------------------------------------

    def _score(
        self,
        board: Board,
        state: GameState,
        uid: str,
        h: HexId,
        road: bool,
        friends: Mapping[HexId, int],
        here: bool,
    ) -> int:
        f = fields(board)
        e = self._enemy_dist.get(h, _INF)
        s = 0
        if road and e < ROAD_MODE_SAFE and not board.game_map.is_allied_edge(h):
            s -= 500  # Road Mode next to the enemy (Allied Map Edge hexes see no combat)
        n_friends = friends.get(h, 0) - (1 if here else 0)
        if self.side == "german":
            plan = self._plan
            target = self._target
            if plan is not None and target is not None:
                d = target_fields(board).dist[target].get(h, 60)
                if plan.hold and target in plan.exits:
                    d = max(0, d - 1)  # next to the exit holds it
                s -= PULL * d
                if h not in plan.zone:
                    s -= OFF_SUPPLY
            else:
                s -= 10 * f.objective.get(h, 60)
            if e == 1:
                s += self._setup(board, state, uid, h)
            s -= 2 * n_friends
            if plan is not None and plan.hold:
                s += HOLD * hold_gain(board, state, plan, self._held, uid, h, road)
                bastogne = target_fields(board).bastogne
                if h == bastogne and h in plan.zone and n_friends == 0:
                    s += HOLD * HOLD_BASTOGNE
        else:
            town = h in f.towns
            good = town or board.game_map.hex(h).terrain in GOOD_TERRAIN
            s += 8 * town + 4 * (h in f.junctions) + 2 * good
            if f.objective.get(h, 60) < 0:
                s += 6
            if h in f.garrison and n_friends == 0:
                s += GARRISON  # one unit holds each objective town (Liège, Bastogne, ...)
            s -= 3 * max(0, min(e, 30) - 2)
            if e == 1 and not good:
                s -= 4
            s -= 5 * n_friends
            if here and town and e <= 2:
                s += 6
        return s

    def _setup(self, board: Board, state: GameState, uid: str, h: HexId) -> int:
        """German bonus for ending next to the enemy: each adjacent enemy hex the unit is past
        (:data:`BEHIND`); in Initial Movement each one no stronger than the unit
        (:data:`SETUP`, an attack next phase), in Mechanized Movement each one
        (:data:`SURROUND`, its retreats close)."""
        m = board.game_map
        f = fields(board)
        mine = board.defs[uid].strength
        s = 0
        for n in m.neighbours(h):
            es = self._enemy_strength.get(n, 0)
            if es <= 0:
                continue
            if BEHIND and f.objective.get(h, _INF) < f.objective.get(n, _INF):
                s += BEHIND  # past the enemy toward the objectives: its retreats close
            if state.phase == "mechanized_movement":
                s += SURROUND
            elif es <= WEAK_RATIO * mine:
                s += SETUP
        return s

    def _unit_target(
        self, board: Board, uid: str, here: HexId, reach: Mapping[HexId, Reach]
    ) -> HexId | None:
        """The unit's plan target for this move, if it can get nearer it: an exploiter must
        gain :data:`GAP` hexes (a gap in the front), a holder one; else it fights (v2)."""
        plan = self._plan
        target = plan.targets.get(uid) if plan is not None else None
        if plan is None or target is None:
            return None
        field = target_fields(board).dist[target]
        now = field.get(here, _INF)
        if now == 0:
            return target
        best = min((field.get(h, _INF) for h in reach if h in plan.zone), default=_INF)
        need = 1 if plan.hold else GAP
        return target if now - best >= need else None

    def _move(self, board: Board, state: GameState) -> Command | None:
        friends: dict[HexId, int] = {}
        movers: list[UnitState] = []
        for u in state.units:
            if u.hex is None or not u.in_play or _side_of(board, u.id) != self.side:
                continue
            friends[u.hex] = friends.get(u.hex, 0) + 1
            if u.id not in self._done and may_move(board, state, u.id) is None:
                movers.append(u)
        if self._plan is not None and self._plan.hold:
            self._held = holders(board, state, self._plan.exits)
        # the front first (they open the roads), then by id
        movers.sort(key=lambda u: (self._enemy_dist.get(u.hex or "", _INF), u.id))
        for u in movers:
            self._done.add(u.id)
            assert u.hex is not None
            reach: dict[HexId, Reach] = legal_moves(board, state, u.id)
            if not reach:
                continue
            if self._enemy_dist.get(u.hex, _INF) <= NEAR_FRONT:
                for h, r in legal_moves(board, state, u.id, road_mode=False).items():
                    if self._enemy_dist.get(h, _INF) < ROAD_MODE_SAFE:
                        reach[h] = r
            self._target = self._unit_target(board, u.id, u.hex, reach)
            best = self._score(board, state, u.id, u.hex, u.road_mode, friends, True)
            top: list[Reach | None] = [None]
            for h, r in reach.items():
                if h == u.hex:
                    continue  # a mode change in place: not worth a move
                sc = self._score(board, state, u.id, h, r.road_mode, friends, False)
                if sc > best:
                    best, top = sc, [r]
                elif sc == best:
                    top.append(r)
            pick = self.rng.choice(top)
            if pick is None:
                continue
            cmd = Move(u.id, pick.path)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
        return None

    # -- combat -------------------------------------------------------------------------------

    def _free_attackers(self, board: Board, state: GameState, h: HexId) -> list[str]:
        busy = {x for a in state.combat.declared for x in a.attackers}
        m = board.game_map
        out = []
        for n in m.neighbours(h):
            for o in state.at(n):
                if (
                    _side_of(board, o.id) == self.side
                    and not o.attacked
                    and o.id not in busy
                    and not m.is_allied_edge(n)
                ):
                    out.append(o.id)
        return sorted(out, key=lambda x: (-board.defs[x].strength, x))

    def _try(
        self,
        board: Board,
        state: GameState,
        attackers: Iterable[str],
        hexes: tuple[HexId, ...],
        odds: str | None = None,
    ) -> Command | None:
        cmd = DeclareAttack(tuple(sorted(attackers)), hexes, odds=odds)
        return cmd if isinstance(apply(board, state, cmd), Applied) else None

    def _gt1(self, board: Board, state: GameState) -> Command | None:
        us_left, de_left = gt1_unmet(board, state)
        m = board.game_map
        targets: list[HexId] = []
        for uid in us_left:
            h = state.unit(uid).hex
            if h is not None and h not in targets:
                targets.append(h)
        for gid in de_left:
            g = state.unit(gid).hex
            assert g is not None
            for n in m.neighbours(g):
                if n in targets or m.is_allied_edge(n):
                    continue
                if any(
                    _side_of(board, o.id) != self.side and not o.was_attacked for o in state.at(n)
                ):
                    targets.append(n)
        for h in targets:
            att = self._free_attackers(board, state, h)
            if not att:
                continue
            cmd = self._try(board, state, att, (h,))
            if cmd is None:  # the whole neighbourhood is refused: one at a time
                for a in att:
                    cmd = self._try(board, state, [a], (h,))
                    if cmd is not None:
                        break
            if cmd is not None:
                return cmd
        # a German unit next to several American hexes must attack them all at once
        # (free set-ups put one unit a hex): every American hex next to it, with every free
        # German unit next to all of them
        for gid in de_left:
            g = state.unit(gid).hex
            assert g is not None
            hexes = tuple(
                sorted(
                    n
                    for n in m.neighbours(g)
                    if not m.is_allied_edge(n)
                    and any(
                        _side_of(board, o.id) != self.side and not o.was_attacked
                        for o in state.at(n)
                    )
                )
            )
            if not hexes:
                continue
            common = set(self._free_attackers(board, state, hexes[0]))
            for h in hexes[1:]:
                common &= set(self._free_attackers(board, state, h))
            cmd = self._try(board, state, common | {gid}, hexes)
            if cmd is not None:
                return cmd
        return None

    def _combat(self, board: Board, state: GameState) -> Command | None:
        if state.combat.declared:
            return ResolveAttacks()
        if state.turn == 1 and self.side == "german" and state.combat.obliged:
            cmd = self._gt1(board, state)
            if cmd is not None:
                return cmd
        if self.side == "german":
            return self._german_attack(board, state)
        enemy = other_side(self.side)
        m = board.game_map
        targets = sorted(
            {
                u.hex
                for u in state.units
                if u.in_play
                and u.hex is not None
                and _side_of(board, u.id) == enemy
                and not m.is_allied_edge(u.hex)
                and u.hex not in self._done
                and not any(o.was_attacked for o in state.at(u.hex))
            }
        )
        if not targets:
            return None
        supply = defender_supply(board, state, enemy)
        enough = column_rank(ENOUGH_ODDS)
        options: list[tuple[int, HexId, tuple[str, ...]]] = []
        for h in targets:
            free = self._free_attackers(board, state, h)
            if not free:
                self._done.add(h)
                continue
            sup = {o.id: supply.get(o.id, "supplied") for o in state.at(h)}
            dfn = defence_strength_in(
                board, state, (h,), supply=sup, retreated=state.combat.retreated
            )
            chosen: list[str] = []
            rank = -1
            for a in free:
                chosen.append(a)
                col = odds_column(attack_strength_in(board, state, chosen), dfn)
                rank = -1 if isinstance(col, Rejection) else column_rank(col)
                if rank >= enough:
                    break
            if rank >= column_rank(min_odds(board, state, h)):
                options.append((rank, h, tuple(chosen)))
            else:
                self._done.add(h)
        table = crt_for(state)
        while options:
            top = max(o[0] for o in options)
            pick = self.rng.choice([o for o in options if o[0] == top])
            options.remove(pick)
            self._done.add(pick[1])
            # the Allies avoid Ex (each of their losses is a German VP); the German bot scores
            # its attacks by expected value instead (_german_attack)
            odds = declared_odds(table, ODDS_COLUMNS[pick[0]])
            cmd = self._try(board, state, pick[2], (pick[1],), odds)
            if cmd is None and odds is not None:
                cmd = self._try(board, state, pick[2], (pick[1],))
            if cmd is not None:
                return cmd
        return None

    def _german_attack(self, board: Board, state: GameState) -> Command | None:
        """One attack at a time: of every enemy hex next to free units, the best-valued group
        (:func:`best_attack`); the best hex first (random among equals), if worth
        :data:`MIN_VALUE`."""
        m = board.game_map
        targets = sorted(
            {
                u.hex
                for u in state.units
                if u.in_play
                and u.hex is not None
                and _side_of(board, u.id) != self.side
                and not m.is_allied_edge(u.hex)
                and u.hex not in self._done
                and not any(o.was_attacked for o in state.at(u.hex))
            }
        )
        options: list[tuple[float, HexId, tuple[str, ...]]] = []
        supply = defender_supply(board, state, other_side(self.side)) if targets else {}
        ctx = RetreatContext(board, state, other_side(self.side)) if targets else None
        for h in targets:
            free = self._free_attackers(board, state, h)
            if not free:
                self._done.add(h)
                continue
            key = (h, tuple(sorted(o.id for o in state.at(h))))
            if key not in self._trapped:  # once a phase per defending stack: retreats are slow
                self._trapped[key] = _trapped(board, state, h, ctx)
            best = best_attack(board, state, h, free, supply, self._trapped[key])
            if best is None or best[0] < MIN_VALUE:
                self._done.add(h)
                continue
            options.append((best[0], h, best[1]))
        while options:
            top = max(o[0] for o in options)
            pick = self.rng.choice([o for o in options if o[0] == top])
            options.remove(pick)
            cmd = self._try(board, state, pick[2], (pick[1],))
            if cmd is not None:
                return cmd
            self._done.add(pick[1])
        return None


def _trapped(
    board: Board, state: GameState, h: HexId, ctx: RetreatContext | None = None
) -> tuple[int, int, int]:
    """How many units in ``h`` have no legal retreat of 1, 2 and 3 hexes
    (:func:`rules.bots.retreats.trapped`)."""
    return trapped(board, state, h, ctx)


def best_attack(
    board: Board,
    state: GameState,
    h: HexId,
    free: list[str],
    supply: Mapping[str, Supply] | None = None,
    trapped: tuple[int, int, int] | None = None,
) -> tuple[float, tuple[str, ...]] | None:
    """The German bot's best group against ``h`` among ``free`` (strongest first; each prefix
    is scored by :func:`rules.bots.attack.attack_value` on the CRT in use): (value, group), the
    smallest group within :data:`NEAR_ENOUGH` of the best value, or None when no group scores."""
    table = crt_for(state)
    enemy = other_side(state.side)
    if supply is None:
        supply = defender_supply(board, state, enemy)
    sup = {o.id: supply.get(o.id, "supplied") for o in state.at(h)}
    dfn = defence_strength_in(board, state, (h,), supply=sup, retreated=state.combat.retreated)
    defs = [board.defs[o.id] for o in state.at(h)]
    if not defs:
        return None
    if trapped is None:
        trapped = _trapped(board, state, h)
    immune = any(immunity_case(board, state, o.id) is not None for o in state.at(h))
    f = fields(board)
    bonus = ROAD_TARGET if (h in f.towns or h in f.junctions) else 0.0
    scored: list[tuple[float, tuple[str, ...]]] = []
    group: list[str] = []
    for a in free:
        group.append(a)
        col = odds_column(attack_strength_in(board, state, group), dfn)
        if isinstance(col, Rejection):
            continue
        v = attack_value(table, col, [board.defs[x] for x in group], defs, trapped, immune)
        scored.append((v.value + bonus, tuple(group)))
        if col == ODDS_COLUMNS[-1]:
            break
    if not scored:
        return None
    top = max(v for v, _ in scored)
    return next((v, g) for v, g in scored if v >= top - NEAR_ENOUGH)


def bots_for(rng: BotRng) -> dict[Side, Bot]:
    """One bot per side, each with its own stream derived from ``rng``."""
    return {
        "german": Bot("german", rng.derive("german")),
        "allied": Bot("allied", rng.derive("allied")),
    }


def acting_side(state: GameState) -> Side:
    """Who must give the next command: the side of a pending decision, else the phasing side."""
    d = state.combat.pending
    return d.side if d is not None else state.side


__all__ = [
    "Bot",
    "Fields",
    "acting_side",
    "best_attack",
    "bots_for",
    "declared_odds",
    "distance_field",
    "fields",
    "min_odds",
]
