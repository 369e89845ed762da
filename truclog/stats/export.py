"""Parquet datasets of the ``games``, ``hands``, ``actions`` and ``annotations`` tables
that never mix.

A dataset is a folder holding the four tables, each a folder of
``part-NNNNN.parquet`` files (Hive-style ``date=YYYY-MM-DD`` folders inside
with ``partition_by_date``). Batches of :data:`BATCH_ROWS` actions are numbered in
the order of the logs; a part file holds its table's rows of batch ``NNNNN``
(``actions``, ``annotations``), or of that batch and the few after it up to the
table's next part file (``games`` and ``hands``, gathered: see :data:`GATHERED_ROWS`).
A table with no row in a batch has no part file of it, and one with no row at all
has one empty part file, which tells its columns. Read by path, a table's folder
(without date partitions) gives its rows in the order of the logs. An export writes
into a new folder beside the tables first and only then moves what it wrote into
place, so a failed or killed export leaves the dataset as it was:

- ``"new"``: the folder must not hold tables yet;
- ``"overwrite"``: the dataset is replaced as a whole, in one step: the new tables
  go into a folder beside it, which is swapped with it (Linux's
  ``RENAME_EXCHANGE``), so readers find the old tables or the new ones, never some
  of each, whenever a kill comes. The folder must hold nothing but tables. Where
  the file system cannot swap folders, the tables are replaced one by one under a
  manifest that the next export carries through;
- ``"append"``: new part files are added; games already in the dataset (the
  validator's fingerprint, kept in the ``games`` table) are left out and counted.

One export at a time writes into a folder (a lock file says so to a second one),
and the next one tidies what a killed one left. The rows of a game the quick core
clears come from its facts (see :mod:`truclog.validate.quick`), the others from the
engine's replay: the same rows either way.
"""

from __future__ import annotations

import fcntl
import glob
import io
import os
import queue
import re
import shutil
import stat
import tempfile
import threading
from array import array
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import polars as pl

from truclog.errors import PathError, TruclogError, reason
from truclog.format import parts
from truclog.format.atomic import (
    exchange,
    fsync_dir,
    sync_tree,
    write_atomically,
    write_through,
)
from truclog.format.parts import Source, name_of
from truclog.format.reader import has_notes, log_files
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import (
    Progress,
    few_collections,
    file_size,
    game_key,
    kept_games,
    shared,
    workers,
)
from truclog.stats.tables import (
    SCHEMAS,
    TableBuilder,
    Tables,
    empty,
    gathered_batches,
    table_batches,
)
from truclog.validate.checker import CheckedGame
from truclog.validate.quick import EXPORT_FACTS, give_back
from truclog.validate.tally import GameTally

TABLES = ("games", "hands", "actions", "annotations")
REQUIRED = TABLES[:3]
"""The tables an append needs: a dataset written before ``annotations`` existed gets
that table with the append."""
Mode = Literal["new", "overwrite", "append"]
LOCK = ".truclog-export.lock"
COMMITTING = ".truclog-export.replacing"
"""The manifest of a replacement under way: the staged folder and the set-aside one."""
_PART = re.compile(r"part-(\d+)\.parquet")
BATCH_ROWS = 10_000
"""Rows of ``actions`` per part file (about 3,300 of games replayed, see
:attr:`~truclog.stats.tables.TableBuilder.fill`): each batch of the tables is built,
written (on a thread of its own, while the next one is read, see :class:`_Behind`)
and let go before the one after, so memory stays bounded (under 150 MB in all)
whatever the logs. Each batch has a cost of its own in polars calls, whatever its rows:
batches of 8,000 rows took a sixth more CPU in all, of 10,000 about 0.1 s more on a
150 MB log than 12,000, whose peak was 6 to 10 MB higher."""

ZSTD_LEVEL = 1
"""The zstd level of the part files: its quickest, which wrote an export's actions in a
fifth less time than polars' default level (3), in files no larger."""
_COMPRESSION: dict[str, Any] = {"compression": "zstd", "compression_level": ZSTD_LEVEL}
"""How every part file is compressed, written whole or by a sink."""


class DatasetError(TruclogError):
    """A dataset folder that an export cannot write into as asked."""


@dataclass(slots=True)
class Export:
    """What an export read, and what it wrote where."""

    root: Path
    mode: Mode
    tally: Tally = field(default_factory=Tally)
    already_there: int = 0
    """Games left out of an append because the dataset already holds them."""
    files: dict[str, int] = field(default_factory=dict)
    """Part files written per table folder (empty when nothing was written)."""

    @property
    def paths(self) -> list[Path]:
        """The table folders written."""
        return [self.root / name for name in self.files]


def export(
    sources: Sequence[str],
    to: str | Path,
    mode: Mode = "new",
    partition_by_date: bool | None = None,
    keep: GameFilter | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> Export:
    """Write the tables of the games of ``sources`` into the dataset folder ``to``.

    ``partition_by_date`` ``None`` keeps the layout of the tables an append adds
    to (and means no partitions otherwise). Nothing is written when no game is
    left to write. On ``jobs`` processes, the files (and the parts of a large file,
    see :mod:`truclog.format.parts`) are written at once, each into part files of
    its own, numbered in the order of the logs at the end: the tables read back as
    those of one process.
    """
    if not str(to):
        raise DatasetError("the folder to export to is empty")
    root = Path(to)
    if root.resolve() == Path(root.anchor or "/").resolve():
        raise DatasetError(f"{root} is the root of the file system: export to a folder of its own")
    result = Export(root, mode)
    with _locked(root) as held:
        _recover(root)
        present = [name for name in TABLES if (root / name).exists()]
        by_date = bool(partition_by_date)
        existing: set[int] = set()
        first_part = 0
        if present and mode == "new":
            raise DatasetError(
                f"{root} already holds tables ({', '.join(present)}): "
                "--overwrite replaces them, --append adds to them"
            )
        if present and mode != "new":
            _refuse_foreign(root, present)
        if present and mode == "overwrite":
            _refuse_others(root)
        if present and mode == "append":
            by_date = _append_layout(root, present, partition_by_date)
            existing = _fingerprints(root / "games")
            first_part = _next_part(root)
        paths = log_files(sources)
        staging = Path(tempfile.mkdtemp(prefix=".export-", dir=root))
        try:
            written = _Writer(staging, keep or GameFilter(), existing, by_date)
            for done in written.all(paths, jobs, progress):
                result.tally.add(done.tally)
                result.already_there += done.already_there
            _number_parts(staging, written.batches, first_part)
            if result.tally.games:
                _fill_in(staging, root if mode == "append" else None, first_part, by_date)
                sync_tree(staging)
                how = mode if present else "new"
                swapped = _swap_in(staging, root, held) if how == "overwrite" else None
                result.files = _commit(staging, root, how) if swapped is None else swapped
        finally:
            if not (root / COMMITTING).exists():  # else the next export carries it through
                shutil.rmtree(staging, ignore_errors=True)
    return result


@dataclass(slots=True)
class Written:
    """What one file (or part of a file) gave an export: its counts, the keys of its
    games (see :func:`~truclog.stats.run.game_key`) and its batches of part files."""

    number: int
    source: Source
    tally: Tally
    already_there: int = 0
    keys: array[int] = field(default_factory=lambda: array("Q"))
    batches: int = 0


@dataclass(slots=True)
class _Writer:
    """Writes the tables of files (or parts of files) into a staging folder, each
    batch of each into part files named ``uUUUUU-BBBBB.parquet`` (unit, batch)."""

    staging: Path
    keep: GameFilter
    existing: set[int]
    by_date: bool
    batches: list[int] = field(default_factory=list)
    """The batches written of each unit, by its number."""
    ahead: bool = True
    """Whether a unit's games are read on a thread of their own (see :func:`_read_ahead`):
    not on several processes, each of which has a core's work of its own."""

    def all(self, paths: list[str], jobs: int, progress: Progress | None) -> Iterator[Written]:
        """Write every file of ``paths``, on ``jobs`` processes, each game once (the
        first time it is read, in file order)."""
        units = parts.for_jobs(paths, jobs)
        self.batches = [0] * len(units)
        seen: set[int] = set()
        self.ahead = jobs <= 1 or len(units) <= 1 or "-" in paths  # on this process alone
        if self.ahead:
            for number, unit in enumerate(units):
                yield self._done(self.unit(number, unit, seen, progress))
            return
        write = partial(_write_unit, writer=self)
        with workers(jobs) as pool:
            for done in shared(list(enumerate(units)), write, pool, jobs - 1):
                if not seen.isdisjoint(done.keys):  # a copy of a game read before: again
                    self._drop(done.number)
                    done = self.unit(done.number, done.source, seen, None)
                else:
                    seen.update(done.keys)
                if progress is not None:
                    progress(file_size(done.source), done.tally.hands)
                yield self._done(done)

    def _done(self, done: Written) -> Written:
        self.batches[done.number] = done.batches
        return done

    def unit(
        self, number: int, source: Source, seen: set[int], progress: Progress | None
    ) -> Written:
        """Write the tables of one file (or part of a file): its games not in ``seen``
        (which grows) nor in the dataset already."""
        tally = Tally(files=int(parts.starts_log(source)))
        done = Written(number, source, tally)
        cleared = not has_notes(name_of(source))  # else every game is replayed with its notes
        facts = EXPORT_FACTS if cleared else 0
        read = partial(kept_games, source, self.keep, tally, seen, done.keys, facts=facts)
        games: Iterator[Any]
        if cleared and self.ahead:
            # the quick core checks the games without the GIL: read, and gathered into
            # batches, on a thread of their own, while this one makes the batches' tables
            # (games replayed in Python gain nothing so); a batch is handed over once this
            # thread takes it (one more batch's rows waiting took 2 to 3 MB more at the peak)
            def gather(meter: Progress | None) -> Iterator[TableBuilder]:
                return gathered_batches(self._new(read(meter), done, None), tally, BATCH_ROWS)

            games = _read_ahead(gather, progress)
            batches = self._tables_of(games, tally, progress)
        else:
            games = read(progress)
            batches = table_batches(
                self._new(games, done, progress), tally, BATCH_ROWS, seats=False
            )
        try:
            with few_collections(), _Behind() as behind:
                held = _Held()  # games and hands gathered over batches (on the writing thread)
                for batch, tables in enumerate(batches):
                    part = _unit_part(number, batch)
                    behind.put(partial(self._write_batch, tables, part, held))
                    done.batches = batch + 1
                    del tables  # the batch let go once written, before the next is handed over
                behind.put(partial(self._write_held, held))  # the rows held at the end
        finally:  # an error: the reading stops now, not when its generator is collected
            _close(games)
        return done

    @staticmethod
    def _tables_of(
        gathered: Iterator[TableBuilder], tally: Tally, progress: Progress | None
    ) -> Iterator[Tables]:
        """The tables of the batches ``gathered`` (on the reading thread), the hands they
        hold told to ``progress`` (as :attr:`tally` counts them there)."""
        told = 0
        for held in gathered:
            if progress is not None:
                hands = tally.hands
                progress(0, hands - told)
                told = hands
            yield held.flush()

    def _write_batch(self, tables: Tables, part: str, held: _Held) -> None:
        """Write a batch's ``actions`` and ``annotations`` as part files ``part`` (a table
        with no rows in the batch, none), and its ``games`` and ``hands`` with those
        ``held`` from the batches before once they are rows enough (see :class:`_Held`)."""
        parts = [
            (name, frame, part)
            for name, frame in tables.items()
            if name not in GATHERED and not frame.is_empty()
        ]
        held.add(tables, part)
        self._write_tables(parts + (held.take() if held.full() else []))

    def _write_held(self, held: _Held) -> None:
        self._write_tables(held.take())

    def _write_tables(self, parts: list[tuple[str, pl.DataFrame, str]]) -> None:
        """Write each ``(table, frame, part)`` as the part file ``part`` of the table."""
        if self.by_date:
            for name, frame, part in parts:
                write_part(self.staging / name, frame, part, self.by_date, synced=False)
        elif parts:
            _stage_parts([(frame, self.staging / name / part) for name, frame, part in parts])

    def _new(
        self, games: Iterator[CheckedGame | GameTally], done: Written, progress: Progress | None
    ) -> Iterator[CheckedGame | GameTally]:
        """The games not in the dataset already (those are counted)."""
        for game in games:
            if game_key(game.fingerprint) in self.existing:
                done.already_there += 1
                continue
            if progress is not None:  # told as read: the count moves from the start
                progress(0, game.hand_count)
            yield game

    def _drop(self, number: int) -> None:
        """Remove the part files of a unit, to be written again."""
        for part in self.staging.rglob(f"u{number:05d}-*.parquet"):
            part.unlink()


GATHERED = ("games", "hands")
"""The tables whose rows an export gathers over several batches into one part file (see
:class:`_Held`): a batch holds a few hundred games and a couple of thousand hands, and
each part file has a cost of its own, whatever its rows (a polars sink, a file made)."""
GATHERED_ROWS = 6_000
"""Rows of ``hands`` gathered (with their games) before they are written as a part file:
three or four batches of the export's logs, 1.3 MB or so in memory."""


@dataclass(slots=True)
class _Held:
    """The ``games`` and ``hands`` rows of a unit's batches not written yet: written as
    part files named after the first batch they hold once :data:`GATHERED_ROWS` rows of
    ``hands`` (or as many of ``games``) are gathered, and at the end of the unit, so
    that the part numbers stay in the order of the rows in every table."""

    part: str = ""
    """The part file's name: that of the first batch held."""
    frames: dict[str, list[pl.DataFrame]] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)

    def add(self, tables: Tables, part: str) -> None:
        """Hold the batch ``part``'s rows of the gathered tables."""
        for name in GATHERED:
            frame = getattr(tables, name)
            if frame.is_empty():
                continue
            if not self.frames:
                self.part = part
            self.frames.setdefault(name, []).append(frame)
            self.rows[name] = self.rows.get(name, 0) + frame.height

    def full(self) -> bool:
        """Whether enough rows are held to be written."""
        return max(self.rows.values(), default=0) >= GATHERED_ROWS

    def take(self) -> list[tuple[str, pl.DataFrame, str]]:
        """The rows held, as ``(table, frame, part)`` to write (none for a table with
        none), let go here."""
        taken = [
            (name, frames[0] if len(frames) == 1 else pl.concat(frames), self.part)
            for name, frames in self.frames.items()
        ]
        self.frames, self.rows = {}, {}
        return taken


class _Behind:
    """One thread that writes a batch's part files while this one reads and gathers
    the next batch (polars writes Parquet without holding the GIL): one batch in
    flight at most, so memory stays bounded. :meth:`put` waits for the batch before
    and raises its error, if any (a disk full, a read-only folder), as it was raised;
    leaving waits for the last one (and raises its error, unless one is under way)."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="truclog-export")
        self._writing: Future[None] | None = None

    def put(self, write: Callable[[], None]) -> None:
        """Wait for the batch before (raising its error) and start writing this one."""
        self.wait()
        self._writing = self._pool.submit(write)

    def wait(self) -> None:
        """Wait for the batch being written, if any; raise its error."""
        writing, self._writing = self._writing, None
        if writing is not None:
            writing.result()

    def __enter__(self) -> _Behind:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if kind is None:
                self.wait()
        finally:
            self._pool.shutdown(wait=True)  # nothing written into the folder after


_T = TypeVar("_T")


def _read_ahead(
    read: Callable[[Progress | None], Iterator[_T]], progress: Progress | None
) -> Iterator[_T]:
    """The items ``read(progress)`` gives, read on a thread of their own, each handed
    over and the reading waiting until it is taken (an export's items are its batches,
    gathered there: one more batch's rows waiting took 2 to 3 MB more at the peak): the
    quick core checks a game's lines without the GIL, so on two cores the reading goes
    on while this thread makes the batch before's tables (and another writes them, see
    :class:`_Behind`). The bytes read are told to ``progress`` here, with the item they
    came with; an error of the reading is raised here as it was raised there, after the
    items before it; leaving early (an error here) stops the reading and waits for its
    thread."""
    handed: queue.Queue[tuple[list[_T], int, BaseException | None, bool]] = queue.Queue(1)
    stop, taken = threading.Event(), threading.Event()
    told = [0]  # bytes read since the last item

    def meter(size: int, hands: int) -> None:
        told[0] += size

    def hand(item: list[_T], error: BaseException | None = None, last: bool = False) -> bool:
        size, told[0] = told[0], 0
        while not stop.is_set():
            with suppress(queue.Full):
                taken.clear()
                handed.put((item, size, error, last), timeout=0.05)
                while not (taken.wait(0.05) or stop.is_set()):
                    pass  # handed over: none ahead until it is taken
                return not stop.is_set()
        return False

    def reading() -> None:
        try:
            items = read(None if progress is None else meter)
            try:
                for item in items:
                    if not hand([item]):
                        return
            finally:
                _close(items)
                give_back()  # its arena's free memory: the export's thread never reuses it
        except BaseException as exc:  # raised here, after the items read before it
            hand([], exc, last=True)
            return
        hand([], last=True)

    thread = threading.Thread(target=reading, name="truclog-export-read", daemon=True)
    thread.start()
    try:
        while True:
            item, size, error, last = handed.get()
            taken.set()
            if size and progress is not None:
                progress(size, 0)
            yield from item
            if error is not None:
                raise error
            if last:
                return
    finally:
        stop.set()
        thread.join()


def _close(items: Iterator[Any]) -> None:
    """Close ``items`` now, if it can be closed (a generator: its files and reading
    thread go now, not when it is collected)."""
    close = getattr(items, "close", None)
    if close is not None:
        close()


def _write_unit(unit: tuple[int, Source], writer: _Writer) -> Written:
    """:meth:`_Writer.unit` in a worker process, with the keys of its own games only."""
    return writer.unit(*unit, set(), None)


def _unit_part(unit: int, batch: int) -> str:
    return f"u{unit:05d}-{batch:05d}.parquet"


_UNIT_PART = re.compile(r"u(\d+)-(\d+)\.parquet")


def _number_parts(staging: Path, batches: list[int], first: int) -> None:
    """Name the part files of every unit ``part-NNNNN.parquet``, from ``first`` on, in
    the order of the units and of their batches (the same number in every table)."""
    numbers: dict[tuple[int, int], int] = {}
    for unit, count in enumerate(batches):
        for batch in range(count):
            numbers[(unit, batch)] = first + len(numbers)
    for part in sorted(staging.rglob("u*.parquet")):
        match = _UNIT_PART.fullmatch(part.name)
        if match:
            number = numbers[(int(match.group(1)), int(match.group(2)))]
            os.rename(part, part.with_name(f"part-{number:05d}.parquet"))


def _fill_in(staging: Path, root: Path | None, number: int, by_date: bool) -> None:
    """Give each table with no part file (staged, nor in the dataset ``root`` appended
    to) an empty one, ``part-NNNNN.parquet`` numbered ``number`` (see :func:`write_part`):
    every table has a file to read its columns from, however few its rows (a table
    with none in a batch gets no part file of that batch)."""
    for name in TABLES:
        folders = [staging / name] + ([root / name] if root is not None else [])
        if not any(next(folder.rglob("*.parquet"), None) for folder in folders):
            frame = empty(SCHEMAS[name])
            write_part(staging / name, frame, f"part-{number:05d}.parquet", by_date, synced=False)


@contextmanager
def _locked(root: Path) -> Iterator[ExitStack]:
    """Hold the folder's export lock (creating the folder); a new folder left empty
    by the export is removed again. The locks of the folder that replaces it (see
    :func:`_swap_in`) are held on the stack given until the lock is let go."""
    made = not root.exists()
    root.mkdir(parents=True, exist_ok=True)
    lock = root / LOCK
    try:
        with ExitStack() as held:
            held.enter_context(_holding(lock, root))
            try:
                yield held
            finally:
                lock.unlink(missing_ok=True)
    finally:
        if made:
            with suppress(OSError):
                root.rmdir()


@contextmanager
def _holding(lock: Path, root: Path) -> Iterator[None]:
    """Hold the export lock file ``lock`` of the dataset ``root``."""
    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise DatasetError(f"{root}: another export is writing there") from None
        yield


def _swap_in(staging: Path, root: Path, held: ExitStack) -> dict[str, int] | None:
    """Replace the dataset ``root`` as a whole by the tables staged in ``staging``, in
    one step: they move into a new folder beside it (with its lock, held, and its
    permissions), which is swapped with it (see :func:`~truclog.format.atomic.exchange`),
    and the old tables go. A kill at any moment leaves the old dataset or the new one;
    what it leaves beside goes with the next export. The part files written per
    table; ``None`` (nothing done) where no folder can be made beside or the file
    system cannot swap folders."""
    files = _files(staging)
    try:
        beside = Path(tempfile.mkdtemp(prefix=_beside(root), dir=root.parent))
    except OSError:
        return None
    try:
        held.enter_context(_holding(beside / LOCK, root))
        os.chmod(beside, stat.S_IMODE(os.stat(root).st_mode))
        for name in TABLES:
            if (staging / name).exists():
                os.rename(staging / name, beside / name)
        fsync_dir(beside)
        if not exchange(beside, root):
            for name in TABLES:  # back, to be replaced table by table
                if (beside / name).exists():
                    os.rename(beside / name, staging / name)
            return None
        fsync_dir(root.parent)
    finally:
        shutil.rmtree(beside, ignore_errors=True)  # swapped: the old dataset
    return files


def _beside(root: Path) -> str:
    """The start of the name of a folder an export makes beside the dataset ``root``."""
    return f".{root.name}.export-"


def _files(staging: Path) -> dict[str, int]:
    """The part files staged per table (a table with none, that an append added no row
    to, left out)."""
    counts = {name: sum(1 for _ in (staging / name).rglob("*.parquet")) for name in TABLES}
    return {name: count for name, count in counts.items() if count}


def _recover(root: Path) -> None:
    """Tidy what a killed export left: a replacement under way (its manifest written)
    is carried through, so the tables are all the new ones; staged tables of an export
    killed before that go, and so do the old tables a finished replacement set aside
    (but those an older truclog's export left with no table in their place)."""
    for beside in root.parent.glob(glob.escape(_beside(root)) + "*"):
        shutil.rmtree(beside, ignore_errors=True)  # a swap killed before or after
    manifest = root / COMMITTING
    if manifest.exists():
        staged, replaced = manifest.read_text().split("\n")[:2]
        _replace(root / staged, root, root / replaced)
        manifest.unlink()
        fsync_dir(root)
    for staged_folder in root.glob(".export-*"):
        shutil.rmtree(staged_folder, ignore_errors=True)
    for replaced_folder in root.glob(".replaced-*"):  # tables an older export set aside
        for name in TABLES:
            if (replaced_folder / name).exists() and not (root / name).exists():
                os.rename(replaced_folder / name, root / name)
        shutil.rmtree(replaced_folder, ignore_errors=True)


_DAY = re.compile(r"date=\d{4}-\d{2}-\d{2}|date=__HIVE_DEFAULT_PARTITION__")


def _refuse_foreign(root: Path, present: list[str]) -> None:
    """Raise :class:`DatasetError` when a table folder holds anything an export does not
    write (part files, date folders): it is not a truclog dataset to replace or add to."""
    for name in present:
        for folder, dirs, files in os.walk(root / name):
            odd = [f for f in files if not _PART.fullmatch(f)]
            odd += [d for d in dirs if not _DAY.fullmatch(d)]
            if odd or Path(folder).is_symlink():
                what = Path(folder, odd[0]) if odd else Path(folder)
                raise DatasetError(
                    f"{what} is not part of a truclog table: {root} is not a dataset "
                    "truclog wrote, so its folders are left as they are"
                )


def _refuse_others(root: Path) -> None:
    """Raise :class:`DatasetError` when ``root`` holds anything but the tables and an
    export's lock: ``--overwrite`` replaces the whole folder, so it must be truclog's."""
    ours = {*TABLES, LOCK}
    others = sorted(name for name in os.listdir(root) if name not in ours)
    if others:
        raise DatasetError(
            f"{root / others[0]} is not part of a truclog dataset: --overwrite replaces "
            f"the folder {root} as a whole, so it is left as it is"
        )


def _append_layout(root: Path, present: list[str], partition_by_date: bool | None) -> bool:
    """Whether the tables an append adds to are partitioned by date (and asked so)."""
    missing = [name for name in REQUIRED if name not in present]
    if missing:
        raise DatasetError(f"{root} lacks the {', '.join(missing)} table(s): cannot append")
    by_date = any(p.name.startswith("date=") for p in (root / "games").iterdir())
    if partition_by_date is not None and partition_by_date != by_date:
        layout = "by date" if by_date else "without partitions"
        raise DatasetError(f"{root} holds tables {layout}: append the same way")
    return by_date


def _fingerprints(games: Path) -> set[int]:
    """The :func:`~truclog.stats.run.game_key` of each game a dataset holds (from the
    ``fingerprint`` column of its ``games`` table)."""
    files = sorted(games.rglob("*.parquet"))
    if not files:
        return set()
    try:
        column = pl.scan_parquet(files).select("fingerprint").collect().to_series()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise DatasetError(f"{games}: cannot read the games already there: {exc}") from None
    return {game_key(fingerprint) for fingerprint in column.to_list()}


def _next_part(root: Path) -> int:
    numbers = [
        int(match.group(1))
        for name in TABLES
        for path in (root / name).rglob("part-*.parquet")
        if (match := _PART.fullmatch(path.name))
    ]
    return max(numbers, default=-1) + 1


def write_part(
    folder: Path, frame: pl.DataFrame, name: str, by_date: bool, synced: bool = True
) -> None:
    """Write one part of a table into ``folder`` (in ``date=YYYY-MM-DD`` folders when
    ``by_date``; an empty part in the folder of no date, so that every table has a
    file to read its columns from), each file synced to disk (but not ``synced``: a
    staged part, synced with the others before they move into place, see
    :func:`~truclog.format.atomic.sync_tree`)."""
    write = _write_part if synced else _stage_part
    if not by_date:
        write(frame, folder / name)
        return
    if frame.is_empty():
        write(frame.drop("date"), folder / "date=__HIVE_DEFAULT_PARTITION__" / name)
        return
    for (day,), group in frame.group_by("date", maintain_order=True):
        label = "__HIVE_DEFAULT_PARTITION__" if day is None else str(day)
        write(group.drop("date"), folder / f"date={label}" / name)


def _write_part(frame: pl.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_through(path, partial(parquet, frame))  # synced; a disk error is one PathError


def parquet(frame: pl.DataFrame, target: Path | io.BytesIO) -> None:
    """Write ``frame`` as a part file (see :data:`ZSTD_LEVEL`)."""
    frame.write_parquet(target, **_COMPRESSION)


def _stage_parts(parts: list[tuple[pl.DataFrame, Path]]) -> None:
    """Write parts into a staging folder, not synced yet, in one polars call (which lets
    the GIL go once for all of them, where a call a part waited for it again after
    each: the thread that reads holds it); a disk error is one PathError. A failed call
    is done again a part at a time by :func:`_stage_part`, which tells the system's own
    reason (a full disk may fail a sink as "invalid thrift: transport error")."""
    try:
        for _, path in parts:
            path.parent.mkdir(parents=True, exist_ok=True)
        pl.collect_all(
            [frame.lazy().sink_parquet(path, **_COMPRESSION, lazy=True) for frame, path in parts]
        )
    except (OSError, pl.exceptions.ComputeError) as exc:  # polars tells a sink's IO error so
        for frame, path in parts:
            _stage_part(frame, path)
        said = reason(exc).rpartition("IO error: ")[2]  # the parts written now: not the disk
        raise PathError(str(parts[0][1].parent), f"cannot write: {said.lower()}") from None


def _stage_part(frame: pl.DataFrame, path: Path) -> None:
    """Write a part into a staging folder, not synced yet; a disk error is one PathError."""
    buffer = io.BytesIO()
    parquet(frame, buffer)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as out:
            out.write(buffer.getbuffer())
    except OSError as exc:
        raise PathError(str(path), f"cannot write: {reason(exc).lower()}") from None


def _commit(staging: Path, root: Path, mode: Mode) -> dict[str, int]:
    """Move the staged tables into ``root``; the part files written per table."""
    files = _files(staging)
    if mode == "append":
        for name in TABLES:
            for part in sorted((staging / name).rglob("*.parquet")):
                target = root / name / part.relative_to(staging / name)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(part, target)
                fsync_dir(target.parent)
        return files
    replaced = Path(tempfile.mkdtemp(prefix=".replaced-", dir=root))
    manifest = root / COMMITTING
    write_atomically(manifest, f"{staging.name}\n{replaced.name}\n".encode())
    fsync_dir(root)
    _replace(staging, root, replaced)  # killed now, the next export carries it through
    manifest.unlink()
    fsync_dir(root)
    shutil.rmtree(replaced, ignore_errors=True)
    return files


def _replace(staging: Path, root: Path, replaced: Path) -> None:
    """Each table of ``root`` set aside into ``replaced`` and the staged one moved in,
    table by table; a table already moved in is left (so it can be done again)."""
    for name in TABLES:
        if not (staging / name).exists():
            continue
        if (root / name).exists():
            os.rename(root / name, replaced / name)
        os.rename(staging / name, root / name)
    fsync_dir(root)


__all__ = ["TABLES", "DatasetError", "Export", "export", "parquet", "write_part"]
