"""What the browser's screens share: the app they browse, tables of rows to pick from, charts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

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


def line_chart(
    plot: PlotextPlot, lines: Mapping[str, Sequence[int]], title: str, xlabel: str
) -> Any:
    """Clear ``plot`` and draw one line a name; returns plotext to add more, then refresh."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    for name, points in lines.items():
        plt.plot(list(range(len(points))), points, label=name, marker="braille")
    plt.title(title)
    plt.xlabel(xlabel)
    return plt
