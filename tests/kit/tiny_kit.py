"""*Tiny*'s email kit (:class:`pbem.kits.EmailKit`): what email play needs of Tiny
(``tests/kit/tiny.py``) beyond its rules, registered when this module is imported, as a
program's composition root registers the AO's (``ardennes_tui/rulesets/__init__.py``,
``docs/engine.md``, "Plug it into the program").

Tiny has one scenario (1, its eight hexes), one bot (:class:`TinyBot`: it picks its morale,
closes in, strikes when it can and ends its turn), no standing orders and no score. Its words:
``reply to the strike``, ``strike resolution``, ``Blue wins (elimination): ...``. *Tiny
percent* (``tinyd100``, ``tests/kit/tiny_percent.py``: the same board, state and commands,
percentage dice) has the same kit under its own id (:data:`TINY_D100_KIT`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from pbem import kits
from rules import hexgrid
from tests.kit import tiny, tiny_percent

__all__ = ["TINY_D100_KIT", "TINY_KIT", "TinyBot", "TinyKit"]


class TinyBot:
    """Tiny's computer player: picks ``morale`` (TINY-2), rolls a strike's die, strikes the
    enemy next to it (TINY-4), else moves to the free hex nearest the enemy (TINY-3, the
    first by id of the nearest), then ends its turn."""

    def __init__(self, morale: int = 2) -> None:
        self.morale = morale

    def choose(self, game: Any) -> tiny.Command:
        o: tiny.Options = game.options()
        s: tiny.State = game.state
        if o.mode == "setup":
            return tiny.Pick(self.morale)
        if o.mode == "roll":
            return tiny.Roll()
        if o.targets:
            return tiny.Strike(o.targets[0])
        me, foe = s.own(), s.enemy()
        if o.moves and me.hex is not None and foe.hex is not None:
            now = hexgrid.distance(me.hex, foe.hex)
            best = min(o.moves, key=lambda h: (hexgrid.distance(h, foe.hex or h), h))
            if hexgrid.distance(best, foe.hex) < now:
                return tiny.Move(me.id, best)
        return tiny.EndPhase()


class TinyKit:
    """Tiny's :class:`pbem.kits.EmailKit` (for the ruleset ``ruleset_id``: ``tiny``)."""

    title: Final = "Tiny (the test ruleset)"
    state_type: Final[Any] = tiny.State
    bot_kinds: Final = ("tiny",)
    default_bot: Final = "tiny"

    def __init__(self, ruleset_id: str = "tiny") -> None:
        self.id = ruleset_id

    def scenarios(self) -> Mapping[int, str]:
        return {1: "eight hexes, one unit a side (TINY-1)"}

    def board(self, scenario: int) -> tiny.Board:
        if scenario != 1:
            raise KeyError(scenario)
        return tiny.Board()

    def opponent_bot(self, kind: str, side: str, seed: bytes) -> TinyBot:
        if kind not in self.bot_kinds:
            raise ValueError(f"no bot {kind!r}: the bots are tiny")
        return TinyBot(1 + seed[0] % 3)

    def selfplay_bots(self, seed: str) -> Mapping[str, TinyBot]:
        return {"red": TinyBot(2), "blue": TinyBot(3)}

    def selfplay_dice(self, seed: str) -> bytes:
        return hashlib.sha256(b"tiny-selfplay-dice/1" + seed.encode()).digest()

    def default_orders(self, side: str) -> None:
        return None  # Tiny has no standing orders

    def score(self, event: Any) -> tuple[int, int] | None:
        return None  # nor a score

    def phase_words(self, phase: str) -> str:
        return "set-up" if phase == "setup" else phase.replace("_", " ")

    def turn_words(self, turn: int) -> str:
        return f"turn {turn}"

    def batch_words(self, state: Any, kind: str) -> str:
        return "reply to the strike" if kind == "reply" else "strike resolution"

    def verdict_text(self, verdict: Any) -> str:
        if verdict is None:
            return "game over"
        who = f"{verdict.winner.capitalize()} wins" if verdict.winner else "draw"
        return f"{who} ({verdict.kind}): {verdict.reason}"

    def verdict_data(self, verdict: Any) -> dict[str, Any]:
        return {
            "winner": verdict.winner,
            "kind": verdict.kind,
            "reason": verdict.reason,
            "text": self.verdict_text(verdict),
        }

    def position(self, state: Any) -> Any:
        return msgspec.to_builtins(state)

    def batch_detail(self, game: Any) -> dict[str, Any]:
        """The unit struck (TINY-4)."""
        return {"target": game.state.strike}

    def own_roll(self, state: Any) -> dict[str, Any] | None:
        return None  # every Tiny die waits for the opponent's reply


TINY_KIT: Final = TinyKit()
TINY_D100_KIT: Final = TinyKit(tiny_percent.TINY_D100.id)
_CONFORMS: Final[kits.EmailKit] = TINY_KIT
kits.register(TINY_KIT)
kits.register(TINY_D100_KIT)
