"""The one real-map skip: tests that need the compiled map (``scenarios/ardennes/map.json``,
committed and rebuilt by ``make map``) carry ``@needs_real_map`` (or ``pytestmark``), or take the
session fixture ``real_scenario`` (``tests/conftest.py``), which skips by itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import scenarios
from rules.ao.state import Board, GameState

REAL_MAP = Path(scenarios.__file__).resolve().parent / "ardennes" / "map.json"
HAVE_REAL_MAP = REAL_MAP.is_file()
needs_real_map = pytest.mark.skipif(
    not HAVE_REAL_MAP, reason="scenarios/ardennes/map.json not built"
)

RealScenario = Callable[[int], tuple[Board, GameState]]
"""The type of the ``real_scenario`` fixture: scenario number -> (board, state before set-up)."""
