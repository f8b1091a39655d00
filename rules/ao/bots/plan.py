"""The German bot's objective plan (bots v3): which units go for which objective this
player-turn, where they would be in supply, and which road exits they would hold.

Two modes, chosen per German player-turn (:func:`hold_mode`):

* **exploitation** (before Game-Turn :data:`HOLD_FROM`): mechanized units (``UnitDef.mechanized``)
  are sent for the objective towns - Liège (weight 11: it holds two NW exits), Bastogne (the
  SE/SW exits count only with it, AO-16.D), St. Vith, Houffalize and the Meuse bridge towns -
  at most :data:`MAX_EXPLOITERS` of them, each the one that gets there in the fewest turns and
  only if it can within :data:`EXPLOIT_TURNS` turns (a gap: a unit stuck behind the front is
  left to fight). Infantry keeps the v2 behaviour (the shoulders, the kills).
* **holding** (from Game-Turn :data:`HOLD_FROM`, and on Game-Turn 6 when the kills already make
  35 reachable): every road exit worth VP now (an SE/SW exit only while a German unit is in
  Bastogne, AO-16.D) gets the nearest unit, mechanized or not, that can reach it by Game-Turn
  18; Bastogne gets one first. An exit is held at the tabulation by a German unit in supply
  in it or next to it (not in Road Mode), with no Allied unit in it (AO-16.C, AO-16.G).

Everything is hex distance over passable hexes (no terrain cost), computed once per board for
every target (:class:`Targets`, kept by the bot). Supply is approximated once per phase: the
German supply net (:func:`ao.supply_net`) plus three steps through hexes open to German
supply (:func:`supply_zone`). Pure and deterministic: ties go by unit id and hex id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from rules import HexId
from rules.ao import (
    SUPPLY_PATH_HEXES,
    Board,
    GameState,
    supply_net,
)
from rules.ao.bots.fields import distance_field

HOLD_FROM: Final = 12
"""From this Game-Turn on the German plays for the exits he can hold at the end (GT18)."""
IMMEDIATE_TURN: Final = 6
IMMEDIATE_KILLS: Final = 22
"""On Game-Turn 6 the German holds exits when he has already killed this many (35 by the
GT6 tabulation is an immediate win, AO-16.2: about 13 exit VP short)."""
MAX_EXPLOITERS: Final = 5
EXPLOIT_TURNS: Final = 2
"""An exploiter must reach its town within this many turns of its movement allowance."""
TOWN_VALUES: Final[Mapping[str, int]] = {
    # fixed weights, not read from the map: Liège was chosen as its two adjacent NW exits (5 + 6)
    # when the exits totalled 63 VP and kept when they were raised to 80 (the balance figures
    # of docs/selfplay.md are for these weights)
    "Liège": 11,
    "Bastogne": 8,
    "St. Vith": 5,
    "Houffalize": 3,
}
BRIDGE_TOWN_VALUE: Final = 4
EXIT_REACH: Final = 3
"""Holding mode: only exits within this many hexes of the supply zone are targets."""
HOLD_TURNS: Final = 3
"""Holding mode: a unit is sent only to an exit it can reach within this many turns."""
BASTOGNE: Final = "Bastogne"
BASTOGNE_HOLD_VALUE: Final = 9
"""Holding mode: Bastogne is worth this much (it unlocks the SE/SW exits, AO-16.D)."""
BASTOGNE_SECTIONS: Final = frozenset({"SE", "SW"})


class Targets:
    """Per board: the objective hexes, their distance fields, and the exit values."""

    __slots__ = ("bastogne", "bridge_towns", "dist", "exits", "passable", "towns")

    def __init__(self, board: Board) -> None:
        m = board.game_map
        self.passable: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).terrain != "impassable" and not m.is_allied_edge(h)
        )
        self.exits: dict[HexId, tuple[int, bool]] = {
            d.id: (d.exit_vp or 0, d.edge in BASTOGNE_SECTIONS) for d in m.exit_hexes()
        }
        towns = m.towns()
        self.towns: dict[HexId, int] = {towns[n]: v for n, v in TOWN_VALUES.items() if n in towns}
        bridges: set[HexId] = set()
        for s in m.sides():
            if s.river == "Meuse" and s.crossing is not None:
                bridges.update(s.hexes)
        town_hexes = {h for h in m if m.hex(h).town is not None}
        self.bridge_towns: frozenset[HexId] = frozenset(bridges & town_hexes)
        for h in sorted(self.bridge_towns):
            self.towns.setdefault(h, BRIDGE_TOWN_VALUE)
        self.bastogne: HexId | None = towns.get(BASTOGNE)
        self.dist: dict[HexId, dict[HexId, int]] = {}
        for t in sorted(set(self.exits) | set(self.towns)):
            self.dist[t] = distance_field(board.game_map, (t,), self.passable)


def supply_zone(board: Board, state: GameState) -> frozenset[HexId]:
    """Hexes where a German unit would be in supply now (approximately): the German supply
    net and every hex three steps from it through hexes open to German supply (the last hex
    only has to be free of Allied units: the unit itself negates a zone of control there)."""
    net = supply_net(board, state, "german")
    m = board.game_map
    zone: set[HexId] = set(net.net)
    frontier = sorted(net.net)
    enemy = {
        u.hex
        for u in state.units
        if u.hex is not None
        and u.status in ("on_map", "dormant")
        and board.defs[u.id].side == "allied"
    }
    for _ in range(SUPPLY_PATH_HEXES):
        nxt: list[HexId] = []
        for h in frontier:
            for n in m.neighbours(h):
                if n in zone or n in enemy or m.hex(n).terrain == "impassable":
                    continue
                if m.is_allied_edge(n):
                    continue
                zone.add(n)
                if n not in net.closed:
                    nxt.append(n)
        frontier = nxt
    return frozenset(zone)


def bastogne_german(t: Targets, board: Board, state: GameState) -> bool:
    """A German unit is in Bastogne now."""
    if t.bastogne is None:
        return False
    return any(board.defs[u.id].side == "german" for u in state.at(t.bastogne))


def hold_mode(board: Board, state: GameState) -> bool:
    """Play for the exits this player-turn: from :data:`HOLD_FROM`, or on Game-Turn 6 with
    :data:`IMMEDIATE_KILLS` Allied units already eliminated."""
    if state.turn >= HOLD_FROM:
        return True
    if state.turn == IMMEDIATE_TURN:
        kills = sum(
            1 for u in state.units if u.status == "eliminated" and board.defs[u.id].side == "allied"
        )
        return kills >= IMMEDIATE_KILLS
    return False


def exit_values(t: Targets, bastogne: bool) -> dict[HexId, int]:
    """VP of each exit hex worth anything now: SE/SW only with Bastogne (AO-16.D)."""
    out: dict[HexId, int] = {}
    for h, (vp, needs_bastogne) in sorted(t.exits.items()):
        if vp > 0 and (bastogne or not needs_bastogne):
            out[h] = vp
    return out


class Plan:
    """One German player-turn's plan: ``targets`` (unit -> objective hex), ``hold`` (exits
    count), ``zone`` (:func:`supply_zone`), ``exits`` (exit hex -> VP now)."""

    __slots__ = ("exits", "hold", "targets", "zone")

    def __init__(
        self,
        targets: Mapping[str, HexId],
        hold: bool,
        zone: frozenset[HexId],
        exits: Mapping[HexId, int],
    ) -> None:
        self.targets: dict[str, HexId] = dict(targets)
        self.hold = hold
        self.zone = zone
        self.exits: dict[HexId, int] = dict(exits)


def _assign(
    t: Targets,
    board: Board,
    state: GameState,
    goals: Iterable[tuple[int, HexId]],
    units: Iterable[str],
    turns: int,
    limit: int,
) -> dict[str, HexId]:
    """Greedy: each goal, most valuable first, gets the free unit that reaches it in the
    fewest turns (hex distance / movement allowance), if within ``turns`` turns."""
    free = sorted(units)
    out: dict[str, HexId] = {}
    for _value, goal in sorted(goals, key=lambda g: (-g[0], g[1])):
        if len(out) >= limit or not free:
            break
        field = t.dist[goal]
        best: tuple[float, str] | None = None
        for uid in free:
            h = state.unit(uid).hex
            if h is None or h not in field:
                continue
            ma = max(1, board.defs[uid].movement)
            d = field[h]
            if d > ma * turns:
                continue
            key = (d / ma, uid)
            if best is None or key < best:
                best = key
        if best is not None:
            out[best[1]] = goal
            free.remove(best[1])
    return out


def make_plan(t: Targets, board: Board, state: GameState) -> Plan:
    """The German plan for the player-turn of ``state`` (see the module docstring); ``t``:
    the board's :class:`Targets`."""
    hold = hold_mode(board, state)
    zone = supply_zone(board, state)
    bastogne = bastogne_german(t, board, state)
    exits = exit_values(t, bastogne)
    mine = [
        u.id
        for u in state.units
        if u.in_play and u.hex is not None and board.defs[u.id].side == "german"
    ]
    if hold:
        goals: list[tuple[int, HexId]] = [
            (v, h) for h, v in exits.items() if _near_zone(t.dist[h], zone, EXIT_REACH)
        ]
        if t.bastogne is not None and not bastogne:
            goals.append((BASTOGNE_HOLD_VALUE, t.bastogne))
        turns = max(1, min(HOLD_TURNS, 18 - state.turn + 1))
        targets = _assign(t, board, state, goals, mine, turns, len(goals))
    else:
        mech = [u for u in mine if board.defs[u].mechanized]
        infantry = {state.unit(u).hex for u in mine if not board.defs[u].mechanized}
        goals = [(v, h) for h, v in t.towns.items() if h not in infantry]
        targets = _assign(t, board, state, goals, mech, EXPLOIT_TURNS, MAX_EXPLOITERS)
    return Plan(targets, hold, zone, exits)


def _near_zone(field: Mapping[HexId, int], zone: Iterable[HexId], reach: int) -> bool:
    return any(field.get(z, reach + 1) <= reach for z in zone)


def holders(board: Board, state: GameState, exits: Iterable[HexId]) -> dict[HexId, set[str]]:
    """The German units that hold each of ``exits`` now by presence or zone of control (not
    in Road Mode beyond their own hex), supply aside."""
    m = board.game_map
    out: dict[HexId, set[str]] = {}
    for e in exits:
        here: set[str] = set()
        for h in (e, *m.neighbours(e)):
            for u in state.at(h):
                if board.defs[u.id].side == "german" and (h == e or not u.road_mode):
                    here.add(u.id)
        out[e] = here
    return out


def hold_gain(
    board: Board,
    state: GameState,
    plan: Plan,
    held: Mapping[HexId, set[str]],
    uid: str,
    h: HexId,
    road: bool,
) -> int:
    """Exit VP a German ``uid`` ending in ``h`` (in Road Mode when ``road``) would hold that
    no other German unit holds: in the exit or next to it (in normal mode), in the supply
    zone, the exit free of Allied units."""
    if h not in plan.zone:
        return 0
    m = board.game_map
    gain = 0
    for e in (h,) if road else (h, *m.neighbours(h)):
        vp = plan.exits.get(e, 0)
        if vp <= 0 or held.get(e, set()) - {uid}:
            continue
        if any(
            u.hex == e and u.status in ("on_map", "dormant") and board.defs[u.id].side == "allied"
            for u in state.units
        ):
            continue  # an Allied unit in the exit, dormant ones too, negates (AO-16.C)
        gain += vp
    return gain


__all__ = [
    "HOLD_FROM",
    "Plan",
    "Targets",
    "bastogne_german",
    "exit_values",
    "hold_gain",
    "hold_mode",
    "holders",
    "make_plan",
    "supply_zone",
]
