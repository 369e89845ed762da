"""Helpers of the ``--serve`` tests: a real ``truclog ... --serve`` in a process group of
its own, the address it printed, and its end (with every app process it started)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from yarl import URL


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running ``--serve``: its process, the address it printed, what it said."""

    process: subprocess.Popen[bytes]
    url: URL
    said: str

    @property
    def token(self) -> str:
        return self.url.query["token"]

    @property
    def base(self) -> URL:
        return self.url.with_query(None)

    def app_processes(self) -> list[str]:
        """The app processes of the sessions (each runs truclog with the served arguments)."""
        found = subprocess.run(
            ["pgrep", "-s", str(self.process.pid), "-f", "^[^ ]*python[^ ]* -P -m truclog "],
            capture_output=True,
            text=True,
        )
        return [pid for pid in found.stdout.split() if int(pid) != self.process.pid]


def start(args: list[str], cwd: Path) -> Served:
    """``python -P -m truclog ARGS`` (as the installed command runs it), once it listens."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-P", "-m", "truclog", *args, "--serve", "--port", str(port)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                pytest.fail(f"the server did not start: {process.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.2)
    said = b""
    assert process.stderr is not None
    os.set_blocking(process.stderr.fileno(), False)
    while b"every request is refused" not in said and time.monotonic() < deadline:
        said += process.stderr.read() or b""
        time.sleep(0.05)
    text = said.decode()
    found = re.search(r"open (http://\S+) in a browser", text)
    assert found, text
    return Served(process, URL(found.group(1)), text)


def stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
    left = subprocess.run(["pgrep", "-s", str(process.pid)], capture_output=True, text=True)
    for pid in left.stdout.split():
        os.kill(int(pid), signal.SIGKILL)
