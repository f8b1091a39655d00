"""The calibration of the loss model (G3): expected losses, worked out exactly.

No game loop runs yet, so the constant :data:`~rules.breakthrough.losses.ATTACKER_LOSS_PERMILLE`
is calibrated analytically: the expected losses of one combat are the mean, over all 100 x 100
pairs of draws, of the real loss functions (rounding included), and a stated reference day
(:data:`REFERENCE_DAY`, from the scale of the order of battle) multiplies them by the combats
a day. For one combat with attackers of unmodified strength ``S`` at odds ``o`` (hundredths):

    E[attacker] = mean_r half_up(S K (49 + r) / 1000) + defence_art // 10
    E[defender] = mean_{r,r'} half_up(A_h(r) min(o, 600) r' / 10_000) + attack_art // 20

roughly ``S K / 1000`` and ``0.505 x min(o, 6) x S K / 1000``. The historical targets and their
sources are in ``docs/rules-notes-breakthrough.md`` ("Combat", G3); self-play checks them once
the game runs.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.breakthrough import losses
from rules.breakthrough.units import PERCENT, Side

DAYS: Final = 12
"""16 to 27 December (BA-1.4a)."""
MEN_PER_POINT: Final[dict[Side, int]] = {"american": 111, "german": 102}
"""Men a strength point stands for on 16 December: 83,000 Americans (Cole p. 650) over the
750 American points on the map; "over 200,000 combat troops" (Cole p. 650) over 1,961."""
TARGET_POINTS: Final[dict[Side, int]] = {"american": 270, "german": 320}
"""Historical battle casualties 16-27 December in strength points: about 30,000 Americans
(Cole p. 674: 41,315 for 16 December to 2 January, front-loaded) and about 33,000 Germans
(estimate; see the notes)."""


class ReferenceCombat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A typical combat of a day, repeated ``per_day`` times."""

    attacker: Side
    per_day: int
    strength: int
    """The attackers' unmodified strength."""
    odds: int
    """Hundredths."""
    attack_artillery: int
    """The attacker's artillery as added to the odds (after the town and fort cuts), points."""
    defence_artillery: int


REFERENCE_DAY: Final = (
    ReferenceCombat("german", 12, 80, 200, 20, 10),
    ReferenceCombat("american", 6, 70, 100, 20, 10),
)
"""Two Combat Phases a side a day. German: 6 combats a phase by two units of about 40 points
(1,961 points in 59 units on 16 December) at 2:1, with 20 artillery points (415 in the German
pools at the start, at most 33 a unit); American: 3 a phase by two units of 35 (3,165 points
in 85 units) at 1:1. Each defence brings 10 artillery points."""


def expected_combat(c: ReferenceCombat) -> tuple[int, int]:
    """Sum over all 10,000 draw pairs of the (attacker, defender) losses of one combat: divide
    by 10,000 for the expectation in points."""
    att = dfn = 0
    a_art = losses.artillery_loss(100 * c.defence_artillery, losses.DEFENCE_ARTILLERY_PER_LOSS)
    d_art = losses.artillery_loss(100 * c.attack_artillery, losses.ATTACK_ARTILLERY_PER_LOSS)
    for r in range(1, PERCENT + 1):
        a_h = losses.attacker_loss_hundredths(c.strength, r)
        att += PERCENT * (losses.half_up(a_h) + a_art)
        for r2 in range(1, PERCENT + 1):
            dfn += losses.half_up(losses.defender_loss_hundredths(a_h, c.odds, r2)) + d_art
    return att, dfn


def expected_game(day: tuple[ReferenceCombat, ...] = REFERENCE_DAY) -> dict[Side, int]:
    """Expected strength points each side loses over the game, rounded down."""
    out: dict[Side, int] = {"american": 0, "german": 0}
    for c in day:
        att, dfn = expected_combat(c)
        defender: Side = "american" if c.attacker == "german" else "german"
        out[c.attacker] += att * c.per_day * DAYS
        out[defender] += dfn * c.per_day * DAYS
    return {s: v // (PERCENT * PERCENT) for s, v in out.items()}
