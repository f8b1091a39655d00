"""SVG snapshots of the map viewer at 80x24, one per zoom level, on the real map.

Regenerate with ``.venv/bin/pytest tests/tui/test_snapshots.py --snapshot-update`` and look at
the report before committing (a change to ``scenarios/ardennes/map.json`` changes them). The
viewer has no blinking cursor (no Input widget), so the snapshots are deterministic.
"""

from __future__ import annotations

import importlib.resources
from typing import Any

import pytest

from ardennes_tui.app import ArdennesApp, default_cursor
from scenarios import load_map

REAL_MAP = importlib.resources.files("scenarios").joinpath("ardennes", "map.json")
pytestmark = pytest.mark.skipif(
    not REAL_MAP.is_file(), reason="scenarios/ardennes/map.json not built"
)


def real_app() -> ArdennesApp:
    game_map = load_map()
    return ArdennesApp(game_map, cursor=default_cursor(game_map))


def test_detail_zoom_80x24(snap_compare: Any) -> None:
    assert snap_compare(real_app(), terminal_size=(80, 24))


def test_overview_zoom_80x24(snap_compare: Any) -> None:
    assert snap_compare(real_app(), terminal_size=(80, 24), press=["z"])
