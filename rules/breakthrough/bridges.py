"""Blowing and building bridges (6.7, 13.5m-n, G23, C15, C17, C26): BA-6.7a-e.

A bridge site is a river hexside a road crosses (the map's data, BA-6.7a); the standing
bridges are the sites not blown (``movement.Board.bridges``). G23 reading: a unit is
"adjacent" to a site when it stands in either hex of that hexside; every site stands on 16
December; a blown bridge may be rebuilt at once and is usable as soon as it is built; no
bridge is ever built off a site. Crossing costs are in :mod:`.movement` (BA-6.7f-g).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough.profile import Profile
from rules.breakthrough.units import PERCENT, Unit
from rules.hexgrid import Hexside
from rules.rejection import Rejection

BLOW_COST: Final = (15, 5)
"""13.5 "Destroy Bridge 15 5": mobile / non-mobile (C15 reading: two figures, not a mark)."""
BLOW_CHANCE_ENGINEER: Final = 50
BLOW_CHANCE_OTHER: Final = 35
"""6.7: "Engineer units have 50% chance of being successful and all others have a 35%"."""


class BridgeResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A bridge operation: the unit after it, the site, and whether the bridge now stands."""

    unit: Unit
    site: Hexside
    standing: bool
    draw: int | None = None


def _may_operate(unit: Unit, site: Hexside, sites: frozenset[Hexside]) -> Rejection | None:
    if site not in sites:
        return Rejection("BA-6.7a", f"{site[0]}-{site[1]} is not a bridge site")
    if unit.hex not in site:
        return Rejection("BA-6.7a", f"{unit.id}: not in either hex of the bridge {site}")
    if unit.supply != "supplied":
        return Rejection("BA-6.7c", f"{unit.id}: an {unit.supply} unit may not operate bridges")
    if unit.mode == "travel":
        return Rejection("BA-6.7c", f"{unit.id}: units in travel mode may not operate bridges")
    return None


def blow(
    unit: Unit,
    profile: Profile,
    site: Hexside,
    sites: frozenset[Hexside],
    standing: frozenset[Hexside],
    tried: frozenset[str],
    draw: int,
) -> BridgeResult | Rejection:
    """One attempt to blow the standing bridge ``site`` (BA-6.7a, BA-6.7c-d, BA-4.3e).

    ``tried`` holds the units that already made an attempt this turn (one each, 6.7). The
    unit pays 13.5n's 15 / 5 points whatever the outcome; an engineer succeeds on a draw of
    50 or less, any other unit on 35 or less. C26 reading: any German unit may blow a bridge
    (6.7 restricts only the building)."""
    refused = _may_operate(unit, site, sites)
    if refused is not None:
        return refused
    if site not in standing:
        return Rejection("BA-6.7a", f"the bridge {site} is already down")
    if unit.id in tried:
        return Rejection("BA-6.7d", f"{unit.id}: one bridge-blowing attempt a turn")
    cost = BLOW_COST[0 if profile.mobile else 1]
    if cost > unit.op:
        return Rejection("BA-6.7a", f"{unit.id}: blowing costs {cost} points; {unit.op} left")
    if not 1 <= draw <= PERCENT:
        raise ValueError(f"a percentage draw is 1..100, not {draw}")
    chance = BLOW_CHANCE_ENGINEER if profile.engineer else BLOW_CHANCE_OTHER
    after = msgspec.structs.replace(unit, op=unit.op - cost)
    return BridgeResult(after, site, standing=draw > chance, draw=draw)


def build(
    unit: Unit,
    profile: Profile,
    site: Hexside,
    sites: frozenset[Hexside],
    standing: frozenset[Hexside],
    units: Sequence[Unit],
) -> BridgeResult | Rejection:
    """Rebuild the blown bridge ``site`` (BA-6.7a-c, BA-6.7e, BA-13.5m).

    Always succeeds, for all the unit's operation points (at least one). German bridges only
    by engineers; any American unit builds. Not by a unit next to an enemy unit (in its ZOC,
    7.6)."""
    refused = _may_operate(unit, site, sites)
    if refused is not None:
        return refused
    if site in standing:
        return Rejection("BA-6.7a", f"the bridge {site} stands")
    if unit.side == "german" and not profile.engineer:
        return Rejection("BA-6.7b", f"{unit.id}: only engineers build German bridges")
    if any(
        u.side != unit.side and u.strength > 0 and hexgrid.adjacent(u.hex, unit.hex) for u in units
    ):
        return Rejection("BA-6.7e", f"{unit.id}: may not build a bridge next to an enemy unit")
    if unit.op == 0:
        return Rejection("BA-13.5m", f"{unit.id}: building takes all its points; it has none")
    return BridgeResult(msgspec.structs.replace(unit, op=0), site, standing=True)
