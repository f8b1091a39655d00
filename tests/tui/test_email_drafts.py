"""Email play in the app, continued (``ardennes_tui.games.email_session``, ``pbem.drafts``): the
packet being written survives a quit; a saved draft that no longer applies is set aside with a
one-line message; a local game starts with ``ardennes --email new --dice local`` and the
session writes the packets of both sides; the send screen's ``m`` asks for a missing address,
keeps it, and mails through a real SMTP server on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.games.email_session import EmailSession
from ardennes_tui.screens.address import AddressDialog
from ardennes_tui.screens.send import SendScreen
from pbem import drafts
from pbem.aoplay import ao_game, ao_side
from pbem.drafts import SavedDraft
from pbem.store import StoreError
from rules.ao.bots import BotRng, bots_for
from tests.kit.app import message, notice_and_message, press
from tests.kit.email_app import new_match, play_screen, player, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map
T = TypeVar("T")


def on_top(app: ArdennesApp, kind: type[T]) -> T:
    """The screen on top, checked to be a ``kind``."""
    screen = app.screen
    assert isinstance(screen, kind), screen
    return screen


def german_orders(session: EmailSession, n: int) -> None:
    """``n`` orders of the German bot on the session's draft (standing orders first), the
    packet left unfinished."""
    bots = bots_for(BotRng(b"email-drafts"))
    if session.game.state.combat.orders("german") is None:
        assert not isinstance(session.push(rules.ao.StandingOrders(side="german")), str)
    for _ in range(n):
        r = session.push(bots["german"].choose(session.game))
        assert not isinstance(r, str), r
    assert not session.ended()


def test_quitting_mid_packet_and_reopening_restores_the_orders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    store = match.german.service.store
    before: dict[str, object] = {}

    async def first(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await press(pilot, "e", "e")  # accept the German set-up: one order in the draft
        german_orders(screen.session, 1)  # his standing orders, a reinforcement placed
        assert screen.session.draft is not None
        before["hash"] = screen.session.game.state_hash()
        before["commands"] = [s.command for s in screen.session.draft.steps]
        # quitting: the app ends with the packet unsealed

    ran = run_as(monkeypatch, match.german.home, first)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert store.count(match.game_id) == 3  # nothing sealed
    commands = before["commands"]
    assert isinstance(commands, list) and len(commands) == 3
    assert isinstance(commands[-1], rules.ao.Place)

    async def second(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert "Restored your 3 unsent orders of packet 3." in notice_and_message(app)
        session = screen.session
        assert session.draft is not None
        assert [s.command for s in session.draft.steps] == commands
        assert session.game.state_hash() == before["hash"]
        assert screen.game.state_hash() == before["hash"]  # the map shows it
        await press(pilot, "backspace")  # undo works on the restored draft, and is saved
        assert message(app) == "Undone: Place"
        saved = drafts.load(store, match.game_id)
        assert saved is not None and list(saved.commands) == commands[:-1]
        bots = bots_for(BotRng(b"email-drafts-2"))
        while not session.ended():
            cmd = bots["german"].choose(session.game)
            if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
                break  # sealed: the batch goes to the opponent for his reply
            assert screen.play(cmd) is not None, message(app)
        await press(pilot, "x", "x")
        assert isinstance(app.screen, SendScreen)
        assert drafts.load(store, match.game_id) is None  # sealed: the draft is discarded

    ran = run_as(monkeypatch, match.german.home, second)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert store.count(match.game_id) == 4
    assert match.allied.service.import_text(match.german.service.export(match.game_id)).ok


def test_a_stale_draft_is_set_aside_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    g = match.german
    session = EmailSession(g.service, match.game_id, g.key)
    german_orders(session, 2)
    path = g.service.store.game_dir(match.game_id) / drafts.DRAFT_FILE
    kept = path.read_bytes()
    # Meanwhile packet 3 is written another way (``ardennes orders``): the draft is stale.
    other = EmailSession(g.service, match.game_id, g.key)
    other.draft = g.service.draft(match.game_id, g.key)
    assert not isinstance(other.draft.push(rules.ao.StandingOrders(side="german")), str)
    bots = bots_for(BotRng(b"email-stale"))
    while not other.draft.ended():
        cmd = bots["german"].choose(ao_game(other.draft.scratch))
        if isinstance(cmd, rules.ao.ResolveAttacks) and other.draft.complete():
            break  # sealed: the batch goes to the opponent for his reply
        assert not isinstance(other.draft.push(cmd), str)
    g.service.seal(match.game_id, other.draft)
    assert path.read_bytes() == kept  # not the sealed packet's draft: left alone

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        shown = notice_and_message(app)
        assert "The saved orders of packet 3 no longer apply (" in shown, shown
        assert "kept aside in the store as draft-stale." in shown
        assert play_screen(app).session.draft is None
        assert "waiting for" in shown

    ran = run_as(monkeypatch, g.home, body)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert not path.exists()
    (aside,) = path.parent.glob("draft-stale.*.json")
    assert aside.read_bytes() == kept  # kept, byte for byte


def local_session(tmp_path: Path) -> EmailSession:
    hans = player(tmp_path / "hans", "hans")
    gid = hans.service.invite(hans.key, scenario=1, side="german", mode="local").game_id
    return EmailSession(hans.service, gid, hans.key)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"prev": "ab" * 32}, "(packet 1 is not the one it followed)"),
        ({"seq": 5}, "(it was written for packet 5, the next packet is 2)"),
        ({"commands": (rules.ao.ResolveAttacks(),)}, "(its command 0 is refused: "),
        (
            {"commands": (rules.ao.EndPhase(), rules.ao.EndPhase())},
            "(the packet is complete before its command 1)",
        ),
    ],
)
def test_a_saved_draft_that_no_longer_applies(tmp_path: Path, change: dict, said: str) -> None:
    session = local_session(tmp_path)
    assert session.draft is not None
    good = SavedDraft.of(session.draft)
    drafts.save(session.service.store, session.game_id, msgspec.structs.replace(good, **change))
    notice = session.refresh()
    assert notice.startswith("The saved orders of packet ") and said in notice, notice
    assert "\n" not in notice
    assert session.draft is not None and session.draft.steps == []  # a fresh draft


def test_a_damaged_draft_is_set_aside_and_one_that_cannot_be_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = local_session(tmp_path)
    path = session.service.store.game_dir(session.game_id) / drafts.DRAFT_FILE
    path.write_bytes(b'{"format": "ardennes-draft", "junk"')
    notice = session.refresh()
    assert notice.startswith("The saved orders no longer apply (game ")
    assert "is damaged" in notice and "kept aside" in notice
    assert not path.exists()

    path.write_bytes(b"junk")

    def cannot(*_: object) -> str:
        raise StoreError("disk full")

    monkeypatch.setattr(drafts, "set_aside", cannot)
    notice = session.refresh()
    assert "stay in the store (disk full): not saving" in notice, notice
    assert not isinstance(session.push(rules.ao.EndPhase()), str)
    assert session.unsaved.startswith("Not saved")  # said with every order
    assert path.read_bytes() == b"junk"  # never overwritten


def test_the_comment_of_a_draft_is_kept(tmp_path: Path) -> None:
    session = local_session(tmp_path)
    d = session.service.draft(session.game_id, session.me, "hold the line")
    assert not isinstance(d.push(rules.ao.StandingOrders(side="allied")), str)
    drafts.save(session.service.store, session.game_id, SavedDraft.of(d))
    assert session.refresh() == "Restored your 1 unsent order of packet 2."
    assert session.draft is not None and session.draft.body.comment == "hold the line"
    assert not isinstance(session.push(rules.ao.EndPhase()), str)
    saved = drafts.load(session.service.store, session.game_id)
    assert saved is not None and saved.comment == "hold the line" and len(saved.commands) == 2
    seq, _ = session.seal()
    (packet,) = [p for p in session.service.load(session.game_id).packets if p.body.seq == seq]
    assert packet.body.comment == "hold the line"


def test_email_new_with_local_dice_plays_both_sides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hans = player(tmp_path / "hans", "hans")
    authors: list[str] = []

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)  # no send screen: nobody to send to
        assert "both sides yours" in notice_and_message(app)
        assert screen.game.state.phase == "setup_allied"
        s = screen.session
        assert s.draft is not None
        authors.append(s.draft.body.author)
        await press(pilot, "e", "e", "x", "x")  # the Allied set-up, sealed as packet 2
        assert "Packet 2 sealed and stored. Your move (packet 3)" in message(app)
        assert s.draft is not None
        authors.append(s.draft.body.author)  # the draft follows whose packet is next
        await press(pilot, "e", "e")  # the German set-up, then his orders...
        german_orders(s, 1)
        bots = bots_for(BotRng(b"email-local"))
        while not s.ended():
            cmd = bots[ao_side(s.draft.body.author)].choose(s.game)
            if isinstance(cmd, rules.ao.ResolveAttacks) and s.complete():
                break  # (local dice: never; a batch is resolved at once)
            assert screen.play(cmd) is not None
        await press(pilot, "x", "x")
        assert isinstance(app.screen, type(screen))
        assert s.draft is not None and s.draft.body.author == "allied"
        authors.append(s.draft.body.author)

    ran = run_as(monkeypatch, hans.home, body)
    argv = ["--email", "new", "--scenario", "1", "--side", "german", "--dice", "local"]
    assert main(argv) == 0
    assert ran == ["ok"]
    assert authors == ["allied", "german", "allied"]
    (gid,) = hans.service.store.game_ids()
    st = hans.service.status(gid)
    assert st.mode == "local" and st.packets == 4 and st.ours
    g = hans.service.load(gid)
    assert g.local_seed is not None  # the dice seed, from os.urandom, in the signed invitation
    # The whole game checks from its invitation: signatures, chain, dice, every state hash.
    capsys.readouterr()
    assert main(["verify", gid[:8]]) == 0
    assert capsys.readouterr().out.startswith(f"OK: game {gid}, scenario 1, local dice")


# -- mailing with no address ----------------------------------------------------------------


def test_m_asks_for_a_missing_address_keeps_it_and_mails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.kit.mail import Inbox, free_port

    controller_module = pytest.importorskip("aiosmtpd.controller")
    match = new_match(tmp_path)  # invited with no --opponent: no address for the Allied
    g = match.german
    assert g.service.store.meta(match.game_id).opponent == ""
    inbox = Inbox()
    port = free_port()
    (g.home / "config.toml").write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nfrom = "hans@example.org"\n'
    )
    monkeypatch.chdir(tmp_path)

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        session = screen.session
        german_orders(session, 0)
        bots = bots_for(BotRng(b"email-mail"))
        while not session.ended():
            cmd = bots["german"].choose(session.game)
            if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
                break  # sealed: the batch goes to the opponent for his reply
            assert screen.play(cmd) is not None
        await press(pilot, "x", "x")
        send = app.screen
        assert isinstance(send, SendScreen) and send.address is None
        await press(pilot, "m")
        dialog = app.screen
        assert isinstance(dialog, AddressDialog)
        for bad, said in [
            ("joe", "not an address"),
            ("joe@example.org ann@example.org", "without a space"),
            ("joe@example.org,ann@example.org", "one address only"),
        ]:
            dialog.query_one(Input).value = bad
            await press(pilot, "enter")
            assert on_top(app, AddressDialog) is dialog and said in dialog.error, dialog.error
            assert said in str(dialog.query_one("#address-error", Static).render())
        dialog.query_one(Input).value = ""
        await press(pilot, *"joe@example.org", "enter")
        assert on_top(app, SendScreen) is send
        assert (
            send.result
            == f"Mailed to joe@example.org (the address is kept for game {match.game_id[:8]})"
        )
        await press(pilot, "m")  # known now: no question
        assert on_top(app, SendScreen) is send and send.result == "Mailed to joe@example.org"

    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        ran = run_as(monkeypatch, g.home, body)
        assert main(["--email", match.game_id[:8]]) == 0
    finally:
        controller.stop()
    assert ran == ["ok"]
    assert [(m[0], m[1]) for m in inbox.messages] == [("hans@example.org", ["joe@example.org"])] * 2
    assert g.service.store.meta(match.game_id).address == "joe@example.org"
    # What was mailed is the packet: the Allied imports it from the mail.
    report = match.allied.service.import_text(inbox.messages[0][2])
    assert report.ok and [i.outcome for i in report.accepted] == ["accepted"]


def test_escape_in_the_address_dialog_mails_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    g = match.german
    (g.home / "config.toml").write_text(
        '[smtp]\nhost = "127.0.0.1"\nport = 9\nsecurity = "none"\nfrom = "hans@example.org"\n'
    )

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        screen._send_screen(2, match.allied.service.export(match.game_id))
        await pilot.pause()
        send = app.screen
        assert isinstance(send, SendScreen)
        await press(pilot, "m")
        on_top(app, AddressDialog)
        await press(pilot, "escape")
        assert on_top(app, SendScreen) is send
        assert send.result == "Not mailed: no address given (m: try again)"

    ran = run_as(monkeypatch, g.home, body)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert g.service.store.meta(match.game_id).address == ""
