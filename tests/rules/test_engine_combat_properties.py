"""Hypothesis properties of combat on random small maps and positions, random legal commands
(attacks, resolution, decisions, phase ends) and seeded dice:

* no illegal state is ever reached: no hex over the stacking limit, no hex holding both sides,
  no German unit on an Allied Map Edge hex, no Road Mode unit stacked with a friend, and no
  Road Mode unit next to a friend on the road unless one of them is marked to leave Road Mode
  (the AO-6.7N case);
* Victory Points change only by eliminations, one per eliminated unit (AO-16.A);
* replaying the command log with the same dice gives the same state hash after every command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.ao.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    Command,
    DeclareAttack,
    EndPhase,
    ResolveAttacks,
    WaiveImmunity,
)
from rules.ao.engine import Applied, apply, replay_hashes
from rules.ao.state import Board, GameState, UnitState, state_hash
from rules.ao.units import Side
from rules.dice import SeededDice
from tests.kit.engine import board, illegal_state, make_map, position, road_walk, unit

COLS, ROWS = 6, 4
HEXES = [hexgrid.make(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]


@st.composite
def worlds(draw: st.DrawFn) -> tuple[Board, GameState]:
    codes = draw(
        st.lists(
            st.sampled_from([".", ".", ".", "r", "x", "W", "F", "e"]),
            min_size=len(HEXES),
            max_size=len(HEXES),
        )
    )
    grid = "\n".join(
        " ".join(codes[(c - 1) * ROWS + (r - 1)] for c in range(1, COLS + 1))
        for r in range(1, ROWS + 1)
    )
    roads = []
    for _ in range(draw(st.integers(0, 2))):
        roads.append(road_walk(draw, HEXES, 6))
    towns = {"T": draw(st.sampled_from(HEXES))} if draw(st.booleans()) else None
    m = make_map(grid, roads=roads, towns=towns)
    defs = []
    n_g, n_a = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    for i in range(n_g + n_a):
        side: Side = "german" if i < n_g else "allied"
        defs.append(
            unit(
                f"{side[0]}{i}",
                side,
                mech=draw(st.booleans()),
                strength=draw(st.integers(1, 12)),
                size="XX" if side == "german" and draw(st.integers(0, 6)) == 0 else "III",
            )
        )
    b = board(m, defs)
    rows: dict[str, UnitState] = {}
    placed: dict[str, str] = {}
    crowd = HEXES[4:12]  # columns 2-3: most units meet there
    for d in defs:
        h = draw(st.sampled_from(crowd if draw(st.integers(0, 3)) else HEXES))
        if m.hex(h).terrain == "impassable" or m.is_allied_edge(h):
            continue
        if any(b.defs[o].side != d.side for o, oh in placed.items() if oh == h):
            continue
        rows[d.id] = UnitState(
            id=d.id,
            hex=h,
            road_mode=m.is_road_hex(h) and draw(st.integers(0, 3)) == 0,
            supply=draw(st.sampled_from(["supplied", "supplied", "unsupplied"])),
        )
        placed[d.id] = h
    for d in defs:
        rows.setdefault(d.id, UnitState(id=d.id, status="eliminated"))
    s = position(
        rows,
        side=draw(st.sampled_from(["german", "allied"])),
        phase="combat",
        turn=draw(st.sampled_from([2, 2, 1, 7])),
    )
    assume(not illegal_state(b, s))
    return b, s


def legal_attacks(b: Board, s: GameState) -> list[DeclareAttack]:
    from rules.ao.combat import check_attack
    from rules.ao.state import Attack

    out = []
    for u in s.units:
        if not u.in_play or u.hex is None or b.defs[u.id].side != s.side:
            continue
        for n in b.game_map.neighbours(u.hex):
            a = Attack(attackers=(u.id,), defenders=(n,))
            if not hasattr(check_attack(b, s, a), "case"):
                out.append(DeclareAttack(attackers=(u.id,), defenders=(n,)))
    return out


def answer(draw: Callable[..., Any], s: GameState) -> Command:
    d = s.combat.pending
    assert d is not None
    if d.kind == "waive_immunity":
        hexes = tuple(c[0] for c in d.choices if draw(st.booleans()))
        return WaiveImmunity(hexes=hexes)
    if d.kind == "losses":
        return ChooseLosses(units=draw(st.sampled_from(d.choices)))
    if d.kind == "retreat":
        assert d.unit is not None
        return ChooseRetreat(unit=d.unit, path=draw(st.sampled_from(d.choices)))
    assert d.hex is not None
    pick = draw(st.sampled_from([None, *(c[0] for c in d.choices)]))
    return Advance(hex=d.hex, unit=pick)


def eliminated(s: GameState) -> int:
    return sum(1 for u in s.units if u.status == "eliminated")


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(world=worlds(), data=st.data(), seed=st.binary(min_size=1, max_size=4))
def test_random_combat_keeps_the_state_legal_and_replays(
    world: tuple[Board, GameState], data: st.DataObject, seed: bytes
) -> None:
    b, s0 = world
    dice = SeededDice(seed)
    s, log, hashes = s0, [], []
    for _ in range(16):
        if s.combat.pending is not None:
            cmd: Command = answer(data.draw, s)
        else:
            options: list[Command] = list(legal_attacks(b, s)[:6])
            if s.combat.declared:
                options += [ResolveAttacks()] * 2
            if not options or data.draw(st.integers(0, 5)) == 0:
                options.append(EndPhase())
            cmd = data.draw(st.sampled_from(options))
        r = apply(b, s, cmd, dice)
        if not isinstance(r, Applied):
            # only the GT1 obligation or a still-declared batch may refuse an EndPhase
            assert isinstance(cmd, EndPhase), r
            assert r.case in ("AO-4.2h*", "decision-pending"), r
            continue
        vp_before = s.vp.german + s.vp.allied
        dead_before = eliminated(s)
        new = r.state
        assert illegal_state(b, new) == [], (cmd, r.events)
        assert (new.vp.german + new.vp.allied) - vp_before == eliminated(new) - dead_before
        s = new
        log.append(cmd)
        hashes.append(state_hash(s))
        if s.phase != "combat":
            break
    assert replay_hashes(b, s0, log, SeededDice(seed)) == hashes
