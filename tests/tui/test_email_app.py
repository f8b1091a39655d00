"""Playing by email in the app (``ardennes --email GAME``, ``ardennes_tui.screens.email_play``):
two players with their own stores (``ARDENNES_HOME``) play a sealed game; the app plays on the
next packet's draft, seals it, and the send screen's text is what the opponent imports; the
import dialog reads pasted packets; a wrong key is refused in one line before the app starts.
"""

from __future__ import annotations

import asyncio
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.games.email_session import EmailSession, save_text
from ardennes_tui.screens.email_play import EmailPlayScreen
from ardennes_tui.screens.import_dialog import ImportDialog
from ardennes_tui.screens.orders import OrdersScreen
from ardennes_tui.screens.send import SendScreen
from ardennes_tui.widgets.text_box import TextBox
from pbem import drafts, keys
from pbem.drafts import SavedDraft
from rules.ao.bots import BotRng, bots_for
from tests.kit.app import message, press
from tests.kit.email_app import allied_set_up, new_match, play_screen, player, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def test_the_german_plays_a_packet_and_the_allied_imports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    monkeypatch.chdir(tmp_path)
    sent_text: list[str] = []

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert "Your move (packet 3)" in message(app)
        assert screen.game.state.phase == "setup_german"
        # A refusal of the protocol or the rules is one line, nothing changes.
        assert screen.play(rules.ao.ResolveAttacks()) is None
        assert message(app)
        await press(pilot, "O", "end", "enter")  # standing orders (Give), then undo them
        assert screen.session.draft is not None and len(screen.session.draft.steps) == 1
        await press(pilot, "backspace")
        assert message(app) == "Undone: StandingOrders"
        assert screen.session.draft is not None and screen.session.draft.steps == []
        await press(pilot, "e", "e")  # accept the German set-up
        assert screen.game.state.phase != "setup_german"
        assert screen.session.draft is not None and len(screen.session.draft.steps) == 1
        # x before the packet is complete: it says so.
        await press(pilot, "x")
        assert "not complete" in message(app)
        bots = bots_for(BotRng(b"email-app"))
        session = screen.session
        if session.game.state.combat.orders("german") is None:
            assert screen.play(rules.ao.StandingOrders(side="german", advance="strongest"))
        while not session.ended():
            cmd = bots["german"].choose(session.game)
            if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
                break  # sealed: the batch goes to the opponent for his reply
            assert screen.play(cmd) is not None, (cmd, message(app))
        await pilot.pause()
        assert "x seals and sends" in message(app)
        seq = session.draft.body.seq if session.draft else -1
        await press(pilot, "x")
        assert "again" in message(app)
        await press(pilot, "x")
        send = app.screen
        assert isinstance(send, SendScreen)
        assert send.seq == seq == 3
        assert "BEGIN ARDENNES" in send.query_one(TextArea).text.upper()
        await press(pilot, "f")
        assert send.saved == tmp_path / f"ardennes-{match.game_id[:8]}-3.txt"
        assert send.result.startswith("Saved to")
        await press(pilot, "c")
        assert send.result.startswith("Copied")
        await press(pilot, "m")
        assert "smtp" in send.result.lower()
        sent_text.append(send.text)
        await press(pilot, "escape")
        # Not our move any more: the stored game, read-only, and who we wait for.
        assert play_screen(app).session.draft is None
        assert "waiting for" in message(app)
        await press(pilot, "e")
        assert "waiting for" in message(app)

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert match.german.service.store.count(match.game_id) == 4
    saved = (tmp_path / f"ardennes-{match.game_id[:8]}-3.txt").read_text()
    assert saved == sent_text[0]

    report = match.allied.service.import_text(sent_text[0])
    assert report.ok and [i.outcome for i in report.accepted] == ["accepted"]

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        # His move: sealed dice, the German attacks wait for his reply (standing orders).
        dialog = app.screen
        assert isinstance(dialog, OrdersScreen)
        assert dialog.side == "allied"
        await press(pilot, "escape")
        screen = play_screen(app)
        assert screen.session.kind == "reply"
        assert "Your reply is due" in message(app)

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_a_reply_is_the_standing_orders_dialog_then_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    g = match.german
    session = EmailSession(g.service, match.game_id, g.key)
    bots = bots_for(BotRng(b"email-app"))
    assert session.draft is not None
    session.push(rules.ao.StandingOrders(side="german", advance="strongest"))
    while not session.ended():
        cmd = bots["german"].choose(session.game)
        if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
            break  # sealed: the batch goes to the opponent for his reply
        assert not isinstance(session.push(cmd), str)
    _, sent = session.seal()
    assert match.allied.service.import_text(sent.text).ok
    assert match.allied.service.status(match.game_id).expects == "reply"
    monkeypatch.chdir(tmp_path)

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, OrdersScreen)
        assert app.screen.never_ask  # by email: no setting asks, the orders are not cleared
        await press(pilot, "escape")
        assert "Your reply is due" in message(app)
        offered = [c.title for c in play_screen(app).palette_commands()]
        assert offered[0] == "Give your standing orders and send the reply"
        await press(pilot, "x")
        assert isinstance(app.screen, OrdersScreen)
        await press(pilot, "enter")  # Retreat: engine stays (no ask by email)
        await press(pilot, "end", "enter")  # Give (the last line: no Clear by email)
        assert isinstance(app.screen, SendScreen), message(app)
        assert app.screen.seq == 4
        await press(pilot, "escape")
        assert "waiting for" in message(app)
        # not his move: the palette offers the view and import, no order
        commands = play_screen(app).palette_commands()
        assert not [c.title for c in commands if c.order]
        assert "Import your opponent's packets" in [c.title for c in commands]
        assert "Go to a hex or a town" in [c.title for c in commands]

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert match.allied.service.store.count(match.game_id) == 5

    # The German imports the reply: his resolution packet, r resolves the batch (the dice of
    # the batch come from both players' links and the reply).
    assert match.german.service.import_text(match.allied.service.export(match.game_id)).ok

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert screen.session.kind == "resolution"
        assert "resolve the attacks (r)" in message(app)
        await press(pilot, "x")
        assert "not complete" in message(app)
        await press(pilot, "r")
        assert screen.session.draft is not None
        assert isinstance(screen.session.draft.steps[-1].command, rules.ao.ResolveAttacks)
        session = screen.session
        while not session.ended():
            cmd = bots["german"].choose(session.game)
            if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
                break  # sealed: the batch goes to the opponent for his reply
            assert screen.play(cmd) is not None, (cmd, message(app))
        await press(pilot, "x", "x")
        assert isinstance(app.screen, SendScreen)
        assert app.screen.seq == 5

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert match.allied.service.import_text(match.german.service.export(match.game_id)).ok


def test_the_import_dialog_reads_a_pasted_packet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, setup = allied_set_up(tmp_path)
    german = match.german

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert screen.session.draft is None
        assert "waiting for the allied player" in message(app)
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        await press(pilot, "ctrl+s")
        assert len(dialog.report) == 1
        assert dialog.report[0].startswith("Paste the armoured text, or give a file (no [mailbox]")
        dialog.query_one(TextArea).text = "no packet here"
        await press(pilot, "ctrl+s")
        assert len(dialog.report) == 1
        dialog.query_one(TextArea).text = setup
        await press(pilot, "ctrl+s")
        assert any("accepted; your move" in line for line in dialog.report), dialog.report
        assert "accepted" in dialog.query_one("#import-report", TextBox).source
        await press(pilot, "escape")
        screen = play_screen(app)
        assert screen.session.draft is not None
        assert screen.game.state.phase == "setup_german"
        assert "Your move" in message(app)

    ran = run_as(monkeypatch, german.home, body)
    assert main(["--email", match.game_id]) == 0
    assert ran == ["ok"]


def test_the_import_dialog_reads_the_config_mailbox_when_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, setup = allied_set_up(tmp_path)
    german = match.german
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    msg = EmailMessage()
    msg["From"] = "joe@example.org"
    msg["Subject"] = f"Ardennes {match.game_id[:8]}: packet 2"
    msg.set_content(setup)
    box.add(msg)
    box.close()
    (german.home / "config.toml").write_text(f'[mailbox]\npath = "{box_path}"\n')

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert play_screen(app).session.draft is None
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        await press(pilot, "ctrl+s")  # no path, nothing pasted: the [mailbox]
        assert any("accepted; your move" in line for line in dialog.report), dialog.report
        await press(pilot, "escape")
        assert play_screen(app).session.draft is not None
        assert "Imported 1 new order: R plays it back." in message(app)

    ran = run_as(monkeypatch, german.home, body)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_email_new_and_accept_open_the_send_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hans = player(tmp_path / "hans", "hans")
    joe = player(tmp_path / "joe", "joe")
    monkeypatch.chdir(tmp_path)
    invitation: list[Path] = []

    async def invite(app: ArdennesApp, pilot: Pilot[None]) -> None:
        send = app.screen
        assert isinstance(send, SendScreen)
        assert send.seq == 0
        assert send.heading.startswith("Invitation to game")
        assert "you play the German, sealed dice" in send.heading
        assert "BEGIN ARDENNES" in send.query_one(TextArea).text.upper()
        await press(pilot, "f")
        assert send.saved is not None
        invitation.append(send.saved)
        await press(pilot, "escape")
        assert play_screen(app).session.draft is None
        assert "waiting for" in message(app)

    ran = run_as(monkeypatch, hans.home, invite)
    argv = ["--email", "new", "--scenario", "1", "--side", "german", "--dice", "sealed"]
    assert main([*argv, "--opponent", "joe@example.org"]) == 0
    assert ran == ["ok"]
    (game_id,) = hans.service.store.game_ids()
    assert hans.service.status(game_id).labels["allied"] == "joe@example.org"

    async def accept(app: ArdennesApp, pilot: Pilot[None]) -> None:
        send = app.screen
        assert isinstance(send, SendScreen)
        assert send.seq == 1
        assert send.heading.startswith(f"Game {game_id[:8]} accepted")
        assert "you play the Allied" in send.heading
        hans.service.import_text(send.text)
        await press(pilot, "escape")
        assert "Your move (packet 2)" in message(app)

    ran = run_as(monkeypatch, joe.home, accept)
    assert main(["--email", "accept", str(invitation[0])]) == 0
    assert ran == ["ok"]
    assert hans.service.store.count(game_id) == 2
    assert joe.service.store.count(game_id) == 2

    # Every problem is one line, before the app starts.
    capsys.readouterr()
    for argv, code, said in [
        (["--email", "accept", str(invitation[0])], 1, "already in the store"),
        (["--email", "accept", str(tmp_path / "none.txt")], 2, "cannot read the invitation"),
        (["--email", "accept"], 2, "--email accept takes one FILE"),
        (["--email", "new", "--side", "german"], 2, "--email new needs --side"),
        (["--email", "new", "--side", "german", "--dice", "open", "--scenario", "99"], 1, ""),
        (["--email", game_id[:8], "--dice", "open"], 2, "--dice goes with --email new"),
        (["--side", "german"], 2, "go with --email new"),
    ]:
        assert main(argv) == code, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, (argv, err)
    assert ran == ["ok"]


def test_a_key_not_pinned_for_our_side_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    match = new_match(tmp_path)
    keys.save(keys.generate(), "other", home=match.german.home)
    ran = run_as(monkeypatch, match.german.home, lambda app, pilot: asyncio.sleep(0))
    assert main(["--email", match.game_id[:8], "--key", "other"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "is not the german key of game" in err
    assert ran == []
    assert main(["--email", "ffff"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_undo_rebuilds_the_draft_without_the_last_command(tmp_path: Path) -> None:
    match = new_match(tmp_path)
    session = EmailSession(match.german.service, match.game_id, match.german.key)
    assert session.undo() == "Nothing to undo in this packet"
    start = session.game.state_hash()
    orders = rules.ao.StandingOrders(side="german", advance="strongest")
    assert not isinstance(session.push(orders), str)
    assert not isinstance(session.push(rules.ao.EndPhase()), str)
    assert isinstance(session.undo(), str)  # never back over an end of phase
    assert session.draft is not None and len(session.draft.steps) == 2
    before = session.game.state_hash()
    assert session.refresh() == "Restored your 2 unsent orders of packet 3."  # saved: both back
    assert session.draft is not None and len(session.draft.steps) == 2
    assert session.game.state_hash() == before
    assert session.draft is not None
    assert drafts.discard(match.german.service.store, match.game_id, SavedDraft.of(session.draft))
    assert session.refresh() == ""  # nothing saved: a fresh draft
    assert not isinstance(session.push(orders), str)
    assert session.undo() == orders
    assert session.draft is not None and session.draft.steps == []
    assert session.game.state_hash() == start


def test_save_text_never_overwrites(tmp_path: Path) -> None:
    a = save_text("one", "ab" * 16, 3, tmp_path)
    b = save_text("two", "ab" * 16, 3, tmp_path)
    assert a.name == "ardennes-abababab-3.txt" and a.read_text() == "one"
    assert b.name == "ardennes-abababab-3-2.txt" and b.read_text() == "two"


def test_a_local_game_goes_on_in_the_app_without_a_send_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hans = player(tmp_path / "hans", "hans")
    game_id = hans.service.invite(hans.key, scenario=1, side="german", mode="local").game_id

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert screen.game.state.phase == "setup_allied"
        await press(pilot, "e")
        assert "again" in message(app)
        await press(pilot, "e")  # the Allied set-up accepted: the turn passes to the German
        assert "x seals and sends" in message(app)
        await press(pilot, "x", "x")
        assert isinstance(app.screen, EmailPlayScreen)  # no one to send to
        assert "Packet 2 sealed and stored. Your move (packet 3)" in message(app)
        assert play_screen(app).game.state.phase == "setup_german"

    ran = run_as(monkeypatch, hans.home, body)
    assert main(["--email", game_id[:8]]) == 0
    assert ran == ["ok"]
    assert hans.service.store.count(game_id) == 3


def test_key_without_email_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--key", "hans"]) == 2
    assert "--key and --passphrase-file go with --email GAME" in capsys.readouterr().err


def test_resign_and_draw_from_the_palette(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's palette offers what ``ardennes draw`` and ``ardennes resign`` do, through the
    same functions: an offer, its answer, a resignation chosen twice."""
    match = new_match(tmp_path)

    def choose(screen: EmailPlayScreen, title: str) -> None:
        [command] = [c for c in screen.palette_commands() if c.title == title]
        command.run()

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        choose(screen, "Offer a draw")
        await pilot.pause()
        assert isinstance(app.screen, SendScreen)
        await press(pilot, "escape")
        assert not [c for c in play_screen(app).palette_commands() if "draw" in c.title]

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0 and ran == ["ok"]
    offer = match.german.service.export(match.game_id)
    assert match.allied.service.import_text(offer).ok

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        titles = [c.title for c in screen.palette_commands()]
        assert "Accept the draw offered" in titles and "Offer a draw" not in titles
        choose(screen, "Decline the draw offered")
        await pilot.pause()
        await press(pilot, "escape")
        choose(play_screen(app), "Resign the game (choose it twice)")
        await pilot.pause()
        assert match.allied.service.load(match.game_id).verdict is None
        choose(play_screen(app), "Resign the game (choose it twice)")
        await pilot.pause()

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0 and ran == ["ok"]
    g = match.allied.service.load(match.game_id)
    assert [p.body.kind for p in g.packets[-3:]] == ["draw_offer", "draw_answer", "resign"]
    assert g.verdict is not None and (g.verdict.winner, g.verdict.kind) == ("german", "resignation")
