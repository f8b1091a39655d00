"""The start screen (``ardennes`` alone, ``ardennes_tui.screens.start``): the games of the store,
Enter opening one, new hot-seat and email games, import, watch, audit, keys and help; and the
command line around it (``ardennes_tui.cli.start``: the game chosen is played, then back)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static, TextArea

from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.cli import start as start_cli
from ardennes_tui.errors import UserError
from ardennes_tui.games import hotseat, saves
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.import_dialog import ImportDialog
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.start import Launch, StartScreen
from ardennes_tui.screens.start_dialogs import (
    AcceptDialog,
    NewEmailDialog,
    ScenarioDialog,
    TextDialog,
)
from pbem import invitations, keys
from pbem.core.identity import KeyIdentity
from pbem.games import Sent, Service
from pbem.store import Store
from scenarios import load_map
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import record_file

pytestmark = needs_real_map

Body = Callable[[Pilot[None], StartScreen], Awaitable[None]]


def run(body: Body, store: Store | None = None, notice: str = "") -> StartScreen:
    screen = StartScreen(store, notice)
    app = ArdennesApp(load_map(), screen=lambda: screen)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await body(pilot, screen)

    asyncio.run(go())
    return screen


def hans() -> KeyIdentity:
    keys.save(keys.generate(), "hans")
    return KeyIdentity(keys.load_key("hans"))


def email_game(me: KeyIdentity) -> Sent:
    return Service(Store()).invite(me, scenario=1, side="german", mode="sealed", opponent="joe")


def hot_seat_game() -> None:
    hotseat.StoredGame(Store(), "sunday").save(saves.new_game(3, "s"))


def table(screen: StartScreen) -> DataTable[str]:
    return screen.query_one("#st-games", DataTable)


# -- the games ---------------------------------------------------------------------------------


def test_no_game_yet_says_how_to_start_one() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        assert table(screen).row_count == 0
        assert "No games yet" in screen.said
        assert screen.query_one("#st-menu", OptionList).has_focus
        await pilot.press("enter")  # the menu: Open game with nothing highlighted
        assert screen.chosen is None

    run(body)


def test_the_games_of_the_store_and_enter_opens_an_email_game() -> None:
    sent = email_game(hans())
    hot_seat_game()

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        rows = [tuple(str(c) for c in table(screen).get_row_at(i)) for i in range(2)]
        assert rows[0][:4] == (sent.game_id[:8], "email", "1", "Allied (them)")
        assert rows[1][:4] == ("sunday", "hot-seat", "3", "GT1 Set-up")
        assert f"Game by email {sent.game_id}" in screen.said and "opponent joe" in screen.said
        await pilot.press("enter")
        assert screen.chosen == Launch("email", name=sent.game_id)
        assert pilot.app.return_code == 0

    run(body)


def test_enter_on_a_hot_seat_game_resumes_it() -> None:
    hot_seat_game()

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        assert "Hot-seat game sunday: scenario 3, GT1 Set-up" in screen.said
        await pilot.press("enter")
        assert screen.chosen == Launch("resume", name="sunday")

    run(body)


# -- new games ---------------------------------------------------------------------------------


def test_n_picks_a_scenario_for_a_new_hot_seat_game() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, ScenarioDialog)
        await pilot.press("down", "down")
        about = str(dialog.query_one("#scenario-about", Static).content)
        assert "German: free set-up" in about  # scenario 3
        await pilot.press("enter")
        assert screen.chosen == Launch("new", scenario=3)

    run(body)


def test_n_then_a_digit_and_escape_changes_nothing() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("n", "escape")
        assert pilot.app.screen is screen and screen.chosen is None
        await pilot.press("n", "0")
        assert screen.chosen == Launch("new", scenario=10)

    run(body)


def test_e_fills_the_invitation_like_email_new() -> None:
    hans()

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("e")
        dialog = pilot.app.screen
        assert isinstance(dialog, NewEmailDialog)
        await pilot.press("right", "down", "right", "down", "right", "right")
        assert (dialog.scenario, dialog.side, dialog.dice, dialog.key) == (
            2,
            "allied",
            "local",
            "hans",
        )
        await pilot.press("left")
        assert dialog.dice == "open"
        await pilot.press("tab")
        assert dialog.query_one(Input).has_focus
        await pilot.press(*"joe@example.org", "enter")
        assert screen.chosen == Launch(
            "email-new", scenario=2, side="allied", dice="open", opponent="joe@example.org",
            key="hans",
        )  # fmt: skip

    run(body)


def test_e_without_a_key_says_how_to_make_one() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("e")
        dialog = pilot.app.screen
        assert isinstance(dialog, NewEmailDialog)
        await pilot.press("down", "down", "down", "down", "enter")
        error = str(dialog.query_one("#email-new-error", Static).content)
        assert "ardennes keygen NAME" in error
        assert screen.chosen is None

    run(body)


# -- import, watch, audit, keys, help --------------------------------------------------------------


def test_i_imports_a_pasted_acceptance_and_reads_the_store_again(tmp_path: Path) -> None:
    sent = email_game(hans())
    keys.save(keys.generate(), "joe", home=tmp_path / "joe")
    joe = KeyIdentity(keys.load_key("joe", home=tmp_path / "joe"))
    accepted = Service(Store(tmp_path / "joe")).accept(joe, sent.text)

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        assert "1 packet " in screen.said
        await pilot.press("i")
        dialog = pilot.app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(TextArea).text = accepted.text
        await pilot.press("ctrl+s")
        assert any("accepted" in line for line in dialog.report)
        await pilot.press("escape")
        assert pilot.app.screen is screen
        assert "Imported" in screen.said
        await pilot.press("up")
        assert "2 packets" in screen.said

    run(body)


def test_w_plays_back_a_record_file_and_escape_comes_back(tmp_path: Path) -> None:
    path = record_file(tmp_path)

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("w")
        await pilot.press(*str(path), "enter")
        playback = pilot.app.screen
        assert isinstance(playback, PlaybackScreen) and not playback.alone
        assert playback.step == 0 and playback.last > 20
        await pilot.press("escape")
        assert pilot.app.screen is screen

    run(body)


def test_w_on_an_empty_line_plays_back_the_highlighted_game() -> None:
    hot_seat_game()

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("w", "enter")
        playback = pilot.app.screen
        assert isinstance(playback, PlaybackScreen)
        assert playback.game.start.scenario == 3 and playback.last == 0

    run(body)


def test_w_of_something_unreadable_says_why() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("w", "enter")  # nothing highlighted: an empty line is refused
        assert "Type a file" in str(pilot.app.screen.query_one("#path-error", Static).content)
        await pilot.press(*"nowhere.txt", "enter")
        assert pilot.app.screen is screen
        assert screen.said.startswith("Cannot watch: nowhere.txt: no such file")

    run(body)


def test_a_audits_the_highlighted_game_with_my_key_marked() -> None:
    sent = email_game(hans())

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("a", "enter")
        audit = pilot.app.screen
        assert isinstance(audit, AuditScreen)
        assert audit.view.ok and audit.view.title.startswith(f"Game {sent.game_id[:8]}")
        assert audit.view.keys[0].endswith("(yours: hans)")
        await pilot.press("q")
        assert pilot.app.screen is screen and pilot.app.return_code is None

    run(body)


def test_k_lists_my_keys_and_the_keys_pinned_per_game() -> None:
    me = hans()
    sent = email_game(me)

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("k")
        dialog = pilot.app.screen
        assert isinstance(dialog, TextDialog)
        text = dialog.text
        assert f"hans (not encrypted)\n    {me.fingerprint}" in text
        assert f"{sent.game_id[:8]}  you play the German, opponent joe" in text
        assert f"German  {me.fingerprint}  yours" in text
        assert "Allied  -" in text

    run(body)


def test_help_and_the_menu_and_q() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        await pilot.press("question_mark")
        dialog = pilot.app.screen
        assert isinstance(dialog, TextDialog) and "ardennes --email GAME" in dialog.text
        await pilot.press("escape")
        menu = screen.query_one("#st-menu", OptionList)
        assert menu.has_focus
        await pilot.press("down", "down", "down", "down", "enter")  # Watch a record
        assert pilot.app.screen.__class__.__name__ == "PathDialog"
        await pilot.press("escape", "q")
        assert screen.chosen is None and pilot.app.return_code == 0

    run(body)


def test_a_notice_from_the_command_line_is_shown() -> None:
    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        assert screen.said == "Not opened: game x is open elsewhere"

    run(body, notice="Not opened: game x is open elsewhere")


# -- an invitation kept by an import ---------------------------------------------------------------


def invited(tmp_path: Path) -> tuple[Sent, KeyIdentity]:
    """Hans (his own key and store) invites the player to a sealed game of scenario 1, Hans
    German; the player (the test's store) has one key, ``joe``. Nothing is imported yet."""
    keys.save(keys.generate(), "hans", home=tmp_path / "hans")
    hans = KeyIdentity(keys.load_key("hans", home=tmp_path / "hans"))
    keys.save(keys.generate(), "joe")
    service = Service(Store(tmp_path / "hans"))
    return service.invite(hans, scenario=1, side="german", mode="sealed", opponent="joe"), hans


def kept_at() -> str:
    """The LAST column of the kept invitation: when the import kept it (MM-DD HH:MM, UTC)."""
    (kept,) = invitations.kept(Store())
    return f"{kept.kept_at[5:10]} {kept.kept_at[11:16]}"


def test_an_invitation_imported_is_a_row_and_enter_accepts_it(tmp_path: Path) -> None:
    """Issue 21, item 7: an invitation imported from a mailbox (no file to give ``ardennes
    accept``) is kept in the store; the start screen lists it as a row of its own, says what it
    proposes and who sent it, and Enter accepts it (a dialog: with which key, the opponent's
    address)."""
    import mailbox
    from email.message import EmailMessage

    sent, hans = invited(tmp_path)
    short = sent.game_id[:8]
    mail = EmailMessage()
    mail["From"], mail["Subject"] = "hans@example.org", f"Ardennes {short}: invitation"
    mail.set_content(sent.text)
    box = tmp_path / "inbox.mbox"
    mbox = mailbox.mbox(box)
    mbox.add(mail)
    mbox.close()

    async def body(pilot: Pilot[None], screen: StartScreen) -> None:
        assert table(screen).row_count == 0
        await pilot.press("i")
        dialog = pilot.app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(Input).value = str(box)  # the mailbox, as ardennes import reads it
        await pilot.press("ctrl+s")
        assert any(f"kept in the store: accept it with: ardennes accept {short}" in line
                   for line in dialog.report), dialog.report  # fmt: skip
        await pilot.press("escape")
        assert table(screen).row_count == 1
        row = tuple(str(c) for c in table(screen).get_row_at(0))
        assert row == (short, "invite", "1", "accept it", kept_at())
        assert screen.said == (
            f"Invitation {short} from {hans.fingerprint}: scenario 1, you would play the "
            f"Allied, sealed dice. Enter accepts it (in a shell: ardennes accept {short})."
        )
        # Enter: what is accepted, with which key; Escape changes nothing
        table(screen).focus()
        await pilot.press("enter")
        accept = pilot.app.screen
        assert isinstance(accept, AcceptDialog)
        about = str(accept.query_one("#accept-about", Static).content)
        assert about == (
            f"Scenario 1, you would play the Allied, sealed dice. The inviter's key: "
            f"{hans.fingerprint} (compare it with him out of band)."
        )
        options = accept.query_one(OptionList)
        assert [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]\
            == ["> Accept with your key joe"]  # fmt: skip
        await pilot.press("escape")
        assert pilot.app.screen is screen and screen.chosen is None
        await pilot.press("enter", "tab", *"hans@example.org", "enter")
        assert screen.chosen == Launch(
            "email-accept", name=sent.game_id, key="joe", opponent="hans@example.org"
        )

    run(body)


def test_accepting_an_invitation_from_the_start_screen_opens_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole way, as ``ardennes`` alone runs it: the start screen, Enter twice on the kept
    invitation, the acceptance written and signed with the key chosen (the app opens on its
    send screen, then on the Allied set-up), and back on the start screen the invitation is
    a game by email with two packets, and no longer an invitation."""
    from ardennes_tui.rulesets.ao.screens.email_play import EmailPlayScreen
    from ardennes_tui.screens.send import SendScreen
    from tests.kit.app import message

    monkeypatch.setenv("ARDENNES_CONFIG", str(tmp_path / "config.toml"))
    sent, hans = invited(tmp_path)
    gid, short = sent.game_id, sent.game_id[:8]
    assert Service(Store()).import_text(sent.text).items[0].outcome == "invitation"
    seen: list[str] = []

    async def start(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert tuple(str(c) for c in table(screen).get_row_at(0))[:4] == (
            short, "invite", "1", "accept it",
        )  # fmt: skip
        await pilot.press("enter", "enter")
        seen.append("start")

    async def game(app: ArdennesApp, pilot: Pilot[None]) -> None:
        send = app.screen
        assert isinstance(send, SendScreen) and send.seq == 1
        assert send.heading.startswith(
            f"Game {short} accepted (scenario 1, you play the Allied, sealed dice; opponent's "
            f"key {hans.fingerprint}"
        )
        await pilot.press("escape")
        assert isinstance(app.screen, EmailPlayScreen)
        assert "Your move (packet 2)" in message(app)
        seen.append("game")

    async def back(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert table(screen).row_count == 1
        assert tuple(str(c) for c in table(screen).get_row_at(0))[:4] == (
            short, "email", "1", "you",
        )  # fmt: skip
        assert screen.said.startswith(
            f"Game by email {gid}: scenario 1, you play the Allied, opponent "
            f"{hans.fingerprint}, sealed dice, 2 packets [Allied set-up]."
        )
        await pilot.press("q")
        seen.append("back")

    bodies = [start, game, back]

    def fake_run(app: ArdennesApp) -> None:
        body = bodies.pop(0)

        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await body(app, pilot)

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", fake_run)
    assert start_cli.run_start() == 0
    assert seen == ["start", "game", "back"]
    assert Store().count(gid) == 2 and invitations.kept(Store()) == []


# -- the command line ------------------------------------------------------------------------------


def test_run_start_plays_the_chosen_game_then_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = [Launch("resume", name="sunday"), Launch("new", scenario=3), None]
    notices: list[str] = []

    def choose(notice: str = "", store: Store | None = None) -> Launch | None:
        notices.append(notice)
        return chosen.pop(0)

    played: list[Launch] = []

    def runner(launch: Launch) -> int:
        played.append(launch)
        if launch.kind == "resume":
            raise UserError("hot-seat game sunday is open in another process", 1)
        return 0

    monkeypatch.setattr(start_cli, "choose", choose)
    assert start_cli.run_start(runner) == 0
    assert played == [Launch("resume", name="sunday"), Launch("new", scenario=3)]
    assert notices == ["", "Not opened: hot-seat game sunday is open in another process", ""]


def test_a_launch_runs_what_the_command_line_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from ardennes_tui.cli import play

    apps: list[tuple[tuple[object, ...], dict[str, object]]] = []
    emails: list[argparse.Namespace] = []

    def run_app(*a: object, **k: object) -> int:
        apps.append((a, k))
        return 0

    def run_email(args: argparse.Namespace) -> int:
        emails.append(args)
        return 0

    monkeypatch.setattr(play, "run_app", run_app)
    monkeypatch.setattr(play, "run_email", run_email)
    start_cli.play(Launch("new", scenario=4))
    start_cli.play(Launch("resume", name="sunday"))
    start_cli.play(Launch("email", name="ab" * 16))
    start_cli.play(Launch("email-new", scenario=2, side="allied", dice="open", key="hans"))
    start_cli.play(Launch("email-accept", name="cd" * 16, key="joe", opponent="hans@x.org"))
    assert apps == [((4,), {}), ((), {"resume": "sunday"})]
    email, new, accept = emails
    assert (accept.email, accept.key, accept.opponent, accept.side, accept.dice) == (
        ["accept", "cd" * 16], "joe", "hans@x.org", None, None,
    )  # fmt: skip
    assert (email.email, email.key, email.side, email.passphrase_file) == (
        ["ab" * 16], None, None, None,
    )  # fmt: skip
    assert (new.email, new.scenario, new.side, new.dice, new.opponent, new.key) == (
        ["new"], 2, "allied", "open", None, "hans",
    )  # fmt: skip


def test_ardennes_alone_opens_the_start_screen_and_options_start_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ardennes_tui.cli import play

    seen: list[object] = []

    def run_start() -> int:
        seen.append("start")
        return 0

    def run_app(*a: object, **k: object) -> int:
        seen.append((a, k))
        return 0

    monkeypatch.setattr(start_cli, "run_start", run_start)
    monkeypatch.setattr(play, "run_app", run_app)
    assert main([]) == 0
    assert main(["--scenario", "3"]) == 0
    assert main(["--seed", "x"]) == 0
    assert seen == ["start", ((3, None), {"seed": None, "resume": None}),
                    ((1, None), {"seed": "x", "resume": None})]  # fmt: skip


def test_choose_runs_the_start_screen_app(monkeypatch: pytest.MonkeyPatch) -> None:
    hot_seat_game()

    def fake_run(app: ArdennesApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("enter")

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", fake_run)
    assert start_cli.choose() == Launch("resume", name="sunday")
