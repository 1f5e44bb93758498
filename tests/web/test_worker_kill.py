"""One worker of ``sportmafia serve --workers 2`` (PostgreSQL + Redis) killed with SIGKILL in the middle of an
online game: its players' and spectators' sockets open, the host's timer running, a join request pending, and a
host's command in flight (held on the game's row by a lock taken from outside, so that it is surely under way
when the worker dies).

- every socket, on the killed worker or on the other, reconnects to the same port (the surviving worker, or the
  one uvicorn starts in its place) with its cursor and ends with its own feed exactly: every event once, in
  order, no gap, nothing its viewer may not see;
- the command in flight, sent again with its command id and expected seq, is applied once (``replayed``: false,
  then true);
- the timer comes to the sockets that reconnect, the pending join request is approved and claimed through
  the other workers, and a seat's link revoked through one worker closes its socket on the other at once."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from sportmafia.bots.random_play import random_command
from sportmafia.engine import Game, replay, visible_events
from tests.store.conftest import _libpq_dsn
from tests.waiting import wait_until
from tests.web.server_chance import decided
from tests.web.workers import Workers, log_in, running_workers

RARE = {"foul": 0.02, "undo": 0.0, "sanction": 0.0, "remove": 0.0, "award": 0.0, "team_defeat": 0.0,
        "override": 0.0, "protest": 0.0}


@dataclass
class Feed:
    """A socket's client that keeps its viewer's feed and reconnects with its cursor whenever the socket drops."""

    server: Workers
    viewer: int | str
    token: str | None = None  # a seat's link; None: a spectator of ``code``
    code: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    cursor: int = 0
    game_key: str | None = None
    timers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (connection number, timer)
    connections: int = 0
    closed: tuple[int, str] | None = None  # the close that ended it (4401 revoked), if any
    problems: list[str] = field(default_factory=list)
    ws: ClientConnection | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def open(self) -> ClientConnection:
        if self.token is not None:
            ws = connect(f"{self.server.ws_url}/ws/play", open_timeout=10)
            ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.cursor}))
            return ws
        query = f"?since={self.cursor}" + (f"&game={self.game_key}" if self.game_key else "")
        return connect(f"{self.server.ws_url}/ws/watch/{self.code}{query}", open_timeout=10)

    def start(self, pid: int | None) -> None:
        if pid is not None:
            self.ws = self.server.on_worker(pid, self.open, lambda w: w.socket.getsockname()[1], lambda w: w.close())
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def worker(self) -> int | None:
        ws = self.ws
        return None if ws is None else self.server.pid_of_port(ws.socket.getsockname()[1])

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                if self.ws is None:
                    self.ws = self.open()
                self.connections += 1
                self.read(self.ws)
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == 4401:
                    self.closed = (exc.rcvd.code, exc.rcvd.reason)
                    return
            except OSError:  # the port answers again once a worker takes the connection
                self.ws = wait_until(self._reopen, f"the socket of {self.viewer} open again")
                continue
            self.ws = None

    def _reopen(self) -> ClientConnection | None:
        try:
            return self.open()
        except OSError:
            return None

    def read(self, ws: ClientConnection) -> None:
        while not self.stop.is_set():
            try:
                message = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            kind = message.get("type")
            if kind == "table":
                if message["game"] != self.game_key and self.game_key is not None:
                    self.problems.append(f"the code moved to another game: {message}")
                self.game_key = message["game"]
            elif kind in ("state", "events"):
                if message["since"] != self.cursor:
                    self.problems.append(f"{kind} since {message['since']} but the cursor is {self.cursor}")
                seqs = [e["seq"] for e in message["events"]]
                if seqs != list(range(self.cursor, self.cursor + len(seqs))):
                    self.problems.append(f"{kind} events {seqs} after {self.cursor}")
                self.events.extend(message["events"])
                self.cursor = message["next_seq"]
            elif kind == "timer":
                self.timers.append((self.connections, message))
            elif kind == "error":
                self.problems.append(f"error {message}") if message["error"]["code"] != "revoked" else None

    def finish(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
        if self.ws is not None:
            self.ws.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Workers]:
    with running_workers(tmp_path) as srv:
        yield srv


def _record(host: httpx.Client, game_id: str) -> Game:
    return replay(host.get(f"/api/games/{game_id}/record").json())


def _command(host: httpx.Client, game_id: str, rng: random.Random) -> dict[str, Any]:
    game = _record(host, game_id)
    return {"command": decided(game, random_command(game, rng, RARE), rng).to_json(),
            "expected_seq": len(game.log), "command_id": str(uuid.uuid4())}


def _play(host: httpx.Client, game_id: str, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        r = host.post(f"/api/games/{game_id}/commands", json=_command(host, game_id, rng))
        assert r.status_code == 200, r.text


def test_a_worker_killed_mid_evening(server: Workers) -> None:
    rng = random.Random(21)
    a, b = server.worker_pids()  # a is killed
    host = server.client(a)
    cookie, csrf = log_in(host)
    roster = [p["id"] for p in host.get("/api/players").json()["players"]][:10]
    game_id = host.post("/api/games", json={"preset": "club", "players": 10, "roster": roster}).json()["id"]
    code = host.post(f"/api/games/{game_id}/online").json()["code"]
    links = host.post(f"/api/games/{game_id}/online/links", json={"seats": list(range(1, 10))}).json()["links"]
    tokens = {link["seat"]: link["token"] for link in links}
    _play(host, game_id, rng, 6)

    # seats 1-9 and two spectators, on both workers; the host's console on a sets the timer
    feeds = [Feed(server, seat, token=tokens[seat]) for seat in range(1, 10)]
    feeds += [Feed(server, "spectator", code=code), Feed(server, "spectator", code=code)]
    for n, feed in enumerate(feeds):
        feed.start(a if n % 2 == 0 else b)
    console = server.on_worker(a, lambda: connect(f"{server.ws_url}/ws/games/{game_id}?view=host", open_timeout=10,
                                                  additional_headers={"Origin": server.url, "Cookie": cookie}),
                               lambda w: w.socket.getsockname()[1], lambda w: w.close())
    console.send(json.dumps({"type": "timer", "running": True, "left": 55, "total": 60, "key": "speech-1"}))
    wait_until(lambda: all(f.timers for f in feeds), "the timer on every socket")
    timer = feeds[1].timers[-1][1]
    _play(host, game_id, rng, 6)
    # a join request for seat 10, pending
    guest = httpx.Client(base_url=server.url, timeout=10)
    asked = guest.post(f"/api/join/{code}", json={"seat": 10, "name": "Guest"})
    assert asked.status_code == 200, asked.text
    secret = asked.json()["secret"]

    # the host's next command held on the game's row, then its worker killed while it waits
    sent = _command(host, game_id, rng)
    answers: list[Any] = []
    with psycopg.connect(_libpq_dsn(server.database_url)) as lock:
        lock.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (game_id,))
        flight = threading.Thread(target=lambda: answers.append(_post(host, game_id, sent)))
        flight.start()
        wait_until(lambda: _waiting(server, lock), "the command waiting on the row")
        on_a = [f for f in feeds if f.worker() == a]
        assert on_a, "no socket was on the killed worker"
        server.kill_worker(a)
        flight.join(timeout=10)
        lock.rollback()
    assert isinstance(answers[0], httpx.TransportError)  # the answer never came

    # the same command again, through whichever worker answers: applied once
    retry = server.client(b, cookie=cookie, csrf=csrf)
    head = len(_record(retry, game_id).log)
    assert head == sent["expected_seq"]  # the killed worker wrote nothing
    first = retry.post(f"/api/games/{game_id}/commands", json=sent)
    assert first.status_code == 200 and first.json()["replayed"] is False, first.text
    again = retry.post(f"/api/games/{game_id}/commands", json=sent)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert len(_record(retry, game_id).log) == first.json()["next_seq"]

    # uvicorn starts a worker in place of the killed one; every socket of a has reconnected
    workers = server.wait_ready()
    assert a not in workers and b in workers and len(workers) == 2
    wait_until(lambda: all(f.connections >= 2 and f.worker() for f in on_a), "the sockets of the killed worker back")
    for f in on_a:  # the timer comes again on the new connection, as it was set
        assert any(n >= 2 and t["at"] == timer["at"] and t["left"] == 55 and t["key"] == "speech-1"
                   for n, t in f.timers), f.timers

    # the join request made before the kill: pending on the other workers, approved, claimed
    table = retry.get(f"/api/games/{game_id}/online").json()
    pending = [r for r in table["requests"] if r["seat"] == 10]
    assert len(pending) == 1
    assert retry.post(f"/api/games/{game_id}/online/requests/{pending[0]['id']}",
                      json={"approve": True}).status_code == 200
    claimed = guest.post("/api/join/claim", headers={"X-Join-Secret": secret}).json()
    seat10 = Feed(server, 10, token=claimed["token"])
    seat10.start(None)
    feeds.append(seat10)

    # a seat's link revoked through one worker: its socket on the other closes at once
    victim = feeds[0]
    at = victim.worker()
    assert at is not None
    other = next(p for p in workers if p != at)
    revoker = server.client(other, cookie=cookie, csrf=csrf)
    assert revoker.delete(f"/api/games/{game_id}/online/seats/1/link").status_code == 200
    wait_until(lambda: victim.closed is not None, "the revoked seat's socket closed")
    assert victim.closed is not None and victim.closed[0] == 4401

    _play(retry, game_id, rng, 8)
    final = _record(retry, game_id)
    for f in feeds:
        if f is victim:
            continue
        wait_until(lambda f=f: f.cursor >= len(visible_events(final, f.viewer, 0)), f"the feed of {f.viewer}")
    console.close()
    for f in feeds:
        f.finish()
    for f in feeds:
        expected = visible_events(final, f.viewer, 0)
        assert not f.problems, (f.viewer, f.problems)
        if f is victim:
            assert f.events == expected[:len(f.events)]
        else:
            assert f.events == expected, f.viewer
    for c in (host, retry, revoker, guest):
        c.close()


def _post(client: httpx.Client, game_id: str, body: dict[str, Any]) -> Any:
    try:
        return client.post(f"/api/games/{game_id}/commands", json=body)
    except httpx.TransportError as exc:
        return exc


def _waiting(server: Workers, lock: psycopg.Connection[Any]) -> bool:
    """Whether another connection waits for a lock (the command's append, on the game's row)."""
    with psycopg.connect(_libpq_dsn(server.database_url), autocommit=True) as probe:
        row = probe.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                            (lock.info.backend_pid,)).fetchone()
    return bool(row and row[0] > 0)
