"""Efficiency outside the combat itself (8.1, G6): movement, the start of a turn.

8.1: "A unit loses efficiency for every hex it moves into (except when in travel mode) ...
Isolated and unsupplied units lose efficiency at the beginning of each turn. Units supply
regain some efficiency at the beginning of each turn. Any unused operation points from the
previous movement phase recover efficiency on a point for point basis at the beginning of the
turn." 4.3: unsupplied units "not only fail to recover efficiency, but also suffer an
additional efficiency loss". The amounts are ours (G6); battle losses are in
:func:`rules.breakthrough.losses.efficiency_after_battle` (BA-8.1c).
"""

from __future__ import annotations

from typing import Final

from rules.breakthrough.units import MAX_EFFICIENCY, MIN_EFFICIENCY, Mode, Supply

MOVE_LOSS: Final = 2
"""Efficiency points lost per hex moved into in normal mode (BA-8.1b, G6)."""
SUPPLIED_RECOVERY: Final = 5
"""Points a supplied unit regains at the start of a turn (BA-8.1d, G6)."""
UNSUPPLIED_LOSS: Final = 5
ISOLATED_LOSS: Final = 10
"""Points an unsupplied / isolated unit loses at the start of a turn (BA-8.1d, BA-4.3b, G6)."""


def clamp(efficiency: int) -> int:
    """Efficiency kept within 40..100 (BA-8.1a)."""
    return max(MIN_EFFICIENCY, min(MAX_EFFICIENCY, efficiency))


def after_move(efficiency: int, mode: Mode, hexes: int = 1) -> int:
    """Efficiency after moving into ``hexes`` hexes (retreats and advances too): 2 a hex in
    normal mode, none in travel mode (BA-8.1b)."""
    return efficiency if mode == "travel" else clamp(efficiency - MOVE_LOSS * hexes)


def at_turn_start(efficiency: int, supply: Supply, unused_op: int) -> int:
    """Efficiency at the beginning of a turn (BA-8.1d, BA-8.1e, BA-4.3b).

    Supplied: +5, and +1 per operation point left unused in the previous operation phase.
    Unsupplied: -5 and no recovery at all, the unused points included (4.3 "fail to recover
    efficiency"); isolated: -10 likewise. Always within 40..100.

    >>> at_turn_start(80, "supplied", 7), at_turn_start(80, "unsupplied", 7)
    (92, 75)
    """
    if supply == "supplied":
        return clamp(efficiency + SUPPLIED_RECOVERY + unused_op)
    return clamp(efficiency - (UNSUPPLIED_LOSS if supply == "unsupplied" else ISOLATED_LOSS))
