"""PostgreSQL crashing in the middle of an evening, and coming back (docs/store.md, "When the database goes
away"): a real server process (``python -m sportmafia.cli serve``) on a private PostgreSQL cluster
(tests/faults.py), which the test stops with ``-m immediate`` (its processes quit at once, as in a crash) while
two hosts' commands are in flight, and starts again.

- Meanwhile every request gets 503 ``database-unavailable`` with ``Retry-After`` and a message in both
  languages, never a 500; a spectator's socket stays open.
- The same server process recovers by itself once the database is back (no restart of the server).
- Every command answered 200 is in the log exactly once; a command whose answer was a 503 is sent again with
  the same command id and applied exactly once (``replayed`` says whether the first attempt had been written);
  every game's log replays cleanly (the engine's ``replay``) into what the server shows; the spectator's feed
  has every event once."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg
from websockets.sync.client import connect

from sportmafia.bots.random_play import random_command
from sportmafia.engine import feed_length, replay, visible_events
from tests.faults import SRC, PrivatePostgres, require
from tests.waiting import wait_until

from .server_chance import decided
from .test_server_crash import RARE, Server, _check_replays, _client


@dataclass
class Host:
    """Plays one game through the API from a thread; a 503 is waited out and the same command sent again."""

    client: httpx.Client
    game_id: str
    rng: random.Random
    acknowledged: list[str] = field(default_factory=list)  # command ids answered 200 at the first attempt
    retried: dict[str, bool] = field(default_factory=dict)  # command id -> replayed (written by the attempt that failed)
    unavailable: list[httpx.Response] = field(default_factory=list)
    statuses: set[int] = field(default_factory=set)
    stop: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def answered(self, send: Any) -> httpx.Response | None:
        """``send()``'s answer, or None for a 503 (kept: the database is away; the caller tries again)."""
        r: httpx.Response = send()
        self.statuses.add(r.status_code)
        if r.status_code == 503:
            self.unavailable.append(r)
            return None
        return r

    def get(self, path: str) -> Any:
        r = wait_until(lambda: self.answered(lambda: self.client.get(path)), "the database back", every=0.1)
        assert r.status_code == 200, r.text
        return r.json()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                game = replay(self.get(f"/api/games/{self.game_id}/record"))
                if game.over:
                    return
                command = decided(game, random_command(game, self.rng, RARE), self.rng)  # its chance seeded too
                body = {"command": command.to_json(), "expected_seq": len(game.log), "command_id": str(uuid.uuid4())}
                refused = len(self.unavailable)
                r = wait_until(lambda: self.answered(
                    lambda: self.client.post(f"/api/games/{self.game_id}/commands", json=body)),  # noqa: B023
                    "the database back", every=0.1)
                failed = len(self.unavailable) > refused
                assert r.status_code == 200, r.text
                if failed:
                    self.retried[body["command_id"]] = r.json()["replayed"]
                else:
                    assert r.json()["replayed"] is False
                    self.acknowledged.append(body["command_id"])
        except BaseException as exc:
            self.error = exc


def test_commands_are_refused_meanwhile_and_applied_once_after_postgresql_restarts(tmp_path: Path) -> None:
    require(PrivatePostgres.missing())
    pg = PrivatePostgres()
    server = Server(tmp_path, pg.url, {"PYTHONPATH": SRC})
    try:
        pg.init()
        pg.start()
        server.start()
        _evening(server, pg)
    finally:
        server.stop()
        pg.close()


def _evening(server: Server, pg: PrivatePostgres) -> None:
    admin = _client(server.url)
    roster = [p["id"] for p in admin.get("/api/players").json()["players"]][:10]
    hosts = []
    for i in range(2):
        r = admin.post("/api/games", json={"preset": "club", "players": 10, "roster": roster})
        assert r.status_code == 201, r.text
        hosts.append(Host(_client(server.url), r.json()["id"], random.Random(i)))
    code = admin.post(f"/api/games/{hosts[0].game_id}/online").json()["code"]
    messages: list[dict[str, Any]] = []
    ws_url = server.url.replace("http://", "ws://")
    with connect(f"{ws_url}/ws/watch/{code}", origin=server.url, open_timeout=10) as ws:  # type: ignore[arg-type]
        def read() -> None:
            with contextlib.suppress(Exception):
                for text in ws:
                    messages.append(json.loads(text))
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        threads = [threading.Thread(target=host.run, daemon=True) for host in hosts]
        for thread in threads:
            thread.start()
        wait_until(lambda: all(len(h.acknowledged) >= 5 or h.error for h in hosts), "both games under way")
        before = [len(h.acknowledged) for h in hosts]
        pg.stop("immediate")  # a crash of the database, commands in flight
        # down until every host has been refused (each then tries again until the database is back)
        wait_until(lambda: all(h.unavailable or h.error for h in hosts), "every host refused while it is down")
        # meanwhile: 503 database-unavailable, with Retry-After and a reason in both languages
        r = admin.get(f"/api/games/{hosts[0].game_id}")
        assert r.status_code == 503, r.text
        assert int(r.headers["Retry-After"]) > 0
        error = r.json()["error"]
        assert error["code"] == "database-unavailable" and error["en"] and error["ru"] != error["en"]
        assert all(h.unavailable for h in hosts), "every host was refused while the database was down"
        pg.start()
        wait_until(lambda: not any(len(h.acknowledged) < b + 3 and h.error is None
                                   for h, b in zip(hosts, before, strict=True)), "the server recovered by itself")
        for host in hosts:
            host.stop.set()
        for thread in threads:
            thread.join(20)
        for host in hosts:
            assert host.error is None, host.error
            assert host.statuses <= {200, 503}, host.statuses
            assert all(r.json()["error"]["code"] == "database-unavailable" and "Retry-After" in r.headers
                       for r in host.unavailable)
        final = replay(admin.get(f"/api/games/{hosts[0].game_id}/record").json())
        wait_until(lambda: ws.close_code is not None or any(
            m["type"] in ("state", "events") and m["next_seq"] == feed_length(final, "spectator")
            for m in list(messages)), "the spectator's feed to the end")
        assert ws.close_code is None, "the spectator's socket stayed open through the outage"
    feed = [e for m in messages if m["type"] in ("state", "events") for e in m["events"]]
    assert feed == visible_events(final, "spectator")
    _check_the_log(pg, hosts)
    for host in hosts:
        _check_replays(admin, host.game_id)
    log = (server.data / "server-1.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]


def _check_the_log(pg: PrivatePostgres, hosts: list[Host]) -> None:
    """Every acknowledged or retried command is in the log exactly once; no event without its game's head."""
    with psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=postgres") as conn:
        for host in hosts:
            ids = [*host.acknowledged, *host.retried]
            assert host.acknowledged
            counts = dict(conn.execute(
                "SELECT command_id, count(*) FROM game_events WHERE game_id = %s AND command_id = ANY(%s) "
                "GROUP BY command_id", (host.game_id, ids)).fetchall())
            assert counts == dict.fromkeys(ids, 1), (counts, ids)
            row = conn.execute("SELECT g.next_seq, count(e.seq), coalesce(max(e.seq) + 1, 0) FROM games g "
                               "LEFT JOIN game_events e ON e.game_id = g.id WHERE g.id = %s GROUP BY g.next_seq",
                               (host.game_id,)).fetchone()
            assert row is not None and row[0] == row[1] == row[2], row
