"""The rules engine of The Ardennes Offensive: a pure function of (board, commands, dice).

No I/O, no clock, no global randomness, no UI (import-linter contracts in ``pyproject.toml``
enforce it); the scenario data is loaded by :mod:`scenarios`, which builds a :class:`Board`.

The public API is this module's ``__all__`` plus the submodules :mod:`rules.hexgrid` (grid
geometry), :mod:`rules.crt` (the combat results tables), :mod:`rules.position` (the JSON form
of a state) and :mod:`rules.record` (the game record). The app, the bots, the command line and
``pbem`` use nothing else (``tests/test_public_api.py``). A short tour (``docs/engine.md``)::

    import rules, scenarios

    game = rules.Game.new(scenarios.load_board(1), dice=rules.SeededDice(b"seed"))
    game.options()                      # what may be done now, and by whom
    game.push(rules.EndPhase())         # Applied(state, events) or a Rejection naming its rule
    game.pop()                          # undo inside the phase, never across a die roll
    data = rules.record.encode(game.record())
"""

from rules import crt, hexgrid, position, record
from rules.combat import (
    Preview,
    RetreatOptions,
    attackable_hexes,
    breaks_road_spacing,
    check_attack,
    defender_supply,
    gt1_unmet,
    immune_hexes,
    immunity_case,
    preview_attack,
    retreat_options,
)
from rules.commands import (
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
    StandingOrders,
    WaiveImmunity,
    decode_command,
    decode_jsonl,
    encode_command,
)
from rules.dice import DiceSource, DieRoll, ScriptedDice, SeededDice
from rules.engine import Applied, apply, drop_required, new_game, replay, replay_hashes
from rules.events import (
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
    StandingOrdersSet,
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
from rules.game import Game, Replayed
from rules.gamemap import GameMap
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move, movement_allowance
from rules.odds import attack_strength_in, defence_strength_in, ex_loss_options, odds_column
from rules.options import Due, Mode, Options, acting_side
from rules.record import DiceSpec, Player, Players, Record, RecordError
from rules.rejection import RejectedError, Rejection
from rules.roadmode import road_links, road_mode_passable
from rules.setup_rules import front_line_units
from rules.stacking import check_stack
from rules.start_line import front_line, rear_area
from rules.state import (
    Attack,
    Board,
    Decision,
    DecisionKind,
    GameState,
    Orders,
    Phase,
    Supply,
    UnitState,
    Verdict,
    VictoryPoints,
    canonical_bytes,
    other_side,
    state_hash,
)
from rules.supply import PATH_HEXES as SUPPLY_PATH_HEXES
from rules.supply import supply_net
from rules.units import Side, UnitDef
from rules.zoc import enemy_controlled

__all__ = [
    "SUPPLY_PATH_HEXES",
    "Advance",
    "AdvanceDeclined",
    "Applied",
    "Attack",
    "AttackCancelled",
    "AttackDeclared",
    "Board",
    "ChooseLosses",
    "ChooseRetreat",
    "CombatResolved",
    "Command",
    "CrtSwitchRolled",
    "Decision",
    "DecisionKind",
    "DecisionPending",
    "DeclareAttack",
    "DiceSource",
    "DiceSpec",
    "DieRoll",
    "DormantReactivated",
    "Drop",
    "Due",
    "EndPhase",
    "Event",
    "Game",
    "GameEnded",
    "GameMap",
    "GameState",
    "HexId",
    "ImmunityWaived",
    "InterdictionSet",
    "Mode",
    "Move",
    "Options",
    "Orders",
    "Phase",
    "PhaseBegan",
    "PhaseSkipped",
    "Place",
    "Player",
    "Players",
    "Preview",
    "Reach",
    "Record",
    "RecordError",
    "ReinforcementDelayed",
    "ReinforcementWithdrawn",
    "RejectedError",
    "Rejection",
    "Replayed",
    "ResolveAttacks",
    "ResultIgnored",
    "RetreatOptions",
    "RoadColumnContact",
    "RoadModeChanged",
    "ScriptedDice",
    "SeededDice",
    "Side",
    "StandingOrders",
    "StandingOrdersSet",
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
    "WaiveImmunity",
    "acting_side",
    "apply",
    "attack_strength_in",
    "attackable_hexes",
    "breaks_road_spacing",
    "canonical_bytes",
    "check_attack",
    "check_stack",
    "crt",
    "decode_command",
    "decode_jsonl",
    "defence_strength_in",
    "defender_supply",
    "drop_required",
    "encode_command",
    "encode_event",
    "enemy_controlled",
    "ex_loss_options",
    "front_line",
    "front_line_units",
    "gt1_unmet",
    "hexgrid",
    "immune_hexes",
    "immunity_case",
    "legal_moves",
    "may_move",
    "movement_allowance",
    "new_game",
    "odds_column",
    "other_side",
    "position",
    "preview_attack",
    "rear_area",
    "record",
    "replay",
    "replay_hashes",
    "retreat_options",
    "road_links",
    "road_mode_passable",
    "state_hash",
    "supply_net",
]
