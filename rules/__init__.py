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
    check_attack,
    defender_supply,
    immune_hexes,
    immunity_case,
    preview_attack,
    retreat_options,
)
from rules.commands import (
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
    StandingOrders,
    WaiveImmunity,
    decode_command,
    decode_jsonl,
    encode_command,
)
from rules.dice import DiceSource, DieRoll, ScriptedDice, SeededDice
from rules.engine import Applied, apply, new_game, replay, replay_hashes, setup_hexes
from rules.events import (
    AdvanceDeclined,
    AttackCancelled,
    AttackDeclared,
    CombatResolved,
    CrtSwitchRolled,
    DormantReactivated,
    Event,
    GameEnded,
    ImmunityWaived,
    PhaseSkipped,
    ReinforcementDelayed,
    ResultIgnored,
    RoadColumnContact,
    UnitAdvanced,
    UnitEliminated,
    UnitPlaced,
    UnitRetreated,
    VictoryPointsScored,
    VictoryPointsTabulated,
    encode_event,
)
from rules.game import Game, Replayed
from rules.gamemap import GameMap, HexsideData
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move, movement_allowance
from rules.odds import attack_factor, defence_factor
from rules.options import Due, Mode, Options, acting_side
from rules.record import DiceSpec, Player, Players, Record, RecordError
from rules.rejection import RejectedError, Rejection
from rules.setup_rules import FREE_SETUP_CASE, setup_areas
from rules.state import (
    Attack,
    Board,
    Decision,
    DecisionKind,
    GameState,
    Orders,
    Phase,
    UnitState,
    Verdict,
    VictoryPoints,
    canonical_bytes,
    other_side,
    state_hash,
)
from rules.units import Side, UnitDef

__all__ = [  # noqa: RUF022 (plain str order, as tests/test_public_api.py checks)
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
    "DeclareAttack",
    "DiceSource",
    "DiceSpec",
    "DieRoll",
    "DormantReactivated",
    "Drop",
    "Due",
    "ENTER_ROAD_MODE",
    "EndPhase",
    "Event",
    "FREE_SETUP_CASE",
    "Game",
    "GameEnded",
    "GameMap",
    "GameState",
    "HexId",
    "HexsideData",
    "ImmunityWaived",
    "LEAVE_ROAD_MODE",
    "Mode",
    "Move",
    "Options",
    "Orders",
    "Phase",
    "PhaseSkipped",
    "Place",
    "Player",
    "Players",
    "Preview",
    "Reach",
    "Record",
    "RecordError",
    "ReinforcementDelayed",
    "RejectedError",
    "Rejection",
    "Replayed",
    "ResolveAttacks",
    "ResultIgnored",
    "RetreatOptions",
    "RoadColumnContact",
    "ScriptedDice",
    "SeededDice",
    "Side",
    "StandingOrders",
    "UnitAdvanced",
    "UnitDef",
    "UnitEliminated",
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
    "attack_factor",
    "attackable_hexes",
    "canonical_bytes",
    "check_attack",
    "crt",
    "decode_command",
    "decode_jsonl",
    "defence_factor",
    "defender_supply",
    "encode_command",
    "encode_event",
    "hexgrid",
    "immune_hexes",
    "immunity_case",
    "legal_moves",
    "may_move",
    "movement_allowance",
    "new_game",
    "other_side",
    "position",
    "preview_attack",
    "record",
    "replay",
    "replay_hashes",
    "retreat_options",
    "setup_areas",
    "setup_hexes",
    "state_hash",
]
