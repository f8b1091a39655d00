"""Questions a position can be asked (``ardennes rules supply|interdiction|odds``), as structs.

Each answer is computed by the engine's own code, never a second implementation of a rule:

* :func:`supply_report`: for one side, the markers the state carries (set at that side's last
  Supply Judgment, AO-12.0), what a Supply Judgment would mark now (with the bridges the enemy
  interdicts now, AO-13.1A) and the supply at the moment of combat as a defender (AO-12.4K,
  AO-13.c*), each unit with its supply path (AO-12.1A: at most three hexes to a road of the
  net) when it has one.
* :func:`interdiction_report`: the bridges stored as interdicted for each side (AO-13.1A, set at
  its Supply Judgment) and those each side's enemy interdicts now.
* :func:`odds_report`: an attack's strengths hex by hex and class by class (AO-9.5M stacks,
  AO-12.6 supply, AO-6.6K Road Mode, AO-11.h/i and AO-4.2d/e factors; AO-9.2F* retreated
  defenders), the odds column and CRT, and the refusal :func:`rules.ao.combat.check_attack` would
  give a declaration. The totals are checked against :func:`rules.ao.odds` (a test does too).
* :func:`map_graph`: per hex of a map, its neighbours, road links, Road Mode links, road exit
  hexsides and supply sources (``ardennes map --graph``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

import msgspec

from rules.ao.combat import check_attack, defender_supply
from rules.ao.combat.protocol import defending_units
from rules.ao.crt import Table, crt_for
from rules.ao.gamemap import GameMap
from rules.ao.interdiction import interdiction_at_combat, interdiction_for
from rules.ao.odds import (
    attack_factor,
    attack_strength_in,
    defence_factor,
    defence_strength_in,
    halve_up,
    odds_column,
)
from rules.ao.roadmode import road_links, road_mode_passable
from rules.ao.state import Attack, Board, GameState, Supply, other_side
from rules.ao.supply import (
    allied_exit_hexsides,
    german_exit_hexes,
    path_to_net,
    supply_judgment,
    supply_net,
)
from rules.ao.units import Side
from rules.hexgrid import HexId, Hexside
from rules.rejection import Rejection


class UnitSupply(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One unit: its hex, the marker it carries, what a Supply Judgment would mark now, its
    supply as a defender now, and a supply path now (hexes after its own; ``[]`` on the net;
    absent when there is none)."""

    unit: str
    hex: HexId
    marker: Supply
    judged: Supply
    defending: Supply
    path: tuple[HexId, ...] | None = None


class SupplyReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side
    units: tuple[UnitSupply, ...]


class InterdictionReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Bridges interdicted *for* each side: ``stored`` at its last Supply Judgment (what its
    movement and supply use), ``now`` what its enemy's units interdict in this position."""

    stored: Mapping[Side, tuple[Hexside, ...]]
    now: Mapping[Side, tuple[Hexside, ...]]


class SupplyClass(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The units of one hex with the same supply state and mode, totalled and halved as one
    (AO-9.5M): ``printed`` is their total, ``value`` after supply and Road Mode."""

    supply: Supply
    road_mode: bool
    units: tuple[str, ...]
    printed: int
    value: int


class HexTerm(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One hex of one side of the combat: its classes, their total, the terrain/Game-Turn
    factor (German only: up to x3 attacking, up to x9 defending on GT1) and the hex's value;
    ``ignored`` are units retreated into it this phase (AO-9.2F*)."""

    hex: HexId
    classes: tuple[SupplyClass, ...]
    total: int
    factor: int
    value: int
    ignored: tuple[str, ...] = ()


class OddsReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """An attack now: each side hex by hex, the strengths, the real odds column (worse than
    1-2 is read as 1-2, AO-10.0a) and the CRT; ``refusal`` is what declaring it would get."""

    attackers: tuple[HexTerm, ...]
    defenders: tuple[HexTerm, ...]
    attack: int
    defence: int
    table: Table
    column: str | None = None
    refusal: Rejection | None = None


_ATTACK: Final[dict[Supply, Callable[[int], int]]] = {
    "supplied": lambda s: s,
    "unsupplied": halve_up,
    "isolated": lambda s: 0,
}
_DEFENCE: Final[dict[Supply, Callable[[int], int]]] = {
    "supplied": lambda s: s,
    "unsupplied": lambda s: s,
    "isolated": halve_up,
}


def supply_report(board: Board, state: GameState, side: Side) -> SupplyReport:
    """Every ``side`` unit on the map (not dormant), sorted by id."""
    judged = supply_judgment(
        board, state, side, interdicted=interdiction_for(board, state, side, state.turn)
    )
    defending = defender_supply(board, state, side)
    net = supply_net(board, state, side, interdiction_at_combat(board, state, side))
    rows = []
    for u in state.units:
        if u.status != "on_map" or u.hex is None or board.defs[u.id].side != side:
            continue
        rows.append(
            UnitSupply(
                unit=u.id,
                hex=u.hex,
                marker=u.supply,
                judged=judged[u.id],
                defending=defending[u.id],
                path=path_to_net(board, net, u.hex),
            )
        )
    return SupplyReport(side=side, units=tuple(rows))


def interdiction_report(board: Board, state: GameState) -> InterdictionReport:
    """Both sides' interdicted bridges, stored and now."""
    sides: tuple[Side, Side] = ("german", "allied")
    return InterdictionReport(
        stored={"german": state.interdicted.german, "allied": state.interdicted.allied},
        now={s: interdiction_for(board, state, s, state.turn) for s in sides},
    )


def _terms(
    board: Board,
    state: GameState,
    units: Sequence[str],
    supply_of: Callable[[str], Supply],
    effect: Mapping[Supply, Callable[[int], int]],
    attacking: bool,
) -> tuple[HexTerm, ...]:
    by_hex: dict[HexId, list[str]] = {}
    for uid in sorted(set(units)):
        h = state.unit(uid).hex
        if h is not None:
            by_hex.setdefault(h, []).append(uid)
    retreated = set() if attacking else set(state.combat.retreated)
    out = []
    for h, ids in sorted(by_hex.items()):
        classes: dict[tuple[Supply, bool], list[str]] = {}
        for uid in ids:
            if uid not in retreated:
                classes.setdefault((supply_of(uid), state.unit(uid).road_mode), []).append(uid)
        rows = []
        for (supply, road), members in sorted(classes.items()):
            printed = sum(board.defs[x].strength for x in members)
            value = effect[supply](printed)
            rows.append(
                SupplyClass(
                    supply=supply,
                    road_mode=road,
                    units=tuple(members),
                    printed=printed,
                    value=halve_up(value) if road else value,
                )
            )
        total = sum(r.value for r in rows)
        side = board.defs[ids[0]].side
        factor_of = attack_factor if attacking else defence_factor
        factor = factor_of(board.game_map, h, side, state.turn)
        ignored = tuple(x for x in ids if x in retreated)
        out.append(HexTerm(h, tuple(rows), total, factor, total * factor, ignored))
    return tuple(out)


def odds_report(
    board: Board, state: GameState, attackers: Sequence[str], defenders: Sequence[HexId]
) -> OddsReport:
    """The attack of ``attackers`` on the units in the ``defenders`` hexes, as it stands now
    (attackers' supply as marked, AO-12.4K; defenders' judged now). Raises ``KeyError`` for a
    unit not in the state (the caller checks names first)."""
    units = defending_units(state, defenders)
    enemy = other_side(state.side)
    dsupply = defender_supply(board, state, board.defs[units[0]].side) if units else {}
    att = _terms(board, state, attackers, lambda x: state.unit(x).supply, _ATTACK, True)
    dfn = _terms(board, state, units, lambda x: dsupply.get(x, "supplied"), _DEFENCE, False)
    attack = sum(t.value for t in att)
    defence = sum(t.value for t in dfn)
    # the same numbers as the engine's own (a divergence is a bug here, not a rule)
    assert attack == attack_strength_in(board, state, attackers)
    if units:
        assert defence == defence_strength_in(
            board,
            state,
            defenders,
            supply={x: dsupply.get(x, "supplied") for x in units},
            retreated=state.combat.retreated,
        )
    col = odds_column(attack, defence) if units else None
    checked = check_attack(
        board, state, Attack(attackers=tuple(attackers), defenders=tuple(defenders))
    )
    refusal = checked if isinstance(checked, Rejection) else None
    if not units:
        refusal = refusal or Rejection("AO-9.1A", f"no {enemy} unit in {', '.join(defenders)}")
    return OddsReport(
        attackers=att,
        defenders=dfn,
        attack=attack,
        defence=defence,
        table=crt_for(state),
        column=col if isinstance(col, str) else None,
        refusal=refusal,
    )


class HexLinks(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One hex and what the grid and the map make of it: its on-map ``neighbours``, the
    neighbours joined by a road hexside (``roads``, AO-6.5G), ``road_mode`` the neighbours a
    Road Mode move may enter (a road or bridge hexside, a river only by a bridge or a road
    ford, AO-6.5F),
    the ``exits`` (for an Allied road exit: the live hex of its exit hexside, AO-12.2F,
    AO-16.B; for a German one: ``east``), and ``source`` the side whose supply it is a source
    of (AO-12.2D/F)."""

    id: HexId
    neighbours: tuple[HexId, ...]
    roads: tuple[HexId, ...] = ()
    road_mode: tuple[HexId, ...] = ()
    exits: tuple[HexId, ...] = ()
    source: Side | None = None


class MapGraph(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every hex of a map with its :class:`HexLinks`, sorted by id (``ardennes map --graph``):
    what tools would otherwise rebuild from the grid geometry and the hexside list."""

    hexes: tuple[HexLinks, ...]


def map_graph(game_map: GameMap) -> MapGraph:
    """The links of every hex of ``game_map``."""
    german = german_exit_hexes(game_map)
    allied: dict[HexId, list[HexId]] = {}
    for live, edge in allied_exit_hexsides(game_map):
        allied.setdefault(edge, []).append(live)
    rows = []
    for h in sorted(game_map):
        neighbours = tuple(game_map.neighbours(h))
        source: Side | None = "german" if h in german else "allied" if h in allied else None
        rows.append(
            HexLinks(
                id=h,
                neighbours=neighbours,
                roads=road_links(game_map, h),
                road_mode=tuple(n for n in neighbours if road_mode_passable(game_map, h, n)),
                exits=("east",) if h in german else tuple(sorted(allied.get(h, ()))),
                source=source,
            )
        )
    return MapGraph(hexes=tuple(rows))
