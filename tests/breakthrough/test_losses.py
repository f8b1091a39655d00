"""The reconstructed loss model (8.3, G3), its distribution, surrender and battle efficiency:
values worked out by hand from the formulas of ``docs/rules-notes-breakthrough.md``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.breakthrough import calibration, losses
from rules.breakthrough.losses import (
    artillery_loss,
    attacker_loss_hundredths,
    defender_loss_hundredths,
    distribute,
    half_up,
    surrenders,
    take_losses,
)
from rules.breakthrough.units import Unit


@pytest.mark.rule("BA-8.3a")
def test_attacker_loss_from_its_unmodified_strength_a_draw_and_a_constant() -> None:
    assert losses.ATTACKER_LOSS_PERMILLE == 6
    assert attacker_loss_hundredths(100, 1) == 30  # 100 x 6 x 50 / 1000
    assert attacker_loss_hundredths(100, 100) == 89  # 100 x 6 x 149 / 1000 = 89.4
    assert attacker_loss_hundredths(250, 50) == 148  # 250 x 6 x 99 / 1000 = 148.5, down
    assert attacker_loss_hundredths(250, 51) == 150
    assert (half_up(148), half_up(150)) == (1, 2)
    for bad in (0, 101):
        with pytest.raises(ValueError):
            attacker_loss_hundredths(100, bad)


@pytest.mark.rule("BA-8.3b")
def test_defender_loss_from_the_attackers_loss_the_odds_and_a_draw() -> None:
    assert defender_loss_hundredths(150, 300, 100) == 450  # 1.5 x 3 x 1.00
    assert defender_loss_hundredths(150, 300, 1) == 4  # 1.5 x 3 x .01 = .045
    assert defender_loss_hundredths(150, 900, 100) == 900  # odds capped at 6:1
    assert defender_loss_hundredths(150, 50, 50) == 37  # 1.5 x .5 x .5 = .375
    assert half_up(450) == 5


@pytest.mark.rule("BA-8.3c")
def test_artillery_losses_one_per_twenty_and_one_per_ten() -> None:
    assert artillery_loss(3900, losses.ATTACK_ARTILLERY_PER_LOSS) == 1
    assert artillery_loss(4000, losses.ATTACK_ARTILLERY_PER_LOSS) == 2
    assert artillery_loss(2500, losses.DEFENCE_ARTILLERY_PER_LOSS) == 2
    assert artillery_loss(900, losses.DEFENCE_ARTILLERY_PER_LOSS) == 0


@pytest.mark.rule("BA-8.3d")
def test_losses_distributed_in_proportion_largest_remainder_first() -> None:
    assert distribute(10, [45, 30, 25]) == [5, 3, 2]  # 4.5, 3, 2.5: the tie to the first
    assert distribute(7, [10, 20]) == [2, 5]  # 2.33, 4.67
    assert distribute(50, [10, 20]) == [10, 20]  # capped: both eliminated
    assert distribute(0, [10, 20]) == [0, 0]


@pytest.mark.rule("BA-8.1c", "BA-6.4g")
def test_battle_losses_cost_efficiency_attackers_more_and_artillery() -> None:
    u = Unit("u", "german", "0505", 40, efficiency=90, artillery=20)
    att = take_losses(u, 10, attacking=True)
    # 25% lost: attacker 2 a percent, down to the 40 floor; artillery 20 x 10/40 = 5 lost
    assert (att.strength, att.efficiency, att.artillery) == (30, 40, 15)
    dfn = take_losses(u, 10, attacking=False)
    assert (dfn.strength, dfn.efficiency, dfn.artillery) == (30, 65, 15)
    gone = take_losses(u, 60, attacking=False)
    assert (gone.strength, gone.artillery) == (0, 0)


@pytest.mark.rule("BA-4.3j")
def test_isolated_units_surrender_on_a_draw_of_forty_or_less() -> None:
    iso = Unit("u", "american", "0505", 20, supply="isolated")
    assert surrenders(iso, 1) and surrenders(iso, 40) and not surrenders(iso, 41)
    assert not surrenders(Unit("v", "american", "0505", 20, supply="unsupplied"), 1)


@pytest.mark.rule("BA-8.3a", "BA-8.3b")
def test_calibration_lands_near_the_historical_casualties() -> None:
    # The reference day's expectation over 12 days, exactly over all draws, against the
    # targets (Cole; notes): within 15%.
    got = calibration.expected_game()
    assert got == {"american": 298, "german": 283}
    for side, target in calibration.TARGET_POINTS.items():
        assert abs(got[side] - target) * 100 <= 15 * target


@given(st.integers(0, 400), st.integers(1, 100), st.integers(1, 100), st.integers(0, 2000))
def test_losses_are_integers_monotone_in_the_draws(s: int, r: int, r2: int, o: int) -> None:
    a = attacker_loss_hundredths(s, r)
    assert type(a) is int and a >= 0
    if r < 100:
        assert attacker_loss_hundredths(s, r + 1) >= a
    d = defender_loss_hundredths(a, o, r2)
    assert type(d) is int and d >= 0
    if r2 < 100:
        assert defender_loss_hundredths(a, o, r2 + 1) >= d
    assert defender_loss_hundredths(a, o + 1, r2) >= d


@given(st.integers(0, 500), st.lists(st.integers(0, 120), min_size=1, max_size=4))
def test_distribution_never_exceeds_strength(total: int, strengths: list[int]) -> None:
    shares = distribute(total, strengths)
    assert sum(shares) == min(total, sum(strengths))
    assert all(0 <= x <= s for x, s in zip(shares, strengths, strict=True))
