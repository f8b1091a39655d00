"""Players by email for the protocol and command-line tests: the heuristic bot's commands for
our next packet, a game's state hash in a store, and a player who runs ``ardennes`` with his
own home (store and keys)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules.ao
from ardennes_tui import cli
from pbem import keys
from pbem.aoplay import ao_side
from pbem.core.identity import KeyIdentity
from pbem.games import Service
from pbem.store import Store


def state_hash(service: Service, game_id: str) -> str:
    g = service.load(game_id).game
    assert g is not None
    return g.state_hash()


def bot_commands(service: Service, game_id: str, me: KeyIdentity, bots: dict) -> list:
    """The commands the heuristic bot gives for our next packet (tried on a draft that is
    thrown away); none for a reply (the service adds the standing orders)."""
    d = service.draft(game_id, me)
    side = d.body.author
    if d.body.kind == "reply":
        return []
    if d.scratch.state.combat.orders(side) is None:
        assert not isinstance(
            d.push(rules.ao.StandingOrders(side=ao_side(side), advance="strongest")), str
        )
    out = []
    while not d.ended():
        cmd = bots[side].choose(d.scratch)
        if isinstance(cmd, rules.ao.ResolveAttacks) and d.complete():
            break  # sealed: the declared batch goes to the opponent for his reply
        r = d.push(cmd)
        assert not isinstance(r, str), (cmd, r)
        out.append(cmd)
    return out


class Player:
    """One player: his own home (store and keys), his key, and the ``ardennes`` command run
    as him."""

    def __init__(
        self,
        name: str,
        root: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        self.name = name
        self.home = root / name
        self.mp = monkeypatch
        self.capsys = capsys
        keys.save(keys.generate(), name, home=self.home)
        self.me = KeyIdentity(keys.load_key(name, home=self.home))
        self.files = 0
        self._service: Service | None = None

    def run(self, *argv: str | Path | int) -> tuple[int, str, str]:
        self.mp.setenv("ARDENNES_HOME", str(self.home))
        self.mp.setenv("ARDENNES_CONFIG", str(self.home / "no-config.toml"))
        self.capsys.readouterr()
        code = cli.main([str(a) for a in argv])
        out, err = self.capsys.readouterr()
        return code, out, err

    def ok(self, *argv: str | Path | int) -> str:
        code, out, err = self.run(*argv)
        assert code == 0, (argv, err)
        return out

    def file(self, text: str, suffix: str = ".txt") -> Path:
        self.files += 1
        path = self.home / f"in-{self.files}{suffix}"
        path.write_text(text)
        return path

    def service(self) -> Service:
        """A service on the player's store, for the bot's look at the game (kept: it replays
        the stored packets only when they change)."""
        if self._service is None:
            self._service = Service(Store(self.home))
        return self._service


def start(players: dict[str, Player], dice: str) -> str:
    """Hans invites (``-o FILE``), Joe accepts (printed), Hans imports the acceptance."""
    hans, joe = players["german"], players["allied"]
    inv = hans.home / "invitation.txt"
    code, out, err = hans.run(
        "invite", "--scenario", 1, "--side", "german", "--dice", dice, "--opponent", "joe",
        "-o", inv,
    )  # fmt: skip
    assert code == 0 and out == "", err
    assert f"your key {hans.me.fingerprint}" in err
    game_id = err.split()[1].rstrip(":")
    report = joe.ok("import", inv)
    assert report.startswith(f"game {game_id[:8]} packet 0 (german invitation): invitation: ")
    acceptance = joe.ok("accept", inv, "--opponent", "hans")
    assert "-----BEGIN ARDENNES PACKET-----" in acceptance
    assert hans.ok("import", hans.file(acceptance)) == (
        f"game {game_id[:8]} packet 1 (allied acceptance): accepted; waiting for the allied "
        "player (joe): Allied set-up\n"
    )
    return game_id
