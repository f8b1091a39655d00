"""The first sealed batch is no trap (issue 21, items 1 and 7): a German who declares attacks
in a sealed game with no standing orders is asked for them at once, the defaults proposed and
explained; ``x``, ``r`` and ``e`` each name what blocks sealing; ``e e`` never seals; a batch of
Game-Turn 1 that leaves AO-4.2h* obligations unmet is sealed only after a warning; the
opponent's hint is not shown as ours once the turn has passed to him."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.screens.orders import OrdersScreen
from ardennes_tui.screens.send import SendScreen
from rules.ao.bots import BotRng, bots_for
from tests.kit.app import message, press
from tests.kit.email_app import new_match, play_screen, player, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def test_the_first_sealed_batch_asks_for_standing_orders_and_says_what_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    monkeypatch.chdir(tmp_path)
    store = match.german.service.store

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        bots = bots_for(BotRng(b"email-app"))
        while True:  # the bot's orders up to its first attack of Game-Turn 1 (4 orders)
            cmd = bots["german"].choose(screen.game)
            if isinstance(cmd, rules.ao.DeclareAttack):
                break
            assert not isinstance(cmd, rules.ao.StandingOrders)
            assert screen.play(cmd) is not None, (cmd, message(app))
        assert screen.game.state.phase == "combat"
        assert screen.game.state.combat.orders("german") is None
        assert screen.play(cmd) is not None
        await pilot.pause()
        # Asked at once: the defaults proposed (engine, engine, strongest) and why.
        dialog = app.screen
        assert isinstance(dialog, OrdersScreen)
        assert (dialog.retreat, dialog.losses, dialog.advance) == ("engine", "engine", "strongest")
        assert "resolved only after your opponent's reply" in dialog.why_given
        await press(pilot, "escape")
        want = "Give your standing orders first (x)"
        assert want in message(app)
        # r and e name the same thing; neither resolves nor ends anything.
        await press(pilot, "r")
        assert want in message(app) and "after your opponent's reply" in message(app)
        await press(pilot, "e")
        assert want in message(app)
        await press(pilot, "e")
        assert want in message(app)
        # x names it too, and opens the dialog again: End, Enter gives the proposed orders.
        await press(pilot, "x")
        assert isinstance(app.screen, OrdersScreen)
        await press(pilot, "end", "enter")
        orders = screen.game.state.combat.orders("german")
        assert orders == rules.ao.Orders(retreat="engine", losses="engine", advance="strongest")
        assert "Packet 3 complete: x seals and sends it" in message(app)
        # e e does not seal a complete packet.
        await press(pilot, "e", "e")
        assert store.count(match.game_id) == 3
        assert message(app) == (
            "Declared attacks wait for your opponent's reply. Declare more with a. Packet 3 "
            "complete: x seals and sends it (Backspace: undo)"
        )
        # x: the GT1 obligations left unmet (15 German units bound to attack, 10 US units to
        # be attacked: de-15-pt and de-352-i attack us-109-i in 3432), and the mailings.
        await press(pilot, "x")
        assert message(app) == (
            "Press x again to sign and send packet 3 (no comment: m writes one). Careful: "
            "Game-Turn 1 obligations unmet (AO-4.2h*): 13 German units still to attack, 9 US "
            "units still to be attacked. Declare them now (a), or another batch follows this "
            "one: two more mailings"
        ), message(app)
        await press(pilot, "x")
        assert isinstance(app.screen, SendScreen)
        assert store.count(match.game_id) == 4

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_e_e_never_seals_and_the_opponents_hint_is_not_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Allied set-up accepted (``e e``): the turn passes to the German, whose set-up hint
    ("... e accepts it") is not shown as the Allied player's; ``e e`` again seals nothing."""
    german = player(tmp_path / "german", "hans")
    allied = player(tmp_path / "allied", "joe")
    inv = german.service.invite(german.key, scenario=1, side="german", mode="sealed")
    allied.service.accept(allied.key, inv.text)
    monkeypatch.chdir(tmp_path)

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        assert screen.game.state.phase == "setup_allied"
        await press(pilot, "e", "e")
        assert str(screen.game.state.phase) == "setup_german"
        assert message(app) == (
            "The turn passes to your opponent. Packet 2 complete: x seals and sends it "
            "(Backspace: undo)"
        )
        await press(pilot, "e", "e", "e")
        assert allied.service.store.count(inv.game_id) == 2
        assert "accepts it" not in message(app)
        assert message(app).startswith("The turn passes to your opponent. Packet 2 complete")

    ran = run_as(monkeypatch, allied.home, body)
    assert main(["--email", inv.game_id[:8]]) == 0
    assert ran == ["ok"]
