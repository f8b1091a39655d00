"""Hot-seat games live in the store (``ardennes_tui.games.hotseat``): the record is written after
every accepted command (undo too) and replays to the app's state; quitting and ``ardennes
--resume`` go on in the same phase; a game open in another process is refused in one line;
``s`` says where the game is and ``s`` again exports a copy, never over another file.

``ARDENNES_HOME`` is a temporary folder in every test (``tests/tui/conftest.py``)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.cli.play import run_app
from ardennes_tui.games import hotseat, saves
from ardennes_tui.modes import ReinforcementMode
from ardennes_tui.present import game_view
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.map_view import MapView
from pbem.store import Store
from rules import record
from scenarios import load_board
from tests.kit.app import message, press, run_app_with
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map

ROOT = Path(__file__).resolve().parents[2]


def in_store(stored: hotseat.StoredGame, game: rules.ao.Game) -> rules.ao.Game:
    """The store's record of ``stored`` replayed (checked): the same commands and state as
    ``game``."""
    rec = record.decode(stored.store.load_local(stored.name))
    replayed = rules.ao.Game.replay(rec, load_board(rec.header.scenario))
    assert replayed.ok, replayed.error
    assert rec.commands == game.commands
    assert replayed.game.state_hash() == game.state_hash()
    return replayed.game


def test_every_command_and_undo_is_in_the_store(ardennes_home: Path) -> None:
    game = saves.new_game(1, "store")
    stored = hotseat.StoredGame.new(Store(ardennes_home))
    app = ArdennesApp(game.board.game_map, cursor="4009", game=game, stored=stored)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.stored is stored
        in_store(stored, game)  # from the start: no command yet
        for phase in ("setup_german", "reinforcement"):
            await press(pilot, "e", "e")
            assert game.state.phase == phase
            in_store(stored, game)
        # a placement is in the store at once, and so is its undo
        assert isinstance(screen.mode, ReinforcementMode)
        entry = sorted(screen.mode.highlight())[0]
        screen.query_one(MapView).cursor = entry
        await press(pilot, "enter")
        assert isinstance(game.commands[-1], rules.ao.Place)
        assert len(in_store(stored, game).commands) == 3
        await press(pilot, "backspace")
        assert len(game.commands) == 2
        assert len(in_store(stored, game).commands) == 2

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await body(pilot)

    asyncio.run(go())
    assert [g.name for g in stored.store.list_local()] == [stored.name]


def test_quit_and_resume_in_the_same_phase(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``ardennes --seed 7``: both set-ups accepted, then ``q``; ``ardennes --resume`` (the
    most recent game) and ``--resume NAME`` (a start of it) open it in the same phase, with
    its dice; ``s`` names it, ``s`` again exports a copy in the working directory."""
    monkeypatch.chdir(tmp_path)
    seen: dict[str, object] = {}

    async def first(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.stored is not None
        await press(pilot, "e", "e", "enter", "e", "e")  # Enter: the hand-over screen
        seen["summary"] = game_view.summary(screen.game)
        seen["name"] = screen.stored.name
        seen["hash"] = screen.game.state_hash()
        await press(pilot, "q")

    run_app_with(monkeypatch, first)
    assert run_app(1, seed="7") == 0
    name = str(seen["name"])
    assert seen["summary"] == "GT1 16 Dec | German | Reinforcement | VP German 0, Allied 0"
    assert [g.name for g in Store(ardennes_home).list_local()] == [name]

    async def again(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.stored is not None
        assert screen.stored.name == name and screen.game.state_hash() == seen["hash"]
        assert game_view.summary(screen.game) == seen["summary"]
        assert screen.game.dice_spec.text == "7" and screen.game.players == saves.HOT_SEAT
        assert message(app).startswith(
            f"Hot-seat game {name[:8]} resumed: 2 orders replayed and checked. Dice seed 7. "
        )
        await press(pilot, "s")
        assert message(app) == (
            f"Saved in the store as {name[:8]} after every order (ardennes --resume "
            f"{name[:8]}); s again exports a copy to ardennes-s1.jsonl"
        )
        assert Path("ardennes-s1.jsonl").exists() == ("resumed" in seen)  # not written yet
        await press(pilot, "s")
        assert message(app) == (
            "Saved 2 orders to ardennes-s1.jsonl (ardennes --load ardennes-s1.jsonl)"
        )
        seen["resumed"] = True

    run_app_with(monkeypatch, again)
    for argv in (["--resume"], ["--resume", name[:5]], ["--resume", name]):
        n = len(seen)
        assert main(argv) == 0 and seen["resumed"] and len(seen) == n + (n == 3)
    exported = record.decode(Path("ardennes-s1.jsonl").read_bytes())
    assert exported.commands == (rules.ao.EndPhase(), rules.ao.EndPhase())
    assert [g.name for g in Store(ardennes_home).list_local()] == [name]


def test_load_goes_on_in_the_store_and_never_writes_the_file(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    game = saves.new_game(1, "loaded")
    assert not isinstance(game.push(rules.ao.EndPhase()), rules.Rejection)
    log = Path("ardennes-s1.jsonl")
    saves.save_game(game, log)
    before = log.read_bytes()

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.stored is not None
        assert screen.save_path == Path("ardennes-s1-2.jsonl")  # never the loaded file
        await press(pilot, "e", "e")
        in_store(screen.stored, screen.game)
        await press(pilot, "s", "s")
        assert message(app).startswith("Saved 2 orders to ardennes-s1-2.jsonl")

    run_app_with(monkeypatch, body)
    assert main(["--load", str(log)]) == 0
    assert log.read_bytes() == before
    (local,) = Store(ardennes_home).list_local()
    rec = record.decode(Store(ardennes_home).load_local(local.name))
    assert rec.commands == (rules.ao.EndPhase(), rules.ao.EndPhase())


def test_resume_refuses_an_edited_record_and_unknown_names(
    ardennes_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def run(app: ArdennesApp) -> None:
        raise AssertionError("the app must not start")

    monkeypatch.setattr(ArdennesApp, "run", run)
    store = Store(ardennes_home)
    assert main(["--resume"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"ardennes: no hot-seat game in the store ({store.local_dir}): ardennes starts one\n"
    )
    game = saves.new_game(1, "edited")
    for _ in range(2):
        assert not isinstance(game.push(rules.ao.EndPhase()), rules.Rejection)
    lines = record.encode(game.record()).splitlines()
    edited = msgspec.json.decode(lines[2])  # the second command, edited by hand
    edited["hash"] = "0" * 64
    lines[2] = msgspec.json.encode(edited)
    store.save_local("sunday", b"\n".join(lines) + b"\n")
    store.save_local("saturday", record.encode(game.record()))
    for argv in (["--resume", "sunday"], ["--resume", "s"], ["--resume", "x"]):
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith("ardennes: ")
    assert main(["--resume", "sunday"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ardennes: hot-seat game sunday: command 1 (end_phase) diverges: ")
    assert err.rstrip().endswith("where the record has 0000000000000000")
    assert main(["--resume", "s"]) == 1
    assert "2 hot-seat games in the store with a name starting 's'" in capsys.readouterr().err
    assert main(["--resume", "x"]) == 1
    assert "no hot-seat game in the store with a name starting 'x'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:  # one or the other
        main(["--resume", "sa", "--load", "x.jsonl"])
    assert exc.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_a_game_open_in_another_process_is_refused_in_one_line(
    ardennes_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = saves.new_game(1, "locked")
    stored = hotseat.StoredGame.new(Store(ardennes_home))
    stored.save(game)
    holder = (
        "import sys; from pbem.store import Store; "
        f"s = Store(); cm = s.local_session({stored.name!r}); cm.__enter__(); "
        "print('holding', flush=True); sys.stdin.read()"
    )
    env = {**os.environ, "ARDENNES_HOME": str(ardennes_home), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", holder],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    ran: list[bool] = []
    monkeypatch.setattr(ArdennesApp, "run", lambda app: ran.append(True))
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "holding\n"
        assert main(["--resume", stored.name[:8]]) == 1
        out, err = capsys.readouterr()
        assert out == "" and ran == []
        assert err == (
            f"ardennes: hot-seat game {stored.name[:8]} is open in another process: "
            "quit it there first\n"
        )
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=10)
    assert main(["--resume", stored.name[:8]]) == 0 and ran == [True]  # free again


def test_s_never_overwrites_another_game_or_file(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two games in the store never share a name; the export skips a file that is not a
    record and another game's record."""
    monkeypatch.chdir(tmp_path)
    Path("ardennes-s1.jsonl").write_text("my notes\n")
    other = saves.new_game(1, "other")
    saves.save_game(other, Path("ardennes-s1-2.jsonl"))
    names: list[str] = []
    said: list[str] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.stored is not None
        names.append(screen.stored.name)
        await press(pilot, "e", "e", "enter", "s", "s")  # Enter: the hand-over screen
        said.append(message(app))

    run_app_with(monkeypatch, body)
    assert run_app(1, seed="a") == 0
    assert run_app(1, seed="b") == 0
    assert len(set(names)) == 2
    assert said == [
        f"Saved 1 orders to ardennes-s1-{k}.jsonl (ardennes --load ardennes-s1-{k}.jsonl)"
        for k in (3, 4)
    ]
    store = Store(ardennes_home)
    assert sorted(g.name for g in store.list_local()) == sorted(names)
    seeds = {record.decode(store.load_local(n)).header.dice.text for n in names}
    assert seeds == {"a", "b"}
    assert Path("ardennes-s1.jsonl").read_text() == "my notes\n"
    assert record.decode(Path("ardennes-s1-2.jsonl").read_bytes()).header.dice.text == "other"
    # the second game's export went to a file of its own too
    assert record.decode(Path("ardennes-s1-4.jsonl").read_bytes()).header.dice.text == "b"


def test_games_lists_hot_seat_games_and_how_to_resume(
    ardennes_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored = hotseat.StoredGame.new(Store(ardennes_home))
    stored.save(saves.new_game(2, "listed"))
    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{stored.name[:8]} ") and " 2 " in line for line in out)
    assert " ".join(out[-2:]) == (
        "Hot-seat games: ardennes --resume NAME (a start of the name will do; "
        "--resume alone: the most recent)"
    )
