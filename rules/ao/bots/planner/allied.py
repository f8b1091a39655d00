"""The planner's Allied movement: the heuristic bot's hold-the-towns scoring
(:func:`rules.ao.bots.movement.score`) plus what it never did - contest the road exits, cut the
German supply lines, weigh the danger of the German attack next player-turn, and (planner/2)
make the strikes of :mod:`rules.ao.bots.planner.counter` and march the reserves on the
counterattack's places (:data:`FOCUS`).

* **Exits** (AO-16.C): an Allied unit *in* an exit hex negates the German zone of control
  there, so the German cannot hold it. Every exit worth VP that a German unit is within
  :data:`EXIT_THREAT` hexes of gets :data:`EXIT` points a VP for the first Allied unit to
  end in it (SE/SW exits half, unless the German is at Bastogne, AO-16.D).
* **Supply** (AO-12.1A, AO-7.3D): German supply runs along roads not enemy-occupied or
  -controlled. For a hex next to the German supply net the planner floods the net again as if
  an Allied unit stood there (its zone of control closes its six neighbours not held by a
  German unit) and counts the German units that would lose supply - halved in attack and
  movement at the next German Supply Judgment (AO-12.4K), and no exit VP for them at the
  tabulation (AO-16.G): :data:`CUT_UNIT` points each, plus :data:`CUT_EXIT` a VP of the exits
  next to them. The first Allied unit to claim such a hex gets it, where it is safe enough
  (:data:`SAFE_CUT`).
* **Danger** (:class:`rules.ao.bots.planner.threat.Threat`): :data:`DANGER` points per unit the
  stack it joins is expected to lose to the German attack next player-turn, counting the
  difference the unit makes (a stronger stack lowers the odds, a bigger one loses more).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rules import HexId, hexgrid
from rules.ao import (
    Board,
    GameState,
    flood_roads,
    supply_net,
)
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF, distance_field
from rules.ao.bots.movement import score as heuristic_score
from rules.ao.bots.planner.counter import Strike, clear_value
from rules.ao.bots.planner.lookahead import supplied_at
from rules.ao.bots.planner.threat import Threat

EXIT: Final = 3
EXIT_THREAT: Final = 3
CUT_UNIT: Final = 8
CUT_EXIT: Final = 4
DANGER: Final = 30
STRIKE: Final = 1_000_000
"""A strike's unit ending in its hex (the strike was valued with the German reply already)."""
RESERVED: Final = 200
"""Another unit ending in a hex a strike's units are still to reach (it would take their
room)."""
SAFE_CUT: Final = 3
"""A supply cut counts only where the unit's danger is at most this (a tenth of a unit
expected lost, at :data:`DANGER` 30): the unit that cuts a German road is the one he attacks
next. Measured against the German planner (``docs/selfplay.md``): German wins 114 of 200
without this condition, 111 with it; Allied units lost 28.7 and 28.0 a game."""
FOCUS: Final = 3
"""A reserve (a unit :data:`RESERVE` hexes or more from the nearest German) is pulled by this
many points a hex toward the counterattack's places (:meth:`AlliedPlan._focus`) instead of
toward the nearest German (the heuristic's 3 a hex): the reinforcements concentrate where the
strikes are and where the German threatens the exits and towns."""
RESERVE: Final = 5
SPEARHEADS: Final = 4
BASTOGNE_NEAR: Final = 2
SECTIONS_WITH_BASTOGNE: Final = ("SE", "SW")


class AlliedPlan:
    """One Allied movement phase's tables (see the module docstring), updated as units move.
    ``strikes``: the counterattacks planned for the coming Combat Phase
    (:mod:`rules.ao.bots.planner.counter`); their units go to their hexes first."""

    def __init__(
        self,
        ctx: Context,
        board: Board,
        state: GameState,
        strikes: Sequence[Strike] = (),
    ) -> None:
        self.ctx = ctx
        self.strikes = tuple(strikes)
        self.dest: dict[str, HexId] = {uid: h for st in strikes for uid, h in st.dest}
        self.first: tuple[str, ...] = tuple(uid for st in strikes for uid, _ in st.dest)
        self.waiting: dict[HexId, int] = {}
        for h in self.dest.values():
            self.waiting[h] = self.waiting.get(h, 0) + 1
        self.board = board
        self.state = state
        m = board.game_map
        self.threat = Threat(board, state, "allied", state.german_crt)
        self.net = supply_net(board, state, "german")
        self.german: list[tuple[str, HexId]] = sorted(
            (u.id, u.hex)
            for u in state.units
            if u.in_play and u.hex is not None and board.defs[u.id].side == "german"
        )
        german_hexes = {h for _, h in self.german}
        self.german_hexes = frozenset(german_hexes)
        self.supplied = frozenset(
            uid for uid, h in self.german if supplied_at(board, self.net.closed, self.net.net, h)
        )
        towns = m.towns()
        bastogne = towns.get("Bastogne")
        at_bastogne = bastogne is not None and any(
            hexgrid.distance(bastogne, h) <= BASTOGNE_NEAR for h in german_hexes
        )
        self.exits: dict[HexId, int] = {}
        for d in m.exit_hexes():
            vp = d.exit_vp or 0
            if vp <= 0 or not any(hexgrid.distance(d.id, h) <= EXIT_THREAT for h in german_hexes):
                continue
            if d.edge in SECTIONS_WITH_BASTOGNE and not at_bastogne:
                vp = (vp + 1) // 2
            self.exits[d.id] = vp
        self.claimed: dict[HexId, str] = {}
        self.stacks: dict[HexId, list[str]] = {}
        for u in state.units:
            if u.in_play and u.hex is not None and board.defs[u.id].side == "allied":
                self.stacks.setdefault(u.hex, []).append(u.id)
        self._cut: dict[HexId, int] = {}
        self.focus = self._focus(german_hexes)
        self.focus_dist = distance_field(m, self.focus) if self.focus else {}

    def _focus(self, german_hexes: set[HexId]) -> frozenset[HexId]:
        """Where the reserves go (see :data:`FOCUS`): the German hexes struck this phase,
        those holding an exit or an objective town (:func:`clear_value`), those out of supply,
        and the :data:`SPEARHEADS` German hexes nearest the German objectives."""
        f = self.ctx.fields(self.board)
        out = {st.target for st in self.strikes}
        out |= {h for h in german_hexes if clear_value(self.board, self.state, f, h) > 0}
        out |= {h for uid, h in self.german if uid not in self.supplied}
        heads = sorted(german_hexes, key=lambda h: (f.objective.get(h, 60), h))
        out |= set(heads[:SPEARHEADS])
        return frozenset(out)

    # -- supply ---------------------------------------------------------------------------------

    def cut(self, h: HexId) -> int:
        """Points for an Allied unit ending in ``h``: German units it would cut off supply."""
        hit = self._cut.get(h)
        if hit is not None:
            return hit
        m = self.board.game_map
        extra = {x for x in (h, *m.neighbours(h)) if x not in self.german_hexes}
        value = 0
        if extra & self.net.net:
            closed = self.net.closed | extra
            net = flood_roads(self.board, self.net.sources, closed, self.net.interdicted)
            for uid, g in self.german:
                if uid in self.supplied and not supplied_at(self.board, closed, net, g):
                    value += CUT_UNIT + CUT_EXIT * self._exit_vp_next_to(g)
        self._cut[h] = value
        return value

    def _exit_vp_next_to(self, g: HexId) -> int:
        m = self.board.game_map
        return sum(self.exits.get(x, 0) for x in (g, *m.neighbours(g)))

    # -- scoring --------------------------------------------------------------------------------

    def score(
        self, uid: str, h: HexId, road: bool, friends: Mapping[HexId, int], here: bool
    ) -> int:
        """The value of Allied ``uid`` ending in ``h`` (in Road Mode when ``road``): the
        heuristic bot's (:func:`rules.ao.bots.movement.score`) plus the exits, the supply cut and
        the danger (see the module docstring)."""
        goal = self.dest.get(uid)
        if goal is not None and h == goal and not road:
            return STRIKE  # its place in a strike (checked against the German reply)
        s = heuristic_score(self.ctx, self.board, self.state, uid, h, road, friends, here, None)
        if goal is None and self.waiting.get(h, 0) > 0:
            s -= RESERVED  # a strike's units are still to come here
        now = self.state.unit(uid).hex
        if self.focus and self.ctx.enemy_dist.get(now or "", INF) >= RESERVE:
            # a reserve marches on the counterattack's places, not on the nearest German
            e = self.ctx.enemy_dist.get(h, INF)
            fd = self.focus_dist.get(h, INF)
            s += FOCUS * (max(0, min(e, 30) - 2) - max(0, min(fd, 30) - 2))
        n_friends = friends.get(h, 0) - (1 if here else 0)
        owner = self.claimed.get(h)
        free = owner is None or owner == uid
        vp = self.exits.get(h, 0)
        if vp and free and n_friends == 0:
            s += EXIT * vp
        danger = self.danger(uid, h)
        if not road and free and danger <= SAFE_CUT:
            s += self.cut(h)
        return s - danger

    def danger(self, uid: str, h: HexId) -> int:
        """:data:`DANGER` points per unit the stack in ``h`` is expected to lose next German
        player-turn with ``uid`` in it, beyond what it loses without."""
        defs = self.board.defs
        others = [x for x in self.stacks.get(h, []) if x != uid]
        strength = sum(defs[x].strength for x in others)
        without = self.threat.expected_loss(h, strength, len(others)) if others else 0
        with_ = self.threat.expected_loss(h, strength + defs[uid].strength, len(others) + 1)
        return DANGER * (with_ - without) // 1000

    def chosen(self, uid: str, h: HexId) -> None:
        """``uid`` ends in ``h``: it claims an exit or supply-cutting hex there, and the
        stacks are updated."""
        if self.dest.get(uid) == h:
            self.waiting[h] -= 1
        for hexes in self.stacks.values():
            if uid in hexes:
                hexes.remove(uid)
        self.stacks.setdefault(h, []).append(uid)
        if (self.exits.get(h) or self._cut.get(h)) and h not in self.claimed:
            self.claimed[h] = uid


__all__ = ["CUT_UNIT", "DANGER", "EXIT", "AlliedPlan"]
