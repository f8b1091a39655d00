"""Combat Phase: which attacks the bots declare, each checked with :func:`ao.apply` before
it is given; ``ResolveAttacks`` once one is declared, or (``batch``) once no other attack is
worth declaring: every attack of the batch is then resolved together (an email game in sealed
mode then costs one reply and one resolution per Combat Phase, not per attack).

* Game-Turn 1, German (AO-4.2h*): every American unit still to be attacked and every German
  unit that still has to attack, single-hex first, then multi-hex round one German unit.
* German: of every enemy hex next to free units, the best-valued group (:func:`best_attack`,
  the expected value of :mod:`rules.ao.bots.attack`), the best hex first, if worth
  :data:`MIN_VALUE`.
* Allied: attackers added strongest first until :data:`ENOUGH_ODDS`, the best odds first, at
  least :func:`min_odds`; the declared odds avoid Ex and Ar (:func:`declared_odds`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from rules import HexId, Rejection
from rules.ao import (
    Applied,
    Board,
    Command,
    DeclareAttack,
    Game,
    GameState,
    ResolveAttacks,
    Supply,
    apply,
    attack_strength_in,
    crt,
    defence_strength_in,
    defender_supply,
    gt1_unmet,
    immunity_case,
    odds_column,
    other_side,
)
from rules.ao.bots.attack import attack_value
from rules.ao.bots.context import Context
from rules.ao.bots.fields import Fields
from rules.ao.bots.retreats import RetreatContext, trapped

GOOD_TERRAIN: Final = ("rough",)
GERMAN_ODDS: Final = "3-1"
GERMAN_ODDS_GOOD_TERRAIN: Final = "2-1"
GERMAN_ODDS_INITIAL_CRT: Final = "2-1"
ALLIED_ODDS: Final = "3-1"
MIN_VALUE: Final = 0.15
"""The German attacks a hex when the attack's expected value (:mod:`rules.ao.bots.attack`) is at
least this."""
NEAR_ENOUGH: Final = 0.05
"""Of the attacker groups of one hex, the smallest within this of the best value is used."""
ROAD_TARGET: Final = 0.15
"""Bonus to the value of attacking a town or road junction (it opens the roads)."""
ENOUGH_ODDS: Final = "4-1"
"""Attackers are added, strongest first, until the odds reach this column (then
:func:`declared_odds` may lower the declared odds)."""


def column_rank(column: str) -> int:
    """Position of ``column`` in :data:`rules.ao.crt.ODDS_COLUMNS` (1-2 is 0, 9-1 is 9)."""
    return crt.ODDS_COLUMNS.index(column)


def declared_odds(table: str, column: str) -> str | None:
    """The odds to declare (AO-9.4L) for an attack at real odds ``column`` on ``table``: keep
    a column with three or more De results; else reduce to the best column at or below it
    with neither Ex nor Ar (no loss to the attacker) - 3-1 on the German Initial CRT, 4-1 on
    the Standard CRT. None: declare the real odds."""
    rows = crt.TABLES[cast(Any, table)]
    i = column_rank(column)
    kinds = [r[i].kind for r in rows]
    if kinds.count("De") >= 3:
        return None
    for j in range(i, -1, -1):
        if all(r[j].kind not in ("Ex", "Ar") for r in rows):
            return None if j == i else crt.ODDS_COLUMNS[j]
    return None


def min_odds(f: Fields, board: Board, state: GameState, target: HexId) -> str:
    """The lowest odds the phasing side's bot attacks ``target`` at: the German 2-1 anywhere
    while he uses the Initial CRT (its 2-1 column has no attacker result), then 3-1, or 2-1
    when the defender is in a town or rough terrain; the Allies 3-1."""
    if state.side != "german":
        return ALLIED_ODDS
    if state.german_crt == "initial":
        return GERMAN_ODDS_INITIAL_CRT
    good = target in f.towns or board.game_map.hex(target).terrain in GOOD_TERRAIN
    return GERMAN_ODDS_GOOD_TERRAIN if good else GERMAN_ODDS


def attack(ctx: Context, game: Game, batch: bool = False) -> Command | None:
    """The next attack to declare, ``ResolveAttacks`` once one is declared (``batch``: once
    no other is found), or None."""
    board, state = game.board, game.state
    if state.combat.declared and not batch:
        return ResolveAttacks()
    cmd = _next_attack(ctx, board, state)
    if cmd is None and state.combat.declared:
        return ResolveAttacks()
    return cmd


def _next_attack(ctx: Context, board: Board, state: GameState) -> Command | None:
    if state.turn == 1 and ctx.side == "german" and state.combat.obliged:
        cmd = _gt1(ctx, board, state)
        if cmd is not None:
            return cmd
    if ctx.side == "german":
        return _german_attack(ctx, board, state)
    return _allied_attack(ctx, board, state)


def _free_attackers(ctx: Context, board: Board, state: GameState, h: HexId) -> list[str]:
    busy = {x for a in state.combat.declared for x in a.attackers}
    m = board.game_map
    out = []
    for n in m.neighbours(h):
        for o in state.at(n):
            if (
                board.defs[o.id].side == ctx.side
                and not o.attacked
                and o.id not in busy
                and not m.is_allied_edge(n)
            ):
                out.append(o.id)
    return sorted(out, key=lambda x: (-board.defs[x].strength, x))


def _try(
    board: Board,
    state: GameState,
    attackers: Iterable[str],
    hexes: tuple[HexId, ...],
    odds: str | None = None,
) -> Command | None:
    cmd = DeclareAttack(tuple(sorted(attackers)), hexes, odds=odds)
    return cmd if isinstance(apply(board, state, cmd), Applied) else None


def _gt1(ctx: Context, board: Board, state: GameState) -> Command | None:
    us_left, de_left = gt1_unmet(board, state)
    m = board.game_map
    targets: list[HexId] = []
    for uid in us_left:
        h = state.unit(uid).hex
        if h is not None and h not in targets:
            targets.append(h)
    for gid in de_left:
        g = state.unit(gid).hex
        assert g is not None
        for n in m.neighbours(g):
            if n in targets or m.is_allied_edge(n):
                continue
            if any(board.defs[o.id].side != ctx.side and not o.was_attacked for o in state.at(n)):
                targets.append(n)
    for h in targets:
        att = _free_attackers(ctx, board, state, h)
        if not att:
            continue
        cmd = _try(board, state, att, (h,))
        if cmd is None:  # the whole neighbourhood is refused: one at a time
            for a in att:
                cmd = _try(board, state, [a], (h,))
                if cmd is not None:
                    break
        if cmd is not None:
            return cmd
    # a German unit next to several American hexes must attack them all at once
    # (free set-ups put one unit a hex): every American hex next to it, with every free
    # German unit next to all of them
    for gid in de_left:
        g = state.unit(gid).hex
        assert g is not None
        hexes = tuple(
            sorted(
                n
                for n in m.neighbours(g)
                if not m.is_allied_edge(n)
                and any(
                    board.defs[o.id].side != ctx.side and not o.was_attacked for o in state.at(n)
                )
            )
        )
        if not hexes:
            continue
        common = set(_free_attackers(ctx, board, state, hexes[0]))
        for h in hexes[1:]:
            common &= set(_free_attackers(ctx, board, state, h))
        cmd = _try(board, state, common | {gid}, hexes)
        if cmd is not None:
            return cmd
    return None


def _targets(ctx: Context, board: Board, state: GameState) -> list[HexId]:
    """Enemy hexes not yet considered this phase, not attacked, not on an Allied Map Edge."""
    m = board.game_map
    return sorted(
        {
            u.hex
            for u in state.units
            if u.in_play
            and u.hex is not None
            and board.defs[u.id].side != ctx.side
            and not m.is_allied_edge(u.hex)
            and u.hex not in ctx.done
            and not any(o.was_attacked for o in state.at(u.hex))
        }
    )


def _allied_attack(ctx: Context, board: Board, state: GameState) -> Command | None:
    enemy = other_side(ctx.side)
    targets = _targets(ctx, board, state)
    if not targets:
        return None
    f = ctx.fields(board)
    supply = defender_supply(board, state, enemy)
    enough = column_rank(ENOUGH_ODDS)
    options: list[tuple[int, HexId, tuple[str, ...]]] = []
    for h in targets:
        free = _free_attackers(ctx, board, state, h)
        if not free:
            ctx.done.add(h)
            continue
        sup = {o.id: supply.get(o.id, "supplied") for o in state.at(h)}
        dfn = defence_strength_in(board, state, (h,), supply=sup, retreated=state.combat.retreated)
        chosen: list[str] = []
        rank = -1
        for a in free:
            chosen.append(a)
            col = odds_column(attack_strength_in(board, state, chosen), dfn)
            rank = -1 if isinstance(col, Rejection) else column_rank(col)
            if rank >= enough:
                break
        if rank >= column_rank(min_odds(f, board, state, h)):
            options.append((rank, h, tuple(chosen)))
        else:
            ctx.done.add(h)
    table = crt.crt_for(state)
    while options:
        top = max(o[0] for o in options)
        pick = ctx.rng.choice([o for o in options if o[0] == top])
        options.remove(pick)
        ctx.done.add(pick[1])
        # the Allies avoid Ex (each of their losses is a German VP); the German bot scores
        # its attacks by expected value instead (_german_attack)
        odds = declared_odds(table, crt.ODDS_COLUMNS[pick[0]])
        cmd = _try(board, state, pick[2], (pick[1],), odds)
        if cmd is None and odds is not None:
            cmd = _try(board, state, pick[2], (pick[1],))
        if cmd is not None:
            return cmd
    return None


def _german_attack(ctx: Context, board: Board, state: GameState) -> Command | None:
    """One attack at a time: of every enemy hex next to free units, the best-valued group
    (:func:`best_attack`); the best hex first (random among equals), if worth
    :data:`MIN_VALUE`."""
    targets = _targets(ctx, board, state)
    options: list[tuple[float, HexId, tuple[str, ...]]] = []
    enemy = other_side(ctx.side)
    supply = defender_supply(board, state, enemy) if targets else {}
    rctx = RetreatContext(board, state, enemy) if targets else None
    f = ctx.fields(board)
    for h in targets:
        free = _free_attackers(ctx, board, state, h)
        if not free:
            ctx.done.add(h)
            continue
        key = (h, tuple(sorted(o.id for o in state.at(h))))
        if key not in ctx.trapped:  # once a phase per defending stack: retreats are slow
            ctx.trapped[key] = trapped(board, state, h, rctx)
        best = best_attack(f, board, state, h, free, supply, ctx.trapped[key])
        if best is None or best[0] < MIN_VALUE:
            ctx.done.add(h)
            continue
        options.append((best[0], h, best[1]))
    while options:
        top = max(o[0] for o in options)
        pick = ctx.rng.choice([o for o in options if o[0] == top])
        options.remove(pick)
        cmd = _try(board, state, pick[2], (pick[1],))
        if cmd is not None:
            return cmd
        ctx.done.add(pick[1])
    return None


def best_attack(
    f: Fields,
    board: Board,
    state: GameState,
    h: HexId,
    free: list[str],
    supply: Mapping[str, Supply] | None = None,
    stuck: tuple[int, int, int] | None = None,
) -> tuple[float, tuple[str, ...]] | None:
    """The German bot's best group against ``h`` among ``free`` (strongest first; each prefix
    is scored by :func:`rules.ao.bots.attack.attack_value` on the CRT in use): (value, group), the
    smallest group within :data:`NEAR_ENOUGH` of the best value, or None when no group scores.
    ``stuck``: :func:`rules.ao.bots.retreats.trapped` of ``h`` (computed when None)."""
    table = crt.crt_for(state)
    enemy = other_side(state.side)
    if supply is None:
        supply = defender_supply(board, state, enemy)
    sup = {o.id: supply.get(o.id, "supplied") for o in state.at(h)}
    dfn = defence_strength_in(board, state, (h,), supply=sup, retreated=state.combat.retreated)
    defs = [board.defs[o.id] for o in state.at(h)]
    if not defs:
        return None
    if stuck is None:
        stuck = trapped(board, state, h)
    immune = any(immunity_case(board, state, o.id) is not None for o in state.at(h))
    bonus = ROAD_TARGET if (h in f.towns or h in f.junctions) else 0.0
    scored: list[tuple[float, tuple[str, ...]]] = []
    group: list[str] = []
    for a in free:
        group.append(a)
        col = odds_column(attack_strength_in(board, state, group), dfn)
        if isinstance(col, Rejection):
            continue
        v = attack_value(table, col, [board.defs[x] for x in group], defs, stuck, immune)
        scored.append((v.value + bonus, tuple(group)))
        if col == crt.ODDS_COLUMNS[-1]:
            break
    if not scored:
        return None
    top = max(v for v, _ in scored)
    return next((v, g) for v, g in scored if v >= top - NEAR_ENOUGH)


__all__ = [
    "ALLIED_ODDS",
    "MIN_VALUE",
    "attack",
    "best_attack",
    "declared_odds",
    "min_odds",
]
