"""The notes and marks of the hands browsed: each log's notes file read again when it
changes on disk, and the notes file written through :func:`truclog.record.annotations.annotate`.

The browser never writes to a log: what is noted in it goes to the log's notes file
(``LOG.notes.jsonl``), edited under its lock, so that another program annotating the
same log meanwhile loses nothing. A notes file changed by another program is read
again the next time a hand of its log is drawn or searched.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from truclog.errors import TruclogError
from truclog.format.reader import STDIN
from truclog.record.annotations import Annotation, Notes, annotate, notes_path, read_notes
from truclog.replay import Game, Hand
from truclog.validate.checker import CheckedGame


class LogNotes:
    """The notes files of the logs browsed, each read once per change (thread safe: the
    search reads them in a worker)."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[tuple[int, int] | None, Notes]] = {}
        self._lock = threading.Lock()

    def of(self, log: str) -> Notes:
        """The notes file of ``log`` as it is on disk now (empty without one)."""
        stamp = _stamp(log)
        with self._lock:
            known = self._read.get(log)
            if known is not None and known[0] == stamp:
                return known[1]
        found = Notes(log) if stamp is None else _read(log)
        with self._lock:
            self._read[log] = (stamp, found)
        return found

    def hand(self, game: CheckedGame, index: int) -> Hand:
        """Hand ``index`` (0-based) of ``game``, with the notes and marks of its lines and
        of its log's notes file."""
        return Game(game, self.of(game.path)).hands[index]

    def hands(self, game: CheckedGame) -> list[Hand]:
        """Every hand of ``game``, each with the notes and marks of its log's notes file."""
        return Game(game, self.of(game.path)).hands

    def write(
        self, game: CheckedGame, hand: int, step: int, note: str, marks: Sequence[str],
        before: Annotation | None,
    ) -> Annotation:  # fmt: skip
        """Give one step (``hand`` its number) the note and marks typed for it: the marks
        of ``before`` (the notes file's annotation the dialog showed) that were taken out
        are taken off, new ones added, so that a mark another program added meanwhile stays."""
        if not writable(game.path):
            raise TruclogError(f"{game.path}: a log read from here cannot have a notes file")
        old = before.marks if before is not None else ()
        removed = [mark for mark in old if mark not in marks]
        made = annotate(game.path, game.id, hand, step, note=note, add=marks, remove=removed)
        with self._lock:
            self._read.pop(game.path, None)
        return made


def writable(log: str) -> bool:
    """Whether a log has a place for a notes file: a local file (not standard input or a URL)."""
    return log != STDIN and "://" not in log


def _stamp(log: str) -> tuple[int, int] | None:
    if not writable(log):
        return None
    try:
        found = os.stat(notes_path(log))
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size


def _read(log: str) -> Notes:
    try:
        return read_notes(log)
    except TruclogError:  # unreadable now: drawn without its annotations
        return Notes(log)
