"""The Ardennes Offensive (SPI 1973, errata of 31 May 1973) as a ruleset: :data:`AO`.

Everything the generic machinery (:class:`rules.game.Game`, :mod:`rules.record`, email play)
asks of a game, answered with the AO's own modules: :func:`rules.ao.engine.apply`,
:func:`rules.ao.options.options`, the state's canonical bytes, the levels of play
(:mod:`rules.ao.levels`), the dice that wait on the opponent's reply (the declared attacks
and the paratroop drop) or on the German alone (the CRT switch). The AO hides nothing: the
public view of a state is the state, and no value is ever revealed.
"""

from __future__ import annotations

from typing import Any, Final, cast

from rules.ao.commands import Command, EndPhase, ResolveAttacks, Roll, StandingOrders
from rules.ao.engine import Applied, apply, new_game
from rules.ao.events import (
    CombatResolved,
    CrtSwitchRolled,
    Event,
    PhaseBegan,
    UnitEliminated,
    UnitPlaced,
)
from rules.ao.levels import NUMBERS, Level
from rules.ao.options import Options, acting_side, options
from rules.ao.state import Board, GameState, Verdict, VerdictKind, Winner, canonical_bytes
from rules.ao.units import Side
from rules.dice import DiceSource, DieRoll
from rules.record import RecordError
from rules.rejection import Rejection
from rules.ruleset import NO_DICE, DiceWait, Reveal, RollPlace, Ruleset

RULES_VERSION: Final = "ao-1973+errata-1973-05-31/4"
"""The rules the engine plays: The Ardennes Offensive (SPI 1973) with the errata of 31 May 1973;
the number after the slash goes up whenever a change of the engine can change a game (2:
the CRT switch and paradrop dice became ``Roll`` commands; 3: the rules audit of issue 12 -
isolation, road-column contacts, advances, West-bank attacks, live road exit hexes, every
reinforcement placed; 4: issue 22 - the retreat priority counted in hexes gained, a road ford's
MP in Road Mode, a reactivated unit free to leave its edge hex)."""

ROLLS: Final = {"crt_switch": "the CRT switch", "paradrop": "the paratroop unit's survival"}
"""What the AO's rolls outside combat are for, in words (AO-10.3a, AO-15.b)."""


class AoRuleset:
    """The Ardennes Offensive behind :class:`rules.ruleset.Ruleset` (one instance, :data:`AO`)."""

    id: Final = "ao"
    version: Final = RULES_VERSION
    sides: Final = ("allied", "german")
    command_type: Final[Any] = Command
    event_type: Final[Any] = Event
    verdict_type: Final[Any] = Verdict
    level_type: Final[Any] = Level

    def new_game(self, board: Board) -> GameState:
        return new_game(board)

    def apply(
        self, board: Board, state: GameState, command: Command, dice: DiceSource | None
    ) -> Applied | Rejection:
        return apply(board, state, command, dice)

    def options(self, board: Board, state: GameState, state_hash: str) -> Options:
        return options(board, state, state_hash)

    def acting(self, board: Board, state: GameState) -> Side | None:
        return acting_side(state)

    def outcome(self, state: GameState) -> Verdict | None:
        return state.result

    def state_bytes(self, state: GameState) -> bytes:
        return canonical_bytes(state)

    def where(self, state: GameState) -> tuple[int, str]:
        return state.turn, state.phase

    def scenario(self, state: GameState) -> int:
        return state.scenario

    def dice_drawn(self, state: GameState) -> int:
        return state.dice_drawn

    def ends_phase(self, command: Command) -> bool:
        return isinstance(command, EndPhase)

    # -- records: the levels of play (rules.ao.levels) --

    def level(self, board: Board) -> Level | None:
        return board.level

    def board_for(self, board: Board, level: Level | None) -> Board:
        """``board`` at ``level``: :meth:`Board.at_level` of the scenario as written; a board
        already at another level cannot be (``RecordError``)."""
        if level == board.level:
            return board
        if board.level is not None:
            raise RecordError(f"the board is set up for level {board.level.number}, the record not")
        return board.at_level(level)

    def check_header(self, level: Level | None, bot_levels: dict[str, int]) -> str | None:
        """A level of play is 1-4, and the header's bot (if it names one) played that level."""
        if level is None:
            return "a player has a level of play, the header none" if bot_levels else None
        if level.number not in NUMBERS:
            return f"the header's level {level.number} is not 1-4"
        bot = bot_levels.get(level.computer)
        if bot is not None and bot != level.number:
            return f"the {level.computer} bot played level {bot}, the header says {level.number}"
        return None

    # -- email play --

    def dice_wait(self, board: Board, state: GameState) -> DiceWait:
        """The paratroop drop's survival die and the declared attacks wait for the opponent's
        reply (``batch``: he may still set his standing orders); the CRT switch is the German's
        own (AO-10.3a: nobody decides anything about it)."""
        del board
        due = state.roll
        if due is not None:
            if due.purpose == "paradrop":
                return DiceWait(kind="batch", resolver=Roll(), purpose=due.purpose)
            return DiceWait(kind="own", resolver=Roll(), purpose=due.purpose)
        c = state.combat
        if state.phase == "combat" and c.declared and c.current is None:
            return DiceWait(
                kind="batch", resolver=ResolveAttacks(), purpose="combat", extendable=True
            )
        return NO_DICE

    def batch_open(self, state: GameState) -> bool:
        c = state.combat
        return c.current is not None or c.pending is not None or bool(c.declared)

    def orders_side(self, command: Command) -> str | None:
        return command.side if isinstance(command, StandingOrders) else None

    def orders_refusal(self, command: Command) -> str | None:
        """Standing orders that ``ask`` (or clear) would stop a batch with nobody to answer."""
        if not isinstance(command, StandingOrders):
            return None
        if "ask" in (command.retreat, command.losses, command.advance) or command.clear:
            return "email games need standing orders that never ask (and are never cleared)"
        return None

    def orders_given(self, state: GameState, side: str) -> bool:
        return side in self.sides and state.combat.orders(cast(Side, side)) is not None

    def players_verdict(
        self, state: GameState, winner: str | None, kind: str, reason: str
    ) -> Verdict:
        """With the VP standing in ``state`` (AO-16.E)."""
        return Verdict(
            cast(Winner | None, winner),
            cast(VerdictKind, kind),
            state.vp.german,
            state.vp.allied,
            reason,
        )

    def standing(self, state: GameState, verdict: Verdict | None) -> str:
        v = verdict if verdict is not None else state.result
        if v is not None:
            who = f"{v.winner.capitalize()} wins" if v.winner else "a draw"
            return f"game over, {who} ({v.kind}, VP {v.german_vp}:{v.allied_vp})"
        return f"Game-Turn {state.turn}, {state.side.capitalize()} {state.phase.replace('_', ' ')}"

    def roll_place(self, state: GameState, events: tuple[Event, ...], k: int) -> RollPlace:
        """The Game-Turn, player-turn side and phase from the ``PhaseBegan`` events before the
        die (the CRT switch: the first phase of the Game-Turn it is rolled on entering,
        AO-10.3a); a combat die is the phasing player's, the others the German's; the effect
        from the event after it."""
        turn, side, phase = state.turn, str(state.side), str(state.phase)
        for e in events[:k]:
            if isinstance(e, PhaseBegan):
                turn, side, phase = e.turn, e.side, str(e.phase)
        roll = events[k]
        purpose = roll.purpose if isinstance(roll, DieRoll) else ""
        if purpose == "crt_switch":
            after_it = (e for e in events[k + 1 :] if isinstance(e, PhaseBegan))
            first = next(after_it, None)
            if first is not None:
                turn, side, phase = first.turn, first.side, str(first.phase)
        of = side if purpose.startswith("combat") else "german"
        after = events[k + 1] if k + 1 < len(events) else None
        return RollPlace(turn, side, phase, of, _effect(after, state))

    roll_owners: Final = "combat: the attacker; CRT switch, paradrop: the German"

    def describe_roll(self, roll: DieRoll) -> str:
        """``combat:3512`` is the attack on 3512 (AO-9), the others :data:`ROLLS`."""
        kind, _, where = roll.purpose.partition(":")
        if kind == "combat":
            return f"the attack on {where}" if where else "an attack"
        return ROLLS.get(kind, roll.purpose)

    # -- hidden information: none in the AO --

    def public_view(self, board: Board, state: GameState, side: str) -> GameState:
        del board, side
        return state

    def seal(self, command: Command) -> Command:
        return command

    def revealed(self, board: Board, before: GameState, after: GameState) -> tuple[Reveal, ...]:
        del board, before, after
        return ()


def _effect(after: Event | None, before: GameState) -> str:
    """What a die did, from the event after it (the CRT's result, the switch, the drop)."""
    if isinstance(after, CombatResolved):
        return f"{after.column} on the {after.table} CRT: {after.result}"
    if isinstance(after, CrtSwitchRolled):
        if after.crt != before.german_crt:
            return f"switches to the {after.crt} CRT"
        return f"keeps the {after.crt} CRT"
    if isinstance(after, UnitPlaced):
        return f"{after.unit} lands in {after.hex}"
    if isinstance(after, UnitEliminated):
        return f"{after.unit} eliminated in {after.hex}"
    return "" if after is None else str(after.__struct_config__.tag)


AO: Final = AoRuleset()
"""The Ardennes Offensive."""

_CONFORMS: Final[Ruleset[Board, GameState, Command, Event, Applied, Options, Verdict, Level]] = AO
"""mypy checks here that :class:`AoRuleset` is a :class:`rules.ruleset.Ruleset`."""
