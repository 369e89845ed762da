"""Wilson score intervals: how sure a rate is, given its sample size.

>>> wilson(0, 0)
(None, None)
>>> low, high = wilson(5, 10)
>>> round(low, 4), round(high, 4)
(0.2366, 0.7634)
>>> wilson(0, 4)[0], round(wilson(0, 4)[1], 4)
(0.0, 0.4899)
"""

from __future__ import annotations

from math import sqrt

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def rate(count: int, total: int) -> float | None:
    """``count / total``, or ``None`` when there was no opportunity.

    >>> rate(1, 4), rate(0, 0)
    (0.25, None)
    """
    return count / total if total else None


def wilson(count: int, total: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval of ``count`` successes in ``total`` trials (95% by default)."""
    if total <= 0:
        return None, None
    p = count / total
    z2 = z * z
    denominator = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denominator
    half = z * sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
