"""Playing against the computer in the app (``ardennes --vs-bot``, ``b`` on the start screen):
choosing the side, scenario and level; the computer thinking in a worker and its orders
played out on the map (the order keys dead meanwhile), skipped with Space; ``R`` plays its
turn back; undo never takes back its orders; the game is in the store, resumes against the
computer and verifies with ``ardennes verify``.

``ARDENNES_HOME`` is a temporary folder in every test (``tests/tui/conftest.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.cli.start import run_start
from ardennes_tui.games import hotseat, saves, versus
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.start import StartScreen
from ardennes_tui.screens.start_dialogs import Launch
from ardennes_tui.screens.versus_dialog import VersusDialog
from ardennes_tui.screens.versus_play import VersusPlayScreen
from pbem.store import Store
from rules import record
from tests.kit.app import message, press, run_app_with
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's orders 10 ms apart (a test that wants to see them wait sets more)."""
    monkeypatch.setattr(VersusPlayScreen, "PACE", 0.01)


async def thought(app: ArdennesApp, pilot: Pilot[None]) -> None:
    """Wait until the computer has thought (its worker done, the result taken)."""
    await app.workers.wait_for_complete()
    await pilot.pause()


async def until_idle(app: ArdennesApp, pilot: Pilot[None], screen: VersusPlayScreen) -> None:
    for _ in range(2000):
        if not screen.busy and screen.turn_from is None:
            return
        await thought(app, pilot)
        await pilot.pause(0.02)
    raise AssertionError("the computer never finished its turn")


def test_new_game_sets_up_the_level_and_the_players() -> None:
    game = versus.new_game(1, "allied", 2, "v")
    assert game.board.level == rules.ao.levels.level_for(game.board.scenario, 2, "german")  # type: ignore[arg-type]
    assert game.players["allied"] == rules.Player()
    assert game.players["german"].label == "bot planner/2 level 2"
    vs = versus.opponent_of(game)
    assert vs is not None and (vs.computer, vs.human, vs.level) == ("german", "allied", 2)
    assert vs.board is not game.board and vs.board.level == game.board.level
    assert versus.opponent_of(rules.ao.Game.new(game.board)) is None  # two humans
    with pytest.raises(ValueError, match="scenario 11 does not exist"):
        versus.new_game(11, "german")
    with pytest.raises(ValueError, match="level 5 does not exist"):
        versus.new_game(1, "german", 5)


def test_think_plays_until_the_human_must_act() -> None:
    game = versus.new_game(1, "german", 3, "think")
    vs = versus.opponent_of(game)
    assert vs is not None and versus.to_act(game, vs)  # the Allied set-up comes first
    seen: list[int] = []
    copy = game.copy(vs.board)
    cmds = versus.think(copy, vs, lambda state, n: seen.append(n))
    assert cmds == [rules.ao.EndPhase()] and seen == [1]
    assert game.history == [] and rules.ao.acting_side(copy.state) == "german"


def test_against_the_computer_in_the_app(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = versus.new_game(1, "allied", 2, "app")
    stored = hotseat.StoredGame.new(Store(ardennes_home))
    app = ArdennesApp(game.board.game_map, cursor="4009", game=game, stored=stored)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        assert message(app).startswith(
            "You play the Allied against the computer (bot planner/2 level 2)."
        )
        assert not screen.busy and game.state.phase == "setup_allied"
        # the order keys wait: the orders of its turn stay queued for a long while
        monkeypatch.setattr(VersusPlayScreen, "PACE", 30.0)
        await press(pilot, "e", "e")
        assert game.state.phase != "setup_allied"
        await thought(app, pilot)
        assert screen.busy and screen.queue, "the German turn is queued"
        shown = len(game.history)
        assert message(app).endswith("(Space: skip)")
        await press(pilot, "e", "e", "backspace", "enter")
        assert len(game.history) == shown  # nothing happened
        await press(pilot, "space")  # skip: every order at once
        assert not screen.busy
        assert rules.ao.acting_side(game.state) == "allied" and game.state.turn == 1
        assert game.state.phase == "reinforcement"
        assert screen.last_turn is not None and screen.last_turn[1] == len(game.history)
        n = screen.last_turn[1] - screen.last_turn[0]
        assert message(app).startswith(f"The computer played {n} orders (R plays them back).")
        # undo never takes back the computer's orders
        await press(pilot, "backspace")
        assert message(app) == "The computer's orders cannot be undone"
        assert len(game.history) == screen.last_turn[1]
        # R: its turn step by step, from its first order
        await press(pilot, "R")
        assert isinstance(app.screen, PlaybackScreen)
        assert app.screen.step == screen.last_turn[0] and app.screen.since == screen.last_turn[0]
        await press(pilot, "escape")
        assert app.screen is screen
        # the Allied player-turn: the computer plays the German GT2 after it, paced
        monkeypatch.setattr(VersusPlayScreen, "PACE", 0.01)
        while game.state.turn == 1:
            await press(pilot, "e", "e")
        await until_idle(app, pilot, screen)
        assert game.state.turn == 2 and rules.ao.acting_side(game.state) == "allied"
        assert message(app).startswith("The computer played ")

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await body(pilot)

    asyncio.run(go())
    # the store holds the game: its record names the players and the level, and replays
    rec = record.decode(stored.store.load_local(stored.name))
    assert rec.header.level == game.board.level
    assert rec.header.players == game.players
    assert rec.commands == game.commands


def _played(ardennes_home: Path, turns: int = 1) -> tuple[rules.ao.Game, hotseat.StoredGame]:
    """A game against the computer (the human German, level 4) played by the bots to GT
    ``turns + 1``, in the store."""
    from rules.ao.bots import BotRng, bots_for

    game = versus.new_game(1, "german", 4, "resume")
    bots = bots_for(BotRng(b"resume"))
    while game.state.turn <= turns:
        side = rules.ao.acting_side(game.state)
        assert side is not None
        assert not isinstance(game.push(bots[side].choose(game)), rules.Rejection)
    stored = hotseat.StoredGame.new(Store(ardennes_home))
    stored.save(game)
    return game, stored


def test_resume_goes_on_against_the_computer(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game, stored = _played(ardennes_home)
    resumed, loaded, _ = hotseat.resume(stored.name[:8], Store(ardennes_home))
    assert resumed.players == game.players and resumed.board.level == game.board.level
    assert loaded.opening(resumed).startswith(
        f"Against the computer (bot planner/2 level 4, the Allied): game {stored.name[:8]} "
        f"resumed, {len(game.history)} orders replayed and checked."
    )
    seen: dict[str, object] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        seen["human"] = screen.vs.human
        seen["hash"] = screen.game.state_hash()

    run_app_with(monkeypatch, body)
    assert main(["--resume", stored.name[:8]]) == 0
    assert seen == {"human": "german", "hash": game.state_hash()}
    # the store's record verifies like any other, naming the computer
    capsys.readouterr()
    path = ardennes_home / "game.jsonl"
    path.write_bytes(Store(ardennes_home).load_local(stored.name))
    loaded_game, from_file = saves.load_game(path)  # --load: against the computer too
    vs = versus.opponent_of(loaded_game)
    assert vs is not None and vs.computer == "allied" and vs.level == 4
    assert from_file.opening(loaded_game).startswith(
        "Against the computer (bot planner/2 level 4, the Allied): record game.jsonl loaded, "
    )
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK: record {path}, scenario 1, seeded dice, ")
    assert "German human, Allied bot planner/2 level 4" in out
    assert main(["games"]) == 0
    assert "bot planner/2 level 4 (Allied)" in capsys.readouterr().out


def test_a_decision_of_the_computer_in_the_players_combat(ardennes_home: Path) -> None:
    """The player (German) attacks an immune Allied hex: the computer answers the immunity
    decision at once, and ``R`` still plays back its last turn."""
    from rules.ao.bots import BotRng, bots_for

    game = versus.new_game(1, "german", 3, "d1")
    bots = bots_for(BotRng(b"d1"))
    while not ((d := game.state.combat.pending) and d.kind == "waive_immunity"):
        side = rules.ao.acting_side(game.state)
        assert side is not None and game.state.turn <= 3
        assert not isinstance(game.push(bots[side].choose(game)), rules.Rejection)
    assert game.state.side == "german" and rules.ao.acting_side(game.state) == "allied"
    before = len(game.history)
    app = ArdennesApp(game.board.game_map, cursor="4009", game=game)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        await until_idle(app, pilot, screen)
        assert isinstance(game.commands[before], rules.ao.WaiveImmunity)
        assert rules.ao.acting_side(game.state) == "german"
        assert message(app).startswith("The computer (Allied) decides: ")
        # R plays back its last player-turn, found in the record (not this decision)
        assert screen.last_turn is not None
        assert screen.last_turn == versus.last_turn(game, screen.vs)
        assert game.state_at(screen.last_turn[0]).side == "allied"

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await body(pilot)

    asyncio.run(go())


def test_the_command_line_starts_a_game_against_the_computer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: dict[str, object] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, VersusPlayScreen)
        seen["vs"] = (screen.vs.human, screen.vs.level, screen.game.start.scenario)
        seen["level"] = screen.game.board.level
        await app.workers.wait_for_complete()  # the computer has the Allied set-up

    run_app_with(monkeypatch, body)
    argv = ["--vs-bot", "--side", "german", "--level", "1", "--scenario", "3", "--seed", "x"]
    assert main(argv) == 0
    assert seen["vs"] == ("german", 1, 3)
    level = seen["level"]
    assert isinstance(level, rules.ao.Level) and level.computer == "allied"
    for bad, said in (
        (["--level", "2"], "--level and --bot go with --vs-bot"),
        (["--vs-bot", "--dice", "open"], "--dice and --opponent go with --email new"),
        (["--vs-bot", "--resume"], "--vs-bot starts a new game"),
        (["--vs-bot", "games"], "--vs-bot is a game in the app"),
    ):
        assert main(bad) == 2
        assert said in capsys.readouterr().err


def test_the_start_screen_offers_a_game_against_the_computer(
    ardennes_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launched: list[Launch] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, StartScreen)
        if launched:  # back from the game: quit
            await press(pilot, "q")
            return
        await press(pilot, "b")
        dialog = app.screen
        assert isinstance(dialog, VersusDialog)
        assert str(dialog.query_one("#versus-new-levers", Static).content) == (
            "Level 3: the rules as written."
        )
        await press(pilot, "down", "right", "down", "left")  # Allied, level 2
        assert (dialog.side, dialog.level) == ("allied", 2)
        assert str(dialog.query_one("#versus-new-levers", Static).content) == (
            "Level 2: German accelerated reinforcements."
        )
        await press(pilot, "down", "enter")

    def runner(launch: Launch) -> int:
        launched.append(launch)
        return 0

    run_app_with(monkeypatch, body)
    assert run_start(runner) == 0
    assert launched == [Launch("versus", scenario=1, side="allied", level=2)]


def test_email_new_with_the_computer_as_opponent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ardennes --email new ... --opponent-bot``: ``ardennes bot`` accepts at once (its own
    key and store under the player's home) and plays the Allied set-up; the app opens on the
    player's move."""
    from tests.kit.app import notice_and_message
    from tests.kit.email_app import play_screen, player, run_as

    hans = player(tmp_path / "hans", "hans")

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert screen.session.draft is not None
        assert screen.game.state.phase == "setup_german"
        shown = notice_and_message(app)
        assert "against the computer by email, accepted by ardennes bot" in shown
        assert "Your move (packet 3)" in shown

    ran = run_as(monkeypatch, hans.home, body)
    argv = ["--email", "new", "--side", "german", "--dice", "sealed", "--opponent-bot"]
    assert main(argv) == 0
    assert ran == ["ok"]
    (game_id,) = hans.service.store.game_ids()
    st = hans.service.status(game_id)
    assert st.labels["allied"] == "ardennes bot" and st.packets == 3
    assert Store(hans.home / "bot").packets(game_id) == hans.service.store.packets(game_id)
    capsys.readouterr()
    for bad, said in (
        (["--opponent-bot"], "--opponent-bot goes with --email new"),
        ([*argv[:-1], "--opponent", "x", "--opponent-bot"], "--opponent-bot plays sealed or open"),
        (["--email", "new", "--side", "german", "--dice", "local", "--opponent-bot"], "sealed or"),
    ):
        assert main(bad) == 2
        assert said in capsys.readouterr().err
