"""The changing state of a *Breakthrough* game, its commands and its events (msgspec).

:class:`State` is immutable, with canonical bytes (``msgspec.json`` with sorted keys, the
units sorted by id, every set a sorted tuple) and so a hash. Commands and events are tagged
unions (``type``), decoded strictly. The vocabulary follows the manual's menus: 3.2's
(I)nterdiction and (G)round attack, 6.3's (A)rtillery, (M)ax artillery, (R)eplacements,
(D)estroy and (C)onstruct bridge and (S)upply air drop, 7.3's moves, (M)ode, (F)ort,
(A)dvance and (E)xit, an attack plotted by moving onto an enemy hex (7.9), and
:class:`EndPhase`: 3.2's and 6.1's (Q)uit and 7.1's (C)ombat.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from rules.breakthrough import victory
from rules.breakthrough.air import AirPoints, GroundAttack
from rules.breakthrough.organization import Member
from rules.breakthrough.resolve import CombatReport, Plot
from rules.breakthrough.supply import SupplyChange
from rules.breakthrough.units import Side, Unit
from rules.dice import DieRoll
from rules.hexgrid import HexId, Hexside

SIDES: Final[tuple[Side, Side]] = ("american", "german")
Phase = Literal["dawn", "air", "organization", "operation", "combat", "game_over"]
"""The phases that wait for a player (BA-2.3a): ``dawn`` (the new day's weather and fuel,
drawn by the American's first command of the turn), ``air``, ``organization``, ``operation``
and ``combat`` (the Combat Phase's results, after the plots resolved); Supply and
Reinforcement are the computer's and run inside the command that ends the phase before them."""


class Verdict(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The end of a game: the winner (None: a draw), ``points`` (the rules' verdict,
    BA-10.2c) or the players' (``resignation``, ``agreement``), the level reached and the
    German score."""

    winner: Side | None
    kind: Literal["points", "resignation", "agreement"]
    reason: str
    level: str = ""
    score: int = 0


class State(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything that changes. ``side`` acts in ``phase``; ``stage`` is the Operation Phase's
    number (1 or 2; 0 otherwise)."""

    turn: int
    phase: Phase
    side: Side
    stage: int
    units: tuple[Unit, ...]
    """On the map, sorted by id."""
    german_hexes: tuple[HexId, ...]
    """Hexes the German owns (BA-1.4f); every other hex is American."""
    pools: tuple[tuple[str, int], ...]
    """Artillery Corps Pools, by corps (BA-6.4a)."""
    scenario: int = 3
    """BA-2.1g's number: 1 First Seven Days, 2 Last Seven Days, 3 Twelve Days."""
    weather: str = "overcast"
    air: tuple[AirPoints, AirPoints] = (AirPoints(0), AirPoints(0))
    """American, German air points this turn (BA-3.1a-c, BA-3.5a)."""
    strikes: tuple[HexId, ...] = ()
    """Ground attacks ordered by the acting side, flown when it quits the menu."""
    interdicted: tuple[str, ...] = ()
    plots: tuple[Plot, ...] = ()
    """This Operation Phase's plotted combats, in plotted order (BA-8.0a)."""
    moved: tuple[str, ...] = ()
    """Units that moved this turn (BA-7.5b)."""
    crossed: tuple[tuple[Hexside, tuple[str, ...]], ...] = ()
    """German units over each bridge this turn (BA-6.7g)."""
    blown: tuple[Hexside, ...] = ()
    blow_tries: tuple[str, ...] = ()
    """Units that tried to blow a bridge this turn (BA-6.7d)."""
    blasts: tuple[tuple[str, Hexside], ...] = ()
    """Bridge-blowing attempts waiting for their draws (end of the side's phase)."""
    fuel: tuple[int, ...] = ()
    """The turn's fuel draws (BA-4.4b), drawn with its weather, used by its Supply Phase."""
    replacements: tuple[int, int] = (0, 0)
    """Infantry, armored replacement points left to the acting side this phase (BA-6.5d)."""
    divisions: tuple[tuple[str, tuple[Member, ...]], ...] = ()
    """Each divisional unit on the map and the regiments built into it (BA-6.6a-e), by id."""
    delayed: tuple[str, ...] = ()
    cancelled: tuple[str, ...] = ()
    exited: tuple[victory.Exited, ...] = ()
    eliminated: tuple[victory.Eliminated, ...] = ()
    committed: tuple[int, int] = (0, 0)
    """American, German strength that entered the game (10.1f)."""
    town_points: int = 0
    """10.1b's points, summed at the end of every turn."""
    dice_drawn: int = 0
    result: Verdict | None = None
    score: victory.Score | None = None


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class EndPhase(_Command, tag="end_phase", frozen=True):
    """(Q)uit the Air or Unit Organization menu; (C)ombat ends an Operation Phase (7.1a)."""


class Interdict(_Command, tag="interdict", frozen=True):
    """3.2 (I)nterdiction: one air point more on interdiction."""


class Strike(_Command, tag="strike", frozen=True):
    """3.2 (G)round attack on ``hex``."""

    hex: HexId


class AirDrop(_Command, tag="air_drop", frozen=True):
    """6.3 (S)upply air drop on ``hex`` (BA-3.5a-b)."""

    hex: HexId


class Artillery(_Command, tag="artillery", frozen=True):
    """6.3 (A)rtillery transfer: ``points`` from the pool into ``unit`` (negative: back)."""

    unit: str
    points: int


class MaxArtillery(_Command, tag="max_artillery", frozen=True):
    unit: str


class Replace(_Command, tag="replace", frozen=True):
    """6.3 (R)eplacements."""

    unit: str
    points: int


class BlowBridge(_Command, tag="blow_bridge", frozen=True):
    """6.3 (D)estroy bridge: ``unit`` tries the bridge between its hex and ``to``."""

    unit: str
    to: HexId


class BuildBridge(_Command, tag="build_bridge", frozen=True):
    unit: str
    to: HexId


class BuildUp(_Command, tag="build_up", frozen=True):
    """6.3 (B)uild up: ``unit`` and the regiments ``joining`` (same division, same hex) build
    into the divisional unit, or ``unit`` joins the divisional unit in its hex."""

    unit: str
    joining: tuple[str, ...] = ()


class BreakDown(_Command, tag="break_down", frozen=True):
    """6.3 (B)reakdown of a divisional unit into its regiments."""

    unit: str


class Move(_Command, tag="move", frozen=True):
    """7.5: ``unit`` enters the hexes of ``path`` in order."""

    unit: str
    path: tuple[HexId, ...]


class ChangeMode(_Command, tag="mode", frozen=True):
    unit: str


class Fortify(_Command, tag="fortify", frozen=True):
    unit: str


class Attack(_Command, tag="attack", frozen=True):
    """7.9: ``unit`` plots combat against the adjacent enemy hex ``target``."""

    unit: str
    target: HexId


class Advance(_Command, tag="advance", frozen=True):
    """7.3 (A)dvance: toggles the unit's advance flag."""

    unit: str


class Exit(_Command, tag="exit", frozen=True):
    """7.3 (E)xit."""

    unit: str


Command = (
    EndPhase
    | Interdict
    | Strike
    | AirDrop
    | Artillery
    | MaxArtillery
    | Replace
    | BlowBridge
    | BuildBridge
    | BuildUp
    | BreakDown
    | Move
    | ChangeMode
    | Fortify
    | Attack
    | Advance
    | Exit
)


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class PhaseBegan(_Event, tag="phase_began", frozen=True):
    turn: int
    phase: str
    side: str
    stage: int = 0


class WeatherDrawn(_Event, tag="weather", frozen=True):
    turn: int
    weather: str
    american_air: int
    german_air: int


class AirStruck(_Event, tag="air_struck", frozen=True):
    report: GroundAttack


class InterdictionFlown(_Event, tag="interdiction", frozen=True):
    side: Side
    points: int
    units: tuple[str, ...]


class SupplyTraced(_Event, tag="supply", frozen=True):
    changes: tuple[SupplyChange, ...]
    """The units whose status or mode changed, and every fuel draw."""


class Reinforced(_Event, tag="reinforced", frozen=True):
    side: Side
    entered: tuple[str, ...]
    delayed: tuple[str, ...]
    cancelled: tuple[str, ...]


class UnitChanged(_Event, tag="unit", frozen=True):
    """A unit after a command (moved, mode, fort, artillery, replacements, advance flag)."""

    what: str
    unit: Unit


class Plotted(_Event, tag="plotted", frozen=True):
    unit: str
    target: HexId


class UnitExited(_Event, tag="exited", frozen=True):
    unit: str
    hex: HexId
    strength: int


class AirDropped(_Event, tag="air_drop", frozen=True):
    side: Side
    hex: HexId


class BridgeBlown(_Event, tag="bridge", frozen=True):
    unit: str
    site: Hexside
    standing: bool
    draw: int = 0


class CombatResolved(_Event, tag="combat", frozen=True):
    report: CombatReport


class TurnEnded(_Event, tag="turn_ended", frozen=True):
    turn: int
    town_points: int


class GameEnded(_Event, tag="game_ended", frozen=True):
    verdict: Verdict
    score: victory.Score | None = None


Event = (
    PhaseBegan
    | WeatherDrawn
    | DieRoll
    | AirStruck
    | InterdictionFlown
    | SupplyTraced
    | Reinforced
    | UnitChanged
    | Plotted
    | UnitExited
    | AirDropped
    | BridgeBlown
    | CombatResolved
    | TurnEnded
    | GameEnded
)


class Applied(msgspec.Struct, frozen=True):
    state: State
    events: tuple[Event, ...]


class Options(msgspec.Struct, frozen=True):
    """What may be done (``mode``: ``air``, ``organization``, ``operation``, ``game_over``)."""

    hash: str
    mode: str
    acting: Side | None
    may_end_phase: bool
    turn: int
    stage: int
    weather: str
    air_left: int
    """The acting side's air points not yet spent (Air Phase; air drops in organization)."""
    units: tuple[str, ...]
    """The acting side's units with operation points (Operation Phase) or on the map."""
    plots: tuple[Plot, ...]
    targets: tuple[HexId, ...] = ()
    """Enemy hexes the acting side may plot an attack on now (Operation Phase, 7.9)."""


ENCODER: Final = msgspec.json.Encoder(order="deterministic")


def state_bytes(state: State) -> bytes:
    """Canonical bytes of ``state``."""
    return ENCODER.encode(state)
