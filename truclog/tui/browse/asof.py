"""Statistics as of the hand replayed: each player's fold and bluff rates over the hands
before it in the open logs (:mod:`truclog.stats.asof`: in the order of the files, then
of the lines), with their sample sizes, drawn beside the replay.

The running counts are worked out once, in a worker, the first time a replay asks
(:meth:`AsOfCounter.start`); every replay screen then hears of the progress and of
the result (:class:`AsOfCounted`, :class:`AsOfReady`), and each hand is one look-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import get_current_worker

from truclog.tui.widgets.asof import AsOfPanel

if TYPE_CHECKING:
    from truclog.stats.asof import AsOf
    from truclog.tui.browse.app import BrowseApp


@dataclass
class AsOfCounted(Message):
    """Hands counted so far of ``total``."""

    hands: int
    total: int


@dataclass
class AsOfReady(Message):
    """The running counts of the open logs."""

    as_of: AsOf


__all__ = ["AsOfCounted", "AsOfCounter", "AsOfPanel", "AsOfReady"]


class AsOfCounter:
    """The app's running counts: counted once, by a worker, for every replay."""

    def __init__(self, app: BrowseApp) -> None:
        self.app = app
        self.as_of: AsOf | None = None

    def start(self) -> None:
        """Count, unless it is done or being done (once for every replay: a replay opened
        meanwhile waits for the same count, which ``exclusive`` would start over)."""
        running = any(w.group == "asof" and w.is_running for w in self.app.workers)
        if self.as_of is None and not running:
            catalog = self.app.catalog
            total = sum(e.hands for e in catalog.entries if e.duplicate_of is None)
            logs = list(catalog.reading.values())
            self.app.run_worker(
                partial(self.count, logs, total), thread=True, group="asof", exit_on_error=False
            )

    def count(self, logs: list[str], total: int) -> None:
        """In a worker: counts every player's statistics before each hand of ``logs`` (about
        ``total`` hands), telling the replays how far it has got, then that they are ready."""
        from truclog.stats.asof import read_as_of

        worker, app = get_current_worker(), self.app
        as_of = read_as_of(
            logs,
            app.bluff_threshold,
            lambda: worker.is_cancelled,
            lambda hands: app.call_from_thread(self.tell, AsOfCounted(hands, total)),
        )
        if as_of is not None and not worker.is_cancelled:
            app.call_from_thread(self.ready, as_of)

    def ready(self, as_of: AsOf) -> None:
        """Keeps the counts and tells every open replay."""
        self.as_of = as_of
        self.tell(AsOfReady(as_of))

    def tell(self, message: AsOfCounted | AsOfReady) -> None:
        """Passes ``message`` to every open replay (on the app's thread)."""
        from truclog.tui.browse.screens import ReplayScreen

        for screen in list(self.app.screen_stack):
            if isinstance(screen, ReplayScreen):
                screen.post_message(message)
