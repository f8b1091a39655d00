"""``contrib/ardennes-ssh``, the script every SSH login runs (``docs/ssh.md``), without sshd.

As a forced command it reads the client's command from ``SSH_ORIGINAL_COMMAND``; as a login
shell it gets ``-c COMMAND``. No command runs the program; ``ardennes ARGS`` runs it with ARGS
split on blanks, never globbed nor expanded; anything else is refused with status 2. The
program is ``ARDENNES_BIN`` (here a script that prints how many arguments it got, and
each).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "contrib" / "ardennes-ssh"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell")


@pytest.fixture
def program(tmp_path: Path) -> Path:
    """A stand-in for ``ardennes``: prints ``N|arg1|arg2|...|``."""
    path = tmp_path / "ardennes"
    path.write_text('#!/bin/sh\nprintf \'%s|\' "$#" "$@"\n')
    path.chmod(0o755)
    return path


def login(
    program: Path, *args: str, original: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the script as sshd would (``args``: as a login shell; ``original``: the client's
    command of a forced command) with ``program`` for ``ardennes``."""
    env = {"PATH": "/usr/bin:/bin", "ARDENNES_BIN": str(program)}
    if original is not None:
        env["SSH_ORIGINAL_COMMAND"] = original
    return subprocess.run(
        [str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=10, cwd="/"
    )


def test_the_script_is_executable_posix_sh() -> None:
    assert SCRIPT.read_text().startswith("#!/bin/sh\n")
    assert SCRIPT.stat().st_mode & 0o111
    assert subprocess.run(["sh", "-n", str(SCRIPT)], timeout=10).returncode == 0


@pytest.mark.parametrize("how", ["forced", "shell"])
def test_ardennes_args_run_the_program_with_those_args(how: str, program: Path) -> None:
    command = "ardennes games  --json * $HOME 'a b'"
    done = login(program, original=command) if how == "forced" else login(program, "-c", command)
    assert done.returncode == 0, done.stderr
    # split on blanks; no globbing, no expansion, no quotes
    assert done.stdout == "6|games|--json|*|$HOME|'a|b'|"


@pytest.mark.parametrize("how", ["forced", "shell"])
def test_no_command_runs_the_program_alone(how: str, program: Path) -> None:
    done = login(program, original="") if how == "forced" else login(program)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "0|"


@pytest.mark.parametrize(
    "command", ["ls /", "sh", "scp -f x", "/usr/lib/openssh/sftp-server", "ardennes-x", "$(id)"]
)
def test_anything_else_is_refused(command: str, program: Path) -> None:
    for done in (login(program, original=command), login(program, "-c", command)):
        assert done.returncode == 2
        assert done.stdout == ""
        assert "This host runs only ardennes" in done.stderr
