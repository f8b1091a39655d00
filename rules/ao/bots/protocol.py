"""The :class:`Bot` protocol: what the app, self-play and an email opponent need of a player."""

from __future__ import annotations

from typing import Protocol

from rules.ao import Command, Game, Side


class Bot(Protocol):
    """A player of one side. ``choose`` is asked only when ``side`` must act
    (:attr:`ao.Options.acting`) and answers with a command the engine accepts now."""

    name: str
    """Which bot, e.g. ``"heuristic"``."""
    version: str
    """Its version: the same name, version, game and stream give the same commands."""
    side: Side

    def choose(self, game: Game) -> Command:
        """The command to give now in ``game`` (its board, state and history)."""
        ...


__all__ = ["Bot"]
