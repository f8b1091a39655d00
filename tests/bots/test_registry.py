"""The bot registry (``rules.ao.bots.registry``) and self-play at a level of play (``ardennes
selfplay --level L --computer SIDE``): the record names the level, replays on the scenario as
written, and level 3 is the very game of no level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules.ao
import scenarios
from ardennes_tui.cli import main
from ardennes_tui.cli.selfplay_summary import GameResult, level_of, summary_markdown
from rules.ao.bots import Bot, BotRng, HeuristicBot
from rules.ao.bots.registry import DEFAULT, KINDS, kind_names, make_bot, player
from rules.ao.bots.selfplay import encode, play, players_at, replay
from tests.kit.realmap import needs_real_map


def test_make_bot_by_kind() -> None:
    bot = make_bot("heuristic", "allied", 2, BotRng(b"r"))
    assert isinstance(bot, HeuristicBot)
    assert (bot.name, bot.version, bot.side, bot.batch) == ("heuristic", "4", "allied", False)
    assert make_bot(DEFAULT, "german", 3, BotRng(b"r"), batch=True).batch  # type: ignore[attr-defined]
    assert DEFAULT in KINDS and kind_names() == tuple(sorted(KINDS))


def test_unknown_kinds_and_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="no bot 'deep': the bots are heuristic"):
        make_bot("deep", "german", 3, BotRng(b"r"))
    with pytest.raises(ValueError, match="level 0 does not exist"):
        make_bot("heuristic", "german", 0, BotRng(b"r"))


def test_player_names_bot_version_and_level() -> None:
    bot = make_bot("heuristic", "german", 1, BotRng(b"r"))
    assert player(bot, 1) == rules.Player(kind="bot", name="heuristic", version="4", level=1)
    assert player(bot, 1).label == "bot heuristic/4 level 1"
    assert player(bot).label == "bot heuristic/4"


def test_players_at_a_level() -> None:
    spec = scenarios.scenario_specs()[1]
    bots: dict[rules.ao.Side, Bot] = {
        "german": make_bot("planner", "german", 3, BotRng(b"g")),
        "allied": make_bot("heuristic", "allied", 2, BotRng(b"a")),
    }
    p = players_at(bots, rules.ao.levels.level_for(spec, 2, "allied"))
    assert p["allied"].level == 2 and p["german"].level is None
    assert p["german"].kind == p["allied"].kind == "bot"
    assert (p["german"].name, p["allied"].name) == ("planner", "heuristic")
    assert players_at(bots, None)["allied"].level is None


@needs_real_map
def test_level_three_self_play_is_the_game_of_no_level() -> None:
    spec = scenarios.scenario_specs()[1]
    plain = play(scenarios.load_board(1), "lv", turns=1)
    three = play(
        scenarios.load_board(1), "lv", turns=1, level=rules.ao.levels.level_for(spec, 3, "german")
    )
    assert three.hashes == plain.hashes
    assert three.record.header.level is not None and plain.record.header.level is None
    assert three.record.header.players["german"].level == 3


@needs_real_map
def test_a_level_game_replays_on_the_plain_board() -> None:
    spec = scenarios.scenario_specs()[1]
    g = play(
        scenarios.load_board(1), "lv", turns=1, level=rules.ao.levels.level_for(spec, 1, "german")
    )
    r = replay(encode(g), scenarios.load_board)
    assert r.ok, r.error
    assert r.game.board.level == rules.ao.levels.level_for(spec, 1, "german")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--level", "2"], "--level and --computer go together"),
        (["--computer", "german"], "--level and --computer go together"),
        (["--level", "2", "--computer", "german", "--dice", "open"], "not --dice or --replay"),
        (["--level", "5", "--computer", "german"], "invalid choice"),
    ],
)
def test_level_options_are_checked(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    code, _, err = _run(
        ["selfplay", "--scenario", "1", "--seed", "1", "-o", str(out), *argv], capsys
    )
    assert code == 2 and said in err
    assert not out.exists()


@needs_real_map
def test_selfplay_at_a_level_writes_it_in_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    argv = ["selfplay", "--scenario", "1", "--seed", "2", "--turns", "1", "-o", str(out)]
    code, said, _ = _run([*argv, "--level", "4", "--computer", "german"], capsys)
    assert code == 0 and "stopped after GT1" in said
    head = json.loads(out.read_bytes().splitlines()[0])
    assert head["level"] == {
        "number": 4,
        "computer": "german",
        "allied_rate": "historical",
        "german_rate": "historical",
        "german_vp": -5,
    }
    assert head["players"]["german"]["level"] == 4
    code, said, _ = _run(["selfplay", "--replay", str(out)], capsys)
    assert code == 0 and "every hash matches" in said
    code, said, _ = _run(["verify", str(out)], capsys)
    assert code == 0 and "German bot heuristic/4 level 4" in said


def test_summary_names_the_level_and_its_levers() -> None:
    verdict = rules.ao.Verdict(
        winner="allied", kind="cumulative", german_vp=20, allied_vp=5, reason="x"
    )
    vp = (
        rules.ao.bots.selfplay.TurnVP(
            turn=18, german=20, allied=5, exit_vp=0, allied_lost=25, german_lost=5
        ),
    )
    results = [
        GameResult(
            scenario=n,
            seed="1",
            verdict=verdict,
            vp=vp,
            commands=9,
            hash="0" * 64,
            level=2,
            computer="allied",
        )
        for n in (1, 7)
    ]
    text = summary_markdown(results)
    assert text.startswith("## Self-play summary (bots heuristic/4, level 2, computer Allied)")
    assert "--seeds 1 --level 2 --computer allied`." in text
    assert (
        "Levers: scenario 1: German VP -5 at every tabulation; scenario 7: German historical "
        "reinforcements.\n" in text
    )
    assert level_of(7, (2, "allied")) == rules.ao.levels.level_for(
        scenarios.scenario_specs()[7], 2, "allied"
    )
    assert level_of(7, None) is None
