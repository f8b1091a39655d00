"""Self-play: two bots (:mod:`rules.ao.bots`) play a whole game; the game is a record.

``play(board, seed, turns=None) -> SelfPlayGame`` (``board = scenarios.load_board(n)``): the
game as a :class:`rules.Record` (the one game record format, ``rules.record``), the VP
tabulated at the end of every Game-Turn and the verdict. Everything derives from ``seed``
(its decimal/text form):

* dice: :class:`rules.SeededDice` of ``SHA-256(b"ardennes-selfplay-dice/1" + seed)``;
* the bots' tie-breaking stream: :class:`rules.ao.bots.BotRng` of
  ``SHA-256(b"ardennes-selfplay-bots/1" + seed)``, one derived stream per side;

so the same seed gives the same record, byte for byte (:func:`encode`). The record's header
names both players (``bot heuristic/3``) and keeps the seed (and ``turns``) in ``meta``;
:func:`replay` checks a record with :meth:`ao.Game.replay`, naming the first diverging
command.

VP: the engine's tabulation at the end of each Game-Turn (its ``victory_points_tabulated``
event, after the Allied player-turn, AO-16.E) and its verdict (:meth:`ao.Game.outcome`;
an immediate German win by GT6 ends the game, AO-16.2). Pure: bytes in, bytes out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final

import msgspec

import rules
from rules import ao
from rules.ao.bots.heuristic import NAME as BOT_NAME
from rules.ao.bots.heuristic import VERSION as BOT_VERSION
from rules.ao.bots.protocol import Bot
from rules.ao.bots.registry import make_bot, player
from rules.ao.bots.rng import BotRng

BOTS: Final = f"{BOT_NAME}/{BOT_VERSION}"
SELFPLAY_BOT: Final = "heuristic"
"""The bot self-play plays each side with unless told (the balance tables' bot; the app's
computer is :data:`rules.ao.bots.registry.DEFAULT`)."""
MAX_COMMANDS: Final = 100_000
"""A safety net: no game of ours comes near it (about 3,000 commands for 18 Game-Turns)."""


class TurnVP(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The tabulation at the end of Game-Turn ``turn``: VP, the exit VP in them, units lost."""

    turn: int
    german: int
    allied: int
    exit_vp: int
    allied_lost: int
    german_lost: int


class SelfPlayGame(msgspec.Struct, frozen=True):
    """One self-play game: its seed, its record, the VP per Game-Turn and the verdict (None
    when the game was cut short by ``turns``)."""

    scenario: int
    seed: str
    turns: int | None
    record: rules.Record
    vp: tuple[TurnVP, ...]
    verdict: ao.Verdict | None

    @property
    def commands(self) -> tuple[ao.Command, ...]:
        return self.record.commands

    @property
    def hashes(self) -> tuple[str, ...]:
        """The state hash after each command."""
        return tuple(x.hash for x in self.record.lines)

    @property
    def final_hash(self) -> str:
        assert self.record.footer is not None
        return self.record.footer.hash

    @property
    def final_turn(self) -> int:
        assert self.record.footer is not None
        return self.record.footer.turn

    @property
    def final_phase(self) -> str:
        assert self.record.footer is not None
        return self.record.footer.phase

    @property
    def dice_seed(self) -> str:
        """Hex of the :class:`rules.SeededDice` seed."""
        return self.record.header.dice.seed or ""


class BotError(RuntimeError):
    """A bot gave a command the engine refused (a bug in the bot)."""


def dice_seed(seed: int | str) -> bytes:
    return hashlib.sha256(b"ardennes-selfplay-dice/1" + str(seed).encode()).digest()


def bot_seed(seed: int | str) -> bytes:
    return hashlib.sha256(b"ardennes-selfplay-bots/1" + str(seed).encode()).digest()


def _lost(board: ao.Board, state: ao.GameState, side: ao.Side) -> int:
    return sum(1 for u in state.units if u.status == "eliminated" and board.defs[u.id].side == side)


def turn_vp(board: ao.Board, state: ao.GameState, e: ao.VictoryPointsTabulated) -> TurnVP:
    """The engine's tabulation ``e`` (AO-16.E) and the units each side has lost in ``state``."""
    return TurnVP(
        turn=e.turn,
        german=e.german,
        allied=e.allied,
        exit_vp=e.exit_vp,
        allied_lost=_lost(board, state, "allied"),
        german_lost=_lost(board, state, "german"),
    )


def players_at(bots: dict[ao.Side, Bot], level: ao.Level | None) -> rules.Players:
    """The self-play header's players: each side's bot and version, the computer's side of
    ``level`` naming the level it plays (the other bot plays the human's side)."""

    def one(side: ao.Side) -> rules.Player:
        at = level.number if level is not None and level.computer == side else None
        return player(bots[side], at)

    return {"german": one("german"), "allied": one("allied")}


def _level_of(side: ao.Side, level: ao.Level | None) -> int:
    """The level the bot of ``side`` plays at: ``level``'s for the computer's side, 3 (the
    rules as written, full effort) for the other."""
    return level.number if level is not None and level.computer == side else 3


def play(
    board: ao.Board,
    seed: int | str,
    turns: int | None = None,
    *,
    level: ao.Level | None = None,
    german: str = SELFPLAY_BOT,
    allied: str = SELFPLAY_BOT,
    watch: Callable[[ao.GameState, ao.Command, ao.Applied], None] | None = None,
) -> SelfPlayGame:
    """Self-play the scenario of ``board`` from ``seed``, for ``turns`` Game-Turns (all 18 by
    default, or until an immediate German victory). ``german`` and ``allied`` name each
    side's bot (:data:`rules.ao.bots.registry.KINDS`); each gets its side's stream of the seed,
    so a heuristic side plays the same whatever its opponent. ``level``: the game at that
    level of play (:mod:`rules.ao.levels`; the board set up for it, the computer's bot playing
    at it, the record's header naming it); the dice are those of the same seed, so level 3
    plays the very game of no level. ``watch(state, command, applied)``, if given, sees every
    command accepted, with the state before it (measurements: attacks, losses per phase)."""
    if turns is not None and turns < 1:
        raise ValueError("turns must be at least 1")
    rng = BotRng(bot_seed(seed))
    kinds: dict[ao.Side, str] = {"german": german, "allied": allied}
    bots: dict[ao.Side, Bot] = {
        side: make_bot(kind, side, _level_of(side, level), rng.derive(side))
        for side, kind in kinds.items()
    }
    dseed = dice_seed(seed)
    game = ao.Game.new(
        board.at_level(level),
        dice=rules.SeededDice(dseed),
        dice_spec=rules.DiceSpec.seeded(dseed),
        players=players_at(bots, level),
    )
    board = game.board
    vps: list[TurnVP] = []
    while game.state.phase != "game_over":
        if len(game.history) >= MAX_COMMANDS:
            raise BotError(f"no end after {MAX_COMMANDS} commands")
        state = game.state
        side = ao.acting_side(state)
        assert side is not None
        cmd = bots[side].choose(game)
        r = game.push(cmd)
        if isinstance(r, rules.Rejection):
            raise BotError(
                f"GT{state.turn} {state.side} {state.phase}: {cmd!r} refused: {r.message}"
            )
        if watch is not None:
            watch(state, cmd, r)
        tab = [e for e in r.events if isinstance(e, ao.VictoryPointsTabulated)]
        if tab:
            vps.append(turn_vp(board, r.state, tab[-1]))
            if turns is not None and tab[-1].turn >= turns:
                break
    meta = {"seed": str(seed)} | ({"turns": str(turns)} if turns is not None else {})
    return SelfPlayGame(
        scenario=game.start.scenario,
        seed=str(seed),
        turns=turns,
        record=game.record(meta),
        vp=tuple(vps),
        verdict=game.outcome(),
    )


def encode(game: SelfPlayGame) -> bytes:
    """The record of ``game`` (deterministic bytes, :func:`rules.record.encode`)."""
    return rules.record.encode(game.record)


def replay(data: bytes, load_board: Callable[[int], ao.Board]) -> ao.Replayed:
    """Decode a record (raises :class:`rules.RecordError`) and replay it on
    ``load_board(scenario)`` (which raises ``ValueError`` for a scenario that does not
    exist), checking every hash (:meth:`ao.Game.replay`)."""
    rec = rules.record.decode(data)
    return ao.Game.replay(rec, load_board(rec.header.scenario))
