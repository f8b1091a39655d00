"""New games, and games saved and loaded as game records (:mod:`rules.record`); no Textual.

One format: the app keeps every hot-seat game in the store (:mod:`ardennes_tui.games.hotseat`,
``rules.record.encode(game.record())`` after every command), ``s`` also exports a copy to a file,
and ``ardennes --load FILE`` reads any record (a hot-seat export, a self-play game) with
:func:`rules.record.decode` and replays it with :meth:`rules.ao.Game.replay`, which checks the hash
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
from typing import Final

import rules.ao
from rules import record
from rules.ao.bots.registry import KINDS
from scenarios import load_board, scenario_numbers

MAX_LOAD_BYTES: Final = 64 << 20
"""The largest file ``--load`` reads (a whole 18-turn game is about 0.4 MB)."""

HOT_SEAT: Final = {"german": rules.Player(), "allied": rules.Player()}
"""Who plays in the app: two humans at one keyboard."""


class SaveRefused(ValueError):
    """``s`` would overwrite a file it must not; the message is one line for the player."""


def bot_side(players: rules.Players) -> rules.ao.Side | None:
    """The computer's side of a game against the computer: one side a bot of a kind this
    program has (:data:`rules.ao.bots.registry.KINDS`), the other a human; else None."""
    g, a = record.player(players, "german"), rules.record.player(players, "allied")
    if g.kind == "bot" and a.kind == "human" and g.name in KINDS:
        return "german"
    if a.kind == "bot" and g.kind == "human" and a.name in KINDS:
        return "allied"
    return None


def random_seed() -> str:
    """A fresh dice seed: 16 hex digits from ``os.urandom``."""
    return os.urandom(8).hex()


def _board(scenario: int) -> rules.ao.Board:
    """The board of ``scenario`` (:func:`scenarios.load_board`); ``ValueError`` for a scenario
    that does not exist."""
    if scenario not in scenario_numbers():
        raise ValueError(f"scenario {scenario} does not exist")
    return load_board(scenario)


def new_game(scenario: int, seed: str | None = None) -> rules.ao.Game:
    """A new hot-seat game of ``scenario``, its dice :class:`rules.SeededDice` of the UTF-8 of
    ``seed`` (default: :func:`random_seed`)."""
    text = seed if seed is not None else random_seed()
    return rules.ao.Game.new(
        _board(scenario),
        dice=rules.SeededDice(text.encode()),
        dice_spec=rules.DiceSpec.seeded(text.encode(), text),
        players=HOT_SEAT,
    )


def _replay(rec: rules.Record) -> rules.ao.Replayed:
    """:meth:`rules.ao.Game.replay` of ``rec`` on its scenario's board."""
    return rules.ao.Game.replay(rec, _board(rec.header.scenario))


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

    def opening(self, game: rules.ao.Game) -> str:
        """The first message of the app."""
        seed = f"Dice seed {game.dice_spec.label}."
        side = bot_side(self.players)
        if side is not None and game.players == self.players:
            bot = record.player(self.players, side)
            what = (
                f"game {short_name(self.resumed)} resumed"
                if self.resumed is not None
                else f"record {self.path.name} loaded"
            )
            return (
                f"Against the computer ({bot.label}, the {side.capitalize()}): {what}, "
                f"{self.commands} orders replayed and checked. {seed}"
            )
        if self.resumed is not None:
            return (
                f"Hot-seat game {short_name(self.resumed)} resumed: {self.commands} orders "
                f"replayed and checked. {seed}"
            )
        if self.players == HOT_SEAT:
            return seed
        g, a = (record.player(self.players, s).label for s in ("german", "allied"))
        return (
            f"Record of {g} (German) vs {a} (Allied), scenario "
            f"{game.start.scenario}: {self.commands} orders replayed and checked; "
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


def replay_data(data: bytes, label: str) -> tuple[rules.ao.Game, rules.Record]:
    """The game of the record ``data``, replayed and checked, to go on between two humans (a
    game against the computer goes on against it: its players are kept, :func:`bot_side`);
    and the record. Raises ``ValueError`` with one line that starts with ``label``: not a
    record (:func:`rules.record.decode` names the problem), an unknown scenario or dice, or a
    replay that fails (:attr:`rules.ao.Replayed.error`: the first refused or diverging command,
    e.g. ``game.jsonl: command 39 (move) diverges: state hash ... where the record has ...``)."""
    try:
        rec = record.decode(data)
        replayed = _replay(rec)
    except ValueError as exc:  # RecordError, an unknown scenario
        raise ValueError(f"{label}: {exc}") from None
    if replayed.error is not None:
        raise ValueError(f"{label}: {replayed.error}")
    game = replayed.game
    if bot_side(game.players) is None:
        game.players = HOT_SEAT
    return game, rec


def load_game(path: Path) -> tuple[rules.ao.Game, Loaded]:
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


def _same_game(rec: rules.Record, game: rules.ao.Game) -> bool:
    """``rec`` is a record of ``game`` (same scenario, dice and players; one's commands are
    the start of the other's)."""
    head = rec.header
    if (head.scenario, head.dice, head.players) != (
        game.start.scenario,
        game.dice_spec,
        game.players,
    ):
        return False
    mine, theirs = game.commands, rec.commands
    n = min(len(mine), len(theirs))
    return mine[:n] == theirs[:n]


def save_refusal(game: rules.ao.Game, path: Path, known: str | None = None) -> str | None:
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


def save_game(game: rules.ao.Game, path: Path, known: str | None = None) -> str:
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
    game: rules.ao.Game, directory: Path | None = None, *, avoid: Path | None = None
) -> Path:
    """Where ``s`` exports a copy of ``game``: ``ardennes-sN.jsonl`` in ``directory``
    (default: the working directory), or when that file may not be overwritten
    (:func:`save_refusal`) or is ``avoid`` (the file the game was loaded from, never written)
    the first ``ardennes-sN-K.jsonl`` (K = 2, 3, ...) that may."""
    base = directory if directory is not None else Path()
    n = game.start.scenario
    path = base / f"ardennes-s{n}.jsonl"
    k = 2
    avoided = avoid.resolve() if avoid is not None else None
    while save_refusal(game, path) is not None or path.resolve() == avoided:
        path = base / f"ardennes-s{n}-{k}.jsonl"
        k += 1
    return path
