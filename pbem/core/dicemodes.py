"""What each dice mode allows, said the same way everywhere the program names a mode: the
command line's help, the invitation, the import, the status, the game list, the armour's
readable header and the app (``docs/pbem-protocol.md`` sections 4 and 9).

Each sentence is the protocol's limit, not its hope: open dice let the mover see his dice
before he orders; sealed dice let nobody choose a roll, but the mover learns a batch's dice
from the reply before he sends the resolution, a player learns a die of his own one packet
early (the AO's CRT switch: the German), and whoever reveals last can stall; local dice stop
no re-roll. The words name no ruleset's sides: every ruleset's games show them.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ALLOWS", "HEADER", "SHORT"]

ALLOWS: Final[dict[str, str]] = {
    "sealed": (
        "sealed dice: nobody can choose a roll, but the mover learns a batch's dice from the "
        "reply, before he sends the resolution (his decisions in it follow his standing "
        "orders), a player learns a die of his own one packet early, and whoever reveals "
        "last can stall"
    ),
    "open": (
        "open dice: the mover sees his dice before he orders, so he can choose which attacks "
        "to make and in which order"
    ),
    "local": "local dice: one player at the keyboard; nothing stops a re-roll by starting again",
}
"""The whole statement, one line (status, import, invitation, ``--help``)."""

SHORT: Final[dict[str, str]] = {
    "sealed": "no roll chosen; a batch's dice seen on the reply",
    "open": "the mover sees his dice before he orders",
    "local": "hot-seat, both sides yours; re-rolls not stopped",
}
"""At most 50 characters (the app's new-game dialog, the game list's legend)."""

HEADER: Final[dict[str, str]] = {
    "sealed": "sealed; the mover sees a batch's dice on the reply",
    "open": "open; the mover sees his dice before he orders",
    "local": "local; hot-seat, re-rolls not stopped",
}
"""The value of an invitation's ``Dice:`` armour header line (at most 58 characters)."""
