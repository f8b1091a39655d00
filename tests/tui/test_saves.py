"""The app's view of a game (``ardennes_tui.present.game_view``) and its saves
(``ardennes_tui.games.saves``): new games and their dice, the one record format written by ``s``
and read by ``ardennes --load`` (replayed and checked: a hand-edited record is refused naming
its first diverging command), and files a save never overwrites."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

import rules.ao
from ardennes_tui.cli import main
from ardennes_tui.games import saves
from ardennes_tui.present import game_view
from ardennes_tui.present.effects import effect_notes
from rules import Rejection
from rules import record as game_record
from rules.ao import DeclareAttack, EndPhase, Move, ResolveAttacks
from tests.kit.app import answer_all, gt1_german_combat
from tests.kit.engine import end_phase, scenario_gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def to_german_gt1_mech() -> rules.ao.Game:
    """Scenario 1 at the GT1 German Mechanized Movement Phase: the game starts in the
    German Combat Phase (set-ups accepted, Reinforcement and Supply Judgment passed, Initial
    Movement lost, AO-4.2c) with the AO-4.2h* attacks lifted, and ends that phase."""
    board, state = scenario_gt1_german_combat(1)
    g = rules.ao.Game(board, state)
    end_phase(g)
    return g


_PLAYED: dict[str, rules.ao.Game] = {}


def played(seed: str = "save-seed") -> rules.ao.Game:
    """A hot-seat game through the GT1 German Combat Phase (dice rolled, decisions answered)
    and into the Mechanized Movement Phase; a fresh copy each time (replayed)."""
    if seed not in _PLAYED:
        g = gt1_german_combat(seed)
        assert not isinstance(g.push(ResolveAttacks()), Rejection)
        answer_all(g)
        end_phase(g)
        assert g.state.dice_drawn > 0 and g.state.vp.german + g.state.vp.allied > 0
        _PLAYED[seed] = g
    g = _PLAYED[seed]
    return rules.ao.Game.from_commands(
        g.board,
        g.commands,
        start=g.start,
        dice=rules.SeededDice(seed.encode()),
        dice_spec=g.dice_spec,
        players=g.players,
    )


# -- game_view ------------------------------------------------------------------------------


def test_summary_of_a_new_game() -> None:
    g = saves.new_game(1)
    assert game_view.summary(g) == "GT1 16 Dec | Allied | Set-up | VP German 0, Allied 0"
    assert g.history == [] and not g.can_undo() and g.state is g.start
    assert g.players == saves.HOT_SEAT
    g.push(EndPhase())
    assert game_view.summary(g) == "GT1 16 Dec | German | Set-up | VP German 0, Allied 0"
    assert game_view.summary(to_german_gt1_mech()) == (
        "GT1 16 Dec | German | Mechanized Movement | VP German 0, Allied 0"
    )


def test_turn_dates() -> None:
    # AO-2.1: one Game-Turn a day, 16 December 1944 to 2 January 1945.
    assert [game_view.turn_date(t) for t in (1, 2, 7, 16, 17, 18)] == [
        "16 Dec",
        "17 Dec",
        "22 Dec",
        "31 Dec",
        "1 Jan",
        "2 Jan",
    ]


def test_units_by_hex_holds_the_units_on_the_map() -> None:
    g = saves.new_game(1)
    stacks = game_view.units_by_hex(g)
    on_map = [u for u in g.state.units if u.status in ("on_map", "dormant")]
    assert sum(len(v) for v in stacks.values()) == len(on_map) == 64
    assert [d.id for d in stacks["4009"]] == ["de-12ss-a"] == game_view.stack(g, "4009")
    assert game_view.own_units(g, "4009") == []  # the Allied player deploys first
    assert game_view.enemy_units(g, "4009") == ["de-12ss-a"]


@pytest.mark.rule("AO-5.1A")
def test_why_not_names_the_rule() -> None:
    g = to_german_gt1_mech()
    assert "0101" not in g.legal_moves("de-12ss-a")
    assert game_view.why_not(g, "de-12ss-a", "0101").message.startswith("AO-")
    path = game_view.path_to(g, "de-12ss-a", "3709")
    assert path[-1] == "3709" and len(path) == 3  # the straight line when unreachable
    assert game_view.path_to(g, "de-12ss-a", "3909") == ("3908", "3909")
    assert game_view.why_not(g, "us-109-i", "0101").case == "AO-5.1A"


def test_unit_notes_and_event_notes() -> None:
    g = to_german_gt1_mech()
    r = g.push(Move("de-12ss-a", ("3908", "3909")))
    assert not isinstance(r, Rejection)
    us = g.state.unit("de-12ss-a")
    assert game_view.unit_note(us, 10, "attacking") == "attacking, moved, 2/10 MP"
    ended = g.push(EndPhase())  # the German GT1 Mechanized Movement Phase
    assert not isinstance(ended, Rejection)
    assert all(n.endswith(".") for n in effect_notes(ended.events))


# -- new games and their dice -----------------------------------------------------------------


def test_random_seeds_differ_and_a_seed_fixes_the_dice() -> None:
    assert saves.random_seed() != saves.random_seed() and len(saves.random_seed()) == 16
    a, b = saves.new_game(1, "abc"), saves.new_game(1, "abc")
    assert a.dice_spec == rules.DiceSpec.seeded(b"abc", "abc") and a.dice_spec.label == "abc"
    assert (
        a.dice is not None and b.dice is not None and a.dice.uniform(7, 6) == b.dice.uniform(7, 6)
    )
    assert saves.new_game(1).dice_spec != saves.new_game(1).dice_spec
    with pytest.raises(ValueError, match="scenario 99 does not exist"):
        saves.new_game(99)


# -- saving and loading -----------------------------------------------------------------------


def test_a_saved_game_is_a_record_and_loads_to_the_same_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    g = played()
    path = tmp_path / "game.jsonl"
    digest = saves.save_game(g, path)
    data = path.read_bytes()
    assert data == game_record.encode(g.record())
    rec = game_record.decode(data)
    head = rec.header
    assert (head.format, head.scenario) == ("ardennes-record", 1)
    assert head.dice == rules.DiceSpec.seeded(b"save-seed", "save-seed")
    assert head.players == {"german": rules.Player(), "allied": rules.Player()}
    assert rec.commands == g.commands and rec.footer is not None
    again, loaded = saves.load_game(path)
    assert again.commands == g.commands and again.state_hash() == g.state_hash()
    assert again.dice_spec == g.dice_spec and again.players == saves.HOT_SEAT
    # the loaded file is never written: s exports a copy to a file of its own
    assert (loaded.save_path, loaded.commands) == (Path("ardennes-s1.jsonl"), len(g.commands))
    assert loaded.opening(again) == "Dice seed save-seed."
    # exported again: the same bytes; the same dice from then on
    assert saves.save_game(again, path) == digest and path.read_bytes() == data
    assert g.dice is not None and again.dice is not None
    assert g.dice.uniform(g.state.dice_drawn, 6) == again.dice.uniform(again.state.dice_drawn, 6)


def _edited(path: Path, data: bytes, line: int, change: dict[str, object]) -> Path:
    """``data`` with line ``line`` (0: the header) updated by ``change``, written to ``path``."""
    lines = data.splitlines()
    obj = msgspec.json.decode(lines[line])
    obj.update(change)
    lines[line] = msgspec.json.encode(obj)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _load_error(path: Path) -> str:
    with pytest.raises(ValueError) as exc:
        saves.load_game(path)
    message = str(exc.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def test_a_save_with_another_dice_seed_is_refused_at_the_first_roll(tmp_path: Path) -> None:
    g = played()
    data = game_record.encode(g.record())
    other = msgspec.to_builtins(rules.DiceSpec.seeded(b"other-seed", "other-seed"))
    path = _edited(tmp_path / "edited.jsonl", data, 0, {"dice": other})
    roll = next(i for i, c in enumerate(g.commands) if isinstance(c, ResolveAttacks))
    message = _load_error(path)
    # the orders before the first roll agree; the roll gives other results
    assert f": command {roll} (resolve_attacks) diverges: state hash " in message
    assert f"where the record has {g.history[roll].hash[:16]}" in message


def test_a_save_with_another_choice_is_refused_at_that_command(tmp_path: Path) -> None:
    g = played()
    data = game_record.encode(g.record())
    k, cmd = next(
        (i, c)
        for i, c in enumerate(g.commands)
        if isinstance(c, DeclareAttack) and len(c.attackers) > 1
    )
    assert isinstance(cmd, DeclareAttack)
    fewer = DeclareAttack(cmd.attackers[:-1], cmd.defenders)
    line = {"command": msgspec.to_builtins(fewer)}
    message = _load_error(_edited(tmp_path / "edited.jsonl", data, k + 1, line))
    assert f": command {k} (declare_attack) " in message
    assert "diverges: state hash" in message or "refused: AO-" in message


def test_bad_files_are_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format":"ardennes-log/1","scenario":1,"seed":"a"}\n{"type":"end_phase"}\n')
    assert "is not a record line" in _load_error(path)  # the old save format is gone
    path.write_bytes(b'{"kind":"header","zz":' + b"[" * 60_000)
    assert "the header is not a record line" in _load_error(path)
    path.write_bytes(b"[" * 200_000)
    assert "line 1 is over 65536 bytes" in _load_error(path)
    g = saves.new_game(1, "x")
    data = game_record.encode(g.record())
    assert "scenario 99 does not exist" in _load_error(_edited(path, data, 0, {"scenario": 99}))
    assert _load_error(tmp_path / "missing.jsonl").endswith(
        ": cannot read: No such file or directory"
    )


def test_the_cli_refuses_a_tampered_record_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = played()
    other = msgspec.to_builtins(rules.DiceSpec.seeded(b"x", "x"))
    path = _edited(tmp_path / "game.jsonl", game_record.encode(g.record()), 0, {"dice": other})
    for argv in (["--load", str(path)], ["--scenario", "3", "--load", str(path)]):
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith(f"ardennes: {path}: command ") and " diverges: " in err


def test_saving_never_overwrites_another_file(tmp_path: Path) -> None:
    g = played()
    other = played("another-seed")
    # not a record: never overwritten
    notes = tmp_path / "notes.jsonl"
    notes.write_text("my notes\n")
    with pytest.raises(saves.SaveRefused, match="not a game record, never overwritten"):
        saves.save_game(g, notes)
    assert notes.read_text() == "my notes\n"
    # a record of another game (other dice): never overwritten
    theirs = tmp_path / "theirs.jsonl"
    saves.save_game(other, theirs)
    before = theirs.read_bytes()
    with pytest.raises(saves.SaveRefused, match="a record of another game, never overwritten"):
        saves.save_game(g, theirs)
    assert theirs.read_bytes() == before
    # the same game's record, further on or further back: overwritten
    mine = tmp_path / "mine.jsonl"
    saves.save_game(g, mine)
    unit = g.options().movable[0]
    reach = max(g.legal_moves(unit).values(), key=lambda r: (r.cost, r.path))
    assert not isinstance(g.push(Move(unit, reach.path)), Rejection)
    saves.save_game(g, mine)  # further on
    assert game_record.decode(mine.read_bytes()).commands == g.commands
    assert g.pop() is not None
    saves.save_game(g, mine)  # further back (the move taken back)
    assert game_record.decode(mine.read_bytes()).commands == g.commands
    # the default name skips files it may not overwrite
    assert saves.default_save_path(g, tmp_path) == tmp_path / "ardennes-s1.jsonl"
    saves.save_game(other, tmp_path / "ardennes-s1.jsonl")
    assert saves.default_save_path(g, tmp_path) == tmp_path / "ardennes-s1-2.jsonl"
    (tmp_path / "ardennes-s1-2.jsonl").write_text("x\n")
    assert saves.default_save_path(g, tmp_path) == tmp_path / "ardennes-s1-3.jsonl"
    assert saves.default_save_path(other, tmp_path) == tmp_path / "ardennes-s1.jsonl"


def bot_record(g: rules.ao.Game) -> bytes:
    """``g`` recorded as a game of two bots (as self-play writes it)."""
    bots: rules.Players = {
        "german": rules.Player(kind="bot", name="heuristic", version="3"),
        "allied": rules.Player(kind="bot", name="heuristic", version="3"),
    }
    rec = g.record()
    return game_record.encode(
        msgspec.structs.replace(rec, header=msgspec.structs.replace(rec.header, players=bots))
    )


def test_a_record_of_other_players_loads_and_saves_to_a_file_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    g = played()
    log = tmp_path / "ardennes-s1.jsonl"
    log.write_bytes(bot_record(g))
    before = log.read_bytes()
    again, loaded = saves.load_game(log)
    assert again.state_hash() == g.state_hash() and again.players == saves.HOT_SEAT
    assert loaded.players["german"].label == "bot heuristic/3"
    assert loaded.save_path == Path("ardennes-s1-2.jsonl") and loaded.resumed is None
    assert loaded.opening(again).startswith(
        "Record of bot heuristic/3 (German) vs bot heuristic/3 (Allied), scenario 1: "
        f"{len(g.commands)} orders replayed and checked; s saves to {loaded.save_path}. "
        "Dice seed save-seed."
    )
    with pytest.raises(saves.SaveRefused, match="a record of another game"):
        saves.save_game(again, log)
    saves.save_game(again, loaded.save_path)
    assert log.read_bytes() == before
    assert saves.load_game(loaded.save_path)[0].state_hash() == g.state_hash()


def test_a_loaded_file_is_never_the_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--load ardennes-s1.jsonl`` of this very game's export: ``s`` exports to
    ``ardennes-s1-2.jsonl``, the loaded file is never written."""
    monkeypatch.chdir(tmp_path)
    g = played()
    log = Path("ardennes-s1.jsonl")
    saves.save_game(g, log)
    again, loaded = saves.load_game(log)
    assert loaded.save_path == Path("ardennes-s1-2.jsonl")
    assert saves.default_save_path(again) == log  # without avoid: the same game's record
    assert saves.default_save_path(again, avoid=tmp_path / log) == loaded.save_path
