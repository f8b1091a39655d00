"""Which bots there are: one line per kind in :data:`KINDS`, and :func:`make_bot`.

The app's games against the computer, ``ardennes bot`` (the email opponent) and self-play make
their bots here, by kind, side and level of play (:mod:`rules.ao.levels`)::

    bot = make_bot("heuristic", "allied", 2, BotRng(seed))
    bot.choose(game)                        # a command the engine accepts now
    player(bot, 2)                          # how the record's header names it

A factory takes the side, the level (1-4; the planner thinks no move ahead at the levels of
:data:`NO_LOOKAHEAD`, the heuristic bot plays every level alike), the bot's own tie-breaking
stream and ``batch`` (declare a whole Combat Phase before resolving it: email games, see
:attr:`rules.ao.bots.heuristic.HeuristicBot.batch`). A new kind is one more line in
:data:`KINDS`; :data:`DEFAULT` is the kind the app and ``ardennes bot`` play unless told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import rules
from rules import ao
from rules.ao.bots.heuristic import HeuristicBot
from rules.ao.bots.planner.bot import PlannerBot
from rules.ao.bots.protocol import Bot
from rules.ao.bots.rng import BotRng

__all__ = ["DEFAULT", "KINDS", "Factory", "kind_names", "make_bot", "player"]

Factory = Callable[[ao.Side, int, BotRng, bool], Bot]
"""``(side, level, rng, batch) -> Bot``."""


def _heuristic(side: ao.Side, level: int, rng: BotRng, batch: bool) -> Bot:
    return HeuristicBot(side, rng, batch)


def _planner(side: ao.Side, level: int, rng: BotRng, batch: bool) -> Bot:
    return PlannerBot(side, rng, batch, lookahead=level not in NO_LOOKAHEAD)


def _planner_hist(side: ao.Side, level: int, rng: BotRng, batch: bool) -> Bot:
    return PlannerBot(side, rng, batch, historical=True, lookahead=level not in NO_LOOKAHEAD)


NO_LOOKAHEAD: Final = frozenset({4})
"""The levels at which the planner thinks no move ahead (it plays as the heuristic bot):
the bot's effort, the level's third lever (``docs/selfplay.md``, "Levels")."""


KINDS: Final[dict[str, Factory]] = {
    "heuristic": _heuristic,
    "planner": _planner,
    "planner-hist": _planner_hist,
}
"""Every kind of bot by name (the name its bots give as :attr:`rules.ao.bots.Bot.name`)."""

DEFAULT: Final = "planner"
"""The app's computer and ``ardennes bot``: the planner (it beats the heuristic bot from both
sides, ``docs/selfplay.md``); self-play keeps the heuristic bot unless told
(:data:`rules.ao.bots.selfplay.SELFPLAY_BOT`)."""


def kind_names() -> tuple[str, ...]:
    """The kinds, sorted."""
    return tuple(sorted(KINDS))


def make_bot(kind: str, side: ao.Side, level: int, rng: BotRng, *, batch: bool = False) -> Bot:
    """A bot of ``kind`` playing ``side`` at ``level``; ``ValueError`` naming the kinds for one
    that does not exist, or for a level outside 1-4."""
    factory = KINDS.get(kind)
    if factory is None:
        raise ValueError(f"no bot {kind!r}: the bots are {', '.join(kind_names())}")
    if level not in rules.ao.levels.NUMBERS:
        raise ValueError(f"level {level} does not exist: the levels are 1-4")
    return factory(side, level, rng, batch)


def player(bot: Bot, level: int | None = None) -> rules.Player:
    """How a record's header names ``bot`` (its kind and version, and the level it played)."""
    return rules.Player(kind="bot", name=bot.name, version=bot.version, level=level)
