"""Mails speak plainly (issue 21, item 7), through ``ardennes invite|accept|orders --mailto``
and a real SMTP server (aiosmtpd on loopback): the subject and the body's first lines say who
sent what and what to do, the armoured block follows in the body and alone in the attachment;
an invitation imported from the mailbox (no FILE) is kept in the store: the import says how to
accept it by its id, ``ardennes games`` lists it and ``ardennes accept GAME`` accepts it."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

import rules.ao
from ardennes_tui import cli
from ardennes_tui.cli import email as email_cli
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.email_players import Player, bot_commands
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture(autouse=True)
def wired(monkeypatch: pytest.MonkeyPatch) -> None:
    if email_cli.register not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, email_cli.register))


def parsed(raw: bytes) -> tuple[str, str, str]:
    """A mail's subject, body and attachment text."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("plain",))
    assert body is not None
    (attached,) = list(msg.iter_attachments())
    text = body.get_content().replace("\r\n", "\n")
    return str(msg["Subject"]), text, attached.get_content().replace("\r\n", "\n")


def note(body: str) -> str:
    """The body's first paragraph (the note before the armour) on one line."""
    return " ".join(body.split("\n\n", 1)[0].split())


def test_mails_say_who_sent_what_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.kit.mail import Inbox, free_port

    controller_module = pytest.importorskip("aiosmtpd.controller")
    hans = Player("hans", tmp_path, monkeypatch, capsys)
    joe = Player("joe", tmp_path, monkeypatch, capsys)
    inbox = Inbox()
    port = free_port()
    for p, name in ((hans, "Hans"), (joe, "Joe")):
        (p.home / "no-config.toml").write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n'
            f'from = "{name} <{p.name}@example.org>"\n[mailbox]\npath = "{p.home / "mbox"}"\n'
        )

    def deliver(p: Player) -> None:
        box = mailbox.mbox(p.home / "mbox")
        box.add(inbox.messages[-1][2])
        box.close()

    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        code, _, err = hans.run(
            "invite", "--scenario", 1, "--side", "german", "--dice", "sealed",
            "--to", "joe@example.org",
        )  # fmt: skip
        assert code == 0, err
        game_id = err.split()[1].rstrip(":")
        short = game_id[:8]
        subject, body, attached = parsed(inbox.messages[-1][2])
        assert subject == (
            f"Ardennes {short}: Hans (German) invites you to a game by email (scenario 1, "
            "sealed dice, you play the Allied)"
        )
        assert note(body) == (
            "Hans (German) sent an invitation to a game of The Ardennes Offensive by email "
            "(scenario 1, sealed dice, you play the Allied). To accept it, save this mail or its "
            "attachment and run `ardennes accept FILE`, or import it (`ardennes import`, `i` in "
            f"the app) and accept it there: `ardennes accept {short}`."
        )
        assert max(len(x) for x in body.split("\n\n", 1)[0].splitlines()) <= 72
        assert attached.startswith("-----BEGIN ARDENNES PACKET-----")
        assert body.endswith(attached)  # the block in the body too, after the note

        # Joe imports his mailbox: no FILE, so the invitation is kept, and listed.
        deliver(joe)
        assert "No games yet" in joe.ok("games")  # nothing before the import
        line = joe.ok("import")
        assert line.startswith(f"game {short} packet 0 (german invitation): invitation: ")
        assert f"; kept in the store: accept it with: ardennes accept {short}" in line, line
        assert "FILE" not in line
        listing = joe.ok("games")
        assert "No games yet" not in listing
        assert f"{short}  1   Allied  sealed  accept it  20" in listing, listing
        assert f"[invitation: ardennes accept {short}]" in " ".join(listing.split())
        assert max(len(x) for x in listing.splitlines()) <= 80
        (row,) = json.loads(joe.ok("games", "--json"))
        assert (row["id"], row["kind"], row["side"], row["scenario"]) == (
            game_id,
            "invitation",
            "allied",
            1,
        )
        code, _, err = joe.run("accept", short, "--mailto", "hans@example.org")
        assert code == 0 and "sent to hans@example.org" in err, err
        assert "invitation" not in joe.ok("games")  # accepted: a game now, no invitation
        subject, body, _ = parsed(inbox.messages[-1][2])
        assert subject == (
            f"Ardennes {short}: Joe (Allied) sent the acceptance of your invitation: "
            "nothing for you to do yet"
        )
        assert note(body) == (
            f"Joe (Allied) sent the acceptance of your invitation (packet 1 of game {short}): "
            "nothing for you to do yet (Allied set-up next). Import it with `ardennes import` "
            "or `i` in the app."
        )
        assert body.split("\n\n", 1)[1].startswith("-----BEGIN ARDENNES PACKET-----")

        # The Allied set-up, then the German's first batch: "your reply is due".
        deliver(hans)
        hans.ok("import")
        setup = joe.file('{"type":"end_phase"}\n', ".jsonl")
        joe.ok("orders", short, "--commands", setup, "--mailto", "hans@example.org")
        subject, _, _ = parsed(inbox.messages[-1][2])
        # (the acceptance again: Joe has seen no German packet since)
        assert subject == (
            f"Ardennes {short}: Joe (Allied) sent the acceptance of your invitation and the "
            "Allied set-up: your move"
        )
        deliver(hans)
        hans.ok("import")
        bots = bots_for(BotRng(b"mail-cover"))
        cmds = bot_commands(hans.service(), game_id, hans.me, bots)
        assert isinstance(cmds[-1], rules.ao.DeclareAttack)  # sealed: the batch waits
        jsonl = hans.file(
            "".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds), ".jsonl"
        )
        hans.ok("orders", short, "--commands", jsonl, "--mailto", "joe@example.org")
        subject, body, attached = parsed(inbox.messages[-1][2])
        assert (
            subject
            == f"Ardennes {short}: Hans (German) sent the Game-Turn 1 orders: your reply is due"
        )
        assert note(body) == (
            f"Hans (German) sent the Game-Turn 1 orders (packet 3 of game {short}): your reply "
            "is due (your standing orders for the declared attacks). Import it with `ardennes "
            "import` or `i` in the app."
        )
        assert "Hans" not in attached and attached.startswith("-----BEGIN ARDENNES PACKET-----")
    finally:
        controller.stop()
    assert Store(joe.home).count(game_id) == 3
