"""Game-Turn 1 combat obligations (AO-4.2h*).

In the German Combat Phase of Game-Turn 1 every American unit adjacent to a German unit must
be attacked and every German unit adjacent to an American unit must attack. The units
concerned are fixed when the phase begins (:func:`gt1_obliged`, ``combat.obliged``); a
declaration that would make an obligation impossible is refused
(:func:`gt1_declaration_check`) and the phase may not end while one can still be met
(:func:`gt1_unmet`).
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.ao.combat.protocol import reserved, side_of
from rules.ao.state import Attack, Board, GameState, UnitState
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection


def gt1_obliged(board: Board, state: GameState) -> tuple[str, ...]:
    """At the start of the German GT1 Combat Phase: American units in play next to a German
    unit, and German units in play next to an American unit (AO-4.2h*)."""
    m = board.game_map
    by_hex: dict[HexId, list[UnitState]] = {}
    for u in state.units:
        if u.in_play and u.hex is not None and not m.is_allied_edge(u.hex):
            by_hex.setdefault(u.hex, []).append(u)
    out: set[str] = set()
    for h, units in by_hex.items():
        for n in m.neighbours(h):
            for o in by_hex.get(n, []):
                for u in units:
                    if side_of(board, u.id) != side_of(board, o.id):
                        out.add(u.id)
    return tuple(sorted(out))


def _obliged(board: Board, state: GameState) -> Iterator[UnitState]:
    """The obliged units still in play on the map proper."""
    m = board.game_map
    for uid in state.combat.obliged:
        u = state.find(uid)
        if u is None or not u.in_play or u.hex is None or m.is_allied_edge(u.hex):
            continue
        yield u


def _around(board: Board, state: GameState, u: UnitState, side: Side) -> list[UnitState]:
    assert u.hex is not None
    return [
        o
        for n in board.game_map.neighbours(u.hex)
        for o in state.at(n)
        if side_of(board, o.id) == side
    ]


def _free_germans(board: Board, state: GameState, u: UnitState) -> list[UnitState]:
    """German units next to the American ``u`` that have not attacked yet."""
    return [g for g in _around(board, state, u, "german") if not g.attacked]


def _targets(board: Board, state: GameState, u: UnitState) -> list[UnitState]:
    """American units next to the German ``u``, not yet attacked, off the Allied Map Edge."""
    m = board.game_map
    return [
        a
        for a in _around(board, state, u, "allied")
        if not a.was_attacked and not m.is_allied_edge(a.hex or "")
    ]


def gt1_unmet(board: Board, state: GameState) -> tuple[list[str], list[str]]:
    """American units still to be attacked and German units still to attack (AO-4.2h*), counting
    only obligations that can still be met (an attackable neighbour is left)."""
    us_left, de_left = [], []
    for u in _obliged(board, state):
        if side_of(board, u.id) == "allied":
            if not u.was_attacked and _free_germans(board, state, u):
                us_left.append(u.id)
        elif not u.attacked and _targets(board, state, u):
            de_left.append(u.id)
    return us_left, de_left


def gt1_declaration_check(board: Board, state: GameState, attack: Attack) -> Rejection | None:
    """AO-4.2h* at declaration: an attack may not make an obligation impossible - leave an
    obliged American unit with no German neighbour free to attack it, or an obliged German unit
    with no American neighbour left to attack."""
    if not (state.turn == 1 and state.side == "german" and state.combat.obliged):
        return None
    busy_units, busy_hexes = reserved(state)
    used = busy_units | set(attack.attackers)
    hit = busy_hexes | set(attack.defenders)
    for u in _obliged(board, state):
        uid = u.id
        if side_of(board, uid) == "allied":
            if u.was_attacked or u.hex in hit:
                continue
            free = _free_germans(board, state, u)
            if any(g.id not in busy_units for g in free) and all(g.id in used for g in free):
                return Rejection(
                    "AO-4.2h*",
                    f"{uid} in {u.hex} must be attacked on Game-Turn 1 and this attack would "
                    "leave no German unit free to attack it",
                )
        elif not u.attacked and uid not in used:
            targets = _targets(board, state, u)
            if any((a.hex or "") not in busy_hexes for a in targets) and all(
                (a.hex or "") in hit for a in targets
            ):
                return Rejection(
                    "AO-4.2h*",
                    f"{uid} must take part in an attack on Game-Turn 1 and this attack would "
                    "leave it no American unit to attack: include it",
                )
    return None
