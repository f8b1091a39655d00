"""Self-play: the heuristic bots (:mod:`rules.bots`) play a whole game against each other.

``play(scenario, seed, turns=None) -> GameRecord``: the commands, the dice seed, the state
hash after every command and at the end, the VP tabulated at the end of every Game-Turn and
the verdict. Everything derives from ``seed`` (its decimal/text form):

* dice: :class:`rules.dice.SeededDice` of ``SHA-256(b"ardennes-selfplay-dice/1" + seed)``;
* the bots' tie-breaking stream: :class:`rules.bots.BotRng` of
  ``SHA-256(b"ardennes-selfplay-bots/1" + seed)``, one derived stream per side;

so the same seed gives the same game, byte for byte (:func:`encode_log`). The log is JSONL
(``docs/selfplay.md``): a header, one command per line with the state hash after it, and a
final line with the verdict, the VP per Game-Turn and the final hash. :func:`replay_log`
replays a log and checks it.

VP: the engine's tabulation at the end of each Game-Turn (its ``victory_points`` event, after
the Allied player-turn, AO-16.E) and its verdict (``GameState.result``; an immediate German win
by GT6 ends the game, AO-16.2). Pure: bytes in, bytes out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any, Final

import msgspec

from rules import reinforcements
from rules.bots import BotRng, bots_for
from rules.commands import Command
from rules.dice import SeededDice
from rules.engine import apply, new_game
from rules.events import VictoryPointsTabulated
from rules.game import Game
from rules.gamemap import GameMap, load_map
from rules.options import acting_side
from rules.rejection import Rejection
from rules.scenario import load_scenario, scenario_specs
from rules.state import Board, GameState, VictoryPoints, state_hash
from rules.victory import Verdict, tally, units_lost, verdict_for

FORMAT: Final = "ardennes-selfplay"
VERSION: Final = 1
BOTS: Final = "heuristic/3"
MAX_COMMANDS: Final = 100_000
"""A safety net: no game of ours comes near it (about 3,000 commands for 18 Game-Turns)."""


class TurnVP(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The tabulation at the end of Game-Turn ``turn``: VP and the exit VP in them."""

    turn: int
    german: int
    allied: int
    exit_vp: int
    allied_lost: int
    german_lost: int


class GameRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One self-play game."""

    scenario: int
    seed: str
    dice_seed: str
    """Hex of the :class:`SeededDice` seed."""
    turns: int | None
    commands: tuple[Command, ...]
    hashes: tuple[str, ...]
    """State hash after each command."""
    final_hash: str
    final_turn: int
    final_phase: str
    vp: tuple[TurnVP, ...]
    verdict: Verdict | None
    """None when the game was cut short by ``turns``."""


class Header(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="header"
):
    format: str
    version: int
    scenario: int
    seed: str
    dice_seed: str
    turns: int | None
    bots: str


class Line(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="command"
):
    n: int
    command: Command
    hash: str | None = None


class Footer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="end"):
    commands: int
    turn: int
    phase: str
    hash: str
    vp: tuple[TurnVP, ...]
    verdict: Verdict | None


class BotError(RuntimeError):
    """A bot gave a command the engine refused (a bug in the bot)."""


def _seed_text(seed: int | str) -> str:
    return str(seed)


def dice_seed(seed: int | str) -> bytes:
    return hashlib.sha256(b"ardennes-selfplay-dice/1" + _seed_text(seed).encode()).digest()


def bot_seed(seed: int | str) -> bytes:
    return hashlib.sha256(b"ardennes-selfplay-bots/1" + _seed_text(seed).encode()).digest()


_MAP: dict[str, GameMap] = {}


def start(scenario_number: int) -> tuple[Board, GameState]:
    """A new game of ``scenario_number`` (the map is loaded once per process)."""
    if "map" not in _MAP:
        _MAP["map"] = load_map()
    sc = load_scenario(scenario_number)
    board, state = new_game(sc, _MAP["map"])
    try:
        reinforcements.schedule(board)
    except LookupError:
        reinforcements.register_schedule(board, sc.arrivals)
    return board, state


def new_selfplay_game(scenario_number: int, dice: SeededDice) -> Game:
    """A new :class:`rules.Game` of ``scenario_number`` rolling ``dice`` (the one place a
    self-play game is built)."""
    board, state = start(scenario_number)
    return Game(board, state, dice=dice)


def _engine_verdict(state: GameState) -> Verdict | None:
    """The engine's verdict once it ends the game (``GameState.result``)."""
    v = getattr(state, "result", None)
    if v is None:
        return None
    return msgspec.convert(msgspec.to_builtins(v), Verdict)


def turn_vp(board: Board, state: GameState, turn: int, events: Iterable[object] = ()) -> TurnVP:
    """The tabulation at the end of Game-Turn ``turn``: the engine's (its
    ``victory_points`` event, AO-16.E) when it made one, else :func:`rules.victory.tally` of
    ``state``."""
    lost = units_lost(board, state)
    for e in events:
        if isinstance(e, VictoryPointsTabulated) and e.turn == turn:
            return TurnVP(
                turn=turn,
                german=e.german,
                allied=e.allied,
                exit_vp=e.exit_vp,
                allied_lost=lost["allied"],
                german_lost=lost["german"],
            )
    t = tally(board, state)
    return TurnVP(
        turn=turn,
        german=t.vp.german,
        allied=t.vp.allied,
        exit_vp=sum(x.vp for x in t.exits),
        allied_lost=lost["allied"],
        german_lost=lost["german"],
    )


def play(scenario_number: int, seed: int | str, turns: int | None = None) -> GameRecord:
    """Self-play scenario ``scenario_number`` from ``seed``, for ``turns`` Game-Turns (all 18
    by default, or until an immediate German victory)."""
    if turns is not None and turns < 1:
        raise ValueError("turns must be at least 1")
    dseed = dice_seed(seed)
    game = new_selfplay_game(scenario_number, SeededDice(dseed))
    board, state = game.board, game.state
    bots = bots_for(BotRng(bot_seed(seed)))
    vps: list[TurnVP] = []
    verdict: Verdict | None = None
    while state.phase != "game_over":
        if len(game.history) >= MAX_COMMANDS:
            raise BotError(f"no end after {MAX_COMMANDS} commands")
        side = acting_side(state)
        assert side is not None
        cmd = bots[side].choose(game)
        r = game.push(cmd)
        if isinstance(r, Rejection):
            raise BotError(
                f"GT{state.turn} {state.side} {state.phase}: {cmd!r} refused: {r.message}"
            )
        prev, state = state, r.state
        if state.turn != prev.turn or (state.phase == "game_over" and prev.phase != "game_over"):
            vp = turn_vp(board, state, prev.turn, r.events)
            vps.append(vp)
            verdict = _engine_verdict(state) or verdict_for(
                prev.turn, VictoryPoints(german=vp.german, allied=vp.allied)
            )
            if verdict is not None or (turns is not None and prev.turn >= turns):
                break
    return GameRecord(
        scenario=scenario_number,
        seed=_seed_text(seed),
        dice_seed=dseed.hex(),
        turns=turns,
        commands=game.commands,
        hashes=tuple(s.hash for s in game.history),
        final_hash=game.state_hash(),
        final_turn=state.turn,
        final_phase=state.phase,
        vp=tuple(vps),
        verdict=verdict,
    )


_ENC: Final = msgspec.json.Encoder(order="deterministic")


def encode_log(record: GameRecord, hashes: bool = True) -> bytes:
    """The JSONL log of ``record`` (deterministic bytes)."""
    out = [
        _ENC.encode(
            Header(
                format=FORMAT,
                version=VERSION,
                scenario=record.scenario,
                seed=record.seed,
                dice_seed=record.dice_seed,
                turns=record.turns,
                bots=BOTS,
            )
        )
    ]
    for i, cmd in enumerate(record.commands):
        out.append(_ENC.encode(Line(n=i, command=cmd, hash=record.hashes[i] if hashes else None)))
    out.append(
        _ENC.encode(
            Footer(
                commands=len(record.commands),
                turn=record.final_turn,
                phase=record.final_phase,
                hash=record.final_hash,
                vp=record.vp,
                verdict=record.verdict,
            )
        )
    )
    return b"\n".join(out) + b"\n"


class LogError(ValueError):
    """An unreadable self-play log."""


class ReplayResult(msgspec.Struct, frozen=True):
    """What replaying a log found: ``ok``, the final hash reached, and a sentence."""

    ok: bool
    final_hash: str
    commands: int
    message: str
    diverged_at: int | None = None


_LINE: Final = msgspec.json.Decoder(Header | Line | Footer)


_HEX: Final = re.compile(r"(?:[0-9a-fA-F]{2})+")


def parse_dice_seed(text: str) -> bytes:
    """The bytes of a ``dice_seed`` written as hex: a non-empty, even number of hex digits and
    nothing else (no spaces); raises :class:`LogError` (a ``ValueError``)."""
    if not _HEX.fullmatch(text):
        raise LogError(f"the dice seed is not hex: {text[:40]!r}")
    return bytes.fromhex(text)


def decode_log(data: bytes) -> tuple[Header, list[Line], Footer | None]:
    """Strictly decode a self-play log: a header of this format and version naming a known
    scenario and a hex dice seed, command lines numbered 0, 1, ... in order, and an optional
    end line counting them. Raises :class:`LogError` naming the first problem; the replay
    (:func:`replay_log`, ``ardennes --load``) then checks the commands and hashes."""
    lines = [x for x in data.splitlines() if x.strip()]
    if not lines:
        raise LogError("the log is empty")
    try:
        items: list[Any] = [_LINE.decode(x) for x in lines]
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise LogError(f"not a self-play log: {exc}") from None
    except RecursionError:  # msgspec skipping a deeply nested unknown field
        raise LogError("not a self-play log: JSON nested too deeply") from None
    head = items[0]
    if not isinstance(head, Header) or head.format != FORMAT:
        raise LogError("the first line is not a self-play header")
    if head.version != VERSION:
        raise LogError(f"log version {head.version} is not supported (this is {VERSION})")
    foot = items[-1] if isinstance(items[-1], Footer) else None
    body = items[1:-1] if foot is not None else items[1:]
    if not all(isinstance(x, Line) for x in body):
        raise LogError("a header or end line in the middle of the log")
    if head.scenario not in scenario_specs():
        raise LogError(f"the header names scenario {head.scenario}, which does not exist")
    parse_dice_seed(head.dice_seed)
    for i, line in enumerate(body):
        if line.n != i:
            name = f"command {i} ({line.command.__struct_config__.tag})"
            raise LogError(f"{name} is numbered {line.n}: a line missing or out of order")
    if foot is not None and foot.commands != len(body):
        raise LogError(f"the end line counts {foot.commands} commands, the log holds {len(body)}")
    return head, body, foot


def replay_log(data: bytes, check_each: bool = True) -> ReplayResult:
    """Replay a log from its header's scenario and dice seed; check the state hash after each
    command (when recorded and ``check_each``) and the final hash."""
    head, body, foot = decode_log(data)
    board, state = start(head.scenario)
    dice = SeededDice(parse_dice_seed(head.dice_seed))
    for i, line in enumerate(body):
        r = apply(board, state, line.command, dice)
        name = f"command {i} ({line.command.__struct_config__.tag})"
        if isinstance(r, Rejection):
            return ReplayResult(False, state_hash(state), i, f"{name} refused: {r.message}", i)
        state = r.state
        if check_each and line.hash is not None:
            h = state_hash(state)
            if h != line.hash:
                return ReplayResult(
                    False,
                    h,
                    i + 1,
                    f"{name} diverges: state hash {h[:16]} where the log has {line.hash[:16]}",
                    i,
                )
    final = state_hash(state)
    if foot is None:
        return ReplayResult(True, final, len(body), "replayed (the log has no end line)")
    if final != foot.hash:
        return ReplayResult(
            False,
            final,
            len(body),
            f"final state hash {final[:16]} differs from the log's {foot.hash[:16]}",
        )
    return ReplayResult(True, final, len(body), f"replayed {len(body)} commands: hash matches")
