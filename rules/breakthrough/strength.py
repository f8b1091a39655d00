"""Modified combat strength and odds (8.1, 8.2, 13.6): BA-8.1a, BA-8.2a-g, with 7.7c and 3.4c-d.

All arithmetic is integer. A modified strength is kept in **hundredths** of a strength point.
Each factor of 13.6 is an exact integer ratio (thousandths: rough 1300/1000, river 750/1000,
fortification (1000 + 300 x level)/1000 ...); a unit's factors are multiplied exactly (Python
integers do not overflow) and the product is rounded **once, down** to hundredths (G15). Then:

1. the triple cap (BA-8.2g): at most ``3 x strength`` (300 hundredths a point), on the product
   of every factor but the divisional bonus;
2. the divisional bonus (BA-8.2e): x1.25, rounded down to hundredths;
3. the side's units are summed and its artillery added (BA-8.2f), the attacker's artillery
   halved against a town and cut 10% per fortification level, rounded down to hundredths;
4. the odds are the attack total over the defence total, in hundredths, rounded down.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

import msgspec

from rules.breakthrough.units import Terrain, Unit

Role = Literal["attack", "defence"]

MILLE: Final = 1000
TERRAIN_DEFENCE: Final[dict[Terrain, int]] = {
    "clear": 1000,
    "rough": 1300,
    "town": 2000,
    "forest": 1700,
}
"""13.6 "Def. Modifier", thousandths: clear 1.0, rough 1.3, town 2.0, forest 1.7 (BA-8.2a).
The attacker's terrain modifier is 1.0 everywhere."""
RIVER_ATTACK: Final = 750
"""x.75 for an attacker attacking across a river hexside (BA-8.2b)."""
FORT_STEP: Final = 300
"""Fortification 1 + .3 x level, defending only (BA-8.2c, BA-7.8d)."""
SUPPLY_ATTACK: Final = {"supplied": 1000, "unsupplied": 500}
SUPPLY_DEFENCE: Final = {"supplied": 1000, "unsupplied": 750, "isolated": 500}
"""13.6: unsupplied .75 / .50, isolated .50 / N/A (BA-8.2d, BA-4.3c, BA-4.3h)."""
TRAVEL: Final = 600
"""Travel mode .60 attacking and defending (BA-7.7c)."""
STRAFED: Final = 300
"""A strafed unit "uses 30% of [its] combat strength" (BA-3.4d; C22 read as x0.30)."""
DIVISIONAL_NUM: Final = 125
DIVISIONAL_DEN: Final = 100
"""Divisional bonus x1.25, applied after the other modifiers (BA-6.6g, BA-8.2e)."""
CAP: Final = 3
"""No unit modified to more than triple its strength, bonus and artillery excluded (BA-8.2g)."""
ARTILLERY_FORT_CUT: Final = 10
"""The attacker's artillery is cut 10% per fortification level of the defence (BA-8.2f)."""


class IsolatedAttackError(ValueError):
    """An isolated unit may not attack (BA-4.3k, BA-8.2d): plotting must refuse it."""


def efficiency_used(unit: Unit) -> int:
    """The efficiency percent a unit fights with: its own, halved (down) when disrupted (3.4c).

    The 40% floor of 8.1 bounds the efficiency a unit *has*; a disrupted unit "uses half",
    so a disrupted unit at 40% fights at 20% (G6, G8).
    """
    return unit.efficiency // 2 if unit.disrupted else unit.efficiency


def factors(unit: Unit, role: Role, terrain: Terrain, across_river: bool) -> list[int]:
    """The 13.6 factors, in thousandths, other than efficiency and the divisional bonus.

    ``terrain`` is the defender's hex (the defender's factor; attackers get 1.0);
    ``across_river`` is whether this attacking unit attacks across a river hexside.
    """
    out: list[int] = []
    if role == "defence":
        out.append(TERRAIN_DEFENCE[terrain])
        out.append(MILLE + FORT_STEP * unit.fort)
        out.append(SUPPLY_DEFENCE[unit.supply])
    else:
        if unit.supply == "isolated":
            raise IsolatedAttackError(f"{unit.id} is isolated and may not attack (BA-4.3k)")
        if across_river:
            out.append(RIVER_ATTACK)
        out.append(SUPPLY_ATTACK[unit.supply])
    if unit.mode == "travel":
        out.append(TRAVEL)
    if unit.strafed:
        out.append(STRAFED)
    return out


def modified_strength(
    unit: Unit, role: Role, terrain: Terrain = "clear", across_river: bool = False
) -> int:
    """A unit's modified strength in hundredths of a point (BA-8.1a, BA-8.2a-e, BA-8.2g).

    >>> modified_strength(Unit("a", "german", "0101", 50, efficiency=80), "attack")
    4000
    """
    num = unit.strength * 100 * efficiency_used(unit)
    den = 100
    for f in factors(unit, role, terrain, across_river):
        num *= f
        den *= MILLE
    value = min(num // den, CAP * 100 * unit.strength)
    if unit.divisional:
        value = value * DIVISIONAL_NUM // DIVISIONAL_DEN
    return value


def attack_artillery(points: int, town: bool, fort: int) -> int:
    """The attacker's artillery in hundredths: halved against a town and cut 10% per
    fortification level (BA-8.2f), both applied to the exact value, rounded down once.

    >>> attack_artillery(30, town=True, fort=2)
    1200
    """
    value = points * (100 - ARTILLERY_FORT_CUT * fort)
    return value // 2 if town else value


class Odds(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The two totals (hundredths, artillery included) and their ratio in hundredths."""

    attack: int
    defence: int
    ratio: int
    """``100 * attack // defence``: 250 is 2.5 to 1, 50 is 1 to 2."""

    @property
    def text(self) -> str:
        """The odds as the combat display shows them (BA-8.0c): ``"2.50:1"`` or ``"1:2.00"``."""
        if self.ratio >= 100:
            return f"{self.ratio // 100}.{self.ratio % 100:02d}:1"
        inverse = 100 * self.defence // max(self.attack, 1)
        return f"1:{inverse // 100}.{inverse % 100:02d}"


def odds(attack: int, defence: int) -> Odds:
    """Odds of two totals in hundredths; a zero defence counts as one hundredth."""
    return Odds(attack, defence, 100 * attack // max(defence, 1))


def defence_fort(defenders: Iterable[Unit]) -> int:
    """The fortification level that cuts the attacker's artillery: the highest of the
    defending units' (G15 reading: the guns must reduce the best-dug-in position)."""
    return max((u.fort for u in defenders), default=0)


def combat_odds(
    attackers: Iterable[tuple[Unit, bool]],
    defenders: Iterable[Unit],
    terrain: Terrain,
) -> Odds:
    """Odds of one combat (BA-8.0b, BA-8.2a-g): ``attackers`` are (unit, across_river) pairs.

    Every unit's artillery counts for its side (BA-8.2f); the attacker's is cut as
    :func:`attack_artillery` says, the defender's is added whole.
    """
    att = list(attackers)
    dfn = list(defenders)
    attack = sum(modified_strength(u, "attack", terrain, river) for u, river in att)
    attack += attack_artillery(
        sum(u.artillery for u, _ in att), terrain == "town", defence_fort(dfn)
    )
    defence = sum(modified_strength(u, "defence", terrain) for u in dfn)
    defence += 100 * sum(u.artillery for u in dfn)
    return odds(attack, defence)
