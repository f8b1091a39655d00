"""One step of a path: :func:`enter` a neighbouring hex (AO-5, AO-6.5, AO-7.1A, AO-8, AO-11)
or :func:`change_mode` in place (AO-6.2, AO-6.3C), each returning the next search node or the
rejection naming the rule case; :func:`take_step` picks one for a step as written in a
``Move`` command."""

from __future__ import annotations

from typing import Literal, overload

from rules.ao import reinforcements, stacking
from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE
from rules.ao.movement.mover import Mover
from rules.ao.movement.tables import FORD_COST, Link
from rules.ao.state import Board
from rules.hexgrid import HexId
from rules.rejection import Rejection

Node = tuple[HexId, bool, int, int, bool]
"""``(hex, road_mode, credit, spent, stopped)``."""


def _must_stop(m: Mover, h: HexId) -> Rejection:
    """Nothing may follow the entry into an enemy-controlled hex (AO-7.1A)."""
    return Rejection("AO-7.1A", f"{m.uid} entered the enemy-controlled hex {h} and must stop there")


def take_step(board: Board, m: Mover, node: Node, step: str) -> Node | Rejection:
    """One step of a path from ``node``: enter hex ``step`` or change mode."""
    if node[4]:
        return _must_stop(m, node[0])
    if step in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE):
        r = change_mode(m, node, step == ENTER_ROAD_MODE, True)
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
        r = enter(board, m, node, link, True)
    if r is None:  # pragma: no cover - explain=True always gives a reason
        return Rejection("AO-5.1E", f"{m.uid} may not take the step {step!r}")
    return r


@overload
def change_mode(
    m: Mover, node: Node, entering: bool, explain: Literal[True]
) -> Node | Rejection: ...
@overload
def change_mode(m: Mover, node: Node, entering: bool, explain: Literal[False]) -> Node | None: ...
def change_mode(m: Mover, node: Node, entering: bool, explain: bool) -> Node | Rejection | None:
    """Enter or leave Road Mode in the current hex (AO-6.2, AO-6.3C, AO-6.5G).

    With ``explain`` false a refusal is ``None`` (the search does not need the reason)."""
    h, road, _credit, spent, stopped = node
    if stopped:
        if not explain:
            return None
        return _must_stop(m, h)
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


@overload
def enter(
    board: Board, m: Mover, node: Node, link: Link, explain: Literal[True]
) -> Node | Rejection: ...
@overload
def enter(
    board: Board, m: Mover, node: Node, link: Link, explain: Literal[False]
) -> Node | None: ...
def enter(board: Board, m: Mover, node: Node, link: Link, explain: bool) -> Node | Rejection | None:
    """Enter the neighbour of ``link`` from ``node`` (AO-5, AO-6.5, AO-7.1A, AO-8, AO-11).

    With ``explain`` false a refusal is ``None`` (the search does not need the reason)."""
    h, road, credit, spent, stopped = node
    uid = m.uid
    if stopped:
        if not explain:
            return None
        return _must_stop(m, h)
    t = m.t
    b, costs, rm_ok, bridge, ford = link
    if b in m.closed:  # impassable, Allied Map Edge or enemy-occupied
        if not explain:
            return None
        if b in t.impassable:
            return Rejection("AO-11.g", f"{b} is impassable")
        if b in t.edge:
            if m.side == "german":
                return Rejection(
                    "AO-5.3L", f"German units may never enter Allied Map Edge hexes ({b})"
                )
            return Rejection(
                "AO-5.3M",
                f"Allied units enter Allied Map Edge hexes only by a mandated retreat, never by "
                f"movement ({b})",
            )
        return Rejection("AO-5.2F", f"{uid} may not enter the enemy-occupied hex {b}")
    if h in m.zoc and h not in m.friends and h not in t.edge:
        # German control in an Allied Map Edge hex blocks retreats only (AO-5.3N): it does not
        # hold a reactivated unit there, which may not attack out of it (AO-7.5E notes)
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
                f"by a bridge or a road ford ({h}-{b})",
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
        if ford:
            cost += FORD_COST[m.cls]  # the ford is a hexside, not "terrain in Road hexes"
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
