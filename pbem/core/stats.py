"""Dice statistics for the audit: face counts and Pearson's chi-square against a fair d6.

``p_value`` is exact for five degrees of freedom (six faces), from the closed form of the
chi-square survival function for odd degrees of freedom::

    Q(x; 1) = erfc(sqrt(x / 2))
    Q(x; k + 2) = Q(x; k) + (x / 2) ** (k / 2) * exp(-x / 2) / Gamma(k / 2 + 1)

so ``Q(x; 5) = erfc(sqrt(x/2)) + sqrt(2x/pi) * exp(-x/2) * (1 + x/3)``; no SciPy needed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

FACES = (1, 2, 3, 4, 5, 6)


def face_counts(values: Iterable[int]) -> tuple[int, int, int, int, int, int]:
    """How often each face 1-6 came up; a value outside 1-6 is a ``ValueError``."""
    counts = [0] * 6
    for v in values:
        if v not in FACES:
            raise ValueError(f"a d6 gave {v!r}")
        counts[v - 1] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def chi_square(counts: Iterable[int]) -> float:
    """Pearson's chi-square of ``counts`` against equal expected counts."""
    c = list(counts)
    n = sum(c)
    if n == 0:
        return 0.0
    expected = n / len(c)
    return sum((x - expected) ** 2 for x in c) / expected


def p_value(chi2: float) -> float:
    """``P(X >= chi2)`` for a chi-square variable with 5 degrees of freedom."""
    if chi2 <= 0:
        return 1.0
    x = chi2
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)
