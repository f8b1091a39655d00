"""``ardennes invite/accept/import/export/orders/status`` (``ardennes_tui.cli.email``): two
players, each with his own ``ARDENNES_HOME`` (store and keys), play by passing armoured text
only; the heuristic bots choose the commands, which reach the game as JSONL files through
``ardennes orders``. User errors are one line and a non-zero exit status."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest

import rules.ao
import scenarios
from ardennes_tui import cli
from ardennes_tui.cli import email
from pbem import keys
from pbem.aoplay import ao_other, ao_side
from pbem.core import dicemodes
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.email_players import Player, bot_commands, start, state_hash
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture(autouse=True)
def wired(monkeypatch: pytest.MonkeyPatch) -> None:
    """The email commands on ``ardennes`` (until ``cli/__init__.py`` lists them)."""
    if email.register not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, email.register))


@pytest.fixture
def players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> dict[str, Player]:
    return {
        "german": Player("hans", tmp_path, monkeypatch, capsys),
        "allied": Player("joe", tmp_path, monkeypatch, capsys),
    }


def play(players: dict[str, Player], game_id: str, turns: int) -> int:
    """Both players play (bots choosing, JSONL through ``orders``, the armour through
    ``export``/``import``) until Game-Turn ``turns`` is over; the number of mailings."""
    bots = bots_for(BotRng(b"email-cli"))
    mailings = 0
    while True:
        g = players["german"].service().load(game_id)
        want = g.expects()
        assert g.game is not None
        if want is None or g.game.state.turn > turns:
            return mailings
        mover, other = players[ao_side(want[0])], players[ao_other(want[0])]
        cmds = bot_commands(mover.service(), game_id, mover.me, bots)
        jsonl = mover.file(
            "".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds), ".jsonl"
        )
        sent = mover.ok("orders", game_id[:8], "--commands", jsonl)
        assert mover.ok("export", game_id[:8]) == sent  # the same unseen packets
        for line in other.ok("import", other.file(sent)).splitlines():
            assert ": accepted; " in line or line.endswith(
                "duplicate (already stored; nothing changed)"
            )
        mailings += 1


def same_game(players: dict[str, Player], game_id: str) -> None:
    stores = [Store(p.home) for p in players.values()]
    assert stores[0].packets(game_id) == stores[1].packets(game_id)
    hashes = {state_hash(p.service(), game_id) for p in players.values()}
    assert len(hashes) == 1


def test_a_sealed_game_by_email_for_two_game_turns(players: dict[str, Player]) -> None:
    game_id = start(players, "sealed")
    mailings = play(players, game_id, turns=2)
    assert mailings > 10
    same_game(players, game_id)
    hans = players["german"]
    st = hans.ok("status", game_id[:6])
    assert st.splitlines()[0] == f"game {game_id}: scenario 1, sealed dice, you play the German"
    assert "GT3" in st
    record = hans.home / "game.jsonl"
    hans.ok("export", game_id, "--record", "-o", record)
    replayed = rules.ao.Game.replay(
        rules.record.decode(record.read_bytes()), scenarios.load_board(1)
    )
    assert replayed.error is None
    assert replayed.game.state_hash() == state_hash(hans.service(), game_id)
    # the record replays on its own with the self-play checker too
    assert "every hash matches" in hans.ok("selfplay", "--replay", record)


def test_an_open_game_by_email_for_one_game_turn(players: dict[str, Player]) -> None:
    hans, joe = players["german"], players["allied"]
    code, _, err = hans.run(
        "invite", "--scenario", 1, "--side", "german", "--dice", "open", "-o", hans.home / "i.txt"
    )
    assert code == 0 and dicemodes.ALLOWS["open"] in err
    code, out, err = joe.run("accept", hans.home / "i.txt")
    assert code == 0 and dicemodes.ALLOWS["open"] in err
    game_id = err.split()[1].rstrip(":")
    hans.ok("import", hans.file(out))
    play(players, game_id, turns=1)
    same_game(players, game_id)
    st = joe.ok("status", game_id)
    assert st.splitlines()[-1] == dicemodes.ALLOWS["open"]


def test_a_local_game(players: dict[str, Player]) -> None:
    hans = players["german"]
    code, out, err = hans.run("invite", "--scenario", 1, "--side", "allied", "--dice", "local")
    assert code == 0 and out == "" and err.startswith("local game ")
    game_id = err.split()[2].rstrip(":")
    bots = bots_for(BotRng(b"local-cli"))
    svc = hans.service()
    for _ in range(3):
        cmds = bot_commands(svc, game_id, hans.me, bots)
        jsonl = hans.file("".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds))
        code, out, err = hans.run("orders", game_id, "--commands", jsonl)
        assert code == 0 and out == "" and "your move" in err, err
    assert "local dice" in hans.ok("status", game_id)


# -- errors: one line, a non-zero exit status ---------------------------------------------------


def one_line_error(result: tuple[int, str, str], code: int, message: str) -> None:
    got, out, err = result
    assert got == code, err
    assert out == "", out
    assert err.count("\n") == 1 and err.startswith("ardennes: "), err
    assert message in err, err
    assert "Traceback" not in err


def test_errors_are_one_line(players: dict[str, Player], tmp_path: Path) -> None:
    hans, joe = players["german"], players["allied"]
    one_line_error(
        hans.run("export", "abcdef"), 1, "no game in the store with an id starting abcdef"
    )
    one_line_error(hans.run("status", "xyz"), 1, "'xyz' is not a game id or its start")
    game_id = start(players, "sealed")
    # the Allied set-up comes first: not the German's move
    empty = hans.file("", ".jsonl")
    one_line_error(
        hans.run("orders", game_id, "--commands", empty),
        1,
        f"game {game_id[:8]}: not your move: waiting for the allied player (joe) since ",
    )
    # a key that is not the one pinned for our side
    keys.save(keys.generate(), "mallory", home=joe.home)
    mallory = keys.fingerprint(keys.read_public_key(joe.home / "keys" / "mallory"))
    one_line_error(
        joe.run("orders", game_id, "--commands", empty, "--key", "mallory"),
        1,
        f"key {mallory} is not the allied key of game {game_id[:8]}, {joe.me.fingerprint}",
    )
    # an illegal command: its index and rule
    bad = joe.file('{"type":"place","unit":"us-106-i","hex":"2020"}\n', ".jsonl")
    one_line_error(
        joe.run("orders", game_id, "--commands", bad),
        1,
        "command 0 (place) in packet 2 (allied orders): refused: AO-",
    )
    one_line_error(
        joe.run("orders", game_id, "--commands", joe.file("{not json\n")),
        2,
        "line 1: not a command",
    )
    # an invitation is accepted once; files that cannot be read or hold no packet
    one_line_error(joe.run("accept", hans.home / "invitation.txt"), 1, "is already in the store")
    one_line_error(hans.run("import", tmp_path / "missing.txt"), 1, "cannot read")
    one_line_error(
        hans.run("import", hans.file("no packets here\n")), 1, "no armoured packet found"
    )


def test_an_import_with_a_refused_packet_exits_1(players: dict[str, Player]) -> None:
    hans, joe = players["german"], players["allied"]
    game_id = start(players, "sealed")
    cmds = bot_commands(joe.service(), game_id, joe.me, bots_for(BotRng(b"refused")))
    jsonl = joe.file("".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds), ".jsonl")
    sent = joe.ok("orders", game_id, "--commands", jsonl)
    # Joe's own packets, read back: duplicates, exit 0
    code, out, _ = joe.run("import", joe.file(sent))
    assert code == 0 and out.count("duplicate (already stored; nothing changed)") == 2
    # packet 2 damaged in transit: one line, exit 1, nothing stored; packet 1 read all the same
    damaged = sent.replace("Seq: 2", "Seq: 9")
    code, out, err = hans.run("import", hans.file(damaged))
    assert code == 1 and err == ""
    bad, dup = out.splitlines()
    assert bad.endswith("checksum mismatch: damaged in transit")
    head = f"game {game_id[:8]} packet 1 (allied acceptance)"
    assert dup == f"{head}: duplicate (already stored; nothing changed)"
    assert Store(hans.home).count(game_id) == 2
    # the intact text: packet 1 is a duplicate, packet 2 goes in
    out = hans.ok("import", hans.file(sent))
    assert out.splitlines()[1].startswith(f"game {game_id[:8]} packet 2 (allied orders): accepted")


# -- by mail: a real SMTP server on loopback, a mailbox read back --------------------------------


def test_invite_accept_and_import_by_mail(players: dict[str, Player]) -> None:
    from tests.kit.mail import Inbox, free_port

    controller_module = pytest.importorskip("aiosmtpd.controller")
    inbox = Inbox()
    port = free_port()
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        hans, joe = players["german"], players["allied"]
        for p in (hans, joe):
            (p.home / "no-config.toml").write_text(
                f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n'
                f'from = "{p.name}@example.org"\n[mailbox]\npath = "{p.home / "mbox"}"\n'
            )
        code, out, err = hans.run(
            "invite", "--scenario", 1, "--side", "german", "--dice", "sealed",
            "--to", "joe@example.org",
        )  # fmt: skip
        assert code == 0 and out == "" and "sent to joe@example.org" in err, err
        game_id = err.split()[1].rstrip(":")
        ((sender, rcpt, invitation),) = inbox.messages
        assert (sender, rcpt) == ("hans@example.org", ["joe@example.org"])
        eml = joe.home / "invitation.eml"
        eml.write_bytes(invitation)
        code, out, err = joe.run("accept", eml, "--mailto", "hans@example.org")
        assert code == 0 and out == "" and "sent to hans@example.org" in err, err
        box = mailbox.mbox(hans.home / "mbox")
        box.add(inbox.messages[-1][2])
        box.add(inbox.messages[-1][2])  # the same mail twice: the packet counts once
        box.close()
        assert hans.ok("import") == (
            f"game {game_id[:8]} packet 1 (allied acceptance): accepted; waiting for the allied "
            "player (joe@example.org): Allied set-up\n"
        )
        code, out, err = hans.run("export", game_id, "--mailto", "joe@example.org")
        assert code == 0 and "nothing to send" in err  # Joe has everything Hans wrote
    finally:
        controller.stop()


def test_export_mailto_keeps_the_address_when_none_is_known(players: dict[str, Player]) -> None:
    from tests.kit.mail import Inbox, free_port

    controller_module = pytest.importorskip("aiosmtpd.controller")
    inbox = Inbox()
    port = free_port()
    hans, joe = players["german"], players["allied"]
    game_id = start(players, "sealed")  # labels: "joe" and "hans", no address
    (joe.home / "no-config.toml").write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nfrom = "joe@example.org"\n'
    )
    jsonl = joe.file('{"type":"end_phase"}\n', ".jsonl")
    joe.ok("orders", game_id, "--commands", jsonl, "-o", joe.home / "setup.txt")
    # A bad address is a usage error, before anything is sent or kept.
    for bad in ("hans", "hans@example.org eve@example.org", "Hans <hans@example.org>"):
        with pytest.raises(SystemExit) as exc:
            joe.run("export", game_id, "--mailto", bad)
        assert exc.value.code == 2
        out, err = joe.capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "--mailto: " in err, err
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        code, _, err = joe.run("export", game_id[:8], "--mailto", "hans@example.org")
        assert code == 0 and "hans@example.org kept as your opponent's address" in err, err
        assert "sent to hans@example.org" in err
        code, _, err = joe.run("export", game_id[:8], "--mailto", "eve@example.org")
        assert code == 0 and "kept" not in err and "sent to eve@example.org" in err, err
    finally:
        controller.stop()
    assert [m[1] for m in inbox.messages] == [["hans@example.org"], ["eve@example.org"]]
    meta = Store(joe.home).meta(game_id)
    assert meta.address == "hans@example.org" and meta.german == "hans"  # never replaced
    assert hans.ok("import", hans.file(inbox.messages[0][2].decode())).count("accepted") == 1
