"""Redis going away in the middle of an evening, and coming back (docs/online.md, "The live layer": the
fallback): two real server processes (``python -m sportmafia.cli serve``) on one PostgreSQL schema, linked by a
private Redis (tests/faults.py) that the test kills and starts again. The host plays on process 1; a seat's
and a spectator's sockets are open on process 2.

- Redis killed: every move still reaches process 2's sockets within about 2 s (its hub reads the heads of the
  games it follows every second), and a seat's link revoked on process 1 closes its socket on process 2 as
  soon (4401 ``revoked``).
- Redis started again: both processes relink on their own, and moves arrive in milliseconds again.
- Nothing lost or duplicated: each socket's feed, put together from its messages, is exactly its viewer's feed
  of the final log."""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import threading
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.sync.client import ClientConnection, connect

from sportmafia.bots.random_play import random_command
from sportmafia.engine import feed_length, replay, visible_events
from tests.faults import SRC, PrivateRedis, require
from tests.store.conftest import database

from .test_server_crash import RARE, Server, _client

OUTAGE_LATENCY = 2.5
"""Seconds a move may take to reach a socket of another process while Redis is away (the fallback reads every
second; the rest is the machine's load)."""


class Reader:
    """One socket's messages, read in a thread, each with when it arrived; ``closed``: the close code."""

    def __init__(self, ws: ClientConnection, viewer: str | int) -> None:
        self.ws, self.viewer = ws, viewer
        self.messages: list[tuple[float, dict[str, Any]]] = []
        self.closed: int | None = None
        self.closed_at = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with contextlib.suppress(Exception):  # the close code says how it ended
            for text in self.ws:
                self.messages.append((time.monotonic(), json.loads(text)))
        self.closed_at = time.monotonic()
        self.closed = self.ws.close_code if self.ws.close_code is not None else -1

    def cursor(self) -> int:
        """The feed's length the client holds (the last ``state`` or ``events`` message's next seq)."""
        feed = [m for _, m in self.messages if m["type"] in ("state", "events")]
        return int(feed[-1]["next_seq"]) if feed else 0

    def reached(self, cursor: int, timeout: float) -> float:
        """When the client got ``cursor``; fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, m in list(self.messages):
                if m["type"] in ("state", "events") and m["next_seq"] >= cursor:
                    return at
            time.sleep(0.005)
        raise AssertionError(f"the socket of {self.viewer} did not reach {cursor} within {timeout} s "
                             f"(at {self.cursor()})")

    def feed(self) -> list[Any]:
        """The events it was sent, in order, put together from its messages."""
        out: list[Any] = []
        for _, m in self.messages:
            if m["type"] in ("state", "events"):
                assert m.get("since", len(out)) == len(out), (self.viewer, m.get("since"), len(out))
                out += m["events"]
        return out


def _play(host: httpx.Client, game_id: str, rng: random.Random, readers: list[Reader], timeout: float) -> list[float]:
    """One host's command on process 1; returns how long each reader whose feed it moved took to get it."""
    game = replay(host.get(f"/api/games/{game_id}/record").json())
    cmd = random_command(game, rng, RARE)
    r = host.post(f"/api/games/{game_id}/commands", json={
        "command": cmd.to_json(), "expected_seq": len(game.log), "command_id": str(uuid.uuid4())})
    assert r.status_code == 200, r.text
    answered = time.monotonic()
    after = replay(host.get(f"/api/games/{game_id}/record").json())
    waits = []
    for reader in readers:
        want = feed_length(after, reader.viewer)
        if want > feed_length(game, reader.viewer):
            waits.append(reader.reached(want, timeout) - answered)
    return waits


def _linked_again(server: Server, since: int, timeout: float = 15.0) -> None:
    log = server.data / f"server-{server.starts}.log"
    deadline = time.monotonic() + timeout
    while "the Redis link is back" not in log.read_text(errors="replace")[since:]:
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.05)


def _log_size(server: Server) -> int:
    return len((server.data / f"server-{server.starts}.log").read_text(errors="replace"))


def test_moves_and_revocations_reach_another_process_while_redis_is_away(tmp_path: Path) -> None:
    require(PrivateRedis.missing())
    redis = PrivateRedis()
    servers: list[Server] = []
    with database("postgresql", tmp_path) as url:  # the shared PostgreSQL; the test restarts only its Redis
        try:
            redis.start()
            env = {"SPORTMAFIA_REDIS_URL": redis.url, "PYTHONPATH": SRC}
            for name in ("one", "two"):
                (tmp_path / name).mkdir()
                servers.append(Server(tmp_path / name, url, env))
                servers[-1].start()
            one, two = servers
            _evening(one, two, redis)
        finally:
            for server in servers:
                server.stop()
            redis.close()


def _evening(one: Server, two: Server, redis: PrivateRedis) -> None:
    host = _client(one.url)
    roster = [p["id"] for p in host.get("/api/players").json()["players"]][:10]
    r = host.post("/api/games", json={"preset": "club", "players": 10, "roster": roster})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    code = host.post(f"/api/games/{game_id}/online").json()["code"]
    tokens = {link["seat"]: link["token"] for link in host.post(f"/api/games/{game_id}/online/links").json()["links"]}
    ws_url, origin = two.url.replace("http://", "ws://"), two.url
    with ExitStack() as sockets:
        readers = []
        for seat in (3, 5):
            ws = sockets.enter_context(connect(f"{ws_url}/ws/play", origin=origin, open_timeout=10))  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "token": tokens[seat], "since": 0}))
            readers.append(Reader(ws, seat))
        ws = sockets.enter_context(connect(f"{ws_url}/ws/watch/{code}", origin=origin, open_timeout=10))  # type: ignore[arg-type]
        readers.append(Reader(ws, "spectator"))
        _outage(host, game_id, readers, redis, (one, two))


def _outage(host: httpx.Client, game_id: str, readers: list[Reader], redis: PrivateRedis,
            servers: tuple[Server, Server]) -> None:
    seat3, seat5, spectator = readers
    one, two = servers
    for reader in readers:
        reader.reached(0, 10)
    rng = random.Random(21)
    for _ in range(3):  # Redis up
        _play(host, game_id, rng, readers, 5)

    redis.kill()
    away = []
    for _ in range(6):
        away += _play(host, game_id, rng, readers, OUTAGE_LATENCY)
    assert away and max(away) <= OUTAGE_LATENCY, away
    # a seat's link revoked on process 1: its socket on process 2 is told and closed as soon
    r = host.delete(f"/api/games/{game_id}/online/seats/5/link")
    assert r.status_code == 200 and r.json()["revoked"] >= 0, r.text
    revoked = time.monotonic()
    deadline = revoked + OUTAGE_LATENCY
    while seat5.closed is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seat5.closed == 4401, (seat5.closed, seat5.messages[-2:])
    assert seat5.messages[-1][1]["error"]["code"] == "revoked"
    readers.remove(seat5)
    for _ in range(2):
        _play(host, game_id, rng, readers, OUTAGE_LATENCY)

    sizes = [_log_size(one), _log_size(two)]
    redis.start()
    for server, size in zip((one, two), sizes, strict=True):
        _linked_again(server, size)
    back = []
    for _ in range(5):
        back += _play(host, game_id, rng, readers, 2)
    assert back and max(back) < 0.6 and statistics.median(back) < 0.25, back

    # nothing lost or duplicated in any socket's feed
    final = replay(host.get(f"/api/games/{game_id}/record").json())
    for reader in (seat3, spectator):
        assert reader.closed is None
        assert reader.feed() == visible_events(final, reader.viewer)
        assert reader.cursor() == feed_length(final, reader.viewer)
