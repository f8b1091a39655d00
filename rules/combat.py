"""Combat (AO-9, AO-10, the combat half of AO-11, AO-6.6K-AO-6.7N, AO-4.2d/e/h*, AO-10.3a).

The Combat Phase is a sequence of **batches**. The phasing player declares attacks
(:func:`declare`, every legality check happens here and names its case); :func:`resolve`
then resolves the batch in declared order. Resolving one attack goes through these steps,
kept in ``GameState.combat.current`` (:class:`rules.state.Resolution`):

1. ``waive`` - before the die, the defender may waive the Ar/Dr immunity of his units in
   town hexes (AO-11.f) and of German units in West Wall / fortified hexes (AO-11.h, AO-11.i),
   AO-11.f*. The attacker waives his own in the declaration.
2. ``roll`` - the defenders' supply is judged now (AO-12.0, AO-13.c*), strengths and odds by
   :mod:`rules.odds` (GT1 factors included, AO-4.2d/e), the CRT by :func:`rules.crt.crt_for`,
   one die. Units are flagged (``attacked``, ``was_attacked``, ``in_combat``; Road Mode units
   ``must_leave_road_mode``, AO-6.7L*).
3. ``losses`` - Ex: the defenders are eliminated, the attacker chooses his losses (AO-10.1b).
4. ``retreat`` - Ar/Dr: each retreating unit in turn, on a path the victor chooses among the
   best-ranked legal ones (:func:`retreat_choices`, AO-10.2a/b); no path: eliminated.
5. ``advance`` - each cleared hex may be entered by one mechanized unit of the victor that took
   part (AO-9.6N).

A step that needs a player's choice stops the loop with ``combat.pending`` (a
:class:`rules.state.Decision`) unless there is a single legal choice or the deciding side
has standing orders (:class:`rules.state.Orders`). Decisions are answered with
:func:`decide`. Every die comes from a :class:`Roller` (a :class:`rules.dice.DiceSource` and
the state's dice position) and is reported as a ``die_rolled`` event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from rules import hexgrid, reinforcements
from rules.crt import ODDS_COLUMNS, crt_for, resolve
from rules.dice import DiceSource, draw
from rules.events import (
    AdvanceDeclined,
    AttackCancelled,
    AttackDeclared,
    CombatResolved,
    DecisionPending,
    Event,
    ImmunityWaived,
    ResultIgnored,
    RoadColumnContact,
    UnitAdvanced,
    UnitEliminated,
    UnitRetreated,
    VictoryPointsScored,
)
from rules.hexgrid import HexId, HexIdError
from rules.interdiction import interdiction_at_combat
from rules.odds import (
    attack_strength_in,
    check_ex_losses,
    column_rank,
    defence_strength_in,
    ex_loss_options,
    face_total,
    odds_column,
    reduce_odds,
)
from rules.rejection import Rejection
from rules.roadmode import road_links, road_mode_passable
from rules.stacking import check_stack
from rules.state import (
    Attack,
    Board,
    CombatState,
    Crt,
    Decision,
    GameState,
    Orders,
    Resolution,
    Supply,
    UnitState,
    VictoryPoints,
    other_side,
)
from rules.supply import path_to_net, supply_judgment, supply_net
from rules.units import Side
from rules.zoc import enemy_controlled

PENDING: Final = "decision-pending"
"""Pseudo case id: the command does not fit the state of the combat protocol."""
DICE_NEEDED: Final = "dice-needed"
"""Pseudo case id: the command needs a die and ``apply`` was given no dice source."""


class DiceNeeded(Exception):
    """Raised inside a command that must roll when no dice source was given."""

    def __init__(self, purpose: str) -> None:
        super().__init__(purpose)
        self.purpose = purpose


class Roller:
    """Draws dice for one command: ``source.d6(index)``, index from ``GameState.dice``."""

    __slots__ = ("events", "index", "source")

    def __init__(self, source: DiceSource | None, index: int, events: list[Event]) -> None:
        self.source = source
        self.index = index
        self.events = events

    def roll(self, purpose: str) -> int:
        if self.source is None:
            raise DiceNeeded(purpose)
        rec, self.index = draw(self.source, self.index, purpose)
        self.events.append(rec)
        return rec.value


# -- small helpers --------------------------------------------------------------------------------


def _side(board: Board, uid: str) -> Side:
    return board.defs[uid].side


def _set_combat(state: GameState, **changes: object) -> GameState:
    return msgspec.structs.replace(state, combat=msgspec.structs.replace(state.combat, **changes))


def _set_current(state: GameState, **changes: object) -> GameState:
    cur = state.combat.current
    assert cur is not None
    return _set_combat(state, current=msgspec.structs.replace(cur, **changes))


def _in_play(state: GameState, uid: str) -> bool:
    u = state.find(uid)
    return u is not None and u.in_play


def eliminate(
    board: Board, state: GameState, uid: str, case: str, events: list[Event], *, vp: bool = True
) -> GameState:
    """Eliminate ``uid``; the enemy scores one Victory Point (AO-16.A)."""
    u = state.unit(uid)
    events.append(UnitEliminated(unit=uid, hex=u.hex, case=case))
    new = msgspec.structs.replace(
        u, status="eliminated", hex=None, road_mode=False, must_leave_road_mode=False
    )
    state = state.replace_units([new])
    if vp:
        winner = other_side(_side(board, uid))
        v = state.vp
        v = (
            VictoryPoints(german=v.german + 1, allied=v.allied)
            if winner == "german"
            else VictoryPoints(german=v.german, allied=v.allied + 1)
        )
        state = msgspec.structs.replace(state, vp=v)
        events.append(VictoryPointsScored(side=winner, points=1, unit=uid))
    return state


def immunity_case(board: Board, state: GameState, uid: str) -> str | None:
    """Why Ar/Dr would not affect ``uid`` where it stands: town (AO-11.f) for any unit, West
    Wall (AO-11.h) or fortified terrain (AO-11.i) for a German unit; None if it would."""
    u = state.unit(uid)
    if u.hex is None:
        return None
    h = board.game_map.hex(u.hex)
    if h.town is not None:
        return "AO-11.f"
    if _side(board, uid) == "german":
        if h.fortification == "westwall":
            return "AO-11.h"
        if h.fortification == "fortified":
            return "AO-11.i"
    return None


def immune_hexes(board: Board, state: GameState, units: Iterable[str]) -> tuple[HexId, ...]:
    """The hexes of ``units`` (those in play) immune to Ar/Dr results (AO-11.f, AO-11.h,
    AO-11.i), sorted: what a defender may waive before the roll, or an attacker in his
    declaration (AO-11.f*)."""
    out = {
        state.unit(uid).hex
        for uid in units
        if _in_play(state, uid) and immunity_case(board, state, uid) is not None
    }
    return tuple(sorted(h for h in out if h is not None))


def defender_supply(board: Board, state: GameState, side: Side) -> dict[str, Supply]:
    """Every ``side`` unit's supply at the moment of combat (AO-12.0, AO-12.4K), with the
    bridges the attacker interdicts now (AO-13.c*); GT1 Germans supplied (AO-4.2b)."""
    return supply_judgment(
        board, state, side, interdicted=interdiction_at_combat(board, state, side)
    )


# -- preview and declaration ----------------------------------------------------------------------


class Preview(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The odds of an attack as they stand now (what the UI shows before rolling)."""

    attack: int
    defence: int
    column: str
    table: Crt


def _defending_units(state: GameState, hexes: Iterable[HexId]) -> list[str]:
    return [u.id for h in sorted(set(hexes)) for u in state.at(h)]


def preview_attack(
    board: Board, state: GameState, attackers: Sequence[str], defenders: Sequence[HexId]
) -> Preview | Rejection:
    """Attack and defence strength, real odds column and CRT of attacking the units in
    ``defenders`` with ``attackers`` now (defender supply judged now, AO-12.4K; units retreated
    into a defending stack this phase add nothing, AO-9.2F*). Legality: :func:`check_attack`."""
    units = _defending_units(state, defenders)
    if not units:
        return Rejection("AO-9.1A", f"no enemy unit in {', '.join(sorted(defenders))}")
    dside = _side(board, units[0])
    supply = defender_supply(board, state, dside)
    supply = {uid: supply.get(uid, "supplied") for uid in units}
    att = attack_strength_in(board, state, attackers)
    dfn = defence_strength_in(
        board, state, defenders, supply=supply, retreated=state.combat.retreated
    )
    col = odds_column(att, dfn)
    if isinstance(col, Rejection):
        return col
    return Preview(attack=att, defence=dfn, column=col, table=crt_for(state))


def _reserved(state: GameState) -> tuple[set[str], set[HexId]]:
    units: set[str] = set()
    hexes: set[HexId] = set()
    for a in state.combat.declared:
        units.update(a.attackers)
        hexes.update(a.defenders)
    return units, hexes


def check_attack(board: Board, state: GameState, attack: Attack) -> Preview | Rejection:
    """Whether ``attack`` may be declared now; its preview if so. Each refusal names its case."""
    if state.phase != "combat":
        return Rejection(
            "AO-4.1b", f"attacks are declared in the Combat Phase (now: {state.phase})"
        )
    c = state.combat
    if c.pending is not None or c.current is not None:
        return Rejection(PENDING, "an attack is being resolved: answer its decision first")
    if not attack.attackers:
        return Rejection("AO-9.1A", "an attack needs at least one attacking unit")
    if not attack.defenders:
        return Rejection("AO-9.1A", "an attack needs at least one defending hex")
    if len(set(attack.attackers)) != len(attack.attackers):
        return Rejection("AO-9.1C", "an attacking unit is named twice")
    if len(set(attack.defenders)) != len(attack.defenders):
        return Rejection("AO-9.1C", "a defending hex is named twice")
    m = board.game_map
    busy_units, busy_hexes = _reserved(state)
    for uid in attack.attackers:
        d = board.defs.get(uid)
        u = state.find(uid)
        if d is None or u is None:
            return Rejection("AO-9.1A", f"there is no unit {uid!r} in this game")
        if d.side != state.side:
            return Rejection(
                "AO-9.1A", f"{uid} is {d.side}: only the phasing player attacks ({state.side})"
            )
        if u.status == "dormant":
            return Rejection("AO-5.3M", f"{uid} is dormant on {u.hex} and may not attack")
        if not u.in_play or u.hex is None:
            return Rejection("AO-9.1A", f"{uid} is not on the map ({u.status})")
        if m.is_allied_edge(u.hex):
            return Rejection("AO-11.k", f"{uid} is on the Allied Map Edge hex {u.hex}: no combat")
        if u.attacked or uid in busy_units:
            return Rejection("AO-9.1C", f"{uid} has already attacked in this Combat Phase")
        if u.supply == "isolated":
            return Rejection(
                "AO-12.6", f"{uid} is isolated: its attack strength is zero, it may not attack"
            )
    for h in attack.defenders:
        try:
            hexgrid.parse(h)
        except HexIdError as exc:
            return Rejection("AO-9.1A", str(exc))
        if h not in m:
            return Rejection("AO-9.1A", f"{h} is not on the map")
        if m.is_allied_edge(h):
            return Rejection("AO-11.k", f"{h} is an Allied Map Edge hex: no combat there")
        enemies = [u for u in state.at(h) if _side(board, u.id) != state.side]
        if not enemies:
            return Rejection("AO-9.1A", f"there is no enemy unit in play in {h}")
        if h in busy_hexes:
            return Rejection("AO-9.1C", f"{h} is already attacked in this batch")
        # A unit retreated into a stack suffers that stack's results (AO-9.2F*), so it may be
        # attacked again with it; alone, or with units attacked already, it may not (AO-9.1C).
        fresh = any(not u.was_attacked for u in enemies)
        for u in enemies:
            if u.was_attacked and not (u.id in c.retreated and fresh):
                return Rejection(
                    "AO-9.1C", f"{u.id} in {h} has already been attacked in this Combat Phase"
                )
    multi = len(attack.defenders) > 1
    for uid in attack.attackers:
        here = state.unit(uid).hex
        assert here is not None
        for h in attack.defenders:
            if not hexgrid.adjacent(here, h):
                case = "AO-9.2D" if multi else "AO-9.1A"
                what = "every defending hex" if multi else "the defending hex"
                return Rejection(case, f"{uid} in {here} is not adjacent to {h} ({what})")
    own = set(immune_hexes(board, state, attack.attackers))
    for h in attack.waive:
        if h not in own:
            return Rejection("AO-11.f*", f"no attacking unit has an immunity to waive in {h}")
    p = preview_attack(board, state, attack.attackers, attack.defenders)
    if isinstance(p, Rejection):
        return p
    gt1 = gt1_declaration_check(board, state, attack)
    if gt1 is not None:
        return gt1
    if attack.odds is not None:
        if attack.odds not in ODDS_COLUMNS:
            return Rejection("AO-9.4L", f"unknown odds column {attack.odds!r}")
        r = reduce_odds(p.column, attack.odds, state.side)
        if isinstance(r, Rejection):
            return r
    return p


def attackable_hexes(board: Board, state: GameState, attackers: Sequence[str]) -> tuple[HexId, ...]:
    """The hexes ``attackers`` may attack together now, one hex per attack (for the UI: the
    targets to light up); multi-hex attacks are any subset whose union
    :func:`check_attack` accepts."""
    first = state.find(attackers[0]) if attackers else None
    if first is None or first.hex is None:
        return ()
    out = []
    for n in sorted(board.game_map.neighbours(first.hex)):
        p = check_attack(board, state, Attack(attackers=tuple(attackers), defenders=(n,)))
        if not isinstance(p, Rejection):
            out.append(n)
    return tuple(out)


def declare(board: Board, state: GameState, attack: Attack) -> tuple[GameState, Event] | Rejection:
    """Add ``attack`` to the batch (all checks at declaration)."""
    attack = Attack(
        attackers=tuple(sorted(attack.attackers)),
        defenders=tuple(sorted(attack.defenders)),
        odds=attack.odds,
        waive=tuple(sorted(attack.waive)),
    )
    p = check_attack(board, state, attack)
    if isinstance(p, Rejection):
        return p
    ev = AttackDeclared(
        attackers=attack.attackers,
        defenders=attack.defenders,
        odds=attack.odds,
        attack=p.attack,
        defence=p.defence,
        column=p.column,
    )
    return _set_combat(state, declared=(*state.combat.declared, attack)), ev


# -- retreats -------------------------------------------------------------------------------------


def breaks_road_spacing(board: Board, state: GameState, uid: str, hex_id: HexId) -> bool:
    """Whether a normal-mode ``uid`` would end in ``hex_id`` on or next to (along the road) a
    friendly Road Mode unit (AO-6.5G); Allied Map Edge hexes do not count (AO-8.3F)."""
    m = board.game_map
    if m.is_allied_edge(hex_id):
        return False
    side = _side(board, uid)
    near = {hex_id, *road_links(m, hex_id)}
    return any(
        o.road_mode and o.id != uid and _side(board, o.id) == side
        for h in sorted(near)
        for o in state.at(h)
    )


_ROAD, _CLEAR, _ROUGH, _INTERDICTED, _RIVER = range(5)


def _step_class(
    board: Board, interdicted: frozenset[tuple[HexId, HexId]], a: HexId, b: HexId
) -> int:
    """The AO-10.2a class of the step a->b: road or intact bridge, clear, rough or ford,
    interdicted bridge, unbridged river."""
    m = board.game_map
    s = m.side(a, b)
    cut = hexgrid.hexside(a, b) in interdicted
    if s.crossing == "bridge":
        return _INTERDICTED if cut else _ROAD
    if s.river is not None and s.crossing is None:
        return _RIVER
    if s.road or m.is_road_hex(b):
        return _ROAD  # "to or along a road" (AO-10.2a priority 1)
    if s.crossing == "ford" or m.hex(b).terrain == "rough":
        return _ROUGH
    return _CLEAR


class RetreatOptions(msgspec.Struct, frozen=True):
    """The legal retreat paths of a unit, best-ranked first (``best`` = how many share the best
    rank), or the case under which it is eliminated."""

    paths: tuple[tuple[HexId, ...], ...]
    best: int
    eliminated: str | None


def _interdicted_for(state: GameState, side: Side, board: Board) -> tuple[tuple[HexId, HexId], ...]:
    if side == state.side:
        return state.interdicted.for_side(side)
    return interdiction_at_combat(board, state, side)


def retreat_options(board: Board, state: GameState, uid: str, hexes: int) -> RetreatOptions:
    """Every legal retreat of ``uid`` over ``hexes`` hexes (AO-10.2b, AO-7.3C/D, AO-8.0,
    AO-6.7M, AO-5.3N, AO-9.7P), ranked by AO-10.2a.

    A path enters ``hexes`` hexes, each one hex further from the start (the most direct path),
    never an impassable, off-map, enemy-occupied or enemy-controlled hex (friendly units negate
    control, AO-7.2B); leaving an enemy-controlled hex is allowed (AO-7.3C). It must end where
    the unit may stack (AO-8.0; no limit on Allied Map Edge hexes, AO-8.3F). A Road Mode unit
    retreats along road/bridge hexsides only and never enters a hex holding a friendly unit
    (AO-6.7M); it may end next to a friend on the road (AO-6.7N). A unit not in Road Mode may
    not end on or next to (along the road) a friendly Road Mode unit (AO-6.5G). German units
    never enter Allied Map Edge hexes (AO-5.3L/N); an Allied unit may retreat onto one only
    when it has no other path, and stops on the first one it enters (AO-9.7P).

    Ranking (errata first): the end hex can trace supply for the unit's side; then fewest
    unbridged rivers, interdicted bridges, rough/ford steps, clear off-road steps; then fewest
    friendly units passed. The victor chooses among the paths tied for best.
    """
    m = board.game_map
    d = board.defs[uid]
    u = state.unit(uid)
    start = u.hex
    assert start is not None
    side = d.side
    enemy_hexes = {
        x.hex
        for x in state.units
        if x.hex is not None and x.status in ("on_map", "dormant") and _side(board, x.id) != side
    }
    controlled = enemy_controlled(board, state, side)
    friends: dict[HexId, list[str]] = {}
    for x in state.units:
        if (
            x.hex is not None
            and x.id != uid
            and x.status in ("on_map", "dormant")
            and _side(board, x.id) == side
        ):
            friends.setdefault(x.hex, []).append(x.id)
    reasons: set[str] = set()
    live: list[tuple[HexId, ...]] = []
    edge: list[tuple[HexId, ...]] = []

    def walk(here: HexId, path: list[HexId]) -> None:
        if len(path) == hexes:
            end = path[-1]
            others = [board.defs[o] for o in friends.get(end, [])]
            if check_stack(m, d, end, others) is not None:
                reasons.add("stack")
                return
            if not u.road_mode and breaks_road_spacing(board, state, uid, end):
                reasons.add("spacing")
                return
            live.append(tuple(path))
            return
        for n in sorted(m.neighbours(here)):
            if hexgrid.distance(start, n) != len(path) + 1:
                continue
            if m.hex(n).terrain == "impassable":
                reasons.add("impassable")
                continue
            if n in enemy_hexes:
                reasons.add("enemy")
                continue
            if n in controlled:
                reasons.add("zoc")
                continue
            if u.road_mode:
                if not road_mode_passable(m, here, n):
                    reasons.add("road")
                    continue
                if n in friends:
                    reasons.add("stack")
                    continue
            if m.is_allied_edge(n):
                if side == "german":
                    reasons.add("edge")
                    continue
                edge.append((*path, n))
                continue
            if n in friends and check_stack(m, d, n, [board.defs[o] for o in friends[n]]):
                reasons.add("stack")  # the limit holds at all times, mid-retreat too (AO-8.0)
                continue
            walk(n, [*path, n])

    walk(start, [])
    candidates = live or edge
    if not candidates:
        if u.road_mode and "stack" in reasons:
            case = "AO-6.7M"
        elif side == "german" and "edge" in reasons:
            case = "AO-5.3N"
        elif "stack" in reasons:
            case = "AO-8.0"
        elif "spacing" in reasons:
            case = "AO-6.5G"
        elif "zoc" in reasons:
            case = "AO-7.3D"
        else:
            case = "AO-10.2b"
        return RetreatOptions(paths=(), best=0, eliminated=case)
    cut = frozenset(hexgrid.hexside(a, b) for a, b in _interdicted_for(state, side, board))
    net = supply_net(board, state, side, cut)

    def rank(path: tuple[HexId, ...]) -> tuple[int, ...]:
        classes = [0] * 5
        prev = start
        for h in path:
            classes[_step_class(board, cut, prev, h)] += 1
            prev = h
        supplied = path_to_net(board, net, path[-1]) is not None
        passed = sum(len(friends.get(h, ())) for h in path)
        return (
            0 if supplied else 1,
            classes[_RIVER],
            classes[_INTERDICTED],
            classes[_ROUGH],
            classes[_CLEAR],
            passed,
        )

    ranked = sorted(candidates, key=lambda p: (rank(p), p))
    top = rank(ranked[0])
    best = sum(1 for p in ranked if rank(p) == top)
    return RetreatOptions(paths=tuple(ranked), best=best, eliminated=None)


def _do_retreat(
    board: Board, state: GameState, uid: str, path: tuple[HexId, ...], events: list[Event]
) -> GameState:
    m = board.game_map
    u = state.unit(uid)
    assert u.hex is not None
    end = path[-1]
    dormant = _side(board, uid) == "allied" and m.is_allied_edge(end)
    new = msgspec.structs.replace(u, hex=end, status="dormant" if dormant else "on_map")
    events.append(UnitRetreated(unit=uid, start=u.hex, path=path, dormant=dormant))
    state = state.replace_units([new])
    state = _set_combat(state, retreated=tuple(sorted({*state.combat.retreated, uid})))
    if u.road_mode and not dormant:
        for n in road_links(m, end):
            for o in state.at(n):
                if o.id != uid and _side(board, o.id) == _side(board, uid):
                    events.append(RoadColumnContact(unit=uid, other=o.id, hex=end))
    return state


# -- resolution -----------------------------------------------------------------------------------


def _orders(state: GameState, side: Side) -> Orders | None:
    return state.combat.orders(side)


def _pending(state: GameState, decision: Decision, events: list[Event]) -> GameState:
    events.append(
        DecisionPending(
            side=decision.side, kind=decision.kind, unit=decision.unit, hex=decision.hex
        )
    )
    return _set_combat(state, pending=decision)


def _start_next(board: Board, state: GameState, events: list[Event]) -> GameState:
    """Take the first declared attack; re-check who can still take part (earlier results of
    the batch may have moved or eliminated units)."""
    c = state.combat
    attack, rest = c.declared[0], c.declared[1:]
    state = _set_combat(state, declared=rest)
    defenders = [
        uid for uid in _defending_units(state, attack.defenders) if _side(board, uid) != state.side
    ]
    dhexes = {state.unit(uid).hex or "" for uid in defenders}
    attackers = [
        uid
        for uid in attack.attackers
        if _in_play(state, uid)
        and all(hexgrid.adjacent(state.unit(uid).hex or "", h) for h in dhexes)
    ]
    reason = None
    if not defenders:
        reason = "no defending unit is left in the attacked hexes"
    elif not attackers:
        reason = "no attacking unit is left next to the defenders"
    elif attack_strength_in(board, state, attackers) == 0:
        reason = "the remaining attackers have no attack strength (AO-12.6)"
    if reason is not None:
        events.append(
            AttackCancelled(attackers=attack.attackers, defenders=attack.defenders, reason=reason)
        )
        return state
    return _set_combat(
        state,
        current=Resolution(
            attack=attack,
            step="waive",
            attackers=tuple(sorted(attackers)),
            defenders=tuple(sorted(defenders)),
        ),
    )


def _step_waive(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    dside = other_side(state.side)
    immune = immune_hexes(board, state, r.defenders)
    if not immune:
        return _set_current(state, step="roll")
    orders = _orders(state, dside)
    if orders is not None:
        waived = tuple(h for h in immune if h in orders.waive)
        if waived:
            events.append(ImmunityWaived(side=dside, hexes=waived))
        return _set_current(state, step="roll", waived=waived)
    return _pending(
        state,
        Decision(
            side=dside, kind="waive_immunity", case="AO-11.f*", choices=tuple((h,) for h in immune)
        ),
        events,
    )


def _flag(board: Board, state: GameState, r: Resolution) -> GameState:
    rows = []
    for uid in r.attackers:
        u = state.unit(uid)
        rows.append(
            msgspec.structs.replace(
                u,
                attacked=True,
                in_combat=True,
                must_leave_road_mode=u.must_leave_road_mode or u.road_mode,
            )
        )
    for uid in r.defenders:
        u = state.unit(uid)
        rows.append(
            msgspec.structs.replace(
                u,
                was_attacked=True,
                in_combat=True,
                must_leave_road_mode=u.must_leave_road_mode or u.road_mode,
            )
        )
    return state.replace_units(rows)


def _step_roll(
    board: Board, state: GameState, r: Resolution, roller: Roller, events: list[Event]
) -> GameState:
    dside = other_side(state.side)
    supply = defender_supply(board, state, dside)
    supply = {uid: supply.get(uid, "supplied") for uid in r.defenders}
    dhexes = sorted({state.unit(uid).hex or "" for uid in r.defenders})
    att = attack_strength_in(board, state, r.attackers)
    dfn = defence_strength_in(board, state, dhexes, supply=supply, retreated=state.combat.retreated)
    real = odds_column(att, dfn)
    assert not isinstance(real, Rejection)  # zero attack strength is cancelled before
    column = real
    wanted = r.attack.odds
    if wanted is not None and column_rank(wanted) < column_rank(real):
        ok = reduce_odds(real, wanted, state.side)
        column = ok if isinstance(ok, str) else column
    table = crt_for(state)
    state = _flag(board, state, r)
    die = roller.roll(f"combat:{','.join(dhexes)}")
    res = resolve(table, column, die)
    events.append(
        CombatResolved(
            attackers=r.attackers,
            defenders=r.defenders,
            attack=att,
            defence=dfn,
            column=column,
            table=table,
            die=die,
            result=str(res),
        )
    )
    ahexes = sorted({state.unit(uid).hex or "" for uid in r.attackers})
    # ``cleared`` holds the hexes the result may vacate until the advance step filters them.
    vacated = tuple(ahexes if res.kind == "Ar" else dhexes)
    state = _set_current(state, column=column, result=str(res), cleared=vacated)
    if res.kind in ("Ex", "De"):
        need = face_total(board.defs[uid] for uid in r.defenders)
        for uid in r.defenders:
            state = eliminate(
                board, state, uid, "AO-10.1b" if res.kind == "Ex" else "AO-10.1c", events
            )
        if res.kind == "Ex":
            return _set_current(state, step="losses", need=need)
        return _set_current(
            state, step="advance", cleared=_cleared(state, dhexes), advancing=r.attackers
        )
    movers = r.defenders if res.kind == "Dr" else r.attackers
    waived = set(r.waived) if res.kind == "Dr" else set(r.attack.waive)
    retreating = []
    for uid in movers:
        if not _in_play(state, uid):
            continue
        case = immunity_case(board, state, uid)
        h = state.unit(uid).hex or ""
        if case is not None and h not in waived:
            events.append(ResultIgnored(unit=uid, hex=h, case=case))
            continue
        retreating.append(uid)
    return _set_current(state, step="retreat", retreating=tuple(retreating), hexes=res.hexes)


def _cleared(state: GameState, hexes: Iterable[HexId]) -> tuple[HexId, ...]:
    return tuple(h for h in sorted(set(hexes)) if not state.at(h))


def _victor(state: GameState, r: Resolution) -> Side:
    """Who chooses retreat paths: the defender on Ar, the attacker on Dr (AO-10.2a)."""
    return other_side(state.side) if (r.result or "").startswith("Ar") else state.side


def _loss_options(board: Board, state: GameState, r: Resolution) -> list[tuple[str, ...]]:
    alive = [board.defs[uid] for uid in r.attackers if _in_play(state, uid)]
    return ex_loss_options(alive, r.need)


def _apply_losses(
    board: Board, state: GameState, r: Resolution, units: Sequence[str], events: list[Event]
) -> GameState:
    for uid in sorted(units):
        state = eliminate(board, state, uid, "AO-10.1b", events)
    return _set_current(
        state,
        step="advance",
        cleared=_cleared(state, r.cleared),
        advancing=tuple(uid for uid in r.attackers if _in_play(state, uid)),
    )


def _step_losses(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    options = _loss_options(board, state, r)
    orders = _orders(state, state.side)
    if len(options) == 1 or (orders is not None and orders.losses == "engine"):
        return _apply_losses(board, state, r, options[0], events)
    return _pending(
        state,
        Decision(
            side=state.side, kind="losses", case="AO-10.1b", choices=tuple(options), need=r.need
        ),
        events,
    )


def _after_retreats(state: GameState, r: Resolution) -> GameState:
    advancing = r.attackers if (r.result or "").startswith("Dr") else r.defenders
    return _set_current(
        state,
        step="advance",
        cleared=_cleared(state, r.cleared),
        advancing=tuple(uid for uid in advancing if _in_play(state, uid)),
        retreating=(),
    )


def _step_retreat(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    if not r.retreating:
        return _after_retreats(state, r)
    uid = r.retreating[0]
    if not _in_play(state, uid):
        return _set_current(state, retreating=r.retreating[1:])
    opts = retreat_options(board, state, uid, r.hexes)
    if opts.eliminated is not None:
        state = eliminate(board, state, uid, opts.eliminated, events)
        return _set_current(state, retreating=r.retreating[1:])
    victor = _victor(state, r)
    orders = _orders(state, victor)
    if opts.best == 1 or (orders is not None and orders.retreat == "engine"):
        state = _do_retreat(board, state, uid, opts.paths[0], events)
        return _set_current(state, retreating=r.retreating[1:])
    return _pending(
        state,
        Decision(
            side=victor,
            kind="retreat",
            case="AO-10.2a",
            unit=uid,
            choices=opts.paths[: opts.best],
        ),
        events,
    )


def advance_choices(board: Board, state: GameState, r: Resolution, hex_id: HexId) -> list[str]:
    """Units of the victor that may advance into the cleared ``hex_id`` (AO-9.6N): mechanized,
    took part, still in play and adjacent; a Road Mode unit only across a road/bridge hexside."""
    m = board.game_map
    out = []
    for uid in r.advancing:
        u = state.find(uid)
        if u is None or not u.in_play or u.hex is None or not board.defs[uid].mechanized:
            continue
        if not hexgrid.adjacent(u.hex, hex_id):
            continue
        if u.road_mode and not road_mode_passable(m, u.hex, hex_id):
            continue
        if u.road_mode and any(
            o.id != uid and _side(board, o.id) == _side(board, uid)
            for n in road_links(m, hex_id)
            for o in state.at(n)
        ):
            continue  # a Road Mode unit may not end next to a friend on the road (AO-6.5G)
        if not u.road_mode and breaks_road_spacing(board, state, uid, hex_id):
            continue
        if _side(board, uid) == "german" and m.is_allied_edge(hex_id):
            continue
        if reinforcements.meuse_crossing_forbidden(board, state, uid, u.hex, hex_id) is not None:
            continue  # a West-bank unit does not advance across the Meuse (AO-14.3C)
        out.append(uid)
    return sorted(out, key=lambda x: (-board.defs[x].strength, x))


def _do_advance(
    state: GameState, r: Resolution, hex_id: HexId, uid: str | None, side: Side, events: list[Event]
) -> GameState:
    if uid is None:
        events.append(AdvanceDeclined(side=side, hex=hex_id))
        advancing = r.advancing
    else:
        u = state.unit(uid)
        events.append(UnitAdvanced(unit=uid, start=u.hex or "", end=hex_id))
        state = state.replace_units([msgspec.structs.replace(u, hex=hex_id)])
        advancing = tuple(x for x in r.advancing if x != uid)
    return _set_current(state, cleared=r.cleared[1:], advancing=advancing)


def _step_advance(board: Board, state: GameState, r: Resolution, events: list[Event]) -> GameState:
    if not r.cleared:
        return _set_combat(state, current=None)
    h = r.cleared[0]
    if state.at(h):
        return _set_current(state, cleared=r.cleared[1:])
    units = advance_choices(board, state, r, h)
    if not units:
        return _set_current(state, cleared=r.cleared[1:])
    side = _side(board, units[0])
    orders = _orders(state, side)
    if orders is not None and orders.advance != "ask":
        pick = units[0] if orders.advance == "strongest" else None
        return _do_advance(state, r, h, pick, side, events)
    return _pending(
        state,
        Decision(
            side=side, kind="advance", case="AO-9.6N", hex=h, choices=tuple((x,) for x in units)
        ),
        events,
    )


def run(board: Board, state: GameState, roller: Roller, events: list[Event]) -> GameState:
    """Resolve the batch until it is done or a decision is pending."""
    while True:
        c = state.combat
        if c.pending is not None:
            return state
        r = c.current
        if r is None:
            if not c.declared:
                return state
            state = _start_next(board, state, events)
            continue
        if r.step == "waive":
            state = _step_waive(board, state, r, events)
        elif r.step == "roll":
            state = _step_roll(board, state, r, roller, events)
        elif r.step == "losses":
            state = _step_losses(board, state, r, events)
        elif r.step == "retreat":
            state = _step_retreat(board, state, r, events)
        else:
            state = _step_advance(board, state, r, events)


# -- decisions ------------------------------------------------------------------------------------


def decide_waive(
    board: Board, state: GameState, hexes: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    p = state.combat.pending
    if p is None or p.kind != "waive_immunity":
        return Rejection(PENDING, "no immunity decision is pending")
    allowed = {c[0] for c in p.choices}
    bad = sorted(set(hexes) - allowed)
    if bad:
        return Rejection("AO-11.f*", f"no immunity to waive in {', '.join(bad)}")
    waived = tuple(sorted(set(hexes)))
    if waived:
        events.append(ImmunityWaived(side=p.side, hexes=waived))
    state = _set_combat(state, pending=None)
    return _set_current(state, step="roll", waived=waived)


def decide_losses(
    board: Board, state: GameState, units: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    p, r = state.combat.pending, state.combat.current
    if p is None or p.kind != "losses" or r is None:
        return Rejection(PENDING, "no Exchange losses are pending")
    alive = [board.defs[uid] for uid in r.attackers if _in_play(state, uid)]
    bad = check_ex_losses(list(units), alive, r.need)
    if bad is not None:
        return bad
    state = _set_combat(state, pending=None)
    return _apply_losses(board, state, r, units, events)


def decide_retreat(
    board: Board, state: GameState, uid: str, path: Sequence[str], events: list[Event]
) -> GameState | Rejection:
    p, r = state.combat.pending, state.combat.current
    if p is None or p.kind != "retreat" or r is None:
        return Rejection(PENDING, "no retreat decision is pending")
    if uid != p.unit:
        return Rejection(PENDING, f"the pending retreat is {p.unit}'s, not {uid}'s")
    if tuple(path) not in p.choices:
        opts = retreat_options(board, state, uid, r.hexes)
        why = "AO-10.2a" if tuple(path) in opts.paths else "AO-10.2b"
        return Rejection(
            why,
            f"{'-'.join(path) or 'no path'} is not one of the best retreats of {uid}: "
            + "; ".join("-".join(c) for c in p.choices),
        )
    state = _set_combat(state, pending=None)
    state = _do_retreat(board, state, uid, tuple(path), events)
    return _set_current(state, retreating=r.retreating[1:])


def decide_advance(
    board: Board, state: GameState, hex_id: str, uid: str | None, events: list[Event]
) -> GameState | Rejection:
    p, r = state.combat.pending, state.combat.current
    if p is None or p.kind != "advance" or r is None:
        return Rejection(PENDING, "no advance decision is pending")
    if hex_id != p.hex:
        return Rejection(PENDING, f"the pending advance is into {p.hex}, not {hex_id}")
    if uid is not None and (uid,) not in p.choices:
        return Rejection(
            "AO-9.6N",
            f"{uid} may not advance into {hex_id}: only "
            + (", ".join(c[0] for c in p.choices) or "no unit"),
        )
    state = _set_combat(state, pending=None)
    return _do_advance(state, r, hex_id, uid, p.side, events)


# -- Game-Turn 1 obligations (AO-4.2h*) --------------------------------------------------------


def gt1_obliged(board: Board, state: GameState) -> tuple[str, ...]:
    """At the start of the German GT1 Combat Phase: American units in play next to a German
    unit, and German units in play next to an American unit (AO-4.2h*)."""
    m = board.game_map
    by_hex: dict[HexId, list[UnitState]] = {}
    for u in state.units:
        if u.in_play and u.hex is not None and not m.is_allied_edge(u.hex):
            by_hex.setdefault(u.hex, []).append(u)
    out: set[str] = set()
    for h, units in by_hex.items():
        for n in m.neighbours(h):
            for o in by_hex.get(n, []):
                for u in units:
                    if _side(board, u.id) != _side(board, o.id):
                        out.add(u.id)
    return tuple(sorted(out))


def gt1_unmet(board: Board, state: GameState) -> tuple[list[str], list[str]]:
    """American units still to be attacked and German units still to attack (AO-4.2h*), counting
    only obligations that can still be met (an attackable neighbour is left)."""
    m = board.game_map

    def neighbours_of(u: UnitState, side: Side) -> list[UnitState]:
        assert u.hex is not None
        return [o for n in m.neighbours(u.hex) for o in state.at(n) if _side(board, o.id) == side]

    us_left, de_left = [], []
    for uid in state.combat.obliged:
        u = state.find(uid)
        if u is None or not u.in_play or u.hex is None or m.is_allied_edge(u.hex):
            continue
        if _side(board, uid) == "allied":
            if not u.was_attacked and any(not g.attacked for g in neighbours_of(u, "german")):
                us_left.append(uid)
        elif not u.attacked and any(
            not a.was_attacked and not m.is_allied_edge(a.hex or "")
            for a in neighbours_of(u, "allied")
        ):
            de_left.append(uid)
    return us_left, de_left


def gt1_declaration_check(board: Board, state: GameState, attack: Attack) -> Rejection | None:
    """AO-4.2h* at declaration: an attack may not make an obligation impossible - leave an
    obliged American unit with no German neighbour free to attack it, or an obliged German unit
    with no American neighbour left to attack."""
    c = state.combat
    if not (state.turn == 1 and state.side == "german" and c.obliged):
        return None
    m = board.game_map
    busy_units, busy_hexes = _reserved(state)
    used = busy_units | set(attack.attackers)
    hit = busy_hexes | set(attack.defenders)

    def around(u: UnitState, side: Side) -> list[UnitState]:
        assert u.hex is not None
        return [o for n in m.neighbours(u.hex) for o in state.at(n) if _side(board, o.id) == side]

    for uid in c.obliged:
        u = state.find(uid)
        if u is None or not u.in_play or u.hex is None or m.is_allied_edge(u.hex):
            continue
        if _side(board, uid) == "allied":
            if u.was_attacked or u.hex in hit:
                continue
            free = [g for g in around(u, "german") if not g.attacked]
            if any(g.id not in busy_units for g in free) and all(g.id in used for g in free):
                return Rejection(
                    "AO-4.2h*",
                    f"{uid} in {u.hex} must be attacked on Game-Turn 1 and this attack would "
                    "leave no German unit free to attack it",
                )
        elif not u.attacked and uid not in used:
            targets = [
                a
                for a in around(u, "allied")
                if not a.was_attacked and not m.is_allied_edge(a.hex or "")
            ]
            if any((a.hex or "") not in busy_hexes for a in targets) and all(
                (a.hex or "") in hit for a in targets
            ):
                return Rejection(
                    "AO-4.2h*",
                    f"{uid} must take part in an attack on Game-Turn 1 and this attack would "
                    "leave it no American unit to attack: include it",
                )
    return None


def end_of_combat_check(board: Board, state: GameState) -> Rejection | None:
    """Whether the Combat Phase may end: nothing declared or being resolved; on GT1 the German
    obligations met (AO-4.2h*)."""
    c = state.combat
    if c.pending is not None or c.current is not None:
        return Rejection(PENDING, "an attack is being resolved: answer its decision first")
    if c.declared:
        return Rejection(PENDING, "declared attacks are waiting: resolve them first")
    if state.turn == 1 and state.side == "german":
        us_left, de_left = gt1_unmet(board, state)
        if us_left or de_left:
            parts = []
            if us_left:
                parts.append("American units not yet attacked: " + ", ".join(us_left))
            if de_left:
                parts.append("German units that have not attacked: " + ", ".join(de_left))
            return Rejection("AO-4.2h*", "; ".join(parts))
    return None


def cleared_for_next_phase(state: GameState) -> CombatState:
    """The combat state after the Combat Phase: only the standing orders stay."""
    c = state.combat
    return CombatState(german_orders=c.german_orders, allied_orders=c.allied_orders)
