"""The board of a *Breakthrough* game: ``map.json`` and ``oob.toml`` as the rules' plain values.

:func:`load_board` (``scenario`` of BA-2.1g, ``level`` of BA-2.1b-e) builds a
:class:`rules.breakthrough.board.Board`: terrain, roads, rivers and bridge sites as
:mod:`rules.hexgrid` ids and hexsides, each side's friendly edges, the exits, the towns, the
scoring area, every unit's profile (13.2, 7.4, 13.4), the units on the map when the scenario
begins and the arrivals. Last Seven Days (scenario 2) starts from the reconstructed 21
December set-up of ``setup21.toml`` (:mod:`.setup21`, G25, ``docs/rules-notes-breakthrough.md``):
its units, the ownership of the front, the pools with 13.4's points due before the 21st.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, cast

from rules import hexgrid
from rules.breakthrough.board import (
    SCENARIOS,
    Board,
    ScenarioName,
    Setup,
)
from rules.breakthrough.profile import Profile
from rules.breakthrough.reinforcements import Arrival, Edge
from rules.breakthrough.units import Side, Unit
from rules.breakthrough.victory import Eliminated
from rules.hexgrid import HexId
from scenarios.breakthrough.grid import from_hex, parse_label, to_hex
from scenarios.breakthrough.mapdata import FRIENDLY_EDGES, BreakthroughMap, load_map
from scenarios.breakthrough.oob import FIRST_DAY, OrderOfBattle, load_oob
from scenarios.breakthrough.oob import Unit as OobUnit
from scenarios.breakthrough.setup21 import (
    SET_UP_DAY,
    Setup21,
    carried_towns,
    front_owner,
    load_setup21,
    units21,
)

SIDES: tuple[Side, Side] = ("american", "german")
INFILTRATOR = "de-150"
"""The 150th Panzer Brigade (BA-7.6d)."""


def scenario_name(scenario: int | str) -> ScenarioName:
    """``1``-``3`` or a name of BA-2.1g; :class:`ValueError` otherwise."""
    if isinstance(scenario, int):
        if not 1 <= scenario <= len(SCENARIOS):
            raise ValueError(f"no Breakthrough scenario {scenario}: 1, 2 or 3 (BA-2.1g)")
        return SCENARIOS[scenario - 1]
    if scenario not in SCENARIOS:
        raise ValueError(f"no Breakthrough scenario {scenario!r}: {', '.join(SCENARIOS)}")
    return scenario


def battalion(u: OobUnit) -> bool:
    """G22 reading: the independent tank, assault-gun and tank-destroyer units of 25 points are
    battalions (no replacements, BA-6.5b; no elimination points, BA-10.1e)."""
    return not u.division and u.type in ("ARM", "PZ") and u.combat <= 25


def profile(oob: OrderOfBattle, u: OobUnit) -> Profile:
    """A unit's order-of-battle facts for the rules (BA-1.5b, BA-7.4c-d, BA-13.4c)."""
    allow = oob.allowance(u)
    pool = oob.pool(u)
    return Profile(
        type=u.type,
        mobile=u.mobile,
        first=allow.first,
        second=allow.second,
        division=u.division or None,
        pool=pool.corps if pool is not None else None,
        corridor=u.corridor,
        battalion=battalion(u),
        full=u.combat,
        infiltrator=u.id == INFILTRATOR,
    )


def _unit(u: OobUnit, two_player: bool) -> Unit:
    return Unit(u.id, u.side, to_hex(u.coord), u.combat_value(two_player))


def _edge(m: BreakthroughMap, u: OobUnit) -> Edge:
    edges = m.hex(u.coord).edges
    friendly = [e for e in edges if e in FRIENDLY_EDGES[u.side]]
    pick: list[Edge] = friendly or list(edges)
    return pick[0] if pick else "east"


@cache
def _sources() -> tuple[BreakthroughMap, OrderOfBattle]:
    return load_map(), load_oob()


@cache
def _setup21() -> Setup21:
    return load_setup21(_sources()[1])


def load_board(
    scenario: int | str = "twelve-days",
    level: int = 3,
    historical: bool = True,
    two_player: bool = False,
) -> Board:
    """The board of ``scenario`` at ``level`` (BA-2.1b-g); :class:`ValueError` with one
    sentence for a scenario or level that cannot be played."""
    name = scenario_name(scenario)
    if level not in (1, 2, 3, 4):
        raise ValueError(f"no level of play {level}: 1 (hardest for the German) to 4 (BA-2.1b)")
    setup = Setup(name, cast(Literal[1, 2, 3, 4], level), historical, two_player)
    m, oob = _sources()
    terrain = {to_hex((h.x, h.y)): h.terrain for h in m}
    owner = {to_hex((h.x, h.y)): h.owner for h in m}
    late = name == "last-seven-days"

    def side_key(a: tuple[int, int], b: tuple[int, int]) -> tuple[HexId, HexId]:
        return hexgrid.hexside(to_hex(a), to_hex(b))

    sides = m.data.hexsides
    roads = frozenset(side_key(s.a, s.b) for s in sides if s.road)
    rivers = frozenset(side_key(s.a, s.b) for s in sides if s.river)
    sites = frozenset(side_key(s.a, s.b) for s in sides if s.bridge)
    home = {
        s: frozenset(to_hex((h.x, h.y)) for h in m if set(h.edges) & set(FRIENDLY_EDGES[s]))
        for s in SIDES
    }
    edge_roads = {s: frozenset(to_hex(c) for c in m.edge_road_hexes(s)) for s in SIDES}
    road_hexes = m.road_hexes()
    first_day = FIRST_DAY + setup.turns[0] - 1
    # On the 16th the units dated the 16th start; on the 21st those dated up to the 20th are
    # placed by setup21.toml and those dated the 21st arrive in turn 6's Reinforcement Phase.
    placed_before = first_day if not late else SET_UP_DAY - 1
    if late:
        start = units21(_setup21(), oob, two_player)
        placed = {from_hex(u.hex): u.side for u in start}
        owner16 = {(h.x, h.y): h.owner for h in m}
        owner = {to_hex(c): s for c, s in front_owner(owner16, placed, owner16).items()}
    else:
        start = tuple(
            sorted(
                (_unit(u, two_player) for u in oob.units if u.day <= first_day),
                key=lambda u: u.id,
            )
        )
    arrivals = tuple(
        Arrival(_unit(u, two_player), _edge(m, u), u.day - FIRST_DAY + 1, i)
        for i, u in enumerate(oob.units)
        if u.day > placed_before
    )
    carried: tuple[Eliminated, ...] = ()
    town_points = 0
    blown: frozenset[tuple[HexId, HexId]] = frozenset()
    if late:
        s21 = _setup21()
        blown = frozenset(side_key(parse_label(x.a), parse_label(x.b)) for x in s21.blown)
        if not blown <= sites:
            raise ValueError("setup21.toml blows a hexside that is no bridge site (6.7)")
        town_points = carried_towns(s21, {n: p for n, (_, p) in m.victory_towns().items()})
        carried = tuple(
            Eliminated(
                g.id,
                u.side,
                1,
                engineer=profile(oob, u).engineer,
                battalion=battalion(u),
            )
            for g in s21.gone
            for u in oob.units
            if u.id == g.id
        )
    # 13.4's points due before the first turn are in the pools at the start; those due on it
    # or later come with their turn (BA-6.4h). Nothing else is carried over (G25).
    first_turn = setup.turns[0]
    pools = {
        p.corps: p.points
        + (p.reinforcement if p.reinforcement_day and p.reinforcement_day < first_day else 0)
        for p in oob.pools
    }
    return Board(
        setup=setup,
        terrain=terrain,
        owner=owner,
        roads=roads,
        rivers=rivers,
        sites=sites,
        home=home,
        edge_roads=edge_roads,
        no_german=frozenset(to_hex((0, y)) for y in range(m.data.y_count)),
        corridor=frozenset(to_hex((h.x, h.y)) for h in m if m.in_corridor((h.x, h.y))),
        exits=frozenset(to_hex(c) for c in m.exits()),
        towns={to_hex(c): p for c, p in m.victory_towns().values()},
        town_names={to_hex(c): n for n, (c, _) in m.victory_towns().items()},
        area_roads=frozenset(
            to_hex((h.x, h.y)) for h in m if h.road_score and (h.x, h.y) in road_hexes
        ),
        profiles={u.id: profile(oob, u) for u in oob.units},
        names={u.id: (u.designation, u.corps) for u in oob.units},
        start=start,
        arrivals=arrivals,
        pools=pools,
        pool_side={p.corps: p.side for p in oob.pools},
        pool_schedule=tuple(
            (p.corps, p.reinforcement, p.reinforcement_day - FIRST_DAY + 1)
            for p in oob.pools
            if p.reinforcement_day and p.reinforcement_day - FIRST_DAY + 1 >= first_turn
        ),
        carried_towns=town_points,
        carried_eliminated=carried,
        blown=blown,
    )
