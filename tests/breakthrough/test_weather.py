"""Weather (9.0, C1, C2, G9) and the air points it brings (3.1, C11, C12)."""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import given

from rules.breakthrough import weather
from rules.breakthrough.weather import air_points, chances, ground_freeze, needs_draw


def counts(turn: int) -> dict[str, int]:
    out = {"overcast": 0, "fog": 0, "clear": 0}
    for draw in range(1, 101):
        out[weather.weather(turn, draw)] += 1
    return out


@pytest.mark.rule("BA-9.0c")
def test_16_and_17_december_are_overcast_with_no_draw() -> None:
    for turn in (1, 2):
        assert not needs_draw(turn)
        assert weather.weather(turn, None) == "overcast"
        with pytest.raises(ValueError, match="certain"):
            weather.weather(turn, 50)


@pytest.mark.rule("BA-9.0d")
def test_18_to_21_december_half_overcast_half_fog() -> None:
    # the chart's 50/50, not the text's "80% Overcast and 50% Fog" (C1)
    for turn in (3, 4, 5, 6):
        assert needs_draw(turn)
        assert counts(turn) == {"overcast": 50, "fog": 50, "clear": 0}
    assert weather.weather(3, 50) == "overcast" and weather.weather(3, 51) == "fog"


@pytest.mark.rule("BA-9.0e")
def test_22_to_24_december_16_overcast_34_fog_50_clear() -> None:
    # the chart's 16/34/50, not the text's 18/34/50 (C2)
    for turn in (7, 8, 9):
        assert counts(turn) == {"overcast": 16, "fog": 34, "clear": 50}
    assert [weather.weather(7, d) for d in (16, 17, 50, 51)] == ["overcast", "fog", "fog", "clear"]


@pytest.mark.rule("BA-9.0f")
def test_25_to_27_december_34_fog_66_clear() -> None:
    for turn in (10, 11, 12):
        assert counts(turn) == {"overcast": 0, "fog": 34, "clear": 66}
    assert weather.weather(12, 34) == "fog" and weather.weather(12, 35) == "clear"


@pytest.mark.rule("BA-9.0b")
def test_the_ground_freezes_from_24_december_whatever_the_weather() -> None:
    assert [ground_freeze(t) for t in range(1, 13)] == [False] * 8 + [True] * 4


@given(st.integers(1, 12))
def test_every_turns_chances_add_up_to_100(turn: int) -> None:
    assert sum(chances(turn).values()) == 100


def test_a_draw_outside_1_100_or_a_missing_draw_is_refused() -> None:
    with pytest.raises(ValueError, match=r"1\.\.100"):
        weather.weather(5, 0)
    with pytest.raises(ValueError, match="needs a draw"):
        weather.weather(5, None)
    with pytest.raises(ValueError, match="turn 13"):
        chances(13)


@pytest.mark.rule("BA-3.1a", "BA-9.0a")
def test_american_air_points_six_clear_two_fog_none_overcast() -> None:
    assert [air_points("american", 11, w) for w in ("clear", "fog", "overcast")] == [6, 2, 0]


@pytest.mark.rule("BA-3.1b", "BA-9.0a")
def test_german_air_points_two_on_18_december_else_one_with_fog() -> None:
    # C11: 18 December gives two whatever its weather; later turns one with Fog only
    assert air_points("german", 3, "overcast") == 2
    assert air_points("german", 3, "fog") == 2
    assert air_points("german", 4, "fog") == 1
    assert air_points("german", 4, "overcast") == 0
    assert air_points("german", 11, "clear") == 0
    assert air_points("german", 2, "overcast") == 0


@pytest.mark.rule("BA-3.1c")
def test_level_bonuses_only_when_air_points_are_due() -> None:
    assert air_points("german", 4, "fog", level=4) == 2
    assert air_points("german", 3, "overcast", level=4) == 3
    assert air_points("german", 4, "overcast", level=4) == 0  # not due: no bonus
    assert air_points("american", 8, "clear", level=2) == 8
    assert air_points("american", 8, "fog", level=1) == 6
    assert air_points("american", 8, "overcast", level=1) == 0  # C12: planes do not fly
    # each level helps one side only
    assert air_points("american", 8, "clear", level=4) == 6
    assert air_points("german", 4, "fog", level=1) == 1
    assert air_points("american", 8, "clear", level=3) == 6
