"""State, canonical encoding and hash, commands, the position format, and apply's contract."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ao import position as pos
from rules.ao.commands import (
    ChooseRetreat,
    Command,
    DeclareAttack,
    EndPhase,
    Move,
    Place,
    decode_command,
    decode_jsonl,
    encode_command,
)
from rules.ao.engine import Applied, apply, replay, replay_hashes
from rules.ao.state import (
    PLAYER_TURN_PHASES,
    GameState,
    Interdiction,
    RollDue,
    UnitState,
    VictoryPoints,
    canonical_bytes,
    state_hash,
)
from rules.rejection import NOT_IMPLEMENTED, RejectedError, Rejection
from tests.kit.engine import board, line_map, position, unit

ROOT = Path(__file__).resolve().parents[2]

SAMPLE = position(
    {
        "2ss a": UnitState(id="2ss a", hex="3512", road_mode=True, supply="unsupplied"),
        "106 i": "2109",
        "7 a": UnitState(id="7 a", status="not_arrived"),
    },
    turn=4,
)


def test_state_is_immutable_and_hashable() -> None:
    with pytest.raises(AttributeError):
        SAMPLE.turn = 5  # type: ignore[misc]
    assert hash(SAMPLE) == hash(pos.loads(pos.dumps(SAMPLE)))
    assert [u.id for u in SAMPLE.units] == sorted(u.id for u in SAMPLE.units)


def test_canonical_bytes_omit_unit_defaults_and_keep_field_order() -> None:
    raw = canonical_bytes(SAMPLE)
    assert raw.startswith(b'{"scenario":0,"turn":4,"side":"german","phase":"initial_movement"')
    assert b'{"id":"106 i","hex":"2109"}' in raw
    assert msgspec.json.decode(raw, type=GameState) == SAMPLE


def test_state_hash_is_the_sha256_of_the_canonical_bytes() -> None:
    import hashlib

    assert state_hash(SAMPLE) == hashlib.sha256(canonical_bytes(SAMPLE)).hexdigest()
    other = msgspec.structs.replace(SAMPLE, dice_drawn=1)
    assert state_hash(other) != state_hash(SAMPLE)


def test_state_hash_is_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "from rules.ao import position; from rules.ao.state import state_hash; import sys;"
        "print(state_hash(position.loads(sys.stdin.read())))"
    )
    text = pos.dumps(SAMPLE)
    hashes = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=text,
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        hashes.add(out.stdout.strip())
    assert hashes == {state_hash(SAMPLE)}


def test_position_text_round_trips_and_reads_hand_written_positions() -> None:
    text = pos.dumps(SAMPLE)
    assert pos.loads(text) == SAMPLE
    assert pos.dumps(pos.loads(text)) == text
    hand = """{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "allied",
      "phase": "initial_movement",
      "units": [{"id": "b", "hex": "0201", "road_mode": true}, {"id": "a", "hex": "0101"}]}"""
    s = pos.loads(hand)
    assert [u.id for u in s.units] == ["a", "b"] and s.unit("b").road_mode
    assert s.vp == VictoryPoints() and s.interdicted == Interdiction() and s.roll is None
    # a die due (rules version 2) is part of the position, written only while due
    for due in (RollDue(purpose="crt_switch"), RollDue(purpose="paradrop", hex="0201")):
        rolled = msgspec.structs.replace(SAMPLE, roll=due)
        text = pos.dumps(rolled)
        assert pos.loads(text) == rolled and pos.dumps(pos.loads(text)) == text
        assert text.splitlines()[-2] == f'  "roll": {msgspec.json.encode(due).decode()}'
    assert '"roll"' not in pos.dumps(SAMPLE)


@pytest.mark.parametrize(
    "bad",
    [
        '{"format": "x", "scenario": 1, "turn": 1, "side": "german", "phase": "combat", '
        '"units": []}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 19, "side": "german", '
        '"phase": "combat", "units": []}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "german", '
        '"phase": "lunch", "units": []}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "german", '
        '"phase": "combat", "units": [{"id": "a", "hex": "0101"}, {"id": "a", "hex": "0102"}]}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "german", '
        '"phase": "combat", "units": [{"id": "a"}]}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "german", '
        '"phase": "combat", "units": [{"id": "a", "hex": "99"}]}',
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "german", '
        '"phase": "combat", "units": [], "colour": 1}',
    ],
)
def test_position_rejects_malformed_text(bad: str) -> None:
    with pytest.raises(pos.PositionError):
        pos.loads(bad)


def test_docs_example_position_loads() -> None:
    doc = (ROOT / "docs" / "position-format.md").read_text(encoding="utf-8")
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    s = pos.loads(example)
    assert pos.dumps(s) == example


_ids = st.sampled_from(["0101", "0202", "1234", "3512", "4045"])
_units = st.builds(
    UnitState,
    id=st.text(alphabet="abcdefghij 0123456789", min_size=1, max_size=6),
    hex=_ids,
    status=st.sampled_from(["on_map", "dormant"]),
    road_mode=st.booleans(),
    supply=st.sampled_from(["supplied", "unsupplied", "isolated"]),
    moved=st.booleans(),
    mp_spent=st.integers(0, 20),
    attacked=st.booleans(),
    in_combat=st.booleans(),
    must_leave_road_mode=st.booleans(),
)


@given(
    units=st.lists(_units, max_size=8, unique_by=lambda u: u.id),
    turn=st.integers(1, 18),
    side=st.sampled_from(["german", "allied"]),
    phase=st.sampled_from(PLAYER_TURN_PHASES),
    dice=st.integers(0, 10_000),
    vp=st.tuples(st.integers(0, 99), st.integers(0, 99)),
    crt=st.sampled_from(["initial", "standard"]),
)
def test_position_round_trips(units, turn, side, phase, dice, vp, crt) -> None:
    s = GameState(
        scenario=1,
        turn=turn,
        side=side,
        phase=phase,
        units=tuple(sorted(units, key=lambda u: u.id)),
        vp=VictoryPoints(german=vp[0], allied=vp[1]),
        german_crt=crt,
        dice_drawn=dice,
        interdicted=Interdiction(german=(("0101", "0102"),)),
    )
    text = pos.dumps(s)
    assert pos.loads(text) == s
    assert pos.dumps(pos.loads(text)) == text
    assert state_hash(pos.loads(text)) == state_hash(s)


def test_commands_are_one_tagged_union() -> None:
    line = '{"type":"move","unit":"2ss a","path":["3512","3411","enter_road_mode"]}'
    cmd = decode_command(line)
    assert cmd == Move(unit="2ss a", path=("3512", "3411", "enter_road_mode"))
    assert encode_command(cmd) == line.encode()
    assert decode_command('{"type":"end_phase"}') == EndPhase()
    assert decode_jsonl('{"type":"place","unit":"a","hex":"0101"}\n\n{"type":"end_phase"}\n') == [
        Place(unit="a", hex="0101"),
        EndPhase(),
    ]
    with pytest.raises(msgspec.ValidationError):
        decode_command('{"type":"move","unit":"a"}')
    with pytest.raises(msgspec.ValidationError):
        decode_command('{"type":"teleport","unit":"a"}')


def test_combat_decisions_without_a_pending_decision_are_refused() -> None:
    b = board(line_map(". ."), [unit("g"), unit("a", "allied")])
    s = position({"g": "0101", "a": "0201"}, phase="combat")
    r = apply(b, s, DeclareAttack(attackers=("g",), defenders=("0201",)))
    assert isinstance(r, Applied)
    r2 = apply(b, s, ChooseRetreat(unit="a", path=("0301",)))
    assert isinstance(r2, Rejection) and r2.case == "decision-pending"
    assert r2.case != NOT_IMPLEMENTED


def test_apply_is_pure_and_replay_is_a_fold() -> None:
    b = board(line_map(". . . . ."), [unit("g"), unit("a", "allied")])
    s0 = position({"g": "0101", "a": "0501"})
    before = canonical_bytes(s0)
    cmds: list[Command] = [Move(unit="g", path=("0201", "0301")), EndPhase(), EndPhase()]
    live = s0
    for c in cmds:
        r = apply(b, live, c)
        assert isinstance(r, Applied)
        live = r.state
    assert canonical_bytes(s0) == before
    assert replay(b, s0, cmds) == live
    assert replay_hashes(b, s0, cmds)[-1] == state_hash(live)
    with pytest.raises(RejectedError) as exc:
        replay(b, s0, [*cmds, Move(unit="g", path=("0401",))])
    assert exc.value.index == 3 and exc.value.rejection.case == "AO-5.2K"


def test_a_command_nested_too_deeply_is_a_decode_error() -> None:
    """A hostile command file: msgspec would raise RecursionError skipping the unknown field."""
    with pytest.raises(msgspec.DecodeError, match="nested too deeply"):
        decode_command(b'{"zz":' + b"[" * 200_000)
