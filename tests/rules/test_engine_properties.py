"""Hypothesis properties of the movement engine on random small maps and positions.

* exactness: every hex ``legal_moves`` offers is accepted by ``apply`` with the offered path, at
  exactly the offered cost and mode;
* completeness: any path ``check_path`` accepts ends on an offered hex (same arrival mode) that
  costs no more than the path - so every hex not offered is rejected, whatever the path;
* no accepted command leaves a hex over the stacking limit;
* replaying a command list from the initial state gives the state (hash) reached live.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.ao.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, Command, EndPhase, Move
from rules.ao.engine import Applied, apply, replay
from rules.ao.movement import legal_moves, trace_path
from rules.ao.stacking import over_limit
from rules.ao.state import Board, GameState, Phase, UnitState, state_hash
from rules.ao.units import Side
from rules.rejection import Rejection
from tests.kit.engine import board, make_map, position, road_walk, unit
from tests.kit.realmap import RealScenario

COLS, ROWS = 6, 5
HEXES = [hexgrid.make(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]


def _adjacent_pairs() -> list[tuple[str, str]]:
    out = []
    for a in HEXES:
        for b in hexgrid.neighbours(a):
            if b is not None and b in HEXES and a < b:
                out.append((a, b))
    return sorted(out)


PAIRS = _adjacent_pairs()


@st.composite
def worlds(draw: st.DrawFn) -> tuple[Board, GameState, str]:
    codes = draw(
        st.lists(
            st.sampled_from([".", ".", ".", ".", "r", "r", "x", "W", "w", "F", "e"]),
            min_size=len(HEXES),
            max_size=len(HEXES),
        )
    )
    grid = "\n".join(
        " ".join(codes[(c - 1) * ROWS + (r - 1)] for c in range(1, COLS + 1))
        for r in range(1, ROWS + 1)
    )
    sides = draw(st.lists(st.sampled_from(PAIRS), max_size=25, unique=True))
    kinds = draw(
        st.lists(
            st.sampled_from(["road", "road", "river", "bridge", "ford", "road+ford"]),
            min_size=len(sides),
            max_size=len(sides),
        )
    )
    roads = [f"{a}-{b}" for (a, b), k in zip(sides, kinds, strict=True) if k.startswith("road")]
    rivers = [f"{a}/{b}" for (a, b), k in zip(sides, kinds, strict=True) if k == "river"]
    bridges = [f"{a}/{b}" for (a, b), k in zip(sides, kinds, strict=True) if k == "bridge"]
    fords = [f"{a}/{b}" for (a, b), k in zip(sides, kinds, strict=True) if k.endswith("ford")]
    # a few long roads (random walks), so that Road Mode has somewhere to go
    for _ in range(draw(st.integers(0, 3))):
        roads.append(road_walk(draw, HEXES, 9))
    m = make_map(grid, roads=roads, rivers=rivers, bridges=bridges, fords=fords)
    n_german = draw(st.integers(1, 4))
    n_allied = draw(st.integers(1, 3))
    defs = []
    for i in range(n_german + n_allied):
        side: Side = "german" if i < n_german else "allied"
        size = "XX" if side == "german" and draw(st.integers(0, 5)) == 0 else "III"
        defs.append(
            unit(
                f"{side[0]}{i}",
                side,
                mech=draw(st.booleans()),
                ma=draw(st.integers(2, 14)),
                size=size,
            )
        )
    b = board(m, defs)
    phasing: Side = draw(st.sampled_from(["german", "allied"]))
    phase: Phase = draw(st.sampled_from(["initial_movement", "mechanized_movement"]))
    rows: dict[str, UnitState] = {}
    placed: dict[str, str] = {}
    for d in defs:
        h = draw(st.sampled_from(HEXES[:8] if draw(st.booleans()) else HEXES))  # some crowding
        if m.hex(h).terrain == "impassable":
            continue
        if any(b.defs[o].side != d.side for o, oh in placed.items() if oh == h):
            continue
        road = m.is_road_hex(h) and draw(st.integers(0, 2)) > 0
        rows[d.id] = UnitState(
            id=d.id,
            hex=h,
            road_mode=road,
            # a reinforcement's entry penalty, charged at its first move (AO-14.2B)
            staging=draw(st.sampled_from([None, None, 0, 2, 4])) if road else None,
            supply=draw(st.sampled_from(["supplied", "supplied", "unsupplied", "isolated"])),
            in_combat=draw(st.booleans()),
            mp_spent=draw(st.sampled_from([0, 0, 0, 1, 3])),
        )
        placed[d.id] = h
    for d in defs:
        rows.setdefault(d.id, UnitState(id=d.id, status="eliminated"))
    s = position(rows, side=phasing, phase=phase)
    assume(not over_limit(b, s))
    movers = [d.id for d in defs if d.side == phasing and rows[d.id].hex is not None]
    assume(movers)
    mover = draw(st.sampled_from(movers))
    return b, s, mover


def _shortest_paths(b: Board, start: str) -> dict[str, list[str]]:
    """A fewest-hexes path to every hex of the map (breadth first, fixed neighbour order)."""
    paths: dict[str, list[str]] = {start: []}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in b.game_map.neighbours(h):
                if n not in paths:
                    paths[n] = [*paths[h], n]
                    nxt.append(n)
        frontier = nxt
    return paths


def _random_path(draw: st.DrawFn, b: Board, start: str, n: int) -> list[str]:
    path: list[str] = []
    h = start
    for _ in range(n):
        opts = [*b.game_map.neighbours(h), ENTER_ROAD_MODE, LEAVE_ROAD_MODE]
        step = draw(st.sampled_from(opts))
        path.append(step)
        if step not in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE):
            h = step
    return path


SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


@SETTINGS
@given(worlds())
def test_every_offered_move_applies_at_exactly_the_offered_cost(world) -> None:
    b, s, mover = world
    for mode in (None, True, False):
        for h, reach in legal_moves(b, s, mover, mode).items():
            if mode is not None:
                assert reach.road_mode == mode
            r = apply(b, s, Move(unit=mover, path=reach.path))
            assert isinstance(r, Applied), (h, reach, r)
            u = r.state.unit(mover)
            assert u.hex == h and u.road_mode == reach.road_mode
            assert u.mp_spent - s.unit(mover).mp_spent == reach.cost
            assert r.events[-1].cost == reach.cost  # type: ignore[union-attr]
            assert over_limit(b, r.state) == []
    # hexes not offered in any mode: a shortest path (in hexes) to them is refused
    start = s.unit(mover).hex
    assert start is not None
    offered = set(legal_moves(b, s, mover))
    for h, path in _shortest_paths(b, start).items():
        if h != start and h not in offered:
            assert isinstance(trace_path(b, s, mover, path), Rejection), (h, path)


@SETTINGS
@given(worlds(), st.data())
def test_every_accepted_path_ends_on_an_offered_hex_no_cheaper(world, data) -> None:
    b, s, mover = world
    start = s.unit(mover).hex
    offered = {m: legal_moves(b, s, mover, m) for m in (True, False)}
    for _ in range(12):
        path = _random_path(data.draw, b, start, data.draw(st.integers(1, 7)))
        route = trace_path(b, s, mover, path)
        if isinstance(route, Rejection):
            continue
        if route.end == start and route.road_mode == s.unit(mover).road_mode:
            continue  # a loop back to where it stood: legal but no destination
        reach = offered[route.road_mode].get(route.end)
        assert reach is not None, (path, route)
        assert reach.cost <= route.cost
        r = apply(b, s, Move(unit=mover, path=tuple(path)))
        assert isinstance(r, Applied) and over_limit(b, r.state) == []


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(worlds(), st.data())
def test_replay_gives_the_live_state(world, data) -> None:
    b, s0, _mover = world
    live = s0
    log: list[Command] = []
    hashes = []
    for _ in range(data.draw(st.integers(1, 12))):
        if data.draw(st.integers(0, 3)) == 0:
            cmd: Command = EndPhase()
        else:
            movers = sorted(
                u.id for u in live.units if u.hex is not None and b.defs[u.id].side == live.side
            )
            if not movers:
                cmd = EndPhase()
            else:
                uid = data.draw(st.sampled_from(movers))
                moves = legal_moves(b, live, uid)
                if not moves:
                    cmd = Move(unit=uid, path=(live.unit(uid).hex or "0101",))
                else:
                    h = data.draw(st.sampled_from(sorted(moves)))
                    cmd = Move(unit=uid, path=moves[h].path)
        r = apply(b, live, cmd)
        if isinstance(r, Rejection):
            continue
        live = r.state
        log.append(cmd)
        hashes.append(state_hash(live))
        assert over_limit(b, live) == []
    assert replay(b, s0, log) == live
    assert state_hash(replay(b, s0, log)) == state_hash(live)
    for i in range(len(log)):
        assert state_hash(replay(b, s0, log[: i + 1])) == hashes[i]


def test_pairs_cover_the_grid() -> None:
    assert len(PAIRS) == len(set(PAIRS)) and all(a < b for a, b in PAIRS)
    assert list(itertools.islice(PAIRS, 1)) == [("0101", "0102")]


def test_real_map_scenario_1_every_offered_move_applies(real_scenario: RealScenario) -> None:
    """The same exactness on the compiled map with the scenario 1 set-up (when built)."""
    import msgspec

    from rules.ao.movement import legal_moves_for_side

    b, s = real_scenario(1)
    assert over_limit(b, s) == []
    for side in ("german", "allied"):
        # GT3: on GT2 the German must first drop von der Heydte (AO-15.a)
        st_ = msgspec.structs.replace(s, turn=3, side=side, phase="initial_movement")
        moves = legal_moves_for_side(b, st_)
        assert sum(len(v) for v in moves.values()) > 100
        for uid, dests in moves.items():
            for h, reach in dests.items():
                assert not b.game_map.is_allied_edge(h)
                r = apply(b, st_, Move(unit=uid, path=reach.path))
                assert isinstance(r, Applied), (uid, h, r)
                assert r.state.unit(uid).hex == h
                assert r.state.unit(uid).mp_spent == reach.cost
