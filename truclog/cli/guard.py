"""Who may use an app served by ``--serve``: whoever holds the run's token, from a page
of the server's own origin, within the limit of sessions open at once.

The token is random for each run and shown in the address the command prints
(``/?token=...``). Opening that address keeps the token in a cookie (HttpOnly,
SameSite=Strict), which the page's own requests (its scripts, its WebSocket) carry.
Every other request is refused with 403: no token, a ``Host`` that is not an
address or this machine's name (DNS rebinding), an ``Origin`` other than the
server's own (another site's page). A WebSocket beyond the session limit gets 503;
each session is one app process, ended when its page goes.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
import socket
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from aiohttp.typedefs import Handler
from textual_serve.server import Server, to_int
from yarl import URL

TEMPLATES = Path(__file__).parent / "templates"


def new_token() -> str:
    """A token no one can guess (as Jupyter's)."""
    return secrets.token_urlsafe(24)


class GuardedServer(Server):
    """textual-serve's server, behind the token, the Host and Origin checks and a session limit."""

    def __init__(
        self, command: str, *, token: str, sessions: int, host: str, port: int, title: str
    ) -> None:
        super().__init__(command, host=host, port=port, title=title, templates_path=TEMPLATES)
        self.token = token
        self.limit = sessions
        self.open = 0
        self.cookie = f"truclog-token-{port}"
        self.names = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.guard)
        return app

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuses a request from another host or origin or without the token (403, saying why); a
        request carrying the token sets the token cookie, so the page's own requests pass."""
        refusal = self.refusal(request)
        if refusal:
            raise web.HTTPForbidden(text=refusal + "\n")
        response = await handler(request)
        if request.query.get("token") and not response.prepared:
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
        return response

    def refusal(self, request: web.Request) -> str:
        """Why ``request`` is refused, or "" when it may go on."""
        if not self.known_host(request.host):
            return f"refused: {request.host!r} is not an address of this machine"
        origin = request.headers.get("Origin")
        if origin is not None and not _same_host(origin, request.host):
            return f"refused: a page of {origin} may not use this app"
        given = request.query.get("token") or request.cookies.get(self.cookie) or ""
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            return "refused: open the address with its token, as truclog printed it"
        return ""

    def known_host(self, host: str) -> bool:
        """True for an IP address, ``localhost`` or this machine's name (with any port)."""
        try:
            name = URL(f"http://{host}").host or ""
        except ValueError:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name.lower() in self.names
        return True

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Opens an app session, or refuses it (503) when ``--sessions`` are already open."""
        if self.open >= self.limit:
            raise web.HTTPServiceUnavailable(text=self.full() + "\n")
        self.open += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.open -= 1

    def full(self) -> str:
        """The message refusing a session while the most allowed are open."""
        return (
            f"{self.open} session(s) are open, the most allowed at once: close another "
            "page first (or start truclog with a higher --sessions)"
        )

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page that starts an app session, from truclog's own template (503 while the sessions
        are full)."""
        if self.open >= self.limit:
            raise web.HTTPServiceUnavailable(text=self.full() + "\n")
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"ws://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: the command has said where to connect (and each request is not logged,
        so that the address and its QR code stay on the screen)."""
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


def _same_host(origin: str, host: str) -> bool:
    try:
        url = URL(origin)
    except ValueError:
        return False
    return url.scheme in ("http", "https") and url.raw_authority.lower() == host.lower()
