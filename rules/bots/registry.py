"""Transitional (phase 2 of issue 23 removes it): the AO's bots moved to :mod:`rules.ao.bots`;
this re-exports what ``pbem`` and the app import from here until phase 2 switches them."""

from rules.ao.bots.registry import DEFAULT as DEFAULT
from rules.ao.bots.registry import KINDS as KINDS
from rules.ao.bots.registry import kind_names as kind_names
from rules.ao.bots.registry import make_bot as make_bot
from rules.ao.bots.registry import player as player
