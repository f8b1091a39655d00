"""Artillery Corps Pools and the artillery units hold (6.4, 13.4, G19, C18, C19): BA-6.4a-h.

Pools are a plain mapping, corps -> points, one per side (a corps key is unique within a
side). A unit's pool is its :attr:`~rules.breakthrough.profile.Profile.pool`: only units of a
division have one (6.4 "Only units that belong to a division may contain artillery").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec
import msgspec.structs

from rules.breakthrough.profile import Profile
from rules.breakthrough.units import Side, Unit
from rules.rejection import Rejection

Pools = Mapping[str, int]

AMERICAN_PER_STACK: Final = 30
GERMAN_PER_STACK_EARLY: Final = 33
GERMAN_PER_STACK_LATE: Final = 15
GERMAN_EARLY_LAST_TURN: Final = 3
"""6.4: "American units may contain up to 30 artillery points per stacking point. German units
may contain up to 33 points for the first three turns and 15 points thereafter" (C18 reading:
the German figures are per stacking point too)."""
GERMAN_USE_TURNS: Final = (2, 3, 4)
GERMAN_USE_PERCENT: Final = 10
"""C19 reading of "German pools actually use points early in the game": at the start of turns
2, 3 and 4 each German pool loses 10% of its points, rounded down."""
HANDICAP_PERCENT: Final = {
    ("german", 4): 150,
    ("american", 2): 125,
    ("american", 1): 150,
}
"""2.1: level 4 "50% more artillery points" for the German, level 2 "25% more" and level 1
"50% more" for the American (G19: on the pools' starting and reinforcement points)."""


def handicapped(points: int, side: Side, level: int) -> int:
    """``points`` after the level's artillery bonus, rounded down (BA-2.1c-e, G19)."""
    return points * HANDICAP_PERCENT.get((side, level), 100) // 100


def holding_limit(side: Side, stack: int, turn: int) -> int:
    """The most artillery a unit may hold (BA-6.4d, C18)."""
    if side == "american":
        return AMERICAN_PER_STACK * stack
    per = GERMAN_PER_STACK_EARLY if turn <= GERMAN_EARLY_LAST_TURN else GERMAN_PER_STACK_LATE
    return per * stack


def _check(unit: Unit, profile: Profile) -> Rejection | None:
    if profile.pool is None or profile.division is None:
        return Rejection("BA-6.4a", f"{unit.id}: only units of a division hold artillery")
    if unit.supply != "supplied":
        return Rejection("BA-6.4b", f"{unit.id}: an {unit.supply} unit may not transfer artillery")
    return None


def transfer(
    unit: Unit, profile: Profile, pools: Pools, points: int, turn: int
) -> tuple[Unit, dict[str, int]] | Rejection:
    """Move ``points`` from the unit's pool into the unit (negative: back to the pool)
    (BA-6.4a-b, BA-6.4d, BA-4.3d, C17)."""
    refused = _check(unit, profile)
    if refused is not None:
        return refused
    assert profile.pool is not None
    held = unit.artillery + points
    if held < 0:
        return Rejection("BA-6.4a", f"{unit.id}: holds only {unit.artillery} artillery points")
    limit = holding_limit(unit.side, unit.stack, turn)
    if held > limit:
        return Rejection("BA-6.4d", f"{unit.id}: may hold at most {limit} artillery points")
    left = pools.get(profile.pool, 0) - points
    if left < 0:
        return Rejection("BA-6.4a", f"{profile.pool} pool holds only {pools.get(profile.pool, 0)}")
    out = dict(pools)
    out[profile.pool] = left
    return msgspec.structs.replace(unit, artillery=held), out


def max_artillery(
    unit: Unit, profile: Profile, pools: Pools, turn: int
) -> tuple[Unit, dict[str, int]] | Rejection:
    """(M)ax Artillery: fill the unit up to its limit, or with all its pool has (BA-6.4e)."""
    refused = _check(unit, profile)
    if refused is not None:
        return refused
    assert profile.pool is not None
    room = holding_limit(unit.side, unit.stack, turn) - unit.artillery
    points = max(0, min(room, pools.get(profile.pool, 0)))
    return transfer(unit, profile, pools, points, turn)


def return_all(
    units: Sequence[Unit], profiles: Mapping[str, Profile], pools: Pools
) -> tuple[list[Unit], dict[str, int]]:
    """6.4: "At the beginning of the turn all artillery points contained by units are
    transfered back into the Artillery Corps Pools" (BA-6.4c). Isolated units' points go back
    too (nothing to transfer: the turn does it)."""
    out = dict(pools)
    after: list[Unit] = []
    for u in units:
        pool = profiles[u.id].pool if u.id in profiles else None
        if u.artillery and pool is not None:
            out[pool] = out.get(pool, 0) + u.artillery
            u = msgspec.structs.replace(u, artillery=0)
        after.append(u)
    return after, out


def returned_on_move(pools: Pools, pool: str | None, points: int) -> dict[str, int]:
    """Credit the half a moving unit gives back (BA-6.4f, :func:`movement.move`)."""
    out = dict(pools)
    if pool is not None and points:
        out[pool] = out.get(pool, 0) + points
    return out


class PoolReinforcement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """13.4: points a pool receives on a date (turn n is December 15 + n)."""

    corps: str
    points: int
    turn: int


def at_turn_start(
    pools: Pools, side: Side, turn: int, schedule: Sequence[PoolReinforcement], level: int = 3
) -> dict[str, int]:
    """A side's pools at the beginning of ``turn``, after 6.4c's returns: the German early
    use (C19), then 13.4's reinforcement points due that turn, with the level's bonus
    (BA-6.4h, G19)."""
    out = dict(pools)
    if side == "german" and turn in GERMAN_USE_TURNS:
        out = {corps: p - p * GERMAN_USE_PERCENT // 100 for corps, p in out.items()}
    for r in schedule:
        if r.turn == turn:
            out[r.corps] = out.get(r.corps, 0) + handicapped(r.points, side, level)
    return out
