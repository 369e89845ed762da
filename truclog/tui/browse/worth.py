"""The analysis graph of a replayed hand: its double-dummy worth to the player under
review before and after each judged decision (:func:`truclog.tui.browse.judged.worth_trail`)."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import RenderResult
from textual_plotext import PlotextPlot

from truclog.stats.charts import nice_ticks
from truclog.tui.browse.judged import JudgedDecision, worth_trail

TICKS = 5
"""Most ticks on the worth axis; fewer on a short chart, so that each has a row of its own
(two on one row would fight for its label)."""
FRAME_ROWS = 5
"""The chart's rows that are not the plot's: title, frame, event ticks and label."""
TICK_COLUMNS = 4
"""Columns each event tick's label needs."""


class WorthChart(PlotextPlot):
    """The hand's worth to one player, event after event, the current event marked."""

    span: tuple[tuple[int, int], tuple[int, int]] | None = None
    """The events and worths charted (lowest, highest), for the ticks."""

    def render(self) -> RenderResult:
        """The chart at its size: ticks as many as its rows and columns hold apart."""
        if self.span is not None:
            (first, last), (low, high) = self.span
            rows = max(self.size.height - FRAME_ROWS, 1)
            columns = max(self.size.width // TICK_COLUMNS, 1)
            self.plt.yticks(nice_ticks(low, high, min(TICKS, rows), whole=True))
            self.plt.xticks(nice_ticks(first, last, columns, whole=True))
        return super().render()

    def chart(self, found: Iterable[JudgedDecision], player: str, position: int) -> None:
        """Draws ``player``'s worth after each judged decision of ``found``, the event at
        ``position`` marked."""
        trail = worth_trail(found, player)
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        self.span = None
        if not trail:
            plt.title(f"{player}: no decision of this hand judged face up")
        else:
            events, worths = zip(*trail, strict=True)
            plt.plot(list(events), list(worths), marker="braille")
            plt.hline(0)
            plt.vline(position + 1)
            self.span = ((min(events), max(events)), (min(*worths, 0), max(*worths, 0)))
            now = [w for e, w in trail if e <= position + 1]
            after = f" · {now[-1]:+d} now" if now else ""
            plt.title(f"worth to {player}, both hands face up{after}")
            plt.xlabel("event")
        self.refresh()
