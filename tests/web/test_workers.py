"""``sportmafia serve --workers 2`` on PostgreSQL and Redis: whichever worker answers, the user sees the same
thing. A session made on one is live on the other, with its CSRF token; a logout, a password change, a
disabling, or a change of the user's row committed through one worker holds for the very next request to the
other (the old code kept sessions 15 s and users for ever per process); a console's socket on one worker closes
at once when its session is revoked through the other (through Redis; the old code waited for its keepalive).
The health and readiness answers, and ``--workers 2`` refused on SQLite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from websockets.sync.client import connect

from tests.store.conftest import _libpq_dsn
from tests.waiting import GUARD, wait_until
from tests.web.workers import Workers, log_in, running_workers


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workers]:
    with running_workers(tmp_path_factory.mktemp("workers")) as srv:
        yield srv


def _pg(server: Workers, sql: str, *params: object) -> None:
    """A statement on the servers' schema from outside them (as an operator's)."""
    with psycopg.connect(_libpq_dsn(server.database_url), autocommit=True) as conn:
        conn.execute(sql, params)  # type: ignore[arg-type]


def test_health_and_readiness_on_each_worker(server: Workers) -> None:
    a, b = server.worker_pids()
    for pid in (a, b):
        c = server.client(pid)
        r = c.get("/healthz")
        assert (r.status_code, r.json()) == (200, {"ok": True})
        assert "set-cookie" not in r.headers
        r = c.get("/readyz")
        assert r.status_code == 200
        assert r.json() == {"ready": True, "checks": {"database": "ok", "migrations": "ok", "redis": "ok"}}
        assert c.head("/readyz").status_code == 200
        assert c.post("/readyz").status_code in (404, 405)  # only GET and HEAD are the checks
        assert server.pid_of_response(r) == pid
        c.close()


def test_a_session_is_the_same_on_every_worker(server: Workers) -> None:
    a, b = server.worker_pids()
    on_a = server.client(a)
    cookie, csrf = log_in(on_a)
    on_b = server.client(b, cookie=cookie)
    me = on_b.get("/api/me")
    assert me.status_code == 200 and me.json()["csrf_token"] == csrf  # the session made on a, live on b
    # the CSRF token of the session made on a is accepted on b, and a wrong one refused there
    on_b.headers["X-CSRF-Token"] = "wrong"
    assert on_b.put("/api/club/settings", json={"autostart_timer": True}).status_code == 403
    on_b.headers["X-CSRF-Token"] = csrf
    r = on_b.put("/api/club/settings", json={"autostart_timer": True})
    assert r.status_code == 200 and r.json()["autostart_timer"] is True
    assert on_a.get("/api/club/settings").json()["autostart_timer"] is True
    # a logout on a: the very next request on b is refused
    assert on_b.get("/api/me").status_code == 200
    assert on_a.post("/api/logout").status_code == 200
    assert on_b.get("/api/me").status_code == 401
    assert on_b.put("/api/club/settings", json={"autostart_timer": False}).status_code == 401
    on_a.close()
    on_b.close()


def test_password_change_disabling_and_the_users_row_hold_at_once_on_the_other_worker(server: Workers) -> None:
    a, b = server.worker_pids()
    admin = server.client(a)
    log_in(admin)
    r = admin.post("/api/users", json={"login": "host-w", "password": "host password 1", "role": "host"})
    assert r.status_code == 201, r.text
    host_id = r.json()["id"]
    # the host has a session on each worker
    host_a = server.client(a)
    log_in(host_a, "host-w", "host password 1")
    host_b = server.client(b)
    log_in(host_b, "host-w", "host password 1")
    assert host_b.get("/api/me").json()["user"]["role"] == "host"
    # his password changed through a: his session on b ends at once
    r = host_a.post("/api/me/password", json={"old": "host password 1", "new": "host password 2"})
    assert r.status_code == 200 and r.json()["revoked"] == 1
    assert host_b.get("/api/me").status_code == 401
    log_in(host_b, "host-w", "host password 2")
    # his user row changed by another process (an operator's role change): seen at once on both workers
    assert host_b.get("/api/me").json()["user"]["role"] == "host"
    _pg(server, "UPDATE users SET role = 'judge' WHERE id = %s", host_id)
    assert host_b.get("/api/me").json()["user"]["role"] == "judge"
    assert host_a.get("/api/me").json()["user"]["role"] == "judge"
    # linked to a roster player through a (the admin's route): b sees the link at once
    player = admin.get("/api/players").json()["players"][0]["id"]
    assert admin.put(f"/api/users/{host_id}/player", json={"player_id": player}).status_code == 200
    assert host_b.get("/api/me").json()["user"]["player_id"] == player
    # disabled through a: his next request on b is refused
    assert admin.post(f"/api/users/{host_id}/disable").status_code == 200
    assert host_b.get("/api/me").status_code == 401
    assert host_a.get("/api/me").status_code == 401
    for c in (admin, host_a, host_b):
        c.close()


def test_a_console_socket_closes_at_once_when_its_session_ends_on_the_other_worker(server: Workers) -> None:
    a, b = server.worker_pids()
    on_a = server.client(a)
    cookie, _csrf = log_in(on_a)
    roster = [p["id"] for p in on_a.get("/api/players").json()["players"]][:10]
    game = on_a.post("/api/games", json={"preset": "club", "players": 10, "roster": roster}).json()["id"]
    origin = {"Origin": server.url, "Cookie": cookie}

    def open_socket() -> object:
        return connect(f"{server.ws_url}/ws/games/{game}?view=host", additional_headers=origin, open_timeout=10)

    ws = server.on_worker(b, open_socket, lambda w: w.socket.getsockname()[1], lambda w: w.close())  # type: ignore[attr-defined]
    try:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"  # type: ignore[attr-defined]
        assert on_a.post("/api/logout").status_code == 200
        # the revocation reaches b through Redis: the socket's next message is the end (a tick of the host's
        # timer may come first). That it is Redis and not b's keepalive (20 s) that ends it is asserted without
        # a clock by test_observers and test_sessions, whose two app instances have their keepalive turned off.
        while True:
            message = json.loads(ws.recv(timeout=GUARD))  # type: ignore[attr-defined]
            if message["type"] == "error":
                break
            assert message["type"] == "timer", message
        assert message["error"]["code"] == "session-ended"
    finally:
        ws.close()  # type: ignore[attr-defined]
        on_a.close()


def test_several_workers_are_refused_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPORTMAFIA_")}
    env.update(SPORTMAFIA_DATA=str(tmp_path), PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    done = subprocess.run([sys.executable, "-m", "sportmafia.cli", "serve", "--port", "1", "--workers", "2"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--workers > 1 needs PostgreSQL" in done.stderr


def _cores_of(pid: int) -> set[frozenset[int]]:
    """The cores each thread of ``pid`` may run on (its threads' CPU masks, each once)."""
    return {frozenset(os.sched_getaffinity(int(t))) for t in os.listdir(f"/proc/{pid}/task")}


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="--pin-cores needs at least two cores to choose from")
def test_pinned_workers_each_on_a_core_of_its_own_and_a_replacement_on_the_freed_one(tmp_path: Path) -> None:
    with running_workers(tmp_path, pin_cores=True) as srv:
        a, b = srv.worker_pids()
        cores = {pid: _cores_of(pid) for pid in (a, b)}
        assert all(len(c) == 1 and len(next(iter(c))) == 1 for c in cores.values()), cores  # one core, every thread
        assert cores[a] != cores[b]
        srv.kill_worker(b)
        wait_until(lambda: b not in srv.worker_pids() and len(srv.worker_pids()) == 2,
                   "a worker in place of the killed one")
        [c] = [p for p in srv.wait_ready() if p != a]
        assert _cores_of(c) == cores[b]  # the killed worker's core, let go of at its death
        assert _cores_of(a) == cores[a]
        assert f"worker {c} on core" in srv.log.read_text()
