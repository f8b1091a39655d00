""":data:`BREAKTHROUGH`: *Breakthrough in the Ardennes* behind :class:`rules.ruleset.Ruleset`.

Id ``breakthrough``, version :data:`VERSION`. The board is a :class:`.board.Board`
(``scenarios.breakthrough.load_board``), the level written in a record's header its
:class:`.board.Setup` (scenario, level 1-4, historical option, two-player values), so a replay
applies the same levers. Dice: every draw is a percentage, ``uniform(index, 100)``, and every
one falls inside an :class:`~.state.EndPhase` (:mod:`.sequence`): ``dice_wait`` is a
``batch`` resolved by ``EndPhase`` once the acting side has declared what it rolls for (plots,
ground attacks or interdiction, blowing attempts), and the American's ``own`` roll at the
``dawn`` of each turn (the weather, the fuel draws). Nobody decides anything inside a batch
(8.4: "The computer will automatically retreat and advance units"): no standing orders, no
hidden information.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, cast

from rules import game
from rules.breakthrough import sequence, weather
from rules.breakthrough.board import Board, Setup
from rules.breakthrough.operations import ATTACK_COST
from rules.breakthrough.orders import apply as apply_command
from rules.breakthrough.state import (
    SIDES,
    Applied,
    Command,
    EndPhase,
    Event,
    Options,
    State,
    Verdict,
    state_bytes,
)
from rules.dice import DiceSource, DieRoll
from rules.hexgrid import adjacent
from rules.rejection import Rejection
from rules.ruleset import NO_DICE, DiceWait, Reveal, RollPlace, Ruleset

VERSION: Final = "bita-1984/1"

PURPOSE_WORDS: Final = {
    "weather": "the weather",
    "interdiction": "interdiction",
    "ground_attack": "a ground attack",
    "fuel": "fuel",
    "bridge": "a bridge demolition",
    "combat": "a combat",
}


def _dawn_rolls(board: Board, state: State) -> bool:
    """The day's first command draws dice: the weather when uncertain (BA-9.0a, G9), the fuel
    draws from turn 5 (BA-4.4b)."""
    return weather.needs_draw(state.turn) or bool(sequence.fuel_due(board, state))


def options(board: Board, state: State, state_hash: str) -> Options:
    if state.phase == "game_over":
        return Options(
            state_hash, "game_over", None, False, state.turn, 0, state.weather, 0, (), ()
        )
    mine = tuple(
        u.id
        for u in state.units
        if u.side == state.side and (state.phase != "operation" or u.op > 0)
    )
    return Options(
        hash=state_hash,
        mode=state.phase,
        acting=state.side,
        may_end_phase=True,
        turn=state.turn,
        stage=state.stage,
        weather=state.weather,
        air_left=sequence.air_of(state, state.side).left,
        units=mine,
        plots=state.plots,
        targets=_targets(state) if state.phase == "operation" else (),
    )


def _targets(state: State) -> tuple[str, ...]:
    """Enemy hexes next to a unit of the acting side that may still plot (BA-7.9a-b, 4.3k)."""
    plotted = {p.unit for p in state.plots}
    ready = [
        u.hex
        for u in state.units
        if u.side == state.side
        and u.op >= ATTACK_COST
        and u.supply != "isolated"
        and u.id not in plotted
    ]
    return tuple(
        sorted(
            {
                e.hex
                for e in state.units
                if e.side != state.side and any(adjacent(e.hex, h) for h in ready)
            }
        )
    )


def _declared(state: State) -> str:
    """What the acting side has declared that its ``EndPhase`` will roll for ("": nothing)."""
    if state.phase == "operation" and state.plots:
        return "combat"
    if state.phase == "air" and (state.strikes or sequence.air_of(state, state.side).interdiction):
        return "air"
    if state.phase == "organization" and state.blasts:
        return "bridge"
    return ""


class BreakthroughRuleset:
    """*Breakthrough in the Ardennes* (one instance, :data:`BREAKTHROUGH`)."""

    id: Final = "breakthrough"
    version: Final = VERSION
    sides: Final = SIDES
    command_type: Final[Any] = Command
    event_type: Final[Any] = Event
    verdict_type: Final[Any] = Verdict
    level_type: Final[Any] = Setup

    def new_game(self, board: Board) -> State:
        return sequence.new_game(board)

    def apply(
        self, board: Board, state: State, command: Command, dice: DiceSource | None
    ) -> Applied | Rejection:
        return apply_command(board, state, command, dice)

    def options(self, board: Board, state: State, state_hash: str) -> Options:
        return options(board, state, state_hash)

    def acting(self, board: Board, state: State) -> str | None:
        return None if state.phase == "game_over" else state.side

    def outcome(self, state: State) -> Verdict | None:
        return state.result

    def state_bytes(self, state: State) -> bytes:
        return state_bytes(state)

    def where(self, state: State) -> tuple[int, str]:
        """(turn, phase) as a record's end line and an email packet write them: lowercase
        letters and underscores (``german_operation_second``, ``game_over``)."""
        if state.phase == "game_over":
            return state.turn, "game_over"
        stage = {1: "_first", 2: "_second"}.get(state.stage, "")
        return state.turn, f"{state.side}_{state.phase}{stage}"

    def scenario(self, state: State) -> int:
        return state.scenario

    def dice_drawn(self, state: State) -> int:
        return state.dice_drawn

    def ends_phase(self, command: Command) -> bool:
        return isinstance(command, EndPhase)

    def level(self, board: Board) -> Setup:
        return board.setup

    def board_for(self, board: Board, level: Setup | None) -> Board:
        if level is None:
            raise ValueError("a Breakthrough record names its set-up")
        return board.with_setup(level)

    def check_header(self, level: Setup | None, bot_levels: dict[str, int]) -> str | None:
        if level is None:
            return "a Breakthrough record names its set-up (scenario, level, options)"
        bad = {s: v for s, v in bot_levels.items() if v != level.level}
        if bad:
            return f"the players' levels {bad} differ from the game's level {level.level}"
        return None

    def dice_wait(self, board: Board, state: State) -> DiceWait:
        """A ``batch`` once the acting side has declared what its ``EndPhase`` rolls for
        (plots, ground attacks or interdiction, bridge-blowing attempts: nobody decides
        anything inside it, 8.4); the day's weather and fuel are the American's ``own`` roll,
        the first command of his turn (``dawn``), which nobody decides anything about."""
        if state.phase == "dawn":
            if _dawn_rolls(board, state):
                return DiceWait(kind="own", resolver=EndPhase(), purpose="weather")
            return NO_DICE
        purpose = _declared(state)
        if not purpose:
            return NO_DICE
        return DiceWait(kind="batch", resolver=EndPhase(), purpose=purpose, extendable=True)

    def batch_open(self, state: State) -> bool:
        return bool(_declared(state))

    def orders_side(self, command: Command) -> str | None:
        return None  # no standing orders: nothing is decided inside a batch (8.4)

    def orders_refusal(self, command: Command) -> str | None:
        return None

    def orders_given(self, state: State, side: str) -> bool:
        return True

    def players_verdict(self, state: State, winner: str | None, kind: str, reason: str) -> Verdict:
        if winner not in (*SIDES, None) or kind not in ("resignation", "agreement"):
            raise ValueError(f"not a players' verdict: {winner} {kind}")
        return Verdict(cast(Any, winner), cast(Any, kind), reason)

    roll_owners: Final = (
        "combat, ground attacks, bridges, interdiction: the side whose phase it is; weather, "
        "fuel and the rest: the American"
    )

    def describe_roll(self, roll: DieRoll) -> str:
        kind, _, what = roll.purpose.partition(":")
        words = PURPOSE_WORDS.get(kind, kind)
        return f"{words} ({what})" if what else words

    def standing(self, state: State, verdict: Verdict | None) -> str:
        v = verdict if verdict is not None else state.result
        if v is not None:
            who = f"{v.winner.capitalize()} wins" if v.winner else "a draw"
            return f"game over, {who} ({v.level or v.kind})"
        stage = f" {state.stage}" if state.stage else ""
        day = f"{15 + state.turn} December (turn {state.turn})"
        return f"{day}, {state.side.capitalize()} {state.phase}{stage}"

    def roll_place(self, state: State, events: tuple[Any, ...], k: int) -> RollPlace:
        roll = events[k]
        kind = roll.purpose.partition(":")[0]
        of = (
            state.side
            if kind in ("combat", "ground_attack", "bridge", "interdiction")
            else "american"
        )
        return RollPlace(state.turn, state.side, state.phase, of, self.describe_roll(roll))

    def public_view(self, board: Board, state: State, side: str) -> State:
        return state

    def seal(self, command: Command) -> Command:
        return command

    def revealed(self, board: Board, before: State, after: State) -> tuple[Reveal, ...]:
        return ()


BREAKTHROUGH: Final = BreakthroughRuleset()
_CONFORMS: Final[Ruleset[Board, State, Command, Event, Applied, Options, Verdict, Setup]] = (
    BREAKTHROUGH
)


class Game(game.Game[Board, State, Command, Event, Applied, Options, Verdict, Setup]):
    """A game of *Breakthrough* (:class:`rules.game.Game` bound to :data:`BREAKTHROUGH`)."""

    RULESET: ClassVar[BreakthroughRuleset] = BREAKTHROUGH
