"""Comments reach the opponent (issue 21, item 2, the app's part): ``m`` writes the comment of
the packet being written (the send flow: ``x`` says it, the packet carries it); the opponent
reads it on import (the report and the notice line), when he opens the game, in the playback
(``R``) at the step where the packet begins, and in the audit (``A``). Before: the packet
carried a comment (``orders --comment``) and nothing ever showed it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.rulesets.ao.screens.orders import OrdersScreen
from ardennes_tui.rulesets.ao.widgets.status_line import StatusLine
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.comment import CommentDialog
from ardennes_tui.screens.import_dialog import ImportDialog
from ardennes_tui.screens.playback import PlaybackScreen
from ardennes_tui.screens.send import SendScreen
from tests.kit.app import message, press
from tests.kit.email_app import german_orders, new_match, play_screen, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map

SAID = "Hold Bastogne at all costs"


def test_a_comment_goes_with_the_reply_and_the_german_reads_it_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(tmp_path)
    monkeypatch.chdir(tmp_path)
    orders, _ = german_orders(match)
    assert match.allied.service.import_text(orders).ok

    async def allied(app: ArdennesApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, OrdersScreen)  # the reply, offered at once: later
        await press(pilot, "escape")
        screen = play_screen(app)
        assert screen.session.kind == "reply"
        await press(pilot, "m")
        dialog = app.screen
        assert isinstance(dialog, CommentDialog)
        dialog.query_one(Input).value = SAID
        await press(pilot, "enter")
        assert screen.session.comment == SAID
        assert message(app).endswith(f'says to your opponent: "{SAID}"')
        await press(pilot, "x")  # the reply: standing orders, then sealed
        assert isinstance(app.screen, OrdersScreen)
        await press(pilot, "end", "enter")
        assert isinstance(app.screen, SendScreen)
        await press(pilot, "escape")

    ran = run_as(monkeypatch, match.allied.home, allied)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    said = match.allied.service.comments(match.game_id)
    assert said and said[-1][1:] == ("allied", SAID)
    seq = said[-1][0]
    reply = match.allied.service.export(match.game_id)
    line = f'Comment from the Allied player (packet {seq}): "{SAID}"'
    seen: dict[str, str] = {}

    async def german(app: ArdennesApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(TextArea).text = reply
        await press(pilot, "ctrl+s")
        seen["report"] = "\n".join(dialog.report)
        await press(pilot, "escape")
        assert app.screen is screen
        seen["notice"] = screen.query_one(StatusLine).notice
        await press(pilot, "R")
        playback = app.screen
        assert isinstance(playback, PlaybackScreen)
        await press(pilot, "end")
        while line not in "\n".join(playback.step_text()) and playback.step > 0:
            await press(pilot, "left")
        seen["playback"] = "\n".join(playback.step_text())
        await press(pilot, "escape", "A")
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        seen["audit"] = "\n".join(audit.comment_lines())

    ran = run_as(monkeypatch, match.german.home, german)
    assert main(["--email", match.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert f'comment from the allied player: "{SAID}"' in seen["report"]
    assert line in seen["notice"]
    assert line in seen["playback"]
    assert line in seen["audit"]
