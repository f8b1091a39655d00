"""Small synthetic maps and positions for engine tests, so outcomes can be worked out by hand.

A map is a grid of one-letter terrain codes, one text line per hex row (row 01 first), codes
separated by blanks, columns from 01::

    .  clear        r  rough        x  impassable
    W  West Wall (clear)            w  West Wall (rough)
    F  fortified (clear)
    e  Allied Map Edge hex (clear, section W)
    E  German east-edge hex (clear)

Hexsides are given as lists: ``roads`` are chains ``"0101-0201-0301"`` (a road hexside between
each consecutive pair), ``rivers`` pairs ``"0201/0301"``, ``bridges`` and ``fords`` pairs that are
also rivers. Remember the geometry (``rules.hexgrid``): in odd rows (01, 03, ...) the neighbours
of ``CCRR`` are NE (C, R-1), E (C+1, R), SE (C, R+1), SW (C-1, R+1), W (C-1, R), NW (C-1, R-1);
even rows are shifted half a hex east: NE (C+1, R-1), SE (C+1, R+1), SW (C, R+1), NW (C, R-1).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules import hexgrid
from rules.ao.commands import DeclareAttack, ResolveAttacks
from rules.ao.engine import Applied
from rules.ao.events import AttackDeclared, CombatResolved
from rules.ao.gamemap import GameMap, HexData, HexsideData, MapData
from rules.ao.state import Board, GameState, Phase, UnitState
from rules.ao.units import Side, UnitDef

_CODES = {
    ".": ("clear", None, None),
    "r": ("rough", None, None),
    "x": ("impassable", None, None),
    "W": ("clear", "westwall", None),
    "w": ("rough", "westwall", None),
    "F": ("clear", "fortified", None),
    "e": ("clear", None, "W"),
    "E": ("clear", None, "east"),
}


def _pairs(items: Iterable[str], sep: str) -> list[tuple[str, str]]:
    out = []
    for item in items:
        hexes = item.split(sep)
        for a, b in itertools.pairwise(hexes):
            out.append(hexgrid.hexside(a, b))
    return out


def make_map(
    grid: str,
    *,
    roads: Iterable[str] = (),
    rivers: Iterable[str] = (),
    bridges: Iterable[str] = (),
    fords: Iterable[str] = (),
    towns: Mapping[str, str] | None = None,
) -> GameMap:
    """A :class:`GameMap` from a terrain grid and hexside lists (see the module docstring)."""
    lines = [ln.split() for ln in grid.strip().splitlines()]
    rows, cols = len(lines), len(lines[0])
    town_at = {h: name for name, h in (towns or {}).items()}
    hexes: list[HexData] = []
    for r, line in enumerate(lines, start=1):
        if len(line) != cols:
            raise ValueError(f"row {r} has {len(line)} hexes, want {cols}")
        for c, code in enumerate(line, start=1):
            terrain, fort, edge = _CODES[code]
            h = hexgrid.make(c, r)
            hexes.append(
                HexData(
                    id=h,
                    terrain=terrain,  # type: ignore[arg-type]
                    town=town_at.get(h),
                    fortification=fort,  # type: ignore[arg-type]
                    edge=edge,  # type: ignore[arg-type]
                    exit_vp=None,
                    lat=0.0,
                    lon=0.0,
                )
            )
    sides: dict[tuple[str, str], dict[str, object]] = {}

    def feat(key: tuple[str, str]) -> dict[str, object]:
        return sides.setdefault(
            key, {"river": None, "crossing": None, "road": False, "start_line": False}
        )

    for key in _pairs(roads, "-"):
        feat(key)["road"] = True
    for key in _pairs(rivers, "/"):
        feat(key)["river"] = "river"
    for key in _pairs(bridges, "/"):
        feat(key).update(river="river", crossing="bridge")
    for key in _pairs(fords, "/"):
        feat(key).update(river="river", crossing="ford")
    data = MapData(
        map="test",
        hex_km=3.15,
        columns=cols,
        rows=rows,
        hexes=hexes,
        hexsides=[
            HexsideData(hexes=k, **v)  # type: ignore[arg-type]
            for k, v in sorted(sides.items())
        ],
    )
    return GameMap(data)


def road_walk(draw: Callable[..., Any], hexes: Sequence[str], longest: int) -> str:
    """A random road for a hypothesis strategy (``draw`` is its ``st.DrawFn``): a walk of 2 to
    ``longest`` steps between neighbours among ``hexes``, as a chain ``"0101-0201-..."``."""
    from hypothesis import strategies as st

    h = draw(st.sampled_from(hexes))
    walk = [h]
    for _ in range(draw(st.integers(2, longest))):
        nbrs = [n for n in hexgrid.neighbours(h) if n is not None and n in hexes]
        h = draw(st.sampled_from(nbrs))
        walk.append(h)
    return "-".join(walk)


def unit(
    uid: str,
    side: Side = "german",
    *,
    mech: bool = False,
    ma: int = 8,
    strength: int = 4,
    size: str = "III",
) -> UnitDef:
    """A counter; ``size="XX"`` on a German unit makes an infantry division (AO-8.2C)."""
    return UnitDef(
        id=uid,
        side=side,
        designation=uid,
        nationality="German" if side == "german" else "US",
        type="armor" if mech else "infantry",
        size=size,  # type: ignore[arg-type]
        mechanized=mech,
        strength=strength,
        movement=ma,
    )


def board(game_map: GameMap, units: Iterable[UnitDef]) -> Board:
    return Board(game_map, units)


def position(
    units: Mapping[str, str | UnitState],
    *,
    turn: int = 2,
    side: Side = "german",
    phase: Phase = "initial_movement",
    interdicted_german: Iterable[str] = (),
    interdicted_allied: Iterable[str] = (),
) -> GameState:
    """A state with ``units`` (id -> hex, or a full :class:`UnitState`)."""
    from rules.ao.state import Interdiction

    rows = []
    for uid in sorted(units):
        v = units[uid]
        rows.append(UnitState(id=uid, hex=v) if isinstance(v, str) else v)
    return GameState(
        scenario=0,
        turn=turn,
        side=side,
        phase=phase,
        units=tuple(rows),
        interdicted=Interdiction(
            german=tuple(sorted(_pairs(interdicted_german, "/"))),
            allied=tuple(sorted(_pairs(interdicted_allied, "/"))),
        ),
    )


def rm(uid: str, hex_id: str, **kw: object) -> UnitState:
    """A unit in Road Mode."""
    return UnitState(id=uid, hex=hex_id, road_mode=True, **kw)  # type: ignore[arg-type]


def cpos(units: Mapping[str, str | UnitState], **kw: object) -> GameState:
    """:func:`position` in the Combat Phase (unless ``phase`` is given)."""
    kw.setdefault("phase", "combat")
    return position(units, **kw)  # type: ignore[arg-type]


def with_phase(s: GameState, phase: Phase, **kw: object) -> GameState:
    """``s`` in ``phase`` (and any other fields given)."""
    import msgspec

    return msgspec.structs.replace(s, phase=phase, **kw)


def line_map(codes: str, **kw: Iterable[str]) -> GameMap:
    """A one-row map ``0101 0201 0301 ...`` (each hex's only neighbours are W and E)."""
    return make_map(codes, **kw)  # type: ignore[arg-type]


LINE8 = line_map(". . . . . . . .")
"""The eight-hex line ``0101``-``0801``, clear, no hexside features."""


def road(n: int, codes: str | None = None, **kw: Iterable[str]) -> GameMap:
    """A one-row map of ``n`` hexes (``codes``, clear by default) with a road through all of
    them; ``kw`` as :func:`make_map` (rivers, bridges, fords)."""
    hexes = [f"{c:02d}01" for c in range(1, n + 1)]
    return line_map(codes or " ".join(["."] * n), roads=["-".join(hexes)], **kw)


def remap(
    gmap: GameMap,
    edges: Mapping[str, str],
    *,
    meuse: tuple[tuple[str, str], ...] = (),
    exit_vp: Mapping[str, int] | None = None,
) -> GameMap:
    """``gmap`` with edge sections, exit VP and river names changed (``make_map`` has no
    sections)."""
    import msgspec

    vp = exit_vp or {}
    hexes = [
        msgspec.structs.replace(h, edge=edges.get(h.id, h.edge), exit_vp=vp.get(h.id, h.exit_vp))
        for h in gmap.data.hexes
    ]
    sides = [
        msgspec.structs.replace(s, river="Meuse") if s.hexes in meuse else s
        for s in gmap.data.hexsides
    ]
    return GameMap(msgspec.structs.replace(gmap.data, hexes=hexes, hexsides=sides))


def meuse(m: GameMap, *pairs: str) -> GameMap:
    """``m`` with the river hexsides ``"A/B"`` named Meuse."""
    keys = tuple(hexgrid.hexside(*p.split("/")) for p in pairs)
    return remap(m, {}, meuse=keys)


def outcome(b: Board, s: GameState, uid: str, path: Iterable[str] | str) -> int | str:
    """The MP cost of moving ``uid`` along ``path`` (blank-separated string or list), or the
    case id of the rejection."""
    from rules.ao.movement import trace_path
    from rules.rejection import Rejection

    steps = path.split() if isinstance(path, str) else list(path)
    r = trace_path(b, s, uid, steps)
    return r.case if isinstance(r, Rejection) else r.cost


def costs(b: Board, s: GameState, uid: str, road_mode: bool | None = None) -> dict[str, int]:
    """Hex -> cheapest cost of :func:`rules.ao.movement.legal_moves`."""
    from rules.ao.movement import legal_moves

    return {h: r.cost for h, r in legal_moves(b, s, uid, road_mode).items()}


def moved(b: Board, s: GameState, uid: str, path: str) -> GameState:
    """The state after the accepted move of ``uid`` along ``path`` (fails the test otherwise)."""
    from rules.ao.commands import Move
    from rules.ao.engine import Applied, apply

    r = apply(b, s, Move(unit=uid, path=tuple(path.split())))
    if not isinstance(r, Applied):
        raise AssertionError(f"move refused: {r}")
    return r.state


def ended(b: Board, s: GameState, times: int = 1) -> GameState:
    """The state after ``times`` accepted EndPhase commands."""
    from rules.ao.commands import EndPhase
    from rules.ao.engine import Applied, apply

    for _ in range(times):
        r = apply(b, s, EndPhase())
        if not isinstance(r, Applied):
            raise AssertionError(f"EndPhase refused: {r}")
        s = r.state
    return s


def without_gt1_obligations(s: GameState) -> GameState:
    """``s`` with the Game-Turn 1 German attack obligations (AO-4.2h*) lifted: for tests of
    other matters that need to get past the GT1 German Combat Phase without fighting it."""
    import msgspec

    return msgspec.structs.replace(s, combat=msgspec.structs.replace(s.combat, obliged=()))


def oob_profiles() -> list[UnitDef]:
    """One real counter per distinct (side, mechanized, MA, size) of the order of battle."""
    from scenarios import load_oob

    seen: dict[tuple[str, bool, int, str], UnitDef] = {}
    for d in sorted(load_oob().values(), key=lambda d: d.id):
        seen.setdefault((d.side, d.mechanized, d.movement, d.size), d)
    return list(seen.values())


def scenario_start(number: int) -> tuple[Board, GameState]:
    """Scenario ``number``: its board (``scenarios.load_board``) and the state before the
    Allied set-up (``rules.ao.engine.new_game``)."""
    from rules.ao.engine import new_game
    from scenarios import load_board

    b = load_board(number)
    return b, new_game(b)


def place_due(b: Board, s: GameState) -> GameState:
    """``s`` with every reinforcement due now placed on its first open entry hex (AO-4.1b:
    "the Phasing Player places all new units"); ``s`` itself outside a Reinforcement Phase."""
    from rules.ao.commands import Place
    from rules.ao.engine import Applied, apply, pending_reinforcements

    if s.phase != "reinforcement":
        return s
    for uid, hexes in pending_reinforcements(b, s):
        r = apply(b, s, Place(unit=uid, hex=hexes[0]))
        if not isinstance(r, Applied):
            raise AssertionError(f"placement refused: {r}")
        s = r.state
    return s


def scenario_gt1_german_combat(scenario: int = 1) -> tuple[Board, GameState]:
    """Scenario ``scenario`` at the GT1 German Combat Phase (its GT1 reinforcements placed on
    their first entry hex) with the AO-4.2h* obligations lifted (see
    :func:`without_gt1_obligations`)."""
    b, s = scenario_start(scenario)
    while not (s.side == "german" and s.phase == "combat"):
        s = ended(b, place_due(b, s))
    return b, without_gt1_obligations(s)


# -- combat helpers and the legality check shared by the combat and self-play tests ------------


def ok(b: Board, s: GameState, cmd: object, dice: Sequence[int] = ()) -> Applied:
    """Apply ``cmd`` (scripted ``dice`` from the state's dice index) and insist it is accepted."""
    from rules.ao.engine import apply
    from rules.dice import ScriptedDice

    r = apply(b, s, cmd, ScriptedDice(list(dice), start=s.dice_drawn) if dice else None)  # type: ignore[arg-type]
    assert isinstance(r, Applied), r
    return r


def refused(b: Board, s: GameState, cmd: object) -> str:
    """Apply ``cmd`` and insist it is refused; return the rule case named."""
    from rules.ao.engine import apply
    from rules.dice import ScriptedDice
    from rules.rejection import Rejection

    r = apply(b, s, cmd, ScriptedDice([1] * 5, start=s.dice_drawn))  # type: ignore[arg-type]
    assert isinstance(r, Rejection), r
    return r.case


def attack(
    attackers: Sequence[str],
    defenders: Sequence[str],
    odds: str | None = None,
    waive: Sequence[str] = (),
) -> DeclareAttack:
    return DeclareAttack(
        attackers=tuple(attackers), defenders=tuple(defenders), odds=odds, waive=tuple(waive)
    )


def fight(
    b: Board,
    s: GameState,
    attackers: Sequence[str],
    defenders: Sequence[str],
    dice: Sequence[int],
    odds: str | None = None,
) -> Applied:
    """Declare one attack and resolve it with scripted ``dice``."""
    s = ok(b, s, attack(attackers, defenders, odds)).state
    return ok(b, s, ResolveAttacks(), dice)


def illegal_state(b: Board, s: GameState) -> list[str]:
    """What makes a state illegal: over the stacking limit (AO-8.0), a German unit on an Allied
    Map Edge hex (AO-5.3L), both sides in one hex (AO-5.2F), Road Mode units stacked with a
    friend (AO-6.5G). Reinforcements staging on an entry hex (AO-14.2B) and units on Allied Map
    Edge hexes (AO-8.3F) are exempt. A Road Mode unit next to a friend on the road is not
    flagged: a retreat may leave one (AO-6.7N, AO-10.2b), and it stands until the owner's next
    Initial Movement Phase, longer when no move can break it (``rules.ao.column``, whose tests
    pin when it must be cleared)."""
    from rules.ao.stacking import over_limit

    m = b.game_map
    staged = {u.hex for u in s.units if u.staging is not None}
    out = [f"over the limit in {h}" for h in over_limit(b, s) if h not in staged]
    sides: dict[str, set[str]] = {}
    for u in s.units:
        if u.hex is None or u.status not in ("on_map", "dormant"):
            continue
        side = b.defs[u.id].side
        sides.setdefault(u.hex, set()).add(side)
        if side == "german" and m.is_allied_edge(u.hex):
            out.append(f"German {u.id} on the edge hex {u.hex}")
        if (
            u.road_mode
            and u.status == "on_map"
            and not m.is_allied_edge(u.hex)
            and u.staging is None
        ):
            friends = [
                o
                for o in s.units
                if o.id != u.id
                and o.status == "on_map"
                and b.defs[o.id].side == side
                and o.staging is None
                and not (o.hex is not None and m.is_allied_edge(o.hex))
            ]
            if any(o.hex == u.hex for o in friends):
                out.append(f"Road Mode {u.id} stacked in {u.hex}")
    out += [f"both sides in {h}" for h, v in sides.items() if len(v) > 1]
    return out


def retreats(r: Applied) -> list[tuple[str, tuple[str, ...]]]:
    """``(unit, path)`` of every retreat in ``r``."""
    from rules.ao.events import UnitRetreated

    return [(e.unit, e.path) for e in r.events if isinstance(e, UnitRetreated)]


def declared(r: Applied) -> AttackDeclared:
    """The ``attack_declared`` event of a declaration."""
    ev = r.events[-1]
    assert isinstance(ev, AttackDeclared)
    return ev


def resolved(r: Applied) -> CombatResolved:
    """The one ``combat_resolved`` event of a resolution."""
    evs = [e for e in r.events if isinstance(e, CombatResolved)]
    assert len(evs) == 1, r.events
    return evs[0]


# -- whole games through the library (the app's, the CLI's and pbem's tests) -------------------


def end_phase(g: Any) -> None:
    """End ``g``'s phase (a :class:`rules.ao.Game`) after what the rules oblige first: every
    reinforcement due placed (AO-4.1b, AO-4.2b), each on the first of its open entry hexes not
    yet used in this phase (the first one when all are), and the moves owed (AO-6.7N,
    AO-14.2B), each the first the engine offers."""
    import rules
    from rules.ao.commands import EndPhase, Place

    used: set[str] = set()
    for _ in range(500):
        due = g.options().reinforcements if g.state.phase == "reinforcement" else ()
        if due:
            d = due[0]
            h = next((h for h in d.hexes if h not in used), d.hexes[0])
            used.add(h)
            r = g.push(Place(unit=d.unit, hex=h))
        elif owed := rules.ao.owed_moves(g.board, g.state):
            r = g.push(owed[0].command)
        else:
            r = g.push(EndPhase())
            if isinstance(r, rules.Rejection):
                raise AssertionError(f"end of phase refused: {r}")
            return
        if isinstance(r, rules.Rejection):
            raise AssertionError(f"refused: {r}")
    raise AssertionError("the phase never ended")
