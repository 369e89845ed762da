"""``truclog validate``: replay logs through the engine and report every mistake."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from truclog.cli.options import (
    cluster,
    format_option,
    jobs_option,
    log_paths,
    scheduler_option,
    shows_progress,
)
from truclog.codes import Read
from truclog.diagnostic import ERROR, KEPT_PER_GAME, WARNING, Diagnostic
from truclog.errors import PathError, TruclogError
from truclog.format import parts
from truclog.format.parts import Source
from truclog.format.reader import STDIN, log_files
from truclog.terminal import printable
from truclog.validate.report import (
    KEPT_PER_FILE,
    FileReport,
    GameSummary,
    JsonReport,
    joined,
    report_file,
    summary_json,
    unreadable_report,
)
from truclog.validate.rubbers import Rubbers

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from rich.progress import Progress

    from truclog.cli.forks import Forked


@click.command("validate")
@log_paths
@format_option(("text", "json"), "One line per problem, or one JSON document.", "output")
@jobs_option("Check files, and parts of large files, in N processes.")
@scheduler_option
@click.option(
    "--color/--no-color", default=None, help="Colour the text output (default: on a terminal)."
)
def validate_command(
    paths: tuple[str, ...], output: str, jobs: int, scheduler: str | None, color: bool | None
) -> None:
    """Check that the games in PATHS were played and scored by their rules.

    PATHS are files, .gz files, directories (searched for *.jsonl and *.jsonl.gz)
    or - for standard input. Exit status: 0 no error, 1 errors, 2 a path or a file
    in a directory that cannot be read (the rest is still checked).
    """
    problems: list[PathError] = []
    try:
        files = log_files(paths, problems)
    except TruclogError as exc:
        click.echo(f"truclog validate: {exc.message}", err=True)
        sys.exit(2)
    unusable = 0

    def reports(
        rubbers: Rubbers, start: Start = None, on_game: OnGame = None, client: Any = None
    ) -> Iterator[FileReport]:
        nonlocal unusable
        for problem in problems:
            if start is not None:
                start(problem.path)
            unusable += 1
            yield unreadable_report(problem)
        for report in _reports(files, jobs, rubbers, start, on_game, client):
            unusable += report.unreadable
            yield report

    with cluster(scheduler, files) if scheduler else nullcontext() as client:
        if output == "json":
            with JsonReport(sys.stdout.buffer) as document:
                start, game = document.start_file, document.game
                for report in reports(document.rubbers, start, game, client):
                    document.end_file(report)
            total = summary_json(document.reports)
        else:
            total = _print_text(reports(Rubbers(), client=client), color)
    sys.exit(2 if unusable else 1 if total["errors"] else 0)


Start = Callable[[str], None] | None
OnGame = Callable[[GameSummary], None] | None


def _reports(
    files: list[str],
    jobs: int,
    rubbers: Rubbers,
    start: Start = None,
    on_game: OnGame = None,
    client: Any = None,
) -> Iterator[FileReport]:
    """Each file's report, with copies of games marked and ``rubbers`` checked. In one
    process, ``start`` and ``on_game`` see each file and game as it is checked, and games are not kept; in
    several (or on the Dask cluster of ``client``), a file's games come with its
    report. Either way, games are kept with their players and score (for JSON) when
    ``on_game`` is given."""
    plan = [] if client is not None or jobs == 1 else parts.cut(files, jobs, parts.COUNTING)
    shared = client is None and jobs > 1 and parts.pieces(plan) > 1
    detail = on_game is not None
    hands = 0

    def tick(game: GameSummary) -> None:
        nonlocal hands
        hands += game.hands
        if progress is not None and hands % 256 < game.hands:
            progress.update(progress.task_ids[0], hands=hands)
        if on_game is not None:
            on_game(game)

    sources = list(parts.uncounted(plan)) if shared else []
    # the processes are forked before the progress bar starts its thread
    with _in_processes(sources, jobs, detail) as checked:
        if client is not None:
            from truclog.stats.distributed import reports as on_cluster

            results: Iterator[FileReport] = on_cluster(client, files, detail, rubbers)
        elif not shared:
            results = _in_process(files, tick, detail, rubbers, start)
        else:
            results = joined(sources, checked, rubbers)
        progress = _progress() if shows_progress(files) else None
        with progress or nullcontext():
            if progress is not None:
                progress.add_task("checking", total=len(files), hands=0)
            for report in results:
                if client is not None or shared:
                    hands += report.hands
                    if start is not None:
                        start(report.path)
                if progress is not None:
                    progress.update(progress.task_ids[0], advance=1, hands=hands)
                yield report


@contextmanager
def _in_processes(sources: list[Source], jobs: int, detail: bool) -> Iterator[Iterator[FileReport]]:
    """The report of each source (none without sources), in order, checked in ``jobs``
    processes: one forked for each source after the first when there are no more sources
    than processes (one large file cut into parts) and this process may fork; else a pool
    (see :func:`_shared`)."""
    check = partial(report_file, detail=detail)
    if not sources:
        yield iter(())
    elif len(sources) <= jobs and STDIN not in sources[1:] and _may_fork():
        from truclog.cli.forks import forked

        tasks = [(_what(source), partial(check, source)) for source in sources[1:]]
        with forked(tasks) as children:
            yield _first_here(check, sources, children)
    else:
        with _pool(jobs - 1) as pool:
            yield _shared(pool, sources, detail)


def _first_here(
    check: Callable[[Source], FileReport],
    sources: list[Source],
    children: list[Forked[FileReport]],
) -> Iterator[FileReport]:
    """The report of the first source, checked here, then each child's (of each source
    after it), in order; a child that ended without one (killed, say) gives an ``E000``
    of its part, at line 0."""
    from truclog.cli.forks import ProcessLost

    yield check(sources[0])
    for source, child in zip(sources[1:], children, strict=True):
        try:
            yield child.result()
        except ProcessLost as exc:
            path = parts.name_of(source)
            lost = Diagnostic(path, 0, Read.UNREADABLE, ERROR, exc.message)
            yield FileReport(path, diagnostics=[lost])


def _may_fork() -> bool:
    """Whether this process may fork its workers: where the system forks, and no other
    thread runs (a thread holding a lock at the fork would leave it held in the child)."""
    import threading

    return hasattr(os, "fork") and threading.active_count() == 1


def _what(source: Source) -> str:
    """A source as an error names it."""
    if isinstance(source, parts.Part):
        return f"bytes {source.start:,} to {source.stop:,} of {printable(source.path)}"
    return printable(source)


def _shared(pool: Executor, sources: list[Source], detail: bool) -> Iterator[FileReport]:
    """The report of each file or part of a file, in order: the first checked in this
    process while the pool's processes check the others (each counting the lines
    before its part as it starts); each is sent to the pool now. While this process
    waits for a report, it checks the last source that no process has started yet.
    Standard input (which the pool's processes cannot read) is checked here, in its
    turn."""
    check = partial(report_file, detail=detail)
    sent = [
        None if at == 0 or path == STDIN else pool.submit(check, path)
        for at, path in enumerate(sources)
    ]
    return _in_order(sources, sent, check)


def _in_order(
    sources: list[Source],
    sent: list[Future[FileReport] | None],
    check: Callable[[Source], FileReport],
) -> Iterator[FileReport]:
    """The reports of :func:`_shared`, in order."""
    done: dict[int, FileReport] = {}
    back = len(sources) - 1  # sources past this one are checked or started
    for at, future in enumerate(sent):
        while future is not None and not future.done() and back > at:
            taken = sent[back]
            if taken is not None and not taken.cancel():
                break  # started: so are those before it (the pool takes them in order)
            if taken is not None:
                done[back] = check(sources[back])
            back -= 1
        if at in done:
            yield done.pop(at)
        else:
            yield check(sources[at]) if future is None else future.result()


def _in_process(
    files: list[str],
    on_game: Callable[[GameSummary], None],
    detail: bool,
    rubbers: Rubbers,
    start: Callable[[str], None] | None,
) -> Iterator[FileReport]:
    seen: dict[str, tuple[str, int]] = {}
    for path in files:
        if start is not None:
            start(path)
        yield report_file(path, on_game, detail, seen=seen, rubbers=rubbers)


def _pool(workers: int) -> Executor:
    """``workers`` processes, forked where the system can: they start at once, with what
    this process imported (standard input and the first part are read here). A forking
    pool starts every worker at its first task, which :func:`_shared` sends before the
    progress bar starts its thread; from a process already running other threads they
    are spawned instead: a thread holding a lock at the fork would leave it held in the
    workers."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    fork = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("fork" if fork else "spawn")
    )


def _progress() -> Progress:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("[bold]validate[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files, {task.fields[hands]} hands"),
        console=Console(stderr=True),
        transient=True,
    )


def _print_text(reports: Iterator[FileReport], color: bool | None) -> dict[str, Any]:
    """Print each file's problems as it comes, keeping only the counts."""
    total = summary_json([])
    for report in reports:
        for diag in report.diagnostics:
            click.echo(_line(diag), color=color)
        if report.left_out:
            click.echo(_left_out(report), color=color)
        for key, value in summary_json([report]).items():
            total[key] += value
    errors, warnings = total["errors"], total["warnings"]
    verdict = click.style(
        f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
        fg="red" if errors else ("yellow" if warnings else "green"),
        bold=True,
    )
    click.echo(
        f"Checked {total['files']} file(s), {total['games']} game(s), {total['hands']} hand(s): "
        + verdict,
        color=color,
    )
    return total


def _left_out(report: FileReport) -> str:
    """The line that says how many diagnostics of a file were not kept."""
    errors, warnings = report.left_out.get(ERROR, 0), report.left_out.get(WARNING, 0)
    return (
        f"{printable(report.path)}: {errors + warnings:,} more problem(s) not shown "
        f"({errors:,} error(s), {warnings:,} warning(s)): at most {KEPT_PER_FILE:,} a file "
        f"and {KEPT_PER_GAME:,} a game are kept"
    )


def _line(diag: Diagnostic) -> str:
    colour = "red" if diag.severity == ERROR else "yellow"
    where = [f"game {diag.game}"] if diag.game else []
    if diag.hand:
        where.append(f"hand {diag.hand}")
    context = f" [{', '.join(where)}]" if where else ""
    legal = f" (legal: {'; '.join(diag.legal)})" if diag.legal else ""
    code = click.style(diag.code, fg=colour, bold=True)
    path = printable(diag.path)
    place = f"{path}:{diag.line}" if diag.line else path
    return f"{place}: {code} {printable(diag.message + context + legal)}"
