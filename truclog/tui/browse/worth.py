"""The analysis graph of a replayed hand: its double-dummy worth to the player under
review before and after each judged decision (:func:`truclog.tui.browse.judged.worth_trail`)."""

from __future__ import annotations

from collections.abc import Iterable

from textual_plotext import PlotextPlot

from truclog.stats.charts import nice_ticks
from truclog.tui.browse.judged import Decision, worth_trail

TICKS = 5
"""Most ticks on the worth axis: a few rows apart, each tick keeps its label."""


class WorthChart(PlotextPlot):
    """The hand's worth to one player, event after event, the current event marked."""

    def chart(self, found: Iterable[Decision], player: str, position: int) -> None:
        """Draws ``player``'s worth after each judged decision of ``found``, the event at
        ``position`` marked."""
        trail = worth_trail(found, player)
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        if not trail:
            plt.title(f"{player}: no decision of this hand judged face up")
        else:
            events, worths = zip(*trail, strict=True)
            plt.plot(list(events), list(worths), marker="braille")
            plt.hline(0)
            plt.vline(position + 1)
            low, high = min(*worths, 0), max(*worths, 0)
            plt.yticks(nice_ticks(low, high, TICKS, whole=True))
            plt.xticks(sorted(set(events)))
            now = [w for e, w in trail if e <= position + 1]
            after = f" · {now[-1]:+d} now" if now else ""
            plt.title(f"worth to {player}, both hands face up{after}")
            plt.xlabel("event")
        self.refresh()
