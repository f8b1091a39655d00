"""The Ardennes Offensive's email kit (:class:`pbem.kits.EmailKit`): its boards
(:func:`scenarios.load_board`), its bots (:mod:`rules.ao.bots`) and its words for a cover
letter, ``ardennes show`` and ``ardennes status``; registered by the program
(:mod:`ardennes_tui.rulesets`). What ``pbem/aoplay.py`` did for the layers above ``pbem`` (the
AO's types back from a generic game) is :mod:`ardennes_tui.rulesets.ao.narrow`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

import rules.ao
import scenarios
from ardennes_tui.rulesets.ao.narrow import ao_game, ao_side
from pbem.kits import Bot, EmailKit
from rules.ao.bots import BotRng, bots_for
from rules.ao.bots.registry import DEFAULT, kind_names, make_bot
from rules.ao.bots.selfplay import bot_seed, dice_seed

__all__ = ["AO_EMAIL_KIT", "AoEmailKit"]


@functools.cache
def _shipped_board(scenario: int) -> rules.ao.Board:
    """The board of a shipped scenario, built once per process (its derived tables, built on
    first use, are then shared by every game of that scenario)."""
    return scenarios.load_board(scenario)


class AoEmailKit:
    """The AO's :class:`pbem.kits.EmailKit`."""

    id: Final = "ao"
    title: Final = "The Ardennes Offensive"
    state_type: Final = rules.ao.GameState

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        return kind_names()

    @property
    def default_bot(self) -> str:
        return DEFAULT

    def scenarios(self) -> Mapping[int, str]:
        return {n: spec.title for n, spec in sorted(scenarios.scenario_specs().items())}

    def board(self, scenario: int) -> rules.ao.Board:
        return _shipped_board(scenario)

    def opponent_bot(self, kind: str, side: str, seed: bytes) -> Bot:
        """At level 3, the rules as written (an email game has no levels), combat by batch."""
        bot: Bot = make_bot(
            kind, ao_side(side), rules.ao.levels.HISTORICAL, BotRng(seed), batch=True
        )
        return bot

    def selfplay_bots(self, seed: str) -> Mapping[str, Bot]:
        """The record self-play's heuristic bots (:func:`rules.ao.bots.selfplay.bot_seed`),
        declaring a Combat Phase's attacks together (one reply a phase in sealed mode)."""
        made = bots_for(BotRng(bot_seed(seed)), batch=True)
        return {side: bot for side, bot in made.items()}

    def selfplay_dice(self, seed: str) -> bytes:
        return dice_seed(seed)

    def default_orders(self, side: str) -> rules.ao.StandingOrders:
        """Engine, engine, strongest: the defaults that never ``ask`` (AO-7 options)."""
        return rules.ao.StandingOrders(side=ao_side(side), advance="strongest")

    def score(self, event: Any) -> tuple[int, int] | None:
        if isinstance(event, rules.ao.VictoryPointsTabulated):
            return event.german, event.allied
        return None

    # -- in words --------------------------------------------------------------------------

    def phase_words(self, phase: str) -> str:
        """``mechanized movement``, ``set-up``."""
        return "set-up" if phase.startswith("setup_") else phase.replace("_", " ")

    def turn_words(self, turn: int) -> str:
        return f"Game-Turn {turn}"

    def batch_words(self, state: Any, kind: str) -> str:
        """``reply to the paratroop drop`` / ``paratroop drop (its survival die)`` while the
        drop's die waits (AO-15.b, Initial Movement), else ``reply to the declared attacks`` /
        ``combat resolution``."""
        drop = state is not None and state.roll is not None and state.roll.purpose == "paradrop"
        if kind == "reply":
            return "reply to the paratroop drop" if drop else "reply to the declared attacks"
        return "paratroop drop (its survival die)" if drop else "combat resolution"

    def verdict_text(self, verdict: Any) -> str:
        """``German wins (immediate), VP 12-3 (German-Allied): ...`` or ``draw ...``."""
        if verdict is None:
            return "game over"
        who = f"{verdict.winner.capitalize()} wins" if verdict.winner else "draw"
        return (
            f"{who} ({verdict.kind}), VP {verdict.german_vp}-{verdict.allied_vp} "
            f"(German-Allied): {verdict.reason}"
        )

    def verdict_data(self, verdict: Any) -> dict[str, Any]:
        return {
            "winner": verdict.winner,
            "kind": verdict.kind,
            "german_vp": verdict.german_vp,
            "allied_vp": verdict.allied_vp,
            "reason": verdict.reason,
            "text": self.verdict_text(verdict),
        }

    def position(self, state: Any) -> Any:
        """The position format (``docs/position-format.md``)."""
        return json.loads(rules.ao.position.dumps(state))

    def batch_detail(self, game: Any) -> dict[str, Any]:
        """The drop's hex, else the declared attacks, each with its odds now."""
        g = ao_game(game)
        s = g.state
        if s.roll is not None and s.roll.purpose == "paradrop":
            return {"hex": s.roll.hex}
        attacks: list[dict[str, Any]] = []
        for a in s.combat.declared:
            p = rules.ao.preview_attack(g.board, s, list(a.attackers), list(a.defenders))
            odds = p.column if isinstance(p, rules.ao.Preview) else None
            row: dict[str, Any] = {
                "attackers": list(a.attackers),
                "defenders": list(a.defenders),
                "odds": odds,
            }
            if a.odds:
                row["asked"] = a.odds
            attacks.append(row)
        return {"attacks": attacks}

    def own_roll(self, state: Any) -> dict[str, Any] | None:
        """The CRT switch die (AO-10.3a): the German's own, opening his next packet."""
        if state.roll is not None and state.roll.purpose == "crt_switch":
            return {"kind": "crt_switch", "side": state.side}
        return None


AO_EMAIL_KIT: Final = AoEmailKit()
_CONFORMS: Final[EmailKit] = AO_EMAIL_KIT
