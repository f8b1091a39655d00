"""The Game-Turn 1 special rules that other rule modules read (AO-4.2b-g).

They live apart from :mod:`rules.ao.sequence` so that supply and combat can use them without
importing the sequence of play (which itself calls supply and combat).
"""

from __future__ import annotations

from rules.ao.state import GameState


def german_attack_multiplier(state: GameState) -> int:
    """3 in the German GT1 Combat Phase (AO-4.2d: tripled, never more), else 1."""
    return 3 if state.turn == 1 and state.side == "german" else 1


def german_defence_multiplier(state: GameState) -> int:
    """3 for German defenders in the Allied GT1 Combat Phase (AO-4.2e), else 1."""
    return 3 if state.turn == 1 and state.side == "allied" else 1


def german_always_supplied(state: GameState) -> bool:
    """All German units are in supply on Game-Turn 1 (AO-4.2b)."""
    return state.turn == 1


def reinforcements_allowed(state: GameState) -> bool:
    """No Allied reinforcements on Game-Turn 1 (AO-4.2g)."""
    return not (state.turn == 1 and state.side == "allied")
