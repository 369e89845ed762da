"""Stream a corpus of logs into statistics or Parquet tables, with bounded memory.

Files are read one by one (on ``jobs`` processes when asked), the games the
quick core clears counted in C as they are read (see :mod:`truclog.stats.cleared`),
the others turned into tables batch by batch and counted; a game seen before (same
fingerprint) is not counted again, so a copied file or overlapping folders
count once, whatever order the files come in.
"""

from __future__ import annotations

import gc
import os
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, TypeVar

from truclog.codes import Read
from truclog.diagnostic import Diagnostic
from truclog.format import parts
from truclog.format.parts import Part, Source, first_line, name_of, open_source
from truclog.format.reader import (
    LONGEST_LINE,
    LogLine,
    log_files,
    rare_collections,
    read_stream,
)
from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.stats.cleared import ClearedCounts, counts_in_core
from truclog.stats.counts import CountRows, Grouping, combine, finish
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.threads import share_cores
from truclog.validate import quick
from truclog.validate.tally import GameTally

if TYPE_CHECKING:  # the pool, the replay and the line-by-line validator: imported when used
    from concurrent.futures import Executor, ProcessPoolExecutor

    import polars as pl

    from truclog.record.annotations import Notes
    from truclog.replay import Game, Paths
    from truclog.validate.checker import CheckedGame

COUNT_BATCH = 20_000
"""Counted action rows per batch (about 10,000 hands): small batches keep memory low
and cost nothing, since each is counted down to a row per player and game."""

Progress = Callable[[int, int], None]
"""Called with bytes read and hands counted since the last call."""

METER_LINES = 4096
"""Lines between two progress reports of the bytes read."""

Done = TypeVar("Done")
"""What one file (or part of a file) gives a run (its counts, its review)."""

Unit = TypeVar("Unit")
"""A file, or part of a file, a run reads (with what else it needs to be read)."""

FileMapper = Callable[[list[Source], Grouping, GameFilter], Iterator["FileCounts"]]
"""Counts each of some files or parts of files (as :func:`count_file` does), given back
in their order."""


@dataclass(slots=True)
class FileCounts:
    """What one file (or part of a file) gave: its counts per player (and team), and
    which games it counted."""

    source: Source
    counts: CountRows
    keys: array[int] = field(default_factory=lambda: array("Q"))
    """The :func:`game_key` of each game read, counted or filtered out, in file order
    (8 bytes a game)."""
    tally: Tally = field(default_factory=Tally)

    @property
    def path(self) -> str:
        """The name of the file counted (its part's file for a part)."""
        return name_of(self.source)


def game_key(fingerprint: str) -> int:
    """A game's fingerprint as a 64-bit number: what a run remembers to count each play once."""
    return int(fingerprint[:16], 16)


def kept_games(
    source: Source,
    keep: GameFilter,
    tally: Tally,
    seen: set[int],
    keys: array[int] | None = None,
    progress: Progress | None = None,
    facts: int = 0,
) -> Iterator[CheckedGame | GameTally]:
    """The games of a file that pass ``keep`` (of a filter by marks, with only their
    marked hands) and whose :func:`game_key` is not in ``seen``
    (which grows); ``keys`` gets the key of every game added to ``seen``, kept or
    filtered out; ``progress`` hears of the bytes read as they are read. With
    ``facts`` (for a narrow :class:`~truclog.stats.tables.TableBuilder`; or
    :data:`~truclog.validate.quick.REVIEW_FACTS`, for the review of decisions), the games
    the quick core clears come as :class:`~truclog.validate.GameTally` with their facts."""
    items: Iterator[CheckedGame | GameTally | Diagnostic]
    path = name_of(source)
    notes = _notes(path) if keep.marks else None
    if facts and quick.facts_available() and not keep.marks:  # marks: hands line by line
        meter = None if progress is None else partial(_bytes_read, progress)
        items = quick.check_log(source, facts=int(facts), meter=meter)
    elif progress is not None:  # lines read one by one: no game comes checked already
        from truclog.validate.games import check_lines

        items = check_lines(path, metered(source, progress))
    else:
        from truclog.validate.games import check_log

        items = check_log(source)
    for item in items:
        if isinstance(item, Diagnostic):
            tally.problems += 1
            tally.not_logs += item.code == Read.NOT_TEXT
            continue
        key = game_key(item.fingerprint)
        if key in seen:
            tally.duplicates += 1
            continue
        seen.add(key)
        if keys is not None:
            keys.append(key)
        marked: CheckedGame | GameTally | None = item
        if keep.marks:  # line by line: a game comes with its hands' lines
            marked = None if isinstance(item, GameTally) else keep.marked(item, notes)
        if marked is None or not keep.keeps(item):
            tally.filtered_out += 1
        else:
            yield marked


def _notes(path: str) -> Notes | None:
    """The notes file of a log, if it has one."""
    from truclog.record.annotations import has_notes, read_notes

    return read_notes(path) if has_notes(path) else None


def _bytes_read(progress: Progress, size: int) -> None:
    progress(size, 0)


def metered(source: Source, progress: Progress) -> Iterator[LogLine]:
    """The lines of a log, telling ``progress`` of the bytes read (of the file itself
    for a ``.gz`` file) every :data:`METER_LINES` lines and at the end."""
    with open_source(source, spool=True) as stream:  # a long game's hands read again
        raw = getattr(stream, "fileobj", stream)
        told = 0

        def lines() -> Iterator[bytes]:
            nonlocal told
            # pieces of lines at most a line's limit long: read_stream joins them again
            pieces = iter(partial(stream.readline, LONGEST_LINE + 1), b"")
            for number, line in enumerate(pieces, 1):
                yield line
                if number % METER_LINES == 0:
                    at = raw.tell()
                    progress(at - told, 0)
                    told = at

        yield from read_stream(lines(), name_of(source), first_line(source))
        if not raw.closed:
            progress(raw.tell() - told, 0)


def count_file(
    source: Source,
    grouping: Grouping,
    keep: GameFilter,
    progress: Progress | None = None,
    seen: set[int] | None = None,
) -> FileCounts:
    """The counts of one file, each play once: copies inside the file, and games whose
    key is in ``seen`` (which grows), are left out. ``progress`` hears of the bytes read
    and of the hands of each batch. Memory does not grow with the file but for
    the keys of its games. A part of a file counts the file in the tally if it is
    its first part."""
    tally = Tally(files=int(parts.starts_log(source)))
    result = FileCounts(source, combine([]), tally=tally)
    seen = set() if seen is None else seen
    games = kept_games(source, keep, tally, seen, result.keys, progress, quick.ROWS_FACTS)
    told = [0]
    if progress is not None:
        games = telling(games, progress, told)
    cleared = ClearedCounts(grouping) if counts_in_core(grouping) else None
    if cleared is not None:  # the games the quick core cleared are counted in C
        games = cleared.others(games, tally)
    with few_collections():
        first = next(games, None)
        if first is not None:  # a game to count from tables: polars imported for it
            from truclog.stats.players import count
            from truclog.stats.tables import table_batches

            for tables in table_batches(chain((first,), games), tally, COUNT_BATCH, narrow=True):
                result.counts.add_all(count(tables, grouping))
    if cleared is not None:
        result.counts.add_all(cleared.counts())
    if progress is not None:  # less the hands left out, with errors
        progress(0, tally.hands - told[0])
    return result


def telling(
    games: Iterator[CheckedGame | GameTally], progress: Progress, told: list[int]
) -> Iterator[CheckedGame | GameTally]:
    """The games, telling ``progress`` of each one's hands as it is read (``told[0]``
    adds them up): the count moves from the first game on, not a batch at a time."""
    for game in games:
        told[0] += game.hand_count
        progress(0, game.hand_count)
        yield game


@contextmanager
def few_collections() -> Iterator[None]:
    """The garbage collector run rarely (see :func:`~truclog.format.reader.rare_collections`)
    and kept off what lives already (see :func:`_frozen`), while a file's games are
    turned into tables."""
    with rare_collections(), _frozen():
        yield


@contextmanager
def _frozen() -> Iterator[None]:
    """Leave what is alive when a file's counting starts (modules, polars, the caller's
    objects) out of the garbage collector's walks until it ends: counting makes many
    objects and few cycles, and each full collection walked them all (a fifth of
    the time of statistics). Nothing is frozen when something else froze objects
    already: that is its owner's to undo."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def collect(
    sources: Sequence[str],
    grouping: Grouping,
    keep: GameFilter | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    each_file: FileMapper | None = None,
) -> tuple[CountRows, Tally]:
    """Counts per player (and team) over every game of ``sources``, each play once
    (the first time it is read, in file order); on ``jobs`` processes, a large file
    is counted in parts (see :mod:`truclog.format.parts`); ``each_file`` counts the
    files elsewhere (see :mod:`truclog.stats.distributed`), in parts for ``jobs``."""
    keep = keep or GameFilter()
    paths = log_files(sources)
    tally = Tally()
    seen: set[int] = set()
    total = combine([])
    units = parts.for_jobs(paths, jobs)
    parallel = each_file is not None or (len(units) > 1 and jobs > 1 and "-" not in paths)
    results = (
        each_file(units, grouping, keep)
        if each_file is not None
        else _each_file(units, grouping, keep, jobs, progress, seen)
    )
    for result in results:
        if parallel and not seen.isdisjoint(result.keys):
            # a copy of a game read before: count this file (or part) again without them
            result = count_file(result.source, grouping, keep, None, seen)
        elif parallel:
            seen.update(result.keys)
        tally.add(result.tally)
        total.add_all(result.counts)
        if progress is not None and parallel:  # else told as the file was read
            progress(file_size(result.source), result.tally.hands)
    return total, tally


def player_stats(
    source: Paths | Iterable[Game | CheckedGame],
    *,
    by_opponent: bool = False,
    threshold: float = BLUFF_THRESHOLD,
    teams: bool = False,
) -> pl.DataFrame:
    """Per-player statistics (per-team with ``teams``) of some logs or games, as a
    DataFrame with the fields of ``truclog stats --format json`` (its ``players``
    objects): counts, rates and their Wilson intervals, and ``win_rate_by_strength``.

    Paths are streamed exactly as ``truclog stats`` streams them; games given are
    counted each play once. ``by_opponent`` splits each row by opponent,
    ``threshold`` is the strength under which a raise is a bluff.

    >>> stats = player_stats("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl")
    >>> stats.select("player", "hands_played", "hands_won", "raises", "raises_faced", "folds_to_raise").rows()
    [('Ana', 15, 7, 9, 5, 3), ('Marc', 15, 8, 5, 9, 4)]
    """
    from pathlib import Path

    import polars as pl

    from truclog.replay import games_of, log_paths
    from truclog.stats.players import count
    from truclog.stats.tables import table_batches

    grouping = Grouping(("opponent",) if by_opponent else (), threshold)
    if isinstance(source, str | Path) or _all_paths(source):
        counts, _ = collect(log_paths(source), grouping)  # type: ignore[arg-type]
    else:
        batches = table_batches(games_of(source), Tally(), COUNT_BATCH, narrow=True)
        counts = combine(count(tables, grouping) for tables in batches)
    rows = finish(counts, "team" if teams else "player", split=by_opponent)
    if not rows:
        return pl.DataFrame(schema={"team" if teams else "player": pl.Utf8})
    return pl.DataFrame(rows, infer_schema_length=None)


def _all_paths(source: object) -> bool:
    from pathlib import Path

    return isinstance(source, list | tuple) and all(isinstance(s, str | Path) for s in source)


def _each_file(
    paths: list[Source],
    grouping: Grouping,
    keep: GameFilter,
    jobs: int,
    progress: Progress | None,
    seen: set[int],
) -> Iterator[FileCounts]:
    """Each file's counts, in order; read here, with the keys ``seen`` so far, or on
    ``jobs`` processes (this one and ``jobs - 1`` workers), each with its own."""
    if jobs <= 1 or len(paths) <= 1 or "-" in paths:
        for path in paths:
            yield count_file(path, grouping, keep, progress, seen)
        return
    count = partial(count_file, grouping=grouping, keep=keep)
    with workers(jobs) as pool:
        yield from shared(paths, count, pool, jobs - 1)


def workers(jobs: int) -> ProcessPoolExecutor:
    """The ``jobs - 1`` worker processes of a run on ``jobs`` processes. polars' thread
    pool does not survive fork: workers start fresh ("spawn"), which costs each about a
    second of imports (this process has them already, and counts files too instead of
    waiting); each worker's polars takes its share of the cores (see
    :mod:`truclog.stats.threads`)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(jobs - 1, context, initializer=share_cores, initargs=(jobs,))


def shared(
    paths: list[Unit], count: Callable[[Unit], Done], pool: Executor, workers: int
) -> Iterator[Done]:
    """The counts (or what else ``count`` gives) of ``paths`` (files or parts of
    files), in order, shared out between ``pool`` and this process: the pool is given
    up to two per worker (one counted, one waiting, so that no worker waits for this
    process between two) but never the last one waiting, this process counts the next
    one whenever it is free, and the pool's counts are taken as they come."""
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    waiting = deque(enumerate(paths))
    sent: dict[int, Future[Done]] = {}
    done: dict[int, Done] = {}
    try:
        for at in range(len(paths)):
            while at not in done:
                while len(waiting) > 1 and len(sent) < 2 * workers:
                    number, path = waiting.popleft()
                    sent[number] = pool.submit(count, path)
                if waiting:
                    number, path = waiting.popleft()
                    done[number] = count(path)
                else:
                    wait(sent.values(), return_when=FIRST_COMPLETED)
                for number in [n for n, future in sent.items() if future.done()]:
                    done[number] = sent.pop(number).result()
            yield done.pop(at)
    finally:
        for future in sent.values():
            future.cancel()


def file_size(source: Source) -> int:
    """The size of a file (or part of one) in bytes, 0 when it cannot be read."""
    if isinstance(source, Part):
        return source.size
    try:
        return os.path.getsize(source)
    except OSError:
        return 0


def total_size(sources: Sequence[str]) -> int:
    """Bytes to read, for a progress bar."""
    return sum(file_size(p) for p in log_files(sources))


def auto_jobs(sources: Sequence[str]) -> int:
    """Processes worth starting: one per core for big files (a large file is counted
    in parts), else one."""
    paths = log_files(sources)
    if sum(file_size(p) for p in paths) < 64 << 20:
        return 1
    return max(1, os.cpu_count() or 1)


__all__ = [
    "FileCounts",
    "auto_jobs",
    "collect",
    "count_file",
    "file_size",
    "game_key",
    "kept_games",
    "player_stats",
    "shared",
    "total_size",
]
