"""After an import in a game by email (``ardennes --email GAME``, ``i``), ``R`` plays back the
opponent's new orders from where the game was before the import; ``A`` opens the audit of the
game, the player's own pinned key marked."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.games.email_session import EmailSession
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.import_dialog import ImportDialog
from ardennes_tui.screens.orders import OrdersScreen
from ardennes_tui.screens.playback import PlaybackScreen
from rules.ao.bots import BotRng, bots_for
from tests.kit.app import message, press
from tests.kit.email_app import Match, german_orders, new_match, play_screen, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def test_r_plays_back_the_opponents_new_orders_after_an_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    text, n = german_orders(match)
    stored = match.german.service.load(match.game_id).game
    assert stored is not None
    before = len(stored.history) - n

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(TextArea).text = text
        await press(pilot, "ctrl+s")
        await press(pilot, "escape")
        assert screen.imported_from == before
        assert app.screen is screen  # not the reply dialog: the playback is offered first
        assert f"Imported {n} new orders: R plays them back." in message(app)
        assert "Your reply is due: x gives your standing orders" in message(app)
        await press(pilot, "R")
        playback = app.screen
        assert isinstance(playback, PlaybackScreen)
        assert (playback.step, playback.since, playback.last) == (before, before, before + n)
        assert playback.shown_hash == stored.history[before - 1].hash
        await press(pilot, "right")
        assert f"(new: 1 of {n})" in "\n".join(playback.step_text())
        first = stored.history[before].command
        assert isinstance(first, rules.ao.StandingOrders)
        assert "German: German standing orders" in "\n".join(playback.step_text())
        await press(pilot, "end")
        assert playback.shown_hash == stored.state_hash()
        await press(pilot, "escape")  # the reply due is offered after the playback
        assert isinstance(app.screen, OrdersScreen)
        await press(pilot, "escape")
        assert app.screen is screen
        await press(pilot, "A")
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        assert audit.view.ok and audit.view.keys[1].endswith("(yours: joe)")
        assert "yours" not in audit.view.keys[0]
        await press(pilot, "escape")
        assert app.screen is screen

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_r_opens_on_the_opponents_orders_since_my_last_packet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Imported before the app opened (``ardennes import``, the start screen's ``i``): ``R``
    starts where the German's packet begins, after the Allied's last one."""
    match = new_match(tmp_path)
    text, n = german_orders(match)
    assert match.allied.service.import_text(text).ok
    stored = match.allied.service.load(match.game_id).game
    assert stored is not None
    before = len(stored.history) - n

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "escape")  # the reply dialog opens first, as before
        await press(pilot, "R")
        playback = app.screen
        assert isinstance(playback, PlaybackScreen)
        assert (playback.step, playback.since, playback.last) == (before, before, before + n)
        assert playback.title_text.endswith("(new since your last packet)")

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_r_for_the_first_packet_plays_the_game_from_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "R")
        playback = app.screen
        assert isinstance(playback, PlaybackScreen)
        assert (playback.step, playback.since, playback.last) == (0, 0, 1)
        await press(pilot, "right")
        text = "\n".join(playback.step_text())
        assert "Allied: ends the phase" in text and "(new: 1 of 1)" in text

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def german_resolution(match: Match, orders: str) -> str:
    """The Allied reply to the German's attacks (standing orders), then the German's
    resolution of them, played by bots to the end of his player-turn: its text."""
    a = match.allied
    assert a.service.import_text(orders).ok
    reply = EmailSession(a.service, match.game_id, a.key)
    assert reply.kind == "reply"
    assert not isinstance(reply.push(rules.ao.StandingOrders(side="allied")), str)
    _, sent = reply.seal()
    g = match.german
    assert g.service.import_text(sent.text).ok
    session = EmailSession(g.service, match.game_id, g.key)
    assert session.kind == "resolution"
    assert not isinstance(session.push(rules.ao.ResolveAttacks()), str)  # the dice roll
    bots = bots_for(BotRng(b"email-log"))
    while not session.ended():
        cmd = bots["german"].choose(session.game)
        if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
            break  # more attacks declared: they wait for another reply
        assert not isinstance(session.push(cmd), str)
    _, resolution = session.seal()
    return resolution.text


def test_the_log_has_the_opponents_combats_after_an_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 4: after importing the German's resolution, ``c`` lists his combats
    (before: "No combat yet", the log being the packet's draft only)."""
    from ardennes_tui.screens.combat_log import CombatLogScreen
    from ardennes_tui.widgets.text_box import TextBox

    match = new_match(tmp_path)
    orders, _ = german_orders(match)
    resolution = german_resolution(match, orders)
    seen: list[str] = []

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(TextArea).text = resolution
        await press(pilot, "ctrl+s", "escape")
        await press(pilot, "escape")  # a reply may be due (more attacks): later
        await press(pilot, "c")
        log = app.screen
        assert isinstance(log, CombatLogScreen)
        seen.append(log.query_one(TextBox).source)

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    log = seen[0].splitlines()
    assert "== GT1 16 Dec: German player-turn ==" in log
    assert sum(" CRT: die " in line for line in log) >= 1


def test_an_open_game_sees_packets_stored_by_another_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 6: the Allied app is open, waiting; ``ardennes import`` stores the
    German's packet from another terminal (here: another ``Service`` on the same store): within
    a poll (every 2 s; 0.05 s here) the app reads the store again and says so (before: it kept
    saying "waiting for ... since ..." until ``i``)."""
    import asyncio

    from ardennes_tui.screens.email_play import EmailPlayScreen
    from pbem.games import Service
    from pbem.store import Store

    monkeypatch.setattr(EmailPlayScreen, "POLL", 0.05)
    match = new_match(tmp_path)
    text, n = german_orders(match)

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await press(pilot, "escape")
        assert screen.session.draft is None
        assert "Not your move: waiting for" in message(app)
        other = Service(Store(match.allied.home))
        assert other.import_text(text).ok
        for _ in range(100):
            await asyncio.sleep(0.05)
            await pilot.pause()
            if screen.session.draft is not None:
                break
        assert f"Imported by another program {n} new orders: R plays them back." in message(app)
        assert screen.session.kind == "reply" and screen.imported_from is not None

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
