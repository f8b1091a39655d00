"""A hot-seat game session: the board, the start state, the command log and the current state.

No Textual here: the play screen owns a :class:`GameSession` and asks it everything about the
game; widgets only show what the screen passes down::

    s = GameSession.new(1)
    s.apply(EndPhase())                      # accept the Allied set-up
    s.summary()                              # 'GT1 16 Dec · German · Set-up · VP 0-0'
    s.apply(Move("de-12ss-a", ("3908", "3909")))   # a Rejection (and nothing logged) here

Undo works inside the current phase only: the log is cut back to the state after the last
``EndPhase`` at most (an ``EndPhase`` is never undone). The log is JSONL of
:func:`rules.commands.encode_command`, one command a line, and :meth:`GameSession.from_jsonl`
replays it from the scenario's start.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from rules import hexgrid
from rules.commands import Command, EndPhase, Move, decode_jsonl, encode_command
from rules.engine import Applied, apply, new_game
from rules.gamemap import GameMap
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move
from rules.rejection import RejectedError, Rejection
from rules.state import Board, GameState, Phase, state_hash
from rules.units import UnitDef

PHASE_NAMES: Final[dict[Phase, str]] = {
    "setup_allied": "Set-up",
    "setup_german": "Set-up",
    "reinforcement": "Reinforcement",
    "supply_judgment": "Supply Judgment",
    "initial_movement": "Initial Movement",
    "combat": "Combat",
    "mechanized_movement": "Mechanized Movement",
    "game_over": "Game over",
}
"""Phase names as the player reads them (AO-4.1b)."""


def turn_date(turn: int) -> str:
    """The date of a Game-Turn: one day each, 16 December 1944 to 2 January 1945 (AO-2.1)."""
    day = 15 + turn
    return f"{day} Dec" if day <= 31 else f"{day - 31} Jan"


class GameSession:
    """One game in progress. ``apply`` keeps a command only when the engine accepts it."""

    def __init__(self, board: Board, start: GameState, commands: Iterable[Command] = ()) -> None:
        self.board = board
        self.start = start
        self._log: list[Command] = []
        self._states: list[GameState] = [start]
        self._moves: dict[tuple[str, str], dict[HexId, Reach]] = {}
        for i, cmd in enumerate(commands):
            r = self.apply(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)

    @classmethod
    def new(cls, scenario: int, game_map: GameMap | None = None) -> GameSession:
        """A new game of ``scenario`` on ``game_map`` (default: the shipped map)."""
        from rules.gamemap import load_map
        from rules.scenario import load_scenario

        board, state = new_game(load_scenario(scenario), game_map or load_map())
        return cls(board, state)

    @classmethod
    def from_jsonl(cls, scenario: int, text: str, game_map: GameMap | None = None) -> GameSession:
        """Replay a saved log of ``scenario``; raises :class:`RejectedError` on a bad command."""
        s = cls.new(scenario, game_map)
        for i, cmd in enumerate(decode_jsonl(text)):
            r = s.apply(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)
        return s

    # -- the game ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def log(self) -> tuple[Command, ...]:
        """Every accepted command, in order."""
        return tuple(self._log)

    def apply(self, command: Command) -> Applied | Rejection:
        """Apply ``command`` to the current state; logged only when accepted."""
        r = apply(self.board, self.state, command)
        if isinstance(r, Applied):
            self._log.append(command)
            self._states.append(r.state)
        return r

    @property
    def can_undo(self) -> bool:
        """True when the last command belongs to the current phase (never an ``EndPhase``)."""
        return bool(self._log) and not isinstance(self._log[-1], EndPhase)

    def undo(self) -> Command | None:
        """Take back the last command of the current phase; the command, or None if none."""
        if not self.can_undo:
            return None
        self._states.pop()
        return self._log.pop()

    # -- questions for the UI ---------------------------------------------------------------

    def unit_def(self, unit_id: str) -> UnitDef:
        return self.board.defs[unit_id]

    def legal_moves(self, unit_id: str) -> dict[HexId, Reach]:
        """:func:`rules.movement.legal_moves` of ``unit_id`` now (cached per state hash)."""
        key = (state_hash(self.state), unit_id)
        got = self._moves.get(key)
        if got is None:
            if len(self._moves) > 256:
                self._moves.clear()
            got = self._moves[key] = legal_moves(self.board, self.state, unit_id)
        return got

    def may_move(self, unit_id: str) -> Rejection | None:
        """Why ``unit_id`` may not start a move now, or None."""
        return may_move(self.board, self.state, unit_id)

    def movable_units(self) -> list[str]:
        """Ids of the units that may move now (sorted)."""
        return [u.id for u in self.state.units if may_move(self.board, self.state, u.id) is None]

    def units_by_hex(self) -> dict[HexId, list[UnitDef]]:
        """Counters on the map, dormant ones included: hex -> stack sorted by unit id."""
        out: dict[HexId, list[UnitDef]] = {}
        for u in self.state.units:
            if u.hex is not None and u.status in ("on_map", "dormant"):
                out.setdefault(u.hex, []).append(self.board.defs[u.id])
        return out

    def stack(self, hex_id: HexId) -> list[str]:
        """Ids of the units in ``hex_id`` (dormant included), top first."""
        return [d.id for d in self.units_by_hex().get(hex_id, [])]

    def own_units(self, hex_id: HexId) -> list[str]:
        """Ids of the phasing side's units in ``hex_id``, top first."""
        side = self.state.side
        return [u for u in self.stack(hex_id) if self.board.defs[u].side == side]

    def path_to(self, unit_id: str, hex_id: HexId) -> tuple[str, ...]:
        """The path a move to ``hex_id`` takes: the cheapest legal one, else the straight line
        (which the engine then refuses with its reason)."""
        reach = self.legal_moves(unit_id).get(hex_id)
        if reach is not None:
            return reach.path
        start = self.state.unit(unit_id).hex
        if start is None or start == hex_id:
            return ()
        return tuple(hexgrid.line(start, hex_id)[1:])

    def why_not(self, unit_id: str, hex_id: HexId) -> Rejection:
        """Why ``unit_id`` cannot move to ``hex_id`` (the engine's answer to a straight path)."""
        bad = self.may_move(unit_id)
        if bad is not None:
            return bad
        path = self.path_to(unit_id, hex_id)
        r = apply(self.board, self.state, Move(unit_id, path))
        if isinstance(r, Rejection):
            return r
        # A straight path the search did not offer is accepted only at a higher cost than
        # the cheapest; legal_moves offers every reachable hex, so this does not happen.
        return Rejection("AO-5.1A", f"{unit_id} cannot reach {hex_id}")  # pragma: no cover

    def summary(self) -> str:
        """One line, e.g. ``GT3 17 Dec · German · Initial Movement · VP 4-1``."""
        s = self.state
        return (
            f"GT{s.turn} {turn_date(s.turn)} · {s.side.capitalize()} · "
            f"{PHASE_NAMES[s.phase]} · VP {s.vp.german}-{s.vp.allied}"
        )

    # -- saving -----------------------------------------------------------------------------

    def to_jsonl(self) -> str:
        """The command log, one JSON command a line."""
        return "".join(encode_command(c).decode() + "\n" for c in self._log)

    def save(self, path: Path) -> None:
        path.write_text(self.to_jsonl(), encoding="utf-8")
