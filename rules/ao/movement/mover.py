"""Who may move now (AO-4.1b, AO-5.1A/E, AO-5.2K, AO-5.3M) and :class:`Mover`: everything one
unit's path check or search needs, gathered once from the tables and the state snapshot."""

from __future__ import annotations

from typing import Final

from rules.ao import paradrop, reinforcements, roadmode, stacking
from rules.ao.movement.tables import Snapshot, board_tables, state_snapshot
from rules.ao.state import Board, GameState, UnitState, other_side, phase_is_lost
from rules.ao.units import Side, UnitDef
from rules.hexgrid import HexId, Hexside
from rules.rejection import Rejection

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


class Mover:
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

    def __init__(
        self,
        board: Board,
        state: GameState,
        unit_id: str,
        modes: tuple[bool, ...] = (False, True),
    ) -> None:
        """``modes``: the modes (Road Mode or not) the mover may be in on its path; the hexes
        barred in another mode are not worked out (asking for them fails)."""
        snap = state_snapshot(board, state)
        t = board_tables(board)
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
        self.closed: frozenset[HexId] = snap.closed(d.side)
        # AO-6.5G: hexes barred to the mover in Road Mode / in normal mode.
        own = snap.by_hex[d.side].get(self.start, ())
        self.rm_block: frozenset[HexId] = (
            _without_own(snap, d.side, True, self.start, own, mates) if True in modes else _UNASKED
        )
        self.nm_block: frozenset[HexId] = (
            _without_own(snap, d.side, False, self.start, own, mates)
            if False in modes
            else _UNASKED
        )


class _Unasked(frozenset[HexId]):
    """The barred hexes of a mode the mover was built without: asking is a bug."""

    def __contains__(self, h: object) -> bool:
        raise AssertionError(f"the Mover was built without this mode's barred hexes ({h})")


_UNASKED: Final = _Unasked()


def _without_own(
    snap: Snapshot,
    side: Side,
    road_mode: bool,
    start: HexId,
    own: tuple[UnitState, ...],
    mates: tuple[UnitState, ...],
) -> frozenset[HexId]:
    """The hexes the mover may not occupy in that mode (AO-6.5G): those its side's units bar
    (:meth:`Snapshot.column_blocks`), less what only its own presence in ``start`` bars (the
    friends it leaves there, ``mates``, still count)."""
    blocked, count = snap.column_blocks(side, road_mode)
    with_me = snap.column_contribution(start, own, road_mode)
    without_me = snap.column_contribution(start, mates, road_mode)
    if with_me == without_me:
        return blocked
    return blocked - frozenset(h for h in with_me - without_me if count[h] == 1)
