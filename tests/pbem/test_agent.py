"""A player key held by the real ``ssh-agent`` (``pbem.agent``, issue 20: a key held only in
ssh-agent could not play, its dice chain came from the raw private key): its signatures are the
key file's, byte for byte, so its dice chain is too, and it plays a game by email from the
invitation on, which verifies; a game begun in version 2 says it needs the key file."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ardennes_tui.rulesets.ao.narrow import ao_side
from pbem import agent, keys, selfplay
from pbem.core import authoring
from pbem.core.identity import KeyIdentity
from pbem.core.protocol import Identity
from pbem.games import Service
from pbem.store import Store
from tests.kit.realmap import needs_real_map

SSH_AGENT = shutil.which("ssh-agent")
SSH_ADD = shutil.which("ssh-add")
pytestmark = pytest.mark.skipif(
    SSH_AGENT is None or SSH_ADD is None,
    reason="ssh-agent not found: install OpenSSH's client (apt-get install openssh-client)",
)


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, KeyIdentity]]:
    """A real ssh-agent (its own socket) holding a key made by ``ardennes keygen``: the
    socket, and the same key read from its file."""
    assert SSH_AGENT is not None and SSH_ADD is not None
    home = tmp_path_factory.mktemp("agent")
    sock = str(home / "agent.sock")
    stored = keys.save(keys.generate(), "played", home=home)
    proc = subprocess.Popen(
        [SSH_AGENT, "-D", "-a", sock], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(100):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        env = {**os.environ, "SSH_AUTH_SOCK": sock}
        subprocess.run([SSH_ADD, str(stored.path)], env=env, check=True, capture_output=True)
        yield sock, KeyIdentity(keys.load_private_key(stored.path))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_agent_signs_as_the_key_file_does(held: tuple[str, KeyIdentity]) -> None:
    sock, file_key = held
    me = agent.find(path=sock)
    assert me.public_line == file_key.public_line and me.raw_private is None
    for namespace in ("ardennes", "ardennes-dice"):
        assert me.sign(b"a message", namespace) == file_key.sign(b"a message", namespace)
    game = "0f" * 16
    assert authoring._head(me, game) == authoring._head(file_key, game)  # the same dice chain


def test_a_key_the_agent_does_not_hold_is_named(held: tuple[str, KeyIdentity]) -> None:
    sock, _ = held
    with pytest.raises(agent.AgentError, match="ssh-agent holds no ed25519 key with SHA256:x"):
        agent.find("SHA256:x", path=sock)
    with pytest.raises(agent.AgentError, match="cannot talk to ssh-agent at /nowhere"):
        agent.agent_keys("/nowhere")


@needs_real_map
def test_an_agent_key_plays_a_game_by_email(
    held: tuple[str, KeyIdentity], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The German's key is in the agent only: he invites, the Allied (a key file) accepts,
    and both play the first Game-Turn, sealed dice, through their stores."""
    sock, file_key = held
    monkeypatch.setenv("SSH_AUTH_SOCK", sock)
    hans = agent.find()
    joe = selfplay.player_key("allied", "agent")
    svc = {s: Service(Store(tmp_path / s)) for s in ("german", "allied")}
    me: dict[str, Identity] = {"german": hans, "allied": joe}
    sent = svc["german"].invite(hans, scenario=1, side="german", mode="sealed")
    gid = sent.game_id
    svc["german"].import_text(svc["allied"].accept(joe, sent.text).text)
    bots = selfplay._Table(tmp_path / "bots", "sealed", "agent").bots
    while True:
        g = svc["german"].load(gid)
        want = g.expects()
        assert want is not None and g.game is not None
        if g.game.state.turn > 1:
            break
        side = want[0]
        d = svc[side].draft(gid, me[side])
        selfplay.bot_fill(d, bots[ao_side(side)])
        other = "allied" if side == "german" else "german"
        assert svc[other].import_text(svc[side].seal(gid, d).text).ok
    from pbem import audit, sources

    v = audit.verify(sources.load_source(gid, svc["allied"].store))
    assert v.ok, v.line
    assert f"German key {file_key.fingerprint}" in v.line
    reveals = [p for p in g.packets if p.body.author == "german" and p.body.reveal]
    assert len(g.packets) > 5 and reveals, "the agent's dice chain revealed links"


@needs_real_map
def test_key_agent_on_the_command_line(
    held: tuple[str, KeyIdentity],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ardennes_tui.cli import main

    sock, file_key = held
    monkeypatch.setenv("SSH_AUTH_SOCK", sock)
    monkeypatch.setenv("ARDENNES_HOME", str(tmp_path))
    out = tmp_path / "inv.txt"
    args = ["invite", "--scenario", "1", "--side", "german", "--dice", "sealed", "-o", str(out)]
    assert main([*args, "--key", "agent"]) == 0
    assert f"your key {file_key.fingerprint}" in capsys.readouterr().err
    assert main([*args, "--key", "agent:SHA256:nothing"]) == 1
    assert capsys.readouterr().err == (
        "ardennes: ssh-agent holds no ed25519 key with SHA256:nothing\n"
    )
