"""Game state: an immutable, typed value with a canonical encoding and a stable hash.

Two kinds of data describe a game:

* :class:`Board` is what never changes during a game: the map, the printed counters, and for
  a scenario its table row, reinforcement schedule, historical set-up and set-up lines (loaded
  by :mod:`scenarios`). It is built once and shared.
* :class:`GameState` is everything that changes: the game-turn (1-18), the player-turn, the
  phase, and every unit's hex and status (:class:`UnitState`), plus bridge interdiction, victory
  points, the German CRT switch, the dice stream position and room for combat decisions.

A ``GameState`` is a frozen msgspec struct made of tuples, so it is immutable and hashable. Its
canonical bytes (:func:`canonical_bytes`) are msgspec JSON with struct fields in declaration
order, default-valued unit fields omitted and units sorted by id; :func:`state_hash` is the
SHA-256 hex digest of those bytes and is identical across processes, runs and hash seeds.

Units are never removed from the state: an eliminated unit keeps its row with
``status="eliminated"``, a reinforcement not yet on the map has ``status="not_arrived"``.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Final, Literal, TypeVar, cast

import msgspec

from rules.ao.gamemap import GameMap
from rules.ao.levels import Level
from rules.ao.scenario import Arrival, Line, ScenarioSpec, Section
from rules.ao.units import Side, UnitDef
from rules.hexgrid import HexId

_T = TypeVar("_T")

Phase = Literal[
    "setup_allied",
    "setup_german",
    "reinforcement",
    "supply_judgment",
    "initial_movement",
    "combat",
    "mechanized_movement",
    "game_over",
]
"""Set-up steps (AO-4.2a), the five phases of a player-turn (AO-4.1b) and the end of the game.

Phase 6 of AO-4.1b ("remove all supply condition markers") has no decisions in it: it happens
as part of ending the Mechanized Movement Phase.
"""

PLAYER_TURN_PHASES: Final[tuple[Phase, ...]] = (
    "reinforcement",
    "supply_judgment",
    "initial_movement",
    "combat",
    "mechanized_movement",
)
MOVEMENT_PHASES: Final[tuple[Phase, ...]] = ("initial_movement", "mechanized_movement")
LAST_TURN: Final = 18
"""The game lasts eighteen Game-Turns (AO-4.1a)."""

Supply = Literal["supplied", "unsupplied", "isolated"]
"""The supply marker on a unit (AO-12.3); ``supplied`` means no marker."""

Status = Literal["on_map", "dormant", "not_arrived", "eliminated", "not_in_play"]
"""Where a unit is: in play, dormant on an Allied Map Edge hex (AO-5.3M), a reinforcement not
yet placed (AO-14), eliminated, or not in play at all (a unit a hand-written position leaves
out, :func:`rules.ao.position.fill`: no rule counts it, it never enters, it is worth no VP)."""

Crt = Literal["initial", "standard"]
"""The CRT the German player uses (AO-10.3a)."""


def phase_is_lost(turn: int, phase: Phase) -> bool:
    """Both Initial Movement Phases of Game-Turn 1 are lost (AO-4.2c)."""
    return turn == 1 and phase == "initial_movement"


def other_side(side: Side) -> Side:
    """The enemy of ``side``."""
    return "allied" if side == "german" else "german"


class UnitState(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Everything about one unit that can change during the game.

    ``hex`` is set for units on the map (including dormant ones) and ``None`` otherwise.
    Per-phase fields (``moved``, ``mp_spent``) are reset when a movement phase begins;
    per-player-turn fields (``attacked``, ``was_attacked``, ``in_combat``) when a player-turn
    ends. ``must_leave_road_mode`` survives until the unit's next Initial Movement Phase
    (AO-6.7L*).
    """

    id: str
    hex: HexId | None = None
    status: Status = "on_map"
    road_mode: bool = False
    supply: Supply = "supplied"
    moved: bool = False
    """Has moved in the current movement phase (AO-5.1E)."""
    mp_spent: int = 0
    """Movement Points spent in the current movement phase (AO-5.1C)."""
    attacked: bool = False
    """Attacked in this player-turn's combat phase."""
    was_attacked: bool = False
    """Was attacked in the current player-turn."""
    in_combat: bool = False
    """Took part in the current player-turn's combat phase (AO-5.2K, AO-4.2f)."""
    must_leave_road_mode: bool = False
    """Attacked or was attacked in Road Mode: leaves it at its next Initial Movement Phase."""
    staging: int | None = None
    """A reinforcement that has not moved since it was placed on its entry hex: the road hexes
    of movement it still loses to the units placed before it there (AO-14.2B; 0 for the first,
    and 0 once the Initial Movement Phase of its entry is over). Charged at the start of its
    first move, cleared by that move."""

    @property
    def in_play(self) -> bool:
        """On the map and not dormant: moves, exerts ZOC, occupies its hex."""
        return self.status == "on_map" and self.hex is not None


class Interdiction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Bridge hexsides interdicted *for* each side's movement and supply (AO-13.1A, AO-13.5F).

    Each entry is a sorted hexside pair; each tuple is sorted. Empty until the supply issue.
    """

    german: tuple[tuple[HexId, HexId], ...] = ()
    allied: tuple[tuple[HexId, HexId], ...] = ()

    def for_side(self, side: Side) -> tuple[tuple[HexId, HexId], ...]:
        return self.german if side == "german" else self.allied


class VictoryPoints(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Victory Points scored so far (AO-16)."""

    german: int = 0
    allied: int = 0


DecisionKind = Literal["waive_immunity", "losses", "retreat", "advance"]
"""The decisions a combat can wait for (see :class:`Decision`)."""


class Attack(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One declared attack (AO-9): attacking units, defending hexes (sorted), the odds column
    asked for (AO-9.4L, ``None``: the real odds) and the attacker's own hexes whose town/West
    Wall immunity he waives (AO-11.f*)."""

    attackers: tuple[str, ...]
    defenders: tuple[HexId, ...]
    odds: str | None = None
    waive: tuple[HexId, ...] = ()


class Decision(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A decision the engine waits for; only its command is accepted meanwhile.

    * ``waive_immunity`` (AO-11.f*): ``side`` owns units in the immune ``choices`` hexes (one
      hex per choice) and answers ``WaiveImmunity(hexes)`` with any subset, before the die;
    * ``losses`` (AO-10.1b): the attacker answers ``ChooseLosses(units)``; ``choices`` are the
      minimal sets, any set reaching ``need`` face strength is accepted;
    * ``retreat`` (AO-10.2a): the victor ``side`` answers ``ChooseRetreat(unit, path)`` with one
      of the equally ranked best ``choices`` for ``unit``;
    * ``advance`` (AO-9.6N): ``side`` answers ``Advance(hex, unit)`` with one of ``choices``
      (one unit each) or ``Advance(hex)`` to decline.
    """

    side: Side
    kind: DecisionKind
    case: str
    choices: tuple[tuple[str, ...], ...] = ()
    unit: str | None = None
    hex: HexId | None = None
    need: int = 0


class Orders(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A side's standing orders: how the engine decides for it without asking.

    ``waive``: the hexes whose immunity it waives when attacked (every other immune hex keeps
    it); ``retreat``/``losses``: ``engine`` takes the first choice offered, ``ask`` waits;
    ``advance``: ``decline``, ``strongest`` (the strongest eligible unit, then by id) or ``ask``.
    """

    waive: tuple[HexId, ...] = ()
    retreat: Literal["engine", "ask"] = "engine"
    losses: Literal["engine", "ask"] = "engine"
    advance: Literal["decline", "strongest", "ask"] = "decline"


ResolutionStep = Literal["waive", "roll", "losses", "retreat", "advance"]


class Resolution(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The attack being resolved and how far it got.

    ``attackers``/``defenders`` are the units taking part at the moment of combat; ``waived``
    the defender's waived hexes; ``result`` the CRT result once rolled (``"Dr2"``, ``"Ex"``);
    ``retreating`` the units still to retreat ``retreat_distance`` hexes (encoded ``hexes``), in
    order; ``cleared`` the hexes still to be offered for an advance (AO-9.6N), to ``advancing``
    units of ``victor``.
    """

    attack: Attack
    step: ResolutionStep
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    waived: tuple[HexId, ...] = ()
    column: str | None = None
    result: str | None = None
    need: int = 0
    retreating: tuple[str, ...] = ()
    retreat_distance: int = msgspec.field(default=0, name="hexes")
    cleared: tuple[HexId, ...] = ()
    advancing: tuple[str, ...] = ()


class CombatState(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The Combat Phase in progress (empty outside it).

    ``declared``: attacks declared and not yet resolved (the batch), resolved in order;
    ``current``: the attack being resolved; ``pending``: the decision it waits for;
    ``retreated``: units retreated this phase (AO-9.2F*); ``german_orders``/``allied_orders``:
    standing orders (kept across phases); ``obliged``: on Game-Turn 1 the American units the
    German must attack and the German units that must attack (AO-4.2h*), fixed when the
    German Combat Phase begins.
    """

    declared: tuple[Attack, ...] = ()
    pending: Decision | None = None
    current: Resolution | None = None
    retreated: tuple[str, ...] = ()
    german_orders: Orders | None = None
    allied_orders: Orders | None = None
    obliged: tuple[str, ...] = ()

    def orders(self, side: Side) -> Orders | None:
        return self.german_orders if side == "german" else self.allied_orders


class Delay(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A reinforcement held back by blocked sections (AO-14.1b); ``GameState.delayed`` keeps
    these, sorted by unit (see :mod:`rules.ao.reinforcements`).

    ``turn`` is the Game-Turn it may next enter, ``section`` the section it was due on (``WB``
    read as ``W``, ``east`` for the German), ``delays`` how many Game-Turns it has lost so far
    (1: enters on the adjacent section; 2 or more: on the next clear one)."""

    unit: str
    turn: int
    section: str
    delays: int


RollPurpose = Literal["crt_switch", "paradrop"]


class RollDue(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A die the German must roll (``Roll``) before anything else: the CRT switch at the start
    of a Game-Turn from GT6 (AO-10.3a), or the survival of the paratroop unit dropped on
    ``hex`` (AO-15.b)."""

    purpose: RollPurpose
    hex: HexId | None = None


Winner = Literal["german", "allied"]
VerdictKind = Literal["immediate", "cumulative", "ratio", "resignation", "agreement"]
"""Which rule decided (AO-16.1-3), or, in a game by email, the players: a resignation or a draw
by agreement (``pbem``; the game record's footer keeps it, :meth:`rules.Game.replay`)."""


class Verdict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The end of the game (AO-16.1-3): winner (None for a draw), which rule decided, VP and a
    sentence (see :mod:`rules.ao.victory`)."""

    winner: Winner | None
    kind: VerdictKind
    german_vp: int
    allied_vp: int
    reason: str


def _unit_id(u: UnitState) -> str:
    return u.id


class GameState(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole changing state of a game. Units are sorted by id, one row per counter."""

    scenario: int
    turn: int
    side: Side
    """The phasing player (during set-up: the side deploying)."""
    phase: Phase
    units: tuple[UnitState, ...]
    interdicted: Interdiction = Interdiction()
    vp: VictoryPoints = VictoryPoints()
    german_crt: Crt = "initial"
    dice_drawn: int = msgspec.field(default=0, name="dice")
    """Position in the dice stream: the number of dice drawn so far (encoded ``dice``)."""
    combat: CombatState = CombatState()
    delayed: tuple[Delay, ...] = ()
    """Reinforcements delayed by blocked sections (AO-14.1b), sorted by unit."""
    wb_released: bool = False
    """The German has had 25 VP at a tabulation: West-bank units may cross the Meuse for the
    rest of the game (AO-14.3C)."""
    result: Verdict | None = None
    """The verdict once the game is over (AO-16.1-3); set with ``phase == "game_over"``."""
    roll: RollDue | None = None
    """A die due before any other command (``Roll``): the CRT switch, the paradrop."""

    def unit(self, unit_id: str) -> UnitState:
        """The state of unit ``unit_id``; KeyError when the state has no such unit."""
        u = self.find(unit_id)
        if u is None:
            raise KeyError(unit_id)
        return u

    def find(self, unit_id: str) -> UnitState | None:
        """The state of unit ``unit_id`` or None: a binary search of the rows (sorted by id),
        then a scan when a row is out of order (a position written by hand)."""
        units = self.units
        i = bisect.bisect_left(units, unit_id, key=_unit_id)
        if i < len(units) and units[i].id == unit_id:
            return units[i]
        for u in units:
            if u.id == unit_id:
                return u
        return None

    def at(self, hex_id: HexId) -> tuple[UnitState, ...]:
        """Units in play in ``hex_id`` (sorted by id)."""
        return tuple(u for u in self.units if u.hex == hex_id and u.status == "on_map")

    def replace_units(self, changed: Iterable[UnitState]) -> GameState:
        """A copy with the given unit rows replaced (matched by id)."""
        rows = list(self.units)
        replaced = False
        for u in changed:
            # the rows are sorted by id: a binary search, then a scan for a row out of order
            i = bisect.bisect_left(rows, u.id, key=_unit_id)
            if not (i < len(rows) and rows[i].id == u.id):
                i = next((k for k, r in enumerate(rows) if r.id == u.id), -1)
                if i < 0:
                    continue  # no such row: nothing to replace
            rows[i] = u
            replaced = True
        if not replaced:
            return self
        return msgspec.structs.replace(self, units=tuple(rows))


_ENCODER: Final = msgspec.json.Encoder(order="deterministic")


def canonical_bytes(state: GameState) -> bytes:
    """The canonical encoding: compact msgspec JSON, fields in declaration order, defaults of
    unit rows omitted, units in id order (the state keeps them sorted)."""
    return _ENCODER.encode(state)


def state_hash(state: GameState) -> str:
    """SHA-256 hex digest of :func:`canonical_bytes` (stable across processes and runs)."""
    return hashlib.sha256(canonical_bytes(state)).hexdigest()


# -- the static part of a game ----------------------------------------------------------------


class Board:
    """The fixed part of a game. Immutable by convention; built once and shared.

    ``Board(game_map, units, arrival_turn=None)`` is a synthetic board (tests); a scenario's
    board (:func:`scenarios.load_board`) also carries the keyword-only fields. Rule modules keep
    derived tables (movement costs, road links, interdiction reach) in :attr:`cache`, keyed by
    their own names, through :meth:`derived` (built from the board alone) and :meth:`for_state`
    (the latest state's); no scenario data goes there.

    ``level`` is the level of play against the computer the board is set up for
    (:mod:`rules.ao.levels`: its schedules are in ``arrivals``, its VP handicap counted by
    :mod:`rules.ao.victory`); None for the scenario as written. ``variant`` builds the same
    scenario's board at another level (given by :func:`scenarios.load_board`; None on a
    synthetic board): :meth:`at_level`.
    """

    __slots__ = (
        "arrival_turn",
        "arrivals",
        "cache",
        "defs",
        "game_map",
        "level",
        "lines",
        "scenario",
        "schedule",
        "setup",
        "variant",
    )

    game_map: GameMap
    defs: dict[str, UnitDef]
    """The counters in the game, by id (sorted)."""
    arrival_turn: dict[str, int]
    """Reinforcement -> the Game-Turn it is due (AO-14.1A, AO-17.d)."""
    scenario: ScenarioSpec | None
    """The scenario's row of the table (AO-18.a); None on a synthetic board, where AO-17
    does not apply."""
    arrivals: tuple[Arrival, ...]
    """The reinforcement schedule (AO-17.d), sorted by (turn, section, unit)."""
    schedule: dict[str, tuple[int, Section]]
    """The same by unit: unit id -> (Game-Turn, entry section)."""
    setup: dict[str, HexId]
    """Unit id -> hex of the starting placement (the historical set-up, AO-17.a)."""
    lines: dict[str, Line]
    """Set-up unit -> the line it stands on for the free set-ups (AO-17.b, AO-17.c)."""
    level: Level | None
    """The level of play the board is set up for (:mod:`rules.ao.levels`), None: as written."""
    variant: Callable[[Level | None], Board] | None
    """Builds this scenario's board at a level (None: the board has no levels)."""
    cache: dict[str, object]

    def __init__(
        self,
        game_map: GameMap,
        units: Iterable[UnitDef],
        arrival_turn: Mapping[str, int] | None = None,
        *,
        scenario: ScenarioSpec | None = None,
        arrivals: Iterable[Arrival] = (),
        setup: Mapping[str, HexId] | None = None,
        lines: Mapping[str, Line] | None = None,
        level: Level | None = None,
        variant: Callable[[Level | None], Board] | None = None,
    ) -> None:
        self.game_map = game_map
        self.defs = {}
        for d in sorted(units, key=lambda d: d.id):
            if d.id in self.defs:
                raise ValueError(f"unit id {d.id!r} is defined twice")
            self.defs[d.id] = d
        self.scenario = scenario
        self.arrivals = tuple(sorted(arrivals, key=lambda a: (a.turn, a.section, a.unit)))
        self.schedule = {a.unit: (a.turn, a.section) for a in self.arrivals}
        if len(self.schedule) != len(self.arrivals):
            raise ValueError("a unit arrives twice in the schedule")
        turns = (
            arrival_turn if arrival_turn is not None else {a.unit: a.turn for a in self.arrivals}
        )
        self.arrival_turn = dict(sorted(turns.items()))
        self.setup = dict(sorted((setup or {}).items()))
        self.lines = dict(sorted((lines or {}).items()))
        self.level = level
        self.variant = variant
        self.cache = {}

    def at_level(self, level: Level | None) -> Board:
        """This scenario's board at ``level`` (None: as written): this board when it is set up
        for it already, else a new one (:attr:`variant`). ``ValueError`` when the board has no
        levels (a synthetic board) or the level is not for its scenario."""
        if level == self.level:
            return self
        if self.variant is None:
            raise ValueError("this board has no levels of play")
        return self.variant(level)

    def unit_def(self, unit_id: str) -> UnitDef:
        return self.defs[unit_id]

    def derived(self, key: str, build: Callable[[Board], _T]) -> _T:
        """The table ``key`` derived from this board: ``build(board)`` on first use, then kept
        in :attr:`cache` (None too)."""
        if key in self.cache:
            return cast(_T, self.cache[key])
        value = build(self)
        self.cache[key] = value
        return value

    def for_state(self, key: str, state: GameState, build: Callable[[Board, GameState], _T]) -> _T:
        """``build(board, state)``, kept in :attr:`cache` for the latest ``state`` asked (the
        same object): several rules asking of one state share one computation."""
        hit = self.cache.get(key)
        if isinstance(hit, tuple) and hit[0] is state:
            return cast(_T, hit[1])
        value = build(self, state)
        self.cache[key] = (state, value)
        return value


def initial_state(
    board: Board, scenario: int | None = None, setup: Mapping[str, HexId] | None = None
) -> GameState:
    """The state before play: units of the set-up on their hexes, every other unit of the
    board not yet arrived; the Allied player deploys first (AO-4.2a). ``scenario`` and
    ``setup`` default to the board's (``board.scenario.number``, 0 on a synthetic board, and
    ``board.setup``)."""
    if scenario is None:
        scenario = board.scenario.number if board.scenario is not None else 0
    if setup is None:
        setup = board.setup
    rows: list[UnitState] = []
    for uid in sorted(board.defs):
        h = setup.get(uid)
        if h is not None:
            rows.append(UnitState(id=uid, hex=h))
        else:
            rows.append(UnitState(id=uid, status="not_arrived"))
    unknown = sorted(set(setup) - set(board.defs))
    if unknown:
        raise ValueError(f"set-up names units that are not in the scenario: {unknown}")
    return GameState(
        scenario=scenario, turn=1, side="allied", phase="setup_allied", units=tuple(rows)
    )
