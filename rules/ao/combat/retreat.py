"""Retreats (AO-10.2): the legal paths of a unit, their ranking, and the retreat step.

The retreat rules draw on movement (AO-7.3C/D, AO-8.0), Road Mode (AO-6.5G, AO-6.7M/N) and the
Allied Map Edge (AO-5.3N, AO-9.7P); :func:`retreat_options` states them in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules import hexgrid
from rules.ao.combat.losses import eliminate
from rules.ao.combat.protocol import (
    PENDING,
    answered,
    ask,
    begin_advance,
    in_play,
    set_combat,
    set_current,
    side_of,
)
from rules.ao.events import Event, RoadColumnContact, UnitRetreated
from rules.ao.interdiction import interdiction_at_combat
from rules.ao.roadmode import road_links, road_mode_passable
from rules.ao.stacking import check_stack
from rules.ao.state import Board, Decision, GameState, Resolution, other_side
from rules.ao.supply import open_sources
from rules.ao.units import Side
from rules.ao.zoc import enemy_controlled
from rules.hexgrid import HexId
from rules.rejection import Rejection


def breaks_road_spacing(board: Board, state: GameState, uid: str, hex_id: HexId) -> bool:
    """Whether a normal-mode ``uid`` would end in ``hex_id`` on or next to (along the road) a
    friendly Road Mode unit (AO-6.5G); Allied Map Edge hexes do not count (AO-8.3F)."""
    m = board.game_map
    if m.is_allied_edge(hex_id):
        return False
    side = side_of(board, uid)
    near = {hex_id, *road_links(m, hex_id)}
    return any(
        o.road_mode and o.id != uid and side_of(board, o.id) == side
        for h in sorted(near)
        for o in state.at(h)
    )


def stacks_with_road_mode(board: Board, state: GameState, uid: str, hex_id: HexId) -> bool:
    """Whether ``uid`` entering ``hex_id`` would stack with a friendly Road Mode unit there: a
    Road Mode unit "may not stack with ... any other unit" (AO-6.5G), a stacking limitation
    that a retreat may not break (AO-10.2b). Allied Map Edge hexes do not count (AO-8.3F)."""
    if board.game_map.is_allied_edge(hex_id):
        return False
    side = side_of(board, uid)
    return any(
        o.road_mode and o.id != uid and side_of(board, o.id) == side for o in state.at(hex_id)
    )


def road_friends(board: Board, state: GameState, uid: str, hex_id: HexId) -> list[str]:
    """The friends of ``uid`` next to ``hex_id`` along the road (a Road Mode unit ending there
    meets them: AO-6.5G, AO-6.7N)."""
    side = side_of(board, uid)
    return [
        o.id
        for n in road_links(board.game_map, hex_id)
        for o in state.at(n)
        if o.id != uid and side_of(board, o.id) == side
    ]


_ROAD, _CLEAR, _ROUGH, _INTERDICTED, _RIVER = range(5)


def _step_class(
    board: Board, interdicted: frozenset[tuple[HexId, HexId]], a: HexId, b: HexId
) -> int:
    """The AO-10.2a class of the step a->b: road or intact bridge, clear, rough or ford,
    interdicted bridge, unbridged river. A step is ranked by its worst feature: a ford is
    "ford hex-sides" (priority 3) even where a road crosses it, as its cost stays in movement
    (AO-11.b, AO-11.j)."""
    m = board.game_map
    s = m.side(a, b)
    cut = hexgrid.hexside(a, b) in interdicted
    if s.crossing == "bridge":
        return _INTERDICTED if cut else _ROAD
    if s.river is not None and s.crossing is None:
        return _RIVER
    if s.crossing == "ford":
        return _ROUGH  # "through rough terrain and ford hex-sides" (priority 3)
    if s.road or m.is_road_hex(b):
        return _ROAD  # "to or along a road" (AO-10.2a priority 1)
    if m.hex(b).terrain == "rough":
        return _ROUGH
    return _CLEAR


def _nearest(sources: frozenset[HexId], hex_id: HexId) -> int | None:
    """Straight hex distance from ``hex_id`` to the nearest of ``sources`` (None: none)."""
    return min((hexgrid.distance(hex_id, x) for x in sources), default=None)


def supply_progress(
    own: frozenset[HexId], enemy: frozenset[HexId], start: HexId, end: HexId
) -> int:
    """The errata's first retreat priority (AO-10.2a*), "toward Friendly Supply and away from
    Enemy Supply", as the hexes gained: how much nearer ``end`` is than ``start`` to the
    nearest hex of ``own`` (the retreating side's open supply sources,
    :func:`rules.ao.supply.open_sources`), plus how much farther it is from the nearest hex of
    ``enemy``. A step backwards counts against: a hex one farther from friendly supply and one
    nearer the enemy's gains -2, one that keeps both distances 0, one nearer friendly supply
    and farther from the enemy's 2. Distances are straight hex distances (AO-10.2b counts the
    retreat the same way); a side with no open source adds nothing. Higher is better."""
    gain = 0
    d0, d1 = _nearest(own, start), _nearest(own, end)
    if d0 is not None and d1 is not None:
        gain += d0 - d1
    e0, e1 = _nearest(enemy, start), _nearest(enemy, end)
    if e0 is not None and e1 is not None:
        gain += e1 - e0
    return gain


class RetreatOptions(msgspec.Struct, frozen=True):
    """The legal retreat paths of a unit, best-ranked first (``best`` = how many share the best
    rank), or the case under which it is eliminated."""

    paths: tuple[tuple[HexId, ...], ...]
    best: int
    eliminated: str | None


def interdicted_for(board: Board, state: GameState, side: Side) -> frozenset[tuple[HexId, HexId]]:
    """The bridges interdicted for ``side`` in a combat now: the phasing side's stored set
    (AO-13.1A, AO-13.b*), the other side's judged at the moment of combat (AO-13.c*)."""
    if side == state.side:
        cut = state.interdicted.for_side(side)
    else:
        cut = interdiction_at_combat(board, state, side)
    return frozenset(hexgrid.hexside(a, b) for a, b in cut)


def retreat_options(
    board: Board, state: GameState, uid: str, retreat_distance: int
) -> RetreatOptions:
    """Every legal retreat of ``uid`` over ``retreat_distance`` hexes (AO-10.2b, AO-7.3C/D,
    AO-8.0, AO-6.7M, AO-5.3N, AO-9.7P), ranked by AO-10.2a.

    A path enters ``retreat_distance`` hexes, each one hex further from the start (the most
    direct path), never an impassable, off-map, enemy-occupied or enemy-controlled hex
    (friendly units negate control, AO-7.2B); leaving an enemy-controlled hex is allowed
    (AO-7.3C). It must end where the unit may stack (AO-8.0; no limit on Allied Map Edge hexes,
    AO-8.3F). A Road Mode unit retreats along road/bridge hexsides only and never enters a hex
    holding a friendly unit (AO-6.7M); it may end next to a friend on the road (AO-6.7N). A unit
    not in Road Mode never enters a hex holding a friendly Road Mode unit (AO-6.5G: a Road Mode
    unit "may not stack with" another, a stacking limitation of AO-10.2b) but may end next to
    one along the road: that contact is cleared at its side's next Initial Movement Phase
    (:mod:`rules.ao.column`). German units never enter Allied Map Edge hexes (AO-5.3L/N); an
    Allied unit may retreat onto one only when it has no other path, and stops on the first
    one it enters (AO-9.7P).

    Ranking (errata first, :func:`supply_progress`): toward friendly supply and away from
    enemy supply - the hexes the end hex gains over the start hex toward the nearest open
    supply source of the unit's side plus those it gains away from the nearest open source of
    the enemy's (straight hex distance; a step backwards counts against), most first. Then
    fewest unbridged rivers, interdicted bridges, rough/ford steps, clear off-road steps; then
    fewest friendly units passed. The victor chooses among the paths tied for best.
    """
    m = board.game_map
    d = board.defs[uid]
    u = state.unit(uid)
    start = u.hex
    assert start is not None
    side = d.side
    enemy_hexes = {
        x.hex
        for x in state.units
        if x.hex is not None and x.status in ("on_map", "dormant") and side_of(board, x.id) != side
    }
    controlled = enemy_controlled(board, state, side)
    friends: dict[HexId, list[str]] = {}
    for x in state.units:
        if (
            x.hex is not None
            and x.id != uid
            and x.status in ("on_map", "dormant")
            and side_of(board, x.id) == side
        ):
            friends.setdefault(x.hex, []).append(x.id)
    reasons: set[str] = set()
    live: list[tuple[HexId, ...]] = []
    edge: list[tuple[HexId, ...]] = []

    def walk(here: HexId, path: list[HexId]) -> None:
        if len(path) == retreat_distance:
            end = path[-1]
            others = [board.defs[o] for o in friends.get(end, [])]
            if check_stack(m, d, end, others) is not None:
                reasons.add("stack")
                return
            live.append(tuple(path))
            return
        for n in sorted(m.neighbours(here)):
            if hexgrid.distance(start, n) != len(path) + 1:
                continue
            if m.hex(n).terrain == "impassable":
                reasons.add("impassable")
                continue
            if n in enemy_hexes:
                reasons.add("enemy")
                continue
            if n in controlled:
                reasons.add("zoc")
                continue
            if u.road_mode:
                if not road_mode_passable(m, here, n):
                    reasons.add("road")
                    continue
                if n in friends:
                    reasons.add("stack")
                    continue
            if m.is_allied_edge(n):
                if side == "german":
                    reasons.add("edge")
                    continue
                edge.append((*path, n))
                continue
            if n in friends and check_stack(m, d, n, [board.defs[o] for o in friends[n]]):
                reasons.add("stack")  # the limit holds at all times, mid-retreat too (AO-8.0)
                continue
            if not u.road_mode and stacks_with_road_mode(board, state, uid, n):
                reasons.add("road_column")  # AO-6.5G: no unit stacks with a Road Mode unit
                continue
            walk(n, [*path, n])

    walk(start, [])
    candidates = live or edge
    if not candidates:
        if u.road_mode and "stack" in reasons:
            case = "AO-6.7M"
        elif side == "german" and "edge" in reasons:
            case = "AO-5.3N"
        elif "stack" in reasons:
            case = "AO-8.0"
        elif "road_column" in reasons:
            case = "AO-6.5G"
        elif "zoc" in reasons:
            case = "AO-7.3D"
        else:
            case = "AO-10.2b"
        return RetreatOptions(paths=(), best=0, eliminated=case)
    cut = interdicted_for(board, state, side)
    own = open_sources(board, state, side)
    enemy = open_sources(board, state, other_side(side))

    def rank(path: tuple[HexId, ...]) -> tuple[int, ...]:
        classes = [0] * 5
        prev = start
        for h in path:
            classes[_step_class(board, cut, prev, h)] += 1
            prev = h
        passed = sum(len(friends.get(h, ())) for h in path)
        return (
            -supply_progress(own, enemy, start, path[-1]),
            classes[_RIVER],
            classes[_INTERDICTED],
            classes[_ROUGH],
            classes[_CLEAR],
            passed,
        )

    ranked = sorted(candidates, key=lambda p: (rank(p), p))
    top = rank(ranked[0])
    best = sum(1 for p in ranked if rank(p) == top)
    return RetreatOptions(paths=tuple(ranked), best=best, eliminated=None)


def _do_retreat(
    board: Board, state: GameState, uid: str, path: tuple[HexId, ...], events: list[Event]
) -> GameState:
    m = board.game_map
    u = state.unit(uid)
    assert u.hex is not None
    end = path[-1]
    dormant = side_of(board, uid) == "allied" and m.is_allied_edge(end)
    new = msgspec.structs.replace(u, hex=end, status="dormant" if dormant else "on_map")
    events.append(UnitRetreated(unit=uid, start=u.hex, path=path, dormant=dormant))
    state = state.replace_units([new])
    state = set_combat(state, retreated=tuple(sorted({*state.combat.retreated, uid})))
    if not dormant:
        for other in road_friends(board, state, uid, end):
            if u.road_mode or state.unit(other).road_mode:
                events.append(RoadColumnContact(unit=uid, other=other, hex=end))
    return state


def _victor(state: GameState, r: Resolution) -> Side:
    """Who chooses retreat paths: the defender on Ar, the attacker on Dr (AO-10.2a)."""
    return other_side(state.side) if (r.result or "").startswith("Ar") else state.side


def step_retreat(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    """Retreat the next unit of ``r.retreating`` (AO-10.2): eliminated without a legal path,
    moved when one path is best or the victor's orders leave it to the engine, else asked."""
    if not r.retreating:
        advancing = r.attackers if (r.result or "").startswith("Dr") else r.defenders
        return begin_advance(state, r.cleared, (uid for uid in advancing if in_play(state, uid)))
    uid = r.retreating[0]
    if not in_play(state, uid):
        return set_current(state, retreating=r.retreating[1:])
    opts = retreat_options(board, state, uid, r.retreat_distance)
    if opts.eliminated is not None:
        state = eliminate(board, state, uid, opts.eliminated, events)
        return set_current(state, retreating=r.retreating[1:])
    victor = _victor(state, r)
    orders = state.combat.orders(victor)
    if opts.best == 1 or (orders is not None and orders.retreat == "engine"):
        state = _do_retreat(board, state, uid, opts.paths[0], events)
        return set_current(state, retreating=r.retreating[1:])
    return ask(
        state,
        Decision(
            side=victor,
            kind="retreat",
            case="AO-10.2a",
            unit=uid,
            choices=opts.paths[: opts.best],
        ),
        events,
    )


def decide_retreat(
    board: Board, state: GameState, uid: str, path: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    """``ChooseRetreat``: one of the paths tied for the best AO-10.2a rank."""
    got = answered(state, "retreat")
    if isinstance(got, Rejection):
        return got
    p, r = got
    if uid != p.unit:
        return Rejection(PENDING, f"the pending retreat is {p.unit}'s, not {uid}'s")
    if tuple(path) not in p.choices:
        opts = retreat_options(board, state, uid, r.retreat_distance)
        why = "AO-10.2a" if tuple(path) in opts.paths else "AO-10.2b"
        return Rejection(
            why,
            f"{'-'.join(path) or 'no path'} is not one of the best retreats of {uid}: "
            + "; ".join("-".join(c) for c in p.choices),
        )
    state = set_combat(state, pending=None)
    state = _do_retreat(board, state, uid, tuple(path), events)
    return set_current(state, retreating=r.retreating[1:])
