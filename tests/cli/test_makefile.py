"""``make play ARGS="..."`` passes its arguments to ``ardennes`` (skipped without ``make``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
def test_make_play_passes_its_arguments() -> None:
    out = subprocess.run(
        ["make", "-n", "-s", "-C", str(ROOT), "play", "ARGS=--scenario 3 --seed x"],
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout
    assert out.splitlines()[-1] == ".venv/bin/ardennes --scenario 3 --seed x"
    alone = subprocess.run(
        ["make", "-n", "-s", "-C", str(ROOT), "play"], check=True, capture_output=True, text=True
    ).stdout
    assert alone.splitlines()[-1].rstrip() == ".venv/bin/ardennes"
