"""Movement (AO-5), with Road Mode (AO-6), zones of control (AO-7), stacking costs (AO-8) and
the movement half of the Terrain Effects Chart (AO-11).

One pair of functions decides a single step of a path - :func:`_enter` a neighbouring hex or
:func:`_change_mode` - and returns the new search node or the rejection naming the rule case
(``None`` when the caller did not ask for the reason). :func:`check_path` folds them over a
given path (via :func:`_step`) and :func:`legal_moves` runs one Dijkstra whose edges are exactly
these calls, so what ``legal_moves`` offers is what ``apply`` accepts, at exactly the offered
cost.

A search node is ``(hex, road_mode, credit, spent, stopped)``:

* ``credit`` is the number of further road hexes already paid for in the current Road Mode
  stretch (AO-6.5H; see :mod:`rules.roadmode`);
* ``spent`` counts MP spent in this phase, starting from the unit's ``mp_spent`` (non-zero only
  after a forced Road Mode exit, AO-6.7L*);
* ``stopped`` is set on entering an enemy-controlled hex: nothing may follow (AO-7.1A).

Costs of entering hex ``b`` from ``a`` (all integers):

* normal mode: 1 MP along a road hexside whatever the hex terrain (AO-11.j), else clear 1 /
  rough 4 mech 2 non-mech (AO-11.a/e), +2 for Allied units entering West Wall (AO-11.h),
  +0 fortified (AO-11.i); then +6/+3 for an unbridged river hexside, +3/+1 for a ford
  (AO-11.b/c), nothing at a bridge (AO-11.d) - hexside costs also apply on a road;
* Road Mode: see :mod:`rules.roadmode` (0 or 1 MP per hex);
* +6/+2 to enter a hex holding friendly units, +6/+2 to leave one (AO-8.1A).

Terrain costs are cumulative (AO-5.1D); a step the unit cannot pay for is illegal (AO-5.2J).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Final

import msgspec

from rules import paradrop, reinforcements, roadmode, stacking
from rules.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE
from rules.gamemap import GameMap
from rules.hexgrid import HexId, Hexside
from rules.rejection import Rejection
from rules.state import Board, GameState, UnitState, other_side, phase_is_lost
from rules.units import Side, UnitDef
from rules.zoc import zone_of

Node = tuple[HexId, bool, int, int, bool]
"""``(hex, road_mode, credit, spent, stopped)``."""


class Reach(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A destination offered by :func:`legal_moves`: the cheapest path and its MP cost."""

    cost: int
    path: tuple[str, ...]
    road_mode: bool
    """The unit's mode on arrival."""


class Route(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A checked path: where it ends, in which mode, what it cost."""

    start: HexId
    end: HexId
    cost: int
    spent: int
    """MP spent in the phase after the move (``cost`` plus what was spent before)."""
    road_mode: bool
    mode_changes: tuple[tuple[int, HexId, bool, int], ...]
    """``(step index, hex, new mode, cost)`` for every Road Mode change on the path."""


# -- static tables (per board) ------------------------------------------------------------------

_MECH_RIVER: Final = 6
_FOOT_RIVER: Final = 3
_MECH_FORD: Final = 3
_FOOT_FORD: Final = 1

_Link = tuple[HexId, tuple[int, int, int, int], bool, Hexside | None]
"""``(neighbour, normal-mode cost by class, road-mode passable, bridge hexside or None)``.

Class index: ``2 * allied + mechanized``.
"""


class _Tables:
    __slots__ = ("edge", "impassable", "links", "meuse", "road_hex", "road_links", "westwall")

    def __init__(self, m: GameMap) -> None:
        self.impassable: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).terrain == "impassable"
        )
        self.edge: frozenset[HexId] = frozenset(h for h in m if m.is_allied_edge(h))
        self.westwall: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).fortification == "westwall"
        )
        self.road_hex: frozenset[HexId] = frozenset(h for h in m if m.is_road_hex(h))
        self.road_links: dict[HexId, tuple[HexId, ...]] = {h: roadmode.road_links(m, h) for h in m}
        self.links: dict[HexId, tuple[_Link, ...]] = {}
        meuse: set[Hexside] = set()
        for a in m:
            out: list[_Link] = []
            for b in m.neighbours(a):
                s = m.side(a, b)
                hb = m.hex(b)
                costs: list[int] = []
                for allied in (False, True):
                    for mech in (False, True):
                        if s.road:
                            c = 1  # AO-11.j: road negates the hex terrain
                        else:
                            c = (4 if mech else 2) if hb.terrain == "rough" else 1
                            if allied and hb.fortification == "westwall":
                                c += 2  # AO-11.h
                        if s.river is not None and s.crossing != "bridge":
                            if s.crossing == "ford":
                                c += _MECH_FORD if mech else _FOOT_FORD  # AO-11.b
                            else:
                                c += _MECH_RIVER if mech else _FOOT_RIVER  # AO-11.c
                        costs.append(c)
                bridge = (min(a, b), max(a, b)) if s.crossing == "bridge" else None
                if s.river == "Meuse":
                    meuse.add((min(a, b), max(a, b)))
                out.append(
                    (
                        b,
                        (costs[0], costs[1], costs[2], costs[3]),
                        roadmode.road_mode_passable(m, a, b),
                        bridge,
                    )
                )
            self.links[a] = tuple(out)
        self.meuse: frozenset[Hexside] = frozenset(meuse)


def _tables(board: Board) -> _Tables:
    t = board.cache.get("movement.tables")
    if not isinstance(t, _Tables):
        t = _Tables(board.game_map)
        board.cache["movement.tables"] = t
    return t


# -- per-state snapshot -------------------------------------------------------------------------


class _Snapshot:
    """Occupancy and zones of control of one state, computed once and shared by all movers.

    ``staging``: hexes holding only reinforcements that have not moved since they were placed,
    on an entry hex (the German east edge; Allied edge hexes are exempt anyway): they are
    exempt from road-column spacing and destacking costs while they are there (AO-14.2B)."""

    __slots__ = ("by_hex", "staging", "state", "zoc")

    def __init__(self, board: Board, state: GameState) -> None:
        self.state = state
        self.by_hex: dict[Side, dict[HexId, tuple[UnitState, ...]]] = {"german": {}, "allied": {}}
        zoc: dict[Side, set[HexId]] = {"german": set(), "allied": set()}
        for u in state.units:
            if u.hex is None or u.status not in ("on_map", "dormant"):
                continue
            side = board.defs[u.id].side
            d = self.by_hex[side]
            d[u.hex] = (*d.get(u.hex, ()), u)
            zoc[side].update(zone_of(board, u))
        self.zoc: dict[Side, frozenset[HexId]] = {s: frozenset(v) for s, v in zoc.items()}
        entry = frozenset(reinforcements.road_entry_hexes(board, reinforcements.EAST))
        self.staging: frozenset[HexId] = frozenset(
            h
            for side in ("german", "allied")
            for h, units in self.by_hex[side].items()
            if h in entry and all(u.staging is not None for u in units)
        )


def _snapshot(board: Board, state: GameState) -> _Snapshot:
    snap = board.cache.get("movement.snapshot")
    if isinstance(snap, _Snapshot) and snap.state is state:
        return snap
    snap = _Snapshot(board, state)
    board.cache["movement.snapshot"] = snap
    return snap


# -- unit eligibility ---------------------------------------------------------------------------


def movement_allowance(unit: UnitDef, us: UnitState) -> int:
    """Printed MA, halved with fractions dropped when unsupplied or isolated (AO-12.6)."""
    return unit.movement // 2 if us.supply != "supplied" else unit.movement


def may_move(board: Board, state: GameState, unit_id: str) -> Rejection | None:
    """Whether ``unit_id`` may start a move now (phase, side, status, once per phase)."""
    d = board.defs.get(unit_id)
    us = state.find(unit_id)
    if d is None or us is None:
        return Rejection("AO-5.1A", f"there is no unit {unit_id!r} in this game")
    if state.phase not in ("initial_movement", "mechanized_movement"):
        return Rejection(
            "AO-4.1b",
            f"units move only in the Initial and Mechanized Movement Phases (now: {state.phase})",
        )
    if phase_is_lost(state.turn, state.phase):
        return Rejection("AO-4.2c", "the Initial Movement Phase of Game-Turn 1 is lost")
    if d.side != state.side:
        return Rejection(
            "AO-5.1A",
            f"{unit_id} is {d.side}: only the phasing player's units move "
            f"({state.side} player-turn)",
        )
    if us.status == "dormant":
        return Rejection(
            "AO-5.3M", f"{unit_id} is dormant on the Allied Map Edge hex {us.hex} and may not move"
        )
    if us.status != "on_map" or us.hex is None:
        return Rejection("AO-5.1A", f"{unit_id} is not on the map ({us.status})")
    if us.moved:
        return Rejection("AO-5.1E", f"{unit_id} has already moved in this phase")
    if paradrop.drop_required(board, state):
        bad = paradrop.check_not_pending(board, state, "any move")
        if bad is not None:
            return bad
    if state.phase == "mechanized_movement":
        case = "AO-4.2f" if state.turn == 1 else "AO-5.2K"
        if not d.mechanized:
            return Rejection(
                case,
                f"{unit_id} is not mechanized: it may not move in the Mechanized Movement Phase",
            )
        if us.in_combat:
            return Rejection(
                case,
                f"{unit_id} took part in the preceding Combat Phase and may not "
                "move in the Mechanized Movement Phase",
            )
    return None


# -- the mover: everything one search needs -----------------------------------------------------


class _Mover:
    __slots__ = (
        "change_cost",
        "closed",
        "cls",
        "credit0",
        "defn",
        "enemy",
        "friends",
        "interdicted",
        "ma",
        "mech",
        "mode_ok",
        "nm_block",
        "no_stop",
        "rate",
        "rm_block",
        "side",
        "spent0",
        "stack_cost",
        "staging",
        "start",
        "t",
        "uid",
        "us",
        "vp_german",
        "wb_locked",
        "zoc",
    )

    def __init__(self, board: Board, state: GameState, unit_id: str) -> None:
        snap = _snapshot(board, state)
        t = _tables(board)
        self.t = t
        self.uid = unit_id
        d = board.defs[unit_id]
        us = state.unit(unit_id)
        self.defn = d
        self.us = us
        self.side: Side = d.side
        self.mech = d.mechanized
        self.cls = (2 if d.side == "allied" else 0) + (1 if d.mechanized else 0)
        self.ma = movement_allowance(d, us)
        self.start: HexId = us.hex or ""
        self.rate = roadmode.road_rate(d)
        self.change_cost = roadmode.mode_change_cost(d)
        self.stack_cost = stacking.stacking_cost(d)
        self.mode_ok = roadmode.check_phase(d, state.phase)
        friends = dict(snap.by_hex[d.side])
        mates = tuple(u for u in friends.get(self.start, ()) if u.id != unit_id)
        if mates:
            friends[self.start] = mates
        else:
            friends.pop(self.start, None)
        self.friends: dict[HexId, tuple[UnitState, ...]] = friends
        self.enemy: dict[HexId, tuple[UnitState, ...]] = snap.by_hex[other_side(d.side)]
        self.zoc: frozenset[HexId] = snap.zoc[other_side(d.side)]
        self.interdicted: frozenset[Hexside] = frozenset(state.interdicted.for_side(d.side))
        # AO-14.2B: a reinforcement's first move starts with its lost road hexes paid for
        self.spent0, self.credit0 = us.mp_spent, 0
        if us.staging is not None and us.road_mode:
            mp, self.credit0 = reinforcements.staging_start(d, us.staging)
            self.spent0 += mp
        # AO-14.3C: West-bank units may not cross the Meuse until the German has 25 VP
        self.wb_locked = (
            bool(t.meuse)
            and reinforcements.is_west_bank(board, unit_id)
            and not reinforcements.west_bank_released(state)
        )
        self.vp_german = state.vp.german
        # AO-14.2B: friendly hexes holding only reinforcements waiting on their entry hex: they
        # do not block (spacing, destacking) but no move may end on or next to them (AO-6.5G)
        self.staging: frozenset[HexId] = frozenset(h for h in snap.staging if h in friends)
        no_stop: set[HexId] = set()
        for h in self.staging:
            no_stop.add(h)
            no_stop.update(t.road_links[h])
        self.no_stop: frozenset[HexId] = frozenset(no_stop)
        self.closed: frozenset[HexId] = t.impassable | t.edge | frozenset(self.enemy)
        # AO-6.5G: hexes barred to the mover in Road Mode / in normal mode.
        self.rm_block: frozenset[HexId] = self._road_mode_block()
        self.nm_block: frozenset[HexId] = self._normal_mode_block()

    def _road_mode_block(self) -> frozenset[HexId]:
        """Hexes a Road Mode mover may not occupy: any friendly unit there or on a road hex
        connected to it (AO-6.5G); Allied Map Edge hexes do not count (AO-8.3F)."""
        out: set[HexId] = set()
        for h in self.friends:
            if h in self.t.edge or h in self.staging:
                continue
            out.add(h)
            out.update(self.t.road_links[h])
        return frozenset(out)

    def _normal_mode_block(self) -> frozenset[HexId]:
        """Hexes a normal-mode mover may not occupy: a friendly Road Mode unit there or on a
        road hex connected to it (AO-6.5G)."""
        out: set[HexId] = set()
        for h, units in self.friends.items():
            if h in self.t.edge or h in self.staging or not any(u.road_mode for u in units):
                continue
            out.add(h)
            out.update(self.t.road_links[h])
        return frozenset(out)


def _step(board: Board, m: _Mover, node: Node, step: str) -> Node | Rejection:
    """One step of a path from ``node``: enter hex ``step`` or change mode."""
    if node[4]:
        return Rejection(
            "AO-7.1A", f"{m.uid} entered the enemy-controlled hex {node[0]} and must stop there"
        )
    if step in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE):
        r = _change_mode(m, node, step == ENTER_ROAD_MODE, True)
    else:
        link = None
        for lk in m.t.links.get(node[0], ()):
            if lk[0] == step:
                link = lk
                break
        if link is None:
            return Rejection(
                "AO-5.1E", f"{m.uid} moves hex by hex: {step!r} is not a hex next to {node[0]}"
            )
        r = _enter(board, m, node, link, True)
    if r is None:  # pragma: no cover - explain=True always gives a reason
        return Rejection("AO-5.1E", f"{m.uid} may not take the step {step!r}")
    return r


def _change_mode(m: _Mover, node: Node, entering: bool, explain: bool) -> Node | Rejection | None:
    """Enter or leave Road Mode in the current hex (AO-6.2, AO-6.3C, AO-6.5G).

    With ``explain`` false a refusal is ``None`` (the search does not need the reason)."""
    h, road, _credit, spent, stopped = node
    if stopped:
        if not explain:
            return None
        return Rejection(
            "AO-7.1A", f"{m.uid} entered the enemy-controlled hex {h} and must stop there"
        )
    if m.mode_ok is not None:
        return m.mode_ok if explain else None
    if entering == road:
        if not explain:
            return None
        return Rejection("AO-6.3C", f"{m.uid} is {'already' if road else 'not'} in Road Mode ({h})")
    if entering:
        if h not in m.t.road_hex:
            if not explain:
                return None
            return Rejection("AO-6.3C", f"{m.uid} must be on a road hex to enter Road Mode ({h})")
        if h not in m.t.edge and h in m.rm_block:
            if not explain:
                return None
            return Rejection(
                "AO-6.5G",
                f"{m.uid} may not enter Road Mode in {h}: a friendly unit is in that hex or on "
                "a road hex connected to it",
            )
    cost = m.change_cost
    if spent + cost > m.ma:
        if not explain:
            return None
        return Rejection(
            "AO-6.3C",
            f"{m.uid} needs {cost} MP to {'enter' if entering else 'leave'} Road Mode and has "
            f"{m.ma - spent} left",
        )
    return (h, entering, 0, spent + cost, False)


def _enter(
    board: Board, m: _Mover, node: Node, link: _Link, explain: bool
) -> Node | Rejection | None:
    """Enter the neighbour of ``link`` from ``node`` (AO-5, AO-6.5, AO-7.1A, AO-8, AO-11).

    With ``explain`` false a refusal is ``None`` (the search does not need the reason)."""
    h, road, credit, spent, stopped = node
    uid = m.uid
    if stopped:
        if not explain:
            return None
        return Rejection(
            "AO-7.1A", f"{uid} entered the enemy-controlled hex {h} and must stop there"
        )
    t = m.t
    b, costs, rm_ok, bridge = link
    if not explain and b in m.closed:
        return None  # impassable, Allied Map Edge or enemy-occupied: refused below anyway
    if b in t.impassable:
        return Rejection("AO-11.g", f"{b} is impassable") if explain else None
    if b in t.edge:
        if not explain:
            return None
        if m.side == "german":
            return Rejection("AO-5.3L", f"German units may never enter Allied Map Edge hexes ({b})")
        return Rejection(
            "AO-5.3M",
            f"Allied units enter Allied Map Edge hexes only by a mandated retreat, never by "
            f"movement ({b})",
        )
    if b in m.enemy:
        if not explain:
            return None
        return Rejection("AO-5.2F", f"{uid} may not enter the enemy-occupied hex {b}")
    if h in m.zoc and h not in m.friends:
        if not explain:
            return None
        return Rejection("AO-7.1A", f"{uid} may not leave an enemy-controlled hex ({h})")
    if m.wb_locked and (min(h, b), max(h, b)) in t.meuse:
        if not explain:
            return None
        return Rejection(
            "AO-14.3C",
            f"{uid} is a West-bank unit: it may not cross the Meuse ({h}-{b}) until the German "
            f"has {reinforcements.WB_RELEASE_VP} VP (now {m.vp_german})",
        )
    if bridge is not None and bridge in m.interdicted:
        if not explain:
            return None
        return Rejection(
            "AO-6.5F" if road else "AO-13.2B",
            f"the bridge {bridge[0]}-{bridge[1]} is interdicted for {m.side} units",
        )
    if road:
        if m.mode_ok is not None:
            return m.mode_ok if explain else None
        if not rm_ok:
            if not explain:
                return None
            return Rejection(
                "AO-6.5F",
                f"{uid} is in Road Mode: it may cross only road or bridge hexsides, and rivers "
                f"only by bridge ({h}-{b})",
            )
        if b in t.westwall:
            if not explain:
                return None
            return Rejection("AO-11.h", f"{uid} may not enter the West Wall hex {b} in Road Mode")
        if b in m.rm_block:
            if not explain:
                return None
            return Rejection(
                "AO-6.5G",
                f"{uid} is in Road Mode and may not stack with or be next to another friendly unit "
                f"on a connected road hex ({b})",
            )
        if credit > 0:
            cost, credit = 0, credit - 1
        else:
            cost, credit = 1, m.rate - 1
    else:
        cost = costs[m.cls]
        if b in m.nm_block:
            if not explain:
                return None
            return Rejection(
                "AO-6.5G",
                f"{b} is on or next to a friendly Road Mode unit on a connected road hex",
            )
        friends_b = m.friends.get(b)
        if friends_b is not None:
            bad = stacking.check_stack(
                board.game_map, m.defn, b, [board.defs[u.id] for u in friends_b]
            )
            if bad is not None:
                return bad if explain else None
            cost += m.stack_cost
        credit = 0
    if h in m.friends and h not in t.edge and h not in m.staging:
        cost += m.stack_cost  # AO-8.1A destacking (not off a staging entry hex, AO-14.2B)
    if spent + cost > m.ma:
        if not explain:
            return None
        return Rejection(
            "AO-5.2J",
            f"{uid} needs {cost} MP to enter {b} and has {m.ma - spent} of {m.ma} left",
        )
    return (b, road, credit, spent + cost, b in m.zoc and b not in m.friends)


# -- public API ---------------------------------------------------------------------------------


def trace_path(
    board: Board, state: GameState, unit_id: str, path: Sequence[str]
) -> Route | Rejection:
    """Check ``path`` for ``unit_id`` and return where it ends and what it costs."""
    bad = may_move(board, state, unit_id)
    if bad is not None:
        return bad
    if not path:
        return Rejection("AO-5.1E", f"a move of {unit_id} needs at least one step")
    m = _Mover(board, state, unit_id)
    node: Node = (m.start, m.us.road_mode, m.credit0, m.spent0, False)
    changes: list[tuple[int, HexId, bool, int]] = []
    entered = {m.start}
    for i, step in enumerate(path):
        nxt = _step(board, m, node, step)
        if isinstance(nxt, Rejection):
            return nxt
        if nxt[0] != node[0]:
            if nxt[0] in entered:
                return Rejection(
                    "AO-5.1E",
                    f"{unit_id} may not retrace its path: it has already been in {nxt[0]}",
                )
            entered.add(nxt[0])
        if nxt[1] != node[1] and nxt[0] == node[0]:
            changes.append((i, node[0], nxt[1], nxt[3] - node[3]))
        node = nxt
    if node[0] in m.no_stop:
        return Rejection(
            "AO-6.5G",
            f"{unit_id} may not end its move on or next to (on the road) reinforcements waiting "
            f"on their entry hex ({node[0]}); it may only pass",
        )
    return Route(
        start=m.start,
        end=node[0],
        cost=node[3] - m.us.mp_spent,
        spent=node[3],
        road_mode=node[1],
        mode_changes=tuple(changes),
    )


def check_path(
    board: Board, state: GameState, unit_id: str, path: Sequence[str]
) -> Rejection | None:
    """None when ``unit_id`` may move along ``path`` now, else the rejection naming the case."""
    r = trace_path(board, state, unit_id, path)
    return r if isinstance(r, Rejection) else None


def _simple(start: HexId, path: tuple[str, ...]) -> bool:
    """True when ``path`` enters no hex twice and does not come back to ``start`` (AO-5.1E)."""
    hexes = [step for step in path if step not in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE)]
    return len(set(hexes)) == len(hexes) and start not in hexes


def legal_moves(
    board: Board, state: GameState, unit_id: str, road_mode: bool | None = None
) -> dict[HexId, Reach]:
    """Every hex ``unit_id`` can reach now, with the cheapest path and its cost.

    ``road_mode`` restricts the answer to arrivals in that mode (``None``: either, cheapest
    first). A hex is listed only when a non-empty path that enters no hex twice reaches it
    (AO-5.1E), so the start hex appears only for a mode change in place. Ties are broken by
    fewer steps, then by the fixed neighbour order, so the answer is deterministic. Empty when
    the unit may not move at all.
    """
    if may_move(board, state, unit_id) is not None:
        return {}
    m = _Mover(board, state, unit_id)
    spent0 = m.us.mp_spent
    start: Node = (m.start, m.us.road_mode, m.credit0, m.spent0, False)
    links = m.t.links
    Key = tuple[HexId, bool, int]
    start_key: Key = (m.start, start[1], m.credit0)
    best: dict[Key, int] = {start_key: m.spent0}
    parent: dict[Key, tuple[Key, str]] = {}
    paths: dict[Key, tuple[str, ...]] = {}
    done: set[Key] = set()
    out: dict[HexId, Reach] = {}
    seq = 0
    heap: list[tuple[int, int, int, Node]] = [(m.spent0, 0, 0, start)]
    while heap:
        spent, nsteps, _, node = heapq.heappop(heap)
        key = (node[0], node[1], node[2])
        if key in done:
            continue
        done.add(key)
        # parents settle before children, so the parent's path is known (tie: fewer steps)
        if key == start_key:
            path: tuple[str, ...] = ()
        else:
            pkey, pstep = parent[key]
            path = (*paths[pkey], pstep)
        paths[key] = path
        h, road = node[0], node[1]
        if (
            path
            and h not in out
            and h not in m.no_stop
            and (road_mode is None or road == road_mode)
            and _simple(m.start, path)
        ):
            out[h] = Reach(cost=spent - spent0, path=path, road_mode=road)
        if node[4]:
            continue  # stopped in an enemy ZOC: reached, not expanded (AO-7.1A)
        steps: list[tuple[Node | Rejection | None, str]] = [
            (_enter(board, m, node, link, False), link[0])
            for link in links.get(h, ())
            # exact: a normal-mode step always lands on (hex, False, 0)
            if road or (link[0], False, 0) not in done
        ]
        toggle = LEAVE_ROAD_MODE if road else ENTER_ROAD_MODE
        steps.append((_change_mode(m, node, not road, False), toggle))
        for nxt, step in steps:
            if nxt is None or isinstance(nxt, Rejection):
                continue
            nkey = (nxt[0], nxt[1], nxt[2])
            if nkey in done:
                continue
            old = best.get(nkey)
            if old is not None and old <= nxt[3]:
                continue
            best[nkey] = nxt[3]
            parent[nkey] = (key, step)
            seq += 1
            heapq.heappush(heap, (nxt[3], nsteps + 1, seq, nxt))
    return dict(sorted(out.items()))


def legal_moves_for_side(
    board: Board, state: GameState, side: Side | None = None
) -> dict[str, dict[HexId, Reach]]:
    """:func:`legal_moves` for every unit of ``side`` (default: the phasing side) that may
    move now, keyed by unit id in sorted order; the ZOC and occupancy are computed once."""
    who = side or state.side
    out: dict[str, dict[HexId, Reach]] = {}
    for u in state.units:
        if board.defs[u.id].side != who or may_move(board, state, u.id) is not None:
            continue
        out[u.id] = legal_moves(board, state, u.id)
    return out
