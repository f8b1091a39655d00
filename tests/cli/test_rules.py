"""``ardennes rules moves`` and ``ardennes rules apply``: JSON in, JSON out, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from ardennes_tui import cli
from rules.ao import position
from rules.ao.commands import EndPhase, Move
from rules.ao.engine import Applied, apply
from rules.ao.movement import legal_moves
from rules.ao.state import GameState, state_hash
from scenarios import load_board
from tests.kit.engine import scenario_gt1_german_combat


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def mech_phase() -> GameState:
    """Scenario 1, GT1 German Mechanized Movement Phase (the first phase anyone moves in)."""
    board, state = scenario_gt1_german_combat(1)  # past the AO-4.2h* attacks
    while not (state.side == "german" and state.phase == "mechanized_movement"):
        result = apply(board, state, EndPhase())
        assert isinstance(result, Applied)
        state = result.state
    return state


def write_position(tmp_path: Path, state: GameState) -> Path:
    path = tmp_path / "pos.json"
    path.write_text(position.dumps(state))
    return path


def test_moves_prints_the_engine_answer(
    tmp_path: Path, mech_phase: GameState, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = write_position(tmp_path, mech_phase)
    code, out, err = run(["rules", "moves", "--position", str(pos), "--unit", "de-1ss-a"], capsys)
    assert code == 0 and err == ""
    got = json.loads(out)
    board = load_board(1)
    want = legal_moves(board, mech_phase, "de-1ss-a")
    assert got["unit"] == "de-1ss-a" and got["state_hash"] == state_hash(mech_phase)
    assert len(want) > 10  # a panzer regiment has somewhere to go
    assert got["moves"] == json.loads(msgspec.json.encode(want))
    assert list(got["moves"]) == sorted(got["moves"])


def test_apply_moves_a_unit_and_prints_the_final_position(
    tmp_path: Path, mech_phase: GameState, capsys: pytest.CaptureFixture[str]
) -> None:
    board = load_board(1)
    reach = legal_moves(board, mech_phase, "de-1ss-a")
    target = max(sorted(reach), key=lambda h: reach[h].cost)
    cmds = tmp_path / "c.jsonl"
    cmds.write_text(json.dumps({"type": "move", "unit": "de-1ss-a", "path": reach[target].path}))
    pos = write_position(tmp_path, mech_phase)
    code, out, err = run(
        ["rules", "apply", "--position", str(pos), "--commands", str(cmds)], capsys
    )
    assert code == 0 and err == ""
    first, final = (json.loads(line) for line in out.splitlines())
    assert first["index"] == 0 and first["command"]["unit"] == "de-1ss-a"
    assert any(e["type"] == "unit_moved" for e in first["events"])
    state = position.loads(json.dumps(final))
    assert state.unit("de-1ss-a").hex == target
    assert first["state_hash"] == state_hash(state)
    live = apply(board, mech_phase, Move(unit="de-1ss-a", path=reach[target].path))
    assert isinstance(live, Applied) and state_hash(live.state) == first["state_hash"]


def test_apply_stops_at_a_rejection_with_exit_1(
    tmp_path: Path, mech_phase: GameState, capsys: pytest.CaptureFixture[str]
) -> None:
    cmds = tmp_path / "c.jsonl"
    # An Allied unit may not move in the German player-turn (AO-5.1A); the end_phase after it
    # must not be applied.
    allied = next(u.id for u in mech_phase.units if u.id.startswith("us-") and u.hex)
    cmds.write_text(
        json.dumps({"type": "move", "unit": allied, "path": ["0101"]})
        + "\n"
        + json.dumps({"type": "end_phase"})
        + "\n"
    )
    pos = write_position(tmp_path, mech_phase)
    code, out, err = run(
        ["rules", "apply", "--position", str(pos), "--commands", str(cmds)], capsys
    )
    assert code == 1
    assert len(err.splitlines()) == 1 and "command 0 rejected: AO-5.1A" in err
    rejected, final = (json.loads(line) for line in out.splitlines())
    assert rejected["rejected"]["case"] == "AO-5.1A"
    assert position.loads(json.dumps(final)) == mech_phase


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json\n", "line 1: JSON is malformed"),
        ('{"type": "teleport"}\n', "line 1: Invalid value 'teleport'"),
        ('{"type": "move", "unit": "x"}\n', "line 1: Object missing required field `path`"),
    ],
)
def test_unreadable_commands_exit_2(
    tmp_path: Path,
    mech_phase: GameState,
    content: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cmds = tmp_path / "c.jsonl"
    cmds.write_text(content)
    pos = write_position(tmp_path, mech_phase)
    code, out, err = run(
        ["rules", "apply", "--position", str(pos), "--commands", str(cmds)], capsys
    )
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_unreadable_positions_exit_2(
    tmp_path: Path, mech_phase: GameState, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    cases = {
        "{": "malformed position",
        json.dumps({"format": "chess"}): "malformed position",
        position.dumps(mech_phase).replace('"de-1ss-a"', '"de-nobody"'): "de-nobody",
    }
    for text, message in cases.items():
        bad.write_text(text)
        code, out, err = run(["rules", "moves", "--position", str(bad), "--unit", "x"], capsys)
        assert code == 2 and out == "", text
        assert len(err.splitlines()) == 1 and message in err, err
    code, _, err = run(
        ["rules", "moves", "--position", str(tmp_path / "no"), "--unit", "x"], capsys
    )
    assert code == 2 and "cannot read position" in err
    bad.write_bytes(b'{"format": "\xe2\x28\xa1"}')  # invalid UTF-8 inside a string
    code, out, err = run(["rules", "moves", "--position", str(bad), "--unit", "x"], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "malformed position" in err


def test_invalid_utf8_in_a_command_exits_2(
    tmp_path: Path, mech_phase: GameState, capsys: pytest.CaptureFixture[str]
) -> None:
    cmds = tmp_path / "c.jsonl"
    cmds.write_bytes(b'{"type": "move", "unit": "\xe2\x28\xa1", "path": []}\n')
    pos = write_position(tmp_path, mech_phase)
    code, out, err = run(
        ["rules", "apply", "--position", str(pos), "--commands", str(cmds)], capsys
    )
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "not UTF-8 text" in err


def test_oversized_commands_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ardennes_tui.cli import rules as rules_command

    monkeypatch.setattr(rules_command, "MAX_COMMANDS_BYTES", 10)
    cmds = tmp_path / "c.jsonl"
    cmds.write_text('{"type": "end_phase"}\n')
    code, out, err = run(["rules", "apply", "--scenario", "1", "--commands", str(cmds)], capsys)
    assert code == 2 and out == "" and "over the 10 byte limit" in err


def test_unknown_unit_and_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["rules", "moves", "--scenario", "1", "--unit", "nobody"], capsys)
    assert code == 2 and err == "ardennes: no unit 'nobody' in scenario 1\n"
    code, _, err = run(["rules", "moves", "--scenario", "12", "--unit", "x"], capsys)
    assert code == 2 and "no scenario 12" in err


def test_apply_rolls_the_dice_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Combat needs dice: --dice scripts them, --dice-seed draws them, none is refused."""
    from rules import Rejection
    from rules.ao import combat
    from rules.ao.commands import DeclareAttack, ResolveAttacks, encode_command
    from rules.ao.state import Attack
    from rules.dice import SeededDice
    from tests.kit.engine import scenario_gt1_german_combat

    board, state = scenario_gt1_german_combat(1)
    state = position.fill(board, state)  # as the command reads it: the GT1 obligations back
    attack = next(
        a
        for u in state.units
        if u.id.startswith("de-") and u.hex
        for h in combat.attackable_hexes(board, state, [u.id])
        if not isinstance(
            combat.check_attack(
                board,
                state,
                a := Attack(
                    attackers=tuple(
                        sorted(
                            o.id
                            for n in board.game_map.neighbours(h)
                            for o in state.at(n)
                            if o.id.startswith("de-")
                        )
                    ),
                    defenders=(h,),
                ),
            ),
            Rejection,
        )
    )
    cmds = tmp_path / "c.jsonl"
    cmds.write_text(
        encode_command(
            DeclareAttack(attackers=attack.attackers, defenders=attack.defenders)
        ).decode()
        + "\n"
        + encode_command(ResolveAttacks()).decode()
        + "\n"
    )
    pos = write_position(tmp_path, state)
    base = ["rules", "apply", "--position", str(pos), "--commands", str(cmds)]

    code, out, err = run([*base, "--dice", "6"], capsys)
    assert code == 0, err
    resolved = json.loads(out.splitlines()[1])
    rolls = [e for e in resolved["events"] if e["type"] == "die_rolled"]
    assert [(r["index"], r["value"]) for r in rolls] == [(state.dice_drawn, 6)]

    code, out, _ = run([*base, "--dice-seed", "00ff"], capsys)
    assert code == 0
    resolved = json.loads(out.splitlines()[1])
    rolls = [e for e in resolved["events"] if e["type"] == "die_rolled"]
    assert [r["value"] for r in rolls] == [SeededDice(bytes.fromhex("00ff")).d6(state.dice_drawn)]

    code, out, err = run(base, capsys)
    assert code == 1 and "dice-needed" in err

    code, out, err = run([*base, "--dice", "7"], capsys)
    assert code == 2 and out == "" and err.startswith("ardennes: --dice: ")
