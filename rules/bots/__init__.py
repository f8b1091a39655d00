"""Self-play bots: pure, deterministic heuristic players for both sides (``docs/selfplay.md``)."""

from rules.bots.heuristic import Bot, acting_side, bots_for
from rules.bots.rng import BotRng

__all__ = ["Bot", "BotRng", "acting_side", "bots_for"]
