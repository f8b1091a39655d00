"""Combat strengths, odds and exchange losses (AO-9.3-9.5, AO-10.1b, AO-12.6), in integers.

Strength of one side of a combat (:func:`attack_strength`, :func:`defence_strength`), hex by
hex, then summed over the hexes (a group may attack from several hexes, AO-9.2E, and attack
several hexes together, AO-9.2D):

1. **Stack total.** The printed strengths of the units in the hex are added up, per class of
   (supply state, Road Mode); a stack is halved as a total, never unit by unit (AO-9.5M).
2. **Supply first** (AO-9.3J, AO-12.6). Attack: unsupplied halved, isolated zero. Defence:
   isolated halved, judged at the moment of combat, so the caller passes it (``supply``).
3. **Road Mode** halves (AO-6.6K), after supply. Halving rounds up, and two halvings in a row
   give ``ceil(x / 4)`` in either order, so the order of 2 and 3 never changes a result.
4. **Terrain and Game-Turn 1, last** (AO-9.3J), German units only, on the hex total:
   West Wall x3 in defence and x2 attacking out of it (AO-11.h), the second fortified terrain
   x2 in defence (AO-11.i), Game-Turn 1 x3 in attack (AO-4.2d) and in defence (AO-4.2e).
   In attack, "tripled (but never more than tripled)" (AO-4.2d, the German GT1 Combat Phase):
   the West Wall doubling does not combine with it, the factor is 3. In defence, AO-4.2e
   ("German units are tripled in defense", the Allied GT1 Combat Phase) has no such cap, and
   both it and the terrain apply: the factors multiply, West Wall x3 x3 = x9, fortified x2 x3
   = x6 (``docs/rules-notes.md``, AO-4.2d / AO-4.2e, both readings).
   Allied units get no terrain factor.

A unit retreated into a stack in this Combat Phase adds no defence strength (AO-9.2F*): the
caller names such units in ``retreated``.

Odds (:func:`odds_column`): attack to defence rounded down in the defender's favour
(AO-9.3K, 26-9 is 2-1); every ratio below 1-1 is read on the 1-2 column (between 1-2 and 1-1
rounding down gives 1-2, below 1-2 the table says "treated as 1-2", AO-10.0a), everything from
9-1 up on the 9-1 column; an attack strength of 0 makes no attack possible (AO-12.6).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Final

from rules.ao.crt import ODDS_COLUMNS
from rules.ao.gamemap import GameMap
from rules.ao.state import Board, GameState, Supply, UnitState
from rules.ao.units import Side, UnitDef
from rules.hexgrid import HexId
from rules.rejection import Rejection

Combatant = tuple[UnitDef, UnitState]
"""A unit in a combat: its printed values and its current state (hex, supply, Road Mode)."""

GT1_FACTOR: Final = 3
"""German units are tripled on Game-Turn 1, in attack (AO-4.2d) and in defence (AO-4.2e)."""

GERMAN_LOWEST_REDUCTION: Final = "2-1"
"""The German player may never voluntarily reduce his odds below 2-1 (AO-9.4L*)."""


def halve_up(n: int) -> int:
    """Half of ``n``, fractions rounded up (AO-9.3J: half of nine is five)."""
    if n < 0:
        raise ValueError(f"cannot halve a negative strength {n}")
    return (n + 1) // 2


# -- strengths ----------------------------------------------------------------------------------


def _by_hex(units: Sequence[Combatant]) -> dict[HexId, list[Combatant]]:
    groups: dict[HexId, list[Combatant]] = {}
    sides = {d.side for d, _ in units}
    if len(sides) > 1:
        raise ValueError("units of both sides in one side of a combat")
    for d, u in units:
        if u.id != d.id:
            raise ValueError(f"unit state {u.id} paired with the counter of {d.id}")
        if u.hex is None:
            raise ValueError(f"{u.id} is not on the map")
        groups.setdefault(u.hex, []).append((d, u))
    return groups


_ATTACK_SUPPLY: Final[dict[Supply, Callable[[int], int]]] = {
    "supplied": lambda s: s,
    "unsupplied": halve_up,
    "isolated": lambda s: 0,
}
_DEFENCE_SUPPLY: Final[dict[Supply, Callable[[int], int]]] = {
    "supplied": lambda s: s,
    "unsupplied": lambda s: s,
    "isolated": halve_up,
}


def _hex_total(
    units: Iterable[Combatant],
    supply_of: Callable[[UnitState], Supply],
    effect: Mapping[Supply, Callable[[int], int]],
) -> int:
    """Steps 1-3 for the units of one hex: a total per (supply, Road Mode) class, the supply
    effect on that total (AO-9.5M), then the Road Mode halving (AO-6.6K)."""
    classes: dict[tuple[Supply, bool], int] = {}
    for d, u in units:
        key = (supply_of(u), u.road_mode)
        classes[key] = classes.get(key, 0) + d.strength
    total = 0
    for (supply, road_mode), strength in sorted(classes.items()):
        s = effect[supply](strength)
        total += halve_up(s) if road_mode else s
    return total


def attack_factor(game_map: GameMap, hex_id: HexId, side: Side, turn: int) -> int:
    """Terrain/Game-Turn factor of units attacking out of ``hex_id``: German x2 out of a West
    Wall hex (AO-11.h); on Game-Turn 1 x3, "never more than tripled" (AO-4.2d), so out of
    the West Wall too x3, not x6; Allied x1."""
    if side != "german":
        return 1
    if turn == 1:
        return GT1_FACTOR
    return 2 if game_map.hex(hex_id).fortification == "westwall" else 1


def defence_factor(game_map: GameMap, hex_id: HexId, side: Side, turn: int) -> int:
    """Terrain/Game-Turn factor of units defending ``hex_id``: German x3 in a West Wall hex
    (AO-11.h), x2 in the second fortified terrain (AO-11.i), times 3 on Game-Turn 1
    (AO-4.2e: "tripled in defense", with no cap; the terrain applies as well):
    x9 in the West Wall, x6 in fortified terrain, x3 elsewhere on GT1; Allied x1."""
    if side != "german":
        return 1
    fort = game_map.hex(hex_id).fortification
    terrain = 3 if fort == "westwall" else 2 if fort == "fortified" else 1
    return terrain * (GT1_FACTOR if turn == 1 else 1)


def attack_strength(units: Sequence[Combatant], game_map: GameMap, *, turn: int) -> int:
    """Total attack strength of ``units`` (one side, any number of hexes; each attacks out of
    its ``UnitState.hex``), with the supply state of its ``UnitState.supply``, fixed at the
    attacker's Supply Judgment Phase (AO-12.4K). Steps 1-4 of the module docstring."""
    total = 0
    for hex_id, group in sorted(_by_hex(units).items()):
        side = group[0][0].side
        hex_total = _hex_total(group, lambda u: u.supply, _ATTACK_SUPPLY)
        total += hex_total * attack_factor(game_map, hex_id, side, turn)
    return total


def defence_strength(
    units: Sequence[Combatant],
    game_map: GameMap,
    *,
    turn: int,
    supply: Mapping[str, Supply],
    retreated: Collection[str] = (),
) -> int:
    """Total defence strength of ``units`` (one side, one hex or several for a multi-hex
    attack, AO-9.2D). ``supply`` is every defender's supply state judged at the moment of
    combat (AO-12.4K); units named in ``retreated`` were retreated into their stack in this
    Combat Phase and add nothing (AO-9.2F*). Steps 1-4 of the module docstring."""
    missing = sorted(d.id for d, _ in units if d.id not in supply)
    if missing:
        raise ValueError(f"no supply state at the moment of combat for {', '.join(missing)}")
    total = 0
    for hex_id, group in sorted(_by_hex(units).items()):
        side = group[0][0].side
        counted = [(d, u) for d, u in group if d.id not in retreated]
        hex_total = _hex_total(counted, lambda u: supply[u.id], _DEFENCE_SUPPLY)
        total += hex_total * defence_factor(game_map, hex_id, side, turn)
    return total


def _combatants(board: Board, state: GameState, unit_ids: Iterable[str]) -> list[Combatant]:
    return [(board.defs[uid], state.unit(uid)) for uid in sorted(set(unit_ids))]


def attack_strength_in(board: Board, state: GameState, attackers: Iterable[str]) -> int:
    """:func:`attack_strength` of the units ``attackers`` in ``state``."""
    return attack_strength(_combatants(board, state, attackers), board.game_map, turn=state.turn)


def defence_strength_in(
    board: Board,
    state: GameState,
    hexes: Iterable[HexId],
    *,
    supply: Mapping[str, Supply],
    retreated: Collection[str] = (),
) -> int:
    """:func:`defence_strength` of every unit in play in ``hexes`` in ``state``."""
    ids = [u.id for h in sorted(set(hexes)) for u in state.at(h)]
    return defence_strength(
        _combatants(board, state, ids),
        board.game_map,
        turn=state.turn,
        supply=supply,
        retreated=retreated,
    )


# -- odds ---------------------------------------------------------------------------------------


def odds_column(attack: int, defence: int) -> str | Rejection:
    """The CRT column of ``attack`` against ``defence`` (see the module docstring), or a
    rejection when the attack strength is zero (AO-12.6: no attack is possible)."""
    if attack < 0 or defence < 0:
        raise ValueError(f"negative strength {attack}-{defence}")
    if attack == 0:
        return Rejection("AO-12.6", f"attack strength 0 against {defence}: no attack is possible")
    if attack < defence:
        return "1-2"
    if defence == 0:
        return ODDS_COLUMNS[-1]
    return f"{min(attack // defence, 9)}-1"


def column_rank(column: str) -> int:
    """Position of ``column`` in :data:`rules.ao.crt.ODDS_COLUMNS` (1-2 is 0, 9-1 is 9)."""
    if column not in ODDS_COLUMNS:
        raise ValueError(f"unknown odds column {column!r}")
    return ODDS_COLUMNS.index(column)


def reduce_odds(column: str, wanted: str, side: Side) -> str | Rejection:
    """The column an attack at real odds ``column`` is resolved on when the attacker asks for
    ``wanted`` (AO-9.4L): never above the real odds; the German player never below 2-1
    (AO-9.4L*). An attack whose real odds are already below 2-1 may be made by the German at
    those odds (``wanted == column``) but not reduced further."""
    real, want = column_rank(column), column_rank(wanted)
    if want > real:
        return Rejection(
            "AO-9.4L", f"the odds may only be reduced: {wanted} is above the real odds {column}"
        )
    if want < real and side == "german" and want < column_rank(GERMAN_LOWEST_REDUCTION):
        return Rejection(
            "AO-9.4L*",
            f"the German player may not reduce his odds below {GERMAN_LOWEST_REDUCTION} "
            f"({column} to {wanted})",
        )
    return wanted


# -- exchange losses ------------------------------------------------------------------------------


def face_total(units: Iterable[UnitDef]) -> int:
    """The printed strength of ``units``, no terrain or supply (AO-10.1b)."""
    return sum(d.strength for d in units)


def ex_loss_options(
    attackers: Sequence[UnitDef], defender_face_total: int
) -> list[tuple[str, ...]]:
    """The minimal sets of attacking units whose printed strengths total at least
    ``defender_face_total`` (AO-10.1b): no unit of a set can be left out. Each set is sorted by
    unit id; the list is sorted by printed total, then size, then ids. When all the attackers
    together fall short, the only option is all of them."""
    units = sorted(attackers, key=lambda d: (-d.strength, d.id))
    ids = [d.id for d in units]
    if len(set(ids)) != len(ids):
        raise ValueError("an attacker is listed twice")
    need = defender_face_total
    if need <= 0:
        return [()]
    if face_total(units) < need:
        return [tuple(sorted(ids))]
    suffix = [0] * (len(units) + 1)
    for i in range(len(units) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + units[i].strength
    found: list[tuple[int, int, tuple[str, ...]]] = []
    chosen: list[UnitDef] = []

    def walk(i: int, total: int) -> None:
        if total >= need:
            if total - min(d.strength for d in chosen) < need:
                picked = tuple(sorted(d.id for d in chosen))
                found.append((total, len(picked), picked))
            return
        if i == len(units) or total + suffix[i] < need:
            return
        chosen.append(units[i])
        walk(i + 1, total + units[i].strength)
        chosen.pop()
        walk(i + 1, total)

    walk(0, 0)
    return [ids_ for _, _, ids_ in sorted(found)]


def check_ex_losses(
    chosen: Sequence[str], attackers: Sequence[UnitDef], defender_face_total: int
) -> Rejection | None:
    """Whether eliminating ``chosen`` satisfies an Ex result (AO-10.1b): attacking units, each
    once, whose printed strengths total at least ``defender_face_total`` - or every attacker
    when they all together fall short. A set larger than needed is allowed: the text asks for
    "at least"."""
    by_id = {d.id: d for d in attackers}
    if len(set(chosen)) != len(chosen):
        return Rejection("AO-10.1b", "a unit is named twice among the Ex losses")
    strangers = sorted(set(chosen) - set(by_id))
    if strangers:
        return Rejection("AO-10.1b", f"{', '.join(strangers)} did not take part in the attack")
    total = sum(by_id[c].strength for c in chosen)
    if total >= defender_face_total:
        return None
    if len(chosen) == len(by_id):
        return None
    return Rejection(
        "AO-10.1b",
        f"the Ex losses total {total}; the attacker must eliminate at least "
        f"{defender_face_total} (the defenders' printed strength)",
    )
