"""Transitional (phase 2 of issue 23 removes it): the AO's levels of play moved to
:mod:`rules.ao.levels`; this re-exports what the app imports from here until phase 2."""

from rules.ao.levels import HISTORICAL as HISTORICAL
from rules.ao.levels import NUMBERS as NUMBERS
from rules.ao.levels import Level as Level
from rules.ao.levels import level_for as level_for
from rules.ao.levels import levers as levers
