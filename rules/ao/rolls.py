"""The German's own dice outside combat, each a ``Roll`` command of its own (``GameState.roll``).

* **The CRT switch** (AO-10.3a): entering a Game-Turn from GT6 while the German still uses the
  Initial CRT leaves the roll due (:func:`switch_due`); ``Roll`` draws the die and a 1 switches
  to the Standard CRT for good.
* **The paradrop** (AO-15.a, AO-15.b): ``Drop(hex)`` names the hex and leaves the survival die
  due; ``Roll`` draws it (1 or 2 survives, :mod:`rules.ao.paradrop`).

While a roll is due the engine accepts nothing else but ``StandingOrders`` (:func:`check_due`).
Rolling is a command of its own rather than part of ``EndPhase`` and ``Drop`` so that in an
email game the die falls in the German's packet, drawn from a link he reveals there, after the
decisions it could influence are signed (``docs/pbem-protocol.md`` section 4). Pure.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.ao import paradrop
from rules.ao.combat import DICE_NEEDED, Roller
from rules.ao.crt import crt_switch_roll_due, german_crt_after_roll
from rules.ao.events import (
    CrtSwitchRolled,
    Event,
    RollRequired,
    UnitEliminated,
    UnitPlaced,
    VictoryPointsScored,
)
from rules.ao.state import Board, GameState, RollDue, RollPurpose, VictoryPoints
from rules.dice import DiceSource
from rules.hexgrid import HexId
from rules.rejection import Rejection

CASES: Final[dict[RollPurpose, str]] = {"crt_switch": "AO-10.3a", "paradrop": "AO-15.b"}
WHAT: Final[dict[RollPurpose, str]] = {
    "crt_switch": "the CRT switch",
    "paradrop": "the paratroop unit's survival",
}
NOTHING_DUE: Final = "AO-4.1"
"""The case of a ``Roll`` when no die is due: the sequence of play calls for none."""


def switch_due(state: GameState, events: list[Event]) -> GameState:
    """``state`` (just entered a new Game-Turn) with the CRT switch roll due when AO-10.3a
    calls for it."""
    if not crt_switch_roll_due(state.turn, state.german_crt):
        return state
    events.append(RollRequired(purpose="crt_switch", case="AO-10.3a"))
    return msgspec.structs.replace(state, roll=RollDue(purpose="crt_switch"))


def drop_declared(state: GameState, hex_id: HexId, events: list[Event]) -> GameState:
    """``state`` with the paratroop unit's survival die due for a drop on ``hex_id``."""
    events.append(RollRequired(purpose="paradrop", hex=hex_id, case="AO-15.a"))
    return msgspec.structs.replace(state, roll=RollDue(purpose="paradrop", hex=hex_id))


def check_due(state: GameState) -> Rejection | None:
    """The refusal of any command but ``Roll`` (and ``StandingOrders``) while a die is due."""
    due = state.roll
    if due is None:
        return None
    return Rejection(
        CASES[due.purpose], f"the German player first rolls for {WHAT[due.purpose]} (roll)"
    )


def roll(
    board: Board, state: GameState, dice: DiceSource | None
) -> tuple[GameState, list[Event]] | Rejection:
    """``Roll``: draw the die that is due and apply it."""
    due = state.roll
    if due is None:
        return Rejection(
            NOTHING_DUE,
            "no die is due now: the German rolls at the start of a Game-Turn from GT6 while "
            "he uses the Initial CRT (AO-10.3a) and after the paradrop (AO-15.b)",
        )
    if dice is None:
        return Rejection(DICE_NEEDED, f"rolling for {WHAT[due.purpose]} needs dice: none given")
    state = msgspec.structs.replace(state, roll=None)
    if due.purpose == "crt_switch":
        events: list[Event] = []
        roller = Roller(dice, state.dice_drawn, events)
        die = roller.roll("crt_switch")
        crt = german_crt_after_roll(state.german_crt, die)
        events.append(CrtSwitchRolled(turn=state.turn, die=die, crt=crt))
        return msgspec.structs.replace(state, german_crt=crt, dice_drawn=roller.index), events
    assert due.hex is not None
    return _drop(board, state, due.hex, dice)


def _drop(
    board: Board, state: GameState, hex_id: HexId, dice: DiceSource
) -> tuple[GameState, list[Event]] | Rejection:
    r = paradrop.resolve_drop(board, state, hex_id, dice)
    if isinstance(r, Rejection):
        return r
    events: list[Event] = [r.roll]
    s = r.state
    if r.survived:
        events.append(UnitPlaced(unit=r.unit.id, hex=hex_id, case="AO-15.b"))
    else:
        events.append(UnitEliminated(unit=r.unit.id, hex=hex_id, case="AO-15.b"))
        v = s.vp
        s = msgspec.structs.replace(s, vp=VictoryPoints(german=v.german, allied=v.allied + 1))
        events.append(VictoryPointsScored(side="allied", points=1, unit=r.unit.id))
    return s, events
