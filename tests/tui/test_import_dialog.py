"""The import dialog's report (issue 21, item 3): a growing mailbox reports many packets, so
the report puts a summary and the accepted packet first, the duplicates summed up last, and
scrolls with the keys (before: about three lines shown, PageDown, Down, End and Tab did
nothing, and the one "accepted" line sat below the duplicates, out of sight)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import TextArea

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.cli import main
from ardennes_tui.present.import_view import report_lines, seq_ranges
from ardennes_tui.screens.import_dialog import ImportDialog
from pbem.exchange import ImportItem, ImportReport
from tests.kit.app import press
from tests.kit.email_app import player, run_as
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def test_the_accepted_packet_first_and_the_report_scrolls_with_the_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    german = player(tmp_path / "german", "hans")
    allied = player(tmp_path / "allied", "joe")
    inv = german.service.invite(german.key, scenario=1, side="german", mode="sealed")
    acc = allied.service.accept(allied.key, inv.text)
    assert german.service.import_text(acc.text).ok
    draft = allied.service.draft(inv.game_id, allied.key, "my first orders")
    assert not isinstance(draft.push(rules.ao.EndPhase()), str)
    setup = allied.service.seal(inv.game_id, draft).text
    # the mailbox as it grows: the old mails (duplicates), invitations to other games (a
    # line each), the new packet last
    others = [
        allied.service.invite(allied.key, scenario=1, side="german", mode="open").text
        for _ in range(14)
    ]
    pasted = "\n".join([inv.text, acc.text, *others, setup])
    seen: dict[str, object] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        dialog.query_one(TextArea).text = pasted
        await press(pilot, "ctrl+s")
        seen["report"] = list(dialog.report)
        box = dialog.query_one("#import-report-box", VerticalScroll)
        assert app.focused is box  # the report has the keys at once
        assert box.max_scroll_y > 0 and box.scroll_y == 0
        await press(pilot, "end")
        seen["end"] = (box.scroll_y, box.max_scroll_y)
        await press(pilot, "home", "pagedown")
        seen["pagedown"] = box.scroll_y
        await press(pilot, "home", "down")
        seen["down"] = box.scroll_y
        await press(pilot, "tab")
        seen["tab"] = app.focused is not box
        await press(pilot, "escape")

    ran = run_as(monkeypatch, german.home, body)
    assert main(["--email", inv.game_id[:8]]) == 0
    assert ran == ["ok"]
    report = seen["report"]
    assert isinstance(report, list)
    assert report[0] == "1 accepted, 2 duplicates (already stored), 0 refused, 14 invitations."
    assert " packet 2 (allied " in report[1] and ": accepted; your move" in report[1]
    assert report[2] == '  comment from the allied player: "my first orders"'
    assert report[-1] == (
        f"duplicates: game {inv.game_id[:8]} packets 0-1 (already stored; nothing changed)"
    )
    assert isinstance(seen["end"], tuple)
    end, most = seen["end"]
    assert end == most > 0
    assert seen["pagedown"] > 0 and seen["down"] == 1  # type: ignore[operator]
    assert seen["tab"] is True


def test_report_lines_sum_up_the_duplicates() -> None:
    items = [ImportItem("duplicate", "3f9a0c2eaa", seq, "german", "orders") for seq in (1, 2, 3, 7)]
    items.append(ImportItem("accepted", "3f9a0c2eaa", 8, "allied", "reply", after="your move"))
    lines = report_lines(ImportReport(items=items), lambda game, seq: "")
    assert lines == [
        "1 accepted, 4 duplicates (already stored), 0 refused.",
        "game 3f9a0c2e packet 8 (allied reply): accepted; your move",
        "duplicates: game 3f9a0c2e packets 1-3 7 (already stored; nothing changed)",
    ]
    assert seq_ranges([5, 1, 2, 9, 10]) == "1-2 5 9-10"


def test_armoured_text_pasted_on_the_path_line_is_read_as_the_packet_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 7: pasted on the path line, a mail with its armour goes whole to the
    text area and imports (before: the line kept its first line, "cannot read > -----BEGIN
    ..."); typed or left there, it is refused in plain words, nothing read."""
    from textual import events
    from textual.widgets import Input

    german = player(tmp_path / "german", "hans")
    allied = player(tmp_path / "allied", "joe")
    inv = german.service.invite(german.key, scenario=1, side="german", mode="sealed")
    acc = allied.service.accept(allied.key, inv.text)
    mail = "Here is my acceptance.\n\n" + "".join(f"> {x}\n" for x in acc.text.splitlines())
    seen: dict[str, object] = {}

    async def body(app: ArdennesApp, pilot: Pilot[None]) -> None:
        await press(pilot, "i")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog)
        path = dialog.query_one(Input)
        path.value = "> -----BEGIN ARDENNES PACKET-----"  # typed, or a paste cut to a line
        await press(pilot, "ctrl+s")
        seen["typed"] = list(dialog.report)
        path.value = ""
        path.focus()
        path.post_message(events.Paste(mail))
        await pilot.pause()
        seen["moved"] = (list(dialog.report), dialog.query_one(TextArea).text, path.value)
        await press(pilot, "ctrl+s")
        seen["imported"] = list(dialog.report)
        await press(pilot, "escape")

    ran = run_as(monkeypatch, german.home, body)
    assert main(["--email", inv.game_id[:8]]) == 0
    assert ran == ["ok"]
    assert seen["typed"] == [
        "The line above takes a file's path, and it holds armoured text: paste the whole text "
        "in the area below (Tab), then Ctrl+S."
    ]
    assert seen["moved"] == (
        ["Armoured text goes in the area below: it is there now. Ctrl+S imports it."],
        mail,
        "",
    )
    imported = seen["imported"]
    assert isinstance(imported, list)
    assert imported[0] == "1 accepted, 0 duplicates (already stored), 0 refused."
    assert german.service.store.count(inv.game_id) == 2
