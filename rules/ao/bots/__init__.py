"""Self-play bots: pure, deterministic heuristic players for both sides (``docs/selfplay.md``).

A bot is anything with the :class:`Bot` protocol (``name``, ``version``, ``side``,
``choose(game)``); the bots use only the engine's public API (:mod:`rules`)."""

from rules.ao.bots.heuristic import HeuristicBot, bots_for
from rules.ao.bots.protocol import Bot
from rules.ao.bots.rng import BotRng

__all__ = ["Bot", "BotRng", "HeuristicBot", "bots_for"]
