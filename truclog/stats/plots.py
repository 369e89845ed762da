"""The plots saved as images (PNG or SVG) with matplotlib, an optional extra
(``pip install 'truclog[plot]'``): a game's score hand by hand, and a player's fold
and bluff rates by month with their Wilson intervals. They draw the series of
:mod:`truclog.stats.charts`, the same the browser draws in the terminal.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from truclog.errors import TruclogError
from truclog.format.atomic import write_atomically
from truclog.stats.charts import MonthlyRates, label, nice_ticks

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SUFFIXES = {".png": "png", ".svg": "svg"}
"""The image formats a plot is saved in, by the file's suffix."""
SIZE = (8.0, 4.5)
"""A figure's size in inches (800 by 450 pixels at 100 dots an inch)."""
DPI = 100


def image_format(path: str | Path) -> str:
    """``png`` or ``svg``, from the file's suffix; anything else is refused."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise TruclogError(
            f"{path}: a plot is saved as .png or .svg, not '{suffix or 'no suffix'}'"
        )
    return SUFFIXES[suffix]


def _figure() -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise TruclogError("saving a plot needs matplotlib: pip install 'truclog[plot]'") from None
    return Figure(figsize=SIZE, dpi=DPI, layout="constrained")


def score_figure(series: Mapping[str, Sequence[int]], target: int, title: str) -> Figure:
    """Each side's score after each hand, the target as a dashed line."""
    figure = _figure()
    axes = figure.add_subplot()
    hands = 0
    for side, points in series.items():
        axes.plot(range(len(points)), points, marker="o", markersize=3, label=side)
        hands = max(hands, len(points) - 1)
    axes.axhline(target, color="gray", linestyle="--", linewidth=1, label=f"target {target}")
    axes.set_xticks(nice_ticks(0, hands, 11, whole=True))
    top = max([target, *(max(p) for p in series.values() if p)])
    axes.set_yticks(nice_ticks(0, top, 8, whole=True))
    axes.set_xlabel("hand")
    axes.set_ylabel("score")
    axes.set_title(title)
    axes.legend(loc="upper left")
    axes.grid(alpha=0.3)
    return figure


def rates_figure(monthly: MonthlyRates) -> Figure:
    """The player's fold and bluff rates by month, each with its Wilson 95% interval as
    error bars, and the opportunities of each month under its label."""
    figure = _figure()
    axes = figure.add_subplot()
    months = range(len(monthly.months))
    shift = 0.08 * (len(monthly.rates) - 1) / 2
    for i, chart in enumerate(monthly.rates):
        xs = [m for m in months if chart.rate[m] is not None]
        rates = [_known(chart.rate[m]) for m in xs]
        below = [r - _known(chart.low[m]) for r, m in zip(rates, xs, strict=True)]
        above = [_known(chart.high[m]) - r for r, m in zip(rates, xs, strict=True)]
        axes.errorbar(
            [x + 0.08 * i - shift for x in xs],
            rates,
            yerr=[below, above],
            marker="o",
            capsize=4,
            label=f"{label(chart.name)} (95% interval)",
        )
    axes.set_xticks(list(months), [_month_label(monthly, m) for m in months])
    axes.set_ylim(0, 1)
    axes.set_yticks(nice_ticks(0, 1, 6))
    axes.yaxis.set_major_formatter(lambda value, _: f"{100 * value:.0f}%")
    axes.set_xlabel("month (raises faced / raises with a known hand)")
    axes.set_title(f"{monthly.player}: fold and bluff rates by month")
    axes.legend(loc="upper left")
    axes.grid(alpha=0.3)
    return figure


def _known(value: float | None) -> float:
    assert value is not None  # a month with a rate has its interval
    return value


def _month_label(monthly: MonthlyRates, month: int) -> str:
    counts = "/".join(str(chart.opportunities[month]) for chart in monthly.rates)
    return f"{monthly.months[month]}\n{counts}"


def save(figure: Figure, path: str | Path) -> None:
    """Write the figure to ``path`` whole or not at all, as PNG or SVG by its suffix
    (SVG text stays text; no creation date, so the same plot gives the same file)."""
    import matplotlib

    kind = image_format(path)
    data = io.BytesIO()
    metadata: dict[str, Any] = {"Date": None} if kind == "svg" else {}
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "truclog"}):
        figure.savefig(data, format=kind, metadata=metadata)
    write_atomically(path, data.getvalue())


__all__ = ["image_format", "rates_figure", "save", "score_figure"]
