"""The independent dice checker (``contrib/ardennes-dice-check``) run as an auditor would: by the
system's python3, outside this project's virtual environment."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHECKER = Path(__file__).parents[2] / "contrib" / "ardennes-dice-check"

SYSTEM_PYTHON = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")
needs_system_python = pytest.mark.skipif(SYSTEM_PYTHON is None, reason="no system python3")


def dice_check(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The checker, run by the system's python3 (not this virtual environment's)."""
    assert SYSTEM_PYTHON is not None
    return subprocess.run(
        [SYSTEM_PYTHON, "-I", str(CHECKER), str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
