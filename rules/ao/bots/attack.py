"""Expected value of an attack over the six die rolls of a CRT column (the German bot's attack
choice). Pure: the caller says how many defenders cannot retreat 1, 2 or 3 hexes.

Per die roll (AO-10.1): ``De`` kills every defender; ``Ex`` kills every defender and costs the
attacker the minimal set of units whose printed strengths reach the defenders' (AO-10.1b, the
least-strength set); ``Dr n`` kills the defenders that have no legal n-hex retreat (AO-10.2b)
and otherwise gains ground (nothing against defenders immune in a town, AO-11.f); ``Ar n``
costs the attacker a little (the attackers fall back).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

import msgspec

from rules.ao import UnitDef, crt, ex_loss_options

LOSS_WEIGHT: Final = 0.6
"""A German unit lost is an Allied VP, but the German needs 35 VP and the Allies only a
ratio: one Allied unit killed is worth more to him than one of his own lost."""
GROUND: Final = 0.25
"""Value of each hex a surviving defender is pushed back (roads open, the front moves)."""
REPULSE: Final = 0.15
"""Cost of each hex an Ar result pushes the attackers back."""


class AttackValue(msgspec.Struct, frozen=True):
    """Expected Allied units killed, expected German units lost, and the score
    ``kills - LOSS_WEIGHT x losses + ground - repulse`` (all per attack, over the 6 rolls)."""

    kills: float
    losses: float
    value: float


def ex_losses(attackers: Sequence[UnitDef], defender_face: int) -> int:
    """Units the attacker loses on an Ex: the least-strength minimal set (AO-10.1b)."""
    options = ex_loss_options(attackers, defender_face)
    return min((sum(a.strength for a in attackers if a.id in o), len(o)) for o in options)[1]


def attack_value(
    table: str,
    column: str,
    attackers: Sequence[UnitDef],
    defenders: Sequence[UnitDef],
    trapped: Sequence[int] = (0, 0, 0),
    immune: bool = False,
) -> AttackValue:
    """The expected outcome of ``attackers`` attacking ``defenders`` at ``column`` of ``table``
    (``"initial"`` or ``"standard"``). ``trapped[n-1]``: how many defenders have no legal
    n-hex retreat (a Dr n eliminates them). ``immune``: the defenders ignore Dr (a town,
    AO-11.f; the defender never waives), so only Ex and De count."""
    rows = crt.TABLES[cast(Any, table)]
    i = crt.ODDS_COLUMNS.index(column)
    n_def = len(defenders)
    face = sum(d.strength for d in defenders)
    ex = ex_losses(attackers, face)
    kills = losses = value = 0.0
    for row in rows:
        r = row[i]
        if r.kind in ("De", "Ex"):
            kills += n_def
            value += n_def
            if r.kind == "Ex":
                losses += ex
                value -= LOSS_WEIGHT * ex
        elif r.kind == "Dr" and not immune:
            dead = trapped[min(r.hexes, 3) - 1]
            kills += dead
            value += dead + GROUND * r.hexes * (n_def - dead)
        elif r.kind == "Ar":
            value -= REPULSE * r.hexes
    return AttackValue(kills=kills / 6, losses=losses / 6, value=value / 6)


__all__ = ["GROUND", "LOSS_WEIGHT", "REPULSE", "AttackValue", "attack_value", "ex_losses"]
