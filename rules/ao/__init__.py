"""The Ardennes Offensive (SPI 1973): the ruleset :data:`AO` and its public API.

A pure function of (board, commands, dice) like every ruleset (:mod:`rules.ruleset`): no
I/O, no clock, no global randomness, no UI; the scenario data is loaded by :mod:`scenarios`,
which builds a :class:`Board`. The public API is this module's ``__all__`` plus the
submodules :mod:`rules.ao.crt` (the combat results tables), :mod:`rules.ao.position` (the JSON
form of a state), :mod:`rules.ao.levels` (the levels of play against the computer) and the
bots, :mod:`rules.ao.bots`; the generic vocabulary (dice, records, rejections, the grid) is
:mod:`rules`'. A short tour (``docs/engine.md``)::

    import rules, rules.ao as ao, scenarios

    game = ao.Game.new(scenarios.load_board(1), dice=rules.SeededDice(b"seed"))
    game.options()                      # what may be done now, and by whom
    game.push(ao.EndPhase())            # Applied(state, events) or a Rejection naming its rule
    game.pop()                          # undo inside the phase, never across a die roll
    data = rules.record.encode(game.record())

Importing this package registers :data:`AO` (:mod:`rules.registry`).
"""

from rules import registry
from rules.ao import crt, levels, position
from rules.ao.column import ColumnFix, owed_moves
from rules.ao.combat import (
    Preview,
    check_attack,
    defender_supply,
    gt1_unmet,
    immune_hexes,
    immunity_case,
    preview_attack,
    retreat_options,
    stacks_with_road_mode,
)
from rules.ao.commands import (
    ENTER_ROAD_MODE,
    LEAVE_ROAD_MODE,
    Advance,
    ChooseLosses,
    ChooseRetreat,
    Command,
    DeclareAttack,
    Drop,
    EndPhase,
    Move,
    Place,
    ResolveAttacks,
    Roll,
    StandingOrders,
    WaiveImmunity,
    decode_command,
    encode_command,
)
from rules.ao.decisions import (
    AdvanceDecision,
    LossesDecision,
    PendingDecision,
    RetreatDecision,
    WaiveDecision,
    pending_decision,
)
from rules.ao.engine import (
    Applied,
    apply,
    drop_required,
    new_game,
    setup_hexes,
)
from rules.ao.events import (
    AdvanceDeclined,
    AttackCancelled,
    AttackDeclared,
    CombatResolved,
    CrtSwitchRolled,
    DecisionPending,
    DormantReactivated,
    Event,
    GameEnded,
    ImmunityWaived,
    InterdictionSet,
    PhaseBegan,
    PhaseSkipped,
    ReinforcementDelayed,
    ReinforcementWithdrawn,
    ResultIgnored,
    RoadColumnContact,
    RoadModeChanged,
    RollRequired,
    SupplyChanged,
    UnitAdvanced,
    UnitEliminated,
    UnitMoved,
    UnitPlaced,
    UnitRetreated,
    VictoryPointsScored,
    VictoryPointsTabulated,
    encode_event,
)
from rules.ao.game import Game, Replayed
from rules.ao.gamemap import GameMap, HexsideData, MapError, decode_map, encode_map
from rules.ao.levels import Level
from rules.ao.movement import Reach, legal_moves, may_move, movement_allowance
from rules.ao.odds import (
    attack_factor,
    attack_strength_in,
    defence_factor,
    defence_strength_in,
    ex_loss_options,
    odds_column,
)
from rules.ao.options import Mode, Options, acting_side
from rules.ao.queries import (
    interdiction_report,
    map_graph,
    odds_report,
    supply_report,
)
from rules.ao.roadmode import road_links, road_mode_passable
from rules.ao.ruleset import AO, RULES_VERSION, AoRuleset
from rules.ao.scenario import Arrival, Scenario
from rules.ao.setup_rules import FREE_SETUP_CASE, front_line_units, setup_areas
from rules.ao.stacking import check_stack
from rules.ao.start_line import front_line, rear_area
from rules.ao.state import (
    LAST_TURN,
    Board,
    Decision,
    GameState,
    Orders,
    Phase,
    Supply,
    UnitState,
    Verdict,
    VictoryPoints,
    other_side,
    state_hash,
)
from rules.ao.supply import PATH_HEXES as SUPPLY_PATH_HEXES
from rules.ao.supply import flood_roads, supply_net
from rules.ao.units import Side, UnitDef
from rules.ao.zoc import enemy_controlled

__all__ = [
    "AO",
    "ENTER_ROAD_MODE",
    "FREE_SETUP_CASE",
    "LAST_TURN",
    "LEAVE_ROAD_MODE",
    "RULES_VERSION",
    "SUPPLY_PATH_HEXES",
    "Advance",
    "AdvanceDecision",
    "AdvanceDeclined",
    "AoRuleset",
    "Applied",
    "Arrival",
    "AttackCancelled",
    "AttackDeclared",
    "Board",
    "ChooseLosses",
    "ChooseRetreat",
    "ColumnFix",
    "CombatResolved",
    "Command",
    "CrtSwitchRolled",
    "Decision",
    "DecisionPending",
    "DeclareAttack",
    "DormantReactivated",
    "Drop",
    "EndPhase",
    "Event",
    "Game",
    "GameEnded",
    "GameMap",
    "GameState",
    "HexsideData",
    "ImmunityWaived",
    "InterdictionSet",
    "Level",
    "LossesDecision",
    "MapError",
    "Mode",
    "Move",
    "Options",
    "Orders",
    "PendingDecision",
    "Phase",
    "PhaseBegan",
    "PhaseSkipped",
    "Place",
    "Preview",
    "Reach",
    "ReinforcementDelayed",
    "ReinforcementWithdrawn",
    "Replayed",
    "ResolveAttacks",
    "ResultIgnored",
    "RetreatDecision",
    "RoadColumnContact",
    "RoadModeChanged",
    "Roll",
    "RollRequired",
    "Scenario",
    "Side",
    "StandingOrders",
    "Supply",
    "SupplyChanged",
    "UnitAdvanced",
    "UnitDef",
    "UnitEliminated",
    "UnitMoved",
    "UnitPlaced",
    "UnitRetreated",
    "UnitState",
    "Verdict",
    "VictoryPoints",
    "VictoryPointsScored",
    "VictoryPointsTabulated",
    "WaiveDecision",
    "WaiveImmunity",
    "acting_side",
    "apply",
    "attack_factor",
    "attack_strength_in",
    "check_attack",
    "check_stack",
    "crt",
    "decode_command",
    "decode_map",
    "defence_factor",
    "defence_strength_in",
    "defender_supply",
    "drop_required",
    "encode_command",
    "encode_event",
    "encode_map",
    "enemy_controlled",
    "ex_loss_options",
    "flood_roads",
    "front_line",
    "front_line_units",
    "gt1_unmet",
    "immune_hexes",
    "immunity_case",
    "interdiction_report",
    "legal_moves",
    "levels",
    "map_graph",
    "may_move",
    "movement_allowance",
    "new_game",
    "odds_column",
    "odds_report",
    "other_side",
    "owed_moves",
    "pending_decision",
    "position",
    "preview_attack",
    "rear_area",
    "retreat_options",
    "road_links",
    "road_mode_passable",
    "setup_areas",
    "setup_hexes",
    "stacks_with_road_mode",
    "state_hash",
    "supply_net",
    "supply_report",
]

registry.register(AO, game=Game)
