"""Free set-up rules (AO-17.b German, AO-17.c Allied) and their validator.

AO-17.b/c: the player first places his units as in the historical set-up, then "rearranges
those units in the front line in any fashion he desires so long as these units remain on the
front line and so long as he does not stack these units", and those "behind the front line
... so long as these units do not enter the front line and he does not stack them".

On our map (see :mod:`rules.start_line`):

- the **front-line units** of a side are the units its historical set-up places on the front
  line (``line = "front"`` in ``scenarios/ardennes/setup.toml``, or a town-pinned unit whose
  town is a front-line hex); every other set-up unit is a **rear unit**;
- the **front line** of a side is its own hexes with a start-line hexside; **behind the front
  line** is the rest of its own side; neither holds impassable hexes (AO-11.g) or Allied Map
  Edge hexes (AO-5.3L).

The rules also imply: exactly the side's set-up units are placed (no reinforcements, no enemy
units, von der Heydte only by his Game-Turn 2 drop, AO-15.a); each on its own side of the start
line; one unit a hex ("does not stack", which also keeps German infantry divisions alone,
AO-8.2C). A side whose scenario calls for the historical set-up (AO-17.a) has no choice at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from rules.gamemap import GameMap, load_map
from rules.hexgrid import HexId
from rules.scenario import MAP_NAME, Scenario, front_line_units, setup_entries
from rules.start_line import front_line, own_side
from rules.units import Side, UnitDef

FREE_SETUP_CASE: dict[Side, str] = {"german": "AO-17.b", "allied": "AO-17.c"}
SIDE_NAME: dict[Side, str] = {"german": "German", "allied": "Allied"}


def validate_free_setup(
    scenario: Scenario,
    side: Side,
    placement: Mapping[str, HexId],
    gmap: GameMap | None = None,
) -> list[str]:
    """Every problem with ``side``'s set-up ``placement`` (unit id -> hex), each naming its case.

    Empty when the placement is a legal free set-up (or, for a side whose scenario uses the
    historical set-up, when it is exactly the historical one).
    """
    gm = gmap if gmap is not None else load_map(MAP_NAME)
    case = FREE_SETUP_CASE[side]
    name = SIDE_NAME[side]
    units: dict[str, UnitDef] = {u.id: u for u in scenario.units}
    at_start = {e.id for e in setup_entries()}
    mine = sorted(uid for uid in scenario.setup if units[uid].side == side)
    front_units = front_line_units(gm)
    front = front_line(gm, side)
    territory = own_side(gm, side)
    problems: list[str] = []

    def label(uid: str) -> str:
        u = units.get(uid)
        return u.designation if u is not None else uid

    kind = scenario.allied_setup if side == "allied" else scenario.german_setup
    if kind == "historical":
        for uid in sorted(placement):
            want = scenario.setup.get(uid)
            if want is not None and units[uid].side == side and placement[uid] != want:
                problems.append(
                    f"AO-17.a: scenario {scenario.number} uses the historical {name} set-up: "
                    f"{label(uid)} sets up in hex {want}, not {placement[uid]}"
                )

    by_hex: dict[HexId, list[str]] = defaultdict(list)
    for uid in sorted(placement):
        hex_id = placement[uid]
        u = units.get(uid)
        if u is None:
            problems.append(f"{case}: {uid} is not a unit of scenario {scenario.number}")
            continue
        if u.side != side:
            other = SIDE_NAME[u.side]
            article = "an" if other == "Allied" else "a"
            problems.append(
                f"{case}: {label(uid)} is {article} {other} unit; the {name} player places "
                f"only {name} units"
            )
            continue
        if uid not in at_start:
            problems.append(
                f"{case}: {label(uid)} does not set up on the map; it enters as a reinforcement"
            )
            continue
        if hex_id not in gm:
            problems.append(f"{case}: {label(uid)} is placed off the map (hex {hex_id})")
            continue
        by_hex[hex_id].append(uid)
        if gm.hex(hex_id).terrain == "impassable":
            problems.append(f"AO-11.g: {label(uid)} may not set up in impassable hex {hex_id}")
            continue
        if gm.is_allied_edge(hex_id):
            problems.append(f"AO-5.3L: {label(uid)} may not set up in Allied map-edge hex {hex_id}")
            continue
        if hex_id not in territory:
            problems.append(
                f"{case}: {label(uid)} must set up on the {name} side of the start line "
                f"(hex {hex_id})"
            )
            continue
        if uid in front_units and hex_id not in front:
            problems.append(
                f"{case}: {label(uid)} is a front-line unit and must stay on the front line "
                f"(hex {hex_id})"
            )
        elif uid not in front_units and hex_id in front:
            problems.append(
                f"{case}: {label(uid)} is a rear unit and may not be placed on the front line "
                f"(hex {hex_id})"
            )

    for uid in mine:
        if uid not in placement:
            problems.append(f"{case}: {label(uid)} is not placed")

    for hex_id in sorted(by_hex):
        here = by_hex[hex_id]
        if len(here) > 1:
            names = ", ".join(label(u) for u in here)
            problems.append(
                f"{case}: {names} are stacked in hex {hex_id}; a free set-up allows one unit a hex"
            )
    return problems
