"""What the two tmux email games share (``tests/tui/test_tmux_email.py``, two players' stores;
``tests/tui/test_tmux_bot_email.py``, a player against ``ardennes bot``): the command, the
marks that skip them without tmux or the command, scenario 1's obligatory Game-Turn 1 attacks
and the import dialog's texts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.kit.realmap import needs_real_map
from tests.kit.tmux import HAVE_TMUX

ARDENNES = Path(sys.executable).with_name("ardennes")
"""The ``ardennes`` console script of this environment."""

MARKS = [
    needs_real_map,
    pytest.mark.slow,
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux not installed"),
    pytest.mark.usefixtures("tmux_server"),
    pytest.mark.skipif(not ARDENNES.is_file(), reason="the ardennes command is not installed"),
]
"""A module's ``pytestmark``: real map, slow (``make test-slow``), tmux and the command."""

GT1_ATTACKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("3432", ("3531", "3532")),
    ("3227", ("3226", "3327")),
    ("3323", ("3324", "3423")),
    ("3815", ("3814", "3915")),
    ("3713", ("3813",)),
    ("3506", ("3606",)),
    ("3817", ("3818", "3917")),
    ("3619", ("3620",)),
    ("3420", ("3521",)),
    ("3635", ("3634",)),
)
"""The German's obligatory attacks of Game-Turn 1 (AO-4.2h*) in scenario 1's historical
set-up: each target hex and the hexes of its attackers (one unit each). Every American unit
of the list is attacked and every German unit of it attacks."""

IMPORT = "Import your opponent's packets"
"""The import dialog's title."""
PLACEHOLDER = "a file, .eml, mbox or Maildir"
"""The import dialog's path field while it is empty."""
