"""The games screen: every game of the logs, streamed in as they are checked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Input, Label, ProgressBar

from truclog.tui.browse.index import LoadProgress
from truclog.tui.browse.screens.base import BrowseScreen, row_table
from truclog.validate import CheckedGame

COLUMNS = ("date", "players", "rules", "score", "winner", "hands", "diagnostics")


def game_date(game: CheckedGame) -> str:
    """The ``date`` of the game line, else the day of its first timestamp."""
    date = getattr(game.header, "date", None)
    if date:
        return str(date)
    stamp = getattr(game.header, "t", None)
    return str(stamp)[:10] if stamp else ""


def game_players(game: CheckedGame) -> str:
    if len(game.players) == 4:
        return " v ".join(game.teams)
    return " v ".join(game.players)


def score_text(score: Mapping[str, int], teams: Iterable[str]) -> str:
    """The points of each side, in the order of ``teams``.

    >>> score_text({"Marc": 12}, ["Ana", "Marc"])
    '0–12'
    """
    return "–".join(str(score.get(team, 0)) for team in teams)


def game_score(game: CheckedGame) -> str:
    return score_text(game.score, game.teams)


def game_winner(game: CheckedGame) -> str:
    if game.winner:
        return game.winner
    return "abandoned" if game.ended else "—"


SORT_KEYS: dict[str, Callable[[CheckedGame], Any]] = {
    "date": game_date,
    "players": game_players,
    "rules": lambda g: g.rules.describe(),
    "score": lambda g: max(g.score.values(), default=0),
    "winner": game_winner,
    "hands": lambda g: len(g.hands),
    "diagnostics": lambda g: len(g.diagnostics),
}


def game_row(game: CheckedGame) -> tuple[str | Text, ...]:
    diagnostics = len(game.diagnostics)
    errors = sum(1 for d in game.diagnostics if d.severity == "error")
    style = "bold red" if errors else ("yellow" if diagnostics else "dim")
    return (
        game_date(game),
        game_players(game),
        game.rules.describe(),
        game_score(game),
        game_winner(game),
        Text(str(len(game.hands)), justify="right"),
        Text(str(diagnostics), style=style, justify="right"),
    )


class GamesScreen(BrowseScreen):
    """Every game in the logs; pick one to see its hands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_game", "Hands", id="games.open"),
        Binding("slash", "filter", "Filter", id="games.filter"),
        Binding("s", "sort", "Sort", id="games.sort"),
        Binding("r", "reverse", "Reverse", id="games.reverse"),
        Binding("d", "game_diagnostics", "Diagnostics", id="games.diagnostics"),
        Binding("D", "all_diagnostics", "All diagnostics", id="games.all_diagnostics"),
        Binding("p", "app.players", "Players", id="games.players"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="games.clear"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[int] = []
        self.considered = 0
        self.query_text = ""
        self.sort_column: str | None = None
        self.reverse = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="games-bar"):
            yield Input(placeholder="filter by player…", id="games-filter")
            yield ProgressBar(id="games-progress", show_eta=False)
            yield Label("reading…", id="games-status")
        yield row_table("games-table", COLUMNS)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "games"
        self.table.focus()
        self.add_games()
        self.show_progress(self.browse.progress)

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#games-table", DataTable)

    def matches(self, game: CheckedGame) -> bool:
        text = self.query_text.casefold()
        return not text or any(text in p.casefold() for p in (*game.players, *game.teams))

    def add_games(self) -> None:
        """Show the games loaded since the last call that pass the filter."""
        games = self.browse.index.games
        fresh = [i for i in range(self.considered, len(games)) if self.matches(games[i])]
        self.considered = len(games)
        if self.sort_column is not None and fresh:
            self.rebuild()
            return
        for i in fresh:
            self.shown.append(i)
            self.table.add_row(*game_row(games[i]), key=str(i))

    def rebuild(self) -> None:
        """Fill the table again after a new filter or sort order, keeping the cursor's game."""
        games = self.browse.index.games
        current = self.current_index()
        self.considered = len(games)
        shown = [i for i in range(len(games)) if self.matches(games[i])]
        if self.sort_column is not None:
            key = SORT_KEYS[self.sort_column]
            shown.sort(key=lambda i: key(games[i]), reverse=self.reverse)
        self.shown = shown
        table = self.table
        table.clear()
        for i in shown:
            table.add_row(*game_row(games[i]), key=str(i))
        if current is not None and current in shown:
            table.move_cursor(row=shown.index(current))

    def current_index(self) -> int | None:
        row = self.table.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def show_progress(self, progress: LoadProgress) -> None:
        bar = self.query_one("#games-progress", ProgressBar)
        fraction = 1.0 if self.browse.loaded else progress.fraction
        bar.update(total=100 if fraction is not None else None, progress=100 * (fraction or 0))
        state = "read" if self.browse.loaded else "reading…"
        problems = len(self.browse.index.problems)
        status = f"{progress.games} games, {progress.hands} hands {state}"
        if problems:
            status += f" · {problems} file problem{'s' * (problems > 1)} (D)"
        self.query_one("#games-status", Label).update(status)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip()
        self.rebuild()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_game()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        self.sort_by(str(event.column_key.value))

    def sort_by(self, column: str) -> None:
        """Sort by a column; sorting by it again reverses the order."""
        self.reverse = not self.reverse if self.sort_column == column else False
        self.sort_column = column
        self.rebuild()
        self.notify(f"sorted by {column}{' (reversed)' if self.reverse else ''}", timeout=2)

    def action_sort(self) -> None:
        self.sort_by(self.next_sort())

    def action_reverse(self) -> None:
        if self.sort_column is not None:
            self.sort_by(self.sort_column)

    def next_sort(self) -> str:
        """The column after the current sort column, so ``s`` walks through them."""
        if self.sort_column is None:
            return COLUMNS[0]
        return COLUMNS[(COLUMNS.index(self.sort_column) + 1) % len(COLUMNS)]

    def action_filter(self) -> None:
        self.query_one("#games-filter", Input).focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#games-filter", Input)
        field.value = ""
        self.table.focus()

    def action_open_game(self) -> None:
        index = self.current_index()
        if index is not None:
            self.browse.open_game(index)

    def action_game_diagnostics(self) -> None:
        index = self.current_index()
        if index is not None:
            self.browse.show_diagnostics(self.browse.index.games[index])

    def action_all_diagnostics(self) -> None:
        self.browse.show_diagnostics(None)
