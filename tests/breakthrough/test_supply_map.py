"""Supply on the real map of ``scenarios/breakthrough/`` and the order of battle's start hexes:
the rules' plain inputs built from the data as a ``Ruleset`` will build them."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rules import hexgrid
from rules.breakthrough import supply
from rules.breakthrough.supply import SupplyGround
from rules.breakthrough.units import Draws, Side, Unit
from rules.hexgrid import HexId
from scenarios.breakthrough.grid import all_coords, to_hex
from scenarios.breakthrough.mapdata import load_map
from scenarios.breakthrough.oob import load_oob

SIDES: tuple[Side, ...] = ("american", "german")


def ground_and_start() -> tuple[SupplyGround, Mapping[HexId, Side], list[Unit]]:
    m, oob = load_map(), load_oob()
    cells = frozenset(to_hex(c) for c in all_coords())
    roads = frozenset(hexgrid.hexside(to_hex(s.a), to_hex(s.b)) for s in m.data.hexsides if s.road)
    edges = {s: frozenset(to_hex(c) for c in m.edge_road_hexes(s)) for s in SIDES}
    owner = {to_hex((h.x, h.y)): h.owner for h in m}
    units = [
        Unit(u.id, u.side, to_hex(u.coord), u.combat)
        for s in SIDES
        for u in oob.side(s)
        if u.at_start
    ]
    return SupplyGround(cells, roads, edges), owner, units


@pytest.mark.rule("BA-4.4a", "BA-4.1b")
def test_on_16_december_everyone_is_supplied_and_the_trace_reaches_almost_all() -> None:
    ground, owner, units = ground_and_start()
    assert len(units) == 86  # 27 American, 59 German on the map on 16 December
    _, report = supply.supply_phase(1, units, ground, owner, Draws([]))
    assert {c.after for c in report} == {"supplied"} and all(c.automatic for c in report)
    # the trace alone (as from turn 4): every American start unit traces supply; three
    # German regiments of the 62nd VG (15,25 and 16,26) are more than two hexes from the
    # German road net of the map, a data finding reported with this test
    _, report = supply.supply_phase(4, units, ground, owner, Draws([]))
    cut = sorted(c.unit for c in report if c.after != "supplied")
    assert cut == ["de-164-62", "de-183-62", "de-190-62"]
    assert all(c.after == "unsupplied" for c in report if c.unit in cut)
