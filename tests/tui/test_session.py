"""The hot-seat game session (``ardennes_tui.session``): log, undo, caches, replay; loading
self-play logs (``ardennes --load``) and saving them as session files."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import msgspec
import pytest

from ardennes_tui.app import load_session
from ardennes_tui.cli import main
from ardennes_tui.errors import UserError
from ardennes_tui.session import (
    GameSession,
    default_save_path,
    is_selfplay_file,
    parse_log,
    random_seed,
    turn_date,
)
from rules.commands import DeclareAttack, EndPhase, Move, ResolveAttacks
from rules.engine import replay
from rules.rejection import RejectedError, Rejection
from rules.selfplay import GameRecord, Line, encode_log, play
from rules.state import GameState, state_hash
from scenarios import load_board
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


# -- self-play logs (``ardennes --load game.jsonl``) ------------------------------------------

SELFPLAY_SEED = 2
_SELFPLAY: dict[int, GameRecord] = {}


def selfplay_record(turns: int) -> GameRecord:
    """Scenario 1, self-play seed 2, cut after Game-Turn ``turns`` (under a second a turn)."""
    if turns not in _SELFPLAY:
        _SELFPLAY[turns] = play(load_board(1), SELFPLAY_SEED, turns=turns)
    return _SELFPLAY[turns]


def write_log(path: Path, record: GameRecord, hashes: bool = True) -> Path:
    path.write_bytes(encode_log(record, hashes=hashes))
    return path


def log_lines(record: GameRecord) -> list[bytes]:
    return encode_log(record).splitlines()


def load_error(path: Path) -> str:
    """The one-line message ``load_session`` (``ardennes --load``) gives for ``path``."""
    with pytest.raises(UserError) as exc:
        load_session(1, path)
    assert exc.value.code == 1
    message = str(exc.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def first_shortened_move(record: GameRecord) -> tuple[int, Move]:
    """The first move of ``record`` with two hexes or more, and the same move one hex short
    (which the engine accepts, to another hex)."""
    for i, cmd in enumerate(record.commands):
        if isinstance(cmd, Move) and len([h for h in cmd.path if h[0].isdigit()]) >= 2:
            return i, Move(cmd.unit, cmd.path[:-1])
    raise AssertionError("no move of two hexes")


def test_a_self_play_log_loads_with_its_dice_and_checked_hashes(tmp_path: Path) -> None:
    record = selfplay_record(2)
    path = write_log(tmp_path / "game.jsonl", record)
    s = load_session(7, path, seed="ignored: the log has its own dice")
    assert s.selfplay is not None and (s.selfplay.scenario, s.selfplay.seed) == (1, "2")
    assert s.seed is None and s.dice_seed == bytes.fromhex(record.dice_seed)
    assert s.seed_label == record.dice_seed[:16] + "... (hex)"
    assert s.log == record.commands and s.state.dice > 0  # dice rolled in the game
    assert state_hash(s.state) == record.final_hash
    assert (s.state.turn, s.state.phase) == (record.final_turn, record.final_phase)
    # the per-command hashes are optional: the final hash is still checked
    bare = load_session(1, write_log(tmp_path / "bare.jsonl", record, hashes=False))
    assert state_hash(bare.state) == record.final_hash
    # a log cut at a line boundary (no end line) is the game so far, each hash checked
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(log_lines(record)[:41]) + b"\n")
    assert load_session(1, cut).log == record.commands[:40]


def test_a_game_loaded_from_a_self_play_log_saves_its_dice_and_reloads_exactly(
    tmp_path: Path,
) -> None:
    """Self-play log -> session -> save (``dice_seed`` header) -> load: the same game, and
    the same dice from then on (the rest of a longer self-play game replays on both)."""
    short, longer = selfplay_record(2), selfplay_record(3)
    assert longer.commands[: len(short.commands)] == short.commands
    s = load_session(1, write_log(tmp_path / "game.jsonl", short))
    saved = tmp_path / "saved.jsonl"
    s.save(saved)
    first = saved.read_text().splitlines()[0]
    assert first == (f'{{"format":"ardennes-log/1","scenario":1,"dice_seed":"{short.dice_seed}"}}')
    header, commands = parse_log(saved.read_text())
    assert header == {"format": "ardennes-log/1", "scenario": 1, "dice_seed": short.dice_seed}
    assert commands == list(short.commands)
    again = load_session(5, saved, seed="ignored")
    assert again.selfplay is None and again.seed is None
    assert again.dice_seed == s.dice_seed and again.log == s.log
    assert state_hash(again.state) == state_hash(s.state) == short.final_hash
    # saved again, the same bytes
    assert again.to_jsonl() == s.to_jsonl()
    for i, cmd in enumerate(longer.commands[len(short.commands) :], len(short.commands)):
        for game in (s, again):
            assert not isinstance(game.apply(cmd), Rejection), i
            assert state_hash(game.state) == longer.hashes[i]
    assert s.state.dice > again.start.dice  # the GT3 batches rolled the same dice on both


def test_the_session_header_takes_a_text_seed_or_hex_dice_seed_bytes() -> None:
    s = GameSession.new(1, dice_seed=b"\x00\xff")
    assert s.seed is None and s.dice.d6(3) == GameSession.new(1, dice_seed=b"\x00\xff").dice.d6(3)
    assert s.header() == '{"format":"ardennes-log/1","scenario":1,"dice_seed":"00ff"}'
    assert GameSession.from_jsonl(4, s.to_jsonl()).dice_seed == b"\x00\xff"
    t = GameSession.new(1, seed="abc")
    assert t.dice_seed == b"abc" and t.seed_label == "abc"
    assert t.dice.d6(3) == GameSession.new(1, dice_seed=b"abc").dice.d6(3)
    with pytest.raises(ValueError, match="not both"):
        GameSession.new(1, seed="abc", dice_seed=b"abc")
    for bad, why in [
        ('{"format":"ardennes-log/1","scenario":1,"dice_seed":"xyz"}', "not hex"),
        ('{"format":"ardennes-log/1","scenario":1,"dice_seed":"abc"}', "not hex"),
        ('{"format":"ardennes-log/1","scenario":1,"dice_seed":""}', "not hex"),
        ('{"format":"ardennes-log/1","scenario":1,"dice_seed":" 00"}', "not hex"),
        ('{"format":"ardennes-log/1","scenario":1,"seed":"a","dice_seed":"00"}', "or a dice"),
        ('{"format":"ardennes-log/1","scenario":1}', "or a dice_seed"),
        ('{"format":"ardennes-log/1","scenario":true,"seed":"a"}', "bad header"),
        ('{"format":"ardennes-log/1","scenario":1,"seed":"a","x":1}', "bad header"),
        ('{"format":"ardennes-log/2","scenario":1,"seed":"a"}', "not a saved game"),
    ]:
        with pytest.raises(ValueError, match=why):
            parse_log(bad + "\n")
    with pytest.raises(ValueError, match="scenario 99, which does not exist"):
        GameSession.from_jsonl(1, '{"format":"ardennes-log/1","scenario":99,"seed":"a"}\n')


def test_hostile_self_play_logs_are_refused_in_one_line(tmp_path: Path) -> None:
    record = selfplay_record(1)
    lines = log_lines(record)
    path = tmp_path / "bad.jsonl"

    def refused(data: bytes) -> str:
        path.write_bytes(data)
        return load_error(path)

    # truncated in the middle of a line
    text = b"\n".join(lines)
    assert "self-play log: not a self-play log" in refused(text[: len(text) // 2])
    # the dice seed is not hex
    head = lines[0].replace(record.dice_seed.encode(), b"zz" + record.dice_seed[2:].encode())
    assert "self-play log: the dice seed is not hex: 'zz" in refused(b"\n".join([head, *lines[1:]]))
    odd = lines[0].replace(record.dice_seed.encode(), record.dice_seed[1:].encode())
    assert "the dice seed is not hex" in refused(b"\n".join([odd, *lines[1:]]))
    # a tampered command the engine accepts: its state hash no longer matches
    k, short = first_shortened_move(record)
    tampered = msgspec.json.encode(Line(n=k, command=short, hash=record.hashes[k]))
    msg = refused(b"\n".join([*lines[: k + 1], tampered, *lines[k + 2 :]]))
    assert f"self-play log: command {k} (move) diverges: state hash " in msg
    assert f"where the log has {record.hashes[k][:16]}" in msg
    # ... or refuses
    moved = record.commands[k]
    assert isinstance(moved, Move)
    bad = msgspec.json.encode(Line(n=k, command=Move(moved.unit, ("0101",)), hash=None))
    msg = refused(b"\n".join([*lines[: k + 1], bad, *lines[k + 2 :]]))
    assert f"self-play log: command {k} (move) refused: AO-" in msg
    # without per-command hashes, the final hash catches the tampered command
    bare = encode_log(record, hashes=False).splitlines()
    tampered = msgspec.json.encode(Line(n=k, command=short))
    msg = refused(b"\n".join([*bare[: k + 1], tampered, *bare[k + 2 :]]))
    assert f"final state hash {state_hash(s_after(record, k, short))[:16]} differs" in msg
    # a line left out, lines out of order, a wrong count in the end line
    assert f"command {k} (" in refused(b"\n".join([*lines[: k + 1], *lines[k + 2 :]]))
    end = msgspec.json.decode(lines[-1])
    end["commands"] += 1
    assert "the end line counts" in refused(b"\n".join([*lines[:-1], msgspec.json.encode(end)]))
    # a header that is not one: unknown field, other version, other format, no scenario
    for field, value, why in [
        ("extra", 1, "not a self-play log"),
        ("version", 2, "version 2 is not supported"),
        ("format", "ardennes-log/1", "not a self-play header"),
        ("scenario", 99, "scenario 99, which does not exist"),
        ("scenario", "1", "not a self-play log"),
    ]:
        h = msgspec.json.decode(lines[0])
        h[field] = value
        assert why in refused(b"\n".join([msgspec.json.encode(h), *lines[1:]])), field
    # a header or end line in the middle
    assert "in the middle" in refused(b"\n".join([lines[0], lines[0], *lines[1:]]))


def s_after(record: GameRecord, k: int, cmd: Move) -> GameState:
    """The final state of ``record`` with command ``k`` replaced by ``cmd``."""
    s = GameSession.new(record.scenario, dice_seed=bytes.fromhex(record.dice_seed))
    for i, c in enumerate(record.commands):
        assert not isinstance(s.apply(cmd if i == k else c), Rejection)
    return s.state


def test_the_cli_refuses_a_tampered_self_play_log_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = selfplay_record(1)
    lines = log_lines(record)
    k, short = first_shortened_move(record)
    path = tmp_path / "game.jsonl"
    tampered = msgspec.json.encode(Line(n=k, command=short, hash=record.hashes[k]))
    path.write_bytes(b"\n".join([*lines[: k + 1], tampered, *lines[k + 2 :]]))
    for argv in (["--load", str(path)], ["--scenario", "3", "--load", str(path)]):
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith(f"ardennes: {path}: self-play log: command {k} (move) diverges")
    path.write_bytes(b"\n".join(lines)[:-40])  # truncated
    assert main(["--load", str(path)]) == 1
    _out, err = capsys.readouterr()
    assert err.startswith(f"ardennes: {path}: self-play log: not a self-play log")
    assert err.count("\n") == 1


def test_saving_never_overwrites_a_self_play_log(tmp_path: Path) -> None:
    record = selfplay_record(1)
    log = write_log(tmp_path / "ardennes-s1.jsonl", record)
    before = log.read_bytes()
    s = load_session(1, log)
    with pytest.raises(FileExistsError) as exc:
        s.save(log)
    assert exc.value.strerror == "a self-play log, never overwritten"
    assert log.read_bytes() == before
    # the default name skips self-play logs (and only them: a saved game is the game's own)
    assert default_save_path(1, tmp_path) == tmp_path / "ardennes-s1-2.jsonl"
    write_log(tmp_path / "ardennes-s1-2.jsonl", record)
    assert default_save_path(1, tmp_path) == tmp_path / "ardennes-s1-3.jsonl"
    assert default_save_path(2, tmp_path) == tmp_path / "ardennes-s2.jsonl"
    s.save(tmp_path / "ardennes-s2.jsonl")
    assert default_save_path(2, tmp_path) == tmp_path / "ardennes-s2.jsonl"
    assert not is_selfplay_file(tmp_path / "ardennes-s2.jsonl") and is_selfplay_file(log)
    assert not is_selfplay_file(tmp_path / "missing.jsonl")


@pytest.mark.parametrize(
    ("first", "then", "why"),
    [
        (b'{"kind":"header","zz":', b"", "nested too deeply"),
        (b'{"format":"ardennes-log/1","scenario":1,"seed":"a"}\n{"zz":', b"", "nested too deeply"),
        (b'{"zz":', b"", "nested too deeply"),
        (b"", b"", "Expected `object`, got `array`"),
    ],
)
def test_deeply_nested_json_is_refused_in_one_line(
    tmp_path: Path, first: bytes, then: bytes, why: str
) -> None:
    """JSON nested 200,000 deep (msgspec raises RecursionError while skipping an unknown
    field) is a hostile file like any other: one line, no traceback."""
    path = tmp_path / "deep.jsonl"
    path.write_bytes(first + b"[" * 200_000 + then)
    assert why in load_error(path)
