"""What a heuristic bot knows when it chooses: its side and tie-break stream, its tables for the
board it plays on (built on first use, keyed by the board's identity) and its memory of the
current phase (the units and hexes it has already considered, the enemy's distance field, the
German plan). Each bot owns one; nothing is kept on the board.
"""

from __future__ import annotations

from rules import HexId
from rules.ao import (
    Board,
    GameState,
    Place,
    Side,
    other_side,
)
from rules.ao.bots.fields import Fields, distance_field
from rules.ao.bots.plan import Plan, Targets, make_plan
from rules.ao.bots.rng import BotRng


class Context:
    """One bot's tables and phase memory (see the module docstring)."""

    __slots__ = (
        "_board",
        "_fields",
        "_targets",
        "done",
        "enemy_dist",
        "enemy_strength",
        "held",
        "key",
        "orders",
        "plan",
        "rng",
        "side",
        "trapped",
    )

    def __init__(self, side: Side, rng: BotRng) -> None:
        self.side: Side = side
        self.rng = rng
        self._board: Board | None = None
        self._fields: Fields | None = None
        self._targets: Targets | None = None
        self.key: tuple[int, str, str] | None = None
        self.done: set[str] = set()
        """Units (movement, reinforcements) and hexes (combat) already considered this phase."""
        self.enemy_dist: dict[HexId, int] = {}
        self.enemy_strength: dict[HexId, int] = {}
        self.trapped: dict[tuple[HexId, tuple[str, ...]], tuple[int, int, int]] = {}
        self.plan: Plan | None = None
        self.held: dict[HexId, set[str]] = {}
        self.orders: list[Place] | None = None
        """The free set-up's remaining ``Place`` commands (planned once)."""

    # -- tables, per board --------------------------------------------------------------------

    def _on(self, board: Board) -> None:
        if self._board is not board:
            self._board = board
            self._fields = None
            self._targets = None
            self.orders = None

    def fields(self, board: Board) -> Fields:
        """The scoring fields of ``board`` (:class:`rules.ao.bots.fields.Fields`)."""
        self._on(board)
        if self._fields is None:
            self._fields = Fields(board)
        return self._fields

    def targets(self, board: Board) -> Targets:
        """The German plan's targets of ``board`` (:class:`rules.ao.bots.plan.Targets`)."""
        self._on(board)
        if self._targets is None:
            self._targets = Targets(board)
        return self._targets

    # -- memory, per phase --------------------------------------------------------------------

    def start_phase(self, board: Board, state: GameState) -> None:
        """Forget the last phase when ``state`` is in a new one: the enemy's hexes and distance
        field, and (German movement phases) a new plan."""
        key = (state.turn, state.side, state.phase)
        if key == self.key:
            return
        self.key = key
        self.done = set()
        self.trapped = {}
        enemy = other_side(self.side)
        hexes: dict[HexId, int] = {}
        for u in state.units:
            if u.in_play and u.hex is not None and board.defs[u.id].side == enemy:
                hexes[u.hex] = hexes.get(u.hex, 0) + board.defs[u.id].strength
        self.enemy_strength = hexes
        self.enemy_dist = distance_field(board.game_map, hexes)
        self.plan = None
        if self.side == "german" and state.phase in ("initial_movement", "mechanized_movement"):
            self.plan = make_plan(self.targets(board), board, state)


__all__ = ["Context"]
