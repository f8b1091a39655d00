"""What the app shows of a game: plain functions of a :class:`rules.ao.Game`, no Textual.

The engine answers "what may be done" (``game.options()``, ``game.legal_moves``, the public
functions of :mod:`rules`); these helpers only arrange its answers for the screen::

    summary(game)                  # 'GT1 16 Dec | Allied | Set-up | VP German 0, Allied 0'
    units_by_hex(game)["4009"]     # [UnitDef(id='de-12ss-a', ...)]
    why_not(game, "de-12ss-a", "0101").message   # 'AO-...: ...' (the engine's refusal)
"""

from __future__ import annotations

import re
from typing import Final

import rules.ao
from rules import hexgrid

PHASE_NAMES: Final[dict[rules.ao.Phase, str]] = {
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


def summary(game: rules.ao.Game) -> str:
    """One line in ASCII, e.g. ``GT3 17 Dec | German | Initial Movement | VP German 4, Allied
    1`` (the victory points with their sides)."""
    s = game.state
    return (
        f"GT{s.turn} {turn_date(s.turn)} | {s.side.capitalize()} | "
        f"{PHASE_NAMES[s.phase]} | VP German {s.vp.german}, Allied {s.vp.allied}"
    )


SHORT_PHASE_NAMES: Final[dict[str, str]] = {
    "Initial Movement": "Init. Move",
    "Mechanized Movement": "Mech. Move",
    "Supply Judgment": "Supply",
    "Reinforcement": "Reinf.",
}
"""The long phase names as a position line short of room says them."""

_SUMMARY: Final = re.compile(
    r"^(?P<gt>GT\d+) (?P<date>\d+ \w+) \| (?P<side>\w+) \| (?P<phase>[^|]+) \| "
    r"VP German (?P<g>\d+), Allied (?P<a>\d+)$"
)


def summary_forms(summary: str) -> list[str]:
    """The position line :func:`summary` from its longest form to its shortest, for a line
    short of room: as it is; the phase and the VP short (``Mech. Move | VP G 12, A 10``);
    then without the date. Every form keeps the Game-Turn, the side, the phase and the VP."""
    m = _SUMMARY.match(summary)
    if m is None:
        return [summary]
    phase = SHORT_PHASE_NAMES.get(m["phase"], m["phase"])
    tail = f"{m['side']} | {phase} | VP G {m['g']}, A {m['a']}"
    return [summary, f"{m['gt']} {m['date']} | {tail}", f"{m['gt']} | {tail}"]


def units_by_hex(game: rules.ao.Game) -> dict[rules.HexId, list[rules.ao.UnitDef]]:
    """Counters on the map, dormant ones included: hex -> stack sorted by unit id."""
    out: dict[rules.HexId, list[rules.ao.UnitDef]] = {}
    for u in game.state.units:
        if u.hex is not None and u.status in ("on_map", "dormant"):
            out.setdefault(u.hex, []).append(game.board.defs[u.id])
    return out


def road_mode_units(game: rules.ao.Game) -> frozenset[str]:
    """The units on the map in Road Mode (marked ``r`` on the map)."""
    return frozenset(u.id for u in game.state.units if u.hex is not None and u.road_mode)


def stack(game: rules.ao.Game, hex_id: rules.HexId) -> list[str]:
    """Ids of the units in ``hex_id`` (dormant included), sorted."""
    return sorted(
        u.id for u in game.state.units if u.hex == hex_id and u.status in ("on_map", "dormant")
    )


def own_units(game: rules.ao.Game, hex_id: rules.HexId) -> list[str]:
    """Ids of the phasing side's units in ``hex_id``."""
    side = game.state.side
    return [u for u in stack(game, hex_id) if game.board.defs[u].side == side]


def enemy_units(game: rules.ao.Game, hex_id: rules.HexId) -> list[str]:
    """Ids of the other side's units in ``hex_id``."""
    side = game.state.side
    return [u for u in stack(game, hex_id) if game.board.defs[u].side != side]


def path_to(game: rules.ao.Game, unit: str, hex_id: rules.HexId) -> tuple[str, ...]:
    """The path a move to ``hex_id`` takes: the cheapest legal one, else the straight line
    (which the engine then refuses with its reason)."""
    reach = game.legal_moves(unit).get(hex_id)
    if reach is not None:
        return reach.path
    start = game.state.unit(unit).hex
    if start is None or start == hex_id:
        return ()
    return tuple(hexgrid.line(start, hex_id)[1:])


def why_not(game: rules.ao.Game, unit: str, hex_id: rules.HexId) -> rules.Rejection:
    """Why ``unit`` cannot move to ``hex_id``: the engine's answer to a straight path."""
    bad = rules.ao.may_move(game.board, game.state, unit)
    if bad is not None:
        return bad
    r = rules.ao.apply(game.board, game.state, rules.ao.Move(unit, path_to(game, unit, hex_id)))
    if isinstance(r, rules.Rejection):
        return r
    # legal_moves offers every reachable hex, so a straight path it did not offer is refused
    return rules.Rejection("AO-5.1A", f"{unit} cannot reach {hex_id}")  # pragma: no cover


def why_not_place(game: rules.ao.Game, unit: str, hex_id: rules.HexId) -> rules.Rejection | None:
    """Why ``Place(unit, hex_id)`` would be refused now (the engine's answer), or None."""
    r = rules.ao.apply(game.board, game.state, rules.ao.Place(unit, hex_id))
    return r if isinstance(r, rules.Rejection) else None


def front_line_unit(game: rules.ao.Game, unit: str) -> bool | None:
    """True for a front-line unit, False for a rear unit of the free set-ups (AO-17.b/c);
    None on boards without the set-up rules."""
    areas = rules.ao.setup_areas(game.board)
    if areas is None or unit not in areas.setup_units:
        return None
    return unit in areas.front_units


def immune_hexes_held(game: rules.ao.Game, side: rules.ao.Side) -> list[tuple[rules.HexId, str]]:
    """The hexes of ``side``'s units immune to Ar/Dr now (:func:`rules.ao.immune_hexes`: towns,
    for the German West Wall and fortified hexes, AO-11.f/h/i), with what makes them so
    (``St. Vith``, ``West Wall``), and the hexes its standing orders waive that it no longer
    holds (``not held now``): what the standing orders dialog offers to waive."""
    state, m = game.state, game.board.game_map
    units = [
        u.id
        for u in state.units
        if u.hex is not None and u.status == "on_map" and game.board.defs[u.id].side == side
    ]
    held = rules.ao.immune_hexes(game.board, state, units)
    orders = state.combat.orders(side)
    out: list[tuple[rules.HexId, str]] = []
    for h in sorted({*held, *(orders.waive if orders is not None else ())}):
        data = m.hex(h)
        if h not in held:
            what = "not held now"
        elif data.town is not None:
            what = data.town
        else:
            what = "West Wall" if data.fortification == "westwall" else "fortified"
        out.append((h, what))
    return out


def unit_note(us: rules.ao.UnitState, ma: int, word: str = "") -> str:
    """Status words of a unit for the side panel, e.g. ``road, moved, 4/10 MP``; ``word`` comes
    first (``attacking``, ``declared``, ``front line``...)."""
    words: list[str] = [word] if word else []
    if us.attacked:
        words.append("attacked")
    if us.was_attacked:
        words.append("was attacked")
    if us.status == "dormant":
        words.append("dormant")
    if us.road_mode:
        words.append("road")
    if us.moved:
        words.append("moved")
    if us.mp_spent:
        words.append(f"{us.mp_spent}/{ma} MP")
    if us.supply != "supplied":
        words.append(us.supply)
    if us.staging:
        words.append(f"staging -{us.staging} road hexes")
    return ", ".join(words)


def verdict_text(game: rules.ao.Game) -> str:
    """The verdict modal's text: winner, kind, VP and the deciding rule."""
    state = game.state
    v = game.outcome()
    if v is None:
        return f"Game over after Game-Turn {state.turn}. {summary(game)}"
    who = {"german": "The German player wins", "allied": "The Allied player wins"}
    head = who.get(v.winner or "", "A draw")
    return (
        f"{head} ({v.kind}) after Game-Turn {state.turn}.\n"
        f"VP: German {v.german_vp}, Allied {v.allied_vp}.\n{v.reason}"
    )
