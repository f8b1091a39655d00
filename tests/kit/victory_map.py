"""The 5 x 4 map of the victory tests (AO-16), worked out by hand, and :func:`state` of units
on it::

    row 1   NE NE NW NW x       exits: 0201 (NE, 4 VP), 0401 (NW, 6 VP)
    row 2   .  .  .  .  E
    row 3   X  .  B  .  E       0103: an exit hex on the live map (3 VP); B: Bastogne (0303)
    row 4   SE SE SW SW x       exits: 0204 (SE, 2 VP), 0404 (SW, 1 VP)

Roads 0502-0402-0302-0202-0201, 0402-0401, 0503-0403-0303-0203-0204, 0403-0404; the German
supply sources are the east-edge road hexes 0502 and 0503.
"""

from __future__ import annotations

from rules.ao.gamemap import GameMap
from rules.ao.state import GameState, UnitState, VictoryPoints
from tests.kit.engine import make_map, remap

GRID = """
e e e e x
. . . . E
. . . . E
e e e e x
"""


GERMANS = ("g1", "g2", "g3", "gd")


ALLIES = ("a1", "ad1", "ad2", "adorm")


def victory_map(exit_vp: dict[str, int]) -> GameMap:
    """The map drawn above with ``exit_vp`` printed in the exit hexes."""
    m = make_map(
        GRID,
        roads=[
            "0502-0402-0302-0202-0201",
            "0402-0401",
            "0503-0403-0303-0203-0204",
            "0403-0404",
        ],
        towns={"Bastogne": "0303"},
    )
    return remap(
        m,
        {"0101": "NE", "0201": "NE", "0301": "NW", "0401": "NW"}
        | {"0104": "SE", "0204": "SE", "0304": "SW", "0404": "SW"},
        exit_vp=exit_vp,
    )


NO_VP = VictoryPoints()


def state(
    units: dict[str, str | UnitState], *, turn: int = 5, vp: VictoryPoints = NO_VP
) -> GameState:
    rows = []
    for uid in sorted(GERMANS + ALLIES):
        v = units.get(uid)
        if v is None:
            rows.append(UnitState(id=uid, status="not_arrived"))
        else:
            rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
    return GameState(
        scenario=0, turn=turn, side="allied", phase="mechanized_movement", units=tuple(rows), vp=vp
    )
