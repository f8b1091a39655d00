"""Free set-up rules (AO-17.b German, AO-17.c Allied), the engine's set-up checks, and the
validator of a whole set-up.

AO-17.b/c: the player first places his units as in the historical set-up, then "rearranges
those units in the front line in any fashion he desires so long as these units remain on the
front line and so long as he does not stack these units", and those "behind the front line
... so long as these units do not enter the front line and he does not stack them".

On our map (see :mod:`rules.ao.start_line`):

- the **front-line units** of a side are the units its historical set-up places on the front
  line (``line = "front"`` in ``scenarios/ardennes/setup.toml``, or a town-pinned unit whose
  town is a front-line hex; ``Board.lines``, filled by ``scenarios.load_board``); every other
  set-up unit is a **rear unit**;
- the **front line** of a side is its own hexes with a start-line hexside; **behind the front
  line** is the rest of its own side; neither holds impassable hexes (AO-11.g) or Allied Map
  Edge hexes (AO-5.3L).

The rules also imply: exactly the side's set-up units are placed (no reinforcements, no enemy
units, von der Heydte only by his Game-Turn 2 drop, AO-15.a); each on its own side of the start
line; one unit a hex ("does not stack", which also keeps German infantry divisions alone,
AO-8.2C). A side whose scenario calls for the historical set-up (AO-17.a) has no choice at all.

Two entry points share one reading:

- :func:`validate_free_setup` checks a whole placement (unit id -> hex) on a scenario's board;
- :func:`check_setup_place` is the engine's check of one ``Place`` during set-up (the
  rearranging is done one unit at a time, one unit a hex at every step), :func:`setup_hexes`
  the hexes it accepts for a unit (what a UI lights), and :func:`setup_end_check` the
  engine's last check of the deploying side's whole set-up when its set-up step ends.

The engine applies AO-17 on a board whose map has a start line that splits it in two and
that has a scenario (``Board.scenario``, with its set-up kinds, AO-18.a); other boards (the
small test maps of ``tests/kit/engine.py``) keep only the general checks: the deploying side's
own units, on the map, not impassable, not an Allied Map Edge hex, not with enemy units, the
stacking limit (AO-8.0).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Final

from rules.ao import reinforcements, stacking
from rules.ao.gamemap import GameMap
from rules.ao.scenario import SetupKind
from rules.ao.start_line import front_line, own_side, rear_area, start_line_problems
from rules.ao.state import Board, GameState, Phase, UnitState
from rules.ao.units import Side, UnitDef
from rules.hexgrid import HexId, HexIdError, parse
from rules.rejection import Rejection

FREE_SETUP_CASE: dict[Side, str] = {"german": "AO-17.b", "allied": "AO-17.c"}
SIDE_NAME: dict[Side, str] = {"german": "German", "allied": "Allied"}
HISTORICAL_CASE: Final = "AO-17.a"
SETUP_PHASES: Final[tuple[Phase, ...]] = ("setup_allied", "setup_german")
"""The set-up steps (AO-4.2a): the Allied player deploys first, then the German."""

AREAS_KEY: Final = "setup_rules.areas"
"""``Board.cache`` key of the board's :class:`SetupAreas` (None: no start line)."""


# -- the validator of a whole set-up ----------------------------------------------------------


def _problems(
    *,
    number: int,
    side: Side,
    kind: str,
    units: Mapping[str, UnitDef],
    at_start: Set[str],
    historical: Mapping[str, HexId],
    front_units: Set[str],
    placement: Mapping[str, HexId],
    gm: GameMap,
) -> list[Rejection]:
    """Every problem with ``side``'s ``placement``, each a :class:`Rejection` naming its case.

    ``units``: every unit of the game; ``at_start``: the units that set up on the map (of both
    sides); ``historical``: their historical hexes; ``front_units``: the front-line units."""
    case = FREE_SETUP_CASE[side]
    name = SIDE_NAME[side]
    mine = sorted(uid for uid in at_start if uid in units and units[uid].side == side)
    front = front_line(gm, side)
    territory = own_side(gm, side)
    problems: list[Rejection] = []

    def label(uid: str) -> str:
        u = units.get(uid)
        return u.designation if u is not None else uid

    if kind == "historical":
        for uid in sorted(placement):
            want = historical.get(uid)
            if want is not None and units[uid].side == side and placement[uid] != want:
                problems.append(
                    Rejection(
                        HISTORICAL_CASE,
                        f"scenario {number} uses the historical {name} set-up: "
                        f"{label(uid)} sets up in hex {want}, not {placement[uid]}",
                    )
                )

    by_hex: dict[HexId, list[str]] = defaultdict(list)
    for uid in sorted(placement):
        hex_id = placement[uid]
        u = units.get(uid)
        if u is None:
            problems.append(Rejection(case, f"{uid} is not a unit of scenario {number}"))
            continue
        if u.side != side:
            other = SIDE_NAME[u.side]
            article = "an" if other == "Allied" else "a"
            problems.append(
                Rejection(
                    case,
                    f"{label(uid)} is {article} {other} unit; the {name} player places "
                    f"only {name} units",
                )
            )
            continue
        if uid not in at_start:
            problems.append(
                Rejection(
                    case,
                    f"{label(uid)} does not set up on the map; it enters as a reinforcement",
                )
            )
            continue
        if hex_id not in gm:
            problems.append(Rejection(case, f"{label(uid)} is placed off the map (hex {hex_id})"))
            continue
        by_hex[hex_id].append(uid)
        if gm.hex(hex_id).terrain == "impassable":
            problems.append(
                Rejection("AO-11.g", f"{label(uid)} may not set up in impassable hex {hex_id}")
            )
            continue
        if gm.is_allied_edge(hex_id):
            edge_case = "AO-5.3L" if u.side == "german" else "AO-5.3M"  # as check_setup_place
            problems.append(
                Rejection(edge_case, f"{label(uid)} may not set up in Allied map-edge hex {hex_id}")
            )
            continue
        if hex_id not in territory:
            problems.append(
                Rejection(
                    case,
                    f"{label(uid)} must set up on the {name} side of the start line (hex {hex_id})",
                )
            )
            continue
        if uid in front_units and hex_id not in front:
            problems.append(
                Rejection(
                    case,
                    f"{label(uid)} is a front-line unit and must stay on the front line "
                    f"(hex {hex_id})",
                )
            )
        elif uid not in front_units and hex_id in front:
            problems.append(
                Rejection(
                    case,
                    f"{label(uid)} is a rear unit and may not be placed on the front line "
                    f"(hex {hex_id})",
                )
            )

    for uid in mine:
        if uid not in placement:
            problems.append(Rejection(case, f"{label(uid)} is not placed"))

    for hex_id in sorted(by_hex):
        here = by_hex[hex_id]
        if len(here) > 1:
            names = ", ".join(label(u) for u in here)
            problems.append(
                Rejection(
                    case,
                    f"{names} are stacked in hex {hex_id}; a free set-up allows one unit a hex",
                )
            )
    return problems


def validate_free_setup(board: Board, side: Side, placement: Mapping[str, HexId]) -> list[str]:
    """Every problem with ``side``'s set-up ``placement`` (unit id -> hex) in the scenario of
    ``board`` (``scenarios.load_board``), each naming its case.

    Empty when the placement is a legal free set-up (or, for a side whose scenario uses the
    historical set-up, when it is exactly the historical one).
    """
    if board.scenario is None:
        raise ValueError("the board has no scenario: AO-17 applies to the ten scenarios")
    problems = _problems(
        number=board.scenario.number,
        side=side,
        kind=board.scenario.setup_kind(side),
        units=board.defs,
        at_start=frozenset(board.setup),
        historical=board.setup,
        front_units=front_line_units(board),
        placement=placement,
        gm=board.game_map,
    )
    return [p.message for p in problems]


def front_line_units(board: Board) -> frozenset[str]:
    """The board's front-line units (``Board.lines``, AO-17.b/c); the other set-up units
    stand behind the front line."""
    return frozenset(u for u, line in board.lines.items() if line == "front")


# -- the engine's set-up checks ---------------------------------------------------------------


@dataclass(frozen=True)
class SetupAreas:
    """What AO-17 needs of one board, computed once and kept in ``board.cache``."""

    front: Mapping[Side, frozenset[HexId]]
    """Each side's front line (:func:`rules.ao.start_line.front_line`)."""
    rear: Mapping[Side, frozenset[HexId]]
    """Each side's hexes behind the front line (:func:`rules.ao.start_line.rear_area`)."""
    territory: Mapping[Side, frozenset[HexId]]
    """Each side's side of the start line (:func:`rules.ao.start_line.own_side`)."""
    front_units: frozenset[str]
    """The board's front-line set-up units (``Board.lines``)."""
    setup_units: frozenset[str]
    """The board's units that set up on the map (every unit that is not a reinforcement)."""
    historical: Mapping[str, HexId]
    """Their historical hexes on this map (AO-17.a)."""


def setup_areas(board: Board) -> SetupAreas | None:
    """The board's :class:`SetupAreas`, or None when its map has no start line splitting it
    in two (then AO-17 does not apply); computed on first use and cached in the board."""
    return board.derived(AREAS_KEY, _setup_areas)


def _setup_areas(board: Board) -> SetupAreas | None:
    gm = board.game_map
    split = any(s.start_line for s in gm.sides()) and not start_line_problems(gm)
    if not split:
        return None
    sides: tuple[Side, Side] = ("german", "allied")
    setup_units = frozenset(u for u in board.defs if u not in board.arrival_turn)
    return SetupAreas(
        front={s: front_line(gm, s) for s in sides},
        rear={s: rear_area(gm, s) for s in sides},
        territory={s: own_side(gm, s) for s in sides},
        front_units=front_line_units(board) & setup_units,
        setup_units=setup_units,
        historical={u: h for u, h in board.setup.items() if u in setup_units},
    )


def setup_kind(board: Board, state: GameState, side: Side) -> SetupKind | None:
    """``"historical"`` (AO-17.a) or ``"free"`` (AO-17.b/c): how ``side`` sets up in this
    game; None when AO-17 does not apply (a map without a start line, or a board of no
    scenario)."""
    if setup_areas(board) is None or board.scenario is None:
        return None
    return board.scenario.setup_kind(side)


def free_setup(board: Board, state: GameState) -> bool:
    """The deploying side may rearrange its units now (a free set-up step, AO-17.b/c)."""
    return state.phase in SETUP_PHASES and setup_kind(board, state, state.side) == "free"


def _unit_check(board: Board, state: GameState, unit: str) -> Rejection | None:
    """Why ``unit`` may not be placed at all in this set-up step, or None."""
    d = board.defs.get(unit)
    us = state.find(unit)
    if d is None or us is None:
        return Rejection("AO-4.2a", f"there is no unit {unit!r} in this game")
    if state.phase not in SETUP_PHASES:
        return Rejection("AO-4.2a", f"units are placed only during set-up (now: {state.phase})")
    if d.side != state.side:
        return Rejection(
            "AO-4.2a",
            f"{unit} is {d.side}: the {state.side} player is deploying "
            "(the Allied player deploys first, then the German)",
        )
    kind = setup_kind(board, state, d.side)
    name = SIDE_NAME[d.side]
    if kind == "historical":
        return Rejection(
            HISTORICAL_CASE,
            f"scenario {state.scenario} uses the historical {name} set-up: "
            f"the {name} units may not be rearranged",
        )
    turn = board.arrival_turn.get(unit)
    if kind is not None and turn is not None:
        case = FREE_SETUP_CASE[d.side]
        if reinforcements.scheduled_section(board, unit) == reinforcements.DROP:
            return Rejection(
                case, f"{unit} does not set up: it drops on Game-Turn {turn} (AO-15.a)"
            )
        return Rejection(
            case, f"{unit} does not set up: it enters as a reinforcement on Game-Turn {turn}"
        )
    if us.status == "not_arrived" and turn is not None:
        return Rejection("AO-4.2a", f"{unit} is a reinforcement due on Game-Turn {turn}")
    if us.status not in ("on_map", "not_arrived"):
        return Rejection("AO-4.2a", f"{unit} cannot be placed ({us.status})")
    return None


def _hex_check(
    board: Board,
    state: GameState,
    unit: str,
    hex_id: HexId,
    others: tuple[UnitState, ...],
) -> Rejection | None:
    """Why ``unit`` (placeable, :func:`_unit_check`) may not be placed in ``hex_id``, whose
    units in play are ``others`` (``state.at(hex_id)``), or None."""
    d = board.defs[unit]
    m = board.game_map
    try:
        parse(hex_id)
    except HexIdError as exc:
        return Rejection("AO-4.2a", str(exc))
    if hex_id not in m:
        return Rejection("AO-4.2a", f"{hex_id} is not on the map")
    if m.hex(hex_id).terrain == "impassable":
        return Rejection("AO-11.g", f"{hex_id} is impassable")
    if m.is_allied_edge(hex_id):
        case = "AO-5.3L" if d.side == "german" else "AO-5.3M"
        return Rejection(case, f"{hex_id} is an Allied Map Edge hex")
    if any(board.defs[o.id].side != d.side for o in others):
        return Rejection("AO-5.2F", f"{hex_id} is occupied by enemy units")
    friends = [o.id for o in others if o.id != unit]
    areas = setup_areas(board)
    if areas is None or setup_kind(board, state, d.side) is None:
        return stacking.check_stack(m, d, hex_id, [board.defs[o] for o in friends])
    case = FREE_SETUP_CASE[d.side]
    name = SIDE_NAME[d.side]
    if hex_id not in areas.territory[d.side]:
        return Rejection(
            case,
            f"{unit} must set up on the {name} side of the start line: "
            f"{hex_id} is on the {SIDE_NAME['allied' if d.side == 'german' else 'german']} side",
        )
    if unit in areas.front_units and hex_id not in areas.front[d.side]:
        return Rejection(
            case,
            f"{unit} is a front-line unit: it may only be rearranged along the {name} "
            f"front line, {hex_id} is behind it",
        )
    if unit not in areas.front_units and hex_id in areas.front[d.side]:
        return Rejection(
            case,
            f"{unit} is a rear unit: it may not enter the {name} front line ({hex_id} is on it)",
        )
    if friends:
        return Rejection(
            case,
            f"{hex_id} already holds {', '.join(friends)}: a free set-up allows one unit "
            "a hex (no stacking)",
        )
    return None


def check_setup_place(board: Board, state: GameState, unit: str, hex_id: HexId) -> Rejection | None:
    """Why ``Place(unit, hex_id)`` is refused in this set-up step, or None when it is legal.

    The engine's check (:func:`rules.ao.engine.apply` during ``setup_allied``/``setup_german``):
    the deploying side's own set-up units, never on a historical side (AO-17.a); on a free
    side (AO-17.b/c) a front-line unit along its side's front line, a rear unit behind it, one
    unit a hex; always on the map, not impassable (AO-11.g), not an Allied Map Edge hex
    (AO-5.3L), not with enemy units (AO-5.2F)."""
    bad = _unit_check(board, state, unit)
    if bad is not None:
        return bad
    return _hex_check(board, state, unit, hex_id, state.at(hex_id))


def setup_hexes(board: Board, state: GameState, unit: str) -> frozenset[HexId]:
    """Every hex but its own where ``Place(unit, hex)`` is accepted now: exactly the hexes
    :func:`check_setup_place` passes (empty outside set-up, for another side's unit, and on a
    historical side)."""
    if _unit_check(board, state, unit) is not None:
        return frozenset()
    d = board.defs[unit]
    areas = setup_areas(board)
    if areas is not None and setup_kind(board, state, d.side) is not None:
        pool: Set[HexId] = areas.front[d.side] if unit in areas.front_units else areas.rear[d.side]
    else:
        pool = frozenset(board.game_map)
    at: dict[HexId, list[UnitState]] = defaultdict(list)
    for u in state.units:
        if u.hex is not None and u.status == "on_map":
            at[u.hex].append(u)
    here = state.unit(unit).hex
    return frozenset(
        h
        for h in pool
        if h != here and _hex_check(board, state, unit, h, tuple(at.get(h, ()))) is None
    )


def _not_in_play(state: GameState, unit: str) -> bool:
    us = state.find(unit)
    return us is not None and us.status == "not_in_play"


def setup_end_check(board: Board, state: GameState) -> Rejection | None:
    """The first problem with the deploying side's whole set-up when its set-up step ends
    (:func:`validate_free_setup`'s reading on the board), or None. Never refuses a set-up
    built by accepted ``Place`` commands; it guards hand-built states."""
    if state.phase not in SETUP_PHASES:
        return None
    side = state.side
    kind = setup_kind(board, state, side)
    areas = setup_areas(board)
    if kind is None or areas is None:
        return None
    placement = {
        u.id: u.hex
        for u in state.units
        if u.hex is not None and u.status == "on_map" and board.defs[u.id].side == side
    }
    problems = _problems(
        number=state.scenario,
        side=side,
        kind=kind,
        units=board.defs,
        at_start=frozenset(u for u in areas.setup_units if not _not_in_play(state, u)),
        historical=areas.historical,
        front_units=areas.front_units,
        placement=placement,
        gm=board.game_map,
    )
    return problems[0] if problems else None
