"""The browser's plots, drawn with plotext (``textual-plotext``) from the series of
:mod:`truclog.stats.charts`: a game's score hand by hand, and a player's fold and bluff
rates by month with their Wilson intervals. ``truclog stats --plot`` saves the same
plots as images."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual_plotext import PlotextPlot

from truclog.stats.charts import label, nice_ticks

if TYPE_CHECKING:
    from truclog.stats.charts import MonthlyRates

COLOURS = ("cyan+", "orange+")
"""Each rate's colour; its interval is drawn in the same colour, dotted."""


def score_chart(plot: PlotextPlot, series: Mapping[str, Sequence[int]], target: int) -> None:
    """Each side's score after each hand, the target as a line, round ticks."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    hands = 0
    for side, points in series.items():
        plt.plot(list(range(len(points))), list(points), label=side, marker="braille")
        hands = max(hands, len(points) - 1)
    plt.hline(target, "gray")
    top = max([target, *(max(p) for p in series.values() if p)])
    ticks(plt, nice_ticks(0, hands, 11, whole=True), [0, top])  # a few rows high: both ends
    plt.ylim(0, top)
    plt.title(f"score after each hand (target {target})")
    plt.xlabel("hand")
    plot.refresh()


def ticks(plt: Any, xs: Sequence[float] | None, ys: Sequence[float] | None) -> None:
    """Ticks labelled as they are (plotext writes whole numbers as ``2.00``)."""
    if xs is not None:
        plt.xticks(list(xs), [f"{t:g}" for t in xs])
    if ys is not None:
        plt.yticks(list(ys), [f"{t:g}" for t in ys])


def months_chart(plot: PlotextPlot, monthly: MonthlyRates | None, player: str | None) -> None:
    """A player's fold and bluff rates by month (in %), each month's interval dotted;
    without rows yet, what is awaited."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    if player is None or monthly is None:
        plt.title("rates by month: counting…")
    elif monthly.empty:
        plt.title(f"{player}: no raise faced or made with a known hand in a dated game")
    else:
        _draw_months(plt, monthly)
    plot.refresh()


def _draw_months(plt: Any, monthly: MonthlyRates) -> None:
    months = list(range(len(monthly.months)))
    for chart, colour in zip(monthly.rates, COLOURS, strict=False):
        xs = [m for m in months if chart.rate[m] is not None]
        if not xs:
            continue
        percent = {
            name: [100 * (values[m] or 0.0) for m in xs]
            for name, values in (("rate", chart.rate), ("low", chart.low), ("high", chart.high))
        }
        n = sum(chart.opportunities)
        plt.plot(xs, percent["rate"], label=f"{label(chart.name)} (n {n})", color=colour)
        plt.scatter(xs, percent["low"], marker="·", color=colour, label="95% interval")
        plt.scatter(xs, percent["high"], marker="·", color=colour)
    step = max(1, -(-len(months) // 6))
    shown = months[::step]
    plt.xticks(shown, [monthly.months[m] for m in shown])
    plt.xlim(-0.5, len(months) - 0.5)  # the first and last months inside the frame
    plt.ylim(0, 100)
    ticks(plt, None, [0, 100])  # a few rows high: both ends
    plt.title(f"{monthly.player}: fold and bluff rates by month, %")
