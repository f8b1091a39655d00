"""The two uses of the step functions: :func:`trace_path` folds them over a given path (what
``apply`` checks), :func:`legal_moves` runs one Dijkstra whose edges are exactly these calls."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Final

import msgspec

from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE
from rules.ao.movement.mover import Mover, may_move
from rules.ao.movement.step import Node, change_mode, enter, take_step
from rules.ao.state import Board, GameState
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection

_TOGGLES: Final = frozenset((ENTER_ROAD_MODE, LEAVE_ROAD_MODE))


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


def trace_path(
    board: Board, state: GameState, unit_id: str, path: Sequence[str]
) -> Route | Rejection:
    """Check ``path`` for ``unit_id`` and return where it ends and what it costs."""
    bad = may_move(board, state, unit_id)
    if bad is not None:
        return bad
    if not path:
        return Rejection("AO-5.1E", f"a move of {unit_id} needs at least one step")
    road0 = state.unit(unit_id).road_mode
    # the modes the path can be in: the start's, and both once it changes mode
    modes = (False, True) if any(s in _TOGGLES for s in path) else (road0,)
    m = Mover(board, state, unit_id, modes)
    node: Node = (m.start, road0, m.credit0, m.spent0, False)
    changes: list[tuple[int, HexId, bool, int]] = []
    entered = {m.start}
    for i, step in enumerate(path):
        nxt = take_step(board, m, node, step)
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


def legal_moves(
    board: Board, state: GameState, unit_id: str, road_mode: bool | None = None
) -> dict[HexId, Reach]:
    """Every hex ``unit_id`` can reach now, with the cheapest path and its cost.

    ``road_mode`` restricts the answer to arrivals in that mode (``None``: either, cheapest
    first). A hex is listed only when a non-empty path that enters no hex twice reaches it
    (AO-5.1E), so the start hex appears only for a mode change in place. Ties are broken by
    fewer steps, then by the fixed neighbour order, so the answer is deterministic. Empty when
    the unit may not move at all.

    One search answers all three ``road_mode`` questions; it runs once per state and unit
    (:meth:`Board.for_state`), and each call gets its own copy.
    """
    memo = board.for_state("movement.legal_moves", state, lambda b, s: _Memo())
    hit = memo.get(unit_id)
    if hit is None:
        hit = memo[unit_id] = _search(board, state, unit_id)
    return dict(hit[None if road_mode is None else int(road_mode)])


class _Memo(dict[str, "dict[int | None, dict[HexId, Reach]]"]):
    """The answers of :func:`legal_moves` for one state, by unit."""


def _search(board: Board, state: GameState, unit_id: str) -> dict[int | None, dict[HexId, Reach]]:
    """The Dijkstra of :func:`legal_moves`: its answers for ``None``, normal mode (0) and Road
    Mode (1) on arrival. The search does not depend on the filter: only what is kept does."""
    outs: dict[int | None, dict[HexId, Reach]] = {None: {}, 0: {}, 1: {}}
    if may_move(board, state, unit_id) is not None:
        return outs
    m = Mover(board, state, unit_id)
    spent0 = m.us.mp_spent
    start: Node = (m.start, m.us.road_mode, m.credit0, m.spent0, False)
    steps = m.t.steps
    no_stop = m.no_stop
    ma = m.ma
    Key = tuple[HexId, bool, int]
    start_key: Key = (m.start, start[1], m.credit0)
    best: dict[Key, int] = {start_key: m.spent0}
    parent: dict[Key, tuple[Key, str]] = {}
    paths: dict[Key, tuple[str, ...]] = {}
    simple: dict[Key, bool] = {}
    done: set[Key] = set()
    done_normal: set[HexId] = set()  # the hexes of the settled normal-mode keys (hex, False, 0)
    out_any, out_mode = outs[None], (outs[0], outs[1])
    seq = 0
    heap: list[tuple[int, int, int, Node]] = [(m.spent0, 0, 0, start)]
    while heap:
        spent, nsteps, _, node = heapq.heappop(heap)
        key = node[:3]
        if key in done:
            continue
        done.add(key)
        if not node[1]:
            done_normal.add(node[0])
        # parents settle before children, so the parent's path is known (tie: fewer steps)
        if key == start_key:
            path: tuple[str, ...] = ()
            ok = True
        else:
            pkey, pstep = parent[key]
            ppath = paths[pkey]
            path = (*ppath, pstep)
            # AO-5.1E: a path enters no hex twice and never comes back to the start
            ok = simple[pkey] and (pstep in _TOGGLES or (pstep != m.start and pstep not in ppath))
        paths[key] = path
        simple[key] = ok
        h, road = node[0], node[1]
        by_mode = out_mode[road]
        if ok and path and h not in no_stop and (h not in out_any or h not in by_mode):
            reach = Reach(cost=spent - spent0, path=path, road_mode=road)
            out_any.setdefault(h, reach)
            by_mode.setdefault(h, reach)
        if node[4]:
            continue  # stopped in an enemy ZOC: reached, not expanded (AO-7.1A)
        if spent >= ma and not (road and node[2] > 0):
            continue  # every step costs an MP but a Road Mode hex on credit (AO-5.2J, AO-6.5H)
        # every link, then the mode change in place (None): the push order breaks cost ties
        for link in steps[road][h]:
            if link is None:
                nxt = change_mode(m, node, not road, False)
                step = LEAVE_ROAD_MODE if road else ENTER_ROAD_MODE
            elif road or link[0] not in done_normal:
                # exact: a normal-mode step always lands on (hex, False, 0)
                nxt = enter(board, m, node, link, False)
                step = link[0]
            else:
                continue
            if nxt is None:
                continue
            nkey = nxt[:3]
            if nkey in done:
                continue
            old = best.get(nkey)
            if old is not None and old <= nxt[3]:
                continue
            best[nkey] = nxt[3]
            parent[nkey] = (key, step)
            seq += 1
            heapq.heappush(heap, (nxt[3], nsteps + 1, seq, nxt))
    order = sorted(out_any)  # every hex of either mode's answer is in out_any
    return {k: {h: v[h] for h in order if h in v} for k, v in outs.items()}


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
