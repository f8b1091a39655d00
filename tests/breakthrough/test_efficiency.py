"""Efficiency amounts of 8.1 (G6): movement, the start of a turn, unused points."""

from __future__ import annotations

import pytest

from rules.breakthrough.efficiency import after_move, at_turn_start


@pytest.mark.rule("BA-8.1b")
def test_moving_costs_efficiency_except_in_travel_mode() -> None:
    assert after_move(80, "normal") == 78
    assert after_move(80, "normal", hexes=3) == 74
    assert after_move(80, "travel", hexes=3) == 80
    assert after_move(41, "normal") == 40


@pytest.mark.rule("BA-8.1d", "BA-4.3b")
def test_turn_start_supplied_regain_unsupplied_and_isolated_lose() -> None:
    assert at_turn_start(80, "supplied", 0) == 85
    assert at_turn_start(80, "unsupplied", 0) == 75
    assert at_turn_start(80, "isolated", 0) == 70
    assert at_turn_start(44, "isolated", 0) == 40


@pytest.mark.rule("BA-8.1e")
def test_unused_operation_points_restore_efficiency_point_for_point() -> None:
    assert at_turn_start(80, "supplied", 7) == 92
    assert at_turn_start(98, "supplied", 7) == 100
    # unsupplied units "fail to recover efficiency" (4.3), unused points included
    assert at_turn_start(80, "unsupplied", 7) == 75
