"""``ardennes selfplay --summary``: argument checks, the balance tables of a real one-game batch
checked cell by cell against the game's committed record (``tests/data/records``, the very
game ``rules.ao.bots.selfplay.play`` plays: ``tests/bots/test_records.py``), ``--games-out`` (no
overwrite without ``--force``) and, ``slow``, ``--jobs 2`` giving the same bytes as ``--jobs
1``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ardennes_tui.cli import main, selfplay_summary
from ardennes_tui.cli.selfplay_summary import (
    GameResult,
    compact_seeds,
    mean,
    parse_scenarios,
    parse_seeds,
    summary_markdown,
)
from rules.ao.bots.selfplay import SELFPLAY_BOT, SelfPlayGame, TurnVP
from rules.ao.state import Board, Verdict
from tests.kit import records


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def rows(markdown: str, column: str) -> list[list[str]]:
    """The body rows of the table whose header has ``column``, as lists of cells."""
    lines = markdown.splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("| scenario |") and column in x)
    assert lines[i + 1].startswith("|---")
    body = []
    for x in lines[i + 2 :]:
        if not x.startswith("|"):
            break
        body.append([c.strip() for c in x.strip("|").split(" | ")])
    return body


# -- arguments ----------------------------------------------------------------------------------

S = ["selfplay", "--summary"]


@pytest.mark.parametrize(
    "argv",
    [
        [*S],
        [*S, "--scenario", "1"],
        [*S, "--seeds", "1"],
        [*S, "--scenario", "11", "--seeds", "1"],
        [*S, "--scenario", "0-2", "--seeds", "1"],
        [*S, "--scenario", "1,x", "--seeds", "1"],
        [*S, "--scenario", "1,1", "--seeds", "1"],
        [*S, "--scenario", "", "--seeds", "1"],
        [*S, "--scenario", "1", "--seeds", ""],
        [*S, "--scenario", "1", "--seeds", "1,,2"],
        [*S, "--scenario", "1", "--seeds", "5-3"],
        [*S, "--scenario", "1", "--seeds", "1-x"],
        [*S, "--scenario", "1", "--seeds", "01-03"],
        [*S, "--scenario", "1", "--seeds", "1-3,2"],
        [*S, "--scenario", "1", "--seeds", "1-999999999999"],
        [*S, "--scenario", "1", "--seeds", "1-99999999999999999999999"],
        [*S, "--scenario", "1-10", "--seeds", "1-201"],
        [*S, "--scenario", "1", "--seeds", "1", "--jobs", "0"],
        [*S, "--scenario", "1", "--seeds", "1", "--jobs", "x"],
        [*S, "--scenario", "1", "--seeds", "1", "-o", "x"],
        [*S, "--scenario", "1", "--seeds", "1", "--turns", "2"],
        [*S, "--scenario", "1", "--seeds", "1", "--replay", "x"],
        [*S, "--scenario", "1", "--seeds", "1", "--seed", "1"],
        [*S, "--scenario", "1", "--seeds", "1", "--games-out", "nodir/x"],
        ["selfplay", "--scenario", "1,7", "--seed", "1", "-o", "x"],
        ["selfplay", "--scenario", "1", "--seeds", "1", "-o", "x"],
        ["selfplay", "--scenario", "1", "--seed", "1", "-o", "x", "--jobs", "2"],
        ["selfplay", "--scenario", "1", "--seed", "1", "-o", "x", "--games-out", "y"],
    ],
)
def test_summary_refuses_bad_arguments(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_lists_parse_strictly_and_sort() -> None:
    assert parse_scenarios("7,1-3") == (1, 2, 3, 7)
    assert parse_scenarios("1-10") == tuple(range(1, 11))
    assert parse_seeds("10,alpha,1-3,07") == ("1", "2", "3", "10", "07", "alpha")
    assert parse_seeds(" 2 , 1 ") == ("1", "2")
    assert compact_seeds(parse_seeds("1-3,5,6-7,9,x")) == "1-3,5-7,9,x"


def test_means_are_exact_to_one_decimal() -> None:
    assert mean([7]) == "7.0"
    assert mean([1, 2]) == "1.5"
    assert mean([1, 1, 2]) == "1.3"
    assert mean([1, 2, 2]) == "1.7"
    assert mean([0] * 19 + [1]) == "0.1"  # 0.05: half up
    assert mean([0] * 21 + [1]) == "0.0"


def test_an_immediate_win_and_a_draw_are_counted() -> None:
    """The aggregation on two made-up results: an immediate German win at GT5 (no GT6
    tabulation) and a draw at GT18."""

    def vp(turn: int, german: int, exit_vp: int) -> TurnVP:
        return TurnVP(turn, german, 3, exit_vp, german - exit_vp, 3)

    win = GameResult(
        scenario=7,
        seed="1",
        verdict=Verdict("german", "immediate", 35, 3, "35 by GT5"),
        vp=tuple(vp(t, 7 * t, 5 if t == 4 else 0) for t in range(1, 6)),
        commands=300,
        hash="a",
    )
    draw = GameResult(
        scenario=7,
        seed="2",
        verdict=Verdict(None, "ratio", 30, 20, "draw"),
        vp=tuple(vp(t, 30 if t == 18 else t, 2) for t in range(1, 19)),
        commands=1001,
        hash="b",
    )
    text = summary_markdown([win, draw])
    assert rows(text, "German VP end mean") == [
        [
            *("7", "2", "1 / 1 / 0", "1", "32.5 (30-35)", "31.5", "1.0", "3.0"),
            *("6.0 (6) of 1", "5", "650.5"),
        ]
    ]
    assert rows(text, "| seed |") == [
        ["7", "1", "german (immediate)", "5", "35", "3", "35", "0", "-", "5", "300"],
        ["7", "2", "draw (ratio)", "18", "30", "3", "28", "2", "6", "2", "1001"],
    ]


# -- a real batch ---------------------------------------------------------------------------------


def test_one_game_batch_matches_play_cell_by_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "games.jsonl"
    f.write_text("keep me")
    argv = [*S, "--scenario", "1", "--seeds", "1", "--games-out", str(f), "--progress"]
    code, out, err = run(argv, capsys)  # refused before any game is played
    assert code == 2 and out == "" and "--force" in err and len(err.splitlines()) == 1
    assert f.read_text() == "keep me"

    code, out, err = run([*argv, "--force"], capsys)  # plays the game
    assert code == 0
    r = records.selfplay_game(1, 1)
    assert r.verdict is not None
    end, gt6 = r.vp[-1], next(v for v in r.vp if v.turn == 6)
    best = max(v.exit_vp for v in r.vp)
    winner = r.verdict.winner
    assert "`ardennes selfplay --summary --scenario 1 --seeds 1`" in out
    assert rows(out, "German VP end mean") == [
        [
            "1",
            "1",
            f"{int(winner == 'german')} / {int(winner is None)} / {int(winner == 'allied')}",
            str(int(r.verdict.kind == "immediate")),
            f"{end.german}.0 ({end.german}-{end.german})",
            f"{end.allied_lost}.0",
            f"{end.exit_vp}.0",
            f"{end.allied}.0",
            f"{gt6.german}.0 ({gt6.german})",
            str(best),
            f"{len(r.commands)}.0",
        ]
    ]
    assert rows(out, "| seed |") == [
        [
            "1",
            "1",
            f"{winner or 'draw'} ({r.verdict.kind})",
            str(end.turn),
            str(end.german),
            str(end.allied),
            str(end.allied_lost),
            str(end.exit_vp),
            str(gt6.german),
            str(best),
            str(len(r.commands)),
        ]
    ]
    assert (end.german, end.allied) == (r.verdict.german_vp, r.verdict.allied_vp)
    # --games-out: one line per game, the game's own figures
    (line,) = f.read_text().splitlines()
    assert json.loads(line) == {
        "scenario": 1,
        "seed": "1",
        "verdict": {
            "winner": winner,
            "kind": r.verdict.kind,
            "german_vp": r.verdict.german_vp,
            "allied_vp": r.verdict.allied_vp,
            "reason": r.verdict.reason,
        },
        "vp": [
            {
                "turn": v.turn,
                "german": v.german,
                "allied": v.allied,
                "exit_vp": v.exit_vp,
                "allied_lost": v.allied_lost,
                "german_lost": v.german_lost,
            }
            for v in r.vp
        ],
        "commands": len(r.commands),
        "hash": r.final_hash,
    }
    assert not (tmp_path / "games.jsonl.tmp").exists()
    # --progress: one line per game, then the total (timings on stderr only)
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("[1/1] scenario 1 seed 1: ")
    assert lines[1].startswith("1 game in ")


@pytest.mark.slow
def test_jobs_do_not_change_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 2`` plays the games in two worker processes; ``--jobs 1`` here takes them from
    their committed records (the games ``play`` plays, ``tests/bots/test_records.py``)."""

    def summary(jobs: str) -> tuple[str, bytes]:
        f = tmp_path / f"games-{jobs}.jsonl"
        argv = [*S, "--scenario", "2,1", "--seeds", "4", "--jobs", jobs, "--games-out", str(f)]
        code, out, err = run(argv, capsys)
        assert code == 0 and err == ""
        return out, f.read_bytes()

    played = summary("2")
    monkeypatch.setattr(selfplay_summary, "play", committed)
    assert summary("1") == played
    assert [r[:2] for r in rows(played[0], "| seed |")] == [["1", "4"], ["2", "4"]]


def committed(board: Board, seed: str, **options: object) -> SelfPlayGame:
    """``play`` of a committed game, from its record."""
    assert board.scenario is not None and options == {
        "level": None,
        "german": SELFPLAY_BOT,
        "allied": SELFPLAY_BOT,
    }
    return records.selfplay_game(board.scenario.number, int(seed))
