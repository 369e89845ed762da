"""What the plots show, as plain series: a game's score hand by hand, a player's fold
and bluff rates month by month with their Wilson intervals, and ticks a reader can
count on. The terminal (``textual-plotext``) and the saved images
(:mod:`truclog.stats.plots`) draw the same series.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import floor, log10
from typing import Any

from truclog.replay import Game
from truclog.validate.checker import CheckedGame

MONTHLY = (("fold_rate", "raises_faced"), ("bluff_rate", "raises_known"))
"""The rates charted by month, each with its opportunities."""


def nice_ticks(low: float, high: float, most: int = 8, whole: bool = False) -> list[float]:
    """Ticks from ``low`` to ``high`` at a step of 1, 2 or 5 times a power of ten,
    at most ``most`` of them (whole numbers stay whole; ``whole`` counts things, so
    the step is at least 1).

    >>> nice_ticks(0, 10)
    [0, 2, 4, 6, 8, 10]
    >>> nice_ticks(0, 200)
    [0, 50, 100, 150, 200]
    >>> nice_ticks(0, 1, 6)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(3, 3)
    [3]
    >>> nice_ticks(0, 1, 1)
    [0]
    >>> nice_ticks(1, 4, 2)
    [2, 4]
    >>> nice_ticks(0, 3, 11, whole=True)
    [0, 1, 2, 3]
    """
    if high <= low or most <= 1:
        return [low]
    power = 10 ** floor(log10((high - low) / (most - 1)))
    for step in (m * power for m in (1, 2, 5, 10, 20, 50, 100)):
        step = max(step, 1) if whole else step
        first = -(-low // step) * step
        count = floor((high - first) / step + 1e-9) + 1
        if 1 <= count <= most:
            break
    else:
        return [low]
    ticks = [first + i * step for i in range(count)]
    if float(step).is_integer() and float(low).is_integer():
        return [int(t) for t in ticks]
    return [round(t, 10) for t in ticks]


def score_by_hand(game: CheckedGame | Game) -> dict[str, list[int]]:
    """Each side's score at the start and after every hand (an undecided hand changes
    none), as the engine counts it."""
    played = game if isinstance(game, Game) else Game(game)
    checked = played.checked
    first = checked.hands[0].start.score if checked.hands else checked.final.score
    series = {team: [points] for team, points in first.items()}
    for hand in played.hands:
        for team in series:
            series[team].append(hand.score[team] if hand.outcome else series[team][-1])
    return series


@dataclass(slots=True)
class MonthlyRate:
    """One rate of a player, month by month: the rate, its Wilson 95% interval and its
    opportunities (months without an opportunity have ``None`` rates)."""

    name: str
    rate: list[float | None] = field(default_factory=list)
    low: list[float | None] = field(default_factory=list)
    high: list[float | None] = field(default_factory=list)
    opportunities: list[int] = field(default_factory=list)


@dataclass(slots=True)
class MonthlyRates:
    """A player's fold and bluff rates by month (``YYYY-MM``, in order)."""

    player: str
    months: list[str]
    rates: list[MonthlyRate]

    @property
    def empty(self) -> bool:
        """Whether no month had any opportunity."""
        return not any(n for r in self.rates for n in r.opportunities)


def monthly_rates(rows: Sequence[Mapping[str, Any]], player: str) -> MonthlyRates:
    """The player's monthly rates from split rows of ``truclog stats --by month``
    (``truclog.stats.counts.finish(..., split=True)``); games without a day are left out."""
    mine = sorted(
        (r for r in rows if r.get("player") == player and r.get("month") is not None),
        key=lambda r: str(r["month"]),
    )
    rates = [MonthlyRate(name) for name, _ in MONTHLY]
    for row in mine:
        for chart, (name, out_of) in zip(rates, MONTHLY, strict=True):
            chart.rate.append(row.get(name))
            chart.low.append(row.get(f"{name}_low"))
            chart.high.append(row.get(f"{name}_high"))
            chart.opportunities.append(int(row.get(out_of) or 0))
    return MonthlyRates(player, [str(r["month"]) for r in mine], rates)


def label(name: str) -> str:
    """``fold_rate`` -> ``fold rate``."""
    return name.replace("_", " ")


__all__ = ["MonthlyRate", "MonthlyRates", "monthly_rates", "nice_ticks", "score_by_hand"]
