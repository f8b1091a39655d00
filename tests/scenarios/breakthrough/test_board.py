"""``scenarios.breakthrough.load_board``: the rules' board from the map and the order of
battle (BA-1.4g, BA-1.1a, BA-13.6a)."""

from __future__ import annotations

import pytest

import rules.breakthrough as bt
from rules.breakthrough import strength
from rules.breakthrough.state import EndPhase, PhaseBegan
from rules.breakthrough.units import Unit
from rules.dice import SeededDice
from scenarios.breakthrough.board import load_board


@pytest.mark.rule("BA-1.4g")
def test_the_southern_shoulder_is_not_in_the_game() -> None:
    b = load_board()
    divisions = {p.division for p in b.profiles.values()}
    # south of the Clerf and east of the Alzette: the US 4th Infantry Division, the German
    # 212th and 276th Volksgrenadier divisions of the Seventh Army's southern wing
    assert not divisions & {"4", "212", "276"}
    assert {"28", "9A", "5FJ", "352"} <= divisions  # those north of it are
    assert len(b.profiles) == 164 and len(b.start) + len(b.arrivals) == 164


@pytest.mark.rule("BA-1.1a")
def test_a_turn_is_one_day_and_holds_every_operation() -> None:
    g = bt.Game.new(load_board(), dice=SeededDice(b"day"))
    assert g.ruleset.standing(g.state, None) == "16 December (turn 1), German organization"
    while g.state.turn < 4:
        g.push(EndPhase())
    t3 = [
        (e.phase, e.side)
        for step in g.events
        for e in step
        if isinstance(e, PhaseBegan) and e.turn == 3
    ]
    assert {p for p, _ in t3} == {"dawn", "air", "organization", "operation"}
    assert g.ruleset.standing(g.state, None).startswith("19 December (turn 4), ")


@pytest.mark.rule("BA-13.6a")
def test_the_combat_modifiers_table() -> None:
    u = Unit("a", "german", "0101", 100)
    rows = {
        t: strength.modified_strength(u, "defence", t) for t in ("clear", "rough", "town", "forest")
    }
    assert rows == {"clear": 10000, "rough": 13000, "town": 20000, "forest": 17000}
    assert strength.modified_strength(u, "attack", "forest") == 10000  # attack: terrain 1.0
    assert strength.modified_strength(u, "attack", "clear", across_river=True) == 7500
    travel = Unit("a", "german", "0101", 100, mode="travel")
    assert strength.modified_strength(travel, "attack") == 6000
    assert strength.modified_strength(travel, "defence") == 6000
    fort = Unit("a", "german", "0101", 100, fort=2)
    assert strength.modified_strength(fort, "defence") == 16000  # 1 + .3 x 2
    assert strength.modified_strength(fort, "attack") == 10000  # N/A attacking
    div = Unit("a", "german", "0101", 100, divisional=True, stack=2)
    assert strength.modified_strength(div, "attack") == 12500
    eff = Unit("a", "german", "0101", 100, efficiency=70)
    assert strength.modified_strength(eff, "defence") == 7000
    uns = Unit("a", "german", "0101", 100, supply="unsupplied")
    assert strength.modified_strength(uns, "defence") == 7500
    assert strength.modified_strength(uns, "attack") == 5000
    iso = Unit("a", "german", "0101", 100, supply="isolated")
    assert strength.modified_strength(iso, "defence") == 5000
