"""Supply (AO-12): sources, the supply path, the three supply states and their effects.

**Sources** (AO-12.2D, AO-12.2F, AO-16.F). On our map a road that leaves the sheet ends in a
map-edge hex (``scenarios/ardennes/README.md``):

* German: every German east-edge hex (``edge == "east"``) that is a road hex. Roads are laid
  through no edge hex but their exit hex, so a road hex on the east edge is where a road leaves
  the map eastward: its off-map hexside is the source. (:func:`german_exit_hexes`.)
* Allied: every road hexside between a hex of an Allied edge section and a hex off the edge
  ring (the road exit hexes of AO-16.B, live hexes on the edge, AO-16.H;
  :func:`allied_exit_hexsides`). The exit hex is the source hex; it is usable while it is not
  German-occupied or German-controlled: a German unit in it, or a German ZOC reaching into it,
  occupies it (AO-16.C) unless an Allied unit (dormant ones too) stands in it; an unoccupied
  exit hex is Allied and usable for supply (AO-16.F).

**The supply path** of a unit of side S (AO-12.1A-C, AO-7.3D, AO-6.6J, AO-13.2B). A hex is
*closed* to S's supply when it is impassable, holds an enemy unit (dormant ones too), or is
enemy-controlled for S (:func:`rules.ao.zoc.enemy_controlled`: ZOC of enemy units in play, none
beyond its own hex for a Road Mode unit, none for an Allied unit on an edge hex, negated by any
unit of S in the hex, AO-7.2B); Allied Map Edge hexes are also closed to German supply. A
bridge hexside interdicted for S is never crossed (AO-13.2B: "may not be used for supply").

1. The *supply net* of S: the road hexes reached from S's open sources along road hexsides
   through open hexes (one flood per side, :func:`supply_net`). A ford or any road hexside
   carries the road; an interdicted bridge does not.
2. A unit is supplied when a path of **at most three steps** through open hexes leads from its
   hex to a hex of the net: the road hex reached is the third hex at most, the unit's own hex
   is not counted, and a unit standing on a net hex needs none. The path may pass through
   friendly-held hexes in enemy ZOC (AO-12.1A) - on the road part too - because they are
   not enemy-controlled.

**States** (AO-12.3): no path is ``unsupplied`` (G); ``isolated`` (H) when in addition it is
"totally surrounded on all six adjacent hexes by Enemy units or Enemy controlled hexes": each
of its six neighbours is on the map and enemy-occupied (dormant units too: they are there) or
enemy-controlled. Terrain never surrounds: an impassable hex does not, nor does an Allied Map
Edge hex that no enemy holds or controls, and a unit with fewer than six map hexes around it is
never surrounded. And no *supplied* friendly unit in play is within three hexes (straight
distance). Never isolated (J): a unit within three hexes of one of its own side's road exit
hexsides, whoever holds it - for the Allied side, either hex of an exit hexside within three
hexes; for the German side, the east-edge exit hex within three hexes (its exit hexside's other
hex is off the map).

**When** (AO-12.0, AO-12.4K, AO-12.0*): :func:`supply_judgment` at the phasing side's Supply
Judgment Phase, with the interdiction fixed then (``state.interdicted``); the markers hold for
the whole player-turn and the attack and movement effects read the marker, never a new trace.
A defender's supply is judged at the moment of combat with :func:`supply_of`, with the bridges
the attacker interdicts *then* (AO-13.c*). All German units are supplied on Game-Turn 1
(AO-4.2b); von der Heydte is supplied in the player-turn he drops (AO-15.b): pass him in
``always_supplied``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from typing import Final, Literal

import msgspec

from rules import hexgrid
from rules.ao.gamemap import GameMap
from rules.ao.gameturn1 import german_always_supplied
from rules.ao.interdiction import interdiction_at_combat
from rules.ao.roadmode import road_links
from rules.ao.state import Board, GameState, Supply, other_side
from rules.ao.units import Side
from rules.ao.zoc import enemy_controlled, occupied_by
from rules.hexgrid import HexId, Hexside

PATH_HEXES: Final = 3
"""At most three hexes from the unit to a road hex (AO-12.1A)."""
ISOLATION_RANGE: Final = 3
"""Isolated only if more than three hexes from any supplied friendly unit (AO-12.3H) and not
within three hexes of an own road exit hexside (AO-12.3J)."""

# -- effects (AO-12.6) ---------------------------------------------------------------------------

Effect = Literal["normal", "halved", "zero"]


class SupplyEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One column of the Supply Effects Chart (AO-12.6)."""

    defence: Effect
    attack: Effect
    movement: Effect


SUPPLY_EFFECTS: Final[Mapping[Supply, SupplyEffect]] = {
    "supplied": SupplyEffect(defence="normal", attack="normal", movement="normal"),
    "unsupplied": SupplyEffect(defence="normal", attack="halved", movement="halved"),
    "isolated": SupplyEffect(defence="halved", attack="zero", movement="halved"),
}
"""The Supply Effects Chart. Combat strength halves round fractions up (a stack's total is
halved); the Movement Allowance halves with fractions lost."""


def _strength(strength: int, effect: Effect) -> int:
    if effect == "zero":
        return 0
    return (strength + 1) // 2 if effect == "halved" else strength


def attack_strength(strength: int, supply: Supply) -> int:
    """Attack strength (of a unit or a stack's total) under ``supply`` (AO-12.6)."""
    return _strength(strength, SUPPLY_EFFECTS[supply].attack)


def defence_strength(strength: int, supply: Supply) -> int:
    """Defence strength (of a unit or a stack's total) under ``supply`` (AO-12.6)."""
    return _strength(strength, SUPPLY_EFFECTS[supply].defence)


def supplied_movement(movement: int, supply: Supply) -> int:
    """Movement Allowance under ``supply``: halved, fractions lost (AO-12.6)."""
    return movement // 2 if SUPPLY_EFFECTS[supply].movement == "halved" else movement


# -- static tables (per board) --------------------------------------------------------------------


def german_exit_hexes(game_map: GameMap) -> frozenset[HexId]:
    """German road exits: east-edge hexes with a road (AO-12.2D); the road leaves eastward."""
    return frozenset(
        h for h in game_map if game_map.hex(h).edge == "east" and _has_road(game_map, h)
    )


def allied_exit_hexsides(game_map: GameMap) -> tuple[tuple[HexId, HexId], ...]:
    """Allied road exits: ``(live hex, exit hex)`` for every road hexside between a hex of an
    Allied edge section (the exit hex) and a hex off the edge ring (AO-12.2F, AO-16.B),
    sorted."""
    out: list[tuple[HexId, HexId]] = []
    for h in game_map:
        if game_map.allied_section(h) is None:
            continue
        for n in game_map.neighbours(h):
            if game_map.allied_section(n) is None and game_map.side(h, n).road:
                out.append((n, h))
    return tuple(sorted(out))


def _has_road(game_map: GameMap, h: HexId) -> bool:
    return any(game_map.side(h, n).road for n in game_map.neighbours(h))


class _Tables:
    __slots__ = ("allied_edge", "exit_zone", "impassable", "roads", "sources")

    def __init__(self, m: GameMap) -> None:
        self.impassable: frozenset[HexId] = frozenset(
            h for h in m if m.hex(h).terrain == "impassable"
        )
        self.allied_edge: frozenset[HexId] = frozenset(h for h in m if m.is_allied_edge(h))
        self.roads: dict[HexId, tuple[HexId, ...]] = {h: road_links(m, h) for h in m}
        ger = german_exit_hexes(m)
        allied = allied_exit_hexsides(m)
        self.sources: dict[Side, frozenset[HexId]] = {
            "german": ger,
            "allied": frozenset(e for _live, e in allied),
        }
        near: dict[Side, set[HexId]] = {"german": set(), "allied": set()}
        for x in ger:
            near["german"].update(hexgrid.within(x, ISOLATION_RANGE))
        for live, e in allied:
            near["allied"].update(hexgrid.within(live, ISOLATION_RANGE))
            near["allied"].update(hexgrid.within(e, ISOLATION_RANGE))
        self.exit_zone: dict[Side, frozenset[HexId]] = {
            s: frozenset(h for h in v if h in m) for s, v in near.items()
        }


def _tables(board: Board) -> _Tables:
    return board.game_map.derived("supply.tables", _Tables)


def near_own_exit(board: Board, side: Side, hex_id: HexId) -> bool:
    """Within three hexes of one of ``side``'s road exit hexsides: never isolated (AO-12.3J)."""
    return hex_id in _tables(board).exit_zone[side]


# -- the per-side search ------------------------------------------------------------------------


_CUT_CACHE_SIZE: Final = 256


def _cut(board: Board, bridges: Iterable[Hexside]) -> frozenset[Hexside]:
    """The interdicted hexsides as sorted pairs (:func:`rules.hexgrid.hexside`, which also
    checks them). A tuple of them (what the state stores and the interdiction functions return)
    is looked up in a small per-board cache: the same few sets are traced again and again."""
    if not isinstance(bridges, tuple):
        return frozenset(hexgrid.hexside(*b) for b in bridges)
    memo: dict[tuple[Hexside, ...], frozenset[Hexside]] = board.derived("supply.cut", lambda _b: {})
    try:
        hit = memo.get(bridges)
    except TypeError:  # unhashable pairs (lists): no caching
        return frozenset(hexgrid.hexside(*b) for b in bridges)
    if isinstance(hit, frozenset):
        return hit
    out = frozenset(hexgrid.hexside(*b) for b in bridges)
    if len(memo) >= _CUT_CACHE_SIZE:
        memo.clear()
    memo[bridges] = out
    return out


class SupplyNet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one side's supply search found: the open sources and the road hexes joined to them
    (``net``), the hexes closed to its supply paths, the bridges it may not cross, and the
    enemy-held or -controlled hexes (``enemy``, a part of ``closed``)."""

    side: Side
    sources: frozenset[HexId]
    net: frozenset[HexId]
    closed: frozenset[HexId]
    interdicted: frozenset[Hexside]
    enemy: frozenset[HexId]
    """The hexes enemy-occupied or enemy-controlled for ``side``: the only hexes that surround
    a unit (AO-12.3H)."""


def _closed(
    board: Board, state: GameState, side: Side
) -> tuple[frozenset[HexId], frozenset[HexId]]:
    """``(hostile, closed)`` for ``side``'s supply: the enemy-occupied or enemy-controlled
    hexes, and those with the impassable hexes (and for the German the Allied Map Edge)."""
    t = _tables(board)
    hostile = occupied_by(board, state, other_side(side)) | enemy_controlled(board, state, side)
    closed = set(t.impassable) | hostile
    if side == "german":
        closed |= t.allied_edge
    return frozenset(hostile), frozenset(closed)


def open_sources(board: Board, state: GameState, side: Side) -> frozenset[HexId]:
    """``side``'s supply sources usable now (AO-12.2D/F): its road exit hexes that are not
    enemy-occupied or enemy-controlled (the :attr:`SupplyNet.sources` of :func:`supply_net`,
    without the flood)."""
    _hostile, closed = _closed(board, state, side)
    return frozenset(h for h in _tables(board).sources[side] if h not in closed)


def supply_net(
    board: Board,
    state: GameState,
    side: Side,
    interdicted: Iterable[Hexside] | None = None,
) -> SupplyNet:
    """Flood ``side``'s supply roads from its open sources (AO-12.1A, AO-12.2D/F, AO-13.2B).

    ``interdicted`` defaults to the bridges stored in ``state`` for ``side`` (fixed at its
    Supply Judgment, AO-13.1A)."""
    t = _tables(board)
    hostile, closed = _closed(board, state, side)
    cut = _cut(board, state.interdicted.for_side(side) if interdicted is None else interdicted)
    sources = frozenset(h for h in t.sources[side] if h not in closed)
    fclosed = frozenset(closed)
    return SupplyNet(
        side=side,
        sources=sources,
        net=_flood(board, sources, fclosed, cut),
        closed=fclosed,
        interdicted=cut,
        enemy=frozenset(hostile),
    )


_FLOOD_CACHE_SIZE: Final = 16
_FloodKey = tuple[frozenset[HexId], frozenset[HexId], frozenset[Hexside]]


def _flood(
    board: Board, sources: frozenset[HexId], closed: frozenset[HexId], cut: frozenset[Hexside]
) -> frozenset[HexId]:
    """:func:`flood_roads`, kept for the last few ``(sources, closed, cut)`` on the board: the
    flood depends on nothing else, and a side's closed hexes change only when the enemy's
    units move, so the defenders of one Combat Phase and the Supply Judgment after it mostly
    trace the same net."""
    memo: dict[_FloodKey, frozenset[HexId]] = board.derived("supply.flood", lambda _b: {})
    key: _FloodKey = (sources, closed, cut)
    hit = memo.get(key)
    if hit is None:
        hit = flood_roads(board, sources, closed, cut)
        if len(memo) >= _FLOOD_CACHE_SIZE:
            del memo[next(iter(memo))]  # the oldest
        memo[key] = hit
    return hit


def flood_roads(
    board: Board,
    sources: Iterable[HexId],
    closed: Collection[HexId],
    cut: Collection[Hexside] = (),
) -> frozenset[HexId]:
    """The road hexes joined to ``sources`` by roads (AO-12.1A): the sources not ``closed``
    and every road hex reached from them through hexes not ``closed`` and across no ``cut``
    hexside (interdicted bridges, AO-13.2B). :func:`supply_net`'s flood, and a bot's for a
    position it imagines (more hexes closed)."""
    roads = _tables(board).roads
    start = sorted(h for h in sources if h not in closed)
    seen: set[HexId] = set(start)
    queue: deque[HexId] = deque(start)
    while queue:
        h = queue.popleft()
        for n in roads[h]:
            if n in seen or n in closed:
                continue
            if cut and (min(h, n), max(h, n)) in cut:
                continue
            seen.add(n)
            queue.append(n)
    return frozenset(seen)


def path_to_net(board: Board, net: SupplyNet, hex_id: HexId) -> tuple[HexId, ...] | None:
    """A shortest supply path (hexes after ``hex_id``, ending on a net hex) of at most three
    steps through open hexes, ``()`` when ``hex_id`` is on the net, None when there is none."""
    if hex_id in net.net:
        return ()
    m = board.game_map
    parent: dict[HexId, HexId] = {hex_id: hex_id}
    frontier = [hex_id]
    for _ in range(PATH_HEXES):
        nxt: list[HexId] = []
        for h in frontier:
            for n in m.neighbours(h):
                if n in parent or n in net.closed:
                    continue
                if net.interdicted and (min(h, n), max(h, n)) in net.interdicted:
                    continue
                parent[n] = h
                if n in net.net:
                    path = [n]
                    while parent[path[-1]] != hex_id:
                        path.append(parent[path[-1]])
                    return tuple(reversed(path))
                nxt.append(n)
        frontier = nxt
    return None


def _surrounded(board: Board, net: SupplyNet, hex_id: HexId) -> bool:
    """ "Totally surrounded on all six adjacent hexes by Enemy units or Enemy controlled hexes"
    (AO-12.3H): all six neighbours on the map and enemy-occupied or -controlled."""
    m = board.game_map
    for n in hexgrid.neighbours(hex_id):
        if n is None or n not in m or n not in net.enemy:
            return False
    return True


def supply_judgment(
    board: Board,
    state: GameState,
    side: Side,
    *,
    always_supplied: Collection[str] = (),
    interdicted: Iterable[Hexside] | None = None,
) -> dict[str, Supply]:
    """The supply state of every unit of ``side`` in play (not dormant), by unit id, sorted.

    One flood per side (:func:`supply_net`), then a three-step search per unit. Units in
    ``always_supplied`` (von der Heydte the turn he drops, AO-15.b) and every German unit on
    Game-Turn 1 (AO-4.2b) are supplied. ``interdicted`` defaults to the bridges stored in
    ``state`` for ``side`` at its Supply Judgment (AO-13.1A)."""
    net = supply_net(board, state, side, interdicted)
    gt1 = side == "german" and german_always_supplied(state)
    mine = [
        u
        for u in state.units
        if u.status == "on_map" and u.hex is not None and board.defs[u.id].side == side
    ]
    out: dict[str, Supply] = {}
    for u in mine:
        assert u.hex is not None
        ok = gt1 or u.id in always_supplied or path_to_net(board, net, u.hex) is not None
        out[u.id] = "supplied" if ok else "unsupplied"
    supplied_hexes = frozenset(u.hex for u in mine if out[u.id] == "supplied" and u.hex is not None)
    for u in mine:
        if out[u.id] != "unsupplied" or u.hex is None:
            continue
        h = u.hex
        if near_own_exit(board, side, h) or not _surrounded(board, net, h):
            continue
        if not supplied_hexes.isdisjoint(hexgrid.disc(h, ISOLATION_RANGE)):
            continue  # a supplied friend within three hexes (straight distance)
        out[u.id] = "isolated"
    return dict(sorted(out.items()))


def supply_of(
    board: Board,
    state: GameState,
    unit_id: str,
    *,
    always_supplied: Collection[str] = (),
    interdicted: Iterable[Hexside] | None = None,
) -> Supply:
    """The supply state of ``unit_id`` now - a defender at the moment of combat (AO-12.0,
    AO-12.4K). ``interdicted`` defaults to the bridges the enemy interdicts for the unit's side
    at this moment (AO-13.c*), not the stored set. A unit not in play is ``supplied``."""
    side = board.defs[unit_id].side
    us = state.unit(unit_id)
    if us.status != "on_map" or us.hex is None:
        return "supplied"
    if interdicted is None:
        interdicted = interdiction_at_combat(board, state, side)
    return supply_judgment(
        board, state, side, always_supplied=always_supplied, interdicted=interdicted
    )[unit_id]


def with_supply_markers(state: GameState, judgment: Mapping[str, Supply]) -> GameState:
    """A copy of ``state`` with the judged supply markers set (the units of ``judgment`` only).
    Units are never lost through supply alone (AO-12.5L): nothing else changes."""
    rows = [
        msgspec.structs.replace(u, supply=judgment[u.id])
        for u in state.units
        if u.id in judgment and u.supply != judgment[u.id]
    ]
    return state.replace_units(rows)
