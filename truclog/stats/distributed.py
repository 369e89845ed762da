"""Validate, count and export a sharded corpus of logs on a Dask cluster.

``pip install 'truclog[dask]'`` brings Dask; the commands take ``--scheduler ADDRESS``
(a running Dask scheduler, ``tcp://host:8786``) or ``--scheduler local:N`` (a
:class:`~dask.distributed.LocalCluster` of N worker processes on this machine).

Each file is one task, run where the cluster puts it; the results come back in the
files' order and are merged exactly as the single-machine commands merge them:
diagnostics per file, copies of a game marked (or counted once) in file order,
statistics summed from per-game counts. A task that fails even after Dask's retries
(a worker killed again and again) becomes an ``E000`` problem of that file; the other
files are not lost. Every worker needs truclog installed and the logs reachable by
the same names (a shared folder, or URLs such as ``s3://bucket/logs/``).
"""

from __future__ import annotations

import logging
import os
import shutil
import uuid
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

import polars as pl
from dask.distributed import Client, LocalCluster

from truclog.codes import Read
from truclog.diagnostic import ERROR, Diagnostic
from truclog.errors import TruclogError
from truclog.format import parts
from truclog.format.parts import Source, name_of
from truclog.format.reader import has_notes, log_files
from truclog.stats.counts import CountRows, Grouping, combine
from truclog.stats.export import BATCH_ROWS, parquet, write_part
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.review import DecisionFilter, FileReview, FileReviewer, review_file
from truclog.stats.run import (
    FileCounts,
    FileMapper,
    Progress,
    collect,
    count_file,
    game_key,
    kept_games,
)
from truclog.stats.tables import SCHEMAS, table_batches
from truclog.validate.quick import EXPORT_FACTS
from truclog.validate.report import FileReport, joined, report_file
from truclog.validate.rubbers import Rubbers

Item = TypeVar("Item")
Result = TypeVar("Result")

WINDOW = 256
"""Tasks in flight at once: the results wait in file order, so memory stays bounded."""

LOCAL = "local:"


def local_workers(scheduler: str) -> int | None:
    """The number of worker processes of ``local:N``, or ``None`` for an address.

    >>> local_workers("local:2"), local_workers("tcp://10.0.0.5:8786")
    (2, None)
    """
    if not scheduler.startswith(LOCAL):
        return None
    count = scheduler.removeprefix(LOCAL)
    if not count.isdigit() or int(count) < 1:
        raise TruclogError(f"--scheduler {scheduler}: say local:N with N at least 1")
    return int(count)


@contextmanager
def connect(scheduler: str) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster (``local:N``)."""
    workers = local_workers(scheduler)
    if workers is None:
        try:
            client = Client(scheduler)
        except (OSError, TimeoutError, ValueError) as exc:
            message = f"cannot reach the Dask scheduler at {scheduler}: {exc}"
            raise TruclogError(message, Read.UNREADABLE) from None
        with client:
            yield client
        return
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    with cluster, Client(cluster) as client:
        yield client


def ordered(
    client: Client,
    function: Callable[[Item], Result],
    items: Iterable[Item],
    failed: Callable[[Item, BaseException], Result],
    window: int = WINDOW,
) -> Iterator[Result]:
    """``function(item)`` for each item, run on the cluster and given back in the items'
    order, at most ``window`` at a time (sent in batches); a task that fails gives
    ``failed(item, error)``."""
    rest = iter(items)
    pending: deque[tuple[Item, Any]] = deque()

    def send() -> None:
        batch = list(islice(rest, window - len(pending)))
        if batch:
            pending.extend(zip(batch, client.map(function, batch, pure=False), strict=True))

    send()
    while pending:
        yield _result(*pending.popleft(), failed)
        if len(pending) <= window // 2:
            send()


def _result(item: Item, future: Any, failed: Callable[[Item, BaseException], Result]) -> Result:
    try:
        result: Result = future.result()
        return result
    except Exception as exc:
        return failed(item, exc)
    finally:
        future.release()


def _why(path: str, exc: BaseException) -> str:
    return f"cannot check {path} on the cluster: {type(exc).__name__}: {exc}"


def reports(
    client: Client, files: Sequence[str], detail: bool = True, rubbers: Rubbers | None = None
) -> Iterator[FileReport]:
    """Each file's validation report, as ``truclog validate -j N`` gives them (the
    rubbers of the run checked in ``rubbers``); large files are checked in parts."""
    check = partial(report_file, detail=detail)
    sources = parts.sources(list(files), 2 * workers_of(client))
    found = ordered(client, check, sources, _failed_report)
    return joined(sources, found, rubbers)


def workers_of(client: Client) -> int:
    """The tasks the cluster runs at once (one per worker thread)."""
    threads: int = sum(client.nthreads().values())
    return max(1, threads)


def _failed_report(source: Source, exc: BaseException) -> FileReport:
    path = name_of(source)
    report = FileReport(path)
    report.diagnostics.append(Diagnostic(path, 0, Read.UNREADABLE, ERROR, _why(path, exc)))
    return report


def counter(client: Client, failed: Callable[[str], None] | None = None) -> FileMapper:
    """What :func:`truclog.stats.run.collect` counts each file with, here on the cluster;
    a file whose task fails is counted as a problem and told to ``failed``."""

    def failed_counts(source: Source, exc: BaseException) -> FileCounts:
        if failed is not None:
            failed(_why(name_of(source), exc))
        tally = Tally(files=int(parts.starts_log(source)), problems=1)
        return FileCounts(source, combine([]), tally=tally)

    def each_file(
        paths: list[Source], grouping: Grouping, keep: GameFilter
    ) -> Iterator[FileCounts]:
        count = partial(count_file, grouping=grouping, keep=keep)
        return ordered(client, count, paths, failed_counts)

    return each_file


def reviewer(
    client: Client, rows: bool, top: int, failed: Callable[[str], None] | None = None
) -> FileReviewer:
    """What :func:`truclog.stats.review.review_files` reviews each file with, here on the
    cluster (the decisions kept as rows when ``rows``, the ``top`` costliest); a file
    whose task fails is counted as a problem and told to ``failed``."""

    def failed_review(path: str, exc: BaseException) -> FileReview:
        if failed is not None:
            failed(_why(path, exc))
        return FileReview(path, tally=Tally(files=1, problems=1))

    def each_file(
        paths: list[str], keep: GameFilter, chosen: DecisionFilter
    ) -> Iterator[FileReview]:
        one = partial(review_file, keep=keep, chosen=chosen, rows=rows, top=top)
        return ordered(client, one, paths, failed_review)

    return each_file


def statistics(
    client: Client,
    sources: Sequence[str],
    grouping: Grouping,
    keep: GameFilter | None = None,
    progress: Progress | None = None,
    failed: Callable[[str], None] | None = None,
) -> tuple[CountRows, Tally]:
    """Counts per player (and team), each game once, as ``truclog stats`` gives them."""
    each_file = counter(client, failed)
    jobs = workers_of(client)
    return collect(sources, grouping, keep, jobs, progress=progress, each_file=each_file)


@dataclass(slots=True)
class ExportedFile:
    """What one export task wrote: the key of every game it read (kept or filtered
    out), and per game written its fingerprint, hands and hands left out."""

    index: int
    tally: Tally
    keys: array[int] = field(default_factory=lambda: array("Q"))
    games: list[tuple[str, int, int]] = field(default_factory=list)
    failure: str | None = None
    """Why the file could not be exported (its parts are then left out)."""


def export_file(task: tuple[int, Source], staging: str, keep: GameFilter) -> ExportedFile:
    """Write the tables of one file or part of a file (copies inside it left out)
    into ``staging``."""
    index, source = task
    done = ExportedFile(index, Tally(files=int(parts.starts_log(source))))
    cleared = not has_notes(name_of(source))  # else every game is replayed with its notes
    games = kept_games(
        source, keep, done.tally, set(), done.keys, None, EXPORT_FACTS if cleared else 0
    )
    batches = table_batches(games, done.tally, BATCH_ROWS, seats=False)
    for batch, tables in enumerate(batches):
        for name, frame in tables.items():
            write_part(Path(staging) / name, frame, f"part-{index:05d}-{batch:05d}.parquet", True)
        done.games.extend(tables.games.select("fingerprint", "hands", "hands_left_out").rows())
    return done


def drop_games(index: int, staging: str, fingerprints: list[str] | None) -> None:
    """Rewrite the parts of file ``index`` without the games ``fingerprints`` (all of
    them for ``None``)."""
    for part in Path(staging).glob(f"*/*/part-{index:05d}-*.parquet"):
        if fingerprints is None:
            part.unlink()
            continue
        frame = pl.read_parquet(part)
        kept = frame.filter(~pl.col("fingerprint").is_in(fingerprints))
        if kept.height:
            parquet(kept, part.with_suffix(".tmp"))
            os.replace(part.with_suffix(".tmp"), part)
        else:
            part.unlink()


def export(
    client: Client,
    sources: Sequence[str],
    to: str | Path,
    keep: GameFilter | None = None,
    progress: Progress | None = None,
    failed: Callable[[str], None] | None = None,
) -> Tally:
    """Write one Hive-partitioned Parquet dataset (``to/{games,hands,actions}/date=...``),
    each game once, as ``truclog export --partition-by date`` does.

    The tables are written into a staging folder beside them and moved into place when
    every file is done, so a failed run leaves ``to`` as it was. A file whose task fails
    even after Dask's retries is left out, counted in ``problems`` and told to ``failed``.
    """
    root = Path(to)
    if any((root / name).exists() for name in SCHEMAS):
        raise TruclogError(f"{root} already holds tables: export into a new folder")
    root.mkdir(parents=True, exist_ok=True)
    staging = root / f".staging-{uuid.uuid4().hex}"
    try:
        units = parts.sources(log_files(sources), 2 * workers_of(client))
        tally = _export_into(client, units, str(staging), keep or GameFilter(), progress, failed)
        for name in SCHEMAS:
            if (staging / name).exists():
                os.replace(staging / name, root / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tally


def _export_into(
    client: Client,
    paths: list[Source],
    staging: str,
    keep: GameFilter,
    progress: Progress | None,
    failed: Callable[[str], None] | None,
) -> Tally:
    task = partial(export_file, staging=staging, keep=keep)
    tally, seen, fixes = Tally(), set[int](), []
    for done in ordered(client, task, enumerate(paths), _failed_export):
        if done.failure is not None:
            fixes.append(client.submit(drop_games, done.index, staging, None, pure=False))
            if failed is not None:
                failed(done.failure)
        copies = _copies(done, seen)
        tally.add(done.tally)
        if copies:
            fixes.append(client.submit(drop_games, done.index, staging, copies, pure=False))
        if progress is not None:
            progress(0, done.tally.hands)
    client.gather(fixes)
    return tally


def _copies(done: ExportedFile, seen: set[int]) -> list[str]:
    """The fingerprints of the games ``done`` wrote that an earlier file had (``seen``
    grows), its tally made as if they had been left out while reading, as one machine
    does: a copy of a game read before is a duplicate, kept or filtered out."""
    again = {key for key in done.keys if key in seen}
    seen.update(done.keys)
    written = [g for g in done.games if game_key(g[0]) in again]
    done.tally.duplicates += len(again)
    done.tally.filtered_out -= len(again) - len(written)
    done.tally.games -= len(written)
    done.tally.hands -= sum(g[1] for g in written)
    done.tally.hands_left_out -= sum(g[2] for g in written)
    return [g[0] for g in written]


def _failed_export(task: tuple[int, Source], exc: BaseException) -> ExportedFile:
    index, source = task
    tally = Tally(files=int(parts.starts_log(source)), problems=1)
    return ExportedFile(index, tally, failure=_why(name_of(source), exc))


__all__ = [
    "ExportedFile",
    "connect",
    "counter",
    "drop_games",
    "export",
    "export_file",
    "local_workers",
    "ordered",
    "reports",
    "statistics",
]
