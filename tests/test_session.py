"""The hot-seat game session (``ardennes_tui.session``): log, undo, caches, replay."""

from __future__ import annotations

import importlib.resources

import pytest

from ardennes_tui.session import GameSession, parse_log, random_seed, turn_date
from rules.commands import DeclareAttack, EndPhase, Move, ResolveAttacks
from rules.engine import replay
from rules.rejection import RejectedError, Rejection
from rules.state import state_hash
from tests.enginekit import scenario_gt1_german_combat

REAL_MAP = importlib.resources.files("scenarios").joinpath("ardennes", "map.json")
pytestmark = pytest.mark.skipif(
    not REAL_MAP.is_file(), reason="scenarios/ardennes/map.json not built"
)


def to_german_gt1_mech() -> GameSession:
    """Scenario 1 at the GT1 German Mechanized Movement Phase: the session starts in the
    German Combat Phase (set-ups accepted, Reinforcement and Supply Judgment passed, Initial
    Movement lost, AO-4.2c) with the AO-4.2h* attacks lifted, and ends that phase."""
    board, state = scenario_gt1_german_combat(1)
    s = GameSession(board, state)
    assert not isinstance(s.apply(EndPhase()), Rejection)
    return s


def test_new_game_and_summary() -> None:
    s = GameSession.new(1)
    assert s.summary() == "GT1 16 Dec · Allied · Set-up · VP 0-0"
    assert s.log == () and not s.can_undo and s.state is s.start
    assert s.movable_units() == []
    s.apply(EndPhase())
    assert s.summary() == "GT1 16 Dec · German · Set-up · VP 0-0"
    s = to_german_gt1_mech()
    assert s.summary() == "GT1 16 Dec · German · Mechanized Movement · VP 0-0"


def test_turn_dates() -> None:
    # AO-2.1: one Game-Turn a day, 16 December 1944 to 2 January 1945.
    assert [turn_date(t) for t in (1, 2, 7, 16, 17, 18)] == [
        "16 Dec",
        "17 Dec",
        "22 Dec",
        "31 Dec",
        "1 Jan",
        "2 Jan",
    ]


@pytest.mark.rule("AO-4.2c")
@pytest.mark.rule("AO-4.2f")
def test_movable_units_in_the_gt1_mechanized_phase() -> None:
    s = to_german_gt1_mech()
    movable = s.movable_units()
    assert len(movable) == 15 and movable[0] == "de-12ss-a"
    assert all(s.unit_def(u).side == "german" and s.unit_def(u).mechanized for u in movable)
    assert s.may_move("de-12ss-a") is None
    bad = s.may_move("us-109-i")
    assert bad is not None and bad.message.startswith("AO-5.1A: us-109-i is allied")


def test_units_by_hex_holds_the_units_on_the_map() -> None:
    s = GameSession.new(1)
    stacks = s.units_by_hex()
    on_map = [u for u in s.state.units if u.status in ("on_map", "dormant")]
    assert sum(len(v) for v in stacks.values()) == len(on_map) == 64
    assert [d.id for d in stacks["4009"]] == ["de-12ss-a"] == s.stack("4009")
    assert s.own_units("4009") == []  # the Allied player deploys first
    assert all(u.hex is None for u in s.state.units if u.status == "not_arrived")


def test_move_undo_and_the_log() -> None:
    s = to_german_gt1_mech()
    moves = s.legal_moves("de-12ss-a")
    assert s.legal_moves("de-12ss-a") is moves  # cached per state
    reach = moves["3909"]
    assert (reach.cost, reach.path, reach.road_mode) == (2, ("3908", "3909"), False)
    r = s.apply(Move("de-12ss-a", reach.path))
    assert not isinstance(r, Rejection)
    us = s.state.unit("de-12ss-a")
    assert (us.hex, us.moved, us.mp_spent) == ("3909", True, 2)
    assert len(s.log) == 2 and s.can_undo
    assert s.legal_moves("de-12ss-a") == {}
    # a refused command changes nothing and is not logged
    bad = s.apply(Move("de-12ss-a", ("3809",)))
    assert isinstance(bad, Rejection) and bad.message.startswith("AO-5.1E: ")
    assert len(s.log) == 2
    assert s.undo() == Move("de-12ss-a", ("3908", "3909"))
    assert s.state.unit("de-12ss-a").hex == "4009"
    assert s.legal_moves("de-12ss-a") is moves  # the same state again
    assert not s.can_undo and s.undo() is None  # an EndPhase is never undone
    assert len(s.log) == 1


def test_why_not_names_the_rule() -> None:
    s = to_german_gt1_mech()
    assert "0101" not in s.legal_moves("de-12ss-a")
    assert s.why_not("de-12ss-a", "0101").message.startswith("AO-")
    path = s.path_to("de-12ss-a", "3709")
    assert path[-1] == "3709" and len(path) == 3  # the straight line when unreachable
    assert s.path_to("de-12ss-a", "3909") == ("3908", "3909")
    assert s.why_not("us-109-i", "0101").case == "AO-5.1A"


def test_replaying_the_log_reproduces_the_state() -> None:
    s = to_german_gt1_mech()
    for unit in ("de-12ss-a", "de-1ss-a", "de-130-a"):
        reach = max(s.legal_moves(unit).values(), key=lambda r: (r.cost, r.path))
        assert not isinstance(s.apply(Move(unit, reach.path)), Rejection)
    s.apply(Move("de-1ss-ai", ("enter_road_mode",)))
    for _ in range(7):
        s.apply(EndPhase())
    assert s.summary() == "GT2 17 Dec · German · Initial Movement · VP 0-0"
    text = s.to_jsonl()
    assert text.count("\n") == len(s.log) + 1 == 13
    header, commands = parse_log(text)
    assert header == {"format": "ardennes-log/1", "scenario": 1, "seed": s.seed}
    assert commands == list(s.log)
    assert state_hash(replay(s.board, s.start, s.log, s.dice)) == state_hash(s.state)
    again = GameSession(s.board, s.start, commands, seed=s.seed)
    assert state_hash(again.state) == state_hash(s.state)


def test_save_and_a_bad_log(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    s = to_german_gt1_mech()
    s.save(tmp_path / "game.jsonl")
    assert (tmp_path / "game.jsonl").read_text() == s.header() + '\n{"type":"end_phase"}\n'
    with pytest.raises(RejectedError, match=r"command 0: AO-4\.1b"):
        GameSession.from_jsonl(1, '{"type":"move","unit":"de-12ss-a","path":["3909"]}\n')


def gt1_german_combat(seed: str) -> GameSession:
    """A new game of scenario 1 with dice ``seed`` at the German GT1 Combat Phase (obligations
    in force), every American unit in contact declared against by all its German neighbours."""
    s = GameSession.new(1, seed=seed)
    while not (s.state.side == "german" and s.state.phase == "combat"):
        assert not isinstance(s.apply(EndPhase()), Rejection)
    us_left, _ = s.gt1_unmet()
    m = s.board.game_map
    for uid in us_left:
        h = s.state.unit(uid).hex
        assert h is not None
        used = {x for a in s.state.combat.declared for x in a.attackers}
        att = sorted({x for n in m.neighbours(h) for x in s.own_units(n) if x not in used})
        assert not isinstance(s.apply(DeclareAttack(tuple(att), (h,))), Rejection)
    return s


def answer_all(s: GameSession) -> None:
    """Answer each pending decision with its first choice (no advance)."""
    from rules.commands import Advance, ChooseLosses, ChooseRetreat, WaiveImmunity

    while (d := s.pending()) is not None:
        if d.kind == "waive_immunity":
            cmd: object = WaiveImmunity(())
        elif d.kind == "losses":
            cmd = ChooseLosses(d.choices[0])
        elif d.kind == "retreat":
            assert d.unit is not None
            cmd = ChooseRetreat(d.unit, d.choices[0])
        else:
            assert d.hex is not None
            cmd = Advance(d.hex)
        assert not isinstance(s.apply(cmd), Rejection)  # type: ignore[arg-type]


def test_random_seeds_differ_and_a_seed_fixes_the_dice() -> None:
    assert random_seed() != random_seed() and len(random_seed()) == 16
    assert GameSession.new(1).seed != GameSession.new(1).seed
    assert GameSession.new(1, seed="abc").dice.d6(7) == GameSession.new(1, seed="abc").dice.d6(7)


def test_undo_never_crosses_a_die_roll() -> None:
    s = gt1_german_combat("undo-seed")
    assert s.can_undo  # a declaration rolls nothing: it may be taken back
    last = s.undo()
    assert isinstance(last, DeclareAttack)
    assert not isinstance(s.apply(last), Rejection)
    dice = s.state.dice
    assert not isinstance(s.apply(ResolveAttacks()), Rejection)
    assert s.state.dice > dice
    answer_all(s)
    # choices made after the roll may be taken back, down to the roll, never past it
    while s.can_undo:
        before = s.state.dice
        s.undo()
        assert s.state.dice == before  # what undo takes back rolled nothing
    assert s.state.dice > dice
    assert s.undo() is None
    assert s.undo_refusal() == "The dice have rolled: that cannot be undone"
    assert s.state.dice > dice


def test_save_and_load_with_the_dice_seed_replays_to_the_same_hash(tmp_path: object) -> None:
    from pathlib import Path

    from ardennes_tui.app import load_session

    assert isinstance(tmp_path, Path)
    s = gt1_german_combat("save-seed")
    assert not isinstance(s.apply(ResolveAttacks()), Rejection)
    answer_all(s)
    assert not isinstance(s.apply(EndPhase()), Rejection)
    assert s.state.dice > 0 and s.state.vp.german + s.state.vp.allied > 0
    path = tmp_path / "game.jsonl"
    s.save(path)
    first = path.read_text().splitlines()[0]
    assert first == '{"format":"ardennes-log/1","scenario":1,"seed":"save-seed"}'
    again = load_session(1, path, seed="ignored: the file has its own")
    assert again.seed == "save-seed" and again.log == s.log
    assert state_hash(again.state) == state_hash(s.state)
    # another seed gives other dice: the same orders no longer replay to the same game
    # (here the other dice ask for a decision the log does not hold: refused at that command)
    with pytest.raises(RejectedError, match="decision-pending"):
        GameSession.from_jsonl(1, "\n".join(path.read_text().splitlines()[1:]), seed="x")
