"""A throwaway OpenSSH server on loopback, for the end-to-end tests of ``docs/ssh.md``.

:func:`ssh_server` writes a host key, a client key and an ``sshd_config`` into a temporary
folder, starts ``sshd -D -e -f CONFIG`` on a free port of 127.0.0.1 for the current user (key
authentication only), waits until it listens, and always stops it (its whole process group)
on the way out. :meth:`SshServer.ssh` is the client's command line: this key only, this host
key only (a ``known_hosts`` of its own, checked strictly), no user configuration, batch mode.

As root, sshd needs its privilege separation directory (``/run/sshd`` on Debian, made by its
service; ``make test-ssh`` makes it). Every wait has a timeout.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")


def find_sshd() -> str | None:
    """The ``sshd`` program (it lives in an ``sbin`` folder, often not on a user's PATH)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
    return shutil.which("sshd", path=path)


HAVE_OPENSSH = all(shutil.which(p) for p in ("ssh", "ssh-keygen")) and find_sshd() is not None
"""The server and the client of OpenSSH are both installed."""


@dataclass(frozen=True)
class SshServer:
    """A running sshd: its ``port``, the ``user`` to log in as, the client's ``key`` and the
    ``known_hosts`` holding the server's host key; ``log`` is the server's standard error."""

    port: int
    user: str
    key: Path
    known_hosts: Path
    log: Path

    def ssh(self, *args: str, tty: bool = False, options: Sequence[str] = ()) -> list[str]:
        """``ssh`` to the server with ``args`` as the remote command (none: a login); ``tty``
        forces a terminal (``-tt``), ``options`` are more ``-o`` settings."""
        argv = [
            "ssh",
            *(["-tt"] if tty else ["-T"]),
            "-F",
            "/dev/null",
            "-p",
            str(self.port),
            "-i",
            str(self.key),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "IdentityAgent=none",
            "-o",
            f"UserKnownHostsFile={self.known_hosts}",
            "-o",
            "StrictHostKeyChecking=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=10",
            "-o",
            "LogLevel=ERROR",
        ]
        for option in options:
            argv += ["-o", option]
        return [*argv, f"{self.user}@127.0.0.1", *args]

    def diagnostics(self) -> str:
        """The server's log so far, for a failing assertion."""
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


def free_port() -> int:
    """A TCP port of 127.0.0.1 free just now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def keygen(path: Path, comment: str) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)],
        check=True,
        capture_output=True,
        timeout=30,
    )


def config_text(folder: Path, port: int, user: str, extra: str) -> str:
    """An ``sshd_config`` for the test: only ``user``, only keys, no forwarding, then
    ``extra`` (a ``Match`` block, ``docs/ssh.md``'s)."""
    lines = [
        f"Port {port}",
        "ListenAddress 127.0.0.1",
        f"HostKey {folder / 'host_ed25519'}",
        "PidFile none",
        f"AuthorizedKeysFile {folder / 'authorized_keys'}",
        # The test's files live under the temporary folder (world-writable /tmp above it),
        # which StrictModes refuses; a real host keeps StrictModes yes (docs/ssh.md).
        "StrictModes no",
        "UsePAM no",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "PermitRootLogin prohibit-password",
        f"AllowUsers {user}",
        "DisableForwarding yes",
        "PrintMotd no",
        "LogLevel VERBOSE",
    ]
    return "\n".join(lines) + "\n" + extra


def wait_listening(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Poll until something accepts connections on ``port``; fail at once if sshd died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            text = log.read_text(errors="replace")
            hint = ""
            if "privilege separation directory" in text:
                hint = "\n(as root: mkdir -p -m 0755 /run/sshd, or run make test-ssh)"
            raise AssertionError(f"sshd exited with status {proc.returncode}:\n{text}{hint}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"sshd does not listen on port {port}:\n{log.read_text()}")


@contextmanager
def ssh_server(folder: Path, *, extra: str = "", key_options: str = "") -> Iterator[SshServer]:
    """Run sshd for the current user from ``folder`` (created): ``extra`` ends its
    configuration (a ``Match`` block: see :func:`config_text`), ``key_options`` go before the
    client's key in ``authorized_keys`` (``restrict,pty,command="..."``). Stopped on the way
    out, whatever happened."""
    sshd = find_sshd()
    assert sshd is not None, "sshd not found"
    folder.mkdir(parents=True, exist_ok=True)
    keygen(folder / "host_ed25519", "ardennes-test-host")
    keygen(folder / "player", "ardennes-test-player")
    public = (folder / "player.pub").read_text().strip()
    (folder / "authorized_keys").write_text(f"{key_options} {public}\n".lstrip())
    host = (folder / "host_ed25519.pub").read_text().split()
    user = getpass.getuser()
    for _attempt in range(3):  # another process may take the free port first
        port = free_port()
        known = folder / "known_hosts"
        known.write_text(f"[127.0.0.1]:{port} {host[0]} {host[1]}\n")
        config = folder / "sshd_config"
        config.write_text(config_text(folder, port, user, extra))
        log = folder / "sshd.log"
        with log.open("wb") as err:
            proc = subprocess.Popen(
                [sshd, "-D", "-e", "-f", str(config)],
                stdin=subprocess.DEVNULL,
                stdout=err,
                stderr=err,
                start_new_session=True,
            )
        try:
            wait_listening(port, proc, log, timeout=15)
        except AssertionError:
            stop(proc)
            if "Address already in use" in log.read_text(errors="replace"):
                continue
            raise
        try:
            yield SshServer(port, user, folder / "player", known, log)
        finally:
            stop(proc)
        return
    raise AssertionError("no free port for sshd after 3 attempts")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop sshd and whatever is left in its process group (SIGTERM, then SIGKILL)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue
