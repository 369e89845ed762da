"""The browser app: lists the games of its logs from a quick index and moves between screens.

An index worker has each log read once, in a child process
(:func:`~truclog.tui.browse.catalog.index_in_child`), and posts the games it lists
to the games screen as :class:`GamesRead` messages; a game's hands are checked
only when it is opened. Once everything
is read, a log that grows (being written by ``truclog record`` or a server) is
read again from its last game, every :data:`FOLLOW_SECONDS`.
"""

from __future__ import annotations

import gc
import tempfile
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, get_current_worker

from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.tui.browse.asof import AsOfCounter
from truclog.tui.browse.catalog import (
    Catalog,
    GameEntry,
    Indexer,
    file_size,
    index_tail,
    open_game,
    path_problem,
    start_index,
)
from truclog.tui.browse.messages import (
    GameGrew,
    GamesIndexed,
    GamesRead,
    GamesReviewed,
    LogGrew,
    LogsOpened,
    MistakesFound,
    ReviewStopped,
    StatsCounted,
    StatsReady,
)
from truclog.tui.browse.screens.games import GamesScreen
from truclog.tui.widgets.shown import SHOWN

if TYPE_CHECKING:
    from truclog.diagnostic import Diagnostic
    from truclog.stats.leaks import LeakCounts
    from truclog.tui.browse.mistakes import Mistakes
    from truclog.tui.browse.notes import LogNotes
    from truclog.tui.browse.screens import PlayersScreen
    from truclog.validate.checker import CheckedGame

FOLLOW_SECONDS = 1.0
"""How often a log is looked at for new lines once it has been read."""
DIAGNOSED_GAMES = 200
"""Games opened for the list of every diagnostic; the games list shows the others."""
LATER_MODULES = (
    "truclog.validate.checker",
    "truclog.tui.browse.review",
    "truclog.tui.browse.standings",
    "polars",
)
"""What the games screen does not need: imported once it shows its first games, so that
opening a game or another screen, or filtering, does not wait for it."""


class BrowseApp(App[None]):
    """Browse truclog logs: games, hands, replays, players."""

    CSS_PATH = "browse.tcss"
    TITLE = "truclog browse"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's line filters, then :data:`SHOWN`: text from logs drawn, never obeyed."""
        return [*super().get_line_filters(), SHOWN]

    def __init__(
        self,
        sources: Sequence[str],
        me: str | None = None,
        bluff_threshold: float = BLUFF_THRESHOLD,
        indexer: tuple[Indexer, tempfile.TemporaryDirectory[str] | None] | None = None,
    ) -> None:
        """``indexer``: the index of ``sources`` already started (see
        :func:`~truclog.tui.browse.catalog.start_index`), else the app starts it."""
        super().__init__()
        self.sources = list(sources)
        self.me = me
        self.bluff_threshold = bluff_threshold
        self.catalog = Catalog()
        self.loaded = False
        self.stats: StatsReady | None = None
        self.games_screen = GamesScreen()
        self.as_of = AsOfCounter(self)
        self.leak_counts: LeakCounts | None = None
        self.indexer = indexer
        self.reading: Indexer | None = None
        self.spool_dir: tempfile.TemporaryDirectory[str] | None = None
        self.sizes: dict[str, int] = {}
        self.preloading = False
        self.preloaded = False
        self.following: Worker[None] | None = None
        self.counting: Worker[None] | None = None
        self.froze = False
        self._notes: LogNotes | None = None
        self.reviewed: Mistakes | None = None
        """Each player's costliest decisions, once the logs are reviewed."""
        self.reviewing: Worker[None] | None = None

    @property
    def notes(self) -> LogNotes:
        """The notes files of the logs browsed (imported when a hand first needs them)."""
        if self._notes is None:
            from truclog.tui.browse.notes import LogNotes

            self._notes = LogNotes()
        return self._notes

    def on_mount(self) -> None:
        """Shows the games list and starts reading the logs into it."""
        self.push_screen(self.games_screen)
        self.index_logs()

    async def action_quit(self) -> None:
        """Quit at once: workers are cancelled, not waited for."""
        self.workers.cancel_all()
        self.exit()

    def on_unmount(self) -> None:
        """Stops the index and the log reading, which Textual does not wait for."""
        if self.indexer is not None:  # never started to read
            (indexer, self.spool_dir), self.indexer = self.indexer, None
            indexer.stop()
        if self.reading is not None:  # Textual does not wait for the worker reading it
            self.reading.stop()
        if self.spool_dir is not None:
            self.spool_dir.cleanup()
        if self.froze:
            gc.unfreeze()

    # --- the index worker ---------------------------------------------------

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def index_logs(self) -> None:
        """List every game of the logs (indexed in a child process), posting them to the
        app as they come (:class:`GamesIndexed`): the app lists them in its catalog."""
        worker = get_current_worker()
        stop = lambda: worker.is_cancelled  # noqa: E731
        indexer, self.spool_dir = self.indexer or start_index(self.sources)
        self.indexer, self.reading = None, indexer
        try:
            pairs, problems = indexer.files(stop)
            self.post_message(LogsOpened(pairs))
            if problems:
                self.post_message(GamesIndexed([], problems, 0.0, False))
            done = False
            for batch, fraction in indexer.batches(stop):
                entries = [item for item in batch if isinstance(item, GameEntry)]
                found = [item for item in batch if not isinstance(item, GameEntry)]
                done = fraction == 1.0
                self.post_message(GamesIndexed(entries, found, fraction, done))
        finally:
            indexer.stop()
        if worker.is_cancelled:
            return
        if not done:
            where = ", ".join(path for _, path in pairs) or ", ".join(self.sources)
            stopped = path_problem(where, "reading stopped before the end")
            self.post_message(GamesIndexed([], [stopped], 1.0, True))
        for reading, _ in pairs:
            self.sizes[reading] = file_size(reading)

    def on_logs_opened(self, message: LogsOpened) -> None:
        """Know where each log is read from."""
        for reading, path in message.pairs:
            self.catalog.reading[path] = reading

    def on_games_indexed(self, message: GamesIndexed) -> None:
        """List the games read in the catalog, on the app's thread, and show them."""
        start = len(self.catalog.entries)
        self.catalog.add(message.entries)
        read = GamesRead(message.entries, message.problems, message.fraction, message.done, start)
        self.games_screen.post_message(read)
        if self.preloaded and message.entries:  # polars is imported: not while the first show
            self.index_columns()

    @work(thread=True, exclusive=True, group="columns", exit_on_error=False)
    def index_columns(self) -> None:
        """Bring the catalog's list columns up to its entries, off the app's thread (the
        catalog's lock keeps them whole), so that filtering and sorting find them ready."""
        self.catalog.index_columns()

    def preload(self) -> None:
        """Import the other screens, the validator and polars in a worker, once, then build
        the columns filtering and sorting read (the games screen calls it a moment after
        its first games are drawn: an import holds the interpreter for a while, and the
        screen must be written out first)."""
        if not self.preloading:
            self.preloading = True
            self.import_later()

    @work(thread=True, exclusive=True, group="preload", exit_on_error=False)
    def import_later(self) -> None:
        """In a worker: import what the other screens need, then index the list columns."""
        import importlib

        from truclog.tui.browse import screens

        for name in LATER_MODULES:
            importlib.import_module(name)
        screens.import_all()
        self.preloaded = True
        self.catalog.index_columns()

    def on_games_read(self, message: GamesRead) -> None:
        """Once every log is listed, look at the last one for new lines."""
        if message.done and not self.loaded:
            self.loaded = True
            # the index lives as long as the app: collections need not scan it; what
            # someone else froze is theirs to undo
            self.froze = not gc.get_freeze_count()
            if self.froze:
                gc.freeze()
            self.set_interval(FOLLOW_SECONDS, self.look_for_lines)

    def look_for_lines(self) -> None:
        """Every few seconds: follow the last log listed if it grew (once at a time)."""
        entries = self.catalog.entries
        if not entries or (self.following is not None and not self.following.is_finished):
            return
        last = entries[-1]
        reading = self.catalog.reading.get(last.path, last.path)
        if reading.endswith(".gz") or file_size(reading) == self.sizes.get(reading, -1):
            return
        self.following = self.follow(last, reading)

    @work(thread=True, exclusive=True, group="follow", exit_on_error=False)
    def follow(self, last: GameEntry, reading: str) -> None:
        """Read the last game again, and the games after it, from the log that grew, and
        tell the app (:class:`LogGrew`)."""
        entries: list[GameEntry] = []
        game = None
        try:
            size = file_size(reading)
            entries = list(index_tail(reading, last))
            self.sizes[reading] = size
            game = open_game(entries[0], reading) if entries else None
        finally:
            self.post_message(LogGrew(last, entries, game))

    def on_log_grew(self, message: LogGrew) -> None:
        """List the games read again in place of the last one, and give the game read again
        to the screens that show it."""
        entries = message.entries
        if not entries:
            return
        start = len(self.catalog.entries) - 1
        self.catalog.replace_last(entries)
        self.games_screen.post_message(GamesRead(entries, [], 1.0, True, start, replaced=True))
        self.index_columns()
        if message.game is None:
            return
        from truclog.tui.browse.screens import HandsScreen, ReplayScreen

        for screen in self.screen_stack:
            if isinstance(screen, HandsScreen | ReplayScreen) and screen.entry is message.last:
                screen.post_message(GameGrew(message.game, entries[0]))

    # --- the statistics worker ----------------------------------------------

    def count_statistics(self, screen: PlayersScreen) -> None:
        """Count every player's statistics once, unless it is being done."""
        if self.counting is None or self.counting.is_finished:
            self.counting = self.count_players()

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def count_players(self) -> None:
        """In a worker: count statistics in a child process, posting progress to the players
        screens; the result is kept."""
        from truclog.tui.browse.standings import Hindsight, count_players

        worker = get_current_worker()
        catalog = self.catalog

        def counted(hands: int) -> None:
            total = sum(e.hands for e in catalog.entries)
            self.tell_players(StatsCounted(hands, total))

        def ready(rows: list[dict[str, Any]], hindsight: Hindsight | None) -> None:
            games = sum(e.duplicate_of is None for e in catalog.entries)
            self.stats = StatsReady(rows, games, hindsight)
            self.tell_players(self.stats)

        try:
            count_players(
                list(catalog.reading.values()),
                self.bluff_threshold,
                counted,
                ready,
                lambda: worker.is_cancelled,
            )
        except RuntimeError as exc:
            self.call_from_thread(
                self.notify, f"statistics failed: {exc}", severity="error", markup=False
            )

    def tell_players(self, message: StatsCounted | StatsReady) -> None:
        """Passes the statistics' progress or result to every open players screen."""
        from truclog.tui.browse.screens import PlayersScreen

        for screen in list(self.screen_stack):
            if isinstance(screen, PlayersScreen):
                screen.post_message(message)

    # --- the review worker ------------------------------------------------------

    def review_decisions(self) -> None:
        """Review every decision of the logs once, unless it is done or being done."""
        if self.reviewed is None and (self.reviewing is None or self.reviewing.is_finished):
            self.reviewing = self.review_logs()

    def stop_review(self) -> bool:
        """Stop the review under way (nothing is kept); whether one was."""
        worker = self.reviewing
        if worker is None or worker.is_finished:
            return False
        worker.cancel()
        self.tell_reviewing(lambda: ReviewStopped("review stopped"))
        return True

    def review_stopped(self) -> bool:
        """Whether the review was stopped: news of how far it had read may still come
        (its worker told them as it was stopped), and are not news any more."""
        worker = self.reviewing
        return worker is not None and worker.is_cancelled

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def review_logs(self) -> None:
        """In a worker: review the logs in a child process, telling the screens how much
        is read, then each player's costliest decisions; each game's points lost go to
        its entry in the games list."""
        from truclog.tui.browse.mistakes import review_in_child

        worker = get_current_worker()
        catalog = self.catalog
        entries = list(catalog.entries)
        lines: dict[str, list[int]] = {}
        for entry in entries:
            lines.setdefault(entry.path, []).append(entry.line)
        reading = dict(catalog.reading)
        total = sum(file_size(path) for path in reading.values())

        def progress(read: int) -> None:
            self.tell_reviewing(lambda: GamesReviewed(read, total))

        try:
            done = review_in_child(reading, lines, progress, lambda: worker.is_cancelled)
        except RuntimeError as exc:
            self.call_from_thread(
                self.notify, f"the review failed: {exc}", severity="error", markup=False
            )
            failed = f"the review failed: {exc}"
            self.tell_reviewing(lambda: ReviewStopped(failed))
            return
        if done is None:
            return
        found, lost = done
        catalog.take_lost(entries, lost)
        self.call_from_thread(self.reviewed_all, found)

    def reviewed_all(self, found: Mistakes) -> None:
        """Keep what the review found, and tell the screens."""
        self.reviewed = found
        self.tell_reviewing(lambda: MistakesFound(found))

    def tell_reviewing(self, news: Callable[[], Message]) -> None:
        """Tell the games screen and the mistakes screens how the review goes (each its
        own message, ``news()``)."""
        from truclog.tui.browse.screens.mistakes import MistakesScreen

        self.games_screen.post_message(news())
        for screen in self.screen_stack:
            if isinstance(screen, MistakesScreen):
                screen.post_message(news())

    # --- moving between screens -------------------------------------------

    def open_game(self, entry: GameEntry) -> None:
        """Shows the hands of ``entry``'s game, or says that its log can no longer be read."""
        from truclog.tui.browse.screens import HandsScreen

        game = self.catalog.open(entry)
        if game is None:
            self.notify("this game cannot be read again from its log", severity="error")
            return
        self.push_screen(HandsScreen(game, entry))

    def open_hand(
        self, game: CheckedGame, hand: int, position: int = 0, entry: GameEntry | None = None
    ) -> None:
        """Replay a hand (0-based in the game); from the hands screen or another replay."""
        from truclog.tui.browse.screens import ReplayScreen

        if isinstance(self.screen, ReplayScreen) and self.screen.game is game:
            self.screen.load_hand(hand, position)
            return
        self.push_screen(ReplayScreen(game, hand, position, entry))

    def show_game_diagnostics(self, entry: GameEntry) -> None:
        """Lists the diagnostics of ``entry``'s game."""
        game = self.catalog.open(entry)
        if game is not None:
            self.show_diagnostics(game)

    def show_diagnostics(self, game: CheckedGame | None) -> None:
        """Lists the diagnostics of ``game``, or with ``None`` those outside games and of the first
        games that have some."""
        from truclog.tui.browse.screens import DiagnosticsScreen

        if game is not None:
            self.push_screen(DiagnosticsScreen(list(game.diagnostics), game.id))
            return
        found = list(self.catalog.problems)
        diagnosed = [e for e in self.catalog.entries if e.diagnostics]
        for entry in diagnosed[:DIAGNOSED_GAMES]:
            opened = self.catalog.open(entry)
            found.extend(opened.diagnostics if opened is not None else ())
        title = "all logs"
        if len(diagnosed) > DIAGNOSED_GAMES:
            title += f" (the first {DIAGNOSED_GAMES} of {len(diagnosed)} games with some)"
        self.push_screen(DiagnosticsScreen(found, title))

    def open_diagnostic(self, diagnostic: Diagnostic) -> bool:
        """Replay the hand a diagnostic is about, at its line; False if it is in no hand."""
        from truclog.tui.browse.screens import ReplayScreen

        entry = self.catalog.entry_at(diagnostic.path, diagnostic.line)
        game = self.catalog.open(entry) if entry is not None else None
        if game is None:
            return False
        for i, hand in enumerate(game.hands):
            for position, step in enumerate(hand.steps):
                if step.line == diagnostic.line:
                    self.push_screen(ReplayScreen(game, i, position, entry))
                    return True
        return False

    def find_hands(self, player: str | None = None, event: str | None = None) -> None:
        """Opens the search for hands, already filled in with ``player`` and ``event`` when
        given."""
        from truclog.tui.browse.screens import FindHandsScreen

        self.push_screen(FindHandsScreen(player, event))

    def action_players(self) -> None:
        from truclog.tui.browse.screens import PlayersScreen

        if not isinstance(self.screen, PlayersScreen):
            self.push_screen(PlayersScreen())

    def action_mistakes(self) -> None:
        from truclog.tui.browse.screens import MistakesScreen

        if not isinstance(self.screen, MistakesScreen):
            self.push_screen(MistakesScreen())

    def action_leaks(self) -> None:
        """A player's leaks: the player under the cursor of the players screen, else
        the recorder's name (``--me``), else the one asked for."""
        from truclog.tui.browse.screens import PlayerPrompt, PlayersScreen

        screen = self.screen
        player = screen.player if isinstance(screen, PlayersScreen) else self.me
        if player is not None:
            self.open_leaks(player)
            return

        def chosen(name: str | None) -> None:
            if name is not None:
                self.open_leaks(name)

        self.push_screen(PlayerPrompt(self.catalog.players()), chosen)

    def open_leaks(self, player: str) -> None:
        """Shows where ``player``'s decisions cost the most."""
        from truclog.tui.browse.screens import LeaksScreen

        self.push_screen(LeaksScreen(player))

    def action_help(self) -> None:
        from truclog.tui.browse.screens import BrowseHelpScreen

        if not isinstance(self.screen, BrowseHelpScreen):
            self.push_screen(BrowseHelpScreen())

    def action_goto_hand(self) -> None:
        """Ask for a hand number, then replay that hand of the current game."""
        from truclog.tui.browse.screens import GoToHandScreen, HandsScreen, ReplayScreen

        screen = self.screen
        if not isinstance(screen, HandsScreen | ReplayScreen):
            self.notify("open a game first", timeout=2)
            return
        game = screen.game

        def chosen(number: int | None) -> None:
            if number is None:
                return
            for i, hand in enumerate(game.hands):
                if hand.number == number:
                    self.open_hand(game, i, entry=screen.entry)
                    return
            self.notify(f"this game has no hand {number}", severity="warning", timeout=3)

        self.push_screen(GoToHandScreen(len(game.hands)), chosen)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands, the app's screens, and on a replay its moves."""
        from truclog.tui.browse.screens import HandsScreen, ReplayScreen

        yield from super().get_system_commands(screen)
        yield SystemCommand("Games", "The list of every game", self.action_games)
        yield SystemCommand("Players", "Player statistics", self.action_players)
        yield SystemCommand(
            "Mistakes", "A player's costliest decisions; drill them", self.action_mistakes
        )
        yield SystemCommand("Find hands", "Hands by player and event", self.find_hands)
        yield SystemCommand("Leaks", "Where a player's decisions cost the most", self.action_leaks)
        yield SystemCommand("Diagnostics", "Every diagnostic of the logs", self.action_diagnostics)
        yield SystemCommand("Help", "Every key of every screen", self.action_help)
        if isinstance(screen, HandsScreen | ReplayScreen):
            yield SystemCommand("Go to hand…", "Replay hand N of this game", self.action_goto_hand)
        if isinstance(screen, ReplayScreen):
            yield SystemCommand("Next hand", "Replay the next hand", screen.action_next_hand)
            yield SystemCommand(
                "Previous hand", "Replay the previous hand", screen.action_previous_hand
            )
            yield SystemCommand("Next raise", "Step to the next raise", screen.action_next_raise)
            yield SystemCommand(
                "Change view", "Onlooker, a seat, or every card", screen.action_view
            )
            yield SystemCommand("Copy hand", "The hand as text", screen.action_copy)
            yield SystemCommand(
                "Share this hand", "Its replay as one HTML file to send", screen.action_share
            )
            yield SystemCommand(
                "Analysis graph", "Show or hide the worth graph", screen.action_worth
            )

    def action_games(self) -> None:
        while len(self.screen_stack) > 2 and not isinstance(self.screen, GamesScreen):
            self.pop_screen()

    def action_diagnostics(self) -> None:
        self.show_diagnostics(None)
