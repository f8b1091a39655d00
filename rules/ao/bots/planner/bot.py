"""The planner bot (``planner/2``): the heuristic bot's phases (:mod:`rules.ao.bots.heuristic`)
with look-ahead where it pays. Pure and deterministic given its :class:`~rules.ao.bots.BotRng`.

* Combat: the batch of attacks of the highest exact expected value
  (:mod:`rules.ao.bots.planner.attacks`), both sides; the German's Game-Turn 1 obligations
  (AO-4.2h*) first, as the heuristic bot meets them.
* The Allied counterattack (planner/2): the strikes of the coming Combat Phase, planned at
  the start of the Allied Initial Movement Phase with the German reply weighed
  (:mod:`rules.ao.bots.planner.counter`); their units move first.
* Retreats and advances after combat: by their effect on supply and zones of control
  (:mod:`rules.ao.bots.planner.decide`).
* Movement: the Allied bot contests the road exits, the Meuse bridges and the German supply
  lines and marches its reserves on the counterattack's places
  (:mod:`rules.ao.bots.planner.allied`); the German bot's moves add the planner's terms to
  the heuristic scoring (:mod:`rules.ao.bots.planner.german`).
* Set-up: the German free set-up (AO-17.b) starts from the historical one and keeps a swap
  only when it improves the Game-Turn 1 attack value (:mod:`rules.ao.bots.planner.setup`);
  ``historical=True`` keeps the historical set-up (the measurement's control).
* Effort (the level of play's bot lever, :mod:`rules.ao.bots.registry`): ``lookahead=False``
  thinks no move ahead and plays every phase as the heuristic bot does
  (:class:`rules.ao.bots.heuristic.HeuristicBot`, same stream).
"""

from __future__ import annotations

from typing import Final

from rules.ao import (
    Applied,
    Command,
    DeclareAttack,
    EndPhase,
    Game,
    Place,
    ResolveAttacks,
    Roll,
    Side,
    apply,
    crt,
    gt1_unmet,
    legal_moves,
    may_move,
    pending_decision,
)
from rules.ao.bots.combat import attack as heuristic_attack
from rules.ao.bots.context import Context
from rules.ao.bots.fields import INF
from rules.ao.bots.free_setup import setup_command
from rules.ao.bots.heuristic import HeuristicBot
from rules.ao.bots.movement import owed
from rules.ao.bots.plan import holders
from rules.ao.bots.planner.allied import AlliedPlan
from rules.ao.bots.planner.attacks import AttackBoard, best_batch
from rules.ao.bots.planner.counter import Counter, Strike, clear_value
from rules.ao.bots.planner.decide import decide
from rules.ao.bots.planner.expected import SCALE, Weights
from rules.ao.bots.planner.german import GermanPlan
from rules.ao.bots.planner.moves import move as planner_move
from rules.ao.bots.planner.setup import german_orders
from rules.ao.bots.reinforce import drop, reinforce
from rules.ao.bots.rng import BotRng

NAME: Final = "planner"
VERSION: Final = "2"
HISTORICAL_NAME: Final = "planner-hist"
"""The planner that keeps the historical German set-up in a free set-up (the control of the
free set-up measurement)."""

GERMAN_WEIGHTS: Final = Weights(kill=SCALE, loss=600, ground=250, repulse=150, clear=0)
"""The German counts a kill as a VP and his own loss as 0.6 (he needs 35; the Allies only a
ratio), as the heuristic bot does (:mod:`rules.ao.bots.attack`)."""
ALLIED_WEIGHTS: Final = Weights(kill=SCALE, loss=SCALE, ground=100, repulse=100, clear=0)
"""Every Allied loss is a German VP; a German loss an Allied one. Ground counts less than the
German's (a German pushed back comes again); clearing an exit or an objective town is worth
what :func:`rules.ao.bots.planner.counter.clear_value` says."""
TOWN_CLEAR: Final = 150
"""Clearing a town or road junction opens the roads."""
MIN_GERMAN: Final = 150
MIN_ALLIED: Final = 100
"""The least expected value (thousandths of a VP) an attack must have. The Allied attacks are
prepared in the movement phase with the German reply weighed (the strikes,
:mod:`rules.ao.bots.planner.counter`), so in the Combat Phase the attackers stand where they
stand and any attack worth 0.1 VP is made (planner/1 attacked only from 0.4 VP and prepared
none)."""
REFUSED_TRIES: Final = 8


class PlannerBot:
    """The planner player of one side. ``rng`` breaks ties among equally scored choices."""

    def __init__(
        self,
        side: Side,
        rng: BotRng,
        batch: bool = False,
        historical: bool = False,
        lookahead: bool = True,
    ) -> None:
        self.name: str = HISTORICAL_NAME if historical else NAME
        self.version: str = VERSION
        self.side: Side = side
        self.rng = rng
        self.batch = batch
        self.historical = historical
        self.ctx = Context(side, rng)
        self.refused: set[tuple[str, tuple[str, ...]]] = set()
        self._phase: tuple[int, str, str] | None = None
        self.allied: AlliedPlan | None = None
        self.german: GermanPlan | None = None
        self.orders: list[Place] | None = None
        self.lookahead = lookahead
        self._plain = None if lookahead else HeuristicBot(side, rng, batch)

    def choose(self, game: Game) -> Command:
        """The command this bot gives now."""
        if self._plain is not None:
            return self._plain.choose(game)
        board, state = game.board, game.state
        d = pending_decision(state)  # options().pending without options' search
        if d is not None:
            return decide(self.ctx, board, state, d)
        if state.roll is not None:
            return Roll()
        self.ctx.start_phase(board, state)
        key = (state.turn, state.side, state.phase)
        if key != self._phase:
            self._phase = key
            self.refused = set()
            self.allied = None
            self.german = None
        phase = state.phase
        if phase == "reinforcement":
            return reinforce(self.ctx, game) or EndPhase()
        if phase in ("initial_movement", "mechanized_movement"):
            return drop(self.ctx, game) or owed(self.ctx, game) or self.move(game) or EndPhase()
        if phase == "combat":
            return self.attack(game) or EndPhase()
        if phase in ("setup_allied", "setup_german"):
            return self.setup(game) or EndPhase()
        return EndPhase()

    def setup(self, game: Game) -> Command | None:
        """The next ``Place`` of a free set-up: the German's improved historical set-up
        (:mod:`rules.ao.bots.planner.setup`; none with ``historical``), the Allied heuristic
        one; None when done or the set-up is historical."""
        board, state = game.board, game.state
        if state.side != self.side or self.historical:
            return None
        if self.side == "allied":
            return setup_command(self.ctx, game)
        if self.orders is None:
            if game.options().setup != "free":
                return None
            self.orders = german_orders(board, state, GERMAN_WEIGHTS)
        while self.orders:
            cmd = self.orders.pop(0)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
        return None

    def move(self, game: Game) -> Command | None:
        """The next move: the Allied planner's scoring (:mod:`rules.ao.bots.planner.allied`),
        the heuristic German's."""
        if self.side == "german":
            if self.german is None:
                self.german = GermanPlan(self.ctx, game, GERMAN_WEIGHTS)
            plan = self.ctx.plan
            if plan is not None and plan.hold:
                self.ctx.held = holders(game.board, game.state, plan.exits)
            return planner_move(self.ctx, game, self.german.score, self.german.chosen)
        if self.allied is None:
            self.allied = AlliedPlan(self.ctx, game.board, game.state, self.strikes(game))
        ap = self.allied
        return planner_move(self.ctx, game, ap.score, ap.chosen, ap.first)

    def strikes(self, game: Game) -> list[Strike]:
        """The Allied counterattacks to prepare in this Initial Movement Phase
        (:mod:`rules.ao.bots.planner.counter`); none in the Mechanized Movement Phase (no combat
        follows it)."""
        board, state = game.board, game.state
        if state.phase != "initial_movement":
            return []
        near = self.ctx.enemy_dist
        reach = {
            u.id: legal_moves(board, state, u.id, road_mode=False)
            for u in state.units
            if u.in_play
            and u.hex is not None
            and board.defs[u.id].side == "allied"
            and near.get(u.hex, INF) <= board.defs[u.id].movement + 1  # 1 MP a hex at best
            and may_move(board, state, u.id) is None
        }
        fields = self.ctx.fields(board)
        return Counter(board, state, fields, ALLIED_WEIGHTS, reach).plan()

    def attack(self, game: Game) -> Command | None:
        """The next attack of the best batch, ``ResolveAttacks`` once one is declared (in
        batch mode once no other is worth declaring), or None."""
        board, state = game.board, game.state
        if state.turn == 1 and self.side == "german" and state.combat.obliged:
            us_left, de_left = gt1_unmet(board, state)
            if us_left or de_left:
                return heuristic_attack(self.ctx, game, self.batch)
        if state.combat.declared and not self.batch:
            return ResolveAttacks()
        german = self.side == "german"
        weights = GERMAN_WEIGHTS if german else ALLIED_WEIGHTS
        f = self.ctx.fields(board)

        def bonus(h: str) -> int:
            if not german:
                return clear_value(board, state, f, h)  # exits and objective towns retaken
            return TOWN_CLEAR if (h in f.towns or h in f.junctions) else 0

        for _ in range(REFUSED_TRIES):
            ab = AttackBoard(board, state, self.side, weights, bonus, crt.crt_for(state))
            for h, _att in self.refused:
                ab.free.pop(h, None)
            plan = best_batch(ab, 6 * (MIN_GERMAN if german else MIN_ALLIED))
            if not plan:
                break
            c = plan[0]
            cmd = DeclareAttack(c.attackers, (c.hex,), odds=c.odds)
            if isinstance(apply(board, state, cmd), Applied):
                return cmd
            self.refused.add((c.hex, c.attackers))
        return ResolveAttacks() if state.combat.declared else None


__all__ = [
    "ALLIED_WEIGHTS",
    "GERMAN_WEIGHTS",
    "HISTORICAL_NAME",
    "NAME",
    "VERSION",
    "PlannerBot",
]
