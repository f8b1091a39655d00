"""The planner bot: the heuristic bot's phases with look-ahead where it pays - attacks chosen by
the exact expected value of the whole batch, retreats and advances by their effect on supply
and zones of control, an Allied side that contests the exits, the Meuse bridges and the German
supply lines and counterattacks (strikes prepared with the German reply weighed), and a German
free set-up at least as strong as the historical one (``docs/selfplay.md``, "The planner
bot")."""

from rules.ao.bots.planner.bot import NAME, VERSION, PlannerBot

__all__ = ["NAME", "VERSION", "PlannerBot"]
