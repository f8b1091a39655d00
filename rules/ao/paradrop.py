"""The German paradrop (AO-15): von der Heydte's drop on Game-Turn 2.

* **Who and when** (AO-15.a, AO-15.b): the one unit whose schedule section is ``drop``, on its
  scheduled Game-Turn (2 in every German schedule), at the start of the German Initial Movement
  Phase, before any other movement. The drop is mandatory: while :func:`drop_pending` holds,
  the engine refuses every other move and the end of the phase (:func:`check_not_pending`).
* **Where** (AO-15.a): any hex on the map that is not impassable, not an Allied Map Edge hex
  (German units never enter them, AO-5.3L), holds no Allied unit and is not in an Allied Zone
  of Control - with no exception: a German unit already in the hex does not open it (the
  rules call a friendly-held hex next to an enemy "in an Enemy Zone of Control", AO-12.1A;
  the negation of AO-7.2B frees the units in the hex, and the paratroop unit is not yet
  there; ``docs/rules-notes.md``). Allied units in Road Mode control only their own hex
  (AO-6.6J), Allied units on Map Edge hexes nothing (AO-7.5E). The
  stacking limit holds in a German-held hex (AO-8), and so does road-column spacing: the unit
  lands in normal mode, so never in a hex holding a German Road Mode unit nor in a road hex
  connected to one by a road hexside (AO-6.5G, "regardless of whether or not the other unit
  is in Road Mode"; reinforcements staging on an entry hex are in Road Mode too).
* **Survival** (AO-15.b): one die; 1 or 2 survives, 3-6 eliminates the unit. The eliminated unit
  is a destroyed unit like any other: 1 VP to the Allies (AO-16.A). A survivor lands in normal
  mode, supplied for that player-turn (its marker is set to ``supplied``; the German Supply
  Judgment Phase has already passed) and may move in that phase.

Pure: the die comes from :func:`rules.dice.draw` at the state's dice position.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.ao import stacking
from rules.ao.reinforcements import DROP, schedule
from rules.ao.roadmode import road_links
from rules.ao.state import Board, GameState, UnitState
from rules.ao.zoc import occupied_by, zoc_of_side
from rules.dice import DiceSource, DieRoll, draw
from rules.hexgrid import HexId
from rules.rejection import Rejection

SURVIVES_ON: Final = frozenset({1, 2})
"""Die values on which the paratroop unit survives (AO-15.b)."""
PURPOSE: Final = "paradrop"


class DropResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a drop did: the unit's new row, the die, whether it survived, and the state after
    it (unit row replaced, dice position advanced)."""

    unit: UnitState
    roll: DieRoll
    survived: bool
    state: GameState


def drop_unit(board: Board) -> str | None:
    """The paratroop unit that drops (AO-15.b: the only one able to), or None. Cached."""
    return board.derived(
        "paradrop.unit",
        lambda b: next((u for u, (_t, sec) in sorted(schedule(b).items()) if sec == DROP), None),
    )


def drop_turn(board: Board) -> int | None:
    """The Game-Turn of the drop (the unit's scheduled turn, 2 in every schedule)."""
    uid = drop_unit(board)
    return None if uid is None else schedule(board)[uid][0]


def drop_pending(board: Board, state: GameState) -> bool:
    """The drop must happen now, before anything else in this phase (AO-15.a): the German
    Initial Movement Phase of the drop turn, the unit not yet dropped."""
    uid = drop_unit(board)
    if uid is None:
        return False
    us = state.find(uid)
    return (
        us is not None
        and us.status == "not_arrived"
        and state.side == "german"
        and state.phase == "initial_movement"
        and state.turn == schedule(board)[uid][0]
    )


def check_not_pending(board: Board, state: GameState, what: str) -> Rejection | None:
    """The refusal of any other command (``what``: "a move", "the end of the phase") while
    the drop is pending (AO-15.a)."""
    if not drop_pending(board, state):
        return None
    return Rejection(
        "AO-15.a",
        f"{drop_unit(board)} must drop at the start of the German Initial Movement Phase, "
        f"before {what}",
    )


def _closed(board: Board, state: GameState) -> frozenset[HexId]:
    """Allied-occupied hexes and every hex in an Allied Zone of Control, whoever holds it
    (AO-15.a: no negation by a German unit in the hex)."""
    return occupied_by(board, state, "allied") | zoc_of_side(board, state, "allied")


def _road_column(board: Board, state: GameState) -> frozenset[HexId]:
    """Hexes a normal-mode German unit may not occupy (AO-6.5G): those holding a German unit
    in Road Mode and the road hexes connected to them by a road hexside."""
    m = board.game_map
    out: set[HexId] = set()
    for u in state.units:
        if u.road_mode and u.in_play and u.hex is not None and board.defs[u.id].side == "german":
            out.add(u.hex)
            out.update(road_links(m, u.hex))
    return frozenset(out)


def check_drop(board: Board, state: GameState, hex_id: HexId) -> Rejection | None:
    """Whether the paratroop unit may drop on ``hex_id`` now (AO-15.a, AO-5.3L, AO-6.5G, AO-8)."""
    uid = drop_unit(board)
    if uid is None:
        return Rejection("AO-15.b", "this game has no paratroop unit able to drop")
    if not drop_pending(board, state):
        return Rejection(
            "AO-15.a",
            f"{uid} drops only at the start of the German Initial Movement Phase of Game-Turn "
            f"{drop_turn(board)}, once",
        )
    m = board.game_map
    if hex_id not in m:
        return Rejection("AO-15.a", f"{hex_id} is not on the map")
    if m.hex(hex_id).terrain == "impassable":
        return Rejection("AO-15.a", f"{uid} may not drop on the impassable hex {hex_id}")
    if m.is_allied_edge(hex_id):
        return Rejection(
            "AO-5.3L", f"German units may never enter Allied Map Edge hexes ({hex_id})"
        )
    if hex_id in occupied_by(board, state, "allied"):
        return Rejection("AO-15.a", f"{uid} may not drop on the Allied-occupied hex {hex_id}")
    if hex_id in zoc_of_side(board, state, "allied"):
        held = " (a German unit there does not negate it for the drop)" if state.at(hex_id) else ""
        return Rejection(
            "AO-15.a", f"{uid} may not drop in an Allied Zone of Control ({hex_id}){held}"
        )
    if hex_id in _road_column(board, state):
        return Rejection(
            "AO-6.5G",
            f"{uid} may not drop on or next to (along the road) a German unit in Road Mode "
            f"({hex_id})",
        )
    others = [board.defs[u.id] for u in state.at(hex_id)]
    return stacking.check_stack(m, board.defs[uid], hex_id, others)


def drop_hexes(board: Board, state: GameState) -> tuple[HexId, ...]:
    """Every hex :func:`check_drop` accepts now, sorted (empty when no drop is pending)."""
    uid = drop_unit(board)
    if uid is None or not drop_pending(board, state):
        return ()
    m = board.game_map
    closed = _closed(board, state) | _road_column(board, state)
    d = board.defs[uid]
    out: list[HexId] = []
    for h in m:
        if h in closed or m.hex(h).terrain == "impassable" or m.is_allied_edge(h):
            continue
        others = [board.defs[u.id] for u in state.at(h)]
        if stacking.check_stack(m, d, h, others) is None:
            out.append(h)
    return tuple(out)


def resolve_drop(
    board: Board, state: GameState, hex_id: HexId, dice: DiceSource
) -> DropResult | Rejection:
    """Drop the paratroop unit on ``hex_id`` and roll for it (AO-15.a, AO-15.b)."""
    bad = check_drop(board, state, hex_id)
    if bad is not None:
        return bad
    uid = drop_unit(board)
    assert uid is not None
    roll, nxt = draw(dice, state.dice_drawn, PURPOSE)
    survived = roll.value in SURVIVES_ON
    us = state.unit(uid)
    if survived:
        row = msgspec.structs.replace(
            us, hex=hex_id, status="on_map", road_mode=False, supply="supplied", moved=False
        )
    else:
        row = msgspec.structs.replace(us, hex=None, status="eliminated", road_mode=False)
    new = msgspec.structs.replace(state.replace_units([row]), dice_drawn=nxt)
    return DropResult(unit=row, roll=roll, survived=survived, state=new)


def drop_required(board: Board, state: GameState) -> bool:
    """The drop must happen before anything else now (AO-15.a): it is pending and some hex can
    take it. When no hex on the map can, the drop lapses: the unit never enters and scores no
    VP (our reading). Cached per state (movement asks once per unit)."""
    if not drop_pending(board, state):
        return False
    return board.for_state("paradrop.required", state, lambda b, s: bool(drop_hexes(b, s)))
