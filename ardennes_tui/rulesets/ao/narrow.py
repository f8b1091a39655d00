"""The AO's types back from the shell's generic ones: the app's shell holds a
:class:`rules.game.Game` of any ruleset and sides as strings; the AO's screens narrow them to
the AO's (formerly ``pbem.aoplay``'s, for the app), with one clear line for another ruleset's."""

from __future__ import annotations

from typing import Any

import rules.ao
from ardennes_tui.errors import UserError


def ao_game(game: Any) -> rules.ao.Game:
    """``game`` as an AO game; :class:`UserError` for a game of another ruleset."""
    if not isinstance(game, rules.ao.Game):
        rid = getattr(getattr(game, "ruleset", None), "id", "?")
        raise UserError(f"this is a game of the ruleset {rid!r}: only AO games are shown here")
    return game


def ao_side(side: str) -> rules.ao.Side:
    """``side`` as an AO side; :class:`UserError` for another ruleset's."""
    if side not in ("german", "allied"):
        raise UserError(f"{side!r} is not a side of The Ardennes Offensive")
    return side  # type: ignore[return-value]
