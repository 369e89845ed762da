"""A list of rows drawn only where they show: any number of rows at the cost of a screenful.

:class:`RowList` keeps no row: it asks its ``cell`` function for the rows in
view as it draws them, so handing it a new filter or order of a hundred
thousand rows costs the measuring of its first rows (below) until they are drawn. The header names each
column and marks the one the rows are sorted by (``▲`` rising, ``▼`` falling).
Columns without a fixed width fit their content: each is as wide as its widest cell
among the first :data:`MEASURED` rows (and its label) when there is room, and when
there is not, the room goes first to the columns that need less than their share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

Cells = Sequence[str | Text]

MEASURED = 2000
"""Rows whose cells a list measures to fit its columns to their content."""


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its label, its key, its width (0: take ``share`` parts of what is left)
    and alignment."""

    label: str
    key: str
    width: int = 0
    right: bool = False
    share: int = 1


def fair_shares(room: int, wanted: Sequence[int], shares: Sequence[int]) -> list[int]:
    """``room`` cells for columns that want ``wanted`` cells each: all they want when it
    fits (what is left goes by ``shares``); else a column that wants less than its
    share (by ``shares``) gets what it wants, and the others share the rest.

    >>> fair_shares(100, [10, 30, 20], [1, 1, 2])  # room to spare: 40 more, by shares
    [20, 40, 40]
    >>> fair_shares(60, [10, 50, 50], [1, 1, 1])  # the first needs 10: 25 each for the others
    [10, 25, 25]
    """
    if not wanted:
        return []
    if sum(wanted) <= room:
        spare, parts = room - sum(wanted), sum(shares) or 1
        given = [w + spare * s // parts for w, s in zip(wanted, shares, strict=True)]
        given[-1] += room - sum(given)
        return given
    given = [0] * len(wanted)
    left = list(range(len(wanted)))
    while left:
        parts = sum(shares[i] for i in left) or 1
        fair = {i: room * shares[i] // parts for i in left}
        content = [i for i in left if wanted[i] <= fair[i]]
        if not content:
            for i in left:
                given[i] = max(fair[i], 1)
            break
        for i in content:
            given[i] = wanted[i]
            room -= wanted[i]
            left.remove(i)
    return given


def fit(cell: str | Text, width: int, right: bool = False) -> Text:
    """A cell as text of exactly ``width`` cells, cut with ``…`` when too long.

    >>> fit("[b]Ana[/b]", 6).plain
    '[b]An…'
    >>> fit("12", 4, right=True).plain
    '  12'
    """
    text = cell.copy() if isinstance(cell, Text) else Text(cell)
    text.no_wrap = True
    text.truncate(width, overflow="ellipsis", pad=not right)
    if right and text.cell_len < width:
        text.pad_left(width - text.cell_len)
    return text


class RowList(ScrollView, can_focus=True):
    """Rows ``0..count-1`` under a fixed header; ``cell(i)`` gives row ``i``'s cells."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False, id="rows.up"),
        Binding("down", "move(1)", "Down", show=False, id="rows.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="rows.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="rows.page_down"),
        Binding("home", "first", "First", show=False, id="rows.first"),
        Binding("end", "last", "Last", show=False, id="rows.last"),
        Binding("enter", "choose", "Open", show=False, id="rows.choose"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "rowlist--header",
        "rowlist--cursor",
        "rowlist--odd",
        "rowlist--empty",
    }
    DEFAULT_CSS = """
    RowList { height: 1fr; }
    RowList > .rowlist--header { text-style: bold; color: $text-accent; }
    RowList > .rowlist--cursor { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
    RowList:blur > .rowlist--cursor { background: $block-cursor-blurred-background; }
    RowList > .rowlist--odd { background: $surface-lighten-1; }
    RowList > .rowlist--empty { color: $text-muted; text-style: italic; }
    """

    cursor: reactive[int] = reactive(0, init=False)

    class Chosen(Message):
        """Enter or a click on a row: ``row`` is its position in the list."""

        def __init__(self, rows: RowList, row: int) -> None:
            super().__init__()
            self.rows = rows
            self.row = row

    class HeaderClicked(Message):
        """A click on a column's label."""

        def __init__(self, rows: RowList, key: str) -> None:
            super().__init__()
            self.rows = rows
            self.key = key

    def __init__(
        self, columns: Sequence[Column], *, empty: str = "nothing to show", id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.columns = list(columns)
        self.count = 0
        self.cell: Callable[[int], Cells] = lambda i: ()
        self.empty = empty
        self.sort_key: str | None = None
        self.sort_reverse = False
        self.fitted: tuple[int, list[int]] = (-1, [])
        self.natural = [len(column.label) for column in self.columns]
        """Each column's widest cell of the rows measured, its label included."""
        self.measured = 0

    # --- what to show --------------------------------------------------------

    def show_rows(self, count: int, cell: Callable[[int], Cells], cursor: int = 0) -> None:
        """Show ``count`` rows, drawn by ``cell``, with the cursor on row ``cursor``."""
        self.count, self.cell = count, cell
        self.natural = [len(column.label) for column in self.columns]
        self.measured = 0
        self._measure()
        self.virtual_size = Size(self.size.width, count + 1)
        self.set_reactive(RowList.cursor, max(0, min(cursor, count - 1)))
        self.scroll_to_cursor()
        self.refresh()

    def grow(self, count: int) -> None:
        """More rows at the end, drawn by the same ``cell``: only the scrollbar and rows
        that come into view are drawn again (a list filling up stays cheap)."""
        before, self.count = self.count, count
        widths = list(self.natural)
        self._measure()
        self.virtual_size = Size(self.size.width, count + 1)
        if before <= self.scroll_offset.y + self.size.height or widths != self.natural:
            self.refresh()

    def _measure(self) -> None:
        """Widen :attr:`natural` by the cells of the rows not measured yet, up to
        :data:`MEASURED` rows."""
        natural = self.natural
        for row in range(self.measured, min(self.count, MEASURED)):
            for i, cell in enumerate(self.cell(row)[: len(natural)]):
                size = cell.cell_len if isinstance(cell, Text) else cell_len(cell)
                if size > natural[i]:
                    natural[i] = size
        self.measured = max(self.measured, min(self.count, MEASURED))

    def mark_sort(self, key: str | None, reverse: bool) -> None:
        """Marks the column sorted by ``key`` (▲, or ▼ when ``reverse``) in the header."""
        self.sort_key, self.sort_reverse = key, reverse
        self.refresh(self.header_region())

    def header_region(self) -> Region:
        """The region of the header line, to redraw it alone."""
        return Region(0, 0, self.size.width, 1)

    def widths(self) -> list[int]:
        """Each column's width: fixed ones as declared, the rest share the remaining space
        (worked out once for each width of the list, not once a row)."""
        width = hash((self.size.width, *self.natural))
        if self.fitted[0] != width:
            self.fitted = (width, self._widths())
        return self.fitted[1]

    def _widths(self) -> list[int]:
        spaces = len(self.columns) - 1
        fixed = sum(c.width for c in self.columns)
        flexible = [i for i, c in enumerate(self.columns) if not c.width]
        room = max(self.size.width - 1 - fixed - spaces, 4 * len(flexible))
        shares = fair_shares(
            room, [self.natural[i] for i in flexible], [self.columns[i].share for i in flexible]
        )
        given = dict(zip(flexible, shares, strict=True))
        return [c.width or given[i] for i, c in enumerate(self.columns)]

    # --- drawing -------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the list: the header, the empty message, or a row (the cursor's
        highlighted)."""
        width = self.size.width
        if y == 0:
            return self._strip(self.header_text(), width, "rowlist--header")
        if not self.count:
            if y == 1:
                return self._strip(Text(self.empty), width, "rowlist--empty")
            return Strip.blank(width, self.rich_style)
        row = self.scroll_offset.y + y - 1
        if row >= self.count:
            return Strip.blank(width, self.rich_style)
        line = self.row_text(row)
        if row == self.cursor:
            return self._strip(line, width, "rowlist--cursor")
        return self._strip(line, width, "rowlist--odd" if row % 2 else None)

    def header_text(self) -> Text:
        """The column labels fitted to their widths, the sorted one marked."""
        text = Text(" ")
        for i, (column, width) in enumerate(zip(self.columns, self.widths(), strict=True)):
            if i:
                text.append(" ")
            label = Text(column.label)
            if column.key == self.sort_key:
                label = fit(label, min(label.cell_len, max(width - 2, 1)))
                label.append(" ▼" if self.sort_reverse else " ▲", style="bold")
            text.append_text(fit(label, width, column.right))
        return text

    def row_text(self, row: int) -> Text:
        """Row ``row``'s cells fitted to the column widths."""
        text = Text(" ")
        cells = self.cell(row)
        for i, (column, width) in enumerate(zip(self.columns, self.widths(), strict=True)):
            if i:
                text.append(" ")
            text.append_text(fit(cells[i] if i < len(cells) else "", width, column.right))
        return text

    def _strip(self, text: Text, width: int, component: str | None) -> Strip:
        base = self.rich_style
        if component is not None:
            base = base + self.get_component_rich_style(component)
        segments = list(text.render(self.app.console))
        strip = Strip(Segment.apply_style(segments, base), text.cell_len)
        return strip.extend_cell_length(width, base).crop(0, width)

    # --- moving --------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        """Keeps the moved cursor on screen."""
        self.scroll_to_cursor()
        self.refresh()

    def scroll_to_cursor(self) -> None:
        """Scrolls just enough to show the cursor's row below the header."""
        visible = max(self.size.height - 1, 1)
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + visible:
            self.scroll_to(y=self.cursor - visible + 1, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """Fits the scroll range to the new size and keeps the cursor in view."""
        self.virtual_size = Size(event.size.width, self.count + 1)
        self.scroll_to_cursor()

    def go(self, row: int) -> None:
        """Moves the cursor to ``row``, kept within the rows."""
        if self.count:
            self.cursor = max(0, min(row, self.count - 1))

    def action_move(self, step: int) -> None:
        self.go(self.cursor + step)

    def action_page(self, pages: int) -> None:
        self.go(self.cursor + pages * max(self.size.height - 2, 1))

    def action_first(self) -> None:
        self.go(0)

    def action_last(self) -> None:
        self.go(self.count - 1)

    def action_choose(self) -> None:
        if self.count:
            self.post_message(self.Chosen(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        """A click on the header sorts by its column; on a row moves the cursor there, and opens it
        when it was already there or on a double click."""
        if event.y == 0:
            self.header_clicked(event.x)
            return
        row = self.scroll_offset.y + event.y - 1
        if 0 <= row < self.count:
            if row == self.cursor or event.chain > 1:
                self.post_message(self.Chosen(self, row))
            self.cursor = row

    def header_clicked(self, x: int) -> None:
        """Posts :class:`HeaderClicked` with the key of the column at ``x``."""
        edge = 1
        for column, width in zip(self.columns, self.widths(), strict=True):
            if x < edge + width:
                self.post_message(self.HeaderClicked(self, column.key))
                return
            edge += width + 1
