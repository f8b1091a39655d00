"""``ardennes map``: text (plain ASCII or ANSI colour) and JSON, on the fixture and real map."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ardennes_tui import cli
from ardennes_tui.cli import map as map_command
from ardennes_tui.rulesets.ao.render import detail
from ardennes_tui.rulesets.ao.render.names import town_abbreviations
from rules.ao.gamemap import GameMap, encode_map
from scenarios import load_map
from tests.kit.maps import fixture_map, fixture_map_data
from tests.kit.realmap import needs_real_map


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    path = tmp_path / "map.json"
    path.write_bytes(encode_map(fixture_map_data()))
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def check_plain_map(out: str, game_map: GameMap) -> None:
    assert out.isascii()
    assert "\x1b" not in out
    lines = out.splitlines()
    assert "Legend" in lines
    abbrev = town_abbreviations(game_map)
    for name, hex_id in game_map.towns().items():
        col, row = int(hex_id[:2]), int(hex_id[2:])
        x, y = detail.origin(col, row)
        short = abbrev[name]
        start = x + 1 + (5 - len(short)) // 2
        assert lines[y][start : start + len(short)] == short, (name, hex_id)
        assert f"{short:<5} " in out  # the town key


def test_plain_map_on_fixture(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["map", "--no-color", "--map-file", str(map_file)], capsys)
    assert (code, err) == (0, "")
    check_plain_map(out, fixture_map())
    assert "Basto Bastogne (0605)" in out


def test_no_color_env_gives_plain(
    map_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = run(["map", "--map-file", str(map_file)], capsys)
    assert code == 0
    check_plain_map(out, fixture_map())


def test_colour_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert map_command.use_colour(None) is True
    assert map_command.use_colour(False) is False
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert map_command.use_colour(None) is False
    assert map_command.use_colour(True) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert map_command.use_colour(None) is False
    assert map_command.use_colour(True) is True  # the flag wins


def test_color_flag_forces_16_colour_ansi(
    map_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run(["map", "--color", "--map-file", str(map_file)], capsys)
    assert code == 0
    assert "\x1b[1;94m~\x1b[0m" in out  # river: bold bright blue
    # Only the 16-colour SGR forms: no 256-colour (38;5) or truecolor (38;2) sequences.
    assert "38;5;" not in out and "38;2;" not in out and "48;5;" not in out


def test_overview_option(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["map", "--overview", "--no-color", "--map-file", str(map_file)], capsys)
    assert code == 0
    assert out.splitlines()[2 + 4].startswith("05 $ + +=+ + B")


def test_json_is_the_compiled_map(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["map", "--json", "--map-file", str(map_file)], capsys)
    assert code == 0
    assert out == encode_map(fixture_map_data()).decode("utf-8")


def test_bad_option_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["map", "--bogus"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err == "ardennes: error: unrecognized arguments: --bogus (see --help)\n"


def test_bad_subcommand_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["map", "--scenario", "x"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "invalid int value: 'x'" in err


@pytest.mark.rule("AO-17.a")
def test_map_draws_the_scenario_setup(capsys: pytest.CaptureFixture[str]) -> None:
    from ardennes_tui.rulesets.ao.render.counters import counter_short
    from scenarios import load_scenario

    scenario = load_scenario(1)
    code, out, _ = run(["map", "--no-color", "--scenario", "1"], capsys)
    assert code == 0 and out.isascii()
    lines = out.splitlines()
    by_id = {u.id: u for u in scenario.units}
    tops: dict[str, str] = {}
    for unit_id, hex_id in sorted(scenario.setup.items()):
        tops.setdefault(hex_id, unit_id)
    assert len(tops) > 40
    for hex_id, unit_id in tops.items():
        x, y = detail.origin(int(hex_id[:2]), int(hex_id[2:]))
        label = counter_short(by_id[unit_id])
        # the top counter's label is drawn in the hex interior, on one of its two body lines
        body = [lines[y][x + 1 : x + 6], lines[y + 1][x + 1 : x + 6]]
        assert any(label in b for b in body), (hex_id, unit_id, label, body)
    # without --scenario no counters are drawn at those hexes
    code, bare, _ = run(["map", "--no-color"], capsys)
    hex_id, unit_id = next(iter(sorted(tops.items())))
    x, y = detail.origin(int(hex_id[:2]), int(hex_id[2:]))
    assert counter_short(by_id[unit_id]) not in bare.splitlines()[y][x + 1 : x + 6]


def test_map_rejects_unknown_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["map", "--scenario", "11"], capsys)
    assert code == 2 and out == ""
    assert err == "ardennes: no scenario 11: choose 1-10\n"


def test_missing_map_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["map", "--map-file", str(tmp_path / "nope.json")], capsys)
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("ardennes: no compiled map at ")


def test_malformed_map_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, _, err = run(["map", "--map-file", str(bad)], capsys)
    assert code == 1 and len(err.splitlines()) == 1 and "malformed map" in err


@needs_real_map
def test_real_map_plain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["map", "--no-color"], capsys)
    assert code == 0
    game_map = load_map()
    check_plain_map(out, game_map)
    for town in ("Bastogne", "St. Vith"):
        assert town in game_map.towns()


@needs_real_map
def test_real_map_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["map", "--json"], capsys)
    assert code == 0
    assert out == encode_map(load_map().data).decode("utf-8")


@needs_real_map
@pytest.mark.rule("AO-12.2D")
@pytest.mark.rule("AO-12.2F")
def test_real_map_graph(capsys: pytest.CaptureFixture[str]) -> None:
    """``--graph``: what tools would otherwise rebuild, each fact checked from the map itself."""
    import json

    from rules import hexgrid

    code, out, _ = run(["map", "--graph"], capsys)
    assert code == 0
    game_map = load_map()
    hexes = {h["id"]: h for h in json.loads(out)["hexes"]}
    assert list(hexes) == sorted(game_map)
    for h, row in hexes.items():
        # neighbours: the on-map hexes one step away, and the relation is symmetric
        assert set(row["neighbours"]) == {n for n in hexgrid.neighbours(h) if n in game_map}
        assert all(h in hexes[n]["neighbours"] for n in row["neighbours"])
        # roads: exactly the hexsides the map says carry a road, both ways
        roads = set(row.get("roads", []))
        assert roads == {n for n in row["neighbours"] if game_map.side(h, n).road}
        assert all(h in hexes[n].get("roads", []) for n in roads)
        # Road Mode crosses a river only by a bridge or a ford on the road (AO-6.5F), and
        # every road hexside that is no unbridged river is open to it
        for n in row["neighbours"]:
            side = game_map.side(h, n)
            bridge = side.crossing == "bridge"
            open_ = (side.road or bridge) and (side.river is None or side.crossing is not None)
            assert (n in row.get("road_mode", [])) == open_
        if h in ("3531", "3432"):  # the Our ford at Roth carries the road: open
            assert {"3531", "3432"} - {h} <= set(row["road_mode"])
    sources = {h: row["source"] for h, row in hexes.items() if "source" in row}
    german = {h for h, s in sources.items() if s == "german"}
    allied = {h for h, s in sources.items() if s == "allied"}
    # German sources: east-edge hexes with a road (AO-12.2D); Allied: edge hexes whose road
    # hexside leads onto the live map (AO-12.2F), each with the live hexes of its exits
    assert german and all(game_map.hex(h).edge == "east" and hexes[h]["roads"] for h in german)
    assert all(hexes[h]["exits"] == ["east"] for h in german)
    # (the source hexes are road exit hexes: in the Allied edge ring, but live, AO-16.H)
    assert allied and all(game_map.hex(h).edge not in (None, "east") for h in allied)
    assert all(game_map.is_exit(h) and not game_map.is_allied_edge(h) for h in allied)
    for h in allied:
        for live in hexes[h]["exits"]:
            assert not game_map.is_allied_edge(live) and game_map.side(h, live).road
    bastogne = game_map.towns()["Bastogne"]
    assert len(hexes[bastogne]["roads"]) >= 4  # the road hub
