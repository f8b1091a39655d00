"""The position format: a documented JSON form of a game state (``docs/position-format.md``).

A position is what tests, bug reports and the ``ardennes rules`` commands use to talk about a
game state, like FEN for chess. It round-trips exactly::

    loads(dumps(state)) == state
    dumps(loads(text)) == text        # for any text that dumps produced

and can be written by hand: every unit field but ``id`` may be omitted when it has its
default value (``status`` "on_map", ``supply`` "supplied", flags false, ``mp_spent`` 0), and
the top-level fields after ``units`` may be omitted too. :func:`loads` sorts the units by id and
checks the position (strict schema, known phases, turn 1-18, valid hex ids, no unit twice, a
hex exactly for units on the map); :func:`check` additionally checks it against a board.
"""

from __future__ import annotations

from typing import Final

import msgspec

from rules.ao.combat.gt1 import gt1_obliged
from rules.ao.state import (
    LAST_TURN,
    Board,
    CombatState,
    Crt,
    Delay,
    GameState,
    Interdiction,
    Phase,
    RollDue,
    UnitState,
    Verdict,
    VictoryPoints,
)
from rules.ao.units import Side
from rules.hexgrid import HexIdError, parse

FORMAT: Final = "ardennes-position/1"


class PositionError(ValueError):
    """A position text that is malformed or inconsistent."""


class _Position(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    scenario: int
    turn: int
    side: Side
    phase: Phase
    units: list[UnitState]
    interdicted: Interdiction = Interdiction()
    vp: VictoryPoints = VictoryPoints()
    german_crt: Crt = "initial"
    dice: int = 0
    combat: CombatState = CombatState()
    delayed: list[Delay] = []
    wb_released: bool = False
    result: Verdict | None = None
    roll: RollDue | None = None


_ENC: Final = msgspec.json.Encoder(order="deterministic")


def dumps(state: GameState) -> str:
    """The position text of ``state``: one field per line, one unit per line, newline at end."""
    e = _ENC.encode
    lines = [
        "{",
        f'  "format": {e(FORMAT).decode()},',
        f'  "scenario": {state.scenario},',
        f'  "turn": {state.turn},',
        f'  "side": {e(state.side).decode()},',
        f'  "phase": {e(state.phase).decode()},',
        '  "units": [',
    ]
    rows = [f"    {e(u).decode()}" for u in state.units]
    lines.append(",\n".join(rows))
    lines += [
        "  ],",
        f'  "interdicted": {e(state.interdicted).decode()},',
        f'  "vp": {e(state.vp).decode()},',
        f'  "german_crt": {e(state.german_crt).decode()},',
        f'  "dice": {state.dice_drawn},',
        f'  "combat": {e(state.combat).decode()}',
    ]
    # fields added with the reinforcement/victory wiring: written only when not at their
    # default, so older position texts still round-trip byte for byte
    if state.delayed:
        lines[-1] += ","
        lines.append('  "delayed": [')
        lines.append(",\n".join(f"    {e(d).decode()}" for d in state.delayed))
        lines.append("  ]")
    if state.wb_released:
        lines[-1] += ","
        lines.append('  "wb_released": true')
    if state.result is not None:
        lines[-1] += ","
        lines.append(f'  "result": {e(state.result).decode()}')
    if state.roll is not None:
        lines[-1] += ","
        lines.append(f'  "roll": {e(state.roll).decode()}')
    lines.append("}")
    if not rows:
        lines.remove("")
    return "\n".join(lines) + "\n"


def loads(text: str | bytes) -> GameState:
    """Parse and check a position; raises :class:`PositionError`."""
    try:
        p = msgspec.json.decode(text, type=_Position)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        raise PositionError(f"malformed position: {exc}") from None
    if p.format != FORMAT:
        raise PositionError(f"unknown position format {p.format!r} (want {FORMAT!r})")
    if not 1 <= p.turn <= LAST_TURN:
        raise PositionError(f"turn must be 1..{LAST_TURN}, got {p.turn}")
    if p.phase in ("setup_allied", "setup_german") and p.turn != 1:
        raise PositionError("set-up happens before Game-Turn 1")
    seen: set[str] = set()
    for u in p.units:
        if u.id in seen:
            raise PositionError(f"unit {u.id!r} is listed twice")
        seen.add(u.id)
        on_map = u.status in ("on_map", "dormant")
        if on_map and u.hex is None:
            raise PositionError(f"unit {u.id!r} is {u.status} but has no hex")
        if not on_map and u.hex is not None:
            raise PositionError(f"unit {u.id!r} is {u.status} but has a hex")
        if u.hex is not None:
            try:
                parse(u.hex)
            except HexIdError as exc:
                raise PositionError(f"unit {u.id!r}: {exc}") from None
        if u.mp_spent < 0:
            raise PositionError(f"unit {u.id!r}: mp_spent is negative")
        if u.staging is not None and u.staging < 0:
            raise PositionError(f"unit {u.id!r}: staging is negative")
    if len({d.unit for d in p.delayed}) != len(p.delayed):
        raise PositionError("a unit is delayed twice")
    if p.result is not None and p.phase != "game_over":
        raise PositionError("a result is recorded only once the game is over")
    inter = Interdiction(
        german=tuple(sorted((min(a, b), max(a, b)) for a, b in p.interdicted.german)),
        allied=tuple(sorted((min(a, b), max(a, b)) for a, b in p.interdicted.allied)),
    )
    return GameState(
        scenario=p.scenario,
        turn=p.turn,
        side=p.side,
        phase=p.phase,
        units=tuple(sorted(p.units, key=lambda u: u.id)),
        interdicted=inter,
        vp=p.vp,
        german_crt=p.german_crt,
        dice_drawn=p.dice,
        combat=p.combat,
        delayed=tuple(sorted(p.delayed, key=lambda d: d.unit)),
        wb_released=p.wb_released,
        result=p.result,
        roll=p.roll,
    )


def fill(board: Board, state: GameState) -> GameState:
    """``state`` completed against ``board``: every unit it does not list added as
    ``not_in_play`` (a hand-written position names only the units it is about; the others
    count for nothing), and in the German Combat Phase of Game-Turn 1 the AO-4.2h*
    obligations derived from the position when it gives none (the engine fixes them when the
    phase begins; a position that starts inside the phase would otherwise lose them)."""
    missing = sorted(set(board.defs) - {u.id for u in state.units})
    if missing:
        rows = [*state.units, *(UnitState(id=uid, status="not_in_play") for uid in missing)]
        state = msgspec.structs.replace(state, units=tuple(sorted(rows, key=lambda u: u.id)))
    gt1 = (state.turn, state.side, state.phase) == (1, "german", "combat")
    if gt1 and not state.combat.obliged:
        obliged = gt1_obliged(board, state)
        state = msgspec.structs.replace(
            state, combat=msgspec.structs.replace(state.combat, obliged=obliged)
        )
    return state


def check(board: Board, state: GameState) -> list[str]:
    """Problems of ``state`` against ``board``: unknown or missing units (:func:`fill` adds
    the missing ones), hexes off the map, and VP that the position cannot have: the Allied VP
    are the German units eliminated, the German VP the Allied units eliminated plus the exit
    VP held at the last tabulation, at most every exit's (AO-16.A, AO-16.E). The VP are kept
    as written until the next tabulation recomputes them, never silently replaced."""
    out: list[str] = []
    ids = {u.id for u in state.units}
    for uid in sorted(ids - set(board.defs)):
        out.append(f"unit {uid!r} is not in the scenario")
    for uid in sorted(set(board.defs) - ids):
        out.append(f"unit {uid!r} of the scenario is missing")
    for u in state.units:
        if u.hex is not None and u.hex not in board.game_map:
            out.append(f"unit {u.id!r} is on {u.hex}, which is not on the map")
    if out:
        return out
    lost = {"german": 0, "allied": 0}
    for u in state.units:
        if u.status == "eliminated":
            lost[board.defs[u.id].side] += 1
    exits = sum(h.exit_vp or 0 for h in board.game_map.exit_hexes())
    vp = state.vp
    if vp.allied != lost["german"]:
        out.append(
            f"vp: {vp.allied} Allied VP, but {lost['german']} German units are eliminated "
            "(AO-16.A: one VP each)"
        )
    if not lost["allied"] <= vp.german <= lost["allied"] + exits:
        out.append(
            f"vp: {vp.german} German VP, but {lost['allied']} Allied units are eliminated and "
            f"the exits are worth {exits} at most (AO-16.A, AO-16.E)"
        )
    return out
