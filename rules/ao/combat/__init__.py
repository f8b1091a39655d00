"""Combat (AO-9, AO-10, the combat half of AO-11, AO-6.6K-AO-6.7N, AO-4.2d/e/h*, AO-10.3a).

The Combat Phase is a sequence of **batches**. The phasing player declares attacks
(:func:`declare`, every legality check happens here and names its case); :func:`run`
then resolves the batch in declared order. Resolving one attack goes through these steps,
kept in ``GameState.combat.current`` (:class:`rules.ao.state.Resolution`):

1. ``waive`` - before the die, the defender may waive the Ar/Dr immunity of his units in
   town hexes (AO-11.f) and of German units in West Wall / fortified hexes (AO-11.h, AO-11.i),
   AO-11.f*. The attacker waives his own in the declaration.
2. ``roll`` - the defenders' supply is judged now (AO-12.0, AO-13.c*), strengths and odds by
   :mod:`rules.ao.odds` (GT1 factors included, AO-4.2d/e), the CRT by :func:`rules.ao.crt.crt_for`,
   one die. Units are flagged (``attacked``, ``was_attacked``, ``in_combat``; Road Mode units
   ``must_leave_road_mode``, AO-6.7L*).
3. ``losses`` - Ex: the defenders are eliminated, the attacker chooses his losses (AO-10.1b).
4. ``retreat`` - Ar/Dr: each retreating unit in turn, on a path the victor chooses among the
   best-ranked legal ones (:func:`retreat_options`, AO-10.2a/b); no path: eliminated.
5. ``advance`` - each cleared hex may be entered by one mechanized unit of the victor that took
   part (AO-9.6N).

A step that needs a player's choice stops the loop with ``combat.pending`` (a
:class:`rules.ao.state.Decision`) unless there is a single legal choice or the deciding side
has standing orders (:class:`rules.ao.state.Orders`). Decisions are answered with the
``decide_*`` functions. Every die comes from a :class:`Roller` (a
:class:`rules.dice.DiceSource` and the state's dice position) and is reported as a
``die_rolled`` event.

The modules, one seam each:

* :mod:`rules.ao.combat.declare` - the checks of a ``DeclareAttack``, attackable hexes, previews;
* :mod:`rules.ao.combat.resolve` - the batch loop, :class:`Roller`, the roll step, phase end;
* :mod:`rules.ao.combat.immunity` - Ar/Dr immunity and the ``waive`` step (AO-11.f*);
* :mod:`rules.ao.combat.losses` - eliminations and Exchange losses (AO-10.1b, AO-16.A);
* :mod:`rules.ao.combat.retreat` - retreat paths, their ranking and the ``retreat`` step (AO-10.2);
* :mod:`rules.ao.combat.advance` - the ``advance`` step (AO-9.6N);
* :mod:`rules.ao.combat.gt1` - the Game-Turn 1 obligations (AO-4.2h*);
* :mod:`rules.ao.combat.protocol` - the combat state and decision helpers the steps share.
"""

from __future__ import annotations

from rules.ao.combat.advance import advance_choices, decide_advance
from rules.ao.combat.declare import (
    Preview,
    attackable_hexes,
    check_attack,
    declare,
    defender_supply,
    preview_attack,
)
from rules.ao.combat.gt1 import gt1_declaration_check, gt1_obliged, gt1_unmet
from rules.ao.combat.immunity import decide_waive, immune_hexes, immunity_case
from rules.ao.combat.losses import decide_losses, eliminate
from rules.ao.combat.protocol import PENDING
from rules.ao.combat.resolve import (
    DICE_NEEDED,
    DiceNeeded,
    Roller,
    cleared_for_next_phase,
    end_of_combat_check,
    run,
)
from rules.ao.combat.retreat import (
    RetreatOptions,
    breaks_road_spacing,
    decide_retreat,
    retreat_options,
    stacks_with_road_mode,
)

__all__ = [
    "DICE_NEEDED",
    "PENDING",
    "DiceNeeded",
    "Preview",
    "RetreatOptions",
    "Roller",
    "advance_choices",
    "attackable_hexes",
    "breaks_road_spacing",
    "check_attack",
    "cleared_for_next_phase",
    "decide_advance",
    "decide_losses",
    "decide_retreat",
    "decide_waive",
    "declare",
    "defender_supply",
    "eliminate",
    "end_of_combat_check",
    "gt1_declaration_check",
    "gt1_obliged",
    "gt1_unmet",
    "immune_hexes",
    "immunity_case",
    "preview_attack",
    "retreat_options",
    "run",
    "stacks_with_road_mode",
]
