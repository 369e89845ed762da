"""``--serve``: a Textual command served to a web browser (a phone at the table) by
textual-serve. Each browser tab runs the command in a process of its own.

It listens on this machine only (127.0.0.1) unless ``--host`` names another
address, e.g. ``--host 0.0.0.0`` for every network the machine is on. Either way
only the address printed, with its random token, opens the app (see
:mod:`truclog.cli.guard`); for a phone it is also printed as a QR code.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

import truclog

LOCAL = "127.0.0.1"

F = TypeVar("F", bound=Callable[..., Any])


def serve_options(sessions: int) -> Callable[[F], F]:
    """The ``--serve``, ``--host``, ``--port`` and ``--sessions`` options of a Textual
    command; ``sessions`` is how many pages may use it at once by default."""
    return lambda command: _serve_options(command, sessions)


def _serve_options(command: F, sessions: int) -> F:
    command = click.option(
        "--sessions", type=click.IntRange(1, 64), default=sessions, show_default=True,
        help="How many browser pages may use the app at once (with --serve); each runs "
        "the app in a process of its own.",
    )(command)  # fmt: skip
    command = click.option(
        "--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
        help="The port to serve on (with --serve).",
    )(command)  # fmt: skip
    command = click.option(
        "--host", default=None, metavar="ADDRESS",
        help=f"The address to listen on (with --serve; default {LOCAL}, this machine only; "
        "0.0.0.0 for phones on the same network).",
    )(command)  # fmt: skip
    return click.option(
        "--serve", "served", is_flag=True,
        help="Serve the app to a web browser (a phone at the table) instead of the terminal.",
    )(command)  # fmt: skip


def serve(args: Sequence[str], host: str | None, port: int, sessions: int, title: str) -> None:
    """Serve ``truclog ARGS`` to browsers at ``host:port``; returns when interrupted."""
    from truclog.cli.guard import GuardedServer, new_token

    listen = host or LOCAL
    _check_free(listen, port)
    token = new_token()
    url = f"http://{_reachable(listen)}:{port}/?token={token}"
    click.echo(f"truclog {args[0]}: open {url} in a browser (ctrl+c stops serving)", err=True)
    click.echo(
        f"at most {sessions} page(s) at once; without the token above, every request is refused",
        err=True,
    )
    if not _loopback(listen):
        click.echo(
            f"listening on {listen}: any device that reaches this machine on port {port} "
            "can connect, but only with the token; for a phone, scan:",
            err=True,
        )
        click.echo(qr_code(url), err=True, nl=False)
    server = GuardedServer(
        app_command(args), token=token, sessions=sessions, host=listen, port=port, title=title
    )
    server.serve()


def app_command(args: Sequence[str]) -> str:
    """The shell command of each session: this Python and this truclog (not a ``truclog``
    folder in the working directory, which ``python -m`` would put first)."""
    command = [sys.executable, "-P", "-m", "truclog", *args]
    root = Path(truclog.__file__).resolve().parent.parent
    started_from = Path(sys.path[0] or ".").resolve() if sys.path else None
    if not sys.flags.safe_path and started_from == root:  # run as python -m from a checkout
        command[:0] = ["env", f"PYTHONPATH={os.pathsep.join(_python_path(root))}"]
    return shlex.join(command)


def _python_path(root: Path) -> list[str]:
    return [str(root), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]


def qr_code(url: str) -> str:
    """``url`` as a QR code drawn with blocks, for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out, compact=True)
    return out.getvalue()


def _check_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise click.ClickException(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}"
            ) from None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _reachable(host: str) -> str:
    """The address a browser uses: for a wildcard, this machine's address on its network."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: only picks the route
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()
