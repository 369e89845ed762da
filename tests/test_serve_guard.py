"""``--serve`` lets in only the address it printed: a real server (``truclog record
--serve`` and ``truclog browse --serve`` in processes of their own) asked over HTTP and
WebSocket by aiohttp's client, as a page of another site or a curious neighbour would."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from served import Served, start, stop
from yarl import URL


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[Served]:
    served = start(["record", "cafe.truclog.jsonl", "-p", "Ana", "-p", "Marc"], tmp_path)
    try:
        yield served
    finally:
        stop(served.process)


def run(coroutine):  # type: ignore[no-untyped-def]
    return asyncio.run(coroutine)


async def status(url: URL | str, headers: dict[str, str] | None = None) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, headers=headers or {}, allow_redirects=False) as response,
    ):
        return response.status


async def socket_status(url: URL | str, headers: dict[str, str] | None = None) -> int:
    """101 when the WebSocket opened (and got the app's first bytes), else the refusal."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers or {}) as ws:
                message = await ws.receive(timeout=30)
                assert message.type is aiohttp.WSMsgType.BINARY, message
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def test_the_address_printed_carries_a_token_new_each_run(tmp_path: Path) -> None:
    first = start(["browse", str(tmp_path)], tmp_path)
    stop(first.process)
    second = start(["browse", str(tmp_path)], tmp_path)
    stop(second.process)
    assert len(first.token) >= 32 and first.token != second.token
    assert "at most 4 page(s) at once" in first.said  # the browser's default


def test_nothing_is_served_without_the_token(recorder: Served) -> None:
    base = recorder.base
    for path in ("/", "/static/js/textual.js", "/static/css/xterm.css", "/download/x"):
        assert run(status(base.with_path(path))) == 403, path
    assert run(status(base.with_query(token="0" * len(recorder.token)))) == 403
    assert run(socket_status(base.with_path("/ws"))) == 403
    assert run(socket_status(base.with_path("/ws").with_query(token="wrong"))) == 403
    assert recorder.app_processes() == []  # no app was started for any of them


def test_with_the_token_the_page_its_files_and_its_socket_are_served(recorder: Served) -> None:
    async def visit() -> tuple[str, int, int]:
        # keeps the cookie, as a browser does (aiohttp's jar takes none from an address unless told)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(recorder.url) as page:
                assert page.status == 200
                html = await page.text()
            async with session.get(recorder.base.with_path("/static/js/textual.js")) as script:
                script_status = script.status
            origin = {"Origin": str(recorder.base.with_path(""))}
            async with session.ws_connect(recorder.base.with_path("/ws"), headers=origin) as ws:
                message = await ws.receive(timeout=30)
                return html, script_status, 101 if message.type is aiohttp.WSMsgType.BINARY else 0

    html, script, websocket = run(visit())
    assert '<meta name="viewport" content="width=device-width, initial-scale=1"' in html
    assert recorder.token not in html  # the page keeps it in a cookie only
    assert (script, websocket) == (200, 101)


def test_another_sites_page_or_host_name_is_refused_even_with_the_token(
    recorder: Served,
) -> None:
    ws = recorder.base.with_path("/ws").with_query(token=recorder.token)
    assert run(socket_status(ws, {"Origin": "http://evil.example"})) == 403
    assert run(socket_status(ws, {"Origin": "null"})) == 403
    port = recorder.base.port
    assert port is not None
    other_port = {"Origin": f"http://127.0.0.1:{port + 1 if port < 65535 else port - 1}"}
    assert run(socket_status(ws, other_port)) == 403
    # DNS rebinding: a name of the attacker's that resolves to this machine
    assert run(status(recorder.url, {"Host": f"evil.example:{port}"})) == 403
    assert run(socket_status(ws, {"Host": f"rebind.evil.example:{port}"})) == 403
    assert run(status(recorder.url, {"Host": f"localhost:{port}"})) == 200
    assert recorder.app_processes() == []


def test_sessions_beyond_the_limit_are_refused_and_each_has_one_process(
    recorder: Served,
) -> None:
    ws = recorder.base.with_path("/ws").with_query(token=recorder.token)

    async def sessions() -> None:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(ws)
            second = await session.ws_connect(ws)
            for opened in (first, second):
                assert (await opened.receive(timeout=30)).type is aiohttp.WSMsgType.BINARY
            assert len(recorder.app_processes()) == 2
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(ws)
            assert refused.value.status == 503
            async with session.get(recorder.url) as page:  # the page says why
                assert page.status == 503
                assert "2 session(s) are open" in await page.text()
            await first.close()
            deadline = time.monotonic() + 30
            while len(recorder.app_processes()) > 1:  # the page gone, its app ends
                assert time.monotonic() < deadline, recorder.app_processes()
                await asyncio.sleep(0.2)
            while True:  # and its session is let go once the server has stopped the app
                async with session.get(recorder.url) as page:
                    if page.status == 200:
                        break
                assert time.monotonic() < deadline, "the closed page's session stays open"
                await asyncio.sleep(0.2)
            third = await session.ws_connect(ws)
            assert (await third.receive(timeout=30)).type is aiohttp.WSMsgType.BINARY
            assert len(recorder.app_processes()) == 2
            await third.close()
            await second.close()

    run(sessions())


def test_the_limit_is_an_option(tmp_path: Path) -> None:
    served = start(["browse", str(tmp_path), "--sessions", "1"], tmp_path)
    try:
        ws = served.base.with_path("/ws").with_query(token=served.token)

        async def two() -> int:
            async with aiohttp.ClientSession() as session, session.ws_connect(ws) as first:
                await first.receive(timeout=30)
                try:
                    await session.ws_connect(ws)
                except aiohttp.WSServerHandshakeError as exc:
                    return exc.status
                return 101

        assert run(two()) == 503
    finally:
        stop(served.process)


def test_sessions_run_this_truclog_not_a_truclog_folder_where_it_was_started(
    tmp_path: Path,
) -> None:
    decoy = tmp_path / "truclog"
    decoy.mkdir()
    marker = tmp_path / "decoy-ran"
    (decoy / "__init__.py").write_text("")
    (decoy / "__main__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    served = start(["record", "t.truclog.jsonl", "-p", "Ana", "-p", "Marc"], tmp_path)
    try:
        ws = served.base.with_path("/ws").with_query(token=served.token)
        assert run(socket_status(ws)) == 101  # the recorder drew its first screen
    finally:
        stop(served.process)
    assert not marker.exists()
