"""The aids a wargamer keeps beside the map, as text; no Textual.

- :func:`zoc_hexes`: the hexes a side's zones of control cover (AO-7; the engine's
  :func:`rules.ao.enemy_controlled`), for the ZOC overlay (``Z``);
- :func:`turn_track`: the turn record track with the reinforcement schedule: each Game-Turn,
  its date, the VP tabulated at its end, the CRT switch, and the units due, entered, delayed
  (``T``);
- :func:`vp_lines`: the victory points and where they came from (the units eliminated, the
  road exits held, the level's handicap; ``V``)::

    turn_track(game)[:3]
    # ['Turn record: 18 Game-Turns, now GT2 17 Dec, Allied Reinforcement.',
    #  '', 'GT1 16 Dec  VP German 5, Allied 3']
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Final

import rules.ao
from ardennes_tui.present.combat_text import TABLE_NAMES, side_name
from ardennes_tui.present.game_view import PHASE_NAMES, turn_date

__all__ = ["turn_track", "vp_lines", "zoc_hexes"]


def zoc_hexes(game: rules.ao.Game, side: rules.ao.Side) -> frozenset[rules.HexId]:
    """The hexes ``side``'s units control now and the other side's units do not negate
    (AO-7.2B): where an enemy unit must stop."""
    return rules.ao.enemy_controlled(game.board, game.state, rules.ao.other_side(side))


WIDTH: Final = 70
"""The aids' lines at most (the text dialog shows 72 columns beside its scroll bar)."""


def _wrapped(line: str) -> list[str]:
    """``line`` in lines of :data:`WIDTH`, the rest indented under its start."""
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _events(game: rules.ao.Game) -> Iterable[rules.ao.Event]:
    return (e for events in game.events for e in events)


def _units(units: list[str]) -> str:
    return " ".join(units) if units else "-"


def turn_track(game: rules.ao.Game) -> list[str]:
    """The turn record track: per Game-Turn its date, the VP at its end once tabulated, the
    CRT switch, and each side's reinforcements (``entered``, ``due``, ``delayed to GT5``,
    ``eliminated``), the turn now marked ``>``."""
    state, board = game.state, game.board
    tabulated: dict[int, rules.ao.VictoryPointsTabulated] = {}
    switch: dict[int, rules.ao.CrtSwitchRolled] = {}
    for e in _events(game):
        if isinstance(e, rules.ao.VictoryPointsTabulated):
            tabulated[e.turn] = e
        elif isinstance(e, rules.ao.CrtSwitchRolled):
            switch[e.turn] = e
    delayed = {d.unit: d.turn for d in state.delayed}
    by_turn: dict[int, dict[rules.ao.Side, list[str]]] = {}
    for unit, (turn, section) in sorted(board.schedule.items()):
        us = state.unit(unit)
        when = delayed.get(unit, turn)
        if us.status == "not_arrived":
            what = f"{unit} ({section}{', delayed' if unit in delayed else ''})"
        elif us.status == "eliminated":
            what = f"{unit} ({section}, eliminated)"
        else:
            what = f"{unit} ({section}, in)"
        side = board.defs[unit].side
        by_turn.setdefault(when, {"german": [], "allied": []})[side].append(what)
    phase = PHASE_NAMES[state.phase]
    out = [
        f"Turn record: {rules.ao.LAST_TURN} Game-Turns, now GT{state.turn} {turn_date(state.turn)}"
        f", {state.side.capitalize()} {phase}. Reinforcements: (section, in / eliminated / "
        "delayed); the VP tabulated at the end of each Game-Turn.",
    ]
    for turn in range(1, rules.ao.LAST_TURN + 1):
        mark = ">" if turn == state.turn else " "
        head = f"{mark}GT{turn} {turn_date(turn)}"
        t = tabulated.get(turn)
        if t is not None:
            head += f"  VP German {t.german}, Allied {t.allied}"
        if turn in switch:
            s = switch[turn]
            head += f"  CRT die {s.die}: {TABLE_NAMES.get(s.crt, s.crt)}"
        out += ["", head]
        arrivals = by_turn.get(turn, {})
        for side in ("german", "allied"):
            units = arrivals.get(side, [])
            if units:
                out += _wrapped(f"  {side_name(side)}: {_units(units)}")
    return [line for first in out for line in (_wrapped(first) if first else [""])]


def vp_lines(game: rules.ao.Game) -> list[str]:
    """The VP and where they came from: the units each side eliminated (one VP each,
    AO-16.A), the German's road exits at the last tabulation (AO-16.B-H), the level's
    handicap; the eliminations since the last tabulation count at the end of the Game-Turn."""
    state, board = game.state, game.board
    scored: dict[rules.ao.Side, list[tuple[str, int]]] = {"german": [], "allied": []}
    last: rules.ao.VictoryPointsTabulated | None = None
    since: dict[rules.ao.Side, int] = {"german": 0, "allied": 0}
    for e in _events(game):
        if isinstance(e, rules.ao.VictoryPointsScored):
            scored[e.side].append((e.unit, e.points))
            since[e.side] += e.points
        elif isinstance(e, rules.ao.VictoryPointsTabulated):
            last = e
            since = {"german": 0, "allied": 0}
    handicap = board.level.german_vp if board.level is not None else 0
    when = f"at the end of GT{last.turn}" if last is not None else "none tabulated yet"
    out = [
        f"Victory points: German {state.vp.german}, Allied {state.vp.allied} ({when}; "
        "tabulated at the end of each Game-Turn, AO-16.E)."
    ]
    for side in ("german", "allied"):
        units = scored[side]
        total = sum(p for _, p in units)
        out += ["", f"{side_name(side)}: {total} for enemy units eliminated (AO-16.A)"]
        named = [u if p == 1 else f"{u} ({p})" for u, p in units]
        out += _wrapped(f"  {', '.join(named)}") if named else ["  none yet"]
        if side == "german":
            exits = last.exit_vp if last is not None else 0
            out.append(f"German: {exits} for the road exits held (AO-16.B-H)")
            if handicap:
                out.append(f"German: {handicap} handicap of the level of play")
        if since[side]:
            out.append(f"  ({since[side]} since the last tabulation: counted at its end)")
    return out
