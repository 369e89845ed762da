"""Statistics as of the hand replayed: each player's fold and bluff rates over the hands
before it in the open logs (:mod:`truclog.stats.asof`: in the order of the files, then
of the lines), with their sample sizes, drawn beside the replay.

The running counts are worked out once, the first time a replay asks
(:meth:`AsOfCounter.start`), in a process of their own (:mod:`truclog.tui.browse.child`:
counting in the browser's process would slow every screen while it runs), which
writes them to two files the browser reads back, a column at a time (reading a whole
file at once holds it twice); every replay screen then hears of the
progress and of the result (:class:`AsOfCounted`, :class:`AsOfReady`), and each hand
is one look-up.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.worker import get_current_worker

from truclog.tui.browse.child import Tell, documents, serve
from truclog.tui.widgets.asof import AsOfPanel

if TYPE_CHECKING:
    from truclog.stats.asof import AsOf, Running
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


STEPS, PLAYERS = "steps.arrow", "players.arrow"
"""The files of the running counts the child writes: their rows, and the players'."""

__all__ = [
    "AsOfCounted",
    "AsOfCounter",
    "AsOfPanel",
    "AsOfReady",
    "count_in_child",
    "read_running",
    "write_running",
]


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
        ``total`` hands) in a child process, telling the replays how far it has got, then
        that they are ready."""
        worker, app = get_current_worker(), self.app

        def counted(hands: int) -> None:
            app.call_from_thread(self.tell, AsOfCounted(hands, total))

        try:
            as_of = count_in_child(logs, app.bluff_threshold, counted, lambda: worker.is_cancelled)
        except RuntimeError as exc:
            why = f"the statistics as of each hand failed: {exc}"
            app.call_from_thread(app.notify, why, severity="error", markup=False)
            return
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


def count_in_child(
    logs: list[str], threshold: float, counted: Callable[[int], None], stop: Callable[[], bool]
) -> AsOf | None:
    """The running counts of ``logs`` (:func:`truclog.stats.asof.read_as_of`), counted in
    a child process that writes them to files of a folder of its own, read back here:
    ``counted`` hears the hands counted so far; ``None`` once ``stop()`` says to stop (the
    child is killed). Raises ``RuntimeError`` when the counting fails."""
    from truclog.stats.asof import AsOf

    with tempfile.TemporaryDirectory(prefix="truclog-asof-") as folder:
        asked = {"paths": logs, "threshold": threshold, "folder": folder}
        with closing(documents(__name__, asked, stop, "statistics as of each hand")) as news:
            for document in news:
                if "hands" in document:
                    counted(document["hands"])
                elif "counted" in document:
                    return AsOf(read_running(folder), logs, document["counted"])
    return None


def write_running(running: Running, folder: str) -> None:
    """Writes ``running`` to ``folder`` (:func:`read_running` reads it back)."""
    running.steps.write_ipc(os.path.join(folder, STEPS))
    running.players.write_ipc(os.path.join(folder, PLAYERS))


def read_running(folder: str) -> Running:
    """The running counts :func:`write_running` wrote to ``folder``, each column read on
    its own: the memory it takes is theirs and one column's."""
    import polars as pl

    from truclog.stats.asof import PLAYERS_SCHEMA, STEPS_SCHEMA, Running

    def columns(name: str, schema: dict[str, Any]) -> pl.DataFrame:
        path = os.path.join(folder, name)
        return pl.DataFrame([pl.read_ipc(path, columns=[c]).to_series() for c in schema])

    return Running(columns(STEPS, STEPS_SCHEMA), columns(PLAYERS, PLAYERS_SCHEMA))


def _count(asked: dict[str, Any], tell: Tell) -> None:
    """In the child process: count the logs asked, telling the hands counted as it goes,
    then write the running counts to the folder asked and tell how many hands they hold."""
    from truclog.stats.asof import running_counts

    def counted(hands: int) -> None:
        tell({"hands": hands})

    found = running_counts(asked["paths"], asked["threshold"], counted=counted)
    assert found is not None  # nothing stops it but being killed
    running, hands = found
    write_running(running, asked["folder"])
    tell({"counted": hands})


if __name__ == "__main__":
    serve(_count)
