"""New games, and games saved and loaded as game records (:mod:`rules.record`); no Textual.

One format: the app keeps every hot-seat game in the store (:mod:`ardennes_tui.games.hotseat`,
``rules.record.encode(game.record())`` after every command), ``s`` also exports a copy to a file,
and ``ardennes --load FILE`` reads any record (a hot-seat export, a self-play game) with
:func:`rules.record.decode` and replays it with :meth:`rules.game.Game.replay` of the ruleset its
header names, on the board its UI kit builds (:meth:`ardennes_tui.kits.UiKit.board`; no
ruleset is known here), which checks the hash
after every command: a record whose replay fails is refused with one line naming the first
diverging command, never loaded silently::

    game = new_game(1, seed="7")
    save_game(game, Path("ardennes-s1.jsonl"))
    game, loaded = load_game(Path("ardennes-s1.jsonl"))   # ValueError: one line for the player

An export never overwrites a file that is not a record, nor a record of another game (another
scenario, dice or players, or commands that are not the same game's): only a missing file, the
very bytes this game last wrote there, or the same game's record; and never the file the game
was loaded from (:func:`default_save_path`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import rules
from ardennes_tui import kits
from ardennes_tui.errors import UserError
from rules import record, registry
from rules.game import Game, Replayed

AnyGame = Game[Any, Any, Any, Any, Any, Any, Any, Any]
"""A game of any ruleset. The functions that make or read a game return ``Any``: a
:class:`rules.game.Game` of the ruleset its record names, which each ruleset's UI takes as its
own bound class (the AO's :class:`rules.ao.Game`)."""

MAX_LOAD_BYTES: Final = 64 << 20
"""The largest file ``--load`` reads (a whole 18-turn game is about 0.4 MB)."""


def hot_seat(sides: tuple[str, str]) -> dict[str, rules.Player]:
    """Who plays in the app: two humans at one keyboard, one per side."""
    return {s: rules.Player() for s in sides}


HOT_SEAT: Final = hot_seat(("german", "allied"))
"""The AO's hot seat (:func:`hot_seat` of its sides), the default of the AO's games."""


class SaveRefused(ValueError):
    """``s`` would overwrite a file it must not; the message is one line for the player."""


def bot_side(players: rules.Players, ruleset: str = "ao") -> str | None:
    """The computer's side of a game against the computer: one side a bot of a kind this
    program has for ``ruleset`` (:meth:`ardennes_tui.kits.UiKit.opponents`: the AO's
    :data:`rules.ao.bots.registry.KINDS`), the other a human; else None."""
    kinds = kits.get(ruleset).opponents()
    one, two = registry.get(ruleset).sides
    first, second = record.player(players, one), record.player(players, two)
    if first.kind == "bot" and second.kind == "human" and first.name in kinds:
        return one
    if second.kind == "bot" and first.kind == "human" and second.name in kinds:
        return two
    return None


def random_seed() -> str:
    """A fresh dice seed: 16 hex digits from ``os.urandom``."""
    return os.urandom(8).hex()


def game_class(ruleset: str) -> type[AnyGame]:
    """The game class of ``ruleset``: its bound one (:class:`rules.ao.Game`) or the generic
    :class:`rules.game.Game` (then given ``ruleset=``); ``ValueError`` for a ruleset this
    program does not play."""
    try:
        cls = registry.game_class(ruleset)
    except KeyError:
        raise ValueError(f"ruleset {ruleset!r} is not one this program plays") from None
    return cls if cls is not None else Game


def _board(scenario: int, ruleset: str = "ao") -> Any:
    """The board of ``scenario`` of ``ruleset`` (its UI kit's: the AO's
    :func:`scenarios.load_board`); ``ValueError`` for a scenario that does not exist."""
    try:
        kit = kits.get(ruleset)
    except UserError as exc:
        raise ValueError(str(exc)) from None
    return kit.board(scenario)


def new_game(scenario: int, seed: str | None = None, ruleset: str = "ao") -> Any:
    """A new hot-seat game of ``scenario`` of ``ruleset``, its dice :class:`rules.SeededDice`
    of the UTF-8 of ``seed`` (default: :func:`random_seed`)."""
    text = seed if seed is not None else random_seed()
    rs = registry.get(ruleset)
    return game_class(ruleset).new(
        _board(scenario, ruleset),
        dice=rules.SeededDice(text.encode()),
        dice_spec=rules.DiceSpec.seeded(text.encode(), text),
        players=hot_seat(rs.sides),
        ruleset=rs,
    )


def _replay(rec: rules.Record) -> Replayed[AnyGame]:
    """:meth:`rules.game.Game.replay` of ``rec`` on its scenario's board, by its ruleset."""
    ruleset = rec.header.ruleset
    board = _board(rec.header.scenario, ruleset)
    return game_class(ruleset).replay(rec, board, ruleset=registry.get(ruleset))


def short_name(name: str) -> str:
    """How the app and ``ardennes games`` show a hot-seat game's name: a generated one
    (32 hex digits, :func:`pbem.store.new_game_id`) by its first 8, which ``--resume`` takes."""
    if len(name) == 32 and all(c in "0123456789abcdef" for c in name):
        return name[:8]
    return name


@dataclass(frozen=True)
class Loaded:
    """What ``--load`` (or ``--resume``) found: the file, who played the recorded game, how
    many commands it replayed, and where ``s`` exports a copy of the game."""

    path: Path
    """The file read (for ``--resume``: the record in the store)."""
    players: rules.Players
    """The players of the record (the app goes on with two humans)."""
    commands: int
    save_path: Path
    """Where ``s`` exports a copy: a file of its own in the working directory
    (:func:`default_save_path`), never the loaded file."""
    resumed: str | None = None
    """The name of the hot-seat game of the store that ``--resume`` reopened (None: a file)."""

    def opening(self, game: AnyGame) -> str:
        """The first message of the app."""
        seed = f"Dice seed {game.dice_spec.label}."
        kit = kits.get(game.ruleset.id)
        side = bot_side(self.players, game.ruleset.id)
        if side is not None and game.players == self.players:
            bot = record.player(self.players, side)
            what = (
                f"game {short_name(self.resumed)} resumed"
                if self.resumed is not None
                else f"record {self.path.name} loaded"
            )
            return (
                f"Against the computer ({bot.label}, the {kit.side_name(side)}): {what}, "
                f"{self.commands} orders replayed and checked. {seed}"
            )
        if self.resumed is not None:
            return (
                f"Hot-seat game {short_name(self.resumed)} resumed: {self.commands} orders "
                f"replayed and checked. {seed}"
            )
        if self.players == hot_seat(game.ruleset.sides):
            return seed
        g, a = (f"{record.player(self.players, s).label} ({kit.side_name(s)})" for s in kit.sides)
        return (
            f"Record of {g} vs {a}, scenario "
            f"{game.ruleset.scenario(game.start)}: {self.commands} orders replayed and checked; "
            f"s saves to {self.save_path}. {seed}"
        )


def read_game_file(path: Path) -> bytes:
    """The bytes of ``path``, at most :data:`MAX_LOAD_BYTES`; raises ``OSError``, or
    ``ValueError`` for a larger file."""
    with path.open("rb") as fh:
        data = fh.read(MAX_LOAD_BYTES + 1)
    if len(data) > MAX_LOAD_BYTES:
        raise ValueError(f"over the {MAX_LOAD_BYTES >> 20} MB limit")
    return data


def replay_data(data: bytes, label: str) -> tuple[Any, rules.Record]:
    """The game of the record ``data``, replayed and checked, to go on between two humans (a
    game against the computer goes on against it: its players are kept, :func:`bot_side`);
    and the record. Raises ``ValueError`` with one line that starts with ``label``: not a
    record (:func:`rules.record.decode` names the problem), an unknown scenario or dice, or a
    replay that fails (:attr:`rules.game.Replayed.error`: the first refused or diverging command,
    e.g. ``game.jsonl: command 39 (move) diverges: state hash ... where the record has ...``)."""
    try:
        rec = record.decode(data)
        replayed = _replay(rec)
    except ValueError as exc:  # RecordError, an unknown scenario
        raise ValueError(f"{label}: {exc}") from None
    if replayed.error is not None:
        raise ValueError(f"{label}: {replayed.error}")
    game = replayed.game
    if bot_side(game.players, game.ruleset.id) is None:
        game.players = hot_seat(game.ruleset.sides)
    return game, rec


def load_game(path: Path) -> tuple[Any, Loaded]:
    """``ardennes --load FILE``: the game of the record in ``path``, replayed and checked
    (:func:`replay_data`; the ``ValueError`` starts with the path, also for a file unreadable
    or too large). The file is never written: ``s`` exports to a file of its own."""
    try:
        data = read_game_file(path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    game, rec = replay_data(data, str(path))
    save_path = default_save_path(game, avoid=path)
    return game, Loaded(path, rec.header.players, len(rec.lines), save_path)


def _same_game(rec: rules.Record, game: AnyGame) -> bool:
    """``rec`` is a record of ``game`` (same scenario, dice and players; one's commands are
    the start of the other's)."""
    head = rec.header
    if (head.ruleset, head.scenario, head.dice, head.players) != (
        game.ruleset.id,
        game.ruleset.scenario(game.start),
        game.dice_spec,
        game.players,
    ):
        return False
    mine, theirs = game.commands, rec.commands
    n = min(len(mine), len(theirs))
    return mine[:n] == theirs[:n]


def save_refusal(game: AnyGame, path: Path, known: str | None = None) -> str | None:
    """Why ``s`` must not write ``game`` to ``path``, or None: a missing file, the bytes whose
    SHA-256 is ``known`` (this game read or wrote them) or the same game's record may be
    overwritten; any other file is never overwritten."""
    try:
        data = read_game_file(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return "not a game record, never overwritten"
    if known is not None and hashlib.sha256(data).hexdigest() == known:
        return None
    if not record.looks_like_record(data):
        return "not a game record, never overwritten"
    try:
        rec = record.decode(data)
    except record.RecordError:
        return "not a game record, never overwritten"
    if not _same_game(rec, game):
        return "a record of another game, never overwritten"
    return None


def save_game(game: AnyGame, path: Path, known: str | None = None) -> str:
    """Write the record of ``game`` to ``path`` (through a temporary file, then renamed);
    the SHA-256 of the bytes written (pass it back as ``known`` next time). Raises
    :class:`SaveRefused` (:func:`save_refusal`) or ``OSError``."""
    why = save_refusal(game, path, known)
    if why is not None:
        raise SaveRefused(why)
    data = record.encode(game.record())
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return hashlib.sha256(data).hexdigest()


def default_save_path(
    game: AnyGame, directory: Path | None = None, *, avoid: Path | None = None
) -> Path:
    """Where ``s`` exports a copy of ``game``: ``ardennes-sN.jsonl`` in ``directory``
    (default: the working directory), or when that file may not be overwritten
    (:func:`save_refusal`) or is ``avoid`` (the file the game was loaded from, never written)
    the first ``ardennes-sN-K.jsonl`` (K = 2, 3, ...) that may."""
    base = directory if directory is not None else Path()
    n = game.ruleset.scenario(game.start)
    path = base / f"ardennes-s{n}.jsonl"
    k = 2
    avoided = avoid.resolve() if avoid is not None else None
    while save_refusal(game, path) is not None or path.resolve() == avoided:
        path = base / f"ardennes-s{n}-{k}.jsonl"
        k += 1
    return path
