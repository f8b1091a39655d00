"""``docs/ssh.md`` end to end: players log in to a real OpenSSH server and land in the game.

An sshd on loopback (:mod:`tests.ssh.sshd`) runs ``contrib/ardennes-ssh`` for every login,
with this checkout's ``ardennes`` and a store of the test's own (``ARDENNES_HOME``): once
through the ``Match`` block of ``docs/ssh.md`` (its lines as written there, for the current
user, with the test's paths), once as the ``restrict,pty,command=`` of the player's key. In
tmux at 80x24, ``ssh -tt HOST ardennes --scenario 1 --seed 7`` shows the game, takes keys (the
set-up accepted, the cursor moved), follows a resize (79x24: the app says the terminal is too
small; 80x24 again: the map) and quits with ``q`` (ssh's exit status 0), the game left in the
player's store; ``ssh -tt HOST`` with no command opens the app too; ``ssh HOST ardennes games``
(no terminal) lists the game; any other command is refused; ``NO_COLOR`` sent by the client
(``SetEnv``, accepted by the block's ``AcceptEnv``) turns the colours off; and packets go in
and out through plain commands (standard input and output).

Marked ``ssh``: not part of ``make test`` (``-m "not ssh"``); ``make test-ssh`` runs it. It
skips without OpenSSH's server and client or without tmux.
"""

from __future__ import annotations

import getpass
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbem.store import Store
from tests.kit.realmap import needs_real_map
from tests.kit.tmux import HAVE_TMUX, Pane, session
from tests.ssh.sshd import HAVE_OPENSSH, SshServer, ssh_server

ROOT = Path(__file__).resolve().parents[2]
ARDENNES = Path(sys.executable).with_name("ardennes")
"""This checkout's ``ardennes`` (the virtual environment's console script)."""
LOGIN = ROOT / "contrib" / "ardennes-ssh"
"""What every login runs (``docs/ssh.md``)."""

pytestmark = [
    pytest.mark.ssh,
    needs_real_map,
    pytest.mark.skipif(not HAVE_OPENSSH, reason="OpenSSH (sshd, ssh, ssh-keygen) not installed"),
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux not installed"),
    pytest.mark.usefixtures("tmux_server"),
    pytest.mark.skipif(not ARDENNES.is_file(), reason="the ardennes command is not installed"),
]


DOC = ROOT / "docs" / "ssh.md"


def login_command(home: Path) -> str:
    """The forced command: ``contrib/ardennes-ssh`` with this checkout's ``ardennes`` and the
    player's store ``home``."""
    return (
        f"ARDENNES_BIN={shlex.quote(str(ARDENNES))} ARDENNES_HOME={shlex.quote(str(home))} "
        f"exec {shlex.quote(str(LOGIN))}"
    )


def documented_block(home: Path, folder: Path) -> str:
    """``docs/ssh.md``'s ``Match`` block for this test: for the current user instead of the
    group, with the test's forced command and authorized keys."""
    found = re.search(r"```sshd_config\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert found, "no sshd_config block in docs/ssh.md"
    head, *body = found.group(1).splitlines()
    assert head == "Match Group ardennes", head
    lines = [f"Match User {getpass.getuser()}"]
    replaced = {
        "ForceCommand": login_command(home),
        "AuthorizedKeysFile": str(folder / "authorized_keys"),
    }
    for line in body:
        keyword = line.split()[0]
        lines.append(f"    {keyword} {replaced[keyword]}" if keyword in replaced else line)
    assert all(k in found.group(1) for k in replaced)
    return "\n".join(lines) + "\n"


@pytest.fixture(params=["sshd_config", "authorized_keys"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[SshServer, Path]]:
    """An sshd that lands its logins in ``ardennes`` (docs/ssh.md's ``Match`` block, or a
    ``restrict,pty,command=`` key line): the server and the player's store."""
    home = tmp_path / "store"
    folder = tmp_path / "sshd"
    if request.param == "sshd_config":
        setup = ssh_server(folder, extra=documented_block(home, folder))
    else:
        quoted = login_command(home).replace("\\", "\\\\").replace('"', '\\"')
        setup = ssh_server(folder, key_options=f'restrict,pty,command="{quoted}"')
    with setup as sshd:
        yield sshd, home


@contextmanager
def in_tmux(sshd: SshServer, argv: list[str], status: Path) -> Iterator[Pane]:
    """``argv`` (an ssh command line) in tmux at 80x24; its exit status goes to ``status``."""
    command = f"{shlex.join(argv)}; echo $? > {shlex.quote(str(status))}"
    with session(["sh", "-c", command], {"TERM": "xterm-256color"}, status.parent) as pane:
        try:
            yield pane
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n--- sshd log:\n{sshd.diagnostics()}") from exc


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


def test_a_login_lands_in_the_game(server: tuple[SshServer, Path], tmp_path: Path) -> None:
    sshd, home = server
    status = tmp_path / "status"
    argv = sshd.ssh("ardennes", "--scenario", "1", "--seed", "7", tty=True)
    with in_tmux(sshd, argv, status) as pane:
        pane.wait_for("Allied set-up placed (historical): e accepts it", timeout=30)
        pane.wait_for("Dice seed 7", "Hex 2328")
        pane.keys("e")
        pane.wait_for("Press e again to accept the Allied set-up")
        pane.keys("e")
        pane.wait_for("German player's turn: hand over, press Enter")  # hot-seat hand-over
        pane.keys("Enter")
        pane.wait_for("German set-up placed (historical)")
        pane.keys("l")  # a cursor key, through ssh
        pane.wait_for("Hex 2428")
        pane.resize(79, 24)  # ssh passes the window change on to the remote terminal
        pane.wait_for("Terminal too small")
        pane.resize(80, 24)
        pane.wait_gone("Terminal too small")
        pane.wait_for("German set-up placed (historical)")
        pane.keys("q")
        pane.wait_closed()
    assert status.read_text().strip() == "0", sshd.diagnostics()
    (game,) = Store(home).list_local()  # the player's store on the host
    assert game.name

    listed = run(sshd.ssh("ardennes", "games"))  # a plain command: no terminal
    assert listed.returncode == 0, (listed.stderr, sshd.diagnostics())
    assert game.name[:8] in listed.stdout
    assert "ardennes --resume NAME" in listed.stdout

    refused = run(sshd.ssh("ls", "/"))
    assert refused.returncode == 2
    assert "This host runs only ardennes" in refused.stderr
    assert refused.stdout == ""


def test_a_login_without_a_command_opens_the_app(
    server: tuple[SshServer, Path], tmp_path: Path
) -> None:
    sshd, _ = server
    status = tmp_path / "status"
    with in_tmux(sshd, sshd.ssh(tty=True), status) as pane:
        pane.wait_alternate_screen(timeout=30)  # a full-screen app, not a shell
        pane.settle(quiet=0.5, timeout=30)
        pane.keys("q")
        pane.wait_closed()
    assert status.read_text().strip() == "0", sshd.diagnostics()


def test_no_color_sent_by_the_client(tmp_path: Path) -> None:
    home, folder = tmp_path / "store", tmp_path / "sshd"
    with ssh_server(folder, extra=documented_block(home, folder)) as s:
        argv = s.ssh(
            "ardennes", "--scenario", "1", "--seed", "7", tty=True, options=["SetEnv=NO_COLOR=1"]
        )
        with in_tmux(s, argv, tmp_path / "status") as pane:
            pane.wait_for("Allied set-up placed (historical)", "Hex 2328", timeout=30)
            colours = re.findall(r"\x1b\[([0-9;]*)m", pane.screen(escapes=True))
            codes = {c for seq in colours for c in seq.split(";") if c}
            # Only attributes (bold, reverse, reset) and the default colours: no colour.
            assert codes <= {"0", "1", "7", "22", "27", "39", "49"}, codes
            pane.keys("q")
            pane.wait_closed()


def test_packets_in_and_out_by_plain_commands(tmp_path: Path) -> None:
    """Without a terminal, the player's own machine passes packets through ssh: his key made
    on the host (``keygen``), an invitation accepted from standard input, the acceptance on
    standard output for the opponent, who imports it; the game then verifies on the host."""
    home = tmp_path / "store"
    joe = {**os.environ, "ARDENNES_HOME": str(tmp_path / "joe")}

    def local(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(ARDENNES), *args], env=joe, input=stdin, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (args, done.stderr)
        return done

    local("keygen", "joe", "--no-passphrase")
    invitation = local("invite", "--scenario", "1", "--side", "allied", "--dice", "sealed").stdout
    folder = tmp_path / "sshd"
    with ssh_server(folder, extra=documented_block(home, folder)) as sshd:

        def remote(*args: str, stdin: str = "") -> str:
            done = subprocess.run(
                sshd.ssh("ardennes", *args), input=stdin, capture_output=True, text=True, timeout=60
            )
            assert done.returncode == 0, (args, done.stderr, sshd.diagnostics())
            return done.stdout

        remote("keygen", "hans", "--no-passphrase")
        assert "hans  SHA256:" in remote("keys")
        acceptance = remote("accept", "-", "--opponent", "joe", stdin=invitation)
        assert "-----BEGIN ARDENNES PACKET-----" in acceptance
        assert "accepted" in local("import", "-", stdin=acceptance).stdout
        (game,) = Store(home).game_ids()
        assert remote("verify", game[:8]).startswith(f"OK: game {game}, scenario 1")
        assert remote("export", game[:8]) == acceptance  # what joe has not acknowledged yet
