"""Movement benchmarks (run with ``.venv/bin/pytest tests/bench --benchmark-only``).

Targets (median): legal moves of one unit < 2 ms; of a whole side < 150 ms. Measured on the
real map with the scenario 1 historical set-up (German Game-Turn 3 Initial Movement Phase; on
Game-Turn 2 the paradrop must come first, AO-15.a), and on a synthetic open 40x45 map with about
90 units as a worst case for search size. ``test_the_worlds_have_moves`` runs in the normal
suite (benchmarks are skipped there) so that a world without legal moves fails at once.
"""

from __future__ import annotations

import msgspec
import pytest

from rules.ao.commands import Move
from rules.ao.engine import Applied, apply, new_game
from rules.ao.movement import legal_moves, legal_moves_for_side
from rules.ao.state import Board, GameState, UnitState
from tests.kit.engine import make_map, position, unit
from tests.kit.realmap import HAVE_REAL_MAP


def _real() -> tuple[Board, GameState]:
    from scenarios import load_board

    b = load_board(1)
    s = new_game(b)
    return b, msgspec.structs.replace(s, turn=3, side="german", phase="initial_movement")


def _synthetic() -> tuple[Board, GameState]:
    cols, rows = 40, 45
    grid = "\n".join(
        " ".join("r" if (c * 7 + r * 3) % 11 == 0 else "." for c in range(1, cols + 1))
        for r in range(1, rows + 1)
    )
    roads = ["-".join(f"{c:02d}{r:02d}" for c in range(1, cols + 1)) for r in (5, 15, 25, 35)]
    m = make_map(grid, roads=roads)
    defs, rows_ = [], {}
    for i in range(45):
        g, a = f"g{i:02d}", f"a{i:02d}"
        defs += [
            unit(g, mech=i % 2 == 0, ma=12 if i % 2 == 0 else 6),
            unit(a, "allied", mech=i % 3 == 0, ma=10),
        ]
        rows_[g] = UnitState(id=g, hex=f"{1 + i % 15:02d}{1 + (i * 7) % 45:02d}")
        rows_[a] = UnitState(id=a, hex=f"{26 + i % 15:02d}{1 + (i * 7) % 45:02d}")
    return Board(m, defs), position(rows_)


def _busiest(b: Board, s: GameState) -> str:
    side = legal_moves_for_side(b, s)
    return max(sorted(side), key=lambda k: len(side[k]))


WORLDS = {"synthetic": _synthetic}
if HAVE_REAL_MAP:
    WORLDS["real"] = _real


@pytest.mark.parametrize("name", sorted(WORLDS))
def test_the_worlds_have_moves(name: str) -> None:
    b, s = WORLDS[name]()
    side = legal_moves_for_side(b, s)
    assert len(side) >= 20
    assert len(side[_busiest(b, s)]) >= 20


@pytest.fixture(params=sorted(WORLDS), scope="module")
def world(request: pytest.FixtureRequest) -> tuple[Board, GameState]:
    return WORLDS[request.param]()


def test_legal_moves_one_unit(benchmark, world) -> None:
    b, s = world
    uid = _busiest(b, s)

    def forget() -> None:
        # legal_moves answers once per state and unit: each round searches anew (the state's
        # occupancy snapshot is kept, as it is for every unit of one state)
        b.cache.pop("movement.legal_moves", None)

    out = benchmark.pedantic(
        legal_moves, args=(b, s, uid), setup=forget, rounds=200, warmup_rounds=5
    )
    assert out


def test_legal_moves_whole_side(benchmark, world) -> None:
    b, s = world

    def run() -> int:
        # a fresh state object each round, so the per-state snapshot is rebuilt too
        fresh = msgspec.structs.replace(s, dice_drawn=s.dice_drawn + 1)
        return len(legal_moves_for_side(b, fresh))

    assert benchmark(run) > 0


def test_apply_move(benchmark, world) -> None:
    b, s = world
    uid = _busiest(b, s)
    far = max(legal_moves(b, s, uid).items(), key=lambda kv: (kv[1].cost, kv[0]))
    cmd = Move(unit=uid, path=far[1].path)

    def run() -> object:
        fresh = msgspec.structs.replace(s, dice_drawn=s.dice_drawn + 1)
        return apply(b, fresh, cmd)

    assert isinstance(benchmark(run), Applied)
