"""Reinforcements (AO-14, AO-4.2b, AO-4.2g, AO-17.d): who is due, where they may enter, delays
when the German blocks a section, staging on one entry hex, and the West-bank restriction.

**The schedule** (AO-17.d) is the board's: ``Board.arrivals``, and by unit
``Board.schedule`` (unit -> Game-Turn and section; :func:`schedule`). Sections:
``NE NW W SW SE`` (Allied map-edge sections), ``WB`` (West-bank units: enter on the West
section, AO-14.3C), ``east`` (German east edge) and ``drop`` (von der Heydte,
:mod:`rules.ao.paradrop`; never "due" here).

**Entry hexes** (AO-14.1A). Allied: the edge hexes of the section with a road hexside to a
hex off the edge ring (on our map exactly the section's road exit hexes, AO-16.B, which are
live hexes, AO-16.H). German: the
east-edge hexes with a road (the road leaves the map through their off-map hexside; the six
German exits of :func:`rules.ao.supply.german_exit_hexes`). Never an enemy-occupied hex or an
enemy-controlled one (AO-14.1b); a friendly unit in the hex negates the enemy ZOC (AO-7.2B,
AO-16.C) - e.g. a dormant Allied unit on an exit hex keeps it open.

**Blocked sections** (AO-14.1b). A section is blocked when it has no entry hex left (the
German occupies or controls all its road exit hexes). Allied units due on a blocked section
are delayed one Game-Turn and then enter on the adjacent section (:data:`FALLBACK`); if that is
blocked too, a second delay, then the next clear section in the same order. The state keeps one
:class:`Delay` per delayed unit (``GameState.delayed``).

**Staging** (AO-14.2B): the n-th unit placed on one entry hex in a Reinforcement Phase loses
``2 * (n - 1)`` road hexes of movement (:func:`staging_penalty`), charged at the start of its
first move as Road Mode hexes already paid for (:func:`staging_start`).

Pure: no I/O, integer arithmetic, sorted iteration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import msgspec

from rules.ao.gamemap import ALLIED_SECTIONS, GameMap
from rules.ao.roadmode import road_rate
from rules.ao.state import Board, Delay, GameState, UnitState
from rules.ao.units import Side, UnitDef
from rules.ao.zoc import enemy_controlled, occupied_by
from rules.hexgrid import HexId
from rules.rejection import Rejection

WEST_BANK: Final = "WB"
DROP: Final = "drop"
EAST: Final = "east"
WB_RELEASE_VP: Final = 25
"""West-bank units may cross the Meuse once the German has 25 or more VP (AO-14.3C)."""
STAGING_ROAD_HEXES: Final = 2
"""Road hexes lost per unit that entered the same hex before in the phase (AO-14.2B)."""

FALLBACK: Final[Mapping[str, tuple[str, ...]]] = {
    "NE": ("NW", "W", "SW", "SE"),
    "NW": ("W", "SW", "SE", "NE"),
    "W": ("NW", "NE", "SW", "SE"),
    "SW": ("W", "NW", "NE", "SE"),
    "SE": ("SW", "W", "NW", "NE"),
}
"""Where delayed Allied reinforcements go (AO-14.1b): the first entry is "the adjacent
section" (first delay); after a second delay they enter on the first clear section of the rest,
and failing all of them on their own section again. The sections run NE, NW, W, SW, SE around
the map; NE and SE have one neighbour each; for NW and SW we turn toward W (the rear, far
from the German east edge), and W turns north to NW (the Namur-Brussels road, the British
approach); "the next clear section" continues in the same direction and wraps round."""


# -- the schedule -------------------------------------------------------------------------------


def schedule(board: Board) -> Mapping[str, tuple[int, str]]:
    """Unit id -> (Game-Turn, section) of every reinforcement of the board (AO-17.d)."""
    return board.schedule


def scheduled_section(board: Board, unit_id: str) -> str | None:
    """The section of ``unit_id`` on the schedule (None for a unit that is not a reinforcement)."""
    entry = schedule(board).get(unit_id)
    return None if entry is None else entry[1]


def is_west_bank(board: Board, unit_id: str) -> bool:
    """A West-bank unit ("WB" on the Reinforcement Chart, AO-14.3C)."""
    return scheduled_section(board, unit_id) == WEST_BANK


def entry_section_of(section: str) -> str:
    """Where a schedule section enters: WB units on the West section (AO-14.3C)."""
    return "W" if section == WEST_BANK else section


# -- entry hexes --------------------------------------------------------------------------------


def _road_edge_hexes(game_map: GameMap, section: str) -> tuple[HexId, ...]:
    """Edge hexes of ``section`` with a road hexside to a hex of the live map (for ``east``:
    the east-edge road hexes, whose road leaves through the off-map hexside)."""
    out: list[HexId] = []
    for h in game_map:
        if game_map.hex(h).edge != section:
            continue
        for n in game_map.neighbours(h):
            if game_map.side(h, n).road and game_map.allied_section(n) is None:
                out.append(h)
                break
    return tuple(out)


def road_entry_hexes(board: Board, section: str) -> tuple[HexId, ...]:
    """The entry hexes of ``section`` whoever holds them (AO-14.1A), sorted; cached."""
    return board.game_map.derived(
        f"reinforcements.entry.{section}",
        lambda m: _road_edge_hexes(m, entry_section_of(section)),
    )


def _closed_to(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """Hexes enemy-occupied or enemy-controlled for ``side`` (once per state)."""
    enemy: Side = "allied" if side == "german" else "german"
    return board.for_state(
        f"reinforcements.closed.{side}",
        state,
        lambda b, s: occupied_by(b, s, enemy) | enemy_controlled(b, s, side),
    )


def entry_hexes(board: Board, state: GameState, side: Side, section: str) -> tuple[HexId, ...]:
    """Where a ``side`` reinforcement of ``section`` may be placed now (AO-14.1A, AO-14.1b):
    the section's entry hexes that are neither enemy-occupied nor enemy-controlled (a friendly
    unit in the hex negates enemy control, AO-7.2B). Sorted."""
    if (side == "german") != (section == EAST):
        return ()
    closed = _closed_to(board, state, side)
    return tuple(h for h in road_entry_hexes(board, section) if h not in closed)


def blocked(board: Board, state: GameState, section: str) -> bool:
    """The German occupies or controls every road exit hex of ``section`` (AO-14.1b); for
    ``east``, the Allies every German entry hex."""
    side: Side = "german" if section == EAST else "allied"
    return not entry_hexes(board, state, side, section)


# -- who is due -----------------------------------------------------------------------------------


def _delays(state: GameState) -> Mapping[str, Delay]:
    return {d.unit: d for d in state.delayed}


def _section_after(board: Board, state: GameState, origin: str, delays: int) -> str | None:
    """Where a reinforcement due on ``origin`` enters after ``delays`` lost Game-Turns, or None
    when it must wait (AO-14.1b)."""
    if origin == EAST:
        return EAST if not blocked(board, state, EAST) else None
    if delays == 0:
        order: tuple[str, ...] = (origin,)
    elif delays == 1:
        order = (FALLBACK[origin][0],)
    else:
        order = (*FALLBACK[origin][1:], origin, FALLBACK[origin][0])
    for s in order:
        if not blocked(board, state, s):
            return s
    return None


def _pending(
    board: Board, state: GameState, side: Side, turn: int, delays: Mapping[str, Delay]
) -> list[tuple[str, str, int]]:
    """(unit, origin section, delays) of every ``side`` reinforcement that may enter on
    ``turn``: not arrived, scheduled on ``turn`` or before, and not delayed beyond ``turn``."""
    if side == "allied" and turn == 1:
        return []  # AO-4.2g
    out: list[tuple[str, str, int]] = []
    sched = schedule(board)
    for u in state.units:
        if u.status != "not_arrived" or board.defs[u.id].side != side:
            continue
        entry = sched.get(u.id)
        if entry is None or entry[1] == DROP:
            continue
        d = delays.get(u.id)
        if d is not None:
            if d.turn <= turn:
                out.append((u.id, d.section, d.delays))
        elif entry[0] <= turn:
            out.append((u.id, entry_section_of(entry[1]), 0))
    return out


def due(board: Board, state: GameState, side: Side, turn: int) -> tuple[tuple[str, str], ...]:
    """``(unit, section)`` of every ``side`` reinforcement that enters on ``turn`` and where
    (AO-14.1A, AO-14.1b, AO-17.d), sorted by unit: scheduled on ``turn`` or delayed to it, not
    yet placed, with a clear section. Units whose section is blocked are missing here: they are
    recorded by :func:`delays_for_phase`. Every unit due is placed before the Reinforcement
    Phase ends (AO-4.1b, AO-14.1A; :func:`rules.ao.sequence.reinforcement_end_check`).
    No Allied reinforcements on Game-Turn 1 (AO-4.2g); von der Heydte drops (AO-15.a)."""
    out: list[tuple[str, str]] = []
    for uid, origin, n in _pending(board, state, side, turn, _delays(state)):
        s = _section_after(board, state, origin, n)
        if s is not None:
            out.append((uid, s))
    return tuple(sorted(out))


def delays_for_phase(board: Board, state: GameState, side: Side, turn: int) -> tuple[Delay, ...]:
    """The new ``GameState.delayed`` at the start of ``side``'s Reinforcement Phase of ``turn``:
    every record of a unit not due yet is kept; every unit that may enter now but finds its
    section (and fallbacks) blocked gets a record for ``turn + 1`` with one more delay; units
    that may enter now keep their record until placed (:func:`due` reads it to send them to the
    fallback section; the engine drops it on placement). Sorted by unit."""
    delays = dict(_delays(state))
    for uid, origin, n in _pending(board, state, side, turn, delays):
        if _section_after(board, state, origin, n) is None:
            delays[uid] = Delay(unit=uid, turn=turn + 1, section=origin, delays=n + 1)
    return tuple(delays[u] for u in sorted(delays))


def newly_delayed(before: Iterable[Delay], after: Iterable[Delay]) -> tuple[Delay, ...]:
    """Records of ``after`` that are not in ``before`` (for ``reinforcement_delayed`` events)."""
    old = set(before)
    return tuple(d for d in after if d not in old)


# -- placement -----------------------------------------------------------------------------


def check_entry(board: Board, state: GameState, unit_id: str, hex_id: HexId) -> Rejection | None:
    """Whether ``unit_id`` may be placed on ``hex_id`` now (AO-14.1A, AO-14.1b, AO-4.2g,
    AO-17.d). Stacking and road-column spacing do not apply to a unit staging onto the map
    (AO-8.3F on Allied edge hexes; AO-14.2B on the German east edge)."""
    d = board.defs.get(unit_id)
    us = state.find(unit_id)
    if d is None or us is None:
        return Rejection("AO-17.d", f"there is no unit {unit_id!r} in this game")
    if state.phase != "reinforcement" or state.side != d.side:
        return Rejection(
            "AO-14.1A",
            f"{unit_id} is placed only in the {d.side} Reinforcement Phase "
            f"(now: {state.side} {state.phase})",
        )
    if d.side == "allied" and state.turn == 1:
        return Rejection("AO-4.2g", "there are no Allied reinforcements on Game-Turn 1")
    entry = schedule(board).get(unit_id)
    if entry is None:
        return Rejection("AO-17.d", f"{unit_id} is not a reinforcement")
    if entry[1] == DROP:
        return Rejection("AO-15.a", f"{unit_id} enters by paradrop, not by the map edge")
    if us.status != "not_arrived":
        return Rejection("AO-14.1A", f"{unit_id} has already entered the game ({us.status})")
    rec = _delays(state).get(unit_id)
    if rec is not None and rec.turn > state.turn:
        return Rejection(
            "AO-14.1b",
            f"{unit_id} is delayed: its section is blocked; it enters on Game-Turn {rec.turn}",
        )
    if rec is None and entry[0] > state.turn:
        return Rejection("AO-17.d", f"{unit_id} is due on Game-Turn {entry[0]}, not {state.turn}")
    sections = dict(due(board, state, d.side, state.turn))
    section = sections.get(unit_id)
    if section is None:
        return Rejection(
            "AO-14.1b",
            f"every road exit hex of {unit_id}'s section is held by the enemy: it is delayed",
        )
    if hex_id in entry_hexes(board, state, d.side, section):
        return None
    if hex_id in road_entry_hexes(board, section):
        return Rejection(
            "AO-14.1b",
            f"{hex_id} is enemy-occupied or enemy-controlled: no reinforcement enters there",
        )
    where = "the East edge" if section == EAST else f"the {section} section"
    return Rejection(
        "AO-14.1A",
        f"{hex_id} is not an entry hex of {where} (map-edge hexes next to a road hexside: "
        f"{', '.join(road_entry_hexes(board, section)) or 'none'})",
    )


def placed(state: GameState, unit_id: str, hex_id: HexId) -> UnitState:
    """The unit's row once placed: on the map, in Road Mode (AO-14.1A), supplied, not moved."""
    return msgspec.structs.replace(
        state.unit(unit_id), hex=hex_id, status="on_map", road_mode=True, moved=False, mp_spent=0
    )


def staging_penalty(entries_so_far_at_hex: int) -> int:
    """Road hexes of movement lost by a unit placed on an entry hex on which
    ``entries_so_far_at_hex`` units were placed before it in the same phase (AO-14.2B)."""
    return STAGING_ROAD_HEXES * max(0, entries_so_far_at_hex)


def staging_start(unit: UnitDef, lost_road_hexes: int) -> tuple[int, int]:
    """``(mp_spent, credit)`` at the start of the unit's first move after entering: the lost
    road hexes are paid as the first hexes of its Road Mode stretch (AO-6.5H counts road hexes
    per MP), so they cost ``ceil(lost / rate)`` MP and leave the rest of that MP's hexes as
    credit. E.g. a mechanized unit (2 per MP) losing 2 hexes starts with 1 MP spent and no
    credit; an Allied infantry regiment (10 per MP) losing 4 starts with 1 MP spent and 6
    road hexes of credit, which it loses if it leaves Road Mode."""
    if lost_road_hexes <= 0:
        return 0, 0
    rate = road_rate(unit)
    mp = (lost_road_hexes + rate - 1) // rate
    return mp, mp * rate - lost_road_hexes


# -- the West-bank units ------------------------------------------------------------------------


def west_bank_released(state: GameState) -> bool:
    """The West-bank units may cross the Meuse (AO-14.3C): the German has 25 VP now (his
    running total: last tabulation plus kills since, which score at once) or reached them
    before (``GameState.wb_released``, for good)."""
    return state.wb_released or state.vp.german >= WB_RELEASE_VP


def is_meuse_hexside(game_map: GameMap, a: HexId, b: HexId) -> bool:
    return game_map.side(a, b).river == "Meuse"


def meuse_crossing_forbidden(
    board: Board,
    state: GameState,
    unit_id: str,
    from_hex: HexId,
    to_hex: HexId,
    *,
    released: bool | None = None,
) -> Rejection | None:
    """A West-bank unit may not cross a Meuse hexside, in either direction, until the German
    has 25 VP (AO-14.3C, :func:`west_bank_released` unless ``released`` overrides it).
    Attacks across the river are not moves and are allowed; an advance after combat across it
    is a crossing."""
    if not is_meuse_hexside(board.game_map, from_hex, to_hex):
        return None
    if not is_west_bank(board, unit_id):
        return None
    ok = west_bank_released(state) if released is None else released
    if ok:
        return None
    return Rejection(
        "AO-14.3C",
        f"{unit_id} is a West-bank unit: it may not cross the Meuse ({from_hex}-{to_hex}) "
        f"until the German has {WB_RELEASE_VP} VP (now {state.vp.german})",
    )


def west_bank_hexes(board: Board) -> frozenset[HexId] | None:
    """The hexes west of the Meuse: reached from the West section's edge hexes without crossing
    a Meuse hexside. None on a map where the Meuse separates nothing from the West section (no
    Meuse, or one the flood goes round)."""

    def build(b: Board) -> frozenset[HexId] | None:
        m = b.game_map
        seen = {h for h in m if m.hex(h).edge == "W"}
        todo = sorted(seen)
        while todo:
            h = todo.pop()
            for n in m.neighbours(h):
                if n not in seen and not is_meuse_hexside(m, h, n):
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen) if 0 < len(seen) < len(list(m)) else None

    return board.derived("reinforcements.west_bank", build)


def west_bank_target_refused(
    board: Board, state: GameState, unit_id: str, hex_id: HexId
) -> Rejection | None:
    """Until the release, a West-bank unit "may attack Enemy units which cross the Meuse and
    those Enemy units adjacent to it" (AO-14.3C): the defending hex is west of the Meuse
    (:func:`west_bank_hexes`) or has a Meuse hexside. No restriction on a map without banks."""
    if not is_west_bank(board, unit_id) or west_bank_released(state):
        return None
    west = west_bank_hexes(board)
    if west is None or hex_id in west:
        return None
    m = board.game_map
    if any(is_meuse_hexside(m, hex_id, n) for n in m.neighbours(hex_id)):
        return None
    return Rejection(
        "AO-14.3C",
        f"{unit_id} is a West-bank unit: until the German has {WB_RELEASE_VP} VP (now "
        f"{state.vp.german}) it may attack only enemy units across the Meuse or next to it, "
        f"not {hex_id}",
    )


__all__ = [
    "ALLIED_SECTIONS",
    "FALLBACK",
    "Delay",
    "blocked",
    "check_entry",
    "delays_for_phase",
    "due",
    "entry_hexes",
    "meuse_crossing_forbidden",
    "placed",
    "schedule",
    "staging_penalty",
    "staging_start",
    "west_bank_hexes",
    "west_bank_target_refused",
]
