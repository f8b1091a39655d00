"""Victory (AO-16): unit VP, road exit VP, tabulation and the verdict.

**Unit VP** (AO-16.A): every eliminated unit is 1 VP to the other side, whatever its size or
how it died (combat, a forced Road Mode exit it could not pay, a retreat off the map, a failed
paradrop). Dormant Allied units on Map Edge hexes are not lost (AO-5.3M); units not arrived
are not lost.

**Exit VP** (AO-16.B-H). A road exit hex (``exit_vp`` on the map) is *held* by the German when
a German unit in supply is in it (in any mode: AO-16.H) or has it in its Zone of Control (not in
Road Mode: a Road Mode unit controls only its own hex, AO-6.6J), and no Allied unit is in it (an
Allied unit there - dormant ones too - negates German ZOC, AO-16.C). Allied ZOC in the hex does
not matter (contested: German, AO-16.C). SE and SW exits count only while a German unit in
supply is in Bastogne (AO-16.D). Exit VP are not kept: they count at a tabulation only if held
then (AO-16.F).

**Supply at tabulation** (AO-16.G). Tabulation is at the end of a complete Game-Turn, after the
Allied player-turn, when no German supply marker is on the map (AO-4.1b phase 6). We trace the
German supply then, on the current position, as a defender's is traced at the moment of combat
(AO-12.0): :func:`rules.ao.supply.supply_judgment` with the bridges the Allies interdict now. On
Game-Turn 1 every German unit is supplied (AO-4.2b).

**Running total** (AO-16.E): ``german = Allied units eliminated + exit VP held now``,
``allied = German units eliminated``, recomputed from the position at each tabulation; the
engine stores it in ``GameState.vp``. In a game against the computer the level's handicap
(``Board.level.german_vp``, :mod:`rules.ao.levels`; 0 at level 3) is added to the German total,
so it counts wherever his VP count: the verdict and the West-bank release (AO-14.3C).

**Verdict** (AO-16.1-3), integer arithmetic only: 35+ German VP at the end of Game-Turns 1-6:
immediate German victory; at the end of Game-Turn 18, under 35 German VP: Allied victory
whatever the ratio; else the ratio G/A: ``2G >= 3A`` German victory, ``G < A`` Allied victory,
otherwise a draw. With 0 Allied VP the ratio is infinite (a German victory, G >= 35 > 0).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

import msgspec

from rules.ao.interdiction import interdiction_at_combat
from rules.ao.state import (
    LAST_TURN,
    Board,
    GameState,
    Supply,
    Verdict,
    VerdictKind,
    VictoryPoints,
    Winner,
)
from rules.ao.supply import supply_judgment
from rules.ao.zoc import occupied_by, zone_of
from rules.hexgrid import HexId

VICTORY_VP: Final = 35
"""German VP needed: by the end of GT6 for an immediate win (AO-16.2), at the end not to lose
outright (AO-16.3, AO-16 general rule)."""
IMMEDIATE_BY: Final = 6
BASTOGNE: Final = "Bastogne"
BASTOGNE_SECTIONS: Final = frozenset({"SE", "SW"})

Kind = VerdictKind


class ExitHeld(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One exit hex held by the German at a tabulation and the VP it gives (0 for an SE or SW
    exit while Bastogne is not held, AO-16.D)."""

    hex: HexId
    vp: int


class Tally(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The parts of a tabulation (for the UI and the log)."""

    allied_units_lost: int
    german_units_lost: int
    exits: tuple[ExitHeld, ...]
    bastogne: bool
    """A German unit in supply is in Bastogne (AO-16.D)."""
    vp: VictoryPoints


def units_lost(board: Board, state: GameState) -> dict[str, int]:
    """Eliminated units per side (AO-16.A); dormant units are not lost (AO-5.3M)."""
    out = {"german": 0, "allied": 0}
    for u in state.units:
        if u.status == "eliminated":
            out[board.defs[u.id].side] += 1
    return out


def german_supply_now(board: Board, state: GameState) -> Mapping[str, Supply]:
    """The German supply traced on the current position (AO-16.G, see the module docstring)."""
    return supply_judgment(
        board, state, "german", interdicted=interdiction_at_combat(board, state, "german")
    )


def _supplied(board: Board, state: GameState) -> frozenset[str]:
    return frozenset(u for u, s in german_supply_now(board, state).items() if s == "supplied")


def held_exits(
    board: Board, state: GameState, supplied: Collection[str] | None = None
) -> tuple[HexId, ...]:
    """Exit hexes the German holds with a unit in supply (AO-16.C, F, G, H), sorted.

    ``supplied``: the German units in supply (default: traced now, :func:`german_supply_now`)."""
    if supplied is None:
        supplied = frozenset(
            u for u, s in german_supply_now(board, state).items() if s == "supplied"
        )
    m = board.game_map
    allied_in = occupied_by(board, state, "allied")
    mine: set[HexId] = set()
    for u in state.units:
        if u.id not in supplied or not u.in_play or board.defs[u.id].side != "german":
            continue
        if u.hex is not None:
            mine.add(u.hex)  # presence, Road Mode included (AO-16.H)
        mine.update(zone_of(board, u))  # ZOC; only its own hex in Road Mode (AO-6.6J)
    return tuple(h.id for h in m.exit_hexes() if h.id in mine and h.id not in allied_in)


def bastogne_held(board: Board, state: GameState, supplied: Collection[str]) -> bool:
    """A German unit in supply is in Bastogne (AO-16.D); False on a map without Bastogne."""
    towns = board.game_map.towns()
    h = towns.get(BASTOGNE)
    if h is None:
        return False
    return any(u.id in supplied and board.defs[u.id].side == "german" for u in state.at(h))


def tally(board: Board, state: GameState) -> Tally:
    """The tabulation of the current position (AO-16.A-H)."""
    supplied = _supplied(board, state)
    lost = units_lost(board, state)
    bast = bastogne_held(board, state, supplied)
    m = board.game_map
    exits: list[ExitHeld] = []
    for h in held_exits(board, state, supplied):
        d = m.hex(h)
        vp = d.exit_vp or 0
        if d.edge in BASTOGNE_SECTIONS and not bast:
            vp = 0
        exits.append(ExitHeld(hex=h, vp=vp))
    handicap = board.level.german_vp if board.level is not None else 0
    german = lost["allied"] + sum(e.vp for e in exits) + handicap
    return Tally(
        allied_units_lost=lost["allied"],
        german_units_lost=lost["german"],
        exits=tuple(exits),
        bastogne=bast,
        vp=VictoryPoints(german=german, allied=lost["german"]),
    )


def german_exit_vp(board: Board, state: GameState) -> int:
    """Exit VP the German holds now (AO-16.B-H)."""
    return sum(e.vp for e in tally(board, state).exits)


def tabulate(board: Board, state: GameState) -> VictoryPoints:
    """The VP at the end of a complete Game-Turn (AO-16.E): store it in ``GameState.vp``."""
    return tally(board, state).vp


def verdict_for(turn: int, vp: VictoryPoints) -> Verdict | None:
    """The verdict at the end of Game-Turn ``turn`` with ``vp`` tabulated, or None (play on)."""
    g, a = vp.german, vp.allied

    def ends(winner: Winner | None, kind: VerdictKind, reason: str) -> Verdict:
        return Verdict(winner=winner, kind=kind, german_vp=g, allied_vp=a, reason=reason)

    if turn <= IMMEDIATE_BY and g >= VICTORY_VP:
        return ends(
            "german",
            "immediate",
            f"{g} German VP by the end of Game-Turn {turn} (35 by Game-Turn 6, AO-16.2)",
        )
    if turn < LAST_TURN:
        return None
    if g < VICTORY_VP:
        return ends(
            "allied",
            "cumulative",
            f"only {g} German VP at the end of Game-Turn 18: under 35 (AO-16.3)",
        )
    ratio = f"{g}:{a}"
    if a == 0 or 2 * g >= 3 * a:
        return ends("german", "ratio", f"VP ratio {ratio} is 1.5 or more (AO-16.1)")
    if g < a:
        return ends("allied", "ratio", f"VP ratio {ratio} is under 1.0 (AO-16.1)")
    return ends(None, "ratio", f"VP ratio {ratio} is from 1.0 to under 1.5: a draw (AO-16.1)")


def verdict(board: Board, state: GameState) -> Verdict | None:
    """The verdict at the end of Game-Turn ``state.turn``, tabulating the position now."""
    return verdict_for(state.turn, tabulate(board, state))


def game_result(state: GameState) -> Verdict | None:
    """The verdict recorded when the game ended (``GameState.result``), else None."""
    return state.result


__all__ = [
    "BASTOGNE",
    "IMMEDIATE_BY",
    "VICTORY_VP",
    "ExitHeld",
    "Kind",
    "Tally",
    "Verdict",
    "Winner",
    "bastogne_held",
    "game_result",
    "german_exit_vp",
    "german_supply_now",
    "held_exits",
    "tabulate",
    "tally",
    "units_lost",
    "verdict",
    "verdict_for",
]
