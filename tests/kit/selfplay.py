"""Bot games for the tests: a game played by the bots to a Game-Turn (:func:`bot_game`), and
the checks of a whole self-play game (every state legal, the VP as AO-16 says)."""

from __future__ import annotations

from functools import cache

import rules.ao
import scenarios
from rules.ao.bots import BotRng, bots_for
from rules.ao.bots.selfplay import SelfPlayGame
from rules.ao.engine import Applied, apply
from rules.ao.events import VictoryPointsTabulated
from rules.ao.state import Board, GameState, state_hash
from rules.dice import SeededDice
from tests.kit.engine import illegal_state, scenario_start


def lost(b: Board, s: GameState, side: str) -> int:
    return sum(1 for u in s.units if u.status == "eliminated" and b.defs[u.id].side == side)


def check_game(r: SelfPlayGame) -> None:
    """Replay ``r`` command by command and check every state on the way."""
    b, s = scenario_start(r.scenario)
    dice = SeededDice(bytes.fromhex(r.dice_seed))
    tabulated = iter(r.vp)
    for i, cmd in enumerate(r.commands):
        res = apply(b, s, cmd, dice)
        assert isinstance(res, Applied), (i, cmd, res)
        prev, s = s, res.state
        assert state_hash(s) == r.hashes[i]
        bad = illegal_state(b, s)
        assert not bad, (i, cmd, bad)
        # Allied VP: one per German unit eliminated, at once (AO-16.A)
        assert s.vp.allied == lost(b, s, "german"), (i, cmd)
        turn_ended = s.turn != prev.turn or (s.phase == "game_over" and prev.phase != "game_over")
        if not turn_ended:
            # between tabulations German VP move only by Allied eliminations (AO-16.A)
            assert s.vp.german - lost(b, s, "allied") == prev.vp.german - lost(b, prev, "allied")
        else:
            # the tabulation (AO-16.E): kills plus the exit VP held now (AO-16.F)
            tab = [e for e in res.events if isinstance(e, VictoryPointsTabulated)]
            assert len(tab) == 1 and tab[0].turn == prev.turn
            t = tab[0]
            assert (s.vp.german, s.vp.allied) == (t.german, t.allied)
            assert t.german == lost(b, s, "allied") + t.exit_vp
            assert 0 <= t.exit_vp <= sum(h.exit_vp or 0 for h in b.game_map.exit_hexes())
            rec = next(tabulated)
            assert (rec.turn, rec.german, rec.allied, rec.exit_vp) == (
                prev.turn,
                t.german,
                t.allied,
                t.exit_vp,
            )
    assert state_hash(s) == r.final_hash


def seeded_game(scenario: int = 1, seed: bytes = b"game-test") -> rules.ao.Game:
    """A new game of ``scenario`` with the dice of ``seed``."""
    return rules.ao.Game.new(
        scenarios.load_board(scenario),
        dice=rules.SeededDice(seed),
        dice_spec=rules.DiceSpec.seeded(seed),
    )


@cache
def bot_game(scenario: int, turns: int) -> rules.ao.Game:
    """Scenario ``scenario`` played by the bots up to the start of Game-Turn ``turns + 1``."""
    g = seeded_game(scenario)
    bots = bots_for(BotRng(b"game-test-bots"))
    while g.state.turn <= turns and g.state.phase != "game_over":
        side = rules.ao.acting_side(g.state)
        assert side is not None
        r = g.push(bots[side].choose(g))
        assert not isinstance(r, rules.Rejection), r
    return g
