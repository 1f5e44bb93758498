"""Junk and slow readers on every socket (docs/online.md, "Sockets: junk and slow readers"; web/socket_guard.py):
binary frames are refused, not raised; junk is logged once per socket and minute and closes the socket past a
limit (1008); a client that does not read is dropped (1013) while the others' messages go on."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator

import psycopg
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from sportmafia.live import get_hub
from sportmafia.live import subscriber as live_subscriber
from sportmafia.live.guard import JunkGuard, SocketLimits
from sportmafia.live.online import registry_of
from sportmafia.store import open_store, upgrade
from sportmafia.web import create_app, ensure_demo

from ..store.conftest import BACKENDS, _libpq_dsn, _require_pg, pg_url
from ..waiting import GUARD, wait_until
from .conftest import ADMIN_PASSWORD, Api
from .test_online import ORIGIN, dealt_game, hello, issue, open_table, recv, until


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """One logged-in app per module and backend (a login costs an argon2 hash): the limits are set per test."""
    yield from module_api(request, tmp_path_factory)


@pytest.fixture(scope="module")
def table(api: Api) -> tuple[str, str, str]:
    """A dealt game open online: its id, its table code and seat 1's link."""
    game_id, _game = dealt_game(api, seed=5)
    code = open_table(api, game_id)["code"]
    return game_id, code, issue(api, game_id, 1)


@pytest.fixture
def default_limits(api: Api) -> Iterator[None]:
    yield
    api.client.app.state.socket_limits = SocketLimits()  # type: ignore[attr-defined]


def module_api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """The body of a module-scoped ``api`` fixture parametrized with the backends (sqlite, postgresql)."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'store.db'}"
        else:
            _require_pg()
            schema = f"sm_test_{uuid.uuid4().hex[:12]}"
            dsn = _libpq_dsn(pg_url())
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{schema}"')

            def drop_schema() -> None:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            stack.callback(drop_schema)
            url = make_url(pg_url()).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
                hide_password=False)
        upgrade(url)
        store = open_store(url)
        stack.callback(store.close)
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        patch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
        setup = ensure_demo(store)
        assert setup.club_id is not None
        client = stack.enter_context(TestClient(create_app(store, secret_key="test-secret")))
        a = Api(client, store, setup.club_id)
        a.login()
        yield a


def _sockets(api: Api, table: tuple[str, str, str]) -> list[tuple[str, str, str | None]]:
    game_id, code, token = table
    return [("spectator", f"/ws/watch/{code}", None), ("player", "/ws/play", token),
            ("host", f"/ws/games/{game_id}?view=host", None), ("table view", f"/ws/games/{game_id}?view=table", None)]


def test_a_binary_frame_is_refused_and_the_socket_goes_on(api: Api, table: tuple[str, str, str],
                                                         caplog: pytest.LogCaptureFixture) -> None:
    game_id = table[0]
    with caplog.at_level(logging.WARNING):
        for kind, url, token in _sockets(api, table):
            with api.client.websocket_connect(url, headers=ORIGIN) as ws:
                if token is not None:
                    hello(ws, token)
                until(ws, "state")
                ws.send_bytes(b"\x00\xffjunk")
                error = until(ws, "error")
                assert error["error"]["code"] == "bad-message" and "binary" in error["error"]["en"], (kind, error)
                assert error["error"]["ru"]
                # the socket is still open and follows the game
                seq = api.get(f"/api/games/{game_id}").json()["next_seq"]
                r = api.command(game_id, {"type": "foul", "seat": 3}, seq, f"after-binary-{kind}")
                assert r.status_code == 200, r.text
                assert until(ws, "events")["events"], kind
    assert not [r for r in caplog.records if "KeyError" in r.getMessage() or r.exc_info], caplog.text
    # a binary frame is no hello either
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        ws.send_bytes(b"hello")
        assert recv(ws)["error"]["code"] == "invalid"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(ws)
        assert closed.value.code == 4422


@pytest.mark.usefixtures("default_limits")
def test_junk_past_the_limit_closes_the_socket(api: Api, table: tuple[str, str, str]) -> None:
    api.client.app.state.socket_limits = SocketLimits(junk_limit=20)  # type: ignore[attr-defined]
    for kind, url, token in _sockets(api, table):
        with api.client.websocket_connect(url, headers=ORIGIN) as ws:
            if token is not None:
                hello(ws, token)
            until(ws, "state")
            for i in range(21):
                ws.send_text("junk" if i % 2 else '{"type": "hello"}')
            errors = 0
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    if recv(ws)["type"] == "error":
                        errors += 1
            assert closed.value.code == 1008, kind
            assert errors == 20, kind  # each junk frame up to the limit was answered


@pytest.mark.usefixtures("default_limits")
@pytest.mark.parametrize("api", ["sqlite"], indirect=True)  # socket I/O only: the store is not involved
def test_ten_thousand_junk_frames_write_a_few_log_lines(api: Api, table: tuple[str, str, str], served: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    api.client.app.state.socket_limits = SocketLimits(junk_limit=20_000)  # type: ignore[attr-defined]
    code = table[1]
    with caplog.at_level(logging.INFO, logger="sportmafia.online"):
        with connect(f"ws://{served}/ws/watch/{code}", open_timeout=5) as ws:
            while json.loads(ws.recv(timeout=5))["type"] != "state":
                pass
            answered = 0

            def read() -> None:
                nonlocal answered
                while answered < 10_000:
                    if json.loads(ws.recv(timeout=10))["type"] == "error":
                        answered += 1
            reader = threading.Thread(target=read)
            reader.start()
            for i in range(10_000):
                ws.send(b"\x01" if i % 2 else "junk")
            reader.join(timeout=30)
            assert answered == 10_000  # every one refused, and the socket still open
        wait_until(lambda: any("more junk frames" in r.getMessage() for r in caplog.records),
                   "the summary of the junk frames in the log")
    lines = [r.getMessage() for r in caplog.records if r.name == "sportmafia.online"]
    assert len(lines) <= 3, lines
    assert any("9999 more junk frames from a spectator of game" in m for m in lines), lines


def test_junk_is_summed_up_once_per_window() -> None:
    now = [0.0]
    log = logging.getLogger("tests.junk")
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    handler = Keep()
    log.addHandler(handler)
    try:
        guard = JunkGuard(SocketLimits(junk_limit=1000, junk_window=60.0), log, "a spectator", clock=lambda: now[0])
        for minute in range(3):
            for _ in range(500):
                now[0] += 0.1
                guard.junk("not JSON")
            now[0] = 100.0 * (minute + 1)
        guard.flush()
    finally:
        log.removeHandler(handler)
    assert len(records) == 6, records  # per window: its first frame, then one line for the other 499
    assert records.count("refused a socket message from a spectator: not JSON") == 3, records
    assert records.count("499 more junk frames from a spectator in the last 60 s") == 3, records


# ------------------------------------------------------------------------------------------ a slow reader
@pytest.fixture
def served(api: Api) -> Iterator[str]:
    """The api's app served by a real uvicorn server too (on its own loop, in a thread): ``host:port``."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(api.client.app, lifespan="off", log_level="warning", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "uvicorn serving")
    assert thread.is_alive()
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _never_reads(where: str, path: str) -> socket.socket:
    """A socket client that opens ``path`` and then reads nothing (a tiny receive buffer, soon full)."""
    host, port = where.split(":")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: {where}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return s


@pytest.mark.parametrize("api", ["sqlite"], indirect=True)  # socket I/O only: the store is not involved
def test_a_client_that_does_not_read_is_dropped_and_the_others_go_on(api: Api, table: tuple[str, str, str],
                                                                     served: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 0.25)  # the keepalive period: a client that reads nothing for it goes
    game_id, code, _token = table
    hub = get_hub(api.client.app)
    before = registry_of(api.client.app).spectators(game_id)
    slow = _never_reads(served, f"/ws/watch/{code}")
    with connect(f"ws://{served}/ws/watch/{code}", open_timeout=5) as reader:
        while json.loads(reader.recv(timeout=5))["type"] != "state":
            pass
        wait_until(lambda: registry_of(api.client.app).spectators(game_id) == before + 2, "both spectators in")
        # the host's timer, as fast as it can go (bursts of 20, with long keys): the slow client's buffers fill
        # up, it is dropped at a keepalive; the reader has every burst meanwhile, before the next is sent (were
        # it held up behind the slow client, its recv would never end)
        pad = "x" * 190
        bursts = [0]

        def burst() -> bool:
            for _ in range(20):
                bursts[0] += 1
                hub.set_timer(game_id, {"running": True, "left": 30.0, "total": 60, "key": f"{pad}{bursts[0]}"})
            while True:
                m = json.loads(reader.recv(timeout=GUARD))
                if m["type"] == "timer" and m["key"] == f"{pad}{bursts[0]}":
                    break
            return registry_of(api.client.app).spectators(game_id) == before + 1

        wait_until(burst, "the client that reads nothing dropped", every=0)
        # the reader is still served
        hub.set_timer(game_id, {"running": False, "left": 1.0, "total": 60, "key": "after"})
        while (m := json.loads(reader.recv(timeout=5)))["type"] != "timer":
            pass
        assert m["key"] == "after"
    slow.close()
