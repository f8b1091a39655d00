"""Dice statistics for the audit: counts per face (or per group of faces) and Pearson's
chi-square against a fair die of ``n`` faces, with its exact p-value.

**Groups.** A die of at most :data:`MAX_SINGLE` faces is counted face by face (a d6: six
counts, five degrees of freedom, as before). A larger die is counted in :data:`GROUPS` groups
of consecutive faces, group ``i`` (0-based) holding faces ``floor(i n / 10) + 1`` to
``floor((i + 1) n / 10)``: a d100's deciles 1-10, 11-20, ..., 91-100 (nine degrees of
freedom). Per face, a d100 would need 500 rolls for the 5 expected per cell the chi-square
asks; a game of percentage dice rolls a few hundred, and deciles give 5 per cell from 50
rolls. A group's expected count is ``N x its size / n`` (equal for a d100, unequal when 10 does
not divide ``n``). The grouping hides a bias inside a decile (say 37 too often against 38):
the per-die list (``ardennes audit``) and the redraw (``contrib/ardennes-dice-check``) show
every value.

**The p-value** ``Q(x; k) = P(X >= x)`` for ``k`` degrees of freedom is exact, from the
closed forms of the chi-square survival function, no SciPy needed::

    Q(x; 1) = erfc(sqrt(x / 2))          Q(x; 2) = exp(-x / 2)
    Q(x; k + 2) = Q(x; k) + (x / 2) ** (k / 2) * exp(-x / 2) / Gamma(k / 2 + 1)

so ``Q(x; 5) = erfc(sqrt(x/2)) + sqrt(2x/pi) * exp(-x/2) * (1 + x/3)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

FACES: Final = (1, 2, 3, 4, 5, 6)
"""The faces of a d6 (the AO's dice)."""
MAX_SINGLE: Final = 10
"""The most faces counted one by one; a larger die is counted in :data:`GROUPS` groups."""
GROUPS: Final = 10
"""How many groups of faces a die of more than :data:`MAX_SINGLE` faces is counted in."""


def groups(faces: int) -> tuple[tuple[int, int], ...]:
    """The (first, last) face of each group a die of ``faces`` faces is counted in: one per
    face up to :data:`MAX_SINGLE`, else :data:`GROUPS` (a d100: ``(1, 10), ..., (91, 100)``)."""
    if faces < 1:
        raise ValueError(f"a die has at least one face, not {faces}")
    if faces <= MAX_SINGLE:
        return tuple((f, f) for f in range(1, faces + 1))
    cuts = [i * faces // GROUPS for i in range(GROUPS + 1)]
    return tuple((cuts[i] + 1, cuts[i + 1]) for i in range(GROUPS))


def labels(faces: int) -> tuple[str, ...]:
    """The groups' names: ``1`` ... ``6`` for a d6, ``1-10`` ... ``91-100`` for a d100."""
    return tuple(str(a) if a == b else f"{a}-{b}" for a, b in groups(faces))


def counts(values: Iterable[int], faces: int) -> tuple[int, ...]:
    """How many ``values`` fell in each group of :func:`groups` (``faces``); a value outside
    1..``faces`` is a ``ValueError``."""
    group_of = [g for g, (first, last) in enumerate(groups(faces)) for _ in range(first, last + 1)]
    out = [0] * (group_of[-1] + 1)
    for v in values:
        if type(v) is not int or not 1 <= v <= faces:
            raise ValueError(f"a d{faces} gave {v!r}")
        out[group_of[v - 1]] += 1
    return tuple(out)


def face_counts(values: Iterable[int]) -> tuple[int, int, int, int, int, int]:
    """How often each face 1-6 came up; a value outside 1-6 is a ``ValueError``."""
    c = counts(values, 6)
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def chi_square(observed: Iterable[int], sizes: Sequence[int] | None = None) -> float:
    """Pearson's chi-square of ``observed`` against a fair die: equal expected counts, or
    expected in proportion to ``sizes`` (the faces in each group)."""
    c = list(observed)
    n = sum(c)
    if n == 0:
        return 0.0
    if sizes is None or len(set(sizes)) == 1:
        expected = n / len(c)
        return sum((x - expected) ** 2 for x in c) / expected
    total = sum(sizes)
    return sum((x - n * s / total) ** 2 / (n * s / total) for x, s in zip(c, sizes, strict=True))


def p_value(chi2: float, df: int = 5) -> float:
    """``P(X >= chi2)`` for a chi-square variable with ``df`` degrees of freedom (the module
    docstring's closed forms; 5 unless told: a d6)."""
    if df < 1:
        raise ValueError(f"a chi-square has at least one degree of freedom, not {df}")
    if chi2 <= 0:
        return 1.0
    x = chi2
    if df % 2:
        q, k = math.erfc(math.sqrt(x / 2)), 1
    else:
        q, k = math.exp(-x / 2), 2
    while k < df:
        q += math.exp((k / 2) * math.log(x / 2) - x / 2 - math.lgamma(k / 2 + 1))
        k += 2
    return min(1.0, max(0.0, q))
