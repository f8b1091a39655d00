"""*Breakthrough*'s answers to ``ardennes rules ... --ruleset breakthrough`` and ``ardennes map
--ruleset breakthrough`` (issue 24): plain data for the command line to print as JSON.

A position is a :class:`rules.breakthrough.state.State` as JSON (what ``ardennes show --json``
gives as ``position`` and ``rules apply`` prints last), decoded strictly; its board is its
scenario's at the level and values given (:func:`start`). Hexes are :mod:`rules.hexgrid` ids
(``2412``) and go out with the manual's ``x,y`` beside them (``19,23``, BA-1.4c,
:mod:`scenarios.breakthrough.grid`); a hex may be given either way. Every answer names the
state hash it was computed on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

import msgspec

from rules.breakthrough import BREAKTHROUGH, movement, operations, strength, supply
from rules.breakthrough.board import Board
from rules.breakthrough.sequence import owner_of, profiles
from rules.breakthrough.state import Attack, Command, State
from rules.breakthrough.units import Unit
from rules.dice import DiceSource
from rules.hexgrid import hexside
from rules.rejection import Rejection
from rules.ruleset import state_hash_of
from scenarios.breakthrough.board import load_board
from scenarios.breakthrough.grid import CoordError, from_hex, label, parse_label, to_hex
from scenarios.breakthrough.mapdata import load_map, render

__all__ = [
    "Board",
    "QueryError",
    "State",
    "apply_commands",
    "decode_commands",
    "hex_arg",
    "map_json",
    "map_text",
    "moves",
    "odds",
    "options",
    "position_bytes",
    "start",
    "supply_report",
]

_DECODE_STATE: Final = msgspec.json.Decoder(State)
_DECODE_COMMAND: Final = msgspec.json.Decoder(Command)
_ENC: Final = msgspec.json.Encoder(order="deterministic")


class QueryError(ValueError):
    """A question that cannot be answered: one line for the player."""


def xy(h: str) -> str:
    """The manual's ``x,y`` of a hex id (``?`` off the grid)."""
    try:
        return label(from_hex(h))
    except CoordError:
        return "?"


def hex_arg(text: str, board: Board) -> str:
    """A hex given as an id (``2412``) or as the manual's ``x,y`` (``19,23``)."""
    try:
        h = to_hex(parse_label(text)) if "," in text else text
    except CoordError as exc:
        raise QueryError(str(exc)) from None
    if h not in board.terrain:
        raise QueryError(f"{text!r} is not a hex of the map (an id like 2412, or x,y like 19,23)")
    return h


def start(
    scenario: int | None, position: bytes | None, level: int, two_player: bool
) -> tuple[Board, State]:
    """The board and the state to start from: the scenario's first state, or the position
    (its scenario's board at ``level``, solitaire or two-player values), checked."""
    try:
        if position is None:
            board = load_board(scenario if scenario is not None else 3, level, True, two_player)
            return board, BREAKTHROUGH.new_game(board)
        state = _DECODE_STATE.decode(position)
        board = load_board(state.scenario, level, True, two_player)
    except ValueError as exc:  # msgspec's errors are ValueErrors too
        raise QueryError(str(exc).splitlines()[0]) from None
    known = profiles(board, state)
    for u in state.units:
        if u.id not in known:
            raise QueryError(f"no unit {u.id!r} in scenario {state.scenario}")
        if u.hex not in board.terrain:
            raise QueryError(f"{u.id} stands on {u.hex}, which is not a hex of the map")
    return board, state


def _hash(state: State) -> str:
    return state_hash_of(BREAKTHROUGH, state)


def options(board: Board, state: State) -> dict[str, Any]:
    """What may be done now and by whom (:meth:`rules.breakthrough.BREAKTHROUGH.options`)."""
    out: dict[str, Any] = msgspec.to_builtins(BREAKTHROUGH.options(board, state, _hash(state)))
    w = BREAKTHROUGH.dice_wait(board, state)
    out["dice_wait"] = {"kind": w.kind, "purpose": w.purpose, "extendable": w.extendable}
    return out


def _unit(state: State, uid: str) -> Unit:
    for u in state.units:
        if u.id == uid:
            return u
    raise QueryError(f"no unit {uid!r} on the map")


def moves(board: Board, state: State, uid: str) -> dict[str, Any]:
    """Every hex ``uid`` can move into now, with its cheapest path, what it costs and what is
    left (BA-7.5a-b, 13.5's costs); ``refusal`` when it may not move now (not an Operation
    Phase, not its side's, BA-2.4c on 16 December, a plotted unit: BA-7.9c)."""
    u = _unit(state, uid)
    refusal: Rejection | None = None
    if state.phase != "operation" or state.side != u.side:
        refusal = Rejection("BA-2.3a", f"{state.side} {state.phase}: {uid} cannot move now")
    else:
        refusal = operations.may_move(u, state.turn, 1 if state.stage == 1 else 2)
        if refusal is None and any(p.unit == uid for p in state.plots):
            refusal = Rejection("BA-7.9c", f"{uid} has plotted an attack: it stays to fight")
    crossed = {site: frozenset(ids) for site, ids in state.crossed}
    mboard = board.movement_board(
        owner_of(board, state), frozenset(state.blown), state.turn, crossed
    )
    reach = movement.legal_moves(u, mboard, state.units, profiles(board, state), uid in state.moved)
    return {
        "unit": uid,
        "hex": u.hex,
        "xy": xy(u.hex),
        "op": u.op,
        "mode": u.mode,
        "state_hash": _hash(state),
        "refusal": None if refusal is None else _rejection(refusal),
        "moves": {
            h: {"xy": xy(h), "cost": r.cost, "op_left": r.op_left, "path": list(r.path)}
            for h, r in sorted(reach.items())
        },
    }


def _rejection(r: Rejection) -> dict[str, str]:
    return {"case": r.case, "message": r.message}


def supply_report(board: Board, state: State, side: str | None) -> dict[str, Any]:
    """Each unit's supply marker (BA-4.2a-c, as the last Supply Phase left it) and what a
    trace would mark now: ``supplied`` for a side still supplied without a trace (BA-4.4a)."""
    ground = board.supply_ground(frozenset(state.blown))
    owner = owner_of(board, state)
    sides = (side,) if side is not None else ("american", "german")
    out = []
    for s in sides:
        auto = supply.automatic(s, state.turn)  # type: ignore[arg-type]
        net = None if auto else supply.supplied_roads(s, ground, state.units, owner)  # type: ignore[arg-type]
        units = []
        for u in state.units:
            if u.side != s:
                continue
            now = "supplied" if net is None else supply.traced(u, ground, state.units, owner, net)
            units.append(
                {"unit": u.id, "hex": u.hex, "xy": xy(u.hex), "marker": u.supply, "now": now}
            )
        out.append({"side": s, "automatic": auto, "units": units})
    return {"state_hash": _hash(state), "sides": out}


def odds(board: Board, state: State, attackers: Sequence[str], target: str) -> dict[str, Any]:
    """The combat ``attackers`` would fight on ``target`` now, factor by factor (BA-8.1a,
    BA-8.2a-g, 13.6): each unit's strength, the efficiency it fights with, its factors
    (thousandths, named) and modified strength (hundredths, capped, with the divisional bonus:
    :func:`~rules.breakthrough.strength.modified_strength`), the artillery of each side, the
    odds; ``refusal``: why the rules would refuse the plots (each attacker's
    :class:`~rules.breakthrough.state.Attack` pushed in turn, BA-7.9a-c)."""
    atts = [_unit(state, a) for a in attackers]
    defenders = [u for u in state.units if u.hex == target]
    if not defenders:
        raise QueryError(f"no unit on {target} ({xy(target)}) to attack")
    terrain = board.terrain[target]
    rows = []
    pairs = []
    for a in atts:
        river = hexside(a.hex, target) in board.rivers
        pairs.append((a, river))
        try:
            factors = strength.factors(a, "attack", terrain, river)
            value: int | None = strength.modified_strength(a, "attack", terrain, river)
        except strength.IsolatedAttackError:
            factors, value = [], None
        rows.append(_row(a, "attack", factors, value, river))
    drows = [
        _row(
            d,
            "defence",
            strength.factors(d, "defence", terrain, False),
            strength.modified_strength(d, "defence", terrain),
        )
        for d in defenders
    ]
    refusal = _plot_refusal(board, state, attackers, target)
    out: dict[str, Any] = {
        "state_hash": _hash(state),
        "target": target,
        "xy": xy(target),
        "terrain": terrain,
        "attackers": rows,
        "defenders": drows,
        "refusal": refusal,
    }
    if all(r["modified"] is not None for r in rows):
        art = sum(a.artillery for a in atts)
        found = strength.combat_odds(pairs, defenders, terrain)
        out["artillery"] = {
            "attack": art,
            "attack_counted": strength.attack_artillery(
                art, terrain == "town", strength.defence_fort(defenders)
            ),
            "defence": sum(d.artillery for d in defenders),
            "defence_counted": 100 * sum(d.artillery for d in defenders),
        }
        out["odds"] = msgspec.to_builtins(found)
    return out


def factor_names(u: Unit, role: str, across_river: bool) -> list[str]:
    """The names of :func:`rules.breakthrough.strength.factors`' values, in its order (13.6:
    the defender's terrain, fort and supply; the attacker's river and supply; travel mode and
    strafing for either)."""
    names = ["terrain", "fort", "supply"] if role == "defence" else []
    if role == "attack":
        names += ["river", "supply"] if across_river else ["supply"]
    if u.mode == "travel":
        names.append("travel mode")
    if u.strafed:
        names.append("strafed")
    return names


def _row(
    u: Unit, role: str, factors: list[int], value: int | None, river: bool = False
) -> dict[str, Any]:
    names = factor_names(u, role, river)
    row: dict[str, Any] = {
        "unit": u.id,
        "hex": u.hex,
        "strength": u.strength,
        "efficiency": strength.efficiency_used(u),
        "divisional": u.divisional,
        "factors": dict(zip(names, factors, strict=True)) if factors else {},
        "modified": value,
    }
    if role == "attack":
        row["across_river"] = river
    return row


def _plot_refusal(
    board: Board, state: State, attackers: Sequence[str], target: str
) -> dict[str, str] | None:
    s = state
    for a in attackers:
        r = BREAKTHROUGH.apply(board, s, Attack(a, target), None)
        if isinstance(r, Rejection):
            return _rejection(r)
        s = r.state
    return None


def decode_commands(text: str) -> Iterator[tuple[int, Command]]:
    """The commands of a JSONL text (line number, command), strictly (:class:`QueryError`
    naming the line)."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield n, _DECODE_COMMAND.decode(line)
        except msgspec.ValidationError as exc:
            raise QueryError(f"line {n}: {exc}") from None
        except msgspec.DecodeError as exc:
            raise QueryError(f"line {n}: {exc}") from None


def apply_commands(
    board: Board, state: State, commands: Sequence[Command], dice: DiceSource | None
) -> Iterator[tuple[dict[str, Any], State, Rejection | None]]:
    """Apply ``commands`` in order: for each, its line (``index``, ``command``, ``events`` and
    ``state_hash``, or ``rejected``), the state after it and its rejection (the last one)."""
    for i, cmd in enumerate(commands):
        r = BREAKTHROUGH.apply(board, state, cmd, dice)
        line: dict[str, Any] = {"index": i, "command": msgspec.Raw(_ENC.encode(cmd))}
        if isinstance(r, Rejection):
            line["rejected"] = _rejection(r)
            yield line, state, r
            return
        state = r.state
        line["events"] = [msgspec.Raw(_ENC.encode(e)) for e in r.events]
        line["state_hash"] = _hash(state)
        yield line, state, None


def position_bytes(state: State) -> bytes:
    """The position as one canonical JSON line's bytes (no newline)."""
    return BREAKTHROUGH.state_bytes(state)


def map_text() -> str:
    """The map as the manual's screen shows it, with its legend (plain ASCII)."""
    return "".join(line + "\n" for line in render(load_map()))


def map_json() -> bytes:
    """The compiled map (``scenarios/breakthrough/map.json``'s data), canonical JSON."""
    return _ENC.encode(load_map().data) + b"\n"
