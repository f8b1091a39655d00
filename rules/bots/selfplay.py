"""Transitional (phase 2 of issue 23 removes it): the AO's bots moved to :mod:`rules.ao.bots`;
this re-exports what ``pbem`` and the app import from here until phase 2 switches them."""

from rules.ao.bots.selfplay import SELFPLAY_BOT as SELFPLAY_BOT
from rules.ao.bots.selfplay import BotError as BotError
from rules.ao.bots.selfplay import SelfPlayGame as SelfPlayGame
from rules.ao.bots.selfplay import TurnVP as TurnVP
from rules.ao.bots.selfplay import bot_seed as bot_seed
from rules.ao.bots.selfplay import dice_seed as dice_seed
from rules.ao.bots.selfplay import encode as encode
from rules.ao.bots.selfplay import play as play
from rules.ao.bots.selfplay import replay as replay
