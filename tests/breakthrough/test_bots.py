"""The planned bots of *Breakthrough* (``rules.breakthrough.bots.planned``, issue 24): the route
fields they steer by, the German plan's axes and exits, the American's reinforcement of the
threatened sector, their determinism, and what seed-pinned games of them do."""

from __future__ import annotations

import msgspec
import pytest

import rules.breakthrough as bt
from rules import hexgrid, record
from rules.breakthrough.board import Board, Setup
from rules.breakthrough.bots import balance, heuristic, planned, selfplay
from rules.breakthrough.bots.heuristic import BotRng
from rules.breakthrough.bots.plan import AXES, Fields, axis_of
from rules.breakthrough.state import EndPhase, State, UnitExited
from rules.breakthrough.units import Unit
from rules.dice import SeededDice
from rules.rejection import Rejection
from scenarios.breakthrough.board import load_board


def _tiny_board() -> Board:
    """Three hexes in a row, 0101 - 0201 - 0301: clear, forest, town; a road 0101-0201 and a
    river 0201-0301. Only what the route field reads is filled."""
    terrain = {"0101": "clear", "0201": "forest", "0301": "town"}
    return Board(
        Setup(),
        terrain,  # type: ignore[arg-type]
        {},
        frozenset({hexgrid.hexside("0101", "0201")}),
        frozenset({hexgrid.hexside("0201", "0301")}),
        frozenset(),
        {},
        {},
        frozenset(),
        frozenset(),
        frozenset(),
        {},
        {},
        frozenset(),
        {},
        {},
        (),
        (),
        {},
        {},
        (),
    )


def test_the_route_field_prices_roads_terrain_and_rivers() -> None:
    """Worked by hand: from 0301, 0201 is entered over the river into forest, 3 + 5 = 8; 0101
    by the road, 1 more: 9. To 0101: 0201 by the road, 1; 0301 over the river into the town,
    2 + 5 more: 8."""
    f = Fields(_tiny_board())
    assert dict(f.to(["0301"])) == {"0301": 0, "0201": 8, "0101": 9}
    assert dict(f.to(["0101"])) == {"0101": 0, "0201": 1, "0301": 8}
    # two goals: each hex's nearer one
    assert dict(f.to(["0101", "0301"])) == {"0101": 0, "0201": 1, "0301": 0}
    assert f.cost(["0101"], "0301") == 8


def test_the_axes_of_the_german_plan() -> None:
    """Sixth Panzer Army north to the Meuse at Huy, Fifth through the centre by Bastogne to
    the west edge, Seventh on the southern flank; every axis' town is a victory town and
    every exit a map exit."""
    board = load_board()
    assert [a.name for a in AXES] == ["north", "centre", "south"]
    assert axis_of("ISS").name == axis_of("IISS").name == "north"
    assert axis_of("XLVII").name == axis_of("LVIII").name == "centre"
    assert axis_of("LXXXV").name == "south"
    assert axis_of("no such corps").name == "centre"
    for a in AXES:
        assert set(a.towns) <= set(board.towns) and set(a.exits) <= board.exits
    assert board.town_names[AXES[0].towns[-1]] == "Huy" and "0401" in AXES[0].exits
    assert board.town_names[AXES[1].towns[1]] == "Bastogne"
    # every German unit of the order of battle has a corps the plan names
    corps = {c for a in AXES for c in a.corps}
    assert {board.names[u.id][1] for u in board.start if u.side == "german"} <= corps


def _game_at_german_operation() -> bt.Game:
    g = bt.Game.new(load_board(), dice=SeededDice(b"bots"))
    while (g.state.turn, g.state.phase, g.state.side) != (2, "operation", "german"):
        assert not isinstance(g.push(EndPhase()), Rejection)
    return g


def _with_units(g: bt.Game, units: list[Unit]) -> bt.Game:
    state = msgspec.structs.replace(g.state, units=tuple(sorted(units, key=lambda u: u.id)))
    return bt.Game(g.board, state, dice=g.dice)


@pytest.mark.rule("BA-7.10a")
def test_the_german_exits_a_unit_that_stands_on_an_exit_hex() -> None:
    """The 150th Brigade put on Huy's exit (04,01) leaves the map in the German's phase."""
    g = _game_at_german_operation()
    units = [
        msgspec.structs.replace(u, hex="0401") if u.id == "de-150" else u for u in g.state.units
    ]
    g = _with_units(g, units)
    bot = planned.players(b"x")["german"]
    bot.play_phase(g)
    assert [(e.unit, e.hex, e.strength, e.turn) for e in g.state.exited] == [
        ("de-150", "0401", 40, 2)
    ]


@pytest.mark.rule("BA-6.6a")
def test_the_german_builds_up_the_panzer_divisions_stacked_on_16_december() -> None:
    """The German's first Unit Organization Phase: the regiments of a mobile division sharing
    a hex build into its divisional unit, strengths added (13.2): 1st SS at 32,08 (Piper 85,
    1st and 2nd Regiments 65 each: 215), 12th SS at 32,03 (60 + 60), 2nd Panzer at 24,22
    (45 + 45), 116th Panzer at 26,18 (45 + 60); not without ``build_up``."""
    g = bt.Game.new(load_board(), dice=SeededDice(b"bots"))
    assert (g.state.turn, g.state.phase, g.state.side) == (1, "organization", "german")
    planned.players(b"x")["german"].play_phase(g)
    built = {u.id: (u.hex, u.strength) for u in g.state.units if u.divisional}
    assert built == {
        "de-div-116pz": ("2618", 105),
        "de-div-12ss": ("3203", 120),
        "de-div-1ss": ("3208", 215),
        "de-div-2pz": ("2422", 90),
    }
    g = bt.Game.new(load_board(), dice=SeededDice(b"bots"))
    planned.German(BotRng(b"x"), build_up=False).play_phase(g)
    assert not any(u.divisional for u in g.state.units)


def _unit(uid: str, side: str, hex_id: str, strength: int) -> Unit:
    return Unit(uid, side, hex_id, strength, op=10)  # type: ignore[arg-type]


def test_the_american_sends_free_units_to_the_most_threatened_town() -> None:
    """Worked by hand. German 60 points two hexes from Bastogne (14,24); 20 points at 04,15,
    within 4 hexes of Marche (2), Rochefort (2) and the exits 01,16 (3) and 01,12 (4); no
    American near any: Bastogne's need is 60, the four others' 20. The 40-point unit at 10,20
    is 6 hexes from Bastogne, 8 from Marche, 9 from Rochefort: 60 - 20 x 6 = -60 beats
    20 - 20 x 8 = -140, Bastogne; it answers 40 of the 60, leaving 20. The 30-point unit at
    08,16 is 10 hexes from Bastogne, 4 from Marche, 6 from Rochefort, 7 and 9 from the exits:
    20 - 80 = -60 is the best, Marche."""
    g = _game_at_german_operation()
    units = [
        _unit("de-150", "german", "1624", 60),
        _unit("de-11", "german", "0415", 20),
        _unit("us-cca-9a", "american", "1020", 40),
        _unit("us-ccb-9a", "american", "0816", 30),
    ]
    g = _with_units(g, units)
    state: State = msgspec.structs.replace(g.state, side="american")
    assert (hexgrid.distance("1624", "1424"), hexgrid.distance("0415", "0514")) == (2, 2)
    assert (hexgrid.distance("1020", "1424"), hexgrid.distance("1020", "0514")) == (6, 8)
    assert (hexgrid.distance("0816", "1424"), hexgrid.distance("0816", "0514")) == (10, 4)
    us = planned.players(b"x")["american"]
    assert isinstance(us, planned.American)
    orders = us._assign(g.board, state)
    assert orders == {"us-cca-9a": "1424", "us-ccb-9a": "0514"}


def test_the_planned_bots_are_deterministic_and_named_in_the_record() -> None:
    """Same seed, same record byte for byte; another seed, another game; each side's bot is
    named with its version; the record replays alone."""
    board = load_board("first-seven-days")
    one = selfplay.play(board, b"11")
    assert record.encode(selfplay.play(board, b"11")) == record.encode(one)
    assert record.encode(selfplay.play(board, b"12")) != record.encode(one)
    players = one.header.players
    assert {(p.name, p.version) for p in (players["american"], players["german"])} == {
        (planned.NAME, planned.VERSION)
    }
    again = bt.Game.replay(record.decode(record.encode(one)), board)
    assert again.ok, again.error
    mixed = selfplay.play(board, b"11", {"american": heuristic.VERSION, "german": "2"})
    assert (mixed.header.players["american"].name, mixed.header.players["german"].name) == (
        heuristic.NAME,
        planned.NAME,
    )
    with pytest.raises(ValueError, match="bot versions"):
        selfplay.play(board, b"11", {"american": "9", "german": "2"})


def test_a_planned_game_ends_with_sixth_panzer_army_in_malmedy() -> None:
    """Seed 7 of Twelve Days, level 3, both bots planned: the German ends holding Malmedy, on
    Sixth Panzer Army's axis, 25 points at the end and 75 for three turns held (10.1a-b),
    worked from the replayed record's final state."""
    board = load_board()
    rec = selfplay.play(board, b"7")
    g = bt.Game.replay(record.decode(record.encode(rec)), board)
    assert g.ok, g.error
    s = g.game.state
    held = sorted(board.town_names[h] for h in board.towns if h in set(s.german_hexes))
    assert held == ["Malmedy"] and "2205" in AXES[0].towns
    assert s.score is not None
    assert (s.score.towns_at_end, s.score.towns_per_turn, s.score.total) == (25, 75, 260)


def _exits(game: bt.Game) -> list[tuple[int, str, str, int]]:
    return [
        (game.state_at(i).turn, e.unit, e.hex, e.strength)
        for i, step in enumerate(game.history)
        for e in step.events
        if isinstance(e, UnitExited)
    ]


@pytest.mark.slow  # two Twelve Days games (about 5 s): make test-slow
def test_the_planned_german_exits_panzer_units_against_the_first_american_bot() -> None:
    """Twelve Days, level 3, the planned German against the version-1 American, worked from
    the replayed records: Fifth Panzer Army's drive west of Rochefort, as Panzer Lehr's and
    the 2nd Panzer's towards Dinant. Seed 1: Lehr's 130th (32 points) and LVIII Corps' panzer
    unit (25) leave the map at 01,16 and 01,12 on the last turn: 10.1d pays 32 // 3 + 25 // 3
    = 10 + 8 = 18; five towns held, Bastogne among them. Seed 20: the 130th leaves on turn 11
    and the LXXXV Corps engineers (10) on turn 12: 10 x 2 + 3 x 1 = 23."""
    board = load_board()
    versions = {"american": heuristic.VERSION, "german": planned.VERSION}
    games = {}
    for seed in (b"1", b"20"):
        rec = selfplay.play(board, seed, versions)  # type: ignore[arg-type]
        replayed = bt.Game.replay(record.decode(record.encode(rec)), board)
        assert replayed.ok, replayed.error
        games[seed] = replayed.game
    g1 = games[b"1"]
    assert _exits(g1) == [(12, "de-130-lehr", "0116", 32), (12, "de-pz-lviii", "0112", 25)]
    s = g1.state
    assert s.score is not None and (s.score.exits, s.score.total) == (18, 905)
    held = sorted(board.town_names[h] for h in board.towns if h in set(s.german_hexes))
    assert held == ["Bastogne", "Elsenborn", "Hotton", "Marche", "Rochefort"]
    g20 = games[b"20"]
    assert _exits(g20) == [(11, "de-130-lehr", "0116", 32), (12, "de-eng-lxxxv", "0112", 10)]
    assert g20.state.score is not None and g20.state.score.exits == 23


def test_planned_bots_in_last_seven_days_the_german_exits_past_rochefort() -> None:
    """Seed 8 of Last Seven Days (the reconstructed 21 December set-up), level 3, both bots
    planned, worked from the replayed record: Panzer Lehr's reconnaissance battalion (40
    points) leaves the map at 01,16, west of Rochefort, on turn 11 and the 2nd Panzer's 3rd
    Regiment (52) on turn 12, as the 2nd Panzer drove for Dinant; the German ends holding
    Rochefort and St. Vith. The exits score nothing (10.1d): 01,16's road is not
    German-supplied at the end."""
    board = load_board("last-seven-days")
    rec = selfplay.play(board, b"8")
    replayed = bt.Game.replay(record.decode(record.encode(rec)), board)
    assert replayed.ok, replayed.error
    g = replayed.game
    assert _exits(g) == [(11, "de-rec-lehr", "0116", 40), (12, "de-3-2pz", "0116", 52)]
    s = g.state
    assert s.score is not None and (s.score.exits, s.score.total) == (0, 1346)
    held = sorted(board.town_names[h] for h in board.towns if h in set(s.german_hexes))
    assert held == ["Rochefort", "St. Vith"]


def test_the_census_of_a_game_adds_up_its_combats() -> None:
    """``balance.census`` counts every resolved combat once, by its attacker's side, and the
    losses it sums are the combat reports'."""
    board = load_board("first-seven-days")
    g = selfplay.game(board, b"11")
    us, de = balance.census(g)
    reports = [
        e.report
        for step in g.history
        for e in step.events
        if isinstance(e, bt.state.CombatResolved) and e.report.odds is not None
    ]
    german = [r for r in reports if r.attackers[0].startswith("de-")]
    assert (us.combats, de.combats) == (len(reports) - len(german), len(german))
    assert de.attacker_lost == sum(r.attacker_loss for r in german)
    assert us.defender_lost == sum(r.defender_loss for r in reports if r not in german)
    lines = balance.census_table([balance.Played(balance.row(11, board, g.state), us, de)])
    assert lines[2].startswith(f"| american | {us.combats} |")
    assert lines[3].startswith(f"| german | {de.combats} |")
