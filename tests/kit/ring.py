"""The small ring map of the reinforcement tests (AO-14), worked out by hand, its board (units
arriving by :data:`SCHEDULE`) and :func:`state` of units on it.

The map, 8 columns x 6 rows (``x`` impassable corners beyond the German flank, errata M1)::

    row 1   NW NW NW NW NE NE NE x        exits: 0301 (NW), 0601 and 0701 (NE)
    row 2   W  .  .  .  .  .  .  E
    row 3   W  .  .  .  .  .  .  E        exit 0103 (W); German entry 0803
    row 4   SW .  .  .  .  .  .  E
    row 5   SW .  .  .  .  .  .  E
    row 6   SW SW SW SW SE SE SE x        exits: 0306 (SW), 0606 (SE)

Road hexsides: 0301-0302, 0601-0602, 0701-0702, 0103-0203, 0306-0305, 0606-0605, 0803-0703;
the Meuse runs between 0303 and 0403.
"""

from __future__ import annotations

from rules.ao import reinforcements as rf
from rules.ao.gamemap import GameMap
from rules.ao.scenario import Arrival, Section
from rules.ao.state import Board, GameState, UnitState, VictoryPoints
from rules.ao.units import Side
from tests.kit.engine import make_map, remap, unit

_State = GameState  # ``GameState.delayed`` holds the delays (AO-14.1b)


GRID = """
e e e e e e e x
e . . . . . . E
e . . . . . . E
e . . . . . . E
e . . . . . . E
e e e e e e e x
"""
SECTIONS = {
    **{f"0{c}01": "NW" for c in range(1, 5)},
    **{f"0{c}01": "NE" for c in range(5, 8)},
    "0102": "W",
    "0103": "W",
    "0104": "SW",
    "0105": "SW",
    **{f"0{c}06": "SW" for c in range(1, 5)},
    **{f"0{c}06": "SE" for c in range(5, 8)},
}


def ring_map() -> GameMap:
    m = make_map(
        GRID,
        roads=[
            "0301-0302",
            "0601-0602",
            "0701-0702",
            "0103-0203",
            "0306-0305",
            "0606-0605",
            "0803-0703",
        ],
        rivers=["0303/0403"],
    )
    return remap(m, SECTIONS, meuse=(("0303", "0403"),))


SCHEDULE: dict[str, tuple[int, Section]] = {
    "a0": (1, "NE"),
    "a1": (2, "NE"),
    "a2": (2, "NE"),
    "s1": (3, "SE"),
    "w1": (5, "WB"),
    "g1": (1, "east"),
    "g2": (4, "east"),
    "vdh": (2, "drop"),
}


def ring_board() -> Board:
    defs = [unit(u, "allied" if u[0] in "asw" else "german") for u in SCHEDULE]
    defs += [
        unit("ga", "german"),
        unit("gb", "german"),
        unit("gm", "german", mech=True, ma=10),
        unit("ax", "allied"),
        unit("ai", "allied", ma=8),
    ]
    return Board(ring_map(), defs, arrivals=[Arrival(u, t, s) for u, (t, s) in SCHEDULE.items()])


NO_VP = VictoryPoints()


def state(
    on_map: dict[str, str | UnitState],
    *,
    turn: int = 2,
    side: Side = "allied",
    delayed: tuple[rf.Delay, ...] = (),
    vp: VictoryPoints = NO_VP,
) -> _State:
    rows = []
    for uid in sorted([*SCHEDULE, "ga", "gb", "gm", "ax", "ai"]):
        v = on_map.get(uid)
        if v is None:
            rows.append(
                UnitState(id=uid, status="not_arrived")
                if uid in SCHEDULE
                else UnitState(id=uid, status="eliminated")
            )
        else:
            rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
    return _State(
        scenario=0,
        turn=turn,
        side=side,
        phase="reinforcement",
        units=tuple(rows),
        delayed=delayed,
        vp=vp,
    )


B = ring_board()
