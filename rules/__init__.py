"""The engine's generic core: one engine, many games (``docs/engine.md``).

A game system is a *ruleset* (:mod:`rules.ruleset`): The Ardennes Offensive is
:mod:`rules.ao`. The core knows no game: the generic :class:`rules.game.Game` (a game of any
ruleset: push, undo, options, records, replay), the game record (:mod:`rules.record`), the
dice (:mod:`rules.dice`: ``uniform(index, n)`` from a seed), the refusals naming their rule
(:mod:`rules.rejection`), the hex grid (:mod:`rules.hexgrid`) and the rulesets by id
(:mod:`rules.registry`). Everything is pure: no I/O, no clock, no global randomness, no UI
(import-linter contracts in ``pyproject.toml``).

The public API is this module's ``__all__`` (the generic vocabulary) plus the submodules
:mod:`rules.ruleset`, :mod:`rules.game`, :mod:`rules.record`, :mod:`rules.hexgrid`,
:mod:`rules.dice` and :mod:`rules.registry`.

The Ardennes Offensive's names are :mod:`rules.ao`'s (``rules.ao.__all__``), its bots
:mod:`rules.ao.bots`; importing :mod:`rules` imports no ruleset.
"""

from rules import dice, game, hexgrid, record, registry, ruleset
from rules.dice import DiceError, DiceSource, DieRoll, ScriptedDice, SeededDice
from rules.hexgrid import HexId
from rules.record import DiceSpec, Player, Players, Record, RecordError
from rules.rejection import RejectedError, Rejection
from rules.ruleset import (
    AppliedLike,
    DiceWait,
    OptionsLike,
    Reveal,
    Ruleset,
    VerdictLike,
)

__all__ = [
    "AppliedLike",
    "DiceError",
    "DiceSource",
    "DiceSpec",
    "DiceWait",
    "DieRoll",
    "HexId",
    "OptionsLike",
    "Player",
    "Players",
    "Record",
    "RecordError",
    "RejectedError",
    "Rejection",
    "Reveal",
    "Ruleset",
    "ScriptedDice",
    "SeededDice",
    "VerdictLike",
    "dice",
    "game",
    "hexgrid",
    "record",
    "registry",
    "ruleset",
]
