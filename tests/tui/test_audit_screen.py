"""The audit on screen (``ardennes_tui.screens.audit``, ``ardennes_tui.present.audit_view``): every
roll of a game with who could have known it when, each player's face counts as a bar chart with the
chi-square, and whether the chain and every signature verify with the pinned keys;
``ardennes --audit FILE|GAME``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.present import audit_view
from ardennes_tui.screens.audit import AuditScreen
from ardennes_tui.screens.playback import PlaybackScreen
from pbem import keys
from pbem.core import armor
from pbem.core.protocol import fingerprint_of
from pbem.core.rolls import DiceStats
from tests.kit.realmap import needs_real_map
from tests.kit.recordkit import packets_file, packets_text, record_file

pytestmark = needs_real_map


# -- the view ------------------------------------------------------------------------------------


def test_bar_chart_scales_to_the_largest_count() -> None:
    s = DiceStats("german", 15, (3, 5, 1, 1, 2, 3), 4.6, 0.4666)
    chart = audit_view.bar_chart(s, height=3, width=4)
    assert chart == [
        "German: 15 rolls",
        "     ##",
        " ##  ##              ##",
        " ##  ##  ##  ##  ##  ##",
        " 1   2   3   4   5   6",
        " 3   5   1   1   2   3",
        "chi2 4.60 p 0.467*",
    ]
    none = audit_view.bar_chart(DiceStats("allied", 0, (0,) * 6, 0.0, 1.0), height=2)
    assert none[0] == "Allied: 0 rolls" and none[1:3] == ["", ""] and none[-1] == "no rolls"


def test_a_sealed_game_verifies_with_its_pinned_keys(tmp_path: Path) -> None:
    path = packets_file(tmp_path)
    verified = audit_view.load(str(path))
    assert verified.ok
    email = verified.email
    assert email is not None
    german_fp = fingerprint_of(email.parties["german"].key)
    v = audit_view.view(verified, {german_fp: "hans"})
    assert v.ok and v.check.startswith("Verified: ") and "signatures" in v.check
    assert v.keys[0] == f"German {german_fp}  (yours: hans)"
    assert v.keys[1].startswith("Allied SHA256:") and "yours" not in v.keys[1]
    assert len(v.rolls) == v.stats[2].n == v.stats[0].n + v.stats[1].n > 0
    first = v.rolls[0]
    row = audit_view.roll_row(first)
    assert row[0] == str(first.packet) and row[1] == str(first.turn)
    assert row[4] == str(first.value)
    assert row[6] == f"G {first.author_from}, both {first.all_from}"
    detail = audit_view.roll_detail(first)
    assert f"Die {first.index} = {first.value}" in detail
    assert f"Known: nobody before packet {first.author_from}" in detail


def test_a_record_has_no_keys_and_its_rolls_are_recorded(tmp_path: Path) -> None:
    v = audit_view.view(audit_view.load(str(record_file(tmp_path))))
    assert v.ok and v.title.startswith("Record selfplay.jsonl: scenario 1, seeded dice")
    assert "no signatures" in v.keys[0]
    assert v.rolls and {audit_view.known_short(r) for r in v.rolls} == {"record"}


def test_a_tampered_packet_fails_and_says_where(tmp_path: Path) -> None:
    assert len(armor.dearmor_all(packets_text())) > 6
    path = tmp_path / "cut.txt"
    # the game without one of its packets: the chain breaks there
    text = packets_text()
    starts = [i for i in range(len(text)) if text.startswith("-----BEGIN", i)]
    path.write_text(text[: starts[5]] + text[starts[6] :], encoding="ascii")
    v = audit_view.view(audit_view.load(str(path)))
    assert not v.ok
    assert v.check.startswith("FAILED: ") and "as far as it verified" in v.check


def test_load_says_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        audit_view.load(str(tmp_path / "none.txt"))


# -- the screen ----------------------------------------------------------------------------------


def run(screen: AuditScreen, body) -> None:
    from scenarios import load_map

    app = ArdennesApp(load_map(), screen=lambda: screen)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


def test_the_table_lists_every_roll_and_enter_plays_back_from_one(tmp_path: Path) -> None:
    v = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
    screen = AuditScreen(v)

    async def body(pilot: Pilot[None]) -> None:
        table = screen.query_one(DataTable)
        assert table.row_count == len(v.rolls)
        assert tuple(str(c) for c in table.get_row_at(0)) == audit_view.roll_row(v.rolls[0])
        detail = screen.query_one("#au-detail", Static)
        assert f"Die {v.rolls[0].index} = " in str(detail.content)
        await pilot.press("down", "down")
        assert screen.highlighted == 2
        assert f"Die {v.rolls[2].index} = {v.rolls[2].value}" in str(detail.content)
        charts = [str(s.content) for s in screen.query(".au-chart").results(Static)]
        assert charts == ["\n".join(audit_view.bar_chart(s)) for s in v.stats]
        await pilot.press("enter")
        playback = pilot.app.screen
        assert isinstance(playback, PlaybackScreen)
        assert playback.step == v.rolls[2].command + 1
        assert f"Die {v.rolls[2].value}:" in "\n".join(playback.step_text())
        await pilot.press("escape")
        assert pilot.app.screen is screen

    run(screen, body)


def test_ardennes_audit_of_a_game_in_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ardennes_home: Path
) -> None:
    from pbem.core.identity import KeyIdentity
    from pbem.games import Service
    from pbem.store import Store

    keys.save(keys.generate(), "hans")
    me = KeyIdentity(keys.load_key("hans"))
    sent = Service(Store()).invite(me, scenario=1, side="german", mode="sealed")
    ran: list[str] = []

    def fake_run(app: ArdennesApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                screen = pilot.app.screen
                assert isinstance(screen, AuditScreen) and screen.alone
                assert screen.view.ok
                assert screen.view.keys[0].endswith("(yours: hans)")
                assert screen.view.keys[1].startswith("Allied (not yet accepted)")
                assert "No die was rolled." in str(screen.query_one("#au-detail", Static).content)
                await pilot.press("q")
                assert pilot.app.return_code == 0
                ran.append("ok")

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", fake_run)
    assert main(["--audit", sent.game_id[:8]]) == 0
    assert ran == ["ok"]


def test_ardennes_audit_refuses_what_it_cannot_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--audit", "0123abcd"]) == 1
    assert "no game in the store" in capsys.readouterr().err


def test_below_80x24_the_audit_gives_way_to_a_notice_and_comes_back(tmp_path: Path) -> None:
    """79x24: the notice (before: the table squeezed); back at 80x24 the audit as it was, its
    highlighted roll and its keys."""
    from ardennes_tui.screens.too_small import TooSmallScreen

    v = audit_view.view(audit_view.load(str(packets_file(tmp_path))))
    screen = AuditScreen(v)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("down")
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        notice = pilot.app.screen
        assert isinstance(notice, TooSmallScreen)
        text = str(notice.query_one(Static).content)
        assert text.startswith("Terminal too small: the app needs at least 80x24.")
        await pilot.resize_terminal(80, 23)
        await pilot.pause()
        stack = pilot.app.screen_stack  # still too small: one notice, not two
        assert [type(s) for s in stack[-2:]] == [AuditScreen, TooSmallScreen]
        assert sum(isinstance(s, TooSmallScreen) for s in stack) == 1
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert pilot.app.screen_stack[-1] is screen and screen.highlighted == 1
        await pilot.press("down")
        assert screen.highlighted == 2

    run(screen, body)
