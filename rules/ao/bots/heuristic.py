"""The heuristic bot (bots v4): for whatever the engine waits for, one command. Pure and
deterministic: the same game, the same stream position and the same phase memory give the same
command.

Each :class:`HeuristicBot` plays one side (:class:`rules.ao.bots.Bot`); self-play asks the bot of
the side that must act (:func:`ao.acting_side`). A bot remembers, for the current phase only,
which units it has already considered, so a unit it leaves in place is not reconsidered
(:class:`rules.ao.bots.context.Context`). One module per phase: :mod:`~rules.ao.bots.free_setup`,
:mod:`~rules.ao.bots.reinforce` (and the drop), :mod:`~rules.ao.bots.movement`,
:mod:`~rules.ao.bots.combat`, :mod:`~rules.ao.bots.decisions`. See ``docs/selfplay.md``.
"""

from __future__ import annotations

from typing import Final

from rules.ao import (
    Command,
    EndPhase,
    Game,
    Roll,
    Side,
    pending_decision,
)
from rules.ao.bots.combat import attack
from rules.ao.bots.context import Context
from rules.ao.bots.decisions import decide
from rules.ao.bots.free_setup import setup_command
from rules.ao.bots.movement import move, owed
from rules.ao.bots.protocol import Bot
from rules.ao.bots.reinforce import drop, reinforce
from rules.ao.bots.rng import BotRng

NAME: Final = "heuristic"
VERSION: Final = "4"


class HeuristicBot:
    """A heuristic player of one side. ``rng`` breaks ties among equally scored choices."""

    def __init__(self, side: Side, rng: BotRng, batch: bool = False) -> None:
        self.name: str = NAME
        self.version: str = VERSION
        self.side: Side = side
        self.rng = rng
        self.batch = batch
        """Declare every attack of a Combat Phase before resolving them together (email games
        in sealed mode: one reply per batch), instead of resolving each as it is declared."""
        self.ctx = Context(side, rng)

    def choose(self, game: Game) -> Command:
        """The command this bot gives now (a decision, a placement, a move, an attack or
        ``EndPhase``)."""
        board, state = game.board, game.state
        d = pending_decision(state)  # options().pending without options' search
        if d is not None:
            return decide(self.ctx, board, state, d)
        if state.roll is not None:  # the CRT switch or the paradrop's survival: nothing to choose
            return Roll()
        self.ctx.start_phase(board, state)
        phase = state.phase
        if phase == "reinforcement":
            return reinforce(self.ctx, game) or EndPhase()
        if phase in ("initial_movement", "mechanized_movement"):
            return (
                drop(self.ctx, game) or owed(self.ctx, game) or move(self.ctx, game) or EndPhase()
            )
        if phase == "combat":
            return attack(self.ctx, game, self.batch) or EndPhase()
        if phase in ("setup_allied", "setup_german"):
            return setup_command(self.ctx, game) or EndPhase()
        return EndPhase()  # supply judgment


def bots_for(rng: BotRng, batch: bool = False) -> dict[Side, Bot]:
    """One bot per side, each with its own stream derived from ``rng`` (``batch``: see
    :attr:`HeuristicBot.batch`)."""
    return {
        "german": HeuristicBot("german", rng.derive("german"), batch),
        "allied": HeuristicBot("allied", rng.derive("allied"), batch),
    }


__all__ = ["NAME", "VERSION", "HeuristicBot", "bots_for"]
