"""The ruleset seam with a game that is not the AO: Tiny (``tests/kit/tiny.py``) played through
the generic :class:`rules.game.Game`, written as a record, read back and replayed; its hidden
morale through the public view and the reveals; its dice through ``uniform``.

The game played (worked out by hand from TINY-1..5): Red picks morale 2, Blue 3; Red moves
``0101`` -> ``0201``; Blue moves ``0401`` -> ``0301`` (next to Red) and strikes: die 2 + 3 = 5 <
4 + 2 = 6, a miss, both morales revealed; turn 2, Red strikes: die 5 + 2 = 7 >= 4 + 3 = 7, Blue
is eliminated and Red wins. Ten commands, two dice."""

from __future__ import annotations

import ast
import pathlib

import pytest

import rules.ao
from rules import record
from rules.dice import DieRoll, ScriptedDice
from rules.game import UNDO_AFTER_END_PHASE, UNDO_AFTER_ROLL
from rules.record import Player
from rules.rejection import Rejection
from rules.ruleset import DiceWait, Reveal
from tests.kit import tiny
from tests.kit.tiny import TINY, EndPhase, Game, Move, Pick, Roll, Strike

BOARD = tiny.Board()
DICE = "25"
"""The game's two dice, as a ``listed`` dice spec: the miss, then the hit."""

GAME: tuple[tiny.Command, ...] = (
    Pick(2),
    Pick(3),
    Move("red-1", "0201"),
    EndPhase(),
    Move("blue-1", "0301"),
    Strike("red-1"),
    Roll(),
    EndPhase(),
    Strike("blue-1"),
    Roll(),
)


def new_game() -> Game:
    spec = rules.DiceSpec(kind="listed", detail={"values": DICE})
    return Game.new(BOARD, dice=ScriptedDice([2, 5]), dice_spec=spec)


def played(n: int = len(GAME)) -> Game:
    g = new_game()
    for cmd in GAME[:n]:
        r = g.push(cmd)
        assert not isinstance(r, Rejection), (cmd, r)
    return g


def test_a_whole_game_through_the_generic_game() -> None:
    g = new_game()
    o = g.options()
    assert (o.mode, o.acting, o.may_end_phase) == ("setup", "red", False)
    g.push(Pick(2))
    g.push(Pick(3))
    o = g.options()
    assert (o.mode, o.acting, o.moves, o.targets) == ("play", "red", ("0102", "0201"), ())
    g.push(Move("red-1", "0201"))
    g.push(EndPhase())
    g.push(Move("blue-1", "0301"))
    assert g.options().targets == ("red-1",)
    g.push(Strike("red-1"))
    o = g.options()
    assert (o.mode, o.acting, o.may_end_phase) == ("roll", "blue", False)
    r = g.push(Roll())
    assert not isinstance(r, Rejection)
    assert r.events == (
        DieRoll(index=0, value=2, purpose="strike:0201"),
        tiny.Revealed("red", 2),
        tiny.Revealed("blue", 3),
    )
    assert g.outcome() is None
    g.push(EndPhase())
    assert (g.state.turn, g.state.side) == (2, "red")
    g.push(Strike("blue-1"))
    r = g.push(Roll())
    assert not isinstance(r, Rejection)
    assert r.events[0] == DieRoll(index=1, value=5, purpose="strike:0301")
    assert r.events[1:] == (
        tiny.Eliminated("blue-1"),
        tiny.GameEnded(tiny.Verdict("red", "elimination", "blue-1 eliminated (TINY-4, TINY-5)")),
    )
    assert g.outcome() == tiny.Verdict("red", "elimination", "blue-1 eliminated (TINY-4, TINY-5)")
    assert g.options().mode == "game_over" and g.options().acting is None
    assert g.commands == GAME and g.state.dice_drawn == 2
    assert g.state_hash() == tiny.state_hash(g.state)


def test_the_rules_refuse_with_their_case_and_change_nothing() -> None:
    g = played(2)
    before = g.state_hash()
    assert g.push(Strike("blue-1")) == Rejection("TINY-4", "red-1 cannot strike blue-1")
    assert g.push(Move("red-1", "0401")) == Rejection("TINY-3", "red-1 cannot move to 0401")
    assert g.push(Move("blue-1", "0301")) == Rejection("TINY-3", "blue-1 is not the red unit")
    assert g.push(Pick(1)) == Rejection("TINY-2", "morale is picked before play")
    assert g.push(Roll()) == Rejection("TINY-4", "no strike waits for a die")
    assert g.state_hash() == before and len(g.history) == 2
    assert new_game().push(Pick(4)) == Rejection("TINY-2", "morale is 1 to 3, not 4")
    g = played(6)  # the strike waits for its die
    assert g.push(EndPhase()) == Rejection("TINY-4", "the strike waits for its die (roll)")
    undiced = Game.new(BOARD)
    for cmd in GAME[:6]:
        undiced.push(cmd)
    assert undiced.push(Roll()) == Rejection(
        "dice-needed", "this command rolls a die: no dice given"
    )


def test_undo_never_crosses_a_die_or_the_end_of_a_turn() -> None:
    g = played(3)
    assert g.pop() == Move("red-1", "0201") and len(g.history) == 2
    g = played(4)
    assert g.undo_refusal() == UNDO_AFTER_END_PHASE and g.pop() is None
    g = played(7)
    assert g.undo_refusal() == UNDO_AFTER_ROLL and g.pop() is None


def test_the_public_view_hides_the_other_sides_morale_until_a_strike_reveals_it() -> None:
    g = played(2)
    assert g.state.morale == (2, 3)
    assert TINY.public_view(BOARD, g.state, "red").morale == (2, 0)
    assert TINY.public_view(BOARD, g.state, "blue").morale == (0, 3)
    assert TINY.revealed(BOARD, g.state_at(1), g.state) == ()
    g = played(7)
    assert TINY.public_view(BOARD, g.state, "red").morale == (2, 3)
    assert TINY.revealed(BOARD, g.state_at(6), g.state) == (
        Reveal(side="red", key="morale:red", value=2),
        Reveal(side="blue", key="morale:blue", value=3),
    )
    # a pick travels sealed until then; other commands as they are
    assert TINY.seal(Pick(2)) == Pick(0) and TINY.seal(Strike("red-1")) == Strike("red-1")
    # the second strike reveals nothing new
    g = played()
    assert TINY.revealed(BOARD, g.state_at(9), g.state) == ()


def test_the_dice_a_state_waits_on() -> None:
    g = played(5)
    assert TINY.dice_wait(BOARD, g.state) == DiceWait() and not TINY.batch_open(g.state)
    g.push(Strike("red-1"))
    assert TINY.dice_wait(BOARD, g.state) == DiceWait(
        kind="batch", resolver=Roll(), purpose="strike"
    )
    assert TINY.batch_open(g.state)
    g.push(Roll())
    assert TINY.dice_wait(BOARD, g.state) == DiceWait() and not TINY.batch_open(g.state)
    roll = g.history[-1].events[0]
    assert isinstance(roll, DieRoll) and TINY.describe_roll(roll) == "the strike on 0201"


def test_the_record_names_its_ruleset_and_replays_hash_for_hash() -> None:
    g = played()
    data = record.encode(g.record())
    head = data.split(b"\n", 1)[0]
    assert head == (
        b'{"kind":"header","format":"ardennes-record","version":1,"rules":"tiny/1",'
        b'"scenario":1,"dice":{"kind":"listed","detail":{"values":"25"}},"ruleset":"tiny"}'
    )
    rec = record.decode(data)
    assert rec.ruleset == "tiny" and rec.commands == GAME
    assert rec.footer is not None and rec.footer.verdict == g.outcome()
    assert (rec.footer.turn, rec.footer.phase) == (2, "game_over")
    again = Game.replay(rec, BOARD)
    assert again.ok and again.game.state_hash() == g.state_hash()
    assert [s.hash for s in again.game.history] == [s.hash for s in g.history]


def test_the_header_names_the_players_by_the_rulesets_sides() -> None:
    """A record's players are keyed by its ruleset's sides (Red and Blue here): the AO's
    ``german`` in a Tiny record is refused, Tiny's own sides are read back."""
    g = played()
    g.players = {"red": Player(kind="bot", name="r", version="1"), "blue": Player(name="Bo")}
    rec = record.decode(record.encode(g.record()))
    assert record.player(rec.header.players, "red").label == "bot r/1"
    assert record.player(rec.header.players, "blue").label == "Bo"
    head, rest = record.encode(g.record()).split(b"\n", 1)
    wrong = head.replace(b'"red":', b'"german":')
    with pytest.raises(record.RecordError, match="players of 'german', not a side of 'tiny'"):
        record.decode(wrong + b"\n" + rest)


def test_a_changed_hidden_value_diverges_at_its_command() -> None:
    data = record.encode(played().record()).replace(b'"morale":2', b'"morale":1', 1)
    r = Game.replay(record.decode(data), BOARD)
    assert not r.ok and r.at == 0
    assert r.error is not None and r.error.startswith("command 0 (pick) diverges: state hash ")


def test_a_record_of_one_ruleset_is_not_replayed_by_another() -> None:
    rec = record.decode(record.encode(played().record()))
    with pytest.raises(record.RecordError, match="the record is of ruleset 'tiny', not 'ao'"):
        rules.ao.Game.replay(rec, None)  # type: ignore[arg-type]


def test_tiny_imports_the_generic_core_only() -> None:
    """A ruleset imports the core, never another ruleset (the import-linter contract of
    ``pyproject.toml`` covers ``rules``; Tiny lives in ``tests/``)."""
    tree = ast.parse(pathlib.Path(tiny.__file__).read_text())
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    engine = {n for n in names if n == "rules" or n.startswith("rules.")}
    assert engine == {"rules", "rules.dice", "rules.hexgrid", "rules.rejection", "rules.ruleset"}
