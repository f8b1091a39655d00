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

**Transitional (phase 1 of issue 23; phase 2 removes it):** the AO's names that ``rules``
exported before (``rules.Move``, ``rules.GameState``, ``rules.Game`` - the AO's game,
:class:`rules.ao.Game` - and the rest, ``docs/engine.md`` lists them) are still re-exported
here, outside ``__all__``, so that ``pbem`` and the app work unchanged until phase 2 switches
them to :mod:`rules.ao`; so are the submodules ``rules.crt``, ``rules.position``,
``rules.levels`` and ``rules.bots``. New code imports them from :mod:`rules.ao`.
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

# isort: split
# -- transitional (phase 2 of issue 23 removes it): the AO's names, for the clients that phase 2
# switches to rules.ao (``from X import Y as Y`` re-exports Y for mypy outside ``__all__``)
from rules import ao as ao
from rules import levels as levels
from rules.ao import ENTER_ROAD_MODE as ENTER_ROAD_MODE
from rules.ao import FREE_SETUP_CASE as FREE_SETUP_CASE
from rules.ao import LAST_TURN as LAST_TURN
from rules.ao import LEAVE_ROAD_MODE as LEAVE_ROAD_MODE
from rules.ao import SUPPLY_PATH_HEXES as SUPPLY_PATH_HEXES
from rules.ao import Advance as Advance
from rules.ao import AdvanceDeclined as AdvanceDeclined
from rules.ao import Applied as Applied
from rules.ao import Arrival as Arrival
from rules.ao import AttackCancelled as AttackCancelled
from rules.ao import AttackDeclared as AttackDeclared
from rules.ao import Board as Board
from rules.ao import ChooseLosses as ChooseLosses
from rules.ao import ChooseRetreat as ChooseRetreat
from rules.ao import ColumnFix as ColumnFix
from rules.ao import CombatResolved as CombatResolved
from rules.ao import Command as Command
from rules.ao import CrtSwitchRolled as CrtSwitchRolled
from rules.ao import Decision as Decision
from rules.ao import DecisionPending as DecisionPending
from rules.ao import DeclareAttack as DeclareAttack
from rules.ao import DormantReactivated as DormantReactivated
from rules.ao import Drop as Drop
from rules.ao import EndPhase as EndPhase
from rules.ao import Event as Event
from rules.ao import Game as Game
from rules.ao import GameEnded as GameEnded
from rules.ao import GameMap as GameMap
from rules.ao import GameState as GameState
from rules.ao import HexsideData as HexsideData
from rules.ao import ImmunityWaived as ImmunityWaived
from rules.ao import InterdictionSet as InterdictionSet
from rules.ao import Level as Level
from rules.ao import MapError as MapError
from rules.ao import Mode as Mode
from rules.ao import Move as Move
from rules.ao import Options as Options
from rules.ao import Orders as Orders
from rules.ao import Phase as Phase
from rules.ao import PhaseBegan as PhaseBegan
from rules.ao import PhaseSkipped as PhaseSkipped
from rules.ao import Place as Place
from rules.ao import Preview as Preview
from rules.ao import Reach as Reach
from rules.ao import ReinforcementDelayed as ReinforcementDelayed
from rules.ao import ReinforcementWithdrawn as ReinforcementWithdrawn
from rules.ao import Replayed as Replayed
from rules.ao import ResolveAttacks as ResolveAttacks
from rules.ao import ResultIgnored as ResultIgnored
from rules.ao import RoadColumnContact as RoadColumnContact
from rules.ao import RoadModeChanged as RoadModeChanged
from rules.ao import Roll as Roll
from rules.ao import RollRequired as RollRequired
from rules.ao import Scenario as Scenario
from rules.ao import Side as Side
from rules.ao import StandingOrders as StandingOrders
from rules.ao import Supply as Supply
from rules.ao import SupplyChanged as SupplyChanged
from rules.ao import UnitAdvanced as UnitAdvanced
from rules.ao import UnitDef as UnitDef
from rules.ao import UnitEliminated as UnitEliminated
from rules.ao import UnitMoved as UnitMoved
from rules.ao import UnitPlaced as UnitPlaced
from rules.ao import UnitRetreated as UnitRetreated
from rules.ao import UnitState as UnitState
from rules.ao import Verdict as Verdict
from rules.ao import VictoryPoints as VictoryPoints
from rules.ao import VictoryPointsScored as VictoryPointsScored
from rules.ao import VictoryPointsTabulated as VictoryPointsTabulated
from rules.ao import WaiveImmunity as WaiveImmunity
from rules.ao import acting_side as acting_side
from rules.ao import apply as apply
from rules.ao import attack_factor as attack_factor
from rules.ao import attack_strength_in as attack_strength_in
from rules.ao import check_attack as check_attack
from rules.ao import check_stack as check_stack
from rules.ao import crt as crt
from rules.ao import decode_command as decode_command
from rules.ao import decode_map as decode_map
from rules.ao import defence_factor as defence_factor
from rules.ao import defence_strength_in as defence_strength_in
from rules.ao import defender_supply as defender_supply
from rules.ao import drop_required as drop_required
from rules.ao import encode_command as encode_command
from rules.ao import encode_event as encode_event
from rules.ao import encode_map as encode_map
from rules.ao import enemy_controlled as enemy_controlled
from rules.ao import ex_loss_options as ex_loss_options
from rules.ao import flood_roads as flood_roads
from rules.ao import front_line as front_line
from rules.ao import front_line_units as front_line_units
from rules.ao import gt1_unmet as gt1_unmet
from rules.ao import immune_hexes as immune_hexes
from rules.ao import immunity_case as immunity_case
from rules.ao import interdiction_report as interdiction_report
from rules.ao import legal_moves as legal_moves
from rules.ao import map_graph as map_graph
from rules.ao import may_move as may_move
from rules.ao import movement_allowance as movement_allowance
from rules.ao import new_game as new_game
from rules.ao import odds_column as odds_column
from rules.ao import odds_report as odds_report
from rules.ao import other_side as other_side
from rules.ao import owed_moves as owed_moves
from rules.ao import position as position
from rules.ao import preview_attack as preview_attack
from rules.ao import rear_area as rear_area
from rules.ao import retreat_options as retreat_options
from rules.ao import road_links as road_links
from rules.ao import road_mode_passable as road_mode_passable
from rules.ao import setup_areas as setup_areas
from rules.ao import setup_hexes as setup_hexes
from rules.ao import stacks_with_road_mode as stacks_with_road_mode
from rules.ao import state_hash as state_hash
from rules.ao import supply_net as supply_net
from rules.ao import supply_report as supply_report
from rules.ao.state import Attack as Attack

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
