"""The loss model (8.3, G3, reconstructed), its distribution, and surrender (4.3, G7).

8.3: "The attacker's losses are based on its unmodified combat strength, a random and a
constant. The defender's losses are based on the attacker's losses, odds and a random. In
addition losses are incurred by artillery. The defender loses one strength point per twenty
enemy artillery points and the attacker loses one strength point per ten enemy artillery
points. Losses are distributed to units proportionately based on combat strength."

Our reading (``docs/rules-notes-breakthrough.md``, "Combat"), with ``r`` a percentage draw
``1..100`` (the dice's ``uniform(index, 100)``) and every quantity an integer (hundredths of a
point where a fraction is kept):

- attacker (BA-8.3a): ``A_h = S x K x (49 + r) // 1000`` hundredths, with ``S`` the attackers'
  unmodified strength and ``K`` = :data:`ATTACKER_LOSS_PERMILLE`; so 0.5 to 1.49 times ``K``
  per mille of ``S``, mean 0.995 x ``K``;
- defender (BA-8.3b): ``D_h = A_h x min(odds, 6:1) x r' // 10_000`` hundredths, with a
  second draw ``r'``: 0.01 to 1.00 times the attacker's loss times the odds, mean 0.505; so at
  2:1 both sides lose alike on average, below it the attacker loses more;
- each rounded half up to whole points; then artillery (BA-8.3c): the defender loses
  ``attack artillery // 20`` (the attacker's artillery as added to the odds, cut for town and
  forts) and the attacker ``defence artillery // 10``; each side's loss is capped at its
  strength.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec.structs

from rules.breakthrough.units import MIN_EFFICIENCY, PERCENT, Unit

ATTACKER_LOSS_PERMILLE: Final = 6
"""``K``: the attacker loses on average 0.6% of its unmodified strength a combat (mean of
``(49 + r) / 100`` is 0.995), before artillery. Calibrated in :mod:`.calibration`."""
ATTACKER_DRAW_OFFSET: Final = 49
ODDS_CAP: Final = 600
"""Odds above 6:1 count as 6:1 in the defender's loss (hundredths)."""
DEFENCE_ARTILLERY_PER_LOSS: Final = 10
ATTACK_ARTILLERY_PER_LOSS: Final = 20
"""8.3: one point per 20 enemy artillery points (defender), per 10 (attacker) (BA-8.3c)."""
SURRENDER_PERCENT: Final = 40
"""4.3: isolated units have "a 40% chance that they will surrender when attacked" (BA-4.3j)."""
ATTACKER_EFFICIENCY_PER_PERCENT: Final = 2
DEFENDER_EFFICIENCY_PER_PERCENT: Final = 1
"""8.1: efficiency lost in battle per percent of strength lost: attackers "lose more
efficiency than defending units on a per loss basis" (BA-8.1c, G6): 2 and 1 points."""


def _check(draw: int) -> None:
    if not 1 <= draw <= PERCENT:
        raise ValueError(f"a percentage draw is 1..100, not {draw}")


def half_up(hundredths: int) -> int:
    """Whole points from hundredths, halves rounded up (non-negative values)."""
    return (hundredths + 50) // 100


def attacker_loss_hundredths(unmodified: int, draw: int) -> int:
    """The attacker's loss before rounding, in hundredths (BA-8.3a).

    >>> attacker_loss_hundredths(100, 51)
    60
    """
    _check(draw)
    return unmodified * ATTACKER_LOSS_PERMILLE * (ATTACKER_DRAW_OFFSET + draw) // 1000


def defender_loss_hundredths(attacker_hundredths: int, odds_ratio: int, draw: int) -> int:
    """The defender's loss before rounding, in hundredths (BA-8.3b): from the attacker's
    loss (unrounded), the odds (hundredths, capped at 6:1) and a draw.

    >>> defender_loss_hundredths(60, 200, 50)
    60
    """
    _check(draw)
    ratio = min(odds_ratio, ODDS_CAP)
    return attacker_hundredths * ratio * draw // 10_000


def artillery_loss(enemy_artillery_hundredths: int, per_loss: int) -> int:
    """Whole points lost to enemy artillery: one per ``per_loss`` points, rounded down (8.3c)."""
    return enemy_artillery_hundredths // (100 * per_loss)


def distribute(total: int, strengths: Sequence[int]) -> list[int]:
    """Share ``total`` among units in proportion to their strengths (BA-8.3d).

    Largest remainder: each unit takes ``total x s // S``; the points left over go one each
    to the largest remainders, ties to the earlier unit (callers pass plotted order for
    attackers, id order for defenders). No unit loses more than its strength.

    >>> distribute(10, [45, 30, 25])
    [5, 3, 2]
    >>> distribute(2, [25, 25, 25])
    [1, 1, 0]
    """
    whole = sum(strengths)
    total = min(total, whole)
    if whole == 0:
        return [0 for _ in strengths]
    shares = [total * s // whole for s in strengths]
    rests = [total * s % whole for s in strengths]
    left = total - sum(shares)
    order = sorted(range(len(strengths)), key=lambda i: (-rests[i], i))
    for i in order[:left]:
        shares[i] += 1
    return shares


def artillery_lost(unit: Unit, loss: int) -> int:
    """Artillery points permanently lost with ``loss`` strength points (6.4, BA-6.4g, G3):
    the same fraction of its artillery as of its strength, rounded down; all of it when the
    unit is eliminated."""
    if unit.strength == 0 or loss >= unit.strength:
        return unit.artillery
    return unit.artillery * loss // unit.strength


def efficiency_after_battle(unit: Unit, loss: int, attacking: bool) -> int:
    """Efficiency after losing ``loss`` points in battle (BA-8.1c, G6): 2 points per percent
    of strength lost attacking, 1 defending (percent rounded down), never below 40."""
    if unit.strength == 0 or loss == 0:
        return unit.efficiency
    per = ATTACKER_EFFICIENCY_PER_PERCENT if attacking else DEFENDER_EFFICIENCY_PER_PERCENT
    percent = 100 * loss // unit.strength
    return max(MIN_EFFICIENCY, unit.efficiency - per * percent)


def take_losses(unit: Unit, loss: int, attacking: bool) -> Unit:
    """The unit after ``loss`` strength points: strength, efficiency, artillery; strength 0
    means eliminated (G3), which the caller removes from the map."""
    loss = min(loss, unit.strength)
    return msgspec.structs.replace(
        unit,
        strength=unit.strength - loss,
        efficiency=efficiency_after_battle(unit, loss, attacking),
        artillery=unit.artillery - artillery_lost(unit, loss),
    )


def surrenders(unit: Unit, draw: int) -> bool:
    """An isolated unit, when attacked, surrenders on a draw of 40 or less (BA-4.3j, G7)."""
    _check(draw)
    return unit.supply == "isolated" and draw <= SURRENDER_PERCENT
