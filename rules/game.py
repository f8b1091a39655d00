"""``rules.Game``: one game in progress, a thin mutable handle over the immutable states.

In the spirit of python-chess's ``Board``: it holds the :class:`~rules.state.Board` (the map
and counters, fixed), the current :class:`~rules.state.GameState`, the history of accepted
commands (each with its events and the state hash after it) and the game's dice source::

    >>> import rules, scenarios
    >>> g = rules.Game.new(scenarios.load_board(1), dice=rules.SeededDice(b"7"))
    >>> g.options().mode, g.options().acting
    ('setup', 'allied')
    >>> g.push(rules.EndPhase())              # accept the historical Allied set-up
    Applied(...)
    >>> g.pop()                               # an EndPhase is never undone
    >>> g.state.phase
    'setup_german'

``push`` applies a command or returns the :class:`~rules.rejection.Rejection` and changes
nothing; ``pop`` undoes inside the current phase, never across a die roll or an ``EndPhase``;
``options`` answers "what may be done now" once for the app, the bots and the command line.
A game is written and read as a record (:mod:`rules.record`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from rules import options as _options
from rules.commands import Command, EndPhase
from rules.dice import DiceSource
from rules.engine import Applied, apply, new_game
from rules.events import Event
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves
from rules.options import Options
from rules.record import (
    RULES_VERSION,
    DiceSpec,
    Players,
    Record,
    RecordError,
    Step,
    dice_for,
    make_record,
    tag,
)
from rules.rejection import RejectedError, Rejection
from rules.state import Board, GameState, Verdict, state_hash


class Game:
    """A game: board, start state, history of (command, events, hash), dice source.

    ``dice`` may be None for positions that never roll (tests, set-up); a command that needs
    a die is then refused with case ``dice-needed`` and nothing changes. ``dice_spec`` says in
    the record where the dice came from (:class:`rules.record.DiceSpec`); ``players`` who
    played each side.
    """

    __slots__ = (
        "_moves",
        "_options",
        "_states",
        "board",
        "dice",
        "dice_spec",
        "history",
        "players",
        "start",
    )

    def __init__(
        self,
        board: Board,
        start: GameState,
        *,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
    ) -> None:
        self.board: Board = board
        """The fixed part: map, counters, scenario data."""
        self.start: GameState = start
        """The state before the first command."""
        self.dice: DiceSource | None = dice
        """Where every die comes from (``None``: commands that roll are refused)."""
        self.dice_spec: DiceSpec = dice_spec if dice_spec is not None else DiceSpec(kind="none")
        """How the record names the dice source."""
        self.players: Players = players if players is not None else Players()
        """Who plays each side (human, or bot and version)."""
        self.history: list[Step] = []
        """Every accepted command with its events and the state hash after it."""
        self._states: list[GameState] = [start]
        self._options: Options | None = None
        self._moves: dict[tuple[str, str], dict[HexId, Reach]] = {}

    @classmethod
    def new(
        cls,
        board: Board,
        *,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
    ) -> Game:
        """A new game of ``board``'s scenario, before the Allied set-up (AO-4.2a)."""
        return cls(board, new_game(board), dice=dice, dice_spec=dice_spec, players=players)

    @classmethod
    def from_commands(
        cls,
        board: Board,
        commands: Iterable[Command],
        *,
        start: GameState | None = None,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
    ) -> Game:
        """A game with ``commands`` pushed in order; raises :class:`RejectedError` (index and
        rule) at the first refused one."""
        g = cls(
            board,
            start if start is not None else new_game(board),
            dice=dice,
            dice_spec=dice_spec,
            players=players,
        )
        for i, cmd in enumerate(commands):
            r = g.push(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)
        return g

    @classmethod
    def replay(cls, record: Record, board: Board, dice: DiceSource | None = None) -> Replayed:
        """Replay ``record`` on ``board`` (its scenario) with its dice (``dice``: the source
        of a kind the engine does not know, :func:`rules.record.dice_for`), checking the state
        hash after every command and the footer. The answer names the first command refused
        by the rules or whose hash differs: a hand-edited record never loads silently.

        A record of a game against the computer names its level of play
        (:class:`rules.levels.Level`): the game is replayed on ``board`` at that level
        (:meth:`rules.Board.at_level`: its schedules, its VP handicap), so a replay applies
        the levers the game was played with; ``board`` is the scenario as written (or already
        at that level)."""
        head = record.header
        source = dice if dice is not None else dice_for(head.dice)
        if head.level != board.level:
            if board.level is not None:
                raise RecordError(
                    f"the board is set up for level {board.level.number}, the record not"
                )
            try:
                board = board.at_level(head.level)
            except (ValueError, KeyError) as exc:
                raise RecordError(f"the record's level of play: {exc}") from None
        g = cls.new(board, dice=source, dice_spec=head.dice, players=head.players)
        if g.start.scenario != head.scenario:
            raise RecordError(
                f"the record is of scenario {head.scenario}, the board of {g.start.scenario}"
            )
        note = (
            ""
            if head.rules == RULES_VERSION
            else (f" (recorded with rules {head.rules}; this engine plays {RULES_VERSION})")
        )
        for i, line in enumerate(record.lines):
            name = f"command {i} ({tag(line.command)})"
            r = g.push(line.command)
            if isinstance(r, Rejection):
                return Replayed(g, f"{name} refused: {r.message}{note}", i)
            h = g.state_hash()
            if h != line.hash:
                g.history.pop()
                g._states.pop()
                return Replayed(
                    g,
                    f"{name} diverges: state hash {h[:16]} where the record has "
                    f"{line.hash[:16]}{note}",
                    i,
                )
        foot = record.footer
        if foot is not None:
            if foot.hash != g.state_hash():
                return Replayed(
                    g,
                    f"the end line's hash {foot.hash[:16]} differs from the "
                    f"final state's {g.state_hash()[:16]}{note}",
                )
            by_players = foot.verdict is not None and foot.verdict.kind in BY_PLAYERS
            if (foot.verdict != g.outcome() and not (by_players and g.outcome() is None)) or (
                foot.turn,
                foot.phase,
            ) != (g.state.turn, g.state.phase):
                return Replayed(g, "the end line's turn, phase or verdict differ from the replay")
        return Replayed(g)

    # -- the game -----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def commands(self) -> tuple[Command, ...]:
        """Every accepted command, in order."""
        return tuple(s.command for s in self.history)

    @property
    def events(self) -> tuple[tuple[Event, ...], ...]:
        """The events of every accepted command, in order."""
        return tuple(s.events for s in self.history)

    def state_at(self, n: int) -> GameState:
        """The state after the first ``n`` commands (``0``: the start)."""
        return self._states[n]

    def state_hash(self) -> str:
        """SHA-256 of the current state's canonical bytes (:func:`rules.state.state_hash`)."""
        return self.history[-1].hash if self.history else state_hash(self.start)

    def push(self, command: Command) -> Applied | Rejection:
        """Apply ``command`` with the game's dice: the new state and its events, or why the
        rules refuse it (and nothing changes)."""
        r = apply(self.board, self.state, command, self.dice)
        if isinstance(r, Rejection):
            return r
        self.history.append(Step(command=command, events=r.events, hash=state_hash(r.state)))
        self._states.append(r.state)
        return r

    def copy(self, board: Board | None = None) -> Game:
        """A copy of the game to play on without touching this one (a bot thinking on another
        thread): the same start, history, dice and players, the immutable states shared.
        ``board``: the copy's board, the same scenario's (default: this game's; a board of
        its own keeps the copy's derived tables apart)."""
        g = Game(
            board if board is not None else self.board,
            self.start,
            dice=self.dice,
            dice_spec=self.dice_spec,
            players=self.players,
        )
        g.history = list(self.history)
        g._states = list(self._states)
        return g

    def undo_refusal(self) -> str | None:
        """Why :meth:`pop` would do nothing now, else None."""
        if not self.history or isinstance(self.history[-1].command, EndPhase):
            return UNDO_AFTER_END_PHASE
        if self._states[-1].dice_drawn != self._states[-2].dice_drawn:
            return UNDO_AFTER_ROLL
        return None

    def can_undo(self) -> bool:
        """True when the last command belongs to the current phase (never an ``EndPhase``)
        and rolled no die: undo never lets a player roll again."""
        return self.undo_refusal() is None

    def pop(self) -> Command | None:
        """Take back the last command if :meth:`can_undo`; the command, or None."""
        if not self.can_undo():
            return None
        self._states.pop()
        return self.history.pop().command

    def truncate(self, n: int) -> None:
        """Cut the history back to its first ``n`` commands, die rolls included: for a caller
        that refuses a whole batch of commands after trying them (an email packet that fails
        a check, ``pbem``). Players undo with :meth:`pop`."""
        if not 0 <= n <= len(self.history):
            raise ValueError(f"cannot cut {len(self.history)} commands back to {n}")
        del self.history[n:]
        del self._states[n + 1 :]

    # -- questions ------------------------------------------------------------------------------

    def options(self) -> Options:
        """What may be done now (:class:`rules.options.Options`), computed once per state."""
        h = self.state_hash()
        if self._options is None or self._options.hash != h:
            self._options = _options.options(self.board, self.state, h)
        return self._options

    def legal_moves(self, unit: str) -> dict[HexId, Reach]:
        """Every hex ``unit`` may move to now, with path and cost (empty when it may not move);
        cached for the current state."""
        key = (self.state_hash(), unit)
        hit = self._moves.get(key)
        if hit is None:
            if len(self._moves) >= 512:
                self._moves.clear()
            hit = self._moves[key] = legal_moves(self.board, self.state, unit)
        return hit

    def outcome(self) -> Verdict | None:
        """The verdict once the game is over (AO-16.1-3), else None."""
        return self.state.result

    def record(self, meta: dict[str, str] | None = None) -> Record:
        """This game as a record (:mod:`rules.record`): header, commands with hashes, footer."""
        return make_record(
            scenario=self.start.scenario,
            dice=self.dice_spec,
            players=self.players,
            steps=self.history,
            final=self.state,
            meta=meta or {},
            level=self.board.level,
        )

    def __repr__(self) -> str:
        s = self.state
        n = len(self.history)
        return f"<Game scenario {s.scenario} GT{s.turn} {s.side} {s.phase}, {n} commands>"


@dataclass(frozen=True)
class Replayed:
    """What :meth:`Game.replay` found: the game as far as it agrees with the record, and the
    first disagreement (``error`` None when every hash and the footer match)."""

    game: Game
    error: str | None = None
    at: int | None = None
    """The index of the first refused or diverging command (None: all agree, or the footer
    differs)."""

    @property
    def ok(self) -> bool:
        return self.error is None


BY_PLAYERS: Final = frozenset({"resignation", "agreement"})
"""Verdicts the players give, not the rules (a game by email, ``pbem``): a record's footer may
end with one where the replayed game is not over."""

UNDO_AFTER_END_PHASE: Final = "Nothing to undo in this phase"
UNDO_AFTER_ROLL: Final = "The dice have rolled: that cannot be undone"
