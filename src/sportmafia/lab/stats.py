"""The lab's tests of a difference between two variants' red win rates.

- :func:`two_proportions`: the two-proportion z-test (pooled), for independent samples.
- :func:`mcnemar`: McNemar's exact test on the games' pairs, for the paired design (every variant plays the same
  seeds, so the games of one seed under two rule sets are a pair; only the pairs whose winners differ count).
- :func:`difference_interval`, :func:`paired_interval`: the 95% interval of the difference, unpaired or paired.
- :func:`look_alpha`: the level one look of a sequential run is held to (Bonferroni over the looks it may make).

>>> round(two_proportions(60, 100, 45, 100)[1], 4)
0.0337
>>> round(mcnemar(10, 2), 4)
0.0386
"""

from __future__ import annotations

import math


def two_proportions(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """The z statistic and two-sided p-value of the difference ``x1/n1 - x2/n2`` (pooled variance)."""
    if n1 == 0 or n2 == 0:
        return (0.0, 1.0)
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return (0.0, 1.0)
    z = (x1 / n1 - x2 / n2) / se
    return (z, math.erfc(abs(z) / math.sqrt(2)))


def mcnemar(b: int, c: int) -> float:
    """The two-sided exact p-value of McNemar's test: ``b`` pairs red won under the first variant only, ``c``
    under the second only; under no difference each discordant pair is a fair coin."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    log_half = n * math.log(0.5)
    tail = sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half)
               for i in range(k + 1))
    return min(1.0, 2 * tail)


def difference_interval(x1: int, n1: int, x2: int, n2: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wald) interval of ``x2/n2 - x1/n1`` for independent samples."""
    if n1 == 0 or n2 == 0:
        return (-1.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    half = z * math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return (p2 - p1 - half, p2 - p1 + half)


def paired_interval(b: int, c: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wald) interval of a paired difference ``(c - b) / n``: of ``n`` pairs, ``b`` were a success
    under the first only and ``c`` under the second only."""
    if n == 0:
        return (-1.0, 1.0)
    d = (c - b) / n
    half = z * math.sqrt(max(0.0, (b + c) / n - d * d) / n)
    return (d - half, d + half)


def look_alpha(alpha: float, looks: int) -> float:
    """The level of each of ``looks`` looks at a run that may stop at any of them (Bonferroni: the chance of a
    false "significant" over all the looks stays under ``alpha``)."""
    return alpha / max(1, looks)
