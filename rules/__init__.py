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
    immune_hexes,
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
from rules.engine import Applied, apply, new_game, replay, replay_hashes
from rules.events import Event, encode_event
from rules.game import Game, Replayed
from rules.gamemap import GameMap
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move, movement_allowance
from rules.options import Due, Mode, Options, acting_side
from rules.record import DiceSpec, Player, Players, Record, RecordError
from rules.rejection import RejectedError, Rejection
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

__all__ = [
    "Advance",
    "Applied",
    "Attack",
    "Board",
    "ChooseLosses",
    "ChooseRetreat",
    "Command",
    "Decision",
    "DecisionKind",
    "DeclareAttack",
    "DiceSource",
    "DiceSpec",
    "DieRoll",
    "Drop",
    "Due",
    "EndPhase",
    "Event",
    "Game",
    "GameMap",
    "GameState",
    "HexId",
    "Mode",
    "Move",
    "Options",
    "Orders",
    "Phase",
    "Place",
    "Player",
    "Players",
    "Preview",
    "Reach",
    "Record",
    "RecordError",
    "RejectedError",
    "Rejection",
    "Replayed",
    "ResolveAttacks",
    "RetreatOptions",
    "ScriptedDice",
    "SeededDice",
    "Side",
    "StandingOrders",
    "UnitDef",
    "UnitState",
    "Verdict",
    "VictoryPoints",
    "WaiveImmunity",
    "acting_side",
    "apply",
    "attackable_hexes",
    "canonical_bytes",
    "check_attack",
    "crt",
    "decode_command",
    "decode_jsonl",
    "encode_command",
    "encode_event",
    "hexgrid",
    "immune_hexes",
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
    "state_hash",
]
