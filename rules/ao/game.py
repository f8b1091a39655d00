"""``rules.ao.Game``: the generic :class:`rules.game.Game` bound to The Ardennes Offensive.

Everything is the generic game's (push, undo, options, records, replay); this class only
fixes the ruleset (:data:`rules.ao.AO`, so ``Game.new(board)`` needs none) and adds the AO's
legal-move cache (:meth:`Game.legal_moves`)."""

from __future__ import annotations

from typing import ClassVar

from rules import game as _game
from rules.ao.commands import Command
from rules.ao.engine import Applied
from rules.ao.events import Event
from rules.ao.levels import Level
from rules.ao.movement import Reach, legal_moves
from rules.ao.options import Options
from rules.ao.ruleset import AO, AoRuleset
from rules.ao.state import Board, GameState, Verdict
from rules.dice import DiceSource
from rules.hexgrid import HexId
from rules.record import DiceSpec, Players
from rules.ruleset import Ruleset

_MOVES_KEPT = 512


class Game(_game.Game[Board, GameState, Command, Event, Applied, Options, Verdict, Level]):
    """A game of The Ardennes Offensive (:class:`rules.game.Game` with :data:`AO`)."""

    RULESET: ClassVar[AoRuleset] = AO

    __slots__ = ("_moves",)

    def __init__(
        self,
        board: Board,
        start: GameState,
        *,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
        ruleset: Ruleset[Board, GameState, Command, Event, Applied, Options, Verdict, Level]
        | None = None,
    ) -> None:
        super().__init__(
            board, start, dice=dice, dice_spec=dice_spec, players=players, ruleset=ruleset
        )
        self._moves: dict[tuple[str, str], dict[HexId, Reach]] = {}

    def legal_moves(self, unit: str) -> dict[HexId, Reach]:
        """Every hex ``unit`` may move to now, with path and cost (empty when it may not move);
        cached for the current state."""
        key = (self.state_hash(), unit)
        hit = self._moves.get(key)
        if hit is None:
            if len(self._moves) >= _MOVES_KEPT:
                self._moves.clear()
            hit = self._moves[key] = legal_moves(self.board, self.state, unit)
        return hit

    def __repr__(self) -> str:
        s = self.state
        n = len(self.history)
        return f"<Game scenario {s.scenario} GT{s.turn} {s.side} {s.phase}, {n} commands>"


Replayed = _game.Replayed[Game]
"""What :meth:`Game.replay` found (:class:`rules.game.Replayed` of an AO game)."""
