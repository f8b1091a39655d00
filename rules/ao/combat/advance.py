"""Advance after combat (AO-9.6N): who may enter each cleared hex, and the advance step."""

from __future__ import annotations

import msgspec

from rules import hexgrid
from rules.ao import reinforcements
from rules.ao.combat.protocol import PENDING, answered, ask, set_combat, set_current, side_of
from rules.ao.combat.retreat import breaks_road_spacing, interdicted_for, road_friends
from rules.ao.events import AdvanceDeclined, Event, UnitAdvanced
from rules.ao.roadmode import road_mode_passable
from rules.ao.state import Board, Decision, GameState, Resolution
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection


def advance_refusal(
    board: Board, state: GameState, r: Resolution, uid: str, hex_id: HexId
) -> Rejection | None:
    """Why ``uid`` may not advance into the cleared ``hex_id`` now, naming the case, else None
    (AO-9.6N: mechanized, took part, still in play and adjacent). An advance enters the hex as
    a move would: never across a bridge interdicted for the unit's side (AO-13.2B: "may not be
    used for supply or movement purposes"; the phasing side's stored set, the other side's
    judged at the moment of combat, AO-13.c*); a Road Mode unit only across a road or bridge
    hexside (AO-6.5F), never into a West Wall hex (AO-11.h), never next to a friend on the road
    (AO-6.5G); a unit in normal mode not on or next to a friendly Road Mode unit on the road
    (AO-6.5G); a German unit never onto an Allied Map Edge hex (AO-5.3L); a West-bank unit not
    across the Meuse (AO-14.3C)."""
    m = board.game_map
    u = state.find(uid)
    if uid not in r.advancing or u is None or not u.in_play or u.hex is None:
        return Rejection("AO-9.6N", f"{uid} did not take part in this combat or is gone")
    if not board.defs[uid].mechanized:
        return Rejection("AO-9.6N", f"{uid} is not mechanized: only mechanized units advance")
    if not hexgrid.adjacent(u.hex, hex_id):
        return Rejection("AO-9.6N", f"{uid} in {u.hex} is not next to {hex_id}")
    side = side_of(board, uid)
    if hexgrid.hexside(u.hex, hex_id) in interdicted_for(board, state, side):
        return Rejection(
            "AO-6.5F" if u.road_mode else "AO-13.2B",
            f"the bridge {u.hex}-{hex_id} is interdicted for {side} units: {uid} may not "
            "advance across it",
        )
    if u.road_mode:
        if not road_mode_passable(m, u.hex, hex_id):
            return Rejection(
                "AO-6.5F",
                f"{uid} is in Road Mode: it advances only across a road or bridge hexside",
            )
        if m.hex(hex_id).fortification == "westwall":
            return Rejection(
                "AO-11.h", f"{uid} may not enter the West Wall hex {hex_id} in Road Mode"
            )
        if road_friends(board, state, uid, hex_id):
            return Rejection(
                "AO-6.5G", f"{uid} in Road Mode may not end next to a friend on the road ({hex_id})"
            )
    elif breaks_road_spacing(board, state, uid, hex_id):
        return Rejection(
            "AO-6.5G",
            f"{hex_id} is on or next to a friendly Road Mode unit on a connected road hex",
        )
    if side == "german" and m.is_allied_edge(hex_id):
        return Rejection(
            "AO-5.3L", f"German units may never enter Allied Map Edge hexes ({hex_id})"
        )
    return reinforcements.meuse_crossing_forbidden(board, state, uid, u.hex, hex_id)


def advance_choices(board: Board, state: GameState, r: Resolution, hex_id: HexId) -> list[str]:
    """Units of the victor that may advance into the cleared ``hex_id`` (AO-9.6N,
    :func:`advance_refusal`), strongest first."""
    out = [uid for uid in r.advancing if advance_refusal(board, state, r, uid, hex_id) is None]
    return sorted(out, key=lambda x: (-board.defs[x].strength, x))


def _do_advance(
    state: GameState, r: Resolution, hex_id: HexId, uid: str | None, side: Side, events: list[Event]
) -> GameState:
    if uid is None:
        events.append(AdvanceDeclined(side=side, hex=hex_id))
        advancing = r.advancing
    else:
        u = state.unit(uid)
        events.append(UnitAdvanced(unit=uid, start=u.hex or "", end=hex_id))
        state = state.replace_units([msgspec.structs.replace(u, hex=hex_id)])
        advancing = tuple(x for x in r.advancing if x != uid)
    return set_current(state, cleared=r.cleared[1:], advancing=advancing)


def step_advance(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    """Offer the next cleared hex to the victor's eligible units (AO-9.6N): by his standing
    orders or asked; the attack is done when no hex is left."""
    if not r.cleared:
        return set_combat(state, current=None)
    h = r.cleared[0]
    if state.at(h):
        return set_current(state, cleared=r.cleared[1:])
    units = advance_choices(board, state, r, h)
    if not units:
        return set_current(state, cleared=r.cleared[1:])
    side = side_of(board, units[0])
    orders = state.combat.orders(side)
    if orders is not None and orders.advance != "ask":
        pick = units[0] if orders.advance == "strongest" else None
        return _do_advance(state, r, h, pick, side, events)
    return ask(
        state,
        Decision(
            side=side, kind="advance", case="AO-9.6N", hex=h, choices=tuple((x,) for x in units)
        ),
        events,
    )


def decide_advance(
    board: Board, state: GameState, hex_id: str, uid: str | None, events: list[Event]
) -> GameState | Rejection:
    """``Advance``: one of the offered units into the pending hex, or none (AO-9.6N)."""
    got = answered(state, "advance")
    if isinstance(got, Rejection):
        return got
    p, r = got
    if hex_id != p.hex:
        return Rejection(PENDING, f"the pending advance is into {p.hex}, not {hex_id}")
    if uid is not None and (uid,) not in p.choices:
        why = advance_refusal(board, state, r, uid, hex_id)
        only = ", ".join(c[0] for c in p.choices) or "no unit"
        if why is None:
            why = Rejection("AO-9.6N", f"{uid} may not advance into {hex_id}")
        return Rejection(why.case, f"{why.detail}; only {only} may advance")
    state = set_combat(state, pending=None)
    return _do_advance(state, r, hex_id, uid, p.side, events)
