"""Redis going away in the middle of an evening, and coming back (docs/online.md, "The live layer": the
fallback): two real server processes (``python -m sportmafia.cli serve``) on one PostgreSQL schema, linked by a
private Redis (tests/faults.py) that the test kills and starts again. The host plays on process 1; a seat's
and a spectator's sockets are open on process 2.

- Redis killed: both processes say they read the log meanwhile, every move still reaches process 2's sockets
  (its hub reads the heads of the games it follows every second), and a seat's link revoked on process 1
  closes its socket on process 2 (4401 ``revoked``).
- Redis started again: both processes relink on their own, and moves arrive again. (How fast a move comes,
  with Redis and without, is measured in bench/, not here.)
- Nothing lost or duplicated: each socket's feed, put together from its messages, is exactly its viewer's feed
  of the final log."""

from __future__ import annotations

import contextlib
import json
import random
import threading
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
from tests.waiting import wait_until

from .server_chance import decided
from .test_server_crash import RARE, Server, _client


class Reader:
    """One socket's messages, read in a thread; ``closed``: the close code."""

    def __init__(self, ws: ClientConnection, viewer: str | int) -> None:
        self.ws, self.viewer = ws, viewer
        self.messages: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with contextlib.suppress(Exception):  # the close code says how it ended
            for text in self.ws:
                self.messages.append(json.loads(text))
        self.closed = self.ws.close_code if self.ws.close_code is not None else -1

    def cursor(self) -> int:
        """The feed's length the client holds (the last ``state`` or ``events`` message's next seq)."""
        feed = [m for m in list(self.messages) if m["type"] in ("state", "events")]
        return int(feed[-1]["next_seq"]) if feed else 0

    def reached(self, cursor: int) -> None:
        """Until the client has ``cursor``."""
        wait_until(lambda: self.cursor() >= cursor, f"the socket of {self.viewer} at {cursor}")

    def feed(self) -> list[Any]:
        """The events it was sent, in order, put together from its messages."""
        out: list[Any] = []
        for m in self.messages:
            if m["type"] in ("state", "events"):
                assert m.get("since", len(out)) == len(out), (self.viewer, m.get("since"), len(out))
                out += m["events"]
        return out


def _play(host: httpx.Client, game_id: str, rng: random.Random, readers: list[Reader]) -> int:
    """One host's command on process 1, then until every reader whose feed it moved has it; how many it moved."""
    game = replay(host.get(f"/api/games/{game_id}/record").json())
    cmd = decided(game, random_command(game, rng, RARE), rng)  # its chance seeded too
    r = host.post(f"/api/games/{game_id}/commands", json={
        "command": cmd.to_json(), "expected_seq": len(game.log), "command_id": str(uuid.uuid4())})
    assert r.status_code == 200, r.text
    after = replay(host.get(f"/api/games/{game_id}/record").json())
    moved = 0
    for reader in readers:
        want = feed_length(after, reader.viewer)
        if want > feed_length(game, reader.viewer):
            reader.reached(want)
            moved += 1
    return moved


def _said(server: Server, since: int, words: str) -> None:
    """Until the server's log says ``words`` after its first ``since`` characters."""
    log = server.data / f"server-{server.starts}.log"
    wait_until(lambda: words in log.read_text(errors="replace")[since:], f"{words!r} in {log}")


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
        reader.reached(0)
    rng = random.Random(21)
    for _ in range(3):  # Redis up
        _play(host, game_id, rng, readers)

    sizes = [_log_size(one), _log_size(two)]
    redis.kill()
    for server, size in zip((one, two), sizes, strict=True):  # both read the log meanwhile
        _said(server, size, "the Redis link is lost")
    away = sum(_play(host, game_id, rng, readers) for _ in range(6))
    assert away > 0  # moves reached the other process's sockets without Redis
    # a seat's link revoked on process 1: its socket on process 2 is told and closed
    r = host.delete(f"/api/games/{game_id}/online/seats/5/link")
    assert r.status_code == 200 and r.json()["revoked"] >= 0, r.text
    wait_until(lambda: seat5.closed is not None, "the revoked seat's socket closed")
    assert seat5.closed == 4401, (seat5.closed, seat5.messages[-2:])
    assert seat5.messages[-1]["error"]["code"] == "revoked"
    readers.remove(seat5)
    for _ in range(2):
        _play(host, game_id, rng, readers)

    sizes = [_log_size(one), _log_size(two)]
    redis.start()
    for server, size in zip((one, two), sizes, strict=True):
        _said(server, size, "the Redis link is back")
    back = sum(_play(host, game_id, rng, readers) for _ in range(5))
    assert back > 0

    # nothing lost or duplicated in any socket's feed
    final = replay(host.get(f"/api/games/{game_id}/record").json())
    for reader in (seat3, spectator):
        assert reader.closed is None
        assert reader.feed() == visible_events(final, reader.viewer)
        assert reader.cursor() == feed_length(final, reader.viewer)
