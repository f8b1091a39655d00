"""The game record (``rules.record``): round trip, strict decoding, limits, and a replay that
names the first diverging command of a hand-edited record."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.ao
from rules import record
from tests.kit.engine import make_map
from tests.kit.realmap import needs_real_map
from tests.kit.selfplay import bot_game


def _lines(data: bytes) -> list[dict[str, object]]:
    return [json.loads(x) for x in data.splitlines()]


def _join(lines: list[dict[str, object]]) -> bytes:
    return b"".join(json.dumps(x, separators=(",", ":")).encode() + b"\n" for x in lines)


@pytest.fixture(scope="module")
def played() -> tuple[rules.ao.Game, bytes]:
    g = bot_game(1, 2)
    return g, record.encode(g.record({"seed": "game-test"}))


@needs_real_map
def test_round_trip_is_byte_exact(played: tuple[rules.ao.Game, bytes]) -> None:
    g, data = played
    rec = record.decode(data)
    assert record.encode(rec) == data
    assert rec.header.format == "ardennes-record" and rec.header.rules == record.RULES_VERSION
    assert rec.header.dice == rules.DiceSpec(kind="seeded", seed=b"game-test".hex())
    assert rec.commands == g.commands
    assert rec.footer is not None and rec.footer.hash == g.state_hash()
    assert [x.hash for x in rec.lines] == [s.hash for s in g.history]
    assert rec.footer.commands == len(g.history)


@needs_real_map
def test_replay_checks_every_hash(played: tuple[rules.ao.Game, bytes]) -> None:
    g, data = played
    r = rules.ao.Game.replay(record.decode(data), g.board)
    assert r.ok and r.at is None
    assert r.game.state_hash() == g.state_hash()


def _first_roll(g: rules.ao.Game) -> int:
    return next(
        i for i, s in enumerate(g.history) if any(isinstance(e, rules.DieRoll) for e in s.events)
    )


@needs_real_map
def test_another_dice_seed_is_refused_at_the_first_roll(
    played: tuple[rules.ao.Game, bytes],
) -> None:
    g, data = played
    lines = _lines(data)
    lines[0]["dice"] = {"kind": "seeded", "seed": b"another".hex()}
    r = rules.ao.Game.replay(record.decode(_join(lines)), g.board)
    other = rules.ao.Game.new(g.board, dice=rules.SeededDice(b"another"))
    for i, cmd in enumerate(g.commands):  # the first command whose outcome differs
        if isinstance(other.push(cmd), rules.Rejection) or other.state_hash() != g.history[i].hash:
            break
    assert i >= _first_roll(g)  # no divergence before a die is rolled
    assert not r.ok and r.at == i
    assert r.error is not None and r.error.startswith(f"command {i} (")
    assert len(r.game.history) == i  # the game as far as it agrees


@needs_real_map
def test_another_choice_in_one_command_is_refused(played: tuple[rules.ao.Game, bytes]) -> None:
    g, data = played
    lines = _lines(data)
    i = next(k for k, c in enumerate(g.commands) if isinstance(c, rules.ao.Move))
    cmd = lines[i + 1]["command"]
    assert isinstance(cmd, dict)
    cmd["path"] = cmd["path"][:-1] if len(cmd["path"]) > 1 else cmd["path"]
    move = g.commands[i]
    assert isinstance(move, rules.ao.Move)
    if len(move.path) == 1:
        pytest.skip("first move has a one-hex path")
    r = rules.ao.Game.replay(record.decode(_join(lines)), g.board)
    assert not r.ok and r.at == i
    assert r.error is not None and r.error.startswith(f"command {i} (move) ")


@needs_real_map
def test_a_false_hash_is_named(played: tuple[rules.ao.Game, bytes]) -> None:
    g, data = played
    lines = _lines(data)
    lines[6]["hash"] = "0" * 64
    r = rules.ao.Game.replay(record.decode(_join(lines)), g.board)
    assert not r.ok and r.at == 5
    assert r.error == (
        f"command 5 ({record.tag(g.commands[5])}) diverges: state hash "
        f"{g.history[5].hash[:16]} where the record has 0000000000000000"
    )


@needs_real_map
def test_a_false_footer_is_named(played: tuple[rules.ao.Game, bytes]) -> None:
    g, data = played
    lines = _lines(data)
    lines[-1]["hash"] = "f" * 64
    r = rules.ao.Game.replay(record.decode(_join(lines)), g.board)
    assert not r.ok and r.error is not None and "end line's hash ffffffffffffffff" in r.error


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ls[0].update(format="ardennes-log/1"), "format is 'ardennes-log/1'"),
        (lambda ls: ls[0].update(version=2), "record version 2 is not supported"),
        (lambda ls: ls[0].update(extra=1), "the header is not a record line"),
        (lambda ls: ls[0]["dice"].update(seed="XYZ"), "dice seed is not lowercase hex"),
        (lambda ls: ls[0]["dice"].update(text="nope"), "seed text and hex differ"),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"values": "1270"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "3,4"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "37,05"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "37,,5"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "257,5"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "37,0"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(
                dice={"kind": "listed", "detail": {"values": "12", "list": "37"}}
            ),
            "listed dice are neither one digit 1-9 a die",
        ),
        (
            lambda ls: ls[0].update(dice={"kind": "listed", "detail": {"list": "37, 5"}}),
            "listed dice are neither one digit 1-9 a die",
        ),
        (lambda ls: ls[2].update(n=5), "command 1 (end_phase) is numbered 5"),
        (lambda ls: ls[1].update(hash="abc"), "the hash is not 64 hex digits"),
        (
            lambda ls: ls[-1].update(commands=1),
            "the end line counts 1 commands, the record holds 2",
        ),
        (lambda ls: ls.insert(2, dict(ls[0])), "a header or end line in the middle"),
    ],
)
def test_strict_decoding(edit: object, message: str) -> None:
    g = rules.ao.Game(
        rules.ao.Board(make_map(". ."), ()),
        rules.ao.GameState(scenario=1, turn=1, side="allied", phase="setup_allied", units=()),
        dice_spec=rules.DiceSpec.seeded(b"t", "t"),
    )
    g.history.extend(
        record.Step(command=rules.ao.EndPhase(), events=(), hash=str(i) * 64) for i in range(2)
    )
    lines = _lines(record.encode(g.record()))
    edit(lines)  # type: ignore[operator]
    with pytest.raises(record.RecordError) as exc:
        record.decode(_join(lines))
    assert message in str(exc.value)


def test_limits_and_garbage() -> None:
    with pytest.raises(record.RecordError, match="empty"):
        record.decode(b"\n \n")
    with pytest.raises(record.RecordError, match="over 16 MiB"):
        record.decode(b" " * (record.MAX_RECORD_BYTES + 1))
    with pytest.raises(record.RecordError, match="line 1 is over"):
        record.decode(b"x" * (record.MAX_LINE_BYTES + 1))
    deep = b'{"kind":"header","x":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    with pytest.raises(record.RecordError):
        record.decode(deep)
    with pytest.raises(record.RecordError, match="not a record line"):
        record.decode(b"\xff\xfe garbage")


def test_dice_kinds() -> None:
    assert isinstance(record.dice_for(rules.DiceSpec.seeded(b"ab")), rules.SeededDice)
    assert record.dice_for(rules.DiceSpec(kind="none")) is None
    listed = record.dice_for(rules.DiceSpec(kind="listed", detail={"values": "6153"}))
    assert listed is not None and [listed.uniform(i, 6) for i in range(4)] == [6, 1, 5, 3]
    assert rules.DiceSpec.listed([6, 1, 5, 3]) == rules.DiceSpec(
        kind="listed", detail={"values": "6153"}
    )
    pct = rules.DiceSpec.listed([37, 5, 100, 256])
    assert pct.detail == {"list": "37,5,100,256"}
    source = record.dice_for(pct)
    assert source is not None
    assert [source.uniform(0, 100), source.uniform(1, 6), source.uniform(2, 100)] == [37, 5, 100]
    with pytest.raises(rules.DiceError):
        source.uniform(3, 100)  # 256 on a d100
    with pytest.raises(ValueError, match="a die is 1 to 256"):
        rules.DiceSpec.listed([0])
    with pytest.raises(record.RecordError, match="kind 'sealed' need their own provider"):
        record.dice_for(rules.DiceSpec(kind="sealed", detail={"game": "x"}))
    assert rules.DiceSpec.seeded(b"7", "7").label == "7"
    assert rules.DiceSpec.seeded(bytes(16)).label == "0" * 16 + "... (hex)"


@settings(max_examples=300)
@given(st.binary(max_size=1_000))
def test_decode_raises_only_record_errors(data: bytes) -> None:
    with contextlib.suppress(record.RecordError):
        record.decode(b'{"kind":"header","format":"' + data)


def test_invalid_utf8_in_a_string_is_a_record_error() -> None:
    with pytest.raises(record.RecordError, match="not a record line"):
        record.decode(b'{"kind":"header","format":"\xe2\x28\xa1"}')
