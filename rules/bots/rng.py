"""Transitional (phase 2 of issue 23 removes it): the AO's bots moved to :mod:`rules.ao.bots`;
this re-exports what ``pbem`` and the app import from here until phase 2 switches them."""

from rules.ao.bots.rng import BotRng as BotRng
