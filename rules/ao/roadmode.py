"""Road Mode (AO-6): when a unit may change mode, what it costs, how fast it goes, and the
road-column spacing rule.

* Non-mechanized units enter, leave or move in Road Mode only in the Initial Movement Phase
  (AO-6.2A); mechanized units also in the Mechanized Movement Phase when they were not in the
  preceding combat (AO-6.2B, which the movement eligibility rule AO-5.2K already ensures).
* Entering or leaving costs 3 MP (non-mech) / 6 MP (mech), on a road hex (AO-6.3C).
* In Road Mode a unit moves only through road or bridge hexsides - a river only at a bridge
  (never an interdicted one) or at a ford the road crosses, paying the ford's extra MP as in
  normal mode (AO-11.b, AO-11.j) - into road hexes, never into a West Wall hex (AO-6.5F,
  AO-11.h).
* Rate (AO-6.5H): mechanized 2 road hexes per MP, Allied non-mechanized 10, German
  non-mechanized 2. We count road hexes per *stretch* of Road Mode movement: the first hex of a
  stretch costs 1 MP and buys ``rate`` hexes; a stretch ends when the unit leaves Road Mode (and
  with the phase). A stretch of ``n`` hexes thus costs ``ceil(n / rate)`` MP.
* A Road Mode unit may not share its hex with, nor be next to, another friendly unit on a road
  hex connected to its own by a road hexside (AO-6.5G). We apply it whenever either unit is
  in Road Mode, to every hex a moving unit enters.
* Road Mode halves combat strength, fractions up (AO-6.6K); a unit that attacked or was
  attacked in Road Mode leaves it at its next Initial Movement Phase or is eliminated when it
  cannot pay (AO-6.7L*, :func:`rules.ao.sequence.forced_road_mode_exits`).
"""

from __future__ import annotations

from rules.ao.gamemap import GameMap
from rules.ao.state import Phase
from rules.ao.units import UnitDef
from rules.hexgrid import HexId
from rules.rejection import Rejection

UNSUPPLIED_EXIT_MA = 12
"""Errata to AO-6.7L: "any unit with a Movement Allowance of less than twelve cannot leave Road
Mode if it is unsupplied or isolated" (the printed allowance)."""


def can_leave_when_forced(unit: UnitDef, supply: str, mp_left: int) -> bool:
    """Whether ``unit`` can make the forced exit of AO-6.7L*: it pays 3/6 MP out of what it has
    left (6.7L: "If a unit does not have sufficient Movement Points ... it is eliminated"), and
    unsupplied or isolated it also needs a printed Movement Allowance of twelve or more
    (errata)."""
    if supply != "supplied" and unit.movement < UNSUPPLIED_EXIT_MA:
        return False
    return mp_left >= mode_change_cost(unit)


def mode_change_cost(unit: UnitDef) -> int:
    """MP to enter or to leave Road Mode (AO-6.3C)."""
    return 6 if unit.mechanized else 3


def road_rate(unit: UnitDef) -> int:
    """Road hexes per MP in Road Mode (AO-6.5H1-3)."""
    if unit.mechanized:
        return 2
    return 10 if unit.side == "allied" else 2


def road_mode_cost(unit: UnitDef, hexes: int) -> int:
    """MP for one stretch of ``hexes`` road hexes in Road Mode: ``ceil(hexes / rate)``."""
    rate = road_rate(unit)
    return (hexes + rate - 1) // rate


def road_mode_strength(strength: int) -> int:
    """Combat strength in Road Mode: halved, fractions rounded up (AO-6.6K); 9 -> 5."""
    return (strength + 1) // 2


def check_phase(unit: UnitDef, phase: Phase) -> Rejection | None:
    """Whether ``unit`` may enter, leave or move in Road Mode in ``phase`` (AO-6.2A/B)."""
    if phase == "initial_movement":
        return None
    if phase == "mechanized_movement" and unit.mechanized:
        return None
    if not unit.mechanized:
        return Rejection(
            "AO-6.2A",
            f"{unit.id} is not mechanized: it may enter, leave or move in Road Mode only in "
            "the Initial Movement Phase",
        )
    return Rejection(
        "AO-6.2B", f"{unit.id} may use Road Mode only in the Initial and Mechanized Movement Phases"
    )


def road_links(game_map: GameMap, hex_id: HexId) -> tuple[HexId, ...]:
    """Neighbours of ``hex_id`` joined to it by a road hexside (AO-6.5G "connected")."""
    return tuple(n for n in game_map.neighbours(hex_id) if game_map.side(hex_id, n).road)


def road_mode_passable(game_map: GameMap, a: HexId, b: HexId) -> bool:
    """Whether the hexside a-b carries Road Mode movement (ignoring interdiction): a road or a
    bridge hexside (AO-6.5F: "only through Road and/or Bridge hexsides"), crossing a river by a
    bridge or by a ford the road runs through (a road ford hexside is still a road hexside);
    never an unbridged river without a crossing, nor a ford off the road. Road Mode pays the
    ford's extra MP as normal mode does: "They ignore the effect of any other terrain in Road
    hexes" (AO-6.5F) speaks of hexes, and a ford is a hexside (AO-11.b, AO-11.j)."""
    s = game_map.side(a, b)
    if s.crossing == "bridge":
        return True
    if not s.road:
        return False
    return s.river is None or s.crossing == "ford"
