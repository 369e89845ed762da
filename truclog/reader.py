"""Reading truclog/1 logs: a stream of lines, each an event or a precise problem.

Reading never stops on a bad line and holds one line at a time, whatever the
size of the log. Files may be plain, gzip-compressed (``.gz``), whole directories
(every ``*.jsonl`` and ``*.jsonl.gz`` under them) or standard input (``-``).

>>> import io
>>> lines = list(read_stream(io.BytesIO(b'\\xef\\xbb\\xbf{"type":"accept","player":"Ana"}\\r\\n\\n[1]\\n{"type":"fold"'), "x.jsonl"))
>>> [(l.line, l.event.type if l.event else l.problem.code) for l in lines]
[(1, 'accept'), (3, 'E002'), (4, 'E004')]
>>> lines[2].problem.message
'a crash cut this line short: the last line has no newline and is not whole JSON (EOF while parsing an object at column 14)'

Problem codes:

- ``E000`` the file could not be read to its end (a broken or truncated ``.gz``, an I/O error)
- ``E001`` the line is not JSON (with its column)
- ``E002`` the line is not a JSON object, or its ``type`` is missing or unknown
- ``E003`` the line is not a valid event (each field and why)
- ``E004`` the last line has no newline and is not whole JSON: a crash cut it short
- ``E005`` the line is not UTF-8 text
"""

from __future__ import annotations

import gc
import gzip
import io
import os
import sys
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any, cast

import orjson
from pydantic import ValidationError

from truclog import remote
from truclog.actions import Action
from truclog.codes import Read
from truclog.errors import TruclogError
from truclog.events import (
    EVENT_ADAPTER,
    EVENT_TYPES,
    Event,
    describe_error,
    event_to_action,
    reasons,
)
from truclog.shapes import Shapes, comparable

STDIN = "-"
STDIN_NAME = "<stdin>"
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
_BOM = b"\xef\xbb\xbf"
_BUFFER = 1 << 16


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a line is not an event: a stable ``code`` and a message for the user."""

    code: str
    message: str
    column: int | None = None
    field: str | None = None


@dataclass(slots=True)
class LogLine:
    """One non-blank line of a log (1-based ``line``): its event, or its problem.

    ``raw`` is the line's bytes without its line end (and without a BOM). A line
    of a shape read before (see :mod:`truclog.shapes`) is not parsed again:
    ``parsed`` is then that earlier event, the same but for its time (``t`` is
    this line's own) and a deal's cards (``cards``, when they differ);
    :attr:`event` builds the line's own event when asked. ``action`` is the
    event's engine action, ``comparable`` the line as duplicates compare it
    (see :func:`truclog.shapes.comparable`).
    """

    path: str
    line: int
    parsed: Event | None
    problem: Problem | None
    raw: bytes
    t: str | None = None
    action: Action | None = None
    comparable: bytes = b""
    cards: dict[str, list[str]] | None = None

    @property
    def event(self) -> Event | None:
        """The line's event (``None`` for a line with a problem)."""
        parsed = self.parsed
        if parsed is None or (parsed.t == self.t and self.cards is None):
            return parsed
        changes: dict[str, Any] = {"t": self.t}
        if self.cards is not None:
            changes["cards"] = self.cards
        self.parsed, self.cards = parsed.model_copy(update=changes), None
        return self.parsed

    @property
    def type(self) -> str | None:
        """The event's ``type``, or ``None`` for a line with a problem."""
        return None if self.parsed is None else self.parsed.type


def log_files(sources: Iterable[str | Path]) -> list[str]:
    """The log files named by ``sources``: files as given, directories expanded.

    A directory gives every ``*.jsonl`` and ``*.jsonl.gz`` file under it, sorted,
    less those its ``.truclogignore`` names (see :func:`_walk`); ``-`` stands for
    standard input. A URL (``s3://...``, ``file://...``) or a glob pattern names the
    log files it matches (see :mod:`truclog.remote`). A missing or unreadable path raises
    :class:`~truclog.errors.TruclogError` (code ``E000``).
    """
    files: list[str] = []
    for source in sources:
        name = str(source)
        if name == STDIN:
            files.append(STDIN)
            continue
        if remote.is_url(name) or (remote.has_magic(name) and not os.path.exists(name)):
            files.extend(remote.expand(name, LOG_SUFFIXES))
            continue
        path = Path(name)
        if path.is_dir():
            files.extend(_walk(path))
        elif path.exists():
            if not os.access(path, os.R_OK):
                raise TruclogError(
                    f"{name}: cannot read this file (permission denied)", Read.UNREADABLE
                )
            files.append(name)
        else:
            raise TruclogError(f"{name}: no such file or directory", Read.UNREADABLE)
    return files


IGNORE_FILE = ".truclogignore"


def _walk(root: Path) -> list[str]:
    """Log files under ``root``, sorted, less those its ``.truclogignore`` leaves out.

    ``.truclogignore`` holds one glob a line (``#`` starts a comment), matched
    against paths relative to ``root`` and against each of their folders, so
    ``invalid`` leaves out a whole folder of deliberately broken logs.
    """
    ignore = root / IGNORE_FILE
    patterns = []
    if ignore.is_file():
        lines = ignore.read_text("utf-8", errors="replace").splitlines()
        patterns = [p.strip().rstrip("/") for p in lines if p.strip() and not p.startswith("#")]
    found = []
    for path in root.rglob("*"):
        if not path.name.endswith(LOG_SUFFIXES) or not path.is_file():
            continue
        relative = path.relative_to(root)
        parts = [relative.as_posix(), *(p.as_posix() for p in relative.parents if p.parts)]
        if not any(fnmatch(part, pattern) for part in parts for pattern in patterns):
            found.append(str(path))
    return sorted(found)


@contextmanager
def rare_collections(young: int = 50_000) -> Iterator[None]:
    """Run the garbage collector less often while reading a whole log: reading makes
    millions of short-lived objects and few cycles, so the default (a collection every
    700 new objects) mostly walks live ones."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def read_logs(sources: Iterable[str | Path]) -> Iterator[LogLine]:
    """Every line of every log named by ``sources`` (see :func:`log_files`)."""
    for path in log_files(sources):
        yield from read_log(path)


def read_log(path: str | Path) -> Iterator[LogLine]:
    """Every non-blank line of one log: a file, a ``.gz`` file, or ``-`` (stdin)."""
    name = str(path)
    with open_log(name) as stream:
        yield from read_stream(stream, STDIN_NAME if name == STDIN else name)


@contextmanager
def open_log(name: str) -> Iterator[io.BufferedIOBase]:
    """A log's bytes, decompressed for a ``.gz`` file; ``-`` is standard input. A file
    that cannot be opened raises :class:`~truclog.errors.TruclogError` (``E000``)."""
    if name == STDIN:
        yield cast(io.BufferedIOBase, sys.stdin.buffer)
        return
    try:
        raw = (
            remote.open_url(name) if remote.is_url(name) else open(name, "rb", buffering=_BUFFER)  # noqa: SIM115 - closed below
        )
    except OSError as exc:
        raise TruclogError(f"{name}: cannot open: {exc.strerror or exc}", Read.UNREADABLE) from None
    with raw:
        yield gzip.GzipFile(fileobj=raw) if name.endswith(".gz") else cast(io.BufferedReader, raw)


def read_stream(stream: Iterable[bytes], name: str) -> Iterator[LogLine]:
    """Every non-blank line of an open binary stream (lines as bytes), named ``name``."""
    number = 0
    read = read_line
    try:
        for raw in stream:
            number += 1
            body = line_body(raw, number)
            if body is not None:
                yield read(name, number, *body)
    except READ_ERRORS as exc:
        yield unreadable(name, number, exc)


READ_ERRORS = (OSError, EOFError, zlib.error)
"""What reading a log may raise: its file, or its compression, is broken."""


def unreadable(name: str, number: int, exc: Exception) -> LogLine:
    """The line that says a log could not be read past line ``number``."""
    message = f"the file could not be read past line {number}: {exc}"
    return LogLine(name, number + 1, None, Problem(Read.UNREADABLE, message), b"")


def line_body(raw: bytes, number: int) -> tuple[bytes, bool] | None:
    """A raw line (``number``, 1-based) without its line end and BOM, and whether it
    had a line end; ``None`` for a blank line."""
    if raw[-1:] == b"\n":
        body = raw[:-2] if raw[-2:-1] == b"\r" else raw[:-1]
        whole = True
    else:
        body, whole = raw, False
    if number == 1 and body.startswith(_BOM):
        body = body[3:]
    if not body or body.isspace():
        return None
    return body, whole


_SHAPES = Shapes()


def read_line(name: str, number: int, body: bytes, whole: bool) -> LogLine:
    """One non-blank line (its body, see :func:`line_body`) read into a :class:`LogLine`."""
    found = _SHAPES.find(body)
    if found is not None:
        event, action, same, t, cards = found
        return LogLine(name, number, event, None, body, t, action, same, cards)
    try:
        event = EVENT_ADAPTER.validator.validate_json(body)
    except ValidationError as exc:
        return LogLine(name, number, None, _problem(body, exc, whole), body)
    action = event_to_action(event)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:  # numbers orjson cannot hold: compared as written
        return LogLine(name, number, event, None, body, event.t, action, body)
    same = comparable(data)
    _SHAPES.learn(body, event, data, action, same)
    return LogLine(name, number, event, None, body, event.t, action, same)


def _problem(body: bytes, exc: ValidationError, whole: bool) -> Problem:
    """What is wrong with a line that did not validate."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    kind = first["type"]
    if kind == "json_invalid":
        return _json_problem(body, str(first.get("ctx", {}).get("error", first["msg"])), whole)
    if kind == "dict_type" and not first["loc"]:
        return Problem(Read.NOT_OBJECT, f"the line is not a JSON object but {_json_kind(body)}")
    if kind == "union_tag_not_found":
        return Problem(Read.NOT_OBJECT, "the object has no 'type' field", field="type")
    if kind == "union_tag_invalid":
        tag = first.get("ctx", {}).get("tag", "?")
        known = ", ".join(EVENT_TYPES)
        return Problem(
            Read.NOT_OBJECT, f"unknown type '{tag}' (known types: {known})", field="type"
        )
    field, _ = describe_error(first)
    kind_name = " ".join(str(part) for part in first["loc"][:1])
    return Problem(Read.NOT_EVENT, f"not a valid {kind_name} event: {reasons(exc)}", field=field)


def _json_problem(body: bytes, error: str, whole: bool) -> Problem:
    """E001 (not JSON), E004 (a last line cut short) or E005 (not UTF-8)."""
    try:
        body.decode()
    except UnicodeDecodeError as bad:
        if whole:
            return Problem(
                Read.NOT_UTF8, f"the line is not UTF-8 text (byte {bad.start + 1})", bad.start + 1
            )
    reason, _, where = error.rpartition(" at line ")
    column = int(where.rpartition(" ")[2]) if where[-1:].isdigit() else None
    reason = reason or error
    if column is not None:
        reason = f"{reason} at column {column}"
    if not whole:
        return Problem(
            Read.TORN,
            f"a crash cut this line short: the last line has no newline and is not whole JSON ({reason})",
            column,
        )
    return Problem(Read.NOT_JSON, f"the line is not JSON: {reason}", column)


def _json_kind(body: bytes) -> str:
    first = body.lstrip()[:1]
    kinds = {b"[": "an array", b'"': "a string", b"t": "true", b"f": "false", b"n": "null"}
    return kinds.get(first, "a number")
