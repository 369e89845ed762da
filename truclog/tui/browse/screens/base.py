"""What the browser's screens share: the app they browse, tables of rows to pick from, charts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import cycle
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable

if TYPE_CHECKING:
    from textual_plotext import PlotextPlot

    from truclog.tui.browse.app import BrowseApp


class BrowseScreen(Screen[None]):
    """A screen of ``truclog browse``."""

    @property
    def browse(self) -> BrowseApp:
        """The browse app this screen is shown in, with its catalog and workers."""
        return self.app  # type: ignore[return-value]


class RowTable(DataTable[Any]):
    """A data table where Home and End go to the first and the last row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "first_row", "First", show=False, id="table.first"),
        Binding("end", "last_row", "Last", show=False, id="table.last"),
    ]

    def action_first_row(self) -> None:
        self.move_cursor(row=0)

    def action_last_row(self) -> None:
        self.move_cursor(row=self.row_count - 1)


def row_table(table_id: str, columns: Iterable[str | tuple[str, str]]) -> DataTable[Any]:
    """A striped table picked from a row at a time; a column is a name, or a label and a key."""
    table = RowTable(id=table_id, cursor_type="row", zebra_stripes=True)
    for column in columns:
        label, key = (column, column) if isinstance(column, str) else column
        table.add_column(label, key=key)
    return table


LINE_COLORS = ("red", "green", "blue", "magenta", "cyan", "yellow", "white", "bright_black")
"""The colour of each line of a chart, in order (names both plotext and Rich know)."""
CHART_POINTS = 512
"""Points a chart's line draws at most: more than a wide terminal's braille dots across
(two a column); a longer line draws every k-th point and its last (plotext takes
seconds to draw 200,000 games' points, and the terminal could not show them)."""


def spread(count: int, most: int = CHART_POINTS) -> range | list[int]:
    """The positions of a line of ``count`` points that a chart draws: all of them, or
    every k-th one and the last, at most ``most`` or so.

    >>> spread(5)
    range(0, 5)
    >>> spread(10, 4)
    [0, 3, 6, 9]
    >>> spread(11, 4)
    [0, 3, 6, 9, 10]
    """
    step = -(-count // most) if most > 0 else 1
    if step <= 1:
        return range(count)
    kept = list(range(0, count, step))
    return kept if kept[-1] == count - 1 else [*kept, count - 1]


def line_chart(
    plot: PlotextPlot,
    lines: Mapping[str, Sequence[int]],
    title: str,
    xlabel: str,
    legended: bool = False,
) -> Any:
    """Clear ``plot`` and draw one line a name (at most :data:`CHART_POINTS` points of
    each, :func:`spread`); ``legended``: in :data:`LINE_COLORS` (for a :func:`legend`
    beside it), on whole-number ticks. Returns plotext to add more, then refresh."""
    from truclog.stats.charts import nice_ticks  # with the replay: not before a first game shows

    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    colors = cycle(LINE_COLORS) if legended else cycle([None])
    for (name, points), color in zip(lines.items(), colors, strict=False):
        at = spread(len(points))
        plt.plot(list(at), [points[i] for i in at], label=name, marker="braille", color=color)
    if legended:
        longest = max((len(points) for points in lines.values()), default=1)
        plt.xticks(nice_ticks(0, max(longest - 1, 1), 5, whole=True))
        values = [v for points in lines.values() for v in points] or [0]
        plt.yticks(nice_ticks(min(values), max(values), 5, whole=True))
    plt.title(title)
    plt.xlabel(xlabel)
    return plt


def legend(names: Iterable[str], what: str = "") -> Text:
    """The names of a chart's lines, each in its line's colour (see :func:`line_chart`)."""
    text = Text(what, style="bold")
    for name, color in zip(names, cycle(LINE_COLORS)):
        text.append(" ━ ", style=color)
        text.append(name)
    return text
