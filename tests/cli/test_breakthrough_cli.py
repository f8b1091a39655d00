"""*Breakthrough in the Ardennes* on the command line (issue 24): ``ardennes rules ...
--ruleset breakthrough``, ``ardennes map --ruleset breakthrough`` and ``ardennes selfplay
--ruleset breakthrough`` (the record and its replay), each answer checked against values
worked out from the map (``scenarios/breakthrough/map.json``) and the rules.

The position is First Seven Days (scenario 1) after the German's Unit Organization Phase of
16 December: the American's first Operation Phase (2.4). There the 102nd Cavalry Group
(``us-102``, 40 points, 10 operation points, normal mode) stands on 30,27 (hex ``2801``), next
to the German 272nd (``de-272``, 25 points) on 30,28 (``2901``, clear, German-owned).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ardennes_tui import cli

ARGS = ["--ruleset", "breakthrough"]


def run(argv: Sequence[object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The American's first Operation Phase of scenario 1 (the German quit his organization
    menu: one ``end_phase``), as ``rules apply`` prints it last."""
    cmds = tmp_path / "end.jsonl"
    cmds.write_text('{"type":"end_phase"}\n')
    code, out, err = run(["rules", "apply", *ARGS, "--scenario", 1, "--commands", cmds], capsys)
    assert code == 0, err
    first, last = out.splitlines()
    line = json.loads(first)
    assert line["events"] == [
        {"type": "phase_began", "turn": 1, "phase": "operation", "side": "american", "stage": 1}
    ]
    state = json.loads(last)
    assert (state["turn"], state["phase"], state["side"], state["stage"]) == (
        1,
        "operation",
        "american",
        1,
    )
    assert (
        line["state_hash"]
        == json.loads(
            run(["rules", "options", *ARGS, "--position", _write(tmp_path, last)], capsys)[1]
        )["hash"]
    )
    return Path(_write(tmp_path, last))


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.json"
    path.write_text(text)
    return str(path)


def test_options_at_the_start_of_first_seven_days(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "options", *ARGS, "--scenario", 1], capsys)
    assert code == 0, err
    o = json.loads(out)
    # 16 December (turn 1): the German's Unit Organization Phase comes first (2.3-2.4); his
    # units are all on the map, no plot yet, nothing to roll (no weather die on turn 1)
    assert (o["mode"], o["acting"], o["turn"], o["stage"], o["may_end_phase"]) == (
        "organization",
        "german",
        1,
        0,
        True,
    )
    assert o["plots"] == [] and o["targets"] == []
    assert all(u.startswith("de-") for u in o["units"]) and len(o["units"]) > 0
    assert o["dice_wait"] == {"kind": "none", "purpose": "", "extendable": False}


def test_moves_of_the_102nd_cavalry(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["rules", "moves", *ARGS, "--position", position, "--unit", "us-102"], capsys
    )
    assert code == 0, err
    m = json.loads(out)
    assert (m["hex"], m["xy"], m["op"], m["refusal"]) == ("2801", "30,27", 10, None)
    # 13.5: clear costs 3; leaving the 272nd's ZOC (30,28 is next to 30,27) 4 (BA-7.6b)
    #   30,26 and 29,26 (clear, no German next to them): 3 + 4 = 7, 3 points left;
    #   then 29,25 (from 30,26) and 28,26 (from 29,26), clear: 7 + 3 = 10, none left.
    # 29,27 (forest, next to the Germans on 29,28 and 30,28): 8 + 4 + 2 = 14 > 10, and BA-7.5b's
    # last move does not reach a hex next to an enemy; 30,28 holds the enemy (an attack).
    assert m["moves"] == {
        "2602": {"xy": "29,25", "cost": 10, "op_left": 0, "path": ["2701", "2602"]},
        "2701": {"xy": "30,26", "cost": 7, "op_left": 3, "path": ["2701"]},
        "2702": {"xy": "29,26", "cost": 7, "op_left": 3, "path": ["2702"]},
        "2703": {"xy": "28,26", "cost": 10, "op_left": 0, "path": ["2702", "2703"]},
    }


def test_a_move_the_rules_refuse_names_its_case(
    position: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cmds = tmp_path / "move.jsonl"
    cmds.write_text('{"type":"move","unit":"us-102","path":["2802"]}\n')
    code, out, err = run(
        ["rules", "apply", *ARGS, "--position", position, "--commands", cmds], capsys
    )
    assert code == 1
    first = json.loads(out.splitlines()[0])
    assert first["rejected"] == {
        "case": "BA-7.5b",
        "message": "BA-7.5b: step 1: us-102: 2802 costs 14 operation points; 10 left",
    }
    assert err == "ardennes: command 0 rejected: " + first["rejected"]["message"] + "\n"
    assert json.loads(out.splitlines()[1]) == json.loads(position.read_text())  # unchanged


@pytest.mark.parametrize("target", ["2901", "30,28"])
def test_odds_of_the_102nd_on_the_272nd(
    position: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rules", "odds", *ARGS, "--position", position, "--attackers", "us-102"]
    code, out, err = run([*argv, "--defenders", target], capsys)
    assert code == 0, err
    r = json.loads(out)
    # BA-8.1a: strength x efficiency, in hundredths: 40 x 100% = 4000 against 25 x 100% = 2500;
    # clear terrain, no fort, supplied: every factor 1.000 (13.6); no artillery either side;
    # odds 100 x 4000 // 2500 = 160 (1.6 to 1)
    assert (r["target"], r["xy"], r["terrain"], r["refusal"]) == ("2901", "30,28", "clear", None)
    assert r["attackers"] == [
        {
            "unit": "us-102",
            "hex": "2801",
            "strength": 40,
            "efficiency": 100,
            "divisional": False,
            "factors": {"supply": 1000},
            "modified": 4000,
            "across_river": False,
        }
    ]
    assert r["defenders"] == [
        {
            "unit": "de-272",
            "hex": "2901",
            "strength": 25,
            "efficiency": 100,
            "divisional": False,
            "factors": {"terrain": 1000, "fort": 1000, "supply": 1000},
            "modified": 2500,
        }
    ]
    assert r["artillery"] == {"attack": 0, "attack_counted": 0, "defence": 0, "defence_counted": 0}
    assert r["odds"] == {"attack": 4000, "defence": 2500, "ratio": 160}


def test_odds_of_an_attack_the_plot_would_refuse(
    position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The 9th Armored's CCR (us-9-2, 29,27) has no operation points left: it may not plot."""
    argv = ["rules", "odds", *ARGS, "--position", position, "--attackers", "us-9-2"]
    code, out, err = run([*argv, "--defenders", "2902"], capsys)
    assert code == 1
    refusal = json.loads(out)["refusal"]
    assert refusal["case"].startswith("BA-7.9")
    assert err == f"ardennes: the attack would be refused: {refusal['message']}\n"


def test_supply_on_16_december_is_automatic(
    position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BA-4.4a: American units are supplied without a trace on 16-17 December, German ones
    through the 18th."""
    code, out, err = run(["rules", "supply", *ARGS, "--position", position], capsys)
    assert code == 0, err
    sides = json.loads(out)["sides"]
    state = json.loads(position.read_text())
    assert [s["side"] for s in sides] == ["american", "german"]
    for s in sides:
        assert s["automatic"] is True
        assert [u["unit"] for u in s["units"]] == [
            u["id"] for u in state["units"] if u["side"] == s["side"]
        ]
        assert {(u["marker"], u["now"]) for u in s["units"]} == {("supplied", "supplied")}


def test_questions_that_do_not_apply_are_one_line(
    position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["rules", "interdiction", *ARGS, "--position", position], capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("ardennes: rules interdiction: Breakthrough has no bridge interdiction")
    code, out, err = run(["rules", "supply", *ARGS, "--scenario", 1, "--side", "allied"], capsys)
    assert (code, out) == (2, "") and err == (
        "ardennes: --side: Breakthrough's sides are american and german\n"
    )
    code, out, err = run(["rules", "options", *ARGS, "--scenario", 4], capsys)
    assert (code, out) == (2, "") and err == (
        "ardennes: scenario 4: no Breakthrough scenario 4: 1, 2 or 3 (BA-2.1g)\n"
    )
    code, out, err = run(["rules", "options", "--scenario", 1, "--level", 2], capsys)
    assert (code, err) == (2, "ardennes: --level and --two-player go with --ruleset breakthrough\n")


def test_the_map_as_the_manual_shows_it(capsys: pytest.CaptureFixture[str]) -> None:
    """BA-1.4c: west at the top, north to the right; hexrow x is the column 4 + 3x, hex row y
    the line 2 + 2y (+1 for the odd hexrows, half a hex lower)."""
    code, out, err = run(["map", *ARGS], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 2 + 2 * 32 + 1 + 2  # the heads, 32 hex rows, the y note, the legend

    def cell(x: int, y: int) -> str:
        return lines[2 + 2 * y + x % 2][4 + 3 * x : 6 + 3 * x]

    assert cell(7, 13)[0] == "B"  # Bastogne, 50 points (BA-10.1c)
    assert cell(19, 23)[0] == "V"  # St. Vith, 25 points
    assert cell(30, 3) == "VX"  # Huy: a victory town and a German exit (BA-7.10a)
    assert cell(0, 0) == "f "  # the south-west corner: forest, no road, river or bridge
    assert cell(30, 28)[0] == "C"  # German-owned clear on 16 December (BA-1.4f)
    assert lines[0].startswith("x:  0     2     4")
    code, out, err = run(["map", *ARGS, "--json"], capsys)
    data = json.loads(out)
    assert (data["map"], data["x_count"], data["y_count"]) == ("breakthrough", 31, 32)
    assert len(data["hexes"]) == 31 * 32
    code, out, err = run(["map", *ARGS, "--overview"], capsys)
    assert (code, err) == (2, "ardennes: --overview: not for Breakthrough's map (text or --json)\n")


def test_a_selfplay_record_replays_and_a_changed_one_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bita.jsonl"
    argv = ["selfplay", *ARGS, "--scenario", 1, "--seed", 7, "--level", 2, "-o", out]
    code, said, err = run(argv, capsys)
    assert code == 0, err
    lines = out.read_bytes().splitlines()
    head = json.loads(lines[0])
    assert head["ruleset"] == "breakthrough" and head["scenario"] == 1
    assert head["level"] == {
        "scenario": "first-seven-days",
        "level": 2,
        "historical": True,
        "two_player": False,
    }
    assert head["meta"] == {"seed": "37"}  # the text "7"
    foot = json.loads(lines[-1])
    assert foot["kind"] == "end" and foot["verdict"]["kind"] == "points"
    n = len(lines) - 2
    assert said.startswith(f"scenario 1 seed 7 level 2: {n} commands, ")
    assert said.endswith(f", hash {foot['hash'][:16]} -> {out}\n")
    code, said, err = run(["selfplay", "--replay", out], capsys)
    assert (code, err) == (0, "")
    assert said == f"{out}: replayed {n} commands: every hash matches ({foot['hash'][:16]})\n"
    # command 3's hash changed: the replay names it
    bad = json.loads(lines[4])
    bad["hash"] = "0" * 64
    lines[4] = json.dumps(bad, separators=(",", ":")).encode()
    changed = tmp_path / "changed.jsonl"
    changed.write_bytes(b"\n".join(lines) + b"\n")
    code, said, err = run(["selfplay", "--replay", changed], capsys)
    assert (code, said) == (1, "")
    assert err.startswith(f"{changed}: command 3 (")
    assert "diverges: state hash " in err and "where the record has 0000000000000000" in err


def test_selfplay_usage_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.jsonl"
    for argv, said in [
        (
            ["--scenario", 4, "--seed", 1],
            "ardennes: --scenario: breakthrough has the scenarios 1, 2, 3\n",
        ),
        (
            ["--scenario", 1, "--seed", 1, "--turns", 2],
            "ardennes: --turns: Breakthrough's record self-play plays the whole game\n",
        ),
        (
            ["--scenario", 1, "--seed", 1, "--computer", "german"],
            "ardennes: --computer, --german and --allied choose the AO's bots "
            "(Breakthrough: --level)\n",
        ),
        (
            ["--scenario", 1, "--seed", 1, "--dice", "sealed", "--level", 2],
            "ardennes: --level goes with a game, not --dice or --replay\n",
        ),
    ]:
        code, text, err = run(["selfplay", *ARGS, *argv, "-o", out], capsys)
        assert (code, text, err) == (2, "", said)
    assert not out.exists()


def test_the_order_of_battle(capsys: pytest.CaptureFixture[str]) -> None:
    """13.2 lists 85 American and 79 German units; the 102nd Cavalry Group is a mobile
    40-point unit on the map on 16 December at 30,27 (as the position above has it)."""
    code, out, err = run(["oob", *ARGS, "--json"], capsys)
    assert code == 0, err
    units = json.loads(out)["units"]
    assert sum(u["side"] == "american" for u in units) == 85
    assert sum(u["side"] == "german" for u in units) == 79
    [cav] = [u for u in units if u["id"] == "us-102"]
    assert (cav["strength"], cav["type"], cav["mobile"], cav["day"], cav["hex"]) == (
        40,
        "CAV",
        True,
        16,
        "30,27",
    )
    code, out, err = run(["oob", *ARGS, "--side", "american"], capsys)
    assert out.startswith("American: 85 units, strength ")
    assert (
        "  us-102         102/-/V            CAV    40 mobile, OP 20/20, on the map at 30,27\n"
        in out
    )
    code, out, err = run(["oob", *ARGS, "--scenario", 1], capsys)
    assert (code, out) == (2, "") and "one for every scenario" in err


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda s: {}, "Object missing required field `turn`"),
        (
            lambda s: {**s, "units": [{**s["units"][0], "id": "de-nobody"}]},
            "no unit 'de-nobody' in scenario 1",
        ),
        (
            lambda s: {**s, "units": [{**s["units"][0], "hex": "9999"}]},
            "de-1-1ss stands on 9999, which is not a hex of the map",
        ),
        (lambda s: {**s, "turn": "1"}, "Expected `int`, got `str` - at `$.turn`"),
    ],
)
def test_a_bad_position_is_one_line(
    position: Path, tmp_path: Path, change: Any, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(change(json.loads(position.read_text()))))
    code, out, err = run(["rules", "options", *ARGS, "--position", bad], capsys)
    assert (code, out, err) == (2, "", f"ardennes: position {bad}: {said}\n")
