"""Find hands: by player, by event (a bluff, a reste, a fold to a raise, a redeal, an
error) and by notes (a mark, or words of a note), searched game by game in the
background; enter replays one."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Header, Input, Select, Static
from textual.worker import get_current_worker

from truclog.replay import Hand
from truclog.tui.browse.catalog import GameEntry
from truclog.tui.browse.index import summarize_hand
from truclog.tui.browse.messages import HandsFound
from truclog.tui.browse.review import EVENTS, event_frame, hand_events
from truclog.tui.browse.screens.base import BrowseScreen, row_table
from truclog.tui.browse.screens.hands import COLUMNS as HAND_COLUMNS
from truclog.tui.browse.screens.hands import hand_row
from truclog.tui.widgets.footer import KeysFooter

ANY = "any hand"
FOUND_AT_MOST = 10_000
"""Hands listed at most; the search stops there and says so."""
POST_SECONDS = 0.2


class FindHandsScreen(BrowseScreen):
    """Hands of a player (or anyone) holding an event (or any hand)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", id="find.replay"),
        Binding("escape", "app.pop_screen", "Back", id="find.back"),
    ]

    def __init__(
        self, player: str | None = None, event: str | None = None, noted: str | None = None
    ) -> None:
        super().__init__()
        self.player = player or ""
        self.event = event or ANY
        self.noted = noted or ""
        """A mark, or words of a note, the hands must have (empty: any hand)."""
        self.found: list[tuple[GameEntry, int]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="find-bar"):
            yield Input(self.player, placeholder="player (empty: anyone)", id="find-player")
            options = [(ANY, ANY), *((e, e) for e in EVENTS), ("raise", "raise")]
            yield Select(options, value=self.event, allow_blank=False, id="find-event")
            yield Input(
                self.noted, placeholder="mark (#mark: marks only) or note words", id="find-noted"
            )
        yield Static(id="find-heading")
        yield row_table("find-table", ("game", *(column.label for column in HAND_COLUMNS)))
        yield KeysFooter()

    def on_mount(self) -> None:
        """Focuses the list when a player is chosen, else the player field, and starts the
        search."""
        self.sub_title = "find hands"
        if self.player:  # the hands of a player chosen already: to move among at once
            self.table.focus()
        else:  # a name can be typed at once
            self.query_one("#find-player", Input).focus()
        self.search()

    @property
    def table(self) -> DataTable[Any]:
        """The list of hands found."""
        return self.query_one("#find-table", DataTable)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Searches again with the player or the note text typed."""
        if event.input.id == "find-noted":
            self.noted = event.value.strip()
        else:
            self.player = event.value.strip()
        self.search()
        self.table.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        """Searches again for the event chosen."""
        if isinstance(event.value, str) and event.value != self.event:
            self.event = event.value
            self.search()

    def search(self) -> None:
        """Start the search again with the current player and event."""
        self.found = []
        self.table.clear()
        self.heading(0, 0, False)
        entries = self.browse.catalog.entries
        player = self.player.casefold()
        games = [e for e in entries if not player or player in map(str.casefold, e.players)]
        self.look(games, self.player, self.event, self.noted)

    @work(thread=True, exclusive=True, group="find", exit_on_error=False)
    def look(self, games: list[GameEntry], player: str, event: str, noted: str) -> None:
        """In a worker: open each game, keep the hands holding the event, post them in batches."""
        worker = get_current_worker()
        catalog, threshold = self.browse.catalog, self.browse.bluff_threshold
        batch: list[tuple[GameEntry, int, tuple[Any, ...]]] = []
        sent, found = time.monotonic(), 0
        for searched, entry in enumerate(games, 1):
            if worker.is_cancelled:
                return
            game = catalog.open(entry)
            noted_hands = self.browse.notes.hands(game) if game is not None and noted else []
            for i, hand in enumerate(game.hands if game is not None else ()):
                assert game is not None
                if not _holds(hand_events(game, hand, threshold), player, event):
                    continue
                if noted and not has_notes(noted_hands[i], noted):
                    continue
                batch.append((entry, i, (Text(entry.id), *hand_row(game, summarize_hand(hand)))))
                found += 1
            if found >= FOUND_AT_MOST or time.monotonic() - sent >= POST_SECONDS:
                self.post_message(HandsFound(batch, searched, len(games), found >= FOUND_AT_MOST))
                batch, sent = [], time.monotonic()
                if found >= FOUND_AT_MOST:
                    return
        self.post_message(HandsFound(batch, len(games), len(games), True))

    def on_hands_found(self, message: HandsFound) -> None:
        """Lists the hands the search worker found in its latest batch of games."""
        self.table.add_rows(row for _, _, row in message.found)
        self.found.extend((entry, hand) for entry, hand, _ in message.found)
        self.heading(message.searched, message.total, message.done)

    def heading(self, searched: int, total: int, done: bool) -> None:
        """Says what is searched for, how many hands are found, and how far the search has got."""
        who = self.player or "anyone"
        noted = f" · noted '{self.noted}'" if self.noted else ""
        text = Text(f"{self.event} · {who}{noted}: {len(self.found)} hands", style="bold")
        if done and len(self.found) >= FOUND_AT_MOST:
            text.append(f" (the first {FOUND_AT_MOST}; name a player to narrow)", style="yellow")
        elif done and not self.found:
            text.append(" · no hand matches", style="yellow")
        elif not done:
            text.append(f" · searching: {searched} of {total} games…", style="dim")
        self.query_one("#find-heading", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on a row replays that hand."""
        self.action_replay()

    def action_replay(self) -> None:
        row = self.table.cursor_row
        if 0 <= row < len(self.found):
            entry, hand = self.found[row]
            game = self.browse.catalog.open(entry)
            if game is not None:  # from the event found, not from the deal
                threshold = self.browse.bluff_threshold
                at = event_frame(game, game.hands[hand], self.event, self.player, threshold)
                self.browse.open_hand(game, hand, at, entry=entry)


def has_notes(hand: Hand, noted: str) -> bool:
    """Whether a hand has the mark ``noted`` (any case), or a note holding its words;
    ``#bluff?`` asks for the mark only."""
    wanted = noted.casefold()
    marks = {mark.casefold() for mark in hand.marks}
    if wanted.startswith("#"):
        return wanted[1:] in marks
    return wanted in marks or any(wanted in note.casefold() for note in hand.notes)


def _holds(events: dict[str, set[str]], player: str, event: str) -> bool:
    """Whether a hand's events hold ``event`` by ``player`` (anyone when empty)."""
    if event == ANY:
        return True
    who = events.get(event)
    if who is None:
        return False
    return not player or not who or player.casefold() in map(str.casefold, who)
