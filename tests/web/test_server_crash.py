"""The server killed with SIGKILL in the middle of a game, while commands are in flight, and started again on
the same data (a SQLite file, or a fresh PostgreSQL schema when PostgreSQL is reachable):

- every command whose 200 answer arrived is in the log exactly once, at the seq the answer gave;
- the command in flight when the server died is either wholly there or absent, and sending it again (same
  command id, same expected seq) applies it exactly once (``replayed`` says whether it had been written);
- the restarted server's record replays cleanly into the state it serves.

A real ``python -m sportmafia.cli serve`` process; the commands are chosen by ``sportmafia.bots.random_play``
from the legal ones and sent from a thread; the kill comes at a random moment. Three kills per backend."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg
import pytest
from sqlalchemy import select
from sqlalchemy.engine import make_url

from sportmafia.bots.random_play import random_command
from sportmafia.engine import replay, view
from sportmafia.store import GameEvent, open_store
from tests.store.conftest import _libpq_dsn, _require_pg, pg_url
from tests.waiting import GUARD, pause, wait_until
from tests.web.server_chance import decided

ADMIN_PASSWORD = "correct horse battery"
KILLS = 3
RARE = {"foul": 0.02, "undo": 0.04, "sanction": 0.0, "remove": 0.0, "award": 0.0, "team_defeat": 0.0,
        "override": 0.0, "protest": 0.0}
"""Fouls and undos now and then; never removals or judge decisions, which would end games too soon."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``sportmafia serve`` on a data folder (and a database URL); started, SIGKILLed, started again."""

    def __init__(self, data: Path, database_url: str | None, env: dict[str, str] | None = None) -> None:
        self.data = data
        self.database_url = database_url
        self.env = env or {}  # more of the process's environment (tests/faults.py: Redis, PYTHONPATH)
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.starts = 0

    def start(self) -> str:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SPORTMAFIA_")}
        env.update(SPORTMAFIA_DATA=str(self.data), SPORTMAFIA_ADMIN_PASSWORD=ADMIN_PASSWORD,
                   SPORTMAFIA_SECRET_KEY="crash-test-secret", PYTHONUNBUFFERED="1")
        if self.database_url:
            env["SPORTMAFIA_DATABASE_URL"] = self.database_url
        env.update(self.env)
        self.starts += 1
        log = (self.data / f"server-{self.starts}.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sportmafia.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            if self.proc is None or self.proc.poll() is not None:
                text = (self.data / f"server-{self.starts}.log").read_text(errors="replace")
                raise RuntimeError(f"the server did not start:\n{text}")
            try:
                return httpx.get(self.url + "/login", timeout=2).status_code == 200
            except httpx.TransportError:
                return False
        wait_until(answers, "the server answering", timeout=3 * GUARD, every=0.05)  # slow to start when loaded
        return self.url

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def _client(url: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=10)
    r = client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
    assert r.status_code == 200, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    return client


@dataclass
class Sent:
    game_id: str
    command: dict[str, Any]
    expected_seq: int
    command_id: str
    answer: dict[str, Any] | None = None


@dataclass
class Player:
    """Plays games through the API from a thread until the server goes away."""

    client: httpx.Client
    rng: random.Random
    game_id: str
    acknowledged: list[Sent] = field(default_factory=list)
    in_flight: Sent | None = None
    error: BaseException | None = None
    games: list[str] = field(default_factory=list)

    def new_game(self) -> None:
        roster = [p["id"] for p in self.client.get("/api/players").json()["players"]][:10]
        r = self.client.post("/api/games", json={"preset": "club", "players": 10, "roster": roster})
        assert r.status_code == 201, r.text
        self.game_id = r.json()["id"]
        self.games.append(self.game_id)

    def run(self) -> None:
        try:
            while True:
                record = self.client.get(f"/api/games/{self.game_id}/record").json()
                game = replay(record)
                if game.over:
                    self.new_game()
                    continue
                cmd = decided(game, random_command(game, self.rng, RARE), self.rng)  # its chance seeded too
                sent = Sent(self.game_id, cmd.to_json(), len(game.log), str(uuid.uuid4()))
                self.in_flight = sent
                r = self.client.post(f"/api/games/{self.game_id}/commands", json={
                    "command": sent.command, "expected_seq": sent.expected_seq, "command_id": sent.command_id})
                assert r.status_code == 200, (sent, r.text)
                sent.answer = r.json()
                assert sent.answer["replayed"] is False
                self.acknowledged.append(sent)
                self.in_flight = None
        except (httpx.TransportError, ValueError) as exc:
            if not isinstance(exc, httpx.TransportError) and "JSON" not in str(exc):
                self.error = exc
        except BaseException as exc:  # an assertion: reported by the test
            self.error = exc


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, str | None, str]]:
    """The data folder, the database URL the server is given (None: SQLite in the folder) and the URL the
    test reads the database with."""
    if request.param == "sqlite":
        yield tmp_path, None, f"sqlite:///{tmp_path / 'sportmafia.db'}"
        return
    _require_pg()
    schema = f"sm_crash_{uuid.uuid4().hex[:12]}"
    dsn = _libpq_dsn(pg_url())
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(pg_url()).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False)
    try:
        yield tmp_path, url, url
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _rows_of(db_url: str, command_id: str) -> list[tuple[str, int, dict[str, Any]]]:
    store = open_store(db_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(GameEvent.game_id, GameEvent.seq, GameEvent.data)
                                .where(GameEvent.command_id == command_id)).all()
            return [(r[0], r[1], r[2]) for r in rows]
    finally:
        store.close()


def _check_replays(client: httpx.Client, game_id: str) -> None:
    record = client.get(f"/api/games/{game_id}/record").json()
    game = replay(record)  # raises if the stored log does not hang together
    state = client.get(f"/api/games/{game_id}").json()
    assert state["next_seq"] == len(game.log) == len(client.get(f"/api/games/{game_id}/events").json()["events"])
    assert state["view"] == view(game, "host")
    assert [c.to_json() for c in game.legal_commands()] == state["legal"]


def test_sigkill_mid_game(backend: tuple[Path, str | None, str]) -> None:
    data, server_db, db_url = backend
    server = Server(data, server_db)
    seed = os.environ.get("SPORTMAFIA_CRASH_SEED") or "20240917"
    print(f"\nSPORTMAFIA_CRASH_SEED={seed}")  # another seed plays other games and kills at other moments
    rng = random.Random(seed)
    in_flight_seen = written = 0
    try:
        client = _client(server.start())
        player = Player(client, random.Random(rng.randrange(1 << 32)), "")  # its own generator: its thread
        player.new_game()
        for kill in range(KILLS):
            player.acknowledged.clear()
            player.in_flight = None
            answered = rng.randint(3, 30)  # some commands answered, then the kill while one is on its way
            thread = threading.Thread(target=player.run, daemon=True)
            thread.start()
            wait_until(lambda: len(player.acknowledged) >= answered or player.error is not None,  # noqa: B023
                       f"{answered} commands answered")
            wait_until(lambda: player.in_flight is not None or player.error is not None, "a command in flight")
            pause(rng.uniform(0, 0.02))  # a seeded moment in the request: before, during or after the commit
            server.kill()
            thread.join(timeout=30)
            assert not thread.is_alive()
            assert player.error is None, repr(player.error)
            assert player.acknowledged, f"kill {kill}: no command was answered before the kill"
            client.close()

            client = _client(server.start())
            player.client = client
            # every answered command: once in the log, at the seq its answer gave, and a retry is a replay
            records = {g: client.get(f"/api/games/{g}/record").json() for g in player.games}
            for sent in player.acknowledged:
                rows = _rows_of(db_url, sent.command_id)
                assert sent.answer is not None
                # (an "undone" event's own "seq" field, the action it undoes, hides its position in the
                # answer's numbering: the first seq is counted back from next_seq)
                first = sent.answer["next_seq"] - len(sent.answer["events"])
                assert first == sent.expected_seq
                assert [(g, s) for g, s, _ in rows] == [(sent.game_id, first)], sent
                assert rows[0][2] == records[sent.game_id]["events"][first]
                assert rows[0][2]["type"] == sent.answer["events"][0]["type"]
            last = player.acknowledged[-1]
            r = client.post(f"/api/games/{last.game_id}/commands", json={
                "command": last.command, "expected_seq": last.expected_seq, "command_id": last.command_id})
            assert r.status_code == 200 and r.json()["replayed"] is True
            assert last.answer is not None and r.json()["events"] == last.answer["events"]
            # the command in flight: all there or absent; sent again it is applied exactly once
            sent_again = player.in_flight
            if sent_again is not None:
                in_flight_seen += 1
                before = _rows_of(db_url, sent_again.command_id)
                assert len(before) <= 1
                record = client.get(f"/api/games/{sent_again.game_id}/record").json()
                events_before = len(record["events"]) if "events" in record else None
                r = client.post(f"/api/games/{sent_again.game_id}/commands", json={
                    "command": sent_again.command, "expected_seq": sent_again.expected_seq,
                    "command_id": sent_again.command_id})
                assert r.status_code == 200, r.text
                assert r.json()["replayed"] is bool(before)
                written += bool(before)
                after = _rows_of(db_url, sent_again.command_id)
                assert len(after) == 1 and after[0][1] == sent_again.expected_seq
                if before:
                    assert after == before
                    if events_before is not None:
                        assert len(client.get(f"/api/games/{sent_again.game_id}/record").json()["events"]) \
                            == events_before
            for game_id in player.games:
                _check_replays(client, game_id)
        print(f"\n{KILLS} kills; a command in flight at {in_flight_seen} of them ({written} written before the "
              f"kill); {len(player.games)} game(s)")
    finally:
        server.stop()
