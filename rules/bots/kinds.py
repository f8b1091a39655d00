"""Which bot plays a side, by name: ``make_bot(kind, side, rng)``.

* ``heuristic``: :class:`rules.bots.HeuristicBot` (bots v4);
* ``planner``: :class:`rules.bots.planner.PlannerBot` (look-ahead, ``docs/selfplay.md``);
* ``planner-hist``: the planner keeping the historical set-up where a free one is allowed
  (AO-17.a instead of AO-17.b/c; the control of the free set-up measurement).

``rng`` is the side's own stream (self-play derives it from the game's with the side's name,
as :func:`rules.bots.bots_for` does), so a heuristic side plays the same with any opponent.
"""

from __future__ import annotations

from typing import Final

from rules import Side
from rules.bots.heuristic import HeuristicBot
from rules.bots.planner.bot import PlannerBot
from rules.bots.protocol import Bot
from rules.bots.rng import BotRng

BOT_KINDS: Final = ("heuristic", "planner", "planner-hist")


def make_bot(kind: str, side: Side, rng: BotRng, batch: bool = False) -> Bot:
    """The bot ``kind`` (one of :data:`BOT_KINDS`) for ``side``; ``ValueError`` for another."""
    if kind == "heuristic":
        return HeuristicBot(side, rng, batch)
    if kind == "planner":
        return PlannerBot(side, rng, batch)
    if kind == "planner-hist":
        return PlannerBot(side, rng, batch, historical=True)
    raise ValueError(f"unknown bot {kind!r}: choose {', '.join(BOT_KINDS)}")


__all__ = ["BOT_KINDS", "make_bot"]
