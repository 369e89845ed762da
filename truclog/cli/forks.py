"""Processes forked for the parts of one large file, each checking one part and handing
its report back through a pipe: no process pool to import and start (about 40 ms of
``multiprocessing`` and ``concurrent.futures`` before the first part could start, against
a few ms for a fork), for ``truclog validate -j N`` on one file cut into N parts."""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Generic, TypeVar

from truclog.errors import TruclogError

T = TypeVar("T")


class ProcessLost(TruclogError):
    """A forked process that ended without handing back its value (killed, say)."""


class Forked(Generic[T]):
    """A process forked to work out one value, and the pipe it sends it back through."""

    __slots__ = ("pid", "pipe", "what")

    def __init__(self, pid: int, pipe: int, what: str) -> None:
        self.pid = pid
        self.pipe = pipe
        self.what = what

    def result(self) -> T:
        """The value the process worked out, or the exception it raised, raised here. A
        process that ended without one (killed, say) is a :class:`ProcessLost`."""
        with open(self.pipe, "rb", closefd=True) as pipe:
            self.pipe = -1
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        code = os.waitstatus_to_exitcode(status)
        if code in (0, 1) and data:
            value = pickle.loads(data)
            if code:
                raise value
            return value  # type: ignore[no-any-return]
        ended = f"killed by signal {-code}" if code < 0 else f"ended with status {code}"
        raise ProcessLost(f"the process checking {self.what} was {ended}")

    def end(self) -> None:
        """Stop the process if it still runs, and wait for it (when its value is not taken)."""
        if self.pipe >= 0:
            os.close(self.pipe)
            self.pipe = -1
        if self.pid:
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0


@contextmanager
def forked(tasks: Sequence[tuple[str, Callable[[], T]]]) -> Iterator[list[Forked[T]]]:
    """A process forked at once for each ``(what, task)`` (what it works on, to name it in
    an error); on leaving, those whose values were not taken are stopped."""
    children: list[Forked[T]] = []
    try:
        for what, task in tasks:
            children.append(_fork(what, task))
        yield children
    finally:
        for child in children:
            child.end()


def _fork(what: str, task: Callable[[], T]) -> Forked[T]:
    """A process that runs ``task``, pickles what it returns (or raises) into a pipe and
    exits at once: nothing of this process's state (buffered output, exit handlers) runs
    twice."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return Forked(pid, read, what)
    code = 2
    try:
        os.close(read)
        try:
            data, code = pickle.dumps(task(), pickle.HIGHEST_PROTOCOL), 0
        except Exception as exc:  # raised again in the parent, as a pool's worker would
            data, code = _pickled(exc), 1
        with open(write, "wb") as pipe:
            pipe.write(data)
    finally:
        os._exit(code)


def _pickled(exc: Exception) -> bytes:
    """An exception to raise again in the parent: itself, or its words when it cannot be
    pickled."""
    try:
        return pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
    except Exception:
        return pickle.dumps(TruclogError(f"{type(exc).__name__}: {exc}"))
