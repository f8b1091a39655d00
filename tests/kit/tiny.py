"""*Tiny*: the smallest ruleset that uses every hook of :class:`rules.ruleset.Ruleset`.

The tour of ``docs/engine.md`` builds it; the tests play it through :class:`rules.game.Game`,
the record and replay (``tests/rules/test_tiny_ruleset.py``), and phase 2 of issue 23 plays it
by email and in the app. It imports the engine's generic core only, never a ruleset.

The game (rule cases ``TINY-n``):

* **TINY-1 Map and units.** Eight hexes, ``0101``-``0401`` and ``0102``-``0402``; one unit a
  side, ``red-1`` on ``0101`` and ``blue-1`` on ``0401``.
* **TINY-2 Morale (hidden).** Before play each side picks its unit's morale, 1 to 3 (``Pick``),
  Red first; the other side does not see it until a strike reveals both.
* **TINY-3 Turns.** Red then Blue each turn, turns 1 to :data:`LAST_TURN`. In its turn a side
  may move its unit once to an adjacent empty hex (``Move``) and strike once (``Strike``), then
  ends its turn (``EndPhase``).
* **TINY-4 Strike.** A unit may strike the enemy unit next to it: the strike waits for its
  die (``Roll``: one die a turn at most), which the defender's side cannot influence (in an
  email game the die falls after his reply, like the AO's attacks). Die + the striker's morale
  >= 4 + the defender's morale eliminates the defender. Either way both morales are revealed.
* **TINY-5 Victory.** Eliminating the enemy unit wins at once; after turn :data:`LAST_TURN`
  the game is drawn.

*Tiny percent*, Tiny with percentage dice, is :mod:`tests.kit.tiny_percent`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, cast

import msgspec

from rules import game, hexgrid, registry
from rules.dice import DiceSource, DieRoll, draw
from rules.hexgrid import HexId
from rules.rejection import Rejection
from rules.ruleset import NO_DICE, DiceWait, Reveal, RollPlace, Ruleset

Side = Literal["red", "blue"]
SIDES: Final[tuple[Side, Side]] = ("red", "blue")
LAST_TURN: Final = 3
VERSION: Final = "tiny/1"

# -- board, state, commands, events ---------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The fixed part: the hexes and where each unit starts (TINY-1)."""

    hexes: frozenset[HexId] = frozenset(hexgrid.iter_grid(4, 2))
    start: tuple[tuple[str, Side, HexId], ...] = (
        ("blue-1", "blue", "0401"),
        ("red-1", "red", "0101"),
    )


class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    side: Side
    hex: HexId | None
    """None: eliminated."""


class Verdict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    winner: Side | None
    kind: Literal["elimination", "time", "resignation", "agreement"]
    reason: str


class State(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The whole changing state (sorted units; ``morale`` is Red's then Blue's, 0: not yet
    picked, or hidden in a public view; ``shown``: the sides whose morale is public)."""

    units: tuple[Unit, ...]
    turn: int = 1
    side: Side = "red"
    phase: Literal["setup", "play", "game_over"] = "setup"
    morale: tuple[int, int] = (0, 0)
    shown: tuple[Side, ...] = ()
    moved: bool = False
    struck: bool = False
    strike: str | None = None
    """The unit a declared strike waits to roll against."""
    dice_drawn: int = 0
    result: Verdict | None = None

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.units if u.id == unit_id)

    def own(self) -> Unit:
        return next(u for u in self.units if u.side == self.side)

    def enemy(self) -> Unit:
        return next(u for u in self.units if u.side != self.side)


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Pick(_Command, tag="pick", frozen=True):
    morale: int


class Move(_Command, tag="move", frozen=True):
    unit: str
    to: HexId


class Strike(_Command, tag="strike", frozen=True):
    target: str


class Roll(_Command, tag="roll", frozen=True):
    pass


class EndPhase(_Command, tag="end_phase", frozen=True):
    pass


Command = Pick | Move | Strike | Roll | EndPhase


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Picked(_Event, tag="picked", frozen=True):
    side: Side
    """Who picked (not the value: it is hidden)."""


class Moved(_Event, tag="moved", frozen=True):
    unit: str
    start: HexId
    end: HexId


class StrikeDeclared(_Event, tag="strike_declared", frozen=True):
    unit: str
    target: str


class Revealed(_Event, tag="revealed", frozen=True):
    side: Side
    morale: int


class Eliminated(_Event, tag="eliminated", frozen=True):
    unit: str


class GameEnded(_Event, tag="game_ended", frozen=True):
    verdict: Verdict


Event = Picked | Moved | StrikeDeclared | DieRoll | Revealed | Eliminated | GameEnded


class Applied(msgspec.Struct, frozen=True):
    state: State
    events: tuple[Event, ...]


class Options(msgspec.Struct, frozen=True):
    """What may be done: ``mode`` is ``setup``, ``play``, ``roll`` or ``game_over``."""

    hash: str
    mode: str
    acting: Side | None
    may_end_phase: bool
    moves: tuple[HexId, ...] = ()
    targets: tuple[str, ...] = ()


# -- the rules -------------------------------------------------------------------------------


def _other(side: Side) -> Side:
    return "blue" if side == "red" else "red"


def morale_of(state: State, side: Side) -> int:
    return state.morale[SIDES.index(side)]


def new_game(board: Board) -> State:
    units = tuple(Unit(id=u, side=s, hex=h) for u, s, h in sorted(board.start))
    return State(units=units)


def _end_refusal(state: State) -> Rejection | None:
    if state.phase == "setup":
        return Rejection("TINY-2", "both sides pick their morale first")
    if state.phase == "game_over":
        return Rejection("TINY-5", "the game is over")
    if state.strike is not None:
        return Rejection("TINY-4", "the strike waits for its die (roll)")
    return None


def _moves(board: Board, state: State) -> tuple[HexId, ...]:
    me = state.own()
    if state.phase != "play" or state.moved or state.strike is not None or me.hex is None:
        return ()
    taken = {u.hex for u in state.units}
    return tuple(
        sorted(h for h in hexgrid.neighbours(me.hex) if h in board.hexes and h not in taken)
    )


def _targets(state: State) -> tuple[str, ...]:
    me, foe = state.own(), state.enemy()
    if state.phase != "play" or state.struck or me.hex is None or foe.hex is None:
        return ()
    return (foe.id,) if hexgrid.adjacent(me.hex, foe.hex) else ()


def apply(
    board: Board, state: State, command: Command, dice: DiceSource | None
) -> Applied | Rejection:
    """One command (TINY-2 to TINY-5); a refusal names its case and changes nothing."""
    if state.phase == "game_over":
        return Rejection("TINY-5", "the game is over")
    if isinstance(command, Pick):
        if state.phase != "setup":
            return Rejection("TINY-2", "morale is picked before play")
        if not 1 <= command.morale <= 3:
            return Rejection("TINY-2", f"morale is 1 to 3, not {command.morale}")
        morale = list(state.morale)
        morale[SIDES.index(state.side)] = command.morale
        done = state.side == "blue"
        new = msgspec.structs.replace(
            state,
            morale=(morale[0], morale[1]),
            side=_other(state.side),
            phase="play" if done else "setup",
        )
        return Applied(new, (Picked(state.side),))
    if state.phase == "setup":
        return Rejection("TINY-2", "both sides pick their morale first")
    if isinstance(command, Roll):
        return _roll(state, dice)
    if state.strike is not None:
        return Rejection("TINY-4", "the strike waits for its die (roll)")
    if isinstance(command, Move):
        me = state.own()
        if command.unit != me.id:
            return Rejection("TINY-3", f"{command.unit} is not the {state.side} unit")
        if command.to not in _moves(board, state):
            why = "has moved this turn" if state.moved else f"cannot move to {command.to}"
            return Rejection("TINY-3", f"{me.id} {why}")
        assert me.hex is not None
        units = tuple(
            msgspec.structs.replace(u, hex=command.to) if u.id == me.id else u for u in state.units
        )
        return Applied(
            msgspec.structs.replace(state, units=units, moved=True),
            (Moved(me.id, me.hex, command.to),),
        )
    if isinstance(command, Strike):
        if command.target not in _targets(state):
            why = "has struck this turn" if state.struck else f"cannot strike {command.target}"
            return Rejection("TINY-4", f"{state.own().id} {why}")
        new = msgspec.structs.replace(state, strike=command.target, struck=True)
        return Applied(new, (StrikeDeclared(state.own().id, command.target),))
    if isinstance(command, EndPhase):
        side = _other(state.side)
        turn = state.turn + (1 if state.side == "blue" else 0)
        if turn > LAST_TURN:
            verdict = Verdict(None, "time", f"nobody won by the end of turn {LAST_TURN} (TINY-5)")
            new = msgspec.structs.replace(
                state, phase="game_over", result=verdict, moved=False, struck=False
            )
            return Applied(new, (GameEnded(verdict),))
        new = msgspec.structs.replace(state, side=side, turn=turn, moved=False, struck=False)
        return Applied(new, ())
    return Rejection("not-implemented", f"unknown command {command!r}")


def _roll(state: State, dice: DiceSource | None) -> Applied | Rejection:
    """TINY-4: the strike's die; both morales revealed; a hit eliminates and wins (TINY-5)."""
    if state.strike is None:
        return Rejection("TINY-4", "no strike waits for a die")
    if dice is None:
        return Rejection("dice-needed", "this command rolls a die: no dice given")
    target = state.unit(state.strike)
    assert target.hex is not None
    roll, drawn = draw(dice, state.dice_drawn, f"strike:{target.hex}")
    hit = roll.value + morale_of(state, state.side) >= 4 + morale_of(state, target.side)
    return strike_end(state, target, [roll], drawn, hit)


def strike_end(state: State, target: Unit, rolls: list[Event], drawn: int, hit: bool) -> Applied:
    """A strike's end once its dice are drawn: both morales revealed (TINY-2), the target
    eliminated on a hit, which wins (TINY-5)."""
    events = rolls
    events.extend(Revealed(s, morale_of(state, s)) for s in SIDES if s not in state.shown)
    new = msgspec.structs.replace(state, strike=None, dice_drawn=drawn, shown=SIDES)
    if hit:
        units = tuple(
            msgspec.structs.replace(u, hex=None) if u.id == target.id else u for u in state.units
        )
        verdict = Verdict(state.side, "elimination", f"{target.id} eliminated (TINY-4, TINY-5)")
        new = msgspec.structs.replace(new, units=units, phase="game_over", result=verdict)
        events += [Eliminated(target.id), GameEnded(verdict)]
    return Applied(new, tuple(events))


def options(board: Board, state: State, state_hash: str) -> Options:
    refusal = _end_refusal(state)
    if state.phase == "game_over":
        return Options(hash=state_hash, mode="game_over", acting=None, may_end_phase=False)
    mode = "setup" if state.phase == "setup" else "roll" if state.strike is not None else "play"
    return Options(
        hash=state_hash,
        mode=mode,
        acting=state.side,
        may_end_phase=refusal is None,
        moves=_moves(board, state),
        targets=_targets(state) if state.strike is None else (),
    )


_ENC: Final = msgspec.json.Encoder(order="deterministic")


class TinyRuleset:
    """*Tiny* behind :class:`rules.ruleset.Ruleset` (one instance, :data:`TINY`)."""

    id: str = "tiny"
    version: str = VERSION
    sides: Final = SIDES
    command_type: Final[Any] = Command
    event_type: Final[Any] = Event
    verdict_type: Final[Any] = Verdict
    level_type: Final[Any] = None

    def new_game(self, board: Board) -> State:
        return new_game(board)

    def apply(
        self, board: Board, state: State, command: Command, dice: DiceSource | None
    ) -> Applied | Rejection:
        return apply(board, state, command, dice)

    def options(self, board: Board, state: State, state_hash: str) -> Options:
        return options(board, state, state_hash)

    def acting(self, board: Board, state: State) -> str | None:
        return None if state.phase == "game_over" else state.side

    def outcome(self, state: State) -> Verdict | None:
        return state.result

    def state_bytes(self, state: State) -> bytes:
        return _ENC.encode(state)

    def where(self, state: State) -> tuple[int, str]:
        return state.turn, state.phase

    def scenario(self, state: State) -> int:
        return 1

    def dice_drawn(self, state: State) -> int:
        return state.dice_drawn

    def ends_phase(self, command: Command) -> bool:
        return isinstance(command, EndPhase)

    def level(self, board: Board) -> None:
        return None

    def board_for(self, board: Board, level: None) -> Board:
        if level is not None:
            raise ValueError("Tiny has no levels of play")
        return board

    def check_header(self, level: None, bot_levels: dict[str, int]) -> str | None:
        if level is not None or bot_levels:
            return "Tiny has no levels of play"
        return None

    def dice_wait(self, board: Board, state: State) -> DiceWait:
        """A declared strike waits for the defender's reply before its die (TINY-4)."""
        if state.strike is None:
            return NO_DICE
        return DiceWait(kind="batch", resolver=Roll(), purpose="strike")

    def batch_open(self, state: State) -> bool:
        return state.strike is not None

    def orders_side(self, command: Command) -> str | None:
        return None  # Tiny has no standing orders: nothing is decided during a strike

    def orders_refusal(self, command: Command) -> str | None:
        return None

    def orders_given(self, state: State, side: str) -> bool:
        return True

    def players_verdict(self, state: State, winner: str | None, kind: str, reason: str) -> Verdict:
        if winner not in (*SIDES, None) or kind not in ("resignation", "agreement"):
            raise ValueError(f"not a players' verdict: {winner} {kind}")
        return Verdict(winner, cast(Any, kind), reason)

    def standing(self, state: State, verdict: Verdict | None) -> str:
        v = verdict if verdict is not None else state.result
        if v is not None:
            who = f"{v.winner.capitalize()} wins" if v.winner else "a draw"
            return f"game over, {who} ({v.kind})"
        return f"turn {state.turn}, {state.side.capitalize()} {state.phase}"

    def roll_place(self, state: State, events: tuple[Event, ...], k: int) -> RollPlace:
        """The striker's die, in his turn; its effect: the strike's outcome."""
        hit = any(isinstance(e, Eliminated) for e in events[k + 1 :])
        if any(isinstance(e, DieRoll) for e in events[k + 1 :]):  # TINY-P1's d100, then its d6
            return RollPlace(state.turn, state.side, state.phase, state.side, "a hit")
        target = state.unit(state.strike) if state.strike is not None else state.enemy()
        effect = f"{target.id} eliminated" if hit else f"{target.id} holds"
        return RollPlace(state.turn, state.side, state.phase, state.side, effect)

    roll_owners: Final = ""

    def describe_roll(self, roll: DieRoll) -> str:
        what, _, where = roll.purpose.partition(":")
        return f"the {'elimination' if what == 'kill' else what} on {where}"

    def public_view(self, board: Board, state: State, side: str) -> State:
        """The other side's morale is 0 (unknown) until revealed (TINY-2)."""
        morale = tuple(
            m if s == side or s in state.shown else 0
            for s, m in zip(SIDES, state.morale, strict=True)
        )
        return msgspec.structs.replace(state, morale=(morale[0], morale[1]))

    def seal(self, command: Command) -> Command:
        """A morale pick travels as ``Pick(0)`` until the strike reveals it (TINY-2)."""
        return Pick(0) if isinstance(command, Pick) else command

    def revealed(self, board: Board, before: State, after: State) -> tuple[Reveal, ...]:
        return tuple(
            Reveal(side=s, key=f"morale:{s}", value=morale_of(after, s))
            for s in SIDES
            if s in after.shown and s not in before.shown
        )


TINY: Final = TinyRuleset()
_CONFORMS: Final[Ruleset[Board, State, Command, Event, Applied, Options, Verdict, None]] = TINY
"""mypy checks here that :class:`TinyRuleset` is a :class:`rules.ruleset.Ruleset`."""


class Game(game.Game[Board, State, Command, Event, Applied, Options, Verdict, None]):
    """A game of Tiny (:class:`rules.game.Game` bound to :data:`TINY`)."""

    RULESET: ClassVar[TinyRuleset] = TINY


registry.register(TINY, game=Game)


def state_hash(state: State) -> str:
    return hashlib.sha256(TINY.state_bytes(state)).hexdigest()
