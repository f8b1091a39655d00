"""A whole self-play game, from set-up to verdict, replays from its record (BA-1.3a, BA-10.2b,
BA-2.1a), and the unit display (BA-13.3a-b, BA-13.1a, BA-1.5a, BA-1.5c)."""

from __future__ import annotations

import msgspec
import pytest

import rules.breakthrough as bt
from rules import record
from rules.breakthrough.board import Setup
from rules.breakthrough.bots import selfplay
from rules.breakthrough.describe import describe, symbol
from rules.breakthrough.state import EndPhase
from rules.breakthrough.units import Unit
from rules.dice import DieRoll, SeededDice
from rules.rejection import Rejection
from scenarios.breakthrough.board import load_board


@pytest.fixture(scope="module")
def first_seven() -> record.Record:
    return selfplay.play(load_board("first-seven-days", 2), b"7")


@pytest.fixture(scope="module")
def replayed(first_seven: record.Record) -> bt.Game:
    """The game replayed from its record's bytes (on a level-3 board: the record's level 2
    is applied)."""
    again = bt.Game.replay(
        record.decode(record.encode(first_seven)), load_board("first-seven-days")
    )
    assert again.ok, again.error
    return again.game


def test_a_self_play_game_reaches_a_verdict_and_replays(
    first_seven: record.Record, replayed: bt.Game
) -> None:
    rec = first_seven
    assert rec.footer is not None and rec.footer.verdict is not None
    assert rec.footer.turn == 7 and rec.footer.verdict.kind == "points"
    assert replayed.state_hash() == rec.footer.hash
    assert replayed.outcome() == rec.footer.verdict
    assert replayed.board.setup.level == 2
    # a command changed by hand is named
    lines = list(rec.lines)
    k = next(i for i, x in enumerate(lines) if isinstance(x.command, EndPhase) and i > 5)
    lines[k - 1], lines[k] = lines[k], lines[k - 1]
    forged = record.Record(rec.header, tuple(lines), rec.footer)
    bad = bt.Game.replay(forged, load_board("first-seven-days"))
    assert not bad.ok and bad.at in (k - 1, k)


@pytest.mark.rule("BA-2.1a")
def test_a_saved_game_fixes_its_options(first_seven: record.Record, replayed: bt.Game) -> None:
    head = first_seven.header
    assert head.ruleset == "breakthrough" and head.scenario == 1
    assert head.level == bt.BREAKTHROUGH.level(load_board("first-seven-days", 2))
    assert (head.level.level, head.level.historical, head.level.two_player) == (2, True, False)
    # a hand-edited level does not replay
    forged = record.Record(
        msgspec.structs.replace(head, level=Setup("first-seven-days", 3)),
        first_seven.lines,
        first_seven.footer,
    )
    assert not bt.Game.replay(forged, load_board("first-seven-days")).ok


@pytest.mark.rule("BA-1.3a")
def test_a_game_saved_mid_turn_restarts_exactly() -> None:
    g = bt.Game.new(load_board(), dice=SeededDice(b"s"), dice_spec=record.DiceSpec.seeded(b"s"))
    for _ in range(13):  # into 18 December's Unit Organization Phase
        g.push(EndPhase())
    saved = record.decode(record.encode(g.record()))
    back = bt.Game.replay(saved, load_board())
    assert back.ok and back.game.state == g.state
    g.push(EndPhase())
    back.game.push(EndPhase())
    assert back.game.state_hash() == g.state_hash()


@pytest.mark.rule("BA-10.2b")
def test_after_the_verdict_units_can_still_be_examined(replayed: bt.Game) -> None:
    g = replayed.copy()
    assert g.options().mode == "game_over" and g.state.units
    u = g.state.units[0]
    assert describe(u, g.board.names[u.id][0]).startswith(("GER ", "US "))
    refused = g.push(EndPhase())
    assert isinstance(refused, Rejection) and refused.case == "BA-10.2a"


@pytest.mark.rule("BA-13.3a", "BA-13.3b", "BA-1.5a")
def test_the_unit_display_of_13_3() -> None:
    div = Unit(
        "de-116pz", "german", "1307", 105, artillery=30, op=20, fort=2, stack=2, divisional=True
    )
    line = describe(div, "116 PZ DIV")
    assert line == (
        "GER 116 PZ DIV ADVANCE-N COMBAT: 105 ARTILLERY: 30 OPERATION: 20 FORT:2 EFF: 100% "
        "STACK: 2 NORMAL SUPPLIED"
    )
    assert describe(div, "116 PZ DIV", ("LVIII", 40)).endswith(
        "NORMAL SUPPLIED LVIII CORPS ARTILLERY: 40"
    )
    us = Unit(
        "us-422-106",
        "american",
        "2412",
        40,
        efficiency=73,
        mode="travel",
        supply="isolated",
        advance=True,
    )
    assert describe(us, "422/106/XVII INF") == (
        "US 422/106/XVII INF ADVANCE-Y COMBAT: 40 ARTILLERY: 0 OPERATION: 0 FORT:0 EFF: 73% "
        "STACK: 1 TRAVEL ISOLATED"
    )


@pytest.mark.rule("BA-13.1a", "BA-1.5c")
def test_symbols_by_type_and_size() -> None:
    p = load_board().profiles
    assert symbol(p["us-422-106"]) == "infantry |||"
    assert symbol(p["de-150"]) == "armor X"  # the 150th Panzer Brigade
    assert symbol(p["us-td-a"]) == "armor ||"  # a tank-destroyer battalion
    assert symbol(p["de-eng-iss"]) == "engineer ||"
    assert symbol(p["de-13-5fj"]) == "airborne |||"
    assert symbol(p["us-102"]) == "recon X"
    assert symbol(p["de-60-116pz"], divisional=True) == "panzergrenadier XX"
    battalions = sorted(k for k, v in p.items() if v.battalion)
    assert battalions == [
        "de-11",
        "de-519",
        "de-560",
        "de-pz-lviii",
        "de-pz-lxvi",
        "de-pz-xlvii",
        "us-td-a",
        "us-td-b",
        "us-td-c",
        "us-td-d",
    ]


def test_every_die_falls_in_an_end_phase_the_state_announced(replayed: bt.Game) -> None:
    """The email contract of ``dice_wait``: a command rolls only when it is the resolver
    (``EndPhase``) of a batch the acting side declared, or the American's own roll at the
    day's dawn; a batch's resolution lands where no die waits (so the packet that resolves it
    can end); every die is a percentage, ``dice_drawn`` counts them."""
    g = replayed
    rs = g.ruleset
    rolled = 0
    for i, step in enumerate(g.history):
        before = g.state_at(i)
        dice = [e for e in step.events if isinstance(e, DieRoll)]
        assert rs.dice_drawn(g.state_at(i + 1)) - rs.dice_drawn(before) == len(dice)
        if dice:
            rolled += 1
            wait = rs.dice_wait(g.board, before)
            assert isinstance(step.command, EndPhase) and wait.kind in ("batch", "own")
            assert type(wait.resolver) is EndPhase
            assert (wait.kind == "own") == (before.phase == "dawn")
            if wait.kind == "batch":
                assert rs.dice_wait(g.board, g.state_at(i + 1)).kind == "none"
            assert [d.index for d in dice] == list(
                range(rs.dice_drawn(before), rs.dice_drawn(before) + len(dice))
            )
            assert all(d.faces == 100 and 1 <= d.value <= 100 for d in dice)
    assert rolled > 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", [b"1", b"2", b"3"])
def test_twelve_days_of_self_play_replay_byte_for_byte(seed: bytes) -> None:
    rec = selfplay.play(load_board(), seed)
    assert rec.footer is not None and rec.footer.turn == 12 and rec.footer.verdict is not None
    again = bt.Game.replay(record.decode(record.encode(rec)), load_board())
    assert again.ok, again.error
    assert record.encode(selfplay.play(load_board(), seed)) == record.encode(rec)


def test_the_balance_row_of_a_game(replayed: bt.Game) -> None:
    from rules.breakthrough.bots import balance

    s = replayed.state
    r = balance.row(7, replayed.board, s)
    assert s.score is not None and (r.score, r.level) == (s.score.total, s.score.level)
    on_map = [sum(u.strength for u in s.units if u.side == side) for side in ("american", "german")]
    out = sum(e.strength for e in s.exited)
    assert r.american_lost == s.committed[0] - on_map[0]
    assert r.german_lost == s.committed[1] - on_map[1] - out
    assert r.american_men == 111 * r.american_lost
    lines = balance.table([r])
    assert lines[2].startswith(f"| 7 | {r.score} | {r.level} |")
    assert lines[-3].startswith("| history | | | | | 270 / 29,970 | 320 / 32,640 |")


def test_the_game_replays_from_its_listed_percentages(
    first_seven: record.Record, replayed: bt.Game
) -> None:
    """How an email game is exported: every die listed (``DiceSpec.listed``, comma-separated
    decimals for percentages); the record replays to the same final state."""
    values = [e.value for step in replayed.history for e in step.events if isinstance(e, DieRoll)]
    assert max(values) > 9  # percentages: the comma-separated spelling
    spec = record.DiceSpec.listed(values)
    assert spec.detail["list"].split(",")[:3] == [str(v) for v in values[:3]]
    head = msgspec.structs.replace(first_seven.header, dice=spec)
    listed = record.decode(
        record.encode(record.Record(head, first_seven.lines, first_seven.footer))
    )
    again = bt.Game.replay(listed, load_board("first-seven-days"))
    assert again.ok, again.error
    assert again.game.state_hash() == replayed.state_hash()
