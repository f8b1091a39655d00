"""Levels of play against the computer (``rules.ao.levels``): the levers of each level worked out by
hand from the scenario table (AO-18.a) and the errata's schedules (AO-17.d), the VP handicap
counted at the tabulation (AO-16.E), and the level kept by the record and applied on replay."""

from __future__ import annotations

import json

import msgspec
import pytest

import rules.ao
import scenarios
from rules import record
from rules.ao import levels
from rules.ao.levels import Level, level_for
from rules.ao.state import Board, UnitState, VictoryPoints
from rules.ao.victory import tabulate, verdict_for
from tests.kit.engine import unit
from tests.kit.realmap import needs_real_map
from tests.kit.victory_map import ALLIES, GERMANS, state, victory_map


def _levers(n: int, number: int, computer: rules.ao.Side) -> tuple[str, str, int]:
    lv = level_for(scenarios.scenario_specs()[n], number, computer)
    assert (lv.number, lv.computer) == (number, computer)
    return lv.german_rate, lv.allied_rate, lv.german_vp


@pytest.mark.rule("AO-17.d")
def test_level_three_is_the_scenario_as_written() -> None:
    for n in scenarios.scenario_numbers():
        spec = scenarios.scenario_specs()[n]
        for computer in ("german", "allied"):
            assert _levers(n, 3, computer) == (spec.german_rate, spec.allied_rate, 0)


@pytest.mark.rule("AO-17.d")
def test_scenario_1_historical_rates() -> None:
    # hist./hist.: the German has both steps left, the Allies none (5 VP a step instead)
    assert _levers(1, 4, "allied") == ("accelerated", "historical", 0)  # German human helped
    assert _levers(1, 2, "german") == ("accelerated", "historical", 0)
    assert _levers(1, 1, "german") == ("accelerated", "slowed", 0)
    assert _levers(1, 4, "german") == ("historical", "historical", -5)  # Allied human helped
    assert _levers(1, 2, "allied") == ("historical", "historical", -5)
    assert _levers(1, 1, "allied") == ("historical", "historical", -10)


@pytest.mark.rule("AO-17.d")
def test_scenario_7_slowed_and_accelerated() -> None:
    # slow/accel.: the Allies have both steps left, the German none
    assert _levers(7, 1, "german") == ("accelerated", "slowed", 10)
    assert _levers(7, 2, "german") == ("accelerated", "slowed", 5)
    assert _levers(7, 4, "allied") == ("accelerated", "slowed", 5)
    assert _levers(7, 4, "german") == ("historical", "slowed", 0)  # German acceleration first
    assert _levers(7, 1, "allied") == ("historical", "historical", 0)


@pytest.mark.rule("AO-17.d")
def test_scenario_4_one_step_each_way() -> None:
    # free set-up, Allied slow, German hist.: one step left for each side
    assert _levers(4, 1, "german") == ("accelerated", "slowed", 5)
    assert _levers(4, 1, "allied") == ("historical", "historical", -5)
    assert _levers(4, 2, "allied") == ("historical", "historical", 0)


def test_level_numbers_and_sides_are_checked() -> None:
    spec = scenarios.scenario_specs()[1]
    with pytest.raises(ValueError, match="level 5 does not exist"):
        level_for(spec, 5, "german")
    with pytest.raises(ValueError, match="german or allied"):
        level_for(spec, 2, "both")  # type: ignore[arg-type]
    assert levels.favoured(3, "german") is None
    assert levels.favoured(4, "german") == "allied"
    assert levels.favoured(1, "german") == "german"


def test_describe() -> None:
    spec = scenarios.scenario_specs()[1]
    assert levels.describe(level_for(spec, 1, "german"), spec) == (
        "level 1, computer German: German accelerated reinforcements; Allied slowed reinforcements"
    )
    assert levels.describe(level_for(spec, 2, "allied"), spec) == (
        "level 2, computer Allied: German VP -5 at every tabulation"
    )
    assert levels.describe(level_for(spec, 3, "allied"), spec) == (
        "level 3, computer Allied: the rules as written"
    )


# -- the VP handicap at the tabulation (AO-16.E) -------------------------------------------------


def _board(german_vp: int) -> Board:
    m = victory_map({"0201": 4, "0401": 6, "0103": 3, "0204": 2, "0404": 1})
    lv = Level(
        number=1 if german_vp < 0 else 4,
        computer="german",
        allied_rate="historical",
        german_rate="historical",
        german_vp=german_vp,
    )
    defs = [unit(u, "german") for u in GERMANS] + [unit(u, "allied") for u in ALLIES]
    return Board(m, defs, level=lv)


@pytest.mark.rule("AO-16.E")
def test_the_handicap_is_added_to_the_german_total() -> None:
    # g1 in 0302 holds the NW exit 0401 (6 VP); two Allied units and one German unit dead
    dead = {u: UnitState(id=u, status="eliminated") for u in ("ad1", "ad2", "gd")}
    s = state({"g1": "0302", **dead})
    assert tabulate(_board(0), s) == VictoryPoints(german=8, allied=1)
    assert tabulate(_board(5), s) == VictoryPoints(german=13, allied=1)
    assert tabulate(_board(-10), s) == VictoryPoints(german=-2, allied=1)


@pytest.mark.rule("AO-16.2")
@pytest.mark.rule("AO-16.3")
def test_the_handicap_decides_like_any_vp() -> None:
    dead = {u: UnitState(id=u, status="eliminated") for u in ("ad1", "ad2")}
    s = state({"g1": "0302", **dead})  # 2 kills + 6 exit VP = 8
    # 8 + 27 = 35 at the end of GT5: an immediate German victory (AO-16.2)
    v = verdict_for(5, tabulate(_board(27), s))
    assert v is not None and v.winner == "german" and v.kind == "immediate"
    # a negative total at GT18 is under 35: Allied cumulative victory (AO-16.3)
    v = verdict_for(18, tabulate(_board(-10), s))
    assert v is not None and (v.winner, v.kind, v.german_vp) == ("allied", "cumulative", -2)


# -- boards at a level ----------------------------------------------------------------------


@needs_real_map
@pytest.mark.rule("AO-17.d")
def test_a_level_board_plays_the_levels_schedules() -> None:
    spec = scenarios.scenario_specs()[1]
    plain = scenarios.load_board(1)
    hard = scenarios.load_board(1, level=level_for(spec, 1, "german"))
    assert hard.level == level_for(spec, 1, "german")
    assert plain.level is None
    # German accelerated and Allied slowed, as in scenario 7
    s7 = scenarios.load_board(7)
    assert hard.arrivals == s7.arrivals
    assert sorted(hard.defs) == sorted(s7.defs)
    # six accelerated German units join, six Allied units of the historical rate never come
    assert "de-15-a" in hard.defs and "de-15-a" not in plain.defs
    assert "us-333-i" in plain.defs and "us-333-i" not in hard.defs
    # level 3 changes nothing but the label
    easy = plain.at_level(level_for(spec, 3, "german"))
    assert easy.arrivals == plain.arrivals and easy.defs == plain.defs
    assert easy.at_level(None).level is None
    assert plain.at_level(None) is plain


def test_a_synthetic_board_has_no_levels() -> None:
    b = Board(victory_map({}), [unit("g1")])
    with pytest.raises(ValueError, match="no levels"):
        b.at_level(
            Level(number=2, computer="german", allied_rate="historical", german_rate="historical")
        )


# -- the record ------------------------------------------------------------------------------


def _bot_game(board: rules.ao.Board, commands: int) -> rules.ao.Game:
    from rules.ao.bots import BotRng, bots_for

    g = rules.ao.Game.new(
        board, dice=rules.SeededDice(b"levels"), dice_spec=rules.DiceSpec.seeded(b"levels")
    )
    bots = bots_for(BotRng(b"levels-bots"))
    while len(g.history) < commands:
        side = rules.ao.acting_side(g.state)
        assert side is not None
        r = g.push(bots[side].choose(g))
        assert not isinstance(r, rules.Rejection), r
    return g


@pytest.fixture(scope="module")
def level_one() -> rules.ao.Game:
    spec = scenarios.scenario_specs()[1]
    return _bot_game(scenarios.load_board(1, level=level_for(spec, 1, "german")), 60)


@needs_real_map
def test_level_three_plays_hash_for_hash_as_written() -> None:
    spec = scenarios.scenario_specs()[1]
    plain = _bot_game(scenarios.load_board(1), 40)
    three = _bot_game(scenarios.load_board(1, level=level_for(spec, 3, "allied")), 40)
    assert [s.hash for s in three.history] == [s.hash for s in plain.history]
    assert three.record().header.level == level_for(spec, 3, "allied")


@needs_real_map
def test_the_record_keeps_the_level_and_the_replay_applies_it(level_one: rules.ao.Game) -> None:
    data = record.encode(level_one.record())
    head = json.loads(data.splitlines()[0])
    assert head["level"] == {
        "number": 1,
        "computer": "german",
        "allied_rate": "slowed",
        "german_rate": "accelerated",
    }
    rec = record.decode(data)
    assert record.encode(rec) == data
    # replayed on the scenario as written: the engine sets the board up at the record's level
    r = rules.ao.Game.replay(rec, scenarios.load_board(1))
    assert r.ok, r.error
    assert r.game.board.level == level_one.board.level
    assert r.game.state_hash() == level_one.state_hash()


@needs_real_map
def test_a_record_without_its_level_diverges_at_once(level_one: rules.ao.Game) -> None:
    lines = record.encode(level_one.record()).splitlines()
    head = json.loads(lines[0])
    del head["level"]
    data = b"\n".join([json.dumps(head).encode(), *lines[1:]])
    r = rules.ao.Game.replay(record.decode(data), scenarios.load_board(1))
    assert not r.ok and r.at == 0  # other units in the game: the first hash differs


@needs_real_map
def test_a_board_at_another_level_is_refused(level_one: rules.ao.Game) -> None:
    spec = scenarios.scenario_specs()[1]
    rec = record.decode(record.encode(_bot_game(scenarios.load_board(1), 3).record()))
    with pytest.raises(rules.RecordError, match="set up for level 2"):
        rules.ao.Game.replay(rec, scenarios.load_board(1, level=level_for(spec, 2, "german")))


def test_a_level_on_a_synthetic_board_is_refused() -> None:
    b = Board(victory_map({}), [unit("g1")])
    head = record.Header(
        format=record.FORMAT,
        version=record.VERSION,
        rules=record.RULES_VERSION,
        scenario=1,
        dice=rules.DiceSpec(kind="none"),
        level=Level(
            number=2, computer="german", allied_rate="historical", german_rate="historical"
        ),
    )
    with pytest.raises(rules.RecordError, match="no levels of play"):
        rules.ao.Game.replay(record.Record(head, (), None), b)


def _header(**changes: object) -> bytes:
    head: dict[str, object] = {
        "kind": "header",
        "format": "ardennes-record",
        "version": 1,
        "rules": record.RULES_VERSION,
        "scenario": 1,
        "dice": {"kind": "none"},
        "players": {"german": {"kind": "bot", "name": "heuristic", "version": "4", "level": 2}},
        "level": {
            "number": 2,
            "computer": "german",
            "allied_rate": "historical",
            "german_rate": "accelerated",
        },
    }
    head.update(changes)
    return json.dumps({k: v for k, v in head.items() if v is not None}).encode() + b"\n"


def test_decode_checks_the_level() -> None:
    rec = record.decode(_header())
    assert rec.header.level is not None and rec.header.level.number == 2
    assert rec.header.players["german"].label == "bot heuristic/4 level 2"
    bad = {"number": 5, "computer": "german", "allied_rate": "historical", "german_rate": "x"}
    with pytest.raises(rules.RecordError, match="not a record line"):
        record.decode(_header(level=bad))
    bad["german_rate"] = "historical"
    with pytest.raises(rules.RecordError, match="level 5 is not 1-4"):
        record.decode(_header(level=bad))
    with pytest.raises(rules.RecordError, match="a player has a level of play, the header none"):
        record.decode(_header(level=None))
    other = {"german": {"kind": "bot", "name": "heuristic", "level": 1}}
    with pytest.raises(rules.RecordError, match="played level 1, the header says 2"):
        record.decode(_header(players=other))
    with pytest.raises(rules.RecordError, match="not a record line"):
        record.decode(_header(level={"number": 2, "computer": "german", "extra": 1}))


def test_defaults_are_not_written() -> None:
    head: record.Header[None] = record.Header(
        format=record.FORMAT,
        version=record.VERSION,
        rules=record.RULES_VERSION,
        scenario=1,
        dice=rules.DiceSpec(kind="none"),
    )
    text = msgspec.json.encode(head)
    assert b"level" not in text and b"players" not in text and b"meta" not in text
