"""The bots' free set-up (AO-17.b German, AO-17.c Allied): where each unit goes, and the order
of ``Place`` commands that gets it there with one unit a hex at every step.

The constraints (AO-17.b/c): a front-line unit (:func:`ao.front_line_units`) stays on its
side's front line (:func:`ao.front_line`), a rear unit stays on its own side behind it
(:func:`ao.rear_area`); one unit a hex. A historical set-up (AO-17.a) is accepted as it is.

* **German**: the front-line hexes are ranked by the objective pull (nearer Bastogne, St. Vith,
  the Meuse and the exits is better, :data:`GERMAN_PULL` a hex), a road into the hex
  (:data:`GERMAN_ROAD`) and the Allied strength within two hexes (:data:`GERMAN_WEAK` a point,
  weak sectors first); the strongest front-line units take the best hexes. Rear units
  (mostly the panzer divisions) take the rear road hexes nearest the objectives.
* **Allied**: front-line hexes ranked by town (:data:`ALLIED_TOWN`), road junction and road
  (:data:`ALLIED_ROAD`), rough terrain, and the German strength facing them (the threatened
  sectors); the strongest units take the best. Rear units go into the key towns in the order of
  :data:`ALLIED_KEY_TOWNS` (Bastogne, St. Vith, Houffalize, then the Meuse bridge towns),
  strongest first; any left over take the rear town hexes nearest the front.

Ties go by hex id and unit id: no randomness, so the placement is the same in every game of a
scenario. :func:`placement` is the target set-up, :func:`place_orders` the commands,
:func:`setup_command` the bot's next one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules import HexId
from rules.ao import (
    Applied,
    Board,
    Command,
    Game,
    GameState,
    Place,
    Side,
    apply,
    front_line,
    front_line_units,
    other_side,
    rear_area,
)
from rules.ao.bots.context import Context
from rules.hexgrid import distance

GERMAN_PULL: Final = 3
GERMAN_ROAD: Final = 6
GERMAN_WEAK: Final = 1
GERMAN_CONTACT: Final = 8
WEAK_ENEMY: Final = 4
"""German: an adjacent Allied hex of this strength or less is a target for a strong unit."""
ALLIED_TOWN: Final = 12
ALLIED_JUNCTION: Final = 6
ALLIED_ROAD: Final = 4
ALLIED_ROUGH: Final = 2
ALLIED_THREAT: Final = 1
ALLIED_KEY_TOWNS: Final = (
    "Bastogne",
    "St. Vith",
    "Houffalize",
    "Liège",
    "Huy",
    "Namur",
    "Dinant",
    "Givet",
    "Andenne",
)


def _strength_near(board: Board, state: GameState, side: Side, h: HexId, r: int) -> int:
    return sum(
        board.defs[u.id].strength
        for u in state.units
        if u.in_play
        and u.hex is not None
        and board.defs[u.id].side == side
        and distance(u.hex, h) <= r
    )


def _weak_neighbours(board: Board, state: GameState, side: Side, h: HexId) -> int:
    """Adjacent hexes holding ``side``'s units of :data:`WEAK_ENEMY` strength or less."""
    n = 0
    for x in board.game_map.neighbours(h):
        here = [board.defs[u.id].strength for u in state.at(x) if board.defs[u.id].side == side]
        if here and sum(here) <= WEAK_ENEMY:
            n += 1
    return n


def _road(board: Board, h: HexId) -> int:
    m = board.game_map
    return sum(1 for n in m.neighbours(h) if m.side(h, n).road)


def _assign(units: list[str], hexes: Mapping[HexId, int], board: Board) -> dict[str, HexId]:
    """Strongest unit to the best hex (score, then hex id), one unit a hex."""
    order = sorted(hexes, key=lambda h: (-hexes[h], h))
    ranked = sorted(units, key=lambda u: (-board.defs[u].strength, u))
    return dict(zip(ranked, order, strict=False))


def placement(
    board: Board, state: GameState, side: Side, objective: Mapping[HexId, int]
) -> dict[str, HexId]:
    """Where the bot of ``side`` wants each of its set-up units (unit id -> hex).
    ``objective``: the German objective potential (``rules.ao.bots.fields.Fields.objective``)."""
    m = board.game_map
    front = front_line(m, side)
    rear = rear_area(m, side)
    front_units = front_line_units(board)
    enemy = other_side(side)
    mine = sorted(
        u.id
        for u in state.units
        if u.status == "on_map" and u.hex is not None and board.defs[u.id].side == side
    )
    fl = [u for u in mine if u in front_units]
    rr = [u for u in mine if u not in front_units]
    towns = m.towns()
    if side == "german":
        obj = objective
        fscore: dict[HexId, int] = {
            h: -GERMAN_PULL * obj.get(h, 60)
            + GERMAN_ROAD * min(_road(board, h), 2)
            + GERMAN_CONTACT * _weak_neighbours(board, state, enemy, h)
            - GERMAN_WEAK * _strength_near(board, state, enemy, h, 3)
            for h in front
        }
        out = _assign(fl, fscore, board)
        road_hexes = {h for h in rear if _road(board, h) > 0}
        near = {h for h in road_hexes if any(distance(h, f) <= 3 for f in out.values())}
        rscore = {h: -obj.get(h, 60) for h in (near or road_hexes)}
        out |= _assign(rr, rscore, board)
        return out
    fscore = {}
    for h in front:
        town = m.hex(h).town is not None
        roads = _road(board, h)
        fscore[h] = (
            ALLIED_TOWN * town
            + ALLIED_JUNCTION * (roads >= 3)
            + ALLIED_ROAD * (roads > 0)
            + ALLIED_ROUGH * (m.hex(h).terrain == "rough")
            + ALLIED_THREAT * _strength_near(board, state, enemy, h, 2)
        )
    out = _assign(fl, fscore, board)
    ranked = sorted(rr, key=lambda u: (-board.defs[u].strength, u))
    keys = [towns[n] for n in ALLIED_KEY_TOWNS if n in towns and towns[n] in rear]
    for uid, h in zip(ranked, keys, strict=False):
        out[uid] = h
    left = ranked[len(keys) :]
    if left:
        used = set(out.values())
        spare = sorted(
            (h for h in rear if m.hex(h).town is not None and h not in used),
            key=lambda h: (min(distance(h, f) for f in front), h),
        )
        out |= dict(zip(left, spare, strict=False))
    return out


def place_orders(
    board: Board, state: GameState, side: Side, objective: Mapping[HexId, int]
) -> list[Place]:
    """``Place`` commands that turn the present set-up into :func:`placement`, one unit a hex
    at every step: a unit goes to its hex once it is empty; a cycle of units waiting for each
    other's hexes is broken by parking one on an empty hex of its own area."""
    return orders_to(board, state, side, placement(board, state, side, objective))


def orders_to(board: Board, state: GameState, side: Side, want: Mapping[str, HexId]) -> list[Place]:
    """``Place`` commands that move ``side``'s set-up units to ``want`` (unit id -> hex), one
    unit a hex at every step (see :func:`place_orders`)."""
    m = board.game_map
    front = front_line(m, side)
    rear = rear_area(m, side)
    front_units = front_line_units(board)
    where = {u.id: u.hex for u in state.units if u.status == "on_map" and u.hex is not None}
    taken: dict[HexId, str] = {h: uid for uid, h in where.items() if h is not None}
    pending = sorted(uid for uid, h in want.items() if where.get(uid) != h)
    out: list[Place] = []
    targets = set(want.values())

    def place(uid: str, h: HexId) -> None:
        old = where[uid]
        if old is not None:
            del taken[old]
        taken[h] = uid
        where[uid] = h
        out.append(Place(uid, h))

    while pending:
        moved = False
        for uid in list(pending):
            h = want[uid]
            if h in taken:
                continue
            place(uid, h)
            pending.remove(uid)
            moved = True
        if moved:
            continue
        uid = pending[0]
        area = front if uid in front_units else rear
        park = next((h for h in sorted(area) if h not in taken and h not in targets), None)
        if park is None:
            break
        place(uid, park)
    return out


def setup_command(ctx: Context, game: Game) -> Command | None:
    """The next ``Place`` of the planned rearrangement (planned at the bot's first set-up
    command) that the engine accepts; None for a historical set-up or when done."""
    board, state = game.board, game.state
    if state.side != ctx.side:
        return None
    if ctx.orders is None:
        if game.options().setup != "free":
            return None
        ctx.orders = place_orders(board, state, ctx.side, ctx.fields(board).objective)
    while ctx.orders:
        cmd = ctx.orders.pop(0)
        if isinstance(apply(board, state, cmd), Applied):
            return cmd
    return None


__all__ = ["orders_to", "place_orders", "placement", "setup_command"]
