"""*Breakthrough in the Ardennes* (SSI, 1984): the second ruleset, ``breakthrough``.

Importing this package registers :data:`BREAKTHROUGH` (:mod:`.ruleset`, the
:class:`rules.ruleset.Ruleset`) with its bound :class:`Game`. The game: :mod:`.board` (the
fixed part and its :class:`~.board.Setup` levers; ``scenarios.breakthrough.load_board`` builds
it), :mod:`.state` (state, commands, events), :mod:`.sequence` (the twelve steps of a turn,
2.3-2.4, every die inside an ``EndPhase``), :mod:`.orders` (the players' commands),
:mod:`.describe` (13.3, 13.1) and :mod:`.bots` (a bot a side, self-play, balance). Readings in
``docs/rules-notes-breakthrough.md`` ("The sequence of play: the ruleset").

The rules, as pure functions:

So far combat (checklist section 8 of ``../shared/spec/bita-rule-cases.md``, BA-8.0a to
BA-8.4g): :mod:`.units` (the plain values a combat reads), :mod:`.strength` (efficiency,
modifiers and odds, BA-8.1a, BA-8.2a-g), :mod:`.losses` (the reconstructed loss model and its
distribution, BA-8.3a-d, G3; surrender, BA-4.3j, G7), :mod:`.efficiency` (BA-8.1b-e, G6),
:mod:`.retreat` (retreats and advances, BA-8.4a-g, G4, G5), :mod:`.resolve` (a Combat Phase
in plotted order, BA-8.0a, G14) and :mod:`.calibration` (the expected losses the constants are
calibrated on). Nothing here imports ``scenarios`` or The Ardennes Offensive's modules: only
``rules.hexgrid`` of the generic core. The readings are in ``docs/rules-notes-breakthrough.md``
("Combat").

Weather, air, supply and victory (sections 3, 4, 9 and 10): :mod:`.weather` (the chart, the
freeze, air points, BA-9.0a-f, BA-3.1a-c), :mod:`.air` (ground attack, interdiction, air drops,
BA-3.0a-3.5b), :mod:`.supply` (the trace, isolation, fuel and supply's effects, BA-4.0a-4.4b)
and :mod:`.victory` (points and levels, BA-10.0a-10.2c); they also use ``rules.rejection``.
Readings in the notes' sections "Weather and air", "Supply" and "Victory".

Sections 5-7 (reinforcements, unit organization, operations): :mod:`.profile` (a unit's
order-of-battle facts), :mod:`.reinforcements` (BA-5.0a-5.2c), :mod:`.artillery` (BA-6.4a-h),
:mod:`.organization` (replacements and build-up, BA-6.5a-6.6f), :mod:`.bridges`
(BA-6.7a-e), :mod:`.operations` (allowances, modes, forts, plots, exits, BA-7.4a-i,
BA-7.7-7.10) and :mod:`.movement` (costs, paths, reachable hexes, BA-7.5a-7.7e, 13.5);
readings in the notes' "Reinforcement Phase", "Unit Organization Phase", "Operation Phases".
"""

from rules import registry
from rules.breakthrough.ruleset import BREAKTHROUGH, VERSION, Game

registry.register(BREAKTHROUGH, game=Game)

__all__ = ["BREAKTHROUGH", "VERSION", "Game"]
