"""Games against the computer (``ardennes --vs-bot``, ``b`` on the start screen); no Textual.

A game against the computer is a hot-seat game of the store (:mod:`ardennes_tui.games.hotseat`:
saved after every order, resumed with ``--resume``, verified like any record) whose record
names the players - the human, and the bot by kind, version and level - and the level of play
(:mod:`rules.ao.levels`), the board set up for it (its reinforcement schedules, its VP
handicap). Loading or resuming such a record (:func:`ardennes_tui.games.saves.replay_data`) keeps
its players, and :func:`opponent_of` makes the bot again (:mod:`rules.ao.bots.registry`).

The bot thinks on a copy of the game (:meth:`rules.ao.Game.copy`) on a board of its own, so the
app may think on another thread while the player looks at the map: :func:`think` plays the
computer's commands on the copy until the player must act (or the game is over) and returns
them; the app then plays them on the real game one by one at a watchable pace. Every command
goes through ``rules.ao.Game.push``, so the game is the same however it is shown::

    game = new_game(1, human="german", level=2, seed="7")
    vs = opponent_of(game)                      # the bot, its side and level
    cmds = think(game.copy(vs.board), vs)       # the computer's orders until the player acts
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import rules.ao
from ardennes_tui.games import saves
from rules.ao.bots import Bot, BotRng
from rules.ao.bots.registry import DEFAULT, make_bot, player
from scenarios import scenario_specs

__all__ = [
    "MAX_THINK",
    "Progress",
    "Versus",
    "last_turn",
    "may_undo",
    "new_game",
    "opponent_of",
    "think",
    "to_act",
]

MAX_THINK: Final = 5000
"""A safety net: no player-turn of the computer takes this many commands."""

Progress = Callable[[rules.ao.GameState, int], None]
"""Told the state reached and the number of commands so far, after each command."""


class BotFailed(RuntimeError):
    """The bot gave a command the engine refused (a bug in the bot)."""


@dataclass
class Versus:
    """The computer in a game: its bot, the side it plays, its kind and level, and the board
    it thinks on (a copy of the game's, so its derived tables are its own)."""

    bot: Bot
    computer: rules.ao.Side
    kind: str
    level: int
    board: rules.ao.Board

    @property
    def human(self) -> rules.ao.Side:
        return rules.ao.other_side(self.computer)

    @property
    def label(self) -> str:
        """``bot heuristic/4 level 2``."""
        return player(self.bot, self.level).label


def _bot_rng(game: rules.ao.Game, computer: rules.ao.Side) -> BotRng:
    """The bot's tie-breaks: from the game's dice seed, its side and where the game stands
    (never the dice themselves)."""
    text = f"{game.dice_spec.seed or game.dice_spec.kind}/{computer}/{len(game.history)}"
    return BotRng(hashlib.sha256(b"ardennes-vs-bot/1" + text.encode()).digest())


def new_game(
    scenario: int,
    human: rules.ao.Side,
    level: int = rules.ao.levels.HISTORICAL,
    seed: str | None = None,
    kind: str = DEFAULT,
) -> rules.ao.Game:
    """A new game of ``scenario`` with the player on ``human``'s side against the bot ``kind``
    at ``level`` (:func:`rules.ao.levels.level_for`), dice from ``seed`` (default: random).
    ``ValueError`` (one line) for a scenario, side, level or kind that does not exist."""
    if human not in ("german", "allied"):
        raise ValueError(f"the side is german or allied, not {human!r}")
    computer = rules.ao.other_side(human)
    if scenario not in scenario_specs():
        raise ValueError(f"scenario {scenario} does not exist")
    lv = rules.ao.levels.level_for(scenario_specs()[scenario], level, computer)
    bot = make_bot(kind, computer, level, BotRng(b"name"))
    me = rules.Player()
    them = player(bot, level)
    players = (
        {"german": me, "allied": them} if human == "german" else {"german": them, "allied": me}
    )
    game = saves.new_game(scenario, seed)
    game = rules.ao.Game.new(
        game.board.at_level(lv), dice=game.dice, dice_spec=game.dice_spec, players=players
    )
    return game


def opponent_of(game: rules.ao.Game) -> Versus | None:
    """The computer of ``game`` when it is a game against the computer (one side a bot of a
    known kind, the other a human), else None."""
    side = saves.bot_side(game.players)
    if side is None:
        return None
    p = rules.record.player(game.players, side)
    lv = game.board.level
    level = lv.number if lv is not None else (p.level or rules.ao.levels.HISTORICAL)
    bot = make_bot(p.name, side, level, _bot_rng(game, side))
    board = game.board.variant(game.board.level) if game.board.variant else game.board
    return Versus(bot=bot, computer=side, kind=p.name, level=level, board=board)


def to_act(game: rules.ao.Game, vs: Versus) -> bool:
    """The computer must give the next command."""
    return rules.ao.acting_side(game.state) == vs.computer


def think(
    game: rules.ao.Game, vs: Versus, progress: Progress | None = None
) -> list[rules.ao.Command]:
    """The computer's commands from where ``game`` stands until the player must act or the
    game is over, played on ``game`` (a copy: :meth:`rules.ao.Game.copy`); ``progress`` is told
    after each one. :class:`BotFailed` when the engine refuses one of them."""
    out: list[rules.ao.Command] = []
    while to_act(game, vs):
        if len(out) >= MAX_THINK:
            raise BotFailed(f"the computer gave {MAX_THINK} commands without an end")
        state = game.state
        cmd = vs.bot.choose(game)
        r = game.push(cmd)
        if isinstance(r, rules.Rejection):
            raise BotFailed(
                f"GT{state.turn} {state.side} {state.phase}: {rules.record.tag(cmd)} refused: "
                f"{r.message}"
            )
        out.append(cmd)
        if progress is not None:
            progress(game.state, len(out))
    return out


def may_undo(game: rules.ao.Game, vs: Versus) -> str | None:
    """Why the player may not take back the last command (the computer's, or the engine's
    refusal), else None."""
    if game.history and rules.ao.acting_side(game.state_at(len(game.history) - 1)) == vs.computer:
        return "The computer's orders cannot be undone"
    return game.undo_refusal()


def last_turn(game: rules.ao.Game, vs: Versus) -> tuple[int, int] | None:
    """The computer's last player-turn in ``game``'s record: ``(first command, end)``, the
    commands it gave while its side was the phasing side (its decisions in your combat are
    not a turn of its own); None when it has played none (``R`` after ``--resume``)."""
    end: int | None = None
    for k in range(len(game.history) - 1, -1, -1):
        before = game.state_at(k)
        its = rules.ao.acting_side(before) == vs.computer and before.side == vs.computer
        if its and end is None:
            end = k + 1
        elif not its and end is not None and before.side != vs.computer:
            return k + 1, end
    return (0, end) if end is not None else None
