"""Transitional (phase 2 of issue 23 removes it): the AO's bots moved to :mod:`rules.ao.bots`;
this re-exports what ``pbem`` and the app import from here until phase 2 switches them."""

from rules.ao.bots import Bot as Bot
from rules.ao.bots import BotRng as BotRng
from rules.ao.bots import bots_for as bots_for
from rules.bots import registry as registry
from rules.bots import rng as rng
from rules.bots import selfplay as selfplay
