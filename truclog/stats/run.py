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
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from truclog.reader import log_files, rare_collections
from truclog.stats.players import Grouping, combine, count
from truclog.stats.tables import (
    GameFilter,
    Tables,
    Tally,
    game_day,
    table_batches,
)
from truclog.validate import CheckedGame, Diagnostic, check_log

COUNT_BATCH = 20_000
"""Counted action rows per batch (about 10,000 hands): small batches keep memory low
and cost nothing, since each is counted down to a row per player and game."""

Progress = Callable[[int, int], None]
"""Called with bytes read (a file's size, once it is done) and hands counted since the last call."""

FileMapper = Callable[[list[str], Grouping, GameFilter], Iterator["FileCounts"]]
"""Counts each of some files (as :func:`count_file` does), given back in their order."""


@dataclass(slots=True)
class FileCounts:
    """What one file gave: per-game counts, and the games in file order."""

    path: str
    counts: pl.DataFrame
    games: list[tuple[str, int, int, int]] = field(default_factory=list)
    """(fingerprint, line, hands counted, hands left out) per game kept."""
    tally: Tally = field(default_factory=Tally)


def kept_games(path: str, keep: GameFilter, tally: Tally, seen: set[str]) -> Iterator[CheckedGame]:
    """The games of a file that pass ``keep`` and are not in ``seen`` (which grows)."""
    for item in check_log(path):
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


def count_file(
    path: str, grouping: Grouping, keep: GameFilter, progress: Progress | None = None
) -> FileCounts:
    """The per-game counts of one file (copies inside the file already dropped);
    ``progress`` hears of the hands of each batch (not of the file's bytes)."""
    tally = Tally(files=1)
    per_game = Grouping(grouping.by_opponent, grouping.threshold, grouping.opponents, True)
    result = FileCounts(path, combine([]), tally=tally)
    parts: list[pl.DataFrame] = []
    games = kept_games(path, keep, tally, set())
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
    each_file: FileMapper | None = None,
) -> tuple[pl.DataFrame, Tally]:
    """Counts per player (and team) over every game of ``sources``, each game once;
    ``each_file`` counts the files elsewhere (see :mod:`truclog.distributed`)."""
    keep = keep or GameFilter()
    paths = log_files(sources)
    tally = Tally()
    seen: set[str] = set()
    total: list[pl.DataFrame] = []
    pending = 0
    results = (
        each_file(paths, grouping, keep)
        if each_file is not None
        else _each_file(paths, grouping, keep, jobs, progress)
    )
    for result in results:
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
        if progress is not None:
            in_process = each_file is None and (jobs <= 1 or len(paths) <= 1)
            hands = 0 if in_process else sum(g[2] for g in result.games)
            progress(_size(result.path), hands)
    return combine(total), tally


def _each_file(
    paths: list[str], grouping: Grouping, keep: GameFilter, jobs: int, progress: Progress | None
) -> Iterator[FileCounts]:
    if jobs <= 1 or len(paths) <= 1 or "-" in paths:
        for path in paths:
            yield count_file(path, grouping, keep, progress)
        return
    # polars' thread pool does not survive fork: workers start fresh ("spawn")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=context) as pool:
        n = len(paths)
        yield from pool.map(count_file, paths, [grouping] * n, [keep] * n)


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


def export(
    sources: Sequence[str],
    to: str | Path,
    partition_by_date: bool = False,
    keep: GameFilter | None = None,
    progress: Progress | None = None,
) -> Tally:
    """Write the games, hands and actions tables as Parquet files under ``to``.

    Each table is a folder of ``part-NNNNN.parquet`` files (``to/hands/...``);
    with ``partition_by_date``, Hive-style ``date=YYYY-MM-DD`` folders inside it.
    """
    keep = keep or GameFilter()
    root = Path(to)
    tally = Tally()
    seen: set[str] = set()
    games = _export_games(log_files(sources), keep, tally, seen, progress)
    for part, tables in enumerate(table_batches(games, tally)):
        for name, frame in tables.items():
            write_part(root / name, frame, f"part-{part:05d}.parquet", partition_by_date)
        if progress is not None:
            progress(0, tables.hands.height)
    return tally


def _export_games(
    paths: list[str],
    keep: GameFilter,
    tally: Tally,
    seen: set[str],
    progress: Progress | None,
) -> Iterator[CheckedGame]:
    for path in paths:
        tally.files += 1
        yield from kept_games(path, keep, tally, seen)
        if progress is not None:
            progress(_size(path), 0)


def write_part(folder: Path, frame: pl.DataFrame, name: str, by_date: bool) -> None:
    """Write one part of a table into ``folder`` (in ``date=YYYY-MM-DD`` folders when
    ``by_date``)."""
    if not by_date:
        folder.mkdir(parents=True, exist_ok=True)
        frame.write_parquet(folder / name)
        return
    for (day,), group in frame.group_by("date", maintain_order=True):
        label = "__HIVE_DEFAULT_PARTITION__" if day is None else str(day)
        where = folder / f"date={label}"
        where.mkdir(parents=True, exist_ok=True)
        group.drop("date").write_parquet(where / name)


__all__ = [
    "FileCounts",
    "auto_jobs",
    "collect",
    "count_file",
    "export",
    "game_day",
    "kept_games",
    "total_size",
    "write_part",
]
