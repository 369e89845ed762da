"""The recorder's HUD: each player at the table's fold and bluff rates over the hands
recorded before this one, with their sample sizes.

The history is every log of the recorder's folder (or the paths given with
``--history``) but the log being recorded, counted once, in a worker; the log being
recorded is counted again, in a worker, at each new hand, and only its hands before
the current one count (:mod:`truclog.stats.asof`), so the HUD never shows the hand
being played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.worker import get_current_worker

from truclog.tui.widgets.asof import AsOfPanel

if TYPE_CHECKING:
    from truclog.record.recorder import Recorder
    from truclog.stats.asof import AsOf


@dataclass
class HistoryCounted(Message):
    """The history worker counted the other logs' hands."""

    history: AsOf


@dataclass
class RecordedCounted(Message):
    """The worker counting the log being recorded counted it."""

    current: AsOf


def history_files(sources: Sequence[str], log: Path) -> list[str]:
    """The log files of ``sources`` but ``log`` itself (those that cannot be read are
    left out: the HUD is a help, not a check)."""
    from truclog.errors import TruclogError
    from truclog.format.reader import log_files

    files: list[str] = []
    for source in sources:
        try:
            found = log_files([source])
        except (TruclogError, OSError):
            continue
        files.extend(f for f in map(str, found) if Path(f).absolute() != log.absolute())
    return files


class Hud(AsOfPanel):
    """Each player's rates before the hand being recorded."""

    def __init__(self, recorder: Recorder, sources: Sequence[str], id: str | None = None) -> None:
        super().__init__(id=id)
        self.recorder = recorder
        self.sources = list(sources) or [str(recorder.path.parent)]
        self.history: AsOf | None = None
        self.current: AsOf | None = None
        self.place: tuple[int, int] | None = None
        """The game line and hand the current log was counted for."""

    def on_mount(self) -> None:
        """Counts the earlier logs' statistics and the log being recorded, in workers."""
        self.waiting()
        self.count_history(self.sources, self.recorder.path)
        self.follow()

    @work(thread=True, exclusive=True, group="hud-history", exit_on_error=False)
    def count_history(self, sources: list[str], log: Path) -> None:
        """In a worker: counts the players' statistics in the logs of ``sources`` but ``log``."""
        from truclog.stats.asof import read_as_of

        worker = get_current_worker()
        history = read_as_of(history_files(sources, log), stop=lambda: worker.is_cancelled)
        if history is not None and not worker.is_cancelled:
            self.post_message(HistoryCounted(history))

    def on_history_counted(self, message: HistoryCounted) -> None:
        """Keeps the other logs' counts and shows the sums."""
        self.history = message.history
        self.show()

    def follow(self) -> None:
        """At a new hand (or game), count the log being recorded again."""
        place = self.where()
        if place is None or place == self.place:
            return
        self.place = place
        self.count_current(str(self.recorder.path))

    def where(self) -> tuple[int, int] | None:
        """The line of the current game's ``game`` line, and the hand being played."""
        state = self.recorder.state
        if state is None:
            return None
        line = len(self.recorder.entries) - len(self.recorder.game_entries) + 1
        return line, state.hand_no

    @work(thread=True, exclusive=True, group="hud-current", exit_on_error=False)
    def count_current(self, log: str) -> None:
        """In a worker: counts the statistics of ``log``, the log being recorded."""
        from truclog.stats.asof import read_as_of

        worker = get_current_worker()
        current = read_as_of([log], stop=lambda: worker.is_cancelled)
        if current is not None and not worker.is_cancelled:
            self.post_message(RecordedCounted(current))

    def on_recorded_counted(self, message: RecordedCounted) -> None:
        """Keeps the recorded log's counts and shows the sums."""
        self.current = message.current
        self.show()

    def show(self) -> None:
        """Shows each player's statistics before the current hand: the other logs' and this log's
        hands so far, once both are counted."""
        state, place = self.recorder.state, self.place
        if self.history is None or self.current is None or state is None or place is None:
            return
        log = str(self.recorder.path)
        line, hand = place
        counts = [
            self.history.total(p) + self.current.before(p, log, line, hand) for p in state.players
        ]
        self.show_counts(counts, f"as of hand {hand}: the hands recorded before it")
