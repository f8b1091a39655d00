"""Last Seven Days (scenario 2, 21-27 December) from the reconstructed 21 December set-up
(BA-2.1g, BA-2.1h, BA-2.2a, BA-10.2c; checklist G25, ``scenarios/breakthrough/setup21.toml``):
the start turn and phase, the units present and absent, placements against the data, the
ownership of the front, the pools, the points carried over and the verdict's column."""

from __future__ import annotations

import msgspec
import pytest

import rules.breakthrough as bt
from rules import hexgrid, record
from rules.breakthrough import sequence, victory
from rules.breakthrough.bots import selfplay
from rules.breakthrough.state import EndPhase, PhaseBegan, Reinforced, WeatherDrawn
from rules.dice import SeededDice
from scenarios.breakthrough.board import load_board
from scenarios.breakthrough.grid import from_hex, to_hex

ARRIVE_21 = ("us-333-84", "us-335-84", "us-cca-3a", "us-td-c")
"""13.2's units dated the 21st (CCA 3rd Armd, two regiments of the 84th, the third TD)."""
GONE = ("us-1128", "us-28-4", "us-28-5", "us-28-6", "us-422-106", "us-423-106")


def first_phases(seed: bytes) -> tuple[bt.Game, list[object]]:
    g = bt.Game.new(load_board("last-seven-days"), dice=SeededDice(seed))
    assert (g.state.turn, g.state.phase, g.state.side) == (6, "dawn", "american")
    g.push(EndPhase())
    return g, list(g.events[-1])


@pytest.mark.rule("BA-2.1g", "BA-2.1h")
def test_last_seven_days_begins_on_turn_6_with_the_weather_then_the_air_phase() -> None:
    b = load_board("last-seven-days")
    assert b.setup.number == 2 and b.setup.turns == (6, 12)
    # seed b"a": the 21st's weather draw is Fog, so both sides get air points (3.1a-b) and
    # the Air Phase opens; nothing else ran before it (no Supply Phase yet)
    g, events = first_phases(b"a")
    weather = [e for e in events if isinstance(e, WeatherDrawn)]
    assert [(w.turn, w.weather) for w in weather] == [(6, "fog")]
    assert [(e.turn, e.phase) for e in events if isinstance(e, PhaseBegan)] == [(6, "air")]
    assert not [e for e in events if isinstance(e, Reinforced)]
    assert g.state.scenario == 2
    # seed b"c": Overcast, no air points: straight through Supply and Reinforcement to the
    # American Unit Organization Phase, with the 21st's units entered at their 13.2 hexes
    g, events = first_phases(b"c")
    assert [(w.turn, w.weather) for w in events if isinstance(w, WeatherDrawn)] == [(6, "overcast")]
    came = [e for e in events if isinstance(e, Reinforced) and e.side == "american"]
    assert len(came) == 1 and sorted(came[0].entered) == list(ARRIVE_21)
    assert (g.state.phase, g.state.side) == ("organization", "american")


@pytest.mark.rule("BA-2.2a", "BA-2.1g")
def test_the_units_on_the_map_on_the_21st_and_those_to_come() -> None:
    b = load_board("last-seven-days")
    ids = {u.id for u in b.start}
    # 13.2 has 164 units; 38 are dated the 21st or later, 6 were lost before: 120 placed
    assert len(b.start) == 120 and len(b.arrivals) == 38
    assert sum(1 for u in b.start if u.side == "american") == 50
    assert sum(1 for u in b.start if u.side == "german") == 70
    assert not ids & set(GONE)
    assert not ids & {a.unit.id for a in b.arrivals}
    assert sorted(a.unit.id for a in b.arrivals if a.turn == 6) == list(ARRIVE_21)
    assert min(a.turn for a in b.arrivals) == 6
    # arrivals dated the 17th-20th are on the map, not arriving (9th SS, 82nd Abn ...)
    assert {"de-9-9ss", "us-505-82", "de-fb", "us-334-84"} <= ids


@pytest.mark.rule("BA-2.2a")
def test_placements_strengths_and_states_are_the_data_files() -> None:
    b = load_board("last-seven-days")
    by_id = {u.id: u for u in b.start}
    peiper = by_id["de-piper-1ss"]
    assert from_hex(peiper.hex) == (25, 16)  # La Gleize-Stoumont, Stoumont's printed hex
    assert (peiper.strength, peiper.efficiency, peiper.supply) == (35, 40, "unsupplied")
    assert from_hex(by_id["us-ccb-7a"].hex) == (19, 23)  # St. Vith
    assert {u.id for u in b.start if from_hex(u.hex) == (7, 13)} == {
        "us-1102",
        "us-h-9a",
        "us-r-9a",
    }  # Bastogne
    assert (by_id["us-26-1"].strength, by_id["us-26-1"].fort) == (45, 2)  # Dom Buetgenbach
    assert by_id["de-fb"].strength == 99 and by_id["de-fb"].efficiency == 100  # full: 13.2
    # two-player engineers are 5 (13.2c): the placed strength never exceeds the game's value
    two = {u.id: u for u in load_board("last-seven-days", two_player=True).start}
    assert (by_id["us-1111"].strength, two["us-1111"].strength) == (10, 5)


@pytest.mark.rule("BA-7.6e", "BA-1.4h", "BA-2.2a")
def test_the_set_up_keeps_the_corridor_and_hexrow_0_rules() -> None:
    b = load_board("last-seven-days")
    in_corridor = [u.id for u in b.start if u.side == "american" and u.hex in b.corridor]
    # only 13.2's starred units may be in hexrows 11-17 through the 22nd (7.6e)
    assert sorted(in_corridor) == ["us-112-28", "us-424-106"]
    assert all(b.profiles[uid].corridor for uid in in_corridor)
    assert not [u for u in b.start if u.side == "german" and u.hex in b.no_german]


@pytest.mark.rule("BA-1.4f", "BA-2.2a")
def test_the_front_of_the_21st_owns_the_towns_history_gives() -> None:
    b = load_board("last-seven-days")
    owner = {b.town_names[h]: s for h, s in b.owner.items() if h in b.town_names}
    german = sorted(n for n, s in owner.items() if s == "german")
    # Peiper holds Stoumont; St. Vith falls only that evening; Bastogne is held inside the ring
    assert german == ["Stoumont"]
    o = {from_hex(h): s for h, s in b.owner.items()}
    assert o[(13, 15)] == "german"  # Houffalize, behind the 116th Pz since the 19th
    assert o[(15, 10)] == "german"  # La Roche
    assert o[(5, 18)] == "german"  # Wiltz
    assert o[(7, 12)] == "american"  # inside the Bastogne ring
    assert o[(0, 14)] == "american"  # Martelange: hexrow 0 keeps its owner of the 16th
    # Peiper's pocket owns only its hex: its neighbours are American
    ring = [n for n in hexgrid.neighbours(to_hex((25, 16))) if n is not None]
    assert len(ring) == 6 and all(b.owner[n] == "american" for n in ring)


@pytest.mark.rule("BA-6.7a", "BA-2.2a")
def test_the_bridges_blown_before_the_21st_are_down_when_it_begins() -> None:
    b = load_board("last-seven-days")
    state = sequence.new_game(b)
    trois_ponts = hexgrid.hexside(to_hex((23, 17)), to_hex((24, 17)))  # the Salm, N23
    habiemont = hexgrid.hexside(to_hex((24, 13)), to_hex((24, 14)))  # the Lienne
    assert {trois_ponts, habiemont} <= set(state.blown) and len(state.blown) == 5
    assert set(state.blown) <= b.sites
    assert sequence.new_game(load_board("twelve-days")).blown == ()


@pytest.mark.rule("BA-13.4a", "BA-6.4h", "BA-2.2a")
def test_the_pools_hold_13_4s_points_due_before_the_21st_and_take_the_rest_on_time() -> None:
    b = load_board("last-seven-days")
    # V 115 + 30 (18th); VIII 40 + 45 (19th); VII 0 + 60 and XVII 0 + 90 (18th); II SS 0 + 15
    # (19th); III's 60 are due on the 21st and XII's 30 on the 22nd: not yet
    assert dict(b.pools) == {
        "V": 145,
        "VII": 60,
        "XVII": 90,
        "III": 0,
        "VIII": 85,
        "XII": 0,
        "LXVII": 65,
        "ISS": 130,
        "IISS": 15,
        "LXVI": 25,
        "XLVII": 75,
        "LVIII": 65,
        "LXXXV": 55,
    }
    assert b.pool_schedule == (("III", 60, 6), ("XII", 30, 7))
    g, _ = first_phases(b"c")
    assert dict(g.state.pools)["III"] == 60 and dict(g.state.pools)["XII"] == 0
    # level 4: +50% German, rounded down: II SS 15 -> 22 (13.4 x 1.5)
    g4 = bt.Game.new(load_board("last-seven-days", 4), dice=SeededDice(b"c"))
    assert dict(g4.state.pools)["IISS"] == 22


@pytest.mark.rule("BA-10.2c", "BA-10.1b", "BA-10.1e")
def test_the_verdict_counts_the_carried_points_on_column_2() -> None:
    b = load_board("last-seven-days")
    state = sequence.new_game(b)
    # carried: Stavelot on the 18th, Stoumont on the 19th and 20th (25 each); five American
    # regiments lost (422, 423 and the three 110th Inf units; the 44th Engrs do not count)
    assert state.town_points == 75
    assert sorted(e.unit for e in state.eliminated) == sorted(GONE)
    ended = sequence.game_end(b, state, [])
    assert ended.score is not None
    s = ended.score
    assert (s.towns_per_turn, s.towns_at_end, s.eliminations, s.strength) == (75, 25, 250, 0)
    assert s.total == 75 + 25 + 250 + s.roads and s.roads % 3 == 0
    # the same game pushed to 1750 points: column (2) says American Tactical; column (1),
    # First Seven Days', would have said German Tactical
    pushed = msgspec.structs.replace(state, town_points=state.town_points + 1750 - s.total)
    end = sequence.game_end(b, pushed, [])
    assert end.score is not None and end.score.total == 1750
    assert end.result is not None and end.result.level == "american tactical"
    assert victory.level(1750, "first-seven-days") == "german tactical"


@pytest.mark.slow
@pytest.mark.rule("BA-2.1g", "BA-10.2c", "BA-1.3a")
def test_a_last_seven_days_self_play_game_reaches_its_verdict_and_replays() -> None:
    rec = selfplay.play(load_board("last-seven-days"), b"7")
    assert rec.header.scenario == 2
    assert rec.footer is not None and rec.footer.verdict is not None
    assert rec.footer.turn == 12 and rec.footer.verdict.kind == "points"
    again = bt.Game.replay(record.decode(record.encode(rec)), load_board("last-seven-days"))
    assert again.ok, again.error
    assert again.game.state_hash() == rec.footer.hash
    assert again.game.outcome() == rec.footer.verdict
    turns = [e.turn for step in again.game.events for e in step if isinstance(e, PhaseBegan)]
    assert min(turns) == 6 and max(turns) == 12
