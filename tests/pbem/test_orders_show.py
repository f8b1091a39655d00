"""The command line plays a whole game by email (issue 21, item 5): ``ardennes orders`` stops
where a sealed batch waits for the reply (the complete packet stored and sent, the commands
after it kept for after the reply), goes on after the import, keeps a packet its commands end
inside as its draft; ``ardennes show GAME [--json]`` prints where the game stands: whose move,
what is pending, a map excerpt, the units, and what is kept (a draft played with the key)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules.ao
from ardennes_tui import cli
from ardennes_tui.cli import email as email_cli
from pbem import drafts, orders_rest
from pbem.aoplay import ao_game
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.email_players import Player, bot_commands, start
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.fixture(autouse=True)
def wired(monkeypatch: pytest.MonkeyPatch) -> None:
    if email_cli.register not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, email_cli.register))


def jsonl(p: Player, cmds: list[rules.ao.Command]) -> Path:
    return p.file("".join(rules.ao.encode_command(c).decode() + "\n" for c in cmds), ".jsonl")


def test_orders_stop_at_the_batch_and_go_on_after_the_reply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = {
        "german": Player("hans", tmp_path, monkeypatch, capsys),
        "allied": Player("joe", tmp_path, monkeypatch, capsys),
    }
    hans, joe = players["german"], players["allied"]
    game_id = start(players, "sealed")
    short = game_id[:8]
    hans.ok(
        "import",
        hans.file(joe.ok("orders", short, "--commands", jsonl(joe, [rules.ao.EndPhase()]))),
    )
    bots = bots_for(BotRng(b"orders-show"))
    to_batch = bot_commands(hans.service(), game_id, hans.me, bots)
    assert isinstance(to_batch[-1], rules.ao.DeclareAttack)
    # The player-turn written on: the attacks resolved after the batch (before: "1 command(s)
    # left over ...; nothing stored").
    code, out, err = hans.run(
        "orders", short, "--commands", jsonl(hans, [*to_batch, rules.ao.ResolveAttacks()])
    )
    assert code == 0, err
    assert "-----BEGIN ARDENNES PACKET-----" in out
    assert f"game {short}: packet 3 sealed and stored" in err
    assert (
        f"game {short}: 1 command(s) kept for packet 5, after the Allied reply to your batch: "
        f"import it, then: ardennes orders {short}" in err
    )
    store = Store(hans.home)
    assert store.count(game_id) == 4
    rest = orders_rest.load(store, game_id)
    assert rest is not None and (rest.seq, rest.commands) == (5, (rules.ao.ResolveAttacks(),))

    # show: whose move, the batch pending with its attacks and their odds, what is kept.
    data = json.loads(hans.ok("show", short, "--json"))
    assert data["format"] == "ardennes-show/1" and data["game"] == game_id
    assert (data["to_move"], data["ours"], data["expects"]) == ("allied", False, "reply")
    (batch,) = data["pending"]
    declared = [c for c in to_batch if isinstance(c, rules.ao.DeclareAttack)]
    assert (batch["kind"], batch["what"], batch["side"], batch["waits_for"]) == (
        "batch",
        "declared attacks",
        "german",
        "allied reply",
    )
    assert [a["defenders"] for a in batch["attacks"]] == [list(c.defenders) for c in declared]
    assert all(a["odds"] for a in batch["attacks"])
    assert data["kept"] == {"packet": 5, "commands": 1} and data["draft"] is None
    assert data["position"]["phase"] == "combat" and data["position"]["turn"] == 1
    shown = hans.ok("show", short)
    target = declared[0].defenders[0]
    assert (
        f"Pending: the German declared attacks, waiting for the allied reply\n  {target} " in shown
    )
    flat = " ".join(shown.split())
    assert (
        f"Kept: 1 command(s) for packet 5, after the reply (the next ardennes orders {short} "
        in flat
    )
    assert max(len(x) for x in shown.splitlines()) <= 80, shown
    assert f"{target[2:]}" in shown.split("Kept:")[1]  # the excerpt's row numbers
    assert "German on the map (" in shown and "Allied on the map (" in shown

    # Joe replies; Hans imports and goes on: the kept command first, the packet not complete
    # yet, so it is kept as its draft (the dice of the resolution now known).
    joe.ok("import", joe.file(out))
    hans.ok("import", hans.file(joe.ok("orders", short, "--commands", jsonl(joe, []))))
    code, _, err = hans.run("orders", short)
    assert code == 0, err
    assert f"game {short}: the 1 command(s) kept for packet 5 first" in err
    assert f"game {short}: packet 5 not complete: its 1 order(s) kept as its draft" in err
    assert store.count(game_id) == 5 and orders_rest.load(store, game_id) is None
    saved = drafts.load(store, game_id)
    assert saved is not None and (saved.seq, saved.commands) == (5, (rules.ao.ResolveAttacks(),))
    data = json.loads(hans.ok("show", short, "--json", "--key", "hans"))
    assert data["draft"]["packet"] == 5 and data["draft"]["orders"] == 1
    after = data["draft"]["position"]
    assert after["dice"] > data["position"]["dice"]  # the batch's dice drawn in the draft
    assert hans.ok("show", short, "--key", "hans").startswith(
        "(the position after your 1 unsent order(s))\n"
    )
    # The rest of the player-turn, written knowing the results: packet 5 sealed.
    d = hans.service().draft(game_id, hans.me)
    assert not isinstance(d.push(rules.ao.ResolveAttacks()), str)
    more: list[rules.ao.Command] = []
    while not d.ended():
        cmd = bots["german"].choose(ao_game(d.scratch))
        if isinstance(cmd, rules.ao.ResolveAttacks) and d.complete():
            break
        assert not isinstance(d.push(cmd), str)
        more.append(cmd)
    code, _, err = hans.run("orders", short, "--commands", jsonl(hans, more))
    assert code == 0, err
    assert f"game {short}: the 1 command(s) kept in packet 5's draft first" in err
    assert f"game {short}: packet 5 sealed and stored" in err
    assert store.count(game_id) == 6 and drafts.load(store, game_id) is None
    assert json.loads(hans.ok("show", short, "--json"))["to_move"] == "allied"
