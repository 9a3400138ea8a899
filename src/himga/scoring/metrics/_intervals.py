"""Summaries of per-question scores: n, mean and a 95% interval, with the method named.

- Scores that are all 0 or 1 (judge labels, LoCoMo category 5): the Wilson score interval (Wilson 1927;
  the interval LoCoMo audits report), ``z = 1.959963984540054`` (``NormalDist().inv_cdf(0.975)``).
- Other scores (LoCoMo's token F1): the normal approximation ``mean ± z·s/√n`` with the sample standard
  deviation ``s`` (``n − 1`` in the denominator), clipped to [0, 1]. No resampling, so no seed.

Means are ``numpy.mean`` of the scores in the order given, as the official scripts compute them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

__all__ = ["Z95", "normal_interval", "summarize", "wilson_interval"]

#: The two-sided 95% normal quantile.
Z95 = NormalDist().inv_cdf(0.975)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion ``successes / n``; ``None`` when ``n`` is 0."""
    if n == 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # the exact bounds at 0 and n (no rounding residue)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def normal_interval(scores: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """``mean ± z·s/√n`` (sample standard deviation), clipped to [0, 1]; ``None`` when ``n < 2``."""
    n = len(scores)
    if n < 2:
        return None
    mean = math.fsum(scores) / n
    s = math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / (n - 1))
    return max(0.0, mean - z * s / math.sqrt(n)), min(1.0, mean + z * s / math.sqrt(n))


def summarize(scores: Sequence[float]) -> dict:
    """``{"n", "mean", "ci95", "ci_method"}`` of a list of scores in [0, 1].

    Returns:
        ``mean`` and ``ci95`` are ``None`` for an empty list; ``ci_method`` is ``"wilson"`` when every
        score is 0 or 1, else ``"normal"``.
    """
    import numpy as np  # a dependency of datasets; np.mean is what the official scripts average with

    n = len(scores)
    binary = all(x in (0, 1) for x in scores)
    interval = wilson_interval(int(sum(scores)), n) if binary else normal_interval(scores)
    return {
        "n": n,
        "mean": float(np.mean(scores)) if n else None,
        "ci95": list(interval) if interval is not None else None,
        "ci_method": "wilson" if binary else "normal",
    }
