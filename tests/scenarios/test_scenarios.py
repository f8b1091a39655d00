"""The ten scenarios (AO-18.a with errata AO-18.a*) and what each one contains."""

from __future__ import annotations

from collections import Counter

import pytest

from ardennes_tui import cli
from scenarios import load_scenario, scenario_numbers, scenario_specs
from scenarios.loader import setup_entries
from tests.kit.realmap import needs_real_map

# AO-18.a, typed from the table: Allied set-up, Allied rate, German set-up, German rate;
# scenario 2 with the errata's German accelerated reinforcements (AO-18.a*).
TABLE = {
    1: ("historical", "historical", "historical", "historical"),
    2: ("historical", "historical", "historical", "accelerated"),
    3: ("historical", "historical", "free", "historical"),
    4: ("free", "slowed", "historical", "historical"),
    5: ("free", "slowed", "free", "historical"),
    6: ("free", "slowed", "free", "accelerated"),
    7: ("historical", "slowed", "historical", "accelerated"),
    8: ("historical", "slowed", "free", "accelerated"),
    9: ("historical", "historical", "free", "accelerated"),
    10: ("free", "historical", "free", "accelerated"),
}

EXPECTATIONS = {
    1: "favors a draw or an Allied victory",
    2: "favors a German victory",
    3: "favors a German immediate victory",
    4: "50-50",
    5: "favors German",
    6: "strongly favors German",
    7: "very strongly favors German",
    8: "very bad news for the Allies",
    9: "very strongly favors German",
    10: "Germans either win early or not at all",
}


@pytest.mark.rule("AO-18.a")
@pytest.mark.rule("AO-18.a*")
def test_scenario_table() -> None:
    assert scenario_numbers() == tuple(range(1, 11))
    for n, spec in scenario_specs().items():
        got = (spec.allied_setup, spec.allied_rate, spec.german_setup, spec.german_rate)
        assert got == TABLE[n], n
        assert spec.expectation == EXPECTATIONS[n]
        assert spec.title
    assert len({s.title for s in scenario_specs().values()}) == 10


@pytest.mark.rule("AO-18.a*")
def test_scenario_two_is_not_scenario_one() -> None:
    assert scenario_specs()[2].german_rate == "accelerated"
    assert scenario_specs()[1].german_rate == "historical"


@pytest.mark.rule("AO-18.a")
@pytest.mark.rule("AO-17.a")
@needs_real_map
@pytest.mark.parametrize("number", range(1, 11))
def test_every_unit_placed_or_scheduled_exactly_once(number: int) -> None:
    sc = load_scenario(number)
    ids = [u.id for u in sc.units]
    assert ids == sorted(set(ids))
    placed = list(sc.setup)
    arriving = [a.unit for a in sc.arrivals]
    counts = Counter(placed + arriving)
    assert set(counts) == set(ids)
    assert all(c == 1 for c in counts.values())
    assert [(a.turn, a.section, a.unit) for a in sc.arrivals] == sorted(
        (a.turn, a.section, a.unit) for a in sc.arrivals
    )
    # the set-up is the same 64 units in every scenario (free set-ups start from it)
    assert set(placed) == {e.id for e in setup_entries()}


@pytest.mark.rule("AO-17.d")
@pytest.mark.rule("AO-18.a")
@needs_real_map
def test_unit_counts_per_rate() -> None:
    def count(n: int) -> tuple[int, int]:
        sc = load_scenario(n)
        return (
            sum(u.side == "allied" for u in sc.units),
            sum(u.side == "german" for u in sc.units),
        )

    assert count(1) == (25 + 94, 39 + 30)
    assert count(2) == (25 + 94, 39 + 36)
    assert count(7) == (25 + 88, 39 + 36)
    assert count(4) == (25 + 88, 39 + 30)


@needs_real_map
def test_unknown_scenario() -> None:
    with pytest.raises(KeyError):
        load_scenario(11)


def test_cli_scenarios_lists_all_ten(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for n, expectation in EXPECTATIONS.items():
        assert f"{n:>2}  {scenario_specs()[n].title}" in out
        assert expectation in out
    assert out.count("Allied: free set-up, slowed reinforcements") == 3
    assert out.count("German: historical set-up, accelerated reinforcements") == 2
