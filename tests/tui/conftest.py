"""The app's tests never touch the user's game store: ``ARDENNES_HOME`` is a temporary folder
for every test (the app keeps every hot-seat game in the store, ``ardennes_tui.games.hotseat``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def ardennes_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The store's root of the test (``$ARDENNES_HOME``), empty at the start."""
    home = tmp_path_factory.mktemp("ardennes-home")
    monkeypatch.setenv("ARDENNES_HOME", str(home))
    return home
