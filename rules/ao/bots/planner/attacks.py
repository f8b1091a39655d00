"""The planner's Combat Phase: which attacks to make, chosen by the expected value of the whole
batch (:mod:`rules.ao.bots.planner.expected`).

1. **Candidates.** For every enemy hex next to free units of the phasing side (not on an
   Allied Map Edge hex, AO-5.3M; not attacked yet, AO-9.1C) every group of up to
   :data:`MAX_GROUP_UNITS` of the adjacent free units is an attack; its odds (AO-9.3K, the
   defenders' supply judged now, AO-12.4K) and each lower column it may declare (AO-9.4L; the
   German never below 2-1, AO-9.4L*) give its outcomes - which defenders cannot retreat
   1, 2 or 3 hexes (:func:`rules.ao.bots.retreats.trapped`), immunity in a town or the West Wall
   (AO-11.f, AO-11.h), the Ex loss (AO-10.1b), which attackers an Ar would trap - and its
   expected value. Each hex keeps its best few groups (:data:`KEEP`).
2. **Allocation.** A branch-and-bound search over the hexes picks the set of attacks with
   disjoint attackers (AO-9.1C) of the highest summed expected value.
3. **Look-ahead.** The best few sets are valued exactly as batches (:func:`batch_value`): an
   attack that clears its hex (the defenders dead or gone) changes the retreats of the attacks
   after it - the hex no longer negates zones of control, and a mechanized attacker advancing
   into it (AO-9.6N) extends them - so each attack's outcomes are recomputed for every set
   of hexes emptied before it. The order is chosen too: the most valuable attack first, or
   the attacks most likely to empty their hex first, whichever batch is worth more.

The bot declares the first attack of the best batch and plans again after its resolution
(or, in an email game, declares the whole batch at once). Pure and deterministic: ties go by
hex id and unit ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Final

import msgspec

from rules import HexId, Rejection, hexgrid
from rules.ao import (
    Board,
    GameState,
    Side,
    Supply,
    attack_strength_in,
    crt,
    defence_strength_in,
    defender_supply,
    immunity_case,
    odds_column,
    other_side,
)
from rules.ao.bots.attack import ex_losses
from rules.ao.bots.planner.expected import (
    BatchItem,
    Outcome,
    Sides,
    Weights,
    batch_value,
    expected_numerator,
    outcomes,
)
from rules.ao.bots.retreats import RetreatContext, has_retreat, trapped

MAX_GROUP_UNITS: Final = 6
"""Attack groups are drawn from the strongest this many free units next to the hex."""
KEEP: Final = 6
"""Groups kept per hex for the allocation search (the best by expected value, and the best
of each size)."""
SEARCH_NODES: Final = 4000
"""The allocation search stops after this many nodes (the best found so far stands)."""
TOP_BATCHES: Final = 4
"""Batches valued exactly (with the interactions) after the allocation search."""
INTERACTION: Final = 4
"""An attack's retreats depend on the hexes cleared within this distance before it."""
GERMAN_LOWEST: Final = "2-1"
"""The German may not declare odds below 2-1 (AO-9.4L*)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One attack: ``attackers`` on ``hex`` at ``column`` (``odds`` to declare: None for the
    real odds), six times its expected value (``numerator``, thousandths of a VP) and the die
    faces that empty the hex (every defender eliminated)."""

    hex: HexId
    attackers: tuple[str, ...]
    column: str
    odds: str | None
    numerator: int
    empty_faces: int


class AttackBoard:
    """The Combat Phase position as the planner sees it: who may still attack and be attacked,
    the defenders' supply, and cached retreat checks."""

    def __init__(
        self,
        board: Board,
        state: GameState,
        side: Side,
        weights: Weights,
        clear_bonus: Callable[[HexId], int],
        table: str,
    ) -> None:
        self.board = board
        self.state = state
        self.side: Side = side
        self.enemy: Side = other_side(side)
        self.weights = weights
        self.clear_bonus = clear_bonus
        self.table = table
        self.supply: Mapping[str, Supply] = defender_supply(board, state, self.enemy)
        self.rctx_enemy = RetreatContext(board, state, self.enemy)
        self.rctx_own = RetreatContext(board, state, side)
        self._trapped: dict[HexId, tuple[int, int, int]] = {}
        self._att_trapped: dict[tuple[str, int], bool] = {}
        busy = {x for a in state.combat.declared for x in a.attackers}
        attacked = {h for a in state.combat.declared for h in a.defenders}
        m = board.game_map
        self.free: dict[HexId, list[str]] = {}
        for u in state.units:
            if not u.in_play or u.hex is None or board.defs[u.id].side != self.enemy:
                continue
            h = u.hex
            if h in self.free or h in attacked or m.is_allied_edge(h):
                continue
            if any(o.was_attacked for o in state.at(h)):
                continue
            near: list[str] = []
            for n in m.neighbours(h):
                if m.is_allied_edge(n):
                    continue
                for o in state.at(n):
                    if board.defs[o.id].side == side and not o.attacked and o.id not in busy:
                        near.append(o.id)
            if near:
                near.sort(key=lambda x: (-board.defs[x].strength, x))
                self.free[h] = near[:MAX_GROUP_UNITS]

    # -- outcomes -------------------------------------------------------------------------------

    def defenders(self, h: HexId) -> list[str]:
        return [o.id for o in self.state.at(h)]

    def trapped(self, h: HexId) -> tuple[int, int, int]:
        """How many defenders in ``h`` have no legal 1-, 2-, 3-hex retreat now."""
        hit = self._trapped.get(h)
        if hit is None:
            hit = trapped(self.board, self.state, h, self.rctx_enemy)
            self._trapped[h] = hit
        return hit

    def attacker_trapped(self, uid: str, n: int) -> bool:
        """``uid`` has no legal ``n``-hex retreat (an Ar ``n`` eliminates it)."""
        key = (uid, n)
        hit = self._att_trapped.get(key)
        if hit is None:
            hit = not has_retreat(self.board, self.state, uid, n, self.rctx_own)
            self._att_trapped[key] = hit
        return hit

    def sides(self, h: HexId, group: Sequence[str], stuck: tuple[int, int, int]) -> Sides:
        """The :class:`Sides` of ``group`` attacking ``h`` with ``stuck`` trapped counts."""
        b, s = self.board, self.state
        defs = [b.defs[x] for x in self.defenders(h)]
        immune = any(immunity_case(b, s, x) is not None for x in self.defenders(h))
        movable = [a for a in group if immunity_case(b, s, a) is None]
        att = tuple(sum(1 for a in movable if self.attacker_trapped(a, n)) for n in (1, 2, 3))
        ex = ex_losses([b.defs[a] for a in group], sum(d.strength for d in defs))
        return Sides(
            defenders=len(defs),
            trapped=stuck,
            immune=immune,
            ex_loss=ex,
            attackers=len(movable),
            att_trapped=(att[0], att[1], att[2]),
        )

    def weights_for(self, h: HexId) -> Weights:
        return replace(self.weights, clear=self.weights.clear + self.clear_bonus(h))

    # -- candidates ----------------------------------------------------------------------------

    def candidates(self, h: HexId) -> list[Candidate]:
        """The groups worth keeping against ``h`` (see :data:`KEEP`), best first."""
        b, s = self.board, self.state
        units = self.defenders(h)
        sup = {x: self.supply.get(x, "supplied") for x in units}
        dfn = defence_strength_in(b, s, (h,), supply=sup, retreated=s.combat.retreated)
        stuck = self.trapped(h)
        w = self.weights_for(h)
        free = self.free.get(h, [])
        found: list[Candidate] = []
        strength: dict[tuple[str, ...], int] = {}
        for k in range(1, len(free) + 1):
            for group in combinations(free, k):
                g = tuple(sorted(group))
                att = attack_strength_in(b, s, g)
                strength[g] = att
                col = odds_column(att, dfn)
                if isinstance(col, Rejection):
                    continue
                best: Candidate | None = None
                for c in self._columns(col):
                    outs = outcomes(self.table, c, self.sides(h, g, stuck))
                    num = expected_numerator(outs, w)
                    if best is None or num > best.numerator:
                        clear = sum(o.faces for o in outs if o.emptied)
                        best = Candidate(h, g, c, None if c == col else c, num, clear)
                if best is not None:
                    found.append(best)
        found.sort(key=lambda c: (-c.numerator, len(c.attackers), c.attackers))
        keep: list[Candidate] = found[:KEEP]
        sizes: set[int] = {len(c.attackers) for c in keep}
        for extra in found[KEEP:]:
            if len(extra.attackers) not in sizes:
                sizes.add(len(extra.attackers))
                keep.append(extra)
        return keep

    def _columns(self, real: str) -> list[str]:
        """``real`` and every column below it the attacker may declare (AO-9.4L, AO-9.4L*)."""
        i = crt.ODDS_COLUMNS.index(real)
        low = crt.ODDS_COLUMNS.index(GERMAN_LOWEST) if self.side == "german" else 0
        return [real] + [crt.ODDS_COLUMNS[j] for j in range(i - 1, low - 1, -1)]

    # -- the batch -----------------------------------------------------------------------------

    def given(self, c: Candidate, batch: Sequence[Candidate]) -> BatchItem:
        """``c`` as a :class:`BatchItem`: its outcomes given the hexes of ``batch`` cleared
        before it (their defenders gone, the strongest mechanized attacker advanced)."""
        relevant = frozenset(
            o.hex for o in batch if o.hex != c.hex and hexgrid.distance(o.hex, c.hex) <= INTERACTION
        )
        by_hex = {o.hex: o for o in batch}
        base = outcomes(self.table, c.column, self.sides(c.hex, c.attackers, self.trapped(c.hex)))

        def given(cleared: frozenset[HexId]) -> Sequence[Outcome]:
            if not cleared:
                return base
            st = self.cleared_state(cleared, by_hex)
            stuck = trapped(self.board, st, c.hex, RetreatContext(self.board, st, self.enemy))
            return outcomes(self.table, c.column, self.sides(c.hex, c.attackers, stuck))

        return BatchItem(hex=c.hex, weights=self.weights_for(c.hex), given=given, relevant=relevant)

    def cleared_state(
        self, cleared: frozenset[HexId], by_hex: Mapping[HexId, Candidate]
    ) -> GameState:
        """The position with the defenders of ``cleared`` gone and, for each, the strongest
        mechanized unit of the attack that cleared it advanced into it (AO-9.6N)."""
        b, s = self.board, self.state
        rows = []
        for h in sorted(cleared):
            for o in s.at(h):
                rows.append(msgspec.structs.replace(o, hex=None, status="eliminated"))
            mech = [a for a in by_hex[h].attackers if b.defs[a].mechanized]
            if mech:
                a = max(mech, key=lambda x: (b.defs[x].strength, x))
                rows.append(msgspec.structs.replace(s.unit(a), hex=h))
        return s.replace_units(rows)

    def batch_value(self, batch: Sequence[Candidate]) -> Fraction:
        """The exact expected value of ``batch`` resolved in its order (thousandths of a VP)."""
        return batch_value([self.given(c, batch) for c in batch])


def allocate(
    options: Mapping[HexId, Sequence[Candidate]], top: int = TOP_BATCHES
) -> list[tuple[int, tuple[Candidate, ...]]]:
    """The ``top`` sets of attacks with disjoint attackers and the highest summed
    ``numerator`` (branch and bound over the hexes, best hex first; at most
    :data:`SEARCH_NODES` nodes), best first; only attacks of positive value."""
    hexes = sorted(
        (h for h, cs in options.items() if cs and cs[0].numerator > 0),
        key=lambda h: (-options[h][0].numerator, h),
    )
    bound = [0] * (len(hexes) + 1)
    for i in range(len(hexes) - 1, -1, -1):
        bound[i] = bound[i + 1] + options[hexes[i]][0].numerator
    found: list[tuple[int, tuple[Candidate, ...]]] = []
    nodes = 0

    def floor() -> int:
        return found[-1][0] if len(found) >= top else -1

    def walk(i: int, used: frozenset[str], value: int, chosen: tuple[Candidate, ...]) -> None:
        nonlocal nodes
        nodes += 1
        if i == len(hexes) or nodes > SEARCH_NODES:
            if chosen and value > floor():
                found.append((value, chosen))
                found.sort(key=lambda x: (-x[0], [(c.hex, c.attackers) for c in x[1]]))
                del found[top:]
            return
        if value + bound[i] <= floor():
            return
        for c in options[hexes[i]]:
            if c.numerator <= 0 or used.intersection(c.attackers):
                continue
            walk(i + 1, used | set(c.attackers), value + c.numerator, (*chosen, c))
        walk(i + 1, used, value, chosen)

    walk(0, frozenset(), 0, ())
    return found


def orders(batch: Sequence[Candidate]) -> list[tuple[Candidate, ...]]:
    """The orders a batch is tried in: the most valuable attack first, and the attacks most
    likely to empty their hex first (an emptied hex closes retreats for the attacks after
    it); ties by hex."""
    by_value = tuple(sorted(batch, key=lambda c: (-c.numerator, c.hex)))
    by_kill = tuple(sorted(batch, key=lambda c: (-c.empty_faces, -c.numerator, c.hex)))
    return [by_value] if by_kill == by_value else [by_value, by_kill]


def best_batch(ab: AttackBoard, min_numerator: int) -> tuple[Candidate, ...]:
    """The batch to make: of the best allocations (:func:`allocate`) of attacks worth at least
    ``min_numerator`` (six times the expected value) each, the one whose exact batch value
    (:meth:`AttackBoard.batch_value`, attacks most likely to clear first) is highest."""
    options: dict[HexId, list[Candidate]] = {}
    for h in sorted(ab.free):
        cs = [c for c in ab.candidates(h) if c.numerator >= min_numerator]
        if cs:
            options[h] = cs
    tops = allocate(options)
    best: tuple[Fraction, tuple[Candidate, ...]] | None = None
    for _value, batch in tops:
        for ordered in orders(batch):
            v = ab.batch_value(ordered) if len(ordered) > 1 else Fraction(ordered[0].numerator, 6)
            if best is None or v > best[0]:
                best = (v, ordered)
    return best[1] if best is not None else ()


__all__ = [
    "GERMAN_LOWEST",
    "AttackBoard",
    "Candidate",
    "allocate",
    "best_batch",
    "orders",
]
