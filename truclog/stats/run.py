"""Stream a corpus of logs into statistics or Parquet tables, with bounded memory.

Files are read one by one (on ``jobs`` processes when asked), each turned
into tables batch by batch and counted per game; the counts of a game seen
before (same fingerprint) are dropped, so a copied file or overlapping folders
count once, whatever order the files come in.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import cast

import polars as pl

from truclog.reader import LogLine, log_files, open_log, rare_collections, read_stream
from truclog.stats.players import Grouping, combine, count
from truclog.stats.tables import (
    GameFilter,
    Tables,
    Tally,
    game_day,
    table_batches,
)
from truclog.validate import CheckedGame, Diagnostic, check_lines, check_log

COUNT_BATCH = 20_000
"""Counted action rows per batch (about 10,000 hands): small batches keep memory low
and cost nothing, since each is counted down to a row per player and game."""

Progress = Callable[[int, int], None]
"""Called with bytes read and hands counted since the last call."""

METER_LINES = 4096
"""Lines between two progress reports of the bytes read."""


@dataclass(slots=True)
class FileCounts:
    """What one file gave: per-game counts, and the games in file order."""

    path: str
    counts: pl.DataFrame
    games: list[tuple[str, int, int, int]] = field(default_factory=list)
    """(fingerprint, line, hands counted, hands left out) per game kept."""
    tally: Tally = field(default_factory=Tally)


def kept_games(
    path: str, keep: GameFilter, tally: Tally, seen: set[str], progress: Progress | None = None
) -> Iterator[CheckedGame]:
    """The games of a file that pass ``keep`` and are not in ``seen`` (which grows);
    ``progress`` hears of the bytes read as they are read."""
    items = check_log(path)
    if progress is not None:  # lines read one by one: no game comes checked already
        items = cast(Iterator[CheckedGame | Diagnostic], check_lines(path, metered(path, progress)))
    for item in items:
        if isinstance(item, Diagnostic):
            tally.problems += 1
        elif item.fingerprint in seen:
            tally.duplicates += 1
        elif not keep.keeps(item):
            seen.add(item.fingerprint)
            tally.filtered_out += 1
        else:
            seen.add(item.fingerprint)
            yield item


def metered(path: str, progress: Progress) -> Iterator[LogLine]:
    """The lines of a log, telling ``progress`` of the bytes read (of the file itself
    for a ``.gz`` file) every :data:`METER_LINES` lines and at the end."""
    with open_log(path) as stream:
        raw = getattr(stream, "fileobj", stream)
        told = 0

        def lines() -> Iterator[bytes]:
            nonlocal told
            for number, line in enumerate(stream, 1):
                yield line
                if number % METER_LINES == 0:
                    at = raw.tell()
                    progress(at - told, 0)
                    told = at

        yield from read_stream(lines(), path)
        if not raw.closed:
            progress(raw.tell() - told, 0)


def count_file(
    path: str, grouping: Grouping, keep: GameFilter, progress: Progress | None = None
) -> FileCounts:
    """The per-game counts of one file (copies inside the file already dropped);
    ``progress`` hears of the bytes read and of the hands of each batch."""
    tally = Tally(files=1)
    per_game = replace(grouping, per_game=True)
    result = FileCounts(path, combine([]), tally=tally)
    parts: list[pl.DataFrame] = []
    games = kept_games(path, keep, tally, set(), progress)
    with rare_collections():
        for tables in table_batches(games, Tally(), COUNT_BATCH, narrow=True):
            parts.append(count(tables, per_game))
            counted = _games_of(tables)
            result.games.extend(counted)
            if progress is not None:
                progress(0, sum(g[2] for g in counted))
    if parts:
        result.counts = pl.concat(parts, how="vertical")
    return result


def _games_of(tables: Tables) -> list[tuple[str, int, int, int]]:
    games = tables.games.select("fingerprint", "line", "hands", "hands_left_out")
    return [tuple(row) for row in games.iter_rows()]


def collect(
    sources: Sequence[str],
    grouping: Grouping,
    keep: GameFilter | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> tuple[pl.DataFrame, Tally]:
    """Counts per player (and team) over every game of ``sources``, each game once."""
    keep = keep or GameFilter()
    paths = log_files(sources)
    tally = Tally()
    seen: set[str] = set()
    total: list[pl.DataFrame] = []
    pending = 0
    for result in _each_file(paths, grouping, keep, jobs, progress):
        tally.add(result.tally)
        fresh = [g for g in result.games if g[0] not in seen]
        tally.duplicates += len(result.games) - len(fresh)
        seen.update(g[0] for g in fresh)
        tally.games += len(fresh)
        tally.hands += sum(g[2] for g in fresh)
        tally.hands_left_out += sum(g[3] for g in fresh)
        if len(fresh) < len(result.games):
            chosen = pl.Series([g[0] for g in fresh], dtype=pl.Utf8).implode()
            result.counts = result.counts.filter(pl.col("fingerprint").is_in(chosen))
        total.append(combine([result.counts]))
        pending += 1
        if pending >= 32:
            total, pending = [combine(total)], 0
        if progress is not None and not _in_process(paths, jobs):
            progress(_size(result.path), sum(g[2] for g in result.games))
    return combine(total), tally


def _each_file(
    paths: list[str], grouping: Grouping, keep: GameFilter, jobs: int, progress: Progress | None
) -> Iterator[FileCounts]:
    if _in_process(paths, jobs):
        for path in paths:
            yield count_file(path, grouping, keep, progress)
        return
    # polars' thread pool does not survive fork: workers start fresh ("spawn")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=context) as pool:
        n = len(paths)
        yield from pool.map(count_file, paths, [grouping] * n, [keep] * n)


def _in_process(paths: list[str], jobs: int) -> bool:
    """Files are read here, one after the other (else by worker processes)."""
    return jobs <= 1 or len(paths) <= 1 or "-" in paths


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def total_size(sources: Sequence[str]) -> int:
    """Bytes to read, for a progress bar."""
    return sum(_size(p) for p in log_files(sources))


def auto_jobs(sources: Sequence[str]) -> int:
    """Processes worth starting: one per core for several big files, else one."""
    paths = log_files(sources)
    if len(paths) < 2 or sum(_size(p) for p in paths) < 64 << 20:
        return 1
    return max(1, min(os.cpu_count() or 1, len(paths)))


__all__ = [
    "FileCounts",
    "auto_jobs",
    "collect",
    "count_file",
    "game_day",
    "kept_games",
    "total_size",
]
