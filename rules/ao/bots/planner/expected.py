"""Exact expected values of attacks and of a whole batch of attacks (the planner's look-ahead
in the Combat Phase), in integer arithmetic.

An attack's die roll (AO-9.3, AO-10.0) gives one of at most six results of its CRT column;
:func:`outcomes` groups the six faces by result and says what each does (AO-10.1):

* ``De``: every defender eliminated;
* ``Ex``: every defender eliminated, and the attacker loses units whose printed strengths
  reach the defenders' (AO-10.1b: the caller gives how many, the least-strength minimal set);
* ``Dr n``: the defenders retreat ``n`` hexes; each one with no legal ``n``-hex retreat is
  eliminated (AO-10.2b); nothing happens to defenders immune in a town or behind the West
  Wall (AO-11.f, AO-11.h);
* ``Ar n``: the attackers retreat ``n`` hexes, each one without a legal retreat eliminated
  (AO-10.2b), attackers in a town (or a German in the West Wall) unaffected (AO-11.f/h).

Values are integers in thousandths of a Victory Point (:data:`SCALE`), weighted by
:class:`Weights`. A batch is resolved in the order declared, and an earlier attack that clears
its hex (every defender eliminated) changes the retreats of a later one (an Allied stack gone
no longer negates German zones of control, an advancing panzer extends them, AO-7.2B,
AO-9.6N): :func:`batch_value`
enumerates the joint die outcomes of the batch, each attack's outcomes computed given which
earlier hexes were emptied, and returns the exact expected value as a
:class:`fractions.Fraction` (the sum over joint outcomes of faces x value, over ``6**k``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, cast

from rules import HexId
from rules.ao import crt

SCALE: Final = 1000
"""Values are in thousandths of a Victory Point."""
FACES: Final = 6


@dataclass(frozen=True, slots=True)
class Weights:
    """What one side's bot counts, in thousandths of a VP: ``kill`` per enemy unit
    eliminated, ``loss`` per own unit eliminated, ``ground`` per hex a surviving defender is
    pushed back, ``repulse`` per hex an own attacker is pushed back, ``clear`` for emptying the
    defending hex (an advance, the roads open)."""

    kill: int
    loss: int
    ground: int
    repulse: int
    clear: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """One distinct result of an attack: how many die ``faces`` (of six) give it, and what it
    does - enemy units ``kills``, own ``losses``, defender-hexes ``pushed``, attacker-hexes
    ``repulsed``, the defending hex ``cleared`` (its defenders dead or retreated: an advance
    is possible) and ``emptied`` (every defender dead: the hex no longer negates zones of
    control and nobody retreated into the neighbourhood)."""

    faces: int
    result: str
    kills: int
    losses: int
    pushed: int
    repulsed: int
    cleared: bool
    emptied: bool = False

    def value(self, w: Weights) -> int:
        """The value of this outcome under ``w`` (thousandths of a VP)."""
        return (
            w.kill * self.kills
            - w.loss * self.losses
            + w.ground * self.pushed
            - w.repulse * self.repulsed
            + (w.clear if self.cleared else 0)
        )


@dataclass(frozen=True, slots=True)
class Sides:
    """What decides an attack's outcomes besides the die: ``defenders`` (how many), their
    ``trapped[n-1]`` (how many have no legal ``n``-hex retreat), ``immune`` (Dr has no effect),
    ``ex_loss`` (attacker units an Ex costs), ``attackers`` (how many can be pushed back: not
    immune) and ``att_trapped[n-1]`` (how many of those have no legal ``n``-hex retreat)."""

    defenders: int
    trapped: tuple[int, int, int]
    immune: bool
    ex_loss: int
    attackers: int
    att_trapped: tuple[int, int, int]


def outcomes(table: str, column: str, s: Sides) -> tuple[Outcome, ...]:
    """The distinct results of an attack at ``column`` of ``table`` (``"initial"`` or
    ``"standard"``), in the order of their first die face, with their face counts."""
    rows = crt.TABLES[cast(Any, table)]
    i = crt.ODDS_COLUMNS.index(column)
    counts: dict[str, int] = {}
    cells: dict[str, crt.Result] = {}
    for row in rows:
        r = row[i]
        key = str(r)
        counts[key] = counts.get(key, 0) + 1
        cells[key] = r
    out: list[Outcome] = []
    for key, n in counts.items():
        r = cells[key]
        if r.kind in ("De", "Ex"):
            loss = s.ex_loss if r.kind == "Ex" else 0
            out.append(Outcome(n, key, s.defenders, loss, 0, 0, True, True))
        elif r.kind == "Dr":
            if s.immune:
                out.append(Outcome(n, key, 0, 0, 0, 0, False))
            else:
                dead = s.trapped[min(r.hexes, 3) - 1]
                pushed = r.hexes * (s.defenders - dead)
                out.append(Outcome(n, key, dead, 0, pushed, 0, True, dead == s.defenders))
        else:
            dead = s.att_trapped[min(r.hexes, 3) - 1]
            out.append(Outcome(n, key, 0, dead, 0, r.hexes * (s.attackers - dead), False))
    return tuple(out)


def expected(outs: Sequence[Outcome], w: Weights) -> Fraction:
    """The expected value of one attack (thousandths of a VP)."""
    return Fraction(sum(o.faces * o.value(w) for o in outs), FACES)


def expected_numerator(outs: Sequence[Outcome], w: Weights) -> int:
    """Six times :func:`expected`: an integer, for comparing attacks without fractions."""
    return sum(o.faces * o.value(w) for o in outs)


OutcomesGiven = Callable[[frozenset[HexId]], Sequence[Outcome]]
"""An attack's outcomes given the hexes cleared earlier in its batch."""


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One attack of a batch: the hex it clears (its single defending hex), the ``weights``
    its outcomes are valued by, and its outcomes given the hexes cleared before it (``given``;
    only ``relevant`` hexes matter, so ``given`` sees the cleared set restricted to them)."""

    hex: HexId
    weights: Weights
    given: OutcomesGiven
    relevant: frozenset[HexId] = frozenset()


def batch_value(items: Sequence[BatchItem]) -> Fraction:
    """The exact expected value of resolving ``items`` in order: over every joint outcome of
    the batch (each attack's outcome given the hexes its predecessors cleared), the sum of the
    outcomes' values weighted by the product of their face counts, over ``6**len(items)``.

    Only whether an attack empties its hex (every defender eliminated) changes later attacks
    in this model, so the enumeration branches on it (at most two ways an attack) and sums
    within each branch."""
    memo: dict[tuple[int, frozenset[HexId]], tuple[tuple[int, int], tuple[int, int]]] = {}

    def split(i: int, cleared: frozenset[HexId]) -> tuple[tuple[int, int], tuple[int, int]]:
        """(faces, faces x value) of attack ``i`` clearing and not clearing its hex."""
        key = (i, cleared & items[i].relevant)
        hit = memo.get(key)
        if hit is None:
            outs = items[i].given(key[1])
            w = items[i].weights
            yes = [o for o in outs if o.emptied]
            no = [o for o in outs if not o.emptied]
            hit = (
                (sum(o.faces for o in yes), sum(o.faces * o.value(w) for o in yes)),
                (sum(o.faces for o in no), sum(o.faces * o.value(w) for o in no)),
            )
            memo[key] = hit
        return hit

    def walk(i: int, cleared: frozenset[HexId]) -> tuple[int, int]:
        """(weight, weighted value) of attacks ``i..`` given ``cleared``: weight is the number
        of joint die faces (``6**(k-i)``), value summed over them."""
        if i == len(items):
            return (1, 0)
        total_w = total_v = 0
        (fy, vy), (fn, vn) = split(i, cleared)
        for faces, value, now in (
            (fy, vy, cleared | {items[i].hex}),
            (fn, vn, cleared),
        ):
            if faces == 0:
                continue
            rest_w, rest_v = walk(i + 1, now)
            total_w += faces * rest_w
            total_v += value * rest_w + faces * rest_v
        return (total_w, total_v)

    weight, value = walk(0, frozenset())
    return Fraction(value, weight) if weight else Fraction(0)


__all__ = [
    "FACES",
    "SCALE",
    "BatchItem",
    "Outcome",
    "Sides",
    "Weights",
    "batch_value",
    "expected",
    "expected_numerator",
    "outcomes",
]
