"""Moves the phasing player owes before a movement phase ends: road-column contacts left by a
retreat (AO-6.7N, AO-6.5G) and reinforcements crowding an entry hex (AO-14.2B, AO-8.0).

**Road-column contacts.** AO-6.5G: "A unit in Road Mode may not stack with, nor be adjacent to,
any other unit on that Road hex, or adjacent connected Road hexes"; movement never breaks it,
but a retreat may: AO-6.7N lets a Road Mode unit end its retreat "adjacent to another unit on
the Road", and then "one or both of the units must be moved at the beginning of the next
Friendly Initial Movement Phase, in order to conform to Case G". A *contact* is an ordered
pair ``(r, f)`` of friendly units on the live map: ``r`` in Road Mode, ``f`` in ``r``'s hex or
in a road hex joined to it by a road hexside. Allied Map Edge hexes do not count (AO-8.3F), nor
reinforcements still staging (AO-14.2B: see the crowds below). Two Road Mode units next to each
other make two contacts, so that each unit leaving Road Mode counts.

The forced exit of AO-6.7L* (:func:`rules.ao.sequence.forced_road_mode_exits`) takes the retreated
unit out of Road Mode first; when the friend beside it is in Road Mode too, a contact is left.
The owner then chooses which unit moves (out of Road Mode in place, or away): ``EndPhase`` is
refused (AO-6.7N) while some legal move of a unit in a contact leaves fewer contacts
(:func:`contact_fixes`). A contact that no single move can reduce (both units hemmed in, or
unable to pay the MP) does not hold the phase: it is looked at again at the next Initial
Movement Phase. The rule asks for the move "at the beginning" of the phase; we ask for it
before the phase ends and leave the order of the moves to the player.

**Crowded entry hexes.** AO-14.2B: reinforcements "which choose to use the same entry road hex
must 'stage' onto the map"; while they wait there they are free of the stacking limit and of
Road Mode spacing, which otherwise hold "at ALL times" (AO-8.0). A *crowd* is a live hex holding
two or more units of the phasing side, one of them a reinforcement still staging (not moved
since it was placed). ``EndPhase`` of a movement phase is refused (AO-14.2B) while a staging
unit of a crowd may move off its hex (:func:`crowd_fixes`): the player may choose which one
stays, but he may not hold reinforcements back by leaving them on the edge (they "may not be
voluntarily delayed", AO-14.1A; the German "places all new units", AO-4.1b). Those that cannot
get off go back off the map when the phase ends and are due again
(:func:`rules.ao.sequence.withdraw_crowded_reinforcements`).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from rules.ao.commands import Move
from rules.ao.movement import Reach, legal_moves
from rules.ao.roadmode import road_links
from rules.ao.state import Board, GameState, UnitState
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection


def column_contacts(board: Board, state: GameState, side: Side) -> tuple[tuple[str, str], ...]:
    """Every contact ``(Road Mode unit, friend)`` of ``side`` (see the module docstring),
    sorted."""
    m = board.game_map
    by_hex: dict[HexId, list[UnitState]] = {}
    for u in state.units:
        if u.status != "on_map" or u.hex is None or board.defs[u.id].side != side:
            continue
        if m.is_allied_edge(u.hex) or u.staging is not None:
            continue  # AO-8.3F; a reinforcement still staging is a crowd's, not a contact
        by_hex.setdefault(u.hex, []).append(u)
    out: list[tuple[str, str]] = []
    for h in sorted(by_hex):
        for r in by_hex[h]:
            if not r.road_mode:
                continue
            for n in (h, *road_links(m, h)):
                out.extend((r.id, f.id) for f in by_hex.get(n, ()) if f.id != r.id)
    return tuple(sorted(out))


class ColumnFix(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A legal move that leaves fewer road-column contacts: ``unit`` to ``hex`` by ``reach``
    (its path, cost and mode on arrival)."""

    unit: str
    hex: HexId
    reach: Reach

    @property
    def command(self) -> Move:
        return Move(self.unit, self.reach.path)


def _fixes(board: Board, state: GameState) -> Iterator[ColumnFix]:
    side = state.side
    pairs = column_contacts(board, state, side)
    for uid in sorted({uid for pair in pairs for uid in pair}):
        row = state.unit(uid)
        for mode in (False, True):
            for h, reach in legal_moves(board, state, uid, mode).items():
                moved = msgspec.structs.replace(row, hex=h, road_mode=reach.road_mode)
                after = state.replace_units([moved])
                if len(column_contacts(board, after, side)) < len(pairs):
                    yield ColumnFix(unit=uid, hex=h, reach=reach)


def contact_fixes(board: Board, state: GameState) -> tuple[ColumnFix, ...]:
    """In the phasing side's Initial Movement Phase, every legal move (one per unit, end hex
    and mode) that leaves the side fewer road-column contacts (AO-6.7N); () otherwise."""
    if state.phase != "initial_movement":
        return ()
    return tuple(_fixes(board, state))


def crowds(board: Board, state: GameState) -> dict[HexId, tuple[UnitState, ...]]:
    """The live hexes where two or more units of the phasing side stand, one of them a
    reinforcement still staging (AO-14.2B), with their units; Allied Map Edge hexes have no
    limit (AO-8.3F)."""
    m = board.game_map
    by_hex: dict[HexId, list[UnitState]] = {}
    for u in state.units:
        if u.status == "on_map" and u.hex is not None and board.defs[u.id].side == state.side:
            by_hex.setdefault(u.hex, []).append(u)
    return {
        h: tuple(us)
        for h, us in sorted(by_hex.items())
        if len(us) > 1 and not m.is_allied_edge(h) and any(u.staging is not None for u in us)
    }


def _crowd_fixes(board: Board, state: GameState) -> Iterator[ColumnFix]:
    for h, units in crowds(board, state).items():
        for u in units:
            if u.staging is None:
                continue
            for mode in (False, True):
                for end, reach in legal_moves(board, state, u.id, mode).items():
                    if end != h:
                        yield ColumnFix(unit=u.id, hex=end, reach=reach)


def crowd_fixes(board: Board, state: GameState) -> tuple[ColumnFix, ...]:
    """In a movement phase, every legal move of a staging reinforcement off a crowded entry hex
    (one per unit, end hex and mode; AO-14.2B)."""
    if state.phase not in ("initial_movement", "mechanized_movement"):
        return ()
    return tuple(_crowd_fixes(board, state))


def owed_moves(board: Board, state: GameState) -> tuple[ColumnFix, ...]:
    """The moves the phasing player owes now, any one of which he may make next: the
    road-column fixes (:func:`contact_fixes`), else the crowd fixes (:func:`crowd_fixes`)."""
    return contact_fixes(board, state) or crowd_fixes(board, state)


def crowd_end_check(board: Board, state: GameState) -> Rejection | None:
    """``EndPhase`` of a movement phase is refused while a staging reinforcement can still move
    off a crowded entry hex (AO-14.2B)."""
    if state.phase not in ("initial_movement", "mechanized_movement"):
        return None
    fix = next(_crowd_fixes(board, state), None)
    if fix is None:
        return None
    h = state.unit(fix.unit).hex
    assert h is not None
    names = ", ".join(u.id for u in crowds(board, state)[h])
    return Rejection(
        "AO-14.2B",
        f"{names} crowd {h}: reinforcements stage onto the map and may not stay stacked on "
        "their entry hex (AO-8.0); move them off (those that cannot go back off the map when "
        "the phase ends)",
    )


def contact_end_check(board: Board, state: GameState) -> Rejection | None:
    """``EndPhase`` of an Initial Movement Phase is refused while a road-column contact of the
    phasing side can still be reduced by a legal move (AO-6.7N, to conform to AO-6.5G)."""
    if state.phase != "initial_movement":
        return None
    pairs = column_contacts(board, state, state.side)
    if not pairs or next(_fixes(board, state), None) is None:
        return None
    names = ", ".join(f"{a} and {b}" for a, b in sorted({tuple(sorted(p)) for p in pairs}))
    return Rejection(
        "AO-6.7N",
        f"a Road Mode unit may not stack with or be next to a friend on the road (AO-6.5G): "
        f"move one or both of {names} first (out of Road Mode, or away)",
    )


__all__ = [
    "ColumnFix",
    "column_contacts",
    "contact_end_check",
    "contact_fixes",
    "crowd_end_check",
    "crowd_fixes",
    "crowds",
    "owed_moves",
]
