"""The play screen's modes, one per kind of phase (:mod:`ardennes_tui.modes.base`)."""

from __future__ import annotations

from typing import Final

import rules.ao
from ardennes_tui.modes.arrival import DropMode, ReinforcementMode, RollMode
from ardennes_tui.modes.base import Host, Mode, SupplyMode
from ardennes_tui.modes.combat import CombatMode
from ardennes_tui.modes.decision import DecisionMode
from ardennes_tui.modes.game_over import GameOverMode
from ardennes_tui.modes.movement import MovementMode
from ardennes_tui.modes.setup import SetupMode

MODES: Final[dict[rules.ao.Mode, type[Mode]]] = {
    "setup": SetupMode,
    "reinforcement": ReinforcementMode,
    "supply": SupplyMode,
    "drop": DropMode,
    "roll": RollMode,
    "movement": MovementMode,
    "combat": CombatMode,
    "decision": DecisionMode,
    "game_over": GameOverMode,
}
"""The mode of each kind of input the engine waits for (``rules.ao.Options.mode``)."""


def mode_for(host: Host, options: rules.ao.Options) -> Mode:
    """A new mode for the state ``options`` describes."""
    return MODES[options.mode](host, options)


__all__ = [
    "MODES",
    "CombatMode",
    "DecisionMode",
    "DropMode",
    "GameOverMode",
    "Host",
    "Mode",
    "MovementMode",
    "ReinforcementMode",
    "RollMode",
    "SetupMode",
    "SupplyMode",
    "mode_for",
]
