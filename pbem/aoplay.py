"""Transitional (issue 23, phase 2): the AO's types for the email play above :mod:`pbem.core`
that still knows The Ardennes Offensive (the store's service, self-play, the covers and the
app's email screens, which show AO orders, attacks and standing orders).

:mod:`pbem.core` reaches a game only through its ruleset (sides are strings, the game a
:class:`rules.game.Game` of any ruleset); these helpers narrow them back to the AO's, with a
clear refusal for a game of another ruleset, until those layers are ruleset-agnostic too.
"""

from __future__ import annotations

from typing import Any

import rules.ao
from pbem.core.errors import PbemError

AO_SIDES: tuple[rules.ao.Side, rules.ao.Side] = ("allied", "german")


def ao_game(game: Any) -> rules.ao.Game:
    """``game`` as an AO game; :class:`PbemError` for a game of another ruleset."""
    if not isinstance(game, rules.ao.Game):
        rid = getattr(getattr(game, "ruleset", None), "id", "?")
        raise PbemError(f"this is a game of the ruleset {rid!r}: only AO games are shown here")
    return game


def ao_side(side: str) -> rules.ao.Side:
    """``side`` as an AO side; :class:`PbemError` for another ruleset's."""
    if side not in AO_SIDES:
        raise PbemError(f"{side!r} is not a side of The Ardennes Offensive")
    return side


def ao_other(side: str) -> rules.ao.Side:
    """The other AO side."""
    return rules.ao.other_side(ao_side(side))
