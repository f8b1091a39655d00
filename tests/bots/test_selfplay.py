"""Self-play (``rules.ao.bots.selfplay``, ``ardennes selfplay``): determinism, replay, and
properties of whole bot games - no illegal state is ever reached, VP change only as AO-16
says, a game played to the end has a verdict. Short games here; full games are ``slow``."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec
import pytest

from ardennes_tui.cli import main
from ardennes_tui.cli.selfplay_summary import game_summary
from rules.ao.bots.selfplay import SelfPlayGame, encode, play, replay
from rules.ao.state import LAST_TURN
from rules.record import RecordError, decode
from scenarios import load_board
from tests.kit import records
from tests.kit.selfplay import check_game


@cache
def game(scenario: int, seed: int, turns: int | None) -> SelfPlayGame:
    return play(load_board(scenario), seed, turns)


def test_same_seed_gives_the_same_bytes() -> None:
    a = encode(play(load_board(1), 11, turns=2))
    b = encode(play(load_board(1), 11, turns=2))
    assert a == b


def test_different_seeds_give_different_games() -> None:
    a, b = game(1, 1, 2), game(1, 2, 2)
    assert a.dice_seed != b.dice_seed
    assert a.final_hash != b.final_hash
    assert encode(a) != encode(b)


def test_the_log_replays_to_the_final_hash() -> None:
    r = game(1, 1, 2)
    data = encode(r)
    rec = decode(data)
    head = rec.header
    assert head.scenario == 1 and head.meta == {"seed": "1", "turns": "2"}
    assert head.dice.kind == "seeded" and head.dice.seed == r.dice_seed
    assert head.players["german"].label == head.players["allied"].label == "bot heuristic/4"
    assert rec.commands == r.commands
    assert rec.footer is not None and rec.footer.hash == r.final_hash
    res = replay(data, load_board)
    assert res.ok and res.game.state_hash() == r.final_hash
    assert len(res.game.history) == len(r.commands)


def test_replay_names_the_first_diverging_command() -> None:
    data = encode(game(1, 1, 2))
    lines = data.splitlines()
    line = msgspec.json.decode(lines[40])
    line["hash"] = "0" * 64
    lines[40] = msgspec.json.encode(line)
    res = replay(b"\n".join(lines) + b"\n", load_board)
    assert not res.ok and res.at == 39 and res.error is not None
    assert res.error.startswith("command 39 (")
    # another dice seed in the header: refused where the dice first change the game
    other = encode(game(1, 1, 2)).replace(
        game(1, 1, 2).dice_seed.encode(), game(1, 2, 2).dice_seed.encode()
    )
    res = replay(other, load_board)
    assert not res.ok and res.error is not None and "diverges" in res.error


@pytest.mark.parametrize(
    ("scenario", "seed"), [(1, 1), (1, 2), (1, 3), (2, 4), (6, 5), (7, 6), (9, 7), (10, 8)]
)
def test_short_games_stay_legal_and_score_by_the_rules(scenario: int, seed: int) -> None:
    r = game(scenario, seed, 2)
    assert [v.turn for v in r.vp] == [1, 2]
    assert r.verdict is None or r.verdict.kind == "immediate"
    check_game(r)


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "seed"), records.TABLE_GAMES)
def test_full_games_end_with_a_verdict(scenario: int, seed: int) -> None:
    """The 30 full games of scenarios 1-10, seeds 1-3: each ends with a verdict, every state on
    the way is legal and scores by the rules, and the game is the committed table's line
    (``tests/data/selfplay-games.jsonl``: ``make records`` refreshes it)."""
    r = play(load_board(scenario), seed)
    assert r.verdict is not None
    assert r.final_phase == "game_over"
    assert r.vp[-1].turn == LAST_TURN or r.verdict.kind == "immediate"
    check_game(r)
    assert replay(encode(r), load_board).ok
    line = records.table()[scenario, str(seed)]
    got = game_summary(r)
    assert got == line, records.stale(
        f"{records.TABLE.name}'s line of scenario {scenario} seed {seed}",
        f"the game now ends {got.hash[:16]} after {got.commands} commands, "
        f"the table says {line.hash[:16]} after {line.commands}",
    )


# -- the command --------------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_writes_a_log_that_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "g.jsonl"
    code, out, err = run(
        ["selfplay", "--scenario", "1", "--seed", "1", "--turns", "2", "-o", str(f)], capsys
    )
    assert code == 0 and err == "" and "stopped after GT2" in out
    assert f.read_bytes() == encode(game(1, 1, 2))
    code, out, err = run(["selfplay", "--replay", str(f)], capsys)
    assert code == 0 and "every hash matches" in out


def test_cli_never_overwrites_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "g.jsonl"
    f.write_text("keep me")
    argv = ["selfplay", "--scenario", "1", "--seed", "1", "--turns", "1", "-o", str(f)]
    code, _out, err = run(argv, capsys)
    assert code == 2 and "--force" in err and len(err.splitlines()) == 1
    assert f.read_text() == "keep me"
    code, _out, err = run([*argv, "--force"], capsys)
    assert code == 0 and f.read_text() != "keep me"


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--scenario", "11", "--seed", "1", "-o", "x"],
        ["selfplay", "--scenario", "1", "--seed", "1", "--turns", "0", "-o", "x"],
        ["selfplay", "--scenario", "1", "--seed", "1", "--turns", "19", "-o", "x"],
        ["selfplay", "--scenario", "1", "-o", "x"],
        ["selfplay", "--scenario", "1", "--seed", "1"],
        ["selfplay", "--replay", "x", "--scenario", "1"],
        ["selfplay", "--scenario", "one"],
    ],
)
def test_cli_refuses_bad_arguments(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code, _out, err = run(argv, capsys)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
        err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_cli_replay_reports_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = encode(game(1, 1, 2))
    lines = data.splitlines()
    foot = msgspec.json.decode(lines[-1])
    foot["hash"] = "f" * 64
    lines[-1] = msgspec.json.encode(foot)
    f = tmp_path / "bad.jsonl"
    f.write_bytes(b"\n".join(lines) + b"\n")
    code, _out, err = run(["selfplay", "--replay", str(f)], capsys)
    assert code == 1 and "the end line's hash ffffffffffffffff differs" in err
    f.write_text("not json\n")
    code, _out, err = run(["selfplay", "--replay", str(f)], capsys)
    assert code == 2 and len(err.splitlines()) == 1


def test_a_record_nested_too_deeply_is_a_record_error() -> None:
    """A hostile record whose first line skips a deeply nested unknown field: ``RecordError``
    (the line limit, or the decoder), so ``ardennes selfplay --replay`` and ``ardennes --load``
    answer in one line."""
    with pytest.raises(RecordError, match="line 1 is over 65536 bytes"):
        decode(b'{"zz":' + b"[" * 200_000)
    with pytest.raises(RecordError, match="line 1: JSON nested too deeply"):
        decode(b'{"zz":' + b"[" * 60_000)


def test_replay_is_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``ardennes selfplay --replay`` reads records as strictly as ``ardennes --load``: the
    header, the numbering, the count, the dice seed, a scenario that exists."""
    lines = encode(play(load_board(1), 1, turns=1)).splitlines()
    head = msgspec.json.decode(lines[0])
    end = msgspec.json.decode(lines[-1])

    def bad(first: dict[str, object] | None = None, body=None, last=None) -> bytes:
        return b"\n".join(
            [
                msgspec.json.encode(first if first is not None else head),
                *(body if body is not None else lines[1:-1]),
                msgspec.json.encode(last if last is not None else end),
            ]
        )

    dice = {**head["dice"], "seed": " " + head["dice"]["seed"]}
    cases = [
        (bad(first={**head, "scenario": 99}), "scenario 99, which does not exist"),
        (bad(first={**head, "dice": dice}), "the header's dice seed is not lowercase hex"),
        (bad(body=[lines[1], *lines[3:-1]]), "is numbered 2: a line missing or out of order"),
        (bad(last={**end, "commands": end["commands"] + 1}), "the end line counts"),
    ]
    f = tmp_path / "bad.jsonl"
    for data, why in cases:
        f.write_bytes(data)
        code, _out, err = run(["selfplay", "--replay", str(f)], capsys)
        assert code == 2 and why in err and len(err.splitlines()) == 1
