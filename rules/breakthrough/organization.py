"""Build-up, breakdown and replacements in the Unit Organization Phase (6.5, 6.6, G20, G21).

A divisional unit remembers what it was built from as a :class:`Formation` (its members'
ids and their strengths when they joined), so a breakdown can restore the regiments. The
ruleset keeps formations beside the units. All splits are integer: largest remainders, ties
to the member listed first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec
import msgspec.structs

from rules.breakthrough.profile import INFANTRY_TYPES, Profile
from rules.breakthrough.units import MAX_STACK, Side, Unit
from rules.rejection import Rejection

REPLACEMENT_TURN: Final = 4
"""6.5: "Starting December 19th (turn four)" (BA-6.5a)."""
REPLACEMENTS: Final = {"american": (15, 10), "german": (10, 15)}
"""6.5: infantry / armored points a turn at level 3 (BA-6.5c)."""
REPLACEMENT_FACTOR: Final = {("german", 4): 2, ("american", 2): 2, ("american", 1): 3}
"""2.1: level 4 doubles the German rate, level 2 doubles and level 1 triples the American."""


class Member(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A regiment built into a divisional unit and its strength when it joined."""

    unit: str
    strength: int


class Formation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A divisional unit and what it is built from (BA-6.6a, BA-6.6e)."""

    unit: Unit
    members: tuple[Member, ...]


def _weighted(values: Sequence[tuple[int, int]]) -> int:
    """The strength-weighted average of (value, weight) pairs, rounded down; plain average of
    the values when every weight is 0."""
    total = sum(w for _, w in values)
    if total == 0:
        return sum(v for v, _ in values) // len(values)
    return sum(v * w for v, w in values) // total


def split(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` shared in proportion to ``weights`` (largest remainders, ties to the first).

    >>> split(100, [45, 60]), split(10, [1, 1, 1])
    ([43, 57], [4, 3, 3])
    """
    whole = sum(weights)
    if whole == 0:
        weights, whole = [1] * len(weights), len(weights)
    shares = [total * w // whole for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def build_up(
    issuer: Unit,
    joining: Sequence[Unit],
    profiles: Mapping[str, Profile],
    divisional_id: str,
    existing: Formation | None = None,
) -> Formation | Rejection:
    """Build ``issuer`` and ``joining`` (regiments of one division in one hex) into the
    divisional unit ``divisional_id``, or into ``existing`` (BA-6.6a, BA-6.6c-e, G21).

    Two or three regiments (one is enough into an existing divisional unit); at most three
    stacking points. Strengths and artillery add up; efficiency and fortification level are
    the strength-weighted averages, rounded down; operation points the lowest (G21: the
    command costs none); supply the issuer's; normal mode; no advance flag."""
    regiments = [issuer, *joining]
    division = profiles[issuer.id].division
    if division is None:
        return Rejection("BA-6.6a", f"{issuer.id}: an independent unit has no divisional unit")
    for u in regiments:
        p = profiles[u.id]
        if u.divisional or p.division != division or u.side != issuer.side:
            return Rejection("BA-6.6a", f"{u.id}: not a regiment of the {division} division")
        if u.hex != issuer.hex:
            return Rejection("BA-6.6a", f"{u.id}: not in the hex of {issuer.id}")
    if len({u.id for u in regiments}) != len(regiments):
        return Rejection("BA-6.6a", "a regiment is named twice")
    parts = list(regiments)
    members = [Member(u.id, u.strength) for u in regiments]
    if existing is not None:
        known = profiles.get(existing.unit.id)
        if existing.unit.hex != issuer.hex or known is None or known.division != division:
            return Rejection("BA-6.6a", f"{existing.unit.id}: not this division's unit here")
        parts.append(existing.unit)
        members = [*existing.members, *members]
    elif len(regiments) < 2:
        return Rejection("BA-6.6a", "two or three regiments build a divisional unit")
    if len(members) > MAX_STACK:
        return Rejection("BA-6.6e", f"at most {MAX_STACK} units build into a divisional unit")
    unit = Unit(
        divisional_id if existing is None else existing.unit.id,
        issuer.side,
        issuer.hex,
        sum(u.strength for u in parts),
        efficiency=_weighted([(u.efficiency, u.strength) for u in parts]),
        supply=issuer.supply,
        fort=_weighted([(u.fort, u.strength) for u in parts]),
        divisional=True,
        stack=len(members),
        artillery=sum(u.artillery for u in parts),
        op=min(u.op for u in parts),
    )
    return Formation(unit, tuple(members))


def divisional_profile(division_id: str, members: Sequence[Profile]) -> Profile:
    """The profile of a divisional unit (G21): mobile only if every member is, the lowest
    allowances of its members, the members' summed printed strength as its full strength."""
    first = members[0]
    return Profile(
        type=first.type,
        mobile=all(p.mobile for p in members),
        first=min(p.first for p in members),
        second=min(p.second for p in members),
        division=first.division,
        pool=first.pool,
        full=sum(p.full for p in members),
    )


def free_slots(limit: int, on_map: int) -> int:
    """The unit slots left under the side's limit, shown after the command (BA-6.6b)."""
    return max(0, limit - on_map)


def break_down(formation: Formation, limit: int, on_map: int) -> list[Unit] | Rejection:
    """Break a divisional unit into its regiments (BA-6.6b-d, G21).

    Refused if the regiments would exceed the unit limit (5.2a). Strength and artillery are
    shared in proportion to the members' strengths when they joined (largest remainders);
    each regiment takes the divisional unit's efficiency, fortification level, supply and
    operation points, in normal mode."""
    d = formation.unit
    need = len(formation.members) - 1
    if need > free_slots(limit, on_map):
        return Rejection(
            "BA-6.6b", f"{d.id}: {need} more units exceed the limit ({free_slots(limit, on_map)})"
        )
    weights = [m.strength for m in formation.members]
    strengths = split(d.strength, weights)
    artillery = split(d.artillery, weights)
    return [
        Unit(
            m.unit,
            d.side,
            d.hex,
            s,
            efficiency=d.efficiency,
            supply=d.supply,
            fort=d.fort,
            artillery=a,
            op=d.op,
        )
        for m, s, a in zip(formation.members, strengths, artillery, strict=True)
    ]


def replacement_points(side: Side, level: int, turn: int) -> tuple[int, int]:
    """This turn's infantry and armored replacement points (BA-6.5a, BA-6.5c-d): none
    before turn 4; never carried over, so the caller starts each turn afresh from this."""
    if turn < REPLACEMENT_TURN:
        return 0, 0
    factor = REPLACEMENT_FACTOR.get((side, level), 1)
    infantry, armored = REPLACEMENTS[side]
    return infantry * factor, armored * factor


def replace(
    unit: Unit, profile: Profile, points: int, available: tuple[int, int], turn: int
) -> tuple[Unit, tuple[int, int]] | Rejection:
    """Put ``points`` replacement points into ``unit`` (BA-6.5a-b, G20).

    Infantry points go to INF, AB, VG, FJ and ENG units, armored to ARM, PZ, PZGR and CAV;
    one point is one combat strength point, up to the printed strength (``profile.full``);
    efficiency is unchanged. Refused before turn 4, to independent and battalion units, to
    units not supplied, beyond the points available or the ceiling."""
    if turn < REPLACEMENT_TURN:
        return Rejection("BA-6.5a", "replacements start on 19 December (turn 4)")
    if profile.division is None or profile.battalion:
        return Rejection("BA-6.5b", f"{unit.id}: independent and battalion units get none")
    if unit.supply != "supplied":
        return Rejection("BA-6.5b", f"{unit.id}: only supplied units receive replacements")
    infantry = profile.type in INFANTRY_TYPES
    have = available[0] if infantry else available[1]
    kind = "infantry" if infantry else "armored"
    if not 0 < points <= have:
        return Rejection("BA-6.5c", f"{unit.id}: {have} {kind} replacement points available")
    if unit.strength + points > profile.full:
        return Rejection("BA-6.5a", f"{unit.id}: at most {profile.full - unit.strength} more")
    left = (have - points, available[1]) if infantry else (available[0], have - points)
    return msgspec.structs.replace(unit, strength=unit.strength + points), left
