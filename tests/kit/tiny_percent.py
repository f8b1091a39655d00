"""*Tiny percent* (ruleset ``tinyd100``, :data:`TINY_D100`) is Tiny with percentage dice, for
email play with dice of more than six faces (``docs/pbem-protocol.md`` section 3, version 4):

* **TINY-P1 Strike.** TINY-4 with two dice: a d100 (``uniform(index, 100)``) hits when it is at
  most ``20 x (2 + the striker's morale - the defender's)`` (0 to 80 percent); a hit then rolls
  a d6 that eliminates the defender as TINY-4's does (die + the striker's morale >= 4 + the
  defender's). A miss rolls nothing more. Either way both morales are revealed.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rules import game, registry
from rules.dice import DiceSource, draw
from rules.rejection import Rejection
from rules.ruleset import Ruleset
from tests.kit.tiny import (
    Applied,
    Board,
    Command,
    Event,
    Options,
    Roll,
    State,
    TinyRuleset,
    Unit,
    Verdict,
    apply,
    morale_of,
    strike_end,
)

VERSION: Final = "tinyd100/1"


def hit_chance(state: State, target: Unit) -> int:
    """TINY-P1: the percent a strike on ``target`` hits, ``20 x (2 + morale difference)``."""
    return 20 * (2 + morale_of(state, state.side) - morale_of(state, target.side))


def _roll_percent(state: State, dice: DiceSource | None) -> Applied | Rejection:
    """TINY-P1: a d100 to hit, then on a hit TINY-4's d6 to eliminate."""
    if state.strike is None:
        return Rejection("TINY-4", "no strike waits for a die")
    if dice is None:
        return Rejection("dice-needed", "this command rolls a die: no dice given")
    target = state.unit(state.strike)
    assert target.hex is not None
    roll, drawn = draw(dice, state.dice_drawn, f"strike:{target.hex}", n=100)
    rolls: list[Event] = [roll]
    hit = False
    if roll.value <= hit_chance(state, target):
        d6, drawn = draw(dice, drawn, f"kill:{target.hex}")
        rolls.append(d6)
        hit = d6.value + morale_of(state, state.side) >= 4 + morale_of(state, target.side)
    return strike_end(state, target, rolls, drawn, hit)


def apply_percent(
    board: Board, state: State, command: Command, dice: DiceSource | None
) -> Applied | Rejection:
    """*Tiny percent*: Tiny's rules (:func:`apply`) but the strike's dice (TINY-P1)."""
    if isinstance(command, Roll) and state.phase == "play":
        return _roll_percent(state, dice)
    return apply(board, state, command, dice)


class TinyPercentRuleset(TinyRuleset):
    """*Tiny percent* (TINY-P1): Tiny whose strike rolls a d100, then a d6 on a hit (one
    instance, :data:`TINY_D100`)."""

    id: str = "tinyd100"
    version: str = VERSION

    def apply(
        self, board: Board, state: State, command: Command, dice: DiceSource | None
    ) -> Applied | Rejection:
        return apply_percent(board, state, command, dice)


TINY_D100: Final = TinyPercentRuleset()
_CONFORMS_D100: Final[Ruleset[Board, State, Command, Event, Applied, Options, Verdict, None]] = (
    TINY_D100
)


class PercentGame(game.Game[Board, State, Command, Event, Applied, Options, Verdict, None]):
    """A game of *Tiny percent* (bound to :data:`TINY_D100`)."""

    RULESET: ClassVar[TinyRuleset] = TINY_D100


registry.register(TINY_D100, game=PercentGame)
