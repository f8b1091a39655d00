"""Tests of :mod:`pbem` (``docs/pbem-protocol.md``).

Tests that run the real OpenSSH ``ssh-keygen`` carry ``@needs_ssh_keygen`` and skip, saying how
to get it, where it is not installed; they never install anything. :func:`ssh_keygen` runs it
with a closed standard input (never a prompt) and a timeout.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(
    SSH_KEYGEN is None,
    reason="ssh-keygen not found: install OpenSSH's client (apt-get install openssh-client) "
    "to run the checks against the real ssh-keygen",
)


def ssh_keygen(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``ssh-keygen ARGS`` with ``stdin`` as its input; the result, whatever the exit status."""
    assert SSH_KEYGEN is not None
    return subprocess.run(
        [SSH_KEYGEN, *args], input=stdin, capture_output=True, timeout=60, check=False
    )
