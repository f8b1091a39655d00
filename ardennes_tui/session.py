"""A hot-seat game session: the board, the start state, the command log and the current state.

No Textual here: the play screen owns a :class:`GameSession` and asks it everything about the
game; widgets only show what the screen passes down::

    s = GameSession.new(1)
    s.apply(EndPhase())                      # accept the Allied set-up
    s.summary()                              # 'GT1 16 Dec · German · Set-up · VP 0-0'
    s.apply(Move("de-12ss-a", ("3908", "3909")))   # a Rejection (and nothing logged) here

Dice: a game draws every die from :class:`rules.dice.SeededDice` of its ``dice_seed`` bytes:
the UTF-8 of its text ``seed`` (chosen at random from ``os.urandom`` unless given, e.g.
``ardennes --seed X``), or raw bytes with no text (a game loaded from a self-play log, whose
dice are ``SeededDice(bytes.fromhex(header.dice_seed))``). The same seed and the same orders
give the same game.

Undo works inside the current phase only, and never across a die roll: the log is cut back to
the state after the last ``EndPhase`` or the last command that rolled a die, at most (neither
is ever undone, so nobody can roll again).

A saved game is a header line ``{"format": "ardennes-log/1", "scenario": N, "seed": "..."}``
(or ``"dice_seed": "<hex>"`` instead of ``"seed"`` when the dice have no text seed) then one
command a line (:func:`rules.commands.encode_command`); :meth:`GameSession.from_jsonl` replays
it from the scenario's start with the same dice (a log without a header is replayed with a
fresh seed, which is right only while nothing rolled). :meth:`GameSession.load` also takes a
self-play log (``rules.selfplay``, ``docs/selfplay.md``): :meth:`GameSession.from_selfplay`
replays it with its dice and checks its state hashes.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

import msgspec

from rules import combat, hexgrid, setup_rules
from rules.commands import Command, EndPhase, Move, decode_command, encode_command
from rules.dice import SeededDice
from rules.engine import (
    Applied,
    apply,
    drop_hexes,
    drop_required,
    new_game,
    pending_decision,
    pending_reinforcements,
    setup_hexes,
)
from rules.events import Event
from rules.gamemap import GameMap
from rules.hexgrid import HexId
from rules.movement import Reach, legal_moves, may_move
from rules.rejection import RejectedError, Rejection
from rules.selfplay import Header as SelfPlayHeader
from rules.selfplay import LogError, decode_log, parse_dice_seed, unknown_scenario
from rules.state import Attack, Board, Decision, GameState, Phase, state_hash
from rules.units import UnitDef
from scenarios import load_board, scenario_numbers

PHASE_NAMES: Final[dict[Phase, str]] = {
    "setup_allied": "Set-up",
    "setup_german": "Set-up",
    "reinforcement": "Reinforcement",
    "supply_judgment": "Supply Judgment",
    "initial_movement": "Initial Movement",
    "combat": "Combat",
    "mechanized_movement": "Mechanized Movement",
    "game_over": "Game over",
}
"""Phase names as the player reads them (AO-4.1b)."""


def turn_date(turn: int) -> str:
    """The date of a Game-Turn: one day each, 16 December 1944 to 2 January 1945 (AO-2.1)."""
    day = 15 + turn
    return f"{day} Dec" if day <= 31 else f"{day - 31} Jan"


LOG_FORMAT: Final = "ardennes-log/1"
"""The ``format`` of a saved game's header line."""

MAX_LOAD_BYTES: Final = 64 << 20
"""The largest file ``--load`` reads (a whole self-play game is about 0.3 MB)."""


def random_seed() -> str:
    """A fresh dice seed: 16 hex digits from ``os.urandom``."""
    return os.urandom(8).hex()


class SaveHeader(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The first line of a saved game: its dice are ``seed`` (text) or ``dice_seed`` (hex of
    the :class:`rules.dice.SeededDice` bytes), exactly one of them."""

    format: str
    scenario: int
    seed: str | None = None
    dice_seed: str | None = None


_SAVE_HEADER: Final = msgspec.json.Decoder(SaveHeader)


def parse_log(text: str) -> tuple[dict[str, object] | None, list[Command]]:
    """The header (None when the log has none; its fields as a dict, ``seed`` or
    ``dice_seed``) and the commands of a saved game; raises ``msgspec.DecodeError``/
    ``ValidationError`` (or ``ValueError``) on a bad line."""
    lines = [line for line in text.splitlines() if line.strip()]
    header: dict[str, object] | None = None
    if lines and '"format"' in lines[0]:
        first = lines.pop(0)
        try:
            h = _SAVE_HEADER.decode(first)
        except msgspec.ValidationError as exc:
            raise ValueError(f"a bad header line ({exc}): {first[:60]}") from None
        if h.format != LOG_FORMAT:
            raise ValueError(f"not a saved game of format {LOG_FORMAT}: {first[:60]}")
        if (h.seed is None) == (h.dice_seed is None):
            raise ValueError("the log header needs a scenario number and a seed or a dice_seed")
        if h.dice_seed is not None:
            parse_dice_seed(h.dice_seed)
        header = {k: v for k, v in msgspec.structs.asdict(h).items() if v is not None}
    return header, [decode_command(line) for line in lines]


def is_selfplay_log(data: bytes) -> bool:
    """True when the first line of ``data`` is a self-play header (``"kind": "header"``,
    ``docs/selfplay.md``): :meth:`GameSession.load` then reads it as a self-play log (and
    checks it strictly). A saved game's header has no ``kind``."""
    first = next((line for line in data.splitlines() if line.strip()), b"")
    try:
        raw = msgspec.json.decode(first)
    except (msgspec.DecodeError, RecursionError):  # RecursionError: nested too deeply
        return False
    return isinstance(raw, dict) and raw.get("kind") == "header"


def is_selfplay_file(path: Path) -> bool:
    """True when ``path`` is an existing self-play log (its first line tells)."""
    try:
        with path.open("rb") as fh:
            head = fh.readline(1 << 16)
    except OSError:
        return False
    return is_selfplay_log(head)


def default_save_path(scenario: int, directory: Path | None = None) -> Path:
    """Where ``s`` saves a game that has no file of its own: ``ardennes-sN.jsonl`` in
    ``directory`` (default: the working directory), or when that is a self-play log the first
    ``ardennes-sN-K.jsonl`` (K = 2, 3, ...) that is not one: ``s`` never writes over a
    self-play log."""
    base = directory if directory is not None else Path()
    path = base / f"ardennes-s{scenario}.jsonl"
    k = 2
    while is_selfplay_file(path):
        path = base / f"ardennes-s{scenario}-{k}.jsonl"
        k += 1
    return path


def read_game_file(path: Path) -> bytes:
    """The bytes of a saved game or self-play log (at most :data:`MAX_LOAD_BYTES`); raises
    ``OSError``, or ``ValueError`` for a larger file."""
    with path.open("rb") as fh:
        data = fh.read(MAX_LOAD_BYTES + 1)
    if len(data) > MAX_LOAD_BYTES:
        raise ValueError(f"over the {MAX_LOAD_BYTES} byte limit")
    return data


def _check_scenario(number: int, what: str) -> None:
    if number not in scenario_numbers():
        raise ValueError(f"{what} names scenario {number}, which does not exist")


class GameSession:
    """One game in progress. ``apply`` keeps a command only when the engine accepts it."""

    def __init__(
        self,
        board: Board,
        start: GameState,
        commands: Iterable[Command] = (),
        *,
        seed: str | None = None,
        dice_seed: bytes | None = None,
    ) -> None:
        if seed is not None and dice_seed is not None:
            raise ValueError("a game's dice come from a text seed or from dice_seed, not both")
        self.board = board
        self.start = start
        if dice_seed is None:
            seed = seed if seed is not None else random_seed()
            dice_seed = seed.encode()
        self.seed: str | None = seed
        """The dice seed as text, or None when the dice come from raw :attr:`dice_seed`
        bytes (a game loaded from a self-play log)."""
        self.dice_seed: bytes = dice_seed
        """The dice's seed bytes: ``seed.encode()``, or the bytes given."""
        self.dice = SeededDice(self.dice_seed)
        self.selfplay: SelfPlayHeader | None = None
        """The header of the self-play log this game was loaded from (:meth:`from_selfplay`),
        else None."""
        self._log: list[Command] = []
        self._events: list[tuple[Event, ...]] = []
        self._states: list[GameState] = [start]
        self._moves: dict[tuple[str, str], dict[HexId, Reach]] = {}
        for i, cmd in enumerate(commands):
            r = self.apply(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)

    @property
    def seed_label(self) -> str:
        """The dice seed as the player reads it: the text seed, else the hex of the bytes
        (cut at 16 digits)."""
        if self.seed is not None:
            return self.seed
        h = self.dice_seed.hex()
        return f"{h[:16]}... (hex)" if len(h) > 16 else f"{h} (hex)"

    @classmethod
    def new(
        cls,
        scenario: int,
        game_map: GameMap | None = None,
        *,
        seed: str | None = None,
        dice_seed: bytes | None = None,
    ) -> GameSession:
        """A new game of ``scenario`` on ``game_map`` (default: the shipped map), its dice
        from ``seed`` (text) or ``dice_seed`` (bytes); default: a random text seed."""
        board = load_board(scenario, game_map)
        return cls(board, new_game(board), seed=seed, dice_seed=dice_seed)

    @classmethod
    def from_jsonl(
        cls, scenario: int, text: str, game_map: GameMap | None = None, *, seed: str | None = None
    ) -> GameSession:
        """Replay a saved game; its header's scenario and seed (or dice_seed) win over
        ``scenario`` and ``seed``. Raises :class:`RejectedError` on a command the engine
        refuses (the replay is the verification: same seed, same orders, same dice), and
        ``ValueError`` (msgspec's errors among them) on a bad file."""
        header, commands = parse_log(text)
        dice_seed: bytes | None = None
        if header is not None:
            scenario = int(header["scenario"])  # type: ignore[call-overload]
            _check_scenario(scenario, "the log's header")
            if "dice_seed" in header:
                seed, dice_seed = None, parse_dice_seed(str(header["dice_seed"]))
            else:
                seed = str(header["seed"])
        s = cls.new(scenario, game_map, seed=seed, dice_seed=dice_seed)
        for i, cmd in enumerate(commands):
            r = s.apply(cmd)
            if isinstance(r, Rejection):
                raise RejectedError(i, r)
        return s

    @classmethod
    def from_selfplay(cls, data: bytes, game_map: GameMap | None = None) -> GameSession:
        """Replay a self-play log (``docs/selfplay.md``) from its header's scenario with its
        dice (``dice_seed``), checking, as ``ardennes selfplay --replay`` does, the state
        hash after each command where the log records one and the final hash of its end
        line. Raises :class:`rules.selfplay.LogError` (one sentence naming the first
        diverging or refused command) on a bad or tampered log."""
        head, body, foot = decode_log(data)  # header, numbering and count checked there
        if head.scenario not in scenario_numbers():
            raise unknown_scenario(head.scenario)
        s = cls.new(head.scenario, game_map, dice_seed=parse_dice_seed(head.dice_seed))
        for i, line in enumerate(body):
            name = f"command {i} ({line.command.__struct_config__.tag})"
            r = s.apply(line.command)
            if isinstance(r, Rejection):
                raise LogError(f"{name} refused: {r.message}")
            if line.hash is not None:
                h = state_hash(s.state)
                if h != line.hash:
                    raise LogError(
                        f"{name} diverges: state hash {h[:16]} where the log has {line.hash[:16]}"
                    )
        if foot is not None:
            final = state_hash(s.state)
            if final != foot.hash:
                raise LogError(
                    f"final state hash {final[:16]} differs from the log's {foot.hash[:16]}"
                )
        s.selfplay = head
        return s

    @classmethod
    def load(
        cls,
        scenario: int,
        data: bytes,
        game_map: GameMap | None = None,
        *,
        seed: str | None = None,
    ) -> GameSession:
        """``ardennes --load``: a self-play log (:func:`is_selfplay_log`,
        :meth:`from_selfplay`) or a saved game (:meth:`from_jsonl`, UTF-8)."""
        if is_selfplay_log(data):
            return cls.from_selfplay(data, game_map)
        return cls.from_jsonl(scenario, data.decode("utf-8"), game_map, seed=seed)

    # -- the game ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def log(self) -> tuple[Command, ...]:
        """Every accepted command, in order."""
        return tuple(self._log)

    @property
    def events(self) -> tuple[tuple[Event, ...], ...]:
        """The events of each accepted command, in the order of :attr:`log`."""
        return tuple(self._events)

    def apply(self, command: Command) -> Applied | Rejection:
        """Apply ``command`` to the current state with the game's dice; logged only when
        accepted."""
        r = apply(self.board, self.state, command, self.dice)
        if isinstance(r, Applied):
            self._log.append(command)
            self._events.append(tuple(r.events))
            self._states.append(r.state)
        return r

    @property
    def can_undo(self) -> bool:
        """True when the last command belongs to the current phase (never an ``EndPhase``)
        and rolled no die (undo never lets a player roll again)."""
        return (
            bool(self._log)
            and not isinstance(self._log[-1], EndPhase)
            and self._states[-1].dice == self._states[-2].dice
        )

    def undo_refusal(self) -> str:
        """Why :meth:`undo` would do nothing now."""
        if not self._log or isinstance(self._log[-1], EndPhase):
            return "Nothing to undo in this phase"
        return "The dice have rolled: that cannot be undone"

    def undo(self) -> Command | None:
        """Take back the last command of the current phase; the command, or None if none."""
        if not self.can_undo:
            return None
        self._states.pop()
        self._events.pop()
        return self._log.pop()

    # -- questions for the UI ---------------------------------------------------------------

    def unit_def(self, unit_id: str) -> UnitDef:
        return self.board.defs[unit_id]

    def legal_moves(self, unit_id: str) -> dict[HexId, Reach]:
        """:func:`rules.movement.legal_moves` of ``unit_id`` now (cached per state hash)."""
        key = (state_hash(self.state), unit_id)
        got = self._moves.get(key)
        if got is None:
            if len(self._moves) > 256:
                self._moves.clear()
            got = self._moves[key] = legal_moves(self.board, self.state, unit_id)
        return got

    def may_move(self, unit_id: str) -> Rejection | None:
        """Why ``unit_id`` may not start a move now, or None."""
        return may_move(self.board, self.state, unit_id)

    def movable_units(self) -> list[str]:
        """Ids of the units that may move now (sorted)."""
        return [u.id for u in self.state.units if may_move(self.board, self.state, u.id) is None]

    def units_by_hex(self) -> dict[HexId, list[UnitDef]]:
        """Counters on the map, dormant ones included: hex -> stack sorted by unit id."""
        out: dict[HexId, list[UnitDef]] = {}
        for u in self.state.units:
            if u.hex is not None and u.status in ("on_map", "dormant"):
                out.setdefault(u.hex, []).append(self.board.defs[u.id])
        return out

    def stack(self, hex_id: HexId) -> list[str]:
        """Ids of the units in ``hex_id`` (dormant included), top first."""
        return [d.id for d in self.units_by_hex().get(hex_id, [])]

    def own_units(self, hex_id: HexId) -> list[str]:
        """Ids of the phasing side's units in ``hex_id``, top first."""
        side = self.state.side
        return [u for u in self.stack(hex_id) if self.board.defs[u].side == side]

    def path_to(self, unit_id: str, hex_id: HexId) -> tuple[str, ...]:
        """The path a move to ``hex_id`` takes: the cheapest legal one, else the straight line
        (which the engine then refuses with its reason)."""
        reach = self.legal_moves(unit_id).get(hex_id)
        if reach is not None:
            return reach.path
        start = self.state.unit(unit_id).hex
        if start is None or start == hex_id:
            return ()
        return tuple(hexgrid.line(start, hex_id)[1:])

    def why_not(self, unit_id: str, hex_id: HexId) -> Rejection:
        """Why ``unit_id`` cannot move to ``hex_id`` (the engine's answer to a straight path)."""
        bad = self.may_move(unit_id)
        if bad is not None:
            return bad
        path = self.path_to(unit_id, hex_id)
        r = apply(self.board, self.state, Move(unit_id, path))
        if isinstance(r, Rejection):
            return r
        # A straight path the search did not offer is accepted only at a higher cost than
        # the cheapest; legal_moves offers every reachable hex, so this does not happen.
        return Rejection("AO-5.1A", f"{unit_id} cannot reach {hex_id}")  # pragma: no cover

    def summary(self) -> str:
        """One line, e.g. ``GT3 17 Dec · German · Initial Movement · VP 4-1``."""
        s = self.state
        return (
            f"GT{s.turn} {turn_date(s.turn)} · {s.side.capitalize()} · "
            f"{PHASE_NAMES[s.phase]} · VP {s.vp.german}-{s.vp.allied}"
        )

    # -- combat ---------------------------------------------------------------------------------

    def pending(self) -> Decision | None:
        """The decision the engine waits for, or None."""
        return pending_decision(self.board, self.state)

    def preview(
        self, attackers: Sequence[str], defenders: Sequence[HexId]
    ) -> combat.Preview | Rejection:
        """:func:`rules.combat.preview_attack` now."""
        return combat.preview_attack(self.board, self.state, attackers, defenders)

    def check_attack(
        self,
        attackers: Sequence[str],
        defenders: Sequence[HexId],
        odds: str | None = None,
        waive: Sequence[HexId] = (),
    ) -> combat.Preview | Rejection:
        """:func:`rules.combat.check_attack`: what a ``DeclareAttack`` would answer."""
        attack = Attack(
            attackers=tuple(attackers), defenders=tuple(defenders), odds=odds, waive=tuple(waive)
        )
        return combat.check_attack(self.board, self.state, attack)

    def immune_hexes(self, units: Sequence[str]) -> list[HexId]:
        """The hexes of ``units`` (in play) immune to Ar/Dr results (AO-11.f, AO-11.h,
        AO-11.i): those an attacker may waive in his declaration (AO-11.f*), sorted
        (:func:`rules.combat.immune_hexes`)."""
        return list(combat.immune_hexes(self.board, self.state, units))

    def gt1_unmet(self) -> tuple[list[str], list[str]]:
        """:func:`rules.combat.gt1_unmet`: (American units still to attack, German units still
        to attack) in the German GT1 Combat Phase (AO-4.2h*)."""
        if self.state.phase != "combat" or not self.state.combat.obliged:
            return [], []
        return combat.gt1_unmet(self.board, self.state)

    def retreat_options(self, unit: str, hexes: int) -> combat.RetreatOptions:
        return combat.retreat_options(self.board, self.state, unit, hexes)

    # -- set-up (AO-17) ------------------------------------------------------------------------

    def setup_kind(self) -> str | None:
        """How the deploying side sets up now: ``historical`` (AO-17.a), ``free`` (AO-17.b/c),
        or None outside set-up (and on boards without the set-up rules)."""
        if self.state.phase not in setup_rules.SETUP_PHASES:
            return None
        return setup_rules.setup_kind(self.board, self.state, self.state.side)

    def setup_hexes(self, unit_id: str) -> frozenset[HexId]:
        """:func:`rules.engine.setup_hexes`: where ``Place(unit_id, hex)`` is accepted now."""
        return setup_hexes(self.board, self.state, unit_id)

    def why_not_place(self, unit_id: str, hex_id: HexId) -> Rejection | None:
        """Why ``Place(unit_id, hex_id)`` would be refused in this set-up step, or None."""
        return setup_rules.check_setup_place(self.board, self.state, unit_id, hex_id)

    def front_line_unit(self, unit_id: str) -> bool | None:
        """True for a front-line unit, False for a rear unit of the free set-ups (AO-17.b/c);
        None on boards without the set-up rules."""
        areas = setup_rules.setup_areas(self.board)
        if areas is None or unit_id not in areas.setup_units:
            return None
        return unit_id in areas.front_units

    # -- reinforcements and the paradrop ----------------------------------------------------

    def reinforcements(self) -> list[tuple[str, tuple[HexId, ...]]]:
        """:func:`rules.engine.pending_reinforcements`: (unit, open entry hexes) now."""
        return pending_reinforcements(self.board, self.state)

    def drop_required(self) -> bool:
        """The paratroop unit must drop before anything else (AO-15.a)."""
        return drop_required(self.board, self.state)

    def drop_hexes(self) -> tuple[HexId, ...]:
        """Where it may drop now."""
        return drop_hexes(self.board, self.state)

    # -- saving -----------------------------------------------------------------------------

    def header(self) -> str:
        """The saved game's first line: format, scenario and dice seed (``seed``, its text,
        or ``dice_seed``, the hex of the dice's bytes when there is no text)."""
        dice = {"seed": self.seed} if self.seed is not None else {"dice_seed": self.dice_seed.hex()}
        return msgspec.json.encode(
            {"format": LOG_FORMAT, "scenario": self.start.scenario, **dice}
        ).decode()

    def to_jsonl(self) -> str:
        """The saved game: the :meth:`header` line, then one JSON command a line."""
        return self.header() + "\n" + "".join(encode_command(c).decode() + "\n" for c in self._log)

    def save(self, path: Path) -> None:
        """Write :meth:`to_jsonl` to ``path``; a self-play log there is never overwritten
        (``FileExistsError``)."""
        if is_selfplay_file(path):
            raise FileExistsError(errno.EEXIST, "a self-play log, never overwritten", str(path))
        path.write_text(self.to_jsonl(), encoding="utf-8")
