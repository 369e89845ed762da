"""The browser's counting processes: the review of decisions, the players' statistics
and the statistics as of each hand are each counted by a module run as a process of its
own (``python -m MODULE``), so that the browser stays quick while a large corpus is
read (no thread of its own holds its interpreter) and stopping, or quitting, is killing
the process.

The child is asked in one JSON document on its standard input (:func:`serve`) and tells
one JSON document a line on its standard output; the browser reads them as they come
(:func:`documents`), and hears ``{"error": ...}`` as a ``RuntimeError``.
"""

from __future__ import annotations

import select
import subprocess
import sys
from collections.abc import Callable, Generator
from typing import Any

import orjson

POLL_SECONDS = 0.1
"""How often the browser's worker looks whether it was told to stop, while the child
says nothing."""

Tell = Callable[[dict[str, Any]], None]


def documents(
    module: str, asked: dict[str, Any], stop: Callable[[], bool], what: str
) -> Generator[dict[str, Any], None, None]:
    """Run ``python -m module``, asked ``asked``; the documents it tells, as they come,
    until ``stop()`` says to stop. The child is killed once its documents are no longer
    read (close the iterator: ``contextlib.closing``). Raises ``RuntimeError`` when the
    child tells an error, or ends before the reader has what it waits for (``what``
    names the child in that message)."""
    command = [sys.executable, "-m", module]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(orjson.dumps(asked))
        child.stdin.close()
        while not stop():
            waiting, _, _ = select.select([child.stdout], [], [], POLL_SECONDS)
            if not waiting:
                continue
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"the {what} process stopped")
            document: dict[str, Any] = orjson.loads(line)
            if "error" in document:
                raise RuntimeError(document["error"] or f"the {what} failed")
            yield document
    except BrokenPipeError:
        raise RuntimeError(f"the {what} process stopped") from None
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def serve(work: Callable[[dict[str, Any], Tell], None]) -> None:
    """In the child process: ``work`` what the browser asked (read from standard input),
    with the function that tells it a document; an exception is told as an error (the
    browser shows it; a child's traceback helps no one)."""

    def tell(document: dict[str, Any]) -> None:
        sys.stdout.buffer.write(orjson.dumps(document) + b"\n")
        sys.stdout.buffer.flush()

    try:
        work(orjson.loads(sys.stdin.buffer.read()), tell)
    except Exception as exc:
        tell({"error": str(exc) or type(exc).__name__})


__all__ = ["POLL_SECONDS", "Tell", "documents", "serve"]
