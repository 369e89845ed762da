"""What the commands that read logs share: the PATHS they read, ``-j N`` processes and the games they keep."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

import click

from truclog.errors import TruclogError
from truclog.solver.bluff import BLUFF_THRESHOLD

if TYPE_CHECKING:
    from truclog.stats.kept import GameFilter

Command = TypeVar("Command", bound=Callable[..., Any])


def closest(word: str, known: Iterable[str], limit: int = 5) -> list[str]:
    """The names in ``known`` that ``word`` most likely meant: the most alike
    (:func:`difflib.get_close_matches`), then those it begins or is part of.

    >>> closest("fold", ["accept_rate", "folds_right", "fold_rate", "hands_won"])
    ['fold_rate', 'folds_right']
    >>> closest("valdate", ["browse", "validate", "stats"])
    ['validate']
    """
    from difflib import get_close_matches

    names = list(known)
    found = get_close_matches(word, names, n=limit, cutoff=0.6)
    found += [n for n in names if n.startswith(word)] + [n for n in names if word in n]
    return list(dict.fromkeys(found))[:limit]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean a or b?)`` for ``word``, or nothing when nothing is close."""
    close = closest(word, known)
    if not close:
        return ""
    listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f" (did you mean {listed}?)"


class Suggesting(click.Choice[str]):
    """A choice among many names (``what`` they are): an unknown one is an error that
    names the closest, not every one of them."""

    def __init__(self, choices: Iterable[str], what: str) -> None:
        super().__init__(list(choices))
        self.what = what

    def fail(
        self, message: str, param: click.Parameter | None = None, ctx: click.Context | None = None
    ) -> Any:
        """Fails as click does, but an unknown name among many is told the closest name instead of
        the whole list."""
        word = message.split("'")[1] if message.count("'") >= 2 else ""
        if word and len(self.choices) > 8:
            hint = did_you_mean(word, map(str, self.choices)) or " (--help lists them)"
            message = f"{word!r} is not {self.what}{hint}"
        return super().fail(message, param, ctx)


log_paths = click.argument("paths", nargs=-1, required=True)
"""PATHS: files, .gz files, directories of logs, or - for standard input."""


def jobs_option(help: str, default: int | None = 1) -> Callable[[Command], Command]:
    """``-j N``/``--jobs N``: how many processes share the files (``None``: the command picks)."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(1),
        default=default,
        show_default=default is not None,
        help=help,
    )


def format_option(
    formats: tuple[str, ...], help: str, name: str = "fmt"
) -> Callable[[Command], Command]:
    """``--format``: one of ``formats``, the first by default, given to the command as ``name``."""
    return click.option(
        "--format",
        name,
        type=click.Choice(formats),
        default=formats[0],
        show_default=True,
        help=help,
    )


bluff_threshold_option = click.option(
    "--bluff-threshold",
    type=click.FloatRange(0.0, 1.0),
    default=BLUFF_THRESHOLD,
    show_default=True,
    help="A raise with a known hand below this strength is a bluff.",
)
"""``--bluff-threshold X``: below this strength a raise with a known hand is a bluff."""


def shows_progress(paths: Iterable[str]) -> bool:
    """A progress bar goes to stderr when it is a terminal and standard input is not read.

    >>> shows_progress(["-"])
    False
    """
    return sys.stderr.isatty() and "-" not in paths


scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on a Dask cluster: a scheduler's address (tcp://host:8786), or local:N for "
    "N worker processes here. Needs pip install 'truclog[dask]'.",
)
"""``--scheduler ADDRESS``: the files go to a Dask cluster (see
:mod:`truclog.stats.distributed`)."""


class Unusable(click.ClickException):
    """What the command was given cannot be used at all (exit status 2)."""

    exit_code = 2


@contextmanager
def cluster(scheduler: str, paths: Iterable[str]) -> Iterator[Any]:
    """A client of the Dask cluster ``scheduler`` names, to read ``paths``; no Dask, a
    bad ``local:N``, a scheduler out of reach or standard input (which no worker can
    read) is a one-line error with exit status 2."""
    if "-" in paths:
        raise Unusable("standard input (-) cannot be read on a Dask cluster: name the log's file")
    try:
        from truclog.stats import distributed
    except ImportError:
        raise Unusable("--scheduler needs Dask: pip install 'truclog[dask]'") from None
    with ExitStack() as stack:
        try:
            client = stack.enter_context(distributed.connect(scheduler))
        except TruclogError as exc:
            raise Unusable(exc.message) from None
        yield client


def as_day(ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    """A ``--since``/``--until`` value as a date (YYYY-MM-DD, a longer timestamp cut)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise click.BadParameter(f"'{value}' is not a date like 2026-11-29") from None


def game_filters(sources: bool = True) -> Callable[[Command], Command]:
    """The options that choose the games read: ``--rules``, ``--since``, ``--until`` and,
    with ``sources``, ``--source``."""
    from truclog.engine.rules import PRESETS

    options = [
        click.option(
            "--rules",
            "rules",
            multiple=True,
            type=click.Choice(list(PRESETS)),
            help="Only games under this rules preset (overrides included); repeatable.",
        ),
        click.option(
            "--since", callback=as_day, help="Only games on or after this date (YYYY-MM-DD)."
        ),
        click.option("--until", callback=as_day, help="Only games on or before this date."),
    ]
    if sources:
        options.append(
            click.option(
                "--source",
                "sources",
                multiple=True,
                help="Only games from this source; repeatable.",
            )
        )

    def decorate(function: Command) -> Command:
        for option in reversed(options):
            function = option(function)
        return function

    return decorate


def game_filter(
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
    sources: tuple[str, ...] = (),
    marks: tuple[str, ...] = (),
) -> GameFilter:
    """The games those options keep; a ``--since`` after ``--until`` is refused."""
    from truclog.stats.kept import GameFilter

    if since is not None and until is not None and since > until:
        raise click.BadParameter(f"--since {since} is after --until {until}")
    return GameFilter(rules, since, until, sources, marks)
