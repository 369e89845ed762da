"""``--serve``: a Textual command served to a web browser (a phone at the table) by
textual-serve. Each browser tab runs the command in a process of its own.

It listens on this machine only (127.0.0.1) unless ``--host`` names another
address, e.g. ``--host 0.0.0.0`` for every network the machine is on.
"""

from __future__ import annotations

import ipaddress
import shlex
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

LOCAL = "127.0.0.1"

F = TypeVar("F", bound=Callable[..., Any])


def serve_options(command: F) -> F:
    """The ``--serve``, ``--host`` and ``--port`` options of a Textual command."""
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


def serve(args: Sequence[str], host: str | None, port: int, title: str) -> None:
    """Serve ``truclog ARGS`` to browsers at ``host:port``; returns when interrupted."""
    from textual_serve.server import Server

    listen = host or LOCAL
    _check_free(listen, port)
    url = f"http://{_reachable(listen)}:{port}"
    command = shlex.join([sys.executable, "-m", "truclog", *args])
    click.echo(f"truclog {args[0]}: open {url} in a browser (ctrl+c stops serving)", err=True)
    if not _loopback(listen):
        click.echo(
            f"listening on {listen}: anyone who can reach this machine on port {port} "
            "can use the app",
            err=True,
        )
    Server(command, host=listen, port=port, title=title, public_url=url).serve()


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
