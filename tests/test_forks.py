"""Processes forked for the parts of one file (``truclog validate -j N`` on one large
log): each hands back its value, or its exception, through a pipe; a process killed on
the way is a clear error of its part, never a hang or a traceback; none outlives the run."""

from __future__ import annotations

import os
import signal
import time

import pytest

from truclog.cli.forks import ProcessLost, forked
from truclog.codes import Read
from truclog.format.parts import Part
from truclog.validate.report import FileReport


def _pid() -> int:
    return os.getpid()


def _fail() -> int:
    raise ValueError("no such hand")


def _killed() -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def _unpicklable() -> int:
    class Local(Exception):
        pass

    raise Local("made inside")


def _large() -> bytes:
    return bytes(range(256)) * 4096  # more than a pipe holds at once


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_each_process_hands_back_its_value_in_order() -> None:
    with forked([("a", _pid), ("b", _large), ("c", _pid)]) as children:
        first, large, third = (child.result() for child in children)
    assert first != os.getpid() and third != os.getpid() and first != third
    assert large == bytes(range(256)) * 4096


def test_an_exception_in_a_process_is_raised_again_here() -> None:
    with forked([("a", _fail)]) as (child,), pytest.raises(ValueError, match="no such hand"):
        child.result()
    with forked([("a", _unpicklable)]) as (child,), pytest.raises(ValueError, match="Local"):
        child.result()


def test_a_killed_process_is_a_clear_error_naming_its_work() -> None:
    work = [("bytes 0 to 9 of log.jsonl", _killed)]
    with forked(work) as (child,), pytest.raises(ProcessLost) as raised:
        child.result()
    assert raised.value.message == (
        "the process checking bytes 0 to 9 of log.jsonl was killed by signal 9"
    )


def test_processes_whose_values_are_not_taken_are_stopped_on_leaving() -> None:
    with forked([("a", lambda: time.sleep(60))]) as (child,):
        pid = child.pid
    assert _gone(pid)


def test_a_killed_part_is_an_e000_of_its_file_and_the_rest_is_reported() -> None:
    from truclog.cli.validate import _first_here

    sources = [Part("log.jsonl", 0, 10, 0, False), Part("log.jsonl", 10, 20, None, True)]
    with forked([("bytes 10 to 20 of log.jsonl", _killed)]) as children:
        first, lost = _first_here(lambda source: FileReport("log.jsonl"), sources, children)
    assert not first.diagnostics
    (diagnostic,) = lost.diagnostics
    assert (diagnostic.path, diagnostic.line, diagnostic.code) == ("log.jsonl", 0, Read.UNREADABLE)
    assert "killed by signal 9" in diagnostic.message
