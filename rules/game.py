"""``rules.game.Game``: one game of any ruleset in progress, a thin mutable handle over the
immutable states.

In the spirit of python-chess's ``Board``: it holds the ruleset (:class:`rules.ruleset.Ruleset`:
how the game is played), its board (the map and counters, fixed), the current state, the history
of accepted commands (each with its events and the state hash after it) and the game's dice
source. It knows no game: every rule is the ruleset's. The AO's game is
:class:`rules.ao.Game` (this class bound to :data:`rules.ao.AO`)::

    >>> import rules.ao, scenarios
    >>> g = rules.ao.Game.new(scenarios.load_board(1), dice=rules.SeededDice(b"7"))
    >>> g.options().mode, g.options().acting
    ('setup', 'allied')
    >>> g.push(rules.ao.EndPhase())           # accept the historical Allied set-up
    Applied(...)
    >>> g.pop()                               # an EndPhase is never undone
    >>> g.state.phase
    'setup_german'

``push`` applies a command or returns the :class:`~rules.rejection.Rejection` and changes
nothing; ``pop`` undoes inside the current phase, never across a die roll or the end of a
phase; ``options`` answers "what may be done now" once for the app, the bots and the command
line. A game is written and read as a record (:mod:`rules.record`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

from rules.dice import DiceSource
from rules.record import (
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
from rules.ruleset import A, B, C, E, L, O, Ruleset, S, V, state_hash_of

G = TypeVar("G", bound="Game[Any, Any, Any, Any, Any, Any, Any, Any]")


class Game(Generic[B, S, C, E, A, O, V, L]):
    """A game: ruleset, board, start state, history of (command, events, hash), dice source.

    ``dice`` may be None for positions that never roll (tests, set-up); a command that needs
    a die is then refused by the rules and nothing changes. ``dice_spec`` says in the record
    where the dice came from (:class:`rules.record.DiceSpec`); ``players`` who played each
    side. A subclass bound to one ruleset (:class:`rules.ao.Game`) sets :attr:`RULESET`, and
    its ``new``, ``from_commands`` and ``replay`` need no ``ruleset``.
    """

    RULESET: ClassVar[Any] = None
    """The ruleset of a bound subclass (None here: pass ``ruleset``)."""

    __slots__ = (
        "_options",
        "_states",
        "board",
        "dice",
        "dice_spec",
        "history",
        "players",
        "ruleset",
        "start",
    )

    def __init__(
        self,
        board: B,
        start: S,
        *,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
        ruleset: Ruleset[B, S, C, E, A, O, V, L] | None = None,
    ) -> None:
        self.ruleset: Ruleset[B, S, C, E, A, O, V, L] = self._ruleset(ruleset)
        """How the game is played."""
        self.board: B = board
        """The fixed part: map, counters, scenario data."""
        self.start: S = start
        """The state before the first command."""
        self.dice: DiceSource | None = dice
        """Where every die comes from (``None``: commands that roll are refused)."""
        self.dice_spec: DiceSpec = dice_spec if dice_spec is not None else DiceSpec(kind="none")
        """How the record names the dice source."""
        self.players: Players = players if players is not None else Players()
        """Who plays each side (human, or bot and version)."""
        self.history: list[Step[C]] = []
        """Every accepted command with its events and the state hash after it."""
        self._states: list[S] = [start]
        self._options: O | None = None

    @classmethod
    def _ruleset(
        cls, ruleset: Ruleset[B, S, C, E, A, O, V, L] | None
    ) -> Ruleset[B, S, C, E, A, O, V, L]:
        rs = ruleset if ruleset is not None else cls.RULESET
        if rs is None:
            raise TypeError(f"{cls.__name__} needs a ruleset")
        if cls.RULESET is not None and rs is not cls.RULESET:
            raise TypeError(f"{cls.__name__} plays {cls.RULESET.id}, not {rs.id}")
        return rs

    @classmethod
    def new(
        cls,
        board: B,
        *,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
        ruleset: Ruleset[B, S, C, E, A, O, V, L] | None = None,
    ) -> Self:
        """A new game on ``board``: the ruleset's first state (the AO's: before the Allied
        set-up, AO-4.2a)."""
        rs = cls._ruleset(ruleset)
        return cls(
            board, rs.new_game(board), dice=dice, dice_spec=dice_spec, players=players, ruleset=rs
        )

    @classmethod
    def from_commands(
        cls,
        board: B,
        commands: Iterable[C],
        *,
        start: S | None = None,
        dice: DiceSource | None = None,
        dice_spec: DiceSpec | None = None,
        players: Players | None = None,
        ruleset: Ruleset[B, S, C, E, A, O, V, L] | None = None,
    ) -> Self:
        """A game with ``commands`` pushed in order; raises :class:`RejectedError` (index and
        rule) at the first refused one."""
        rs = cls._ruleset(ruleset)
        g = cls(
            board,
            start if start is not None else rs.new_game(board),
            dice=dice,
            dice_spec=dice_spec,
            players=players,
            ruleset=rs,
        )
        for i, cmd in enumerate(commands):
            r = g.push(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)
        return g

    @classmethod
    def replay(
        cls,
        record: Record,
        board: B,
        dice: DiceSource | None = None,
        *,
        ruleset: Ruleset[B, S, C, E, A, O, V, L] | None = None,
    ) -> Replayed[Self]:
        """Replay ``record`` on ``board`` (its scenario) with its dice (``dice``: the source
        of a kind the engine does not know, :func:`rules.record.dice_for`), checking the state
        hash after every command and the footer. The answer names the first command refused
        by the rules or whose hash differs: a hand-edited record never loads silently.

        The record must be of this game's ruleset (its header's ``ruleset``). A record of a
        game against the computer names its level of play: the game is replayed on ``board``
        at that level (:meth:`rules.ruleset.Ruleset.board_for`; the AO's: its schedules, its
        VP handicap), so a replay applies the levers the game was played with."""
        rs = cls._ruleset(ruleset)
        head = record.header
        if head.ruleset != rs.id:
            raise RecordError(f"the record is of ruleset {head.ruleset!r}, not {rs.id!r}")
        source = dice if dice is not None else dice_for(head.dice)
        if head.level != rs.level(board):
            try:
                board = rs.board_for(board, head.level)
            except RecordError:
                raise
            except (ValueError, KeyError) as exc:
                raise RecordError(f"the record's level of play: {exc}") from None
        g = cls.new(board, dice=source, dice_spec=head.dice, players=head.players, ruleset=rs)
        if rs.scenario(g.start) != head.scenario:
            raise RecordError(
                f"the record is of scenario {head.scenario}, the board of {rs.scenario(g.start)}"
            )
        note = (
            ""
            if head.rules == rs.version
            else (f" (recorded with rules {head.rules}; this engine plays {rs.version})")
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
            ) != rs.where(g.state):
                return Replayed(g, "the end line's turn, phase or verdict differ from the replay")
        return Replayed(g)

    # -- the game -----------------------------------------------------------------------------

    @property
    def state(self) -> S:
        """The current state."""
        return self._states[-1]

    @property
    def commands(self) -> tuple[C, ...]:
        """Every accepted command, in order."""
        return tuple(s.command for s in self.history)

    @property
    def events(self) -> tuple[tuple[E, ...], ...]:
        """The events of every accepted command, in order."""
        return tuple(s.events for s in self.history)

    def state_at(self, n: int) -> S:
        """The state after the first ``n`` commands (``0``: the start)."""
        return self._states[n]

    def state_hash(self) -> str:
        """SHA-256 of the current state's canonical bytes (:meth:`Ruleset.state_bytes`)."""
        return self.history[-1].hash if self.history else state_hash_of(self.ruleset, self.start)

    def push(self, command: C) -> A | Rejection:
        """Apply ``command`` with the game's dice: the new state and its events, or why the
        rules refuse it (and nothing changes)."""
        r = self.ruleset.apply(self.board, self.state, command, self.dice)
        if isinstance(r, Rejection):
            return r
        self.history.append(
            Step(command=command, events=r.events, hash=state_hash_of(self.ruleset, r.state))
        )
        self._states.append(r.state)
        return r

    def copy(self, board: B | None = None) -> Self:
        """A copy of the game to play on without touching this one (a bot thinking on another
        thread): the same start, history, dice and players, the immutable states shared.
        ``board``: the copy's board, the same scenario's (default: this game's; a board of
        its own keeps the copy's derived tables apart)."""
        g = type(self)(
            board if board is not None else self.board,
            self.start,
            dice=self.dice,
            dice_spec=self.dice_spec,
            players=self.players,
            ruleset=self.ruleset,
        )
        g.history = list(self.history)
        g._states = list(self._states)
        return g

    def undo_refusal(self) -> str | None:
        """Why :meth:`pop` would do nothing now, else None."""
        if not self.history or self.ruleset.ends_phase(self.history[-1].command):
            return UNDO_AFTER_END_PHASE
        drawn = self.ruleset.dice_drawn
        if drawn(self._states[-1]) != drawn(self._states[-2]):
            return UNDO_AFTER_ROLL
        return None

    def can_undo(self) -> bool:
        """True when the last command belongs to the current phase (never one that ends a
        phase) and rolled no die: undo never lets a player roll again."""
        return self.undo_refusal() is None

    def pop(self) -> C | None:
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

    def options(self) -> O:
        """What may be done now (the ruleset's :class:`~rules.ruleset.OptionsLike`), computed
        once per state."""
        h = self.state_hash()
        if self._options is None or self._options.hash != h:
            self._options = self.ruleset.options(self.board, self.state, h)
        return self._options

    def outcome(self) -> V | None:
        """The verdict once the game is over, else None."""
        return self.ruleset.outcome(self.state)

    def record(self, meta: dict[str, str] | None = None) -> Record:
        """This game as a record (:mod:`rules.record`): header, commands with hashes, footer."""
        return make_record(
            scenario=self.ruleset.scenario(self.start),
            dice=self.dice_spec,
            players=self.players,
            steps=self.history,
            final=self.state,
            meta=meta or {},
            level=self.ruleset.level(self.board),
            ruleset=self.ruleset,
        )

    def __repr__(self) -> str:
        turn, phase = self.ruleset.where(self.state)
        n = len(self.history)
        return f"<Game {self.ruleset.id} turn {turn} {phase}, {n} commands>"


@dataclass(frozen=True)
class Replayed(Generic[G]):
    """What :meth:`Game.replay` found: the game as far as it agrees with the record, and the
    first disagreement (``error`` None when every hash and the footer match)."""

    game: G
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
