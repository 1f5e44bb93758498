"""Console benchmark: many tables played at once through the HTTP API of a real server, each followed by a
table-view WebSocket.

Starts ``python -m sportmafia.cli serve`` on 127.0.0.1 (SQLite in a temporary $SPORTMAFIA_DATA, a known admin
password), logs in, creates ``--tables`` games and opens ``/ws/games/{id}?view=table`` on each. Every table's
host then acts once a second (a random legal command, picked by ``sportmafia.bots.random_play`` over the
``legal`` list of ``GET /api/games/{id}``), and back to back while a vote is open (the bursts of a vote's
hands). A table whose game ends starts a new one. For ``--seconds`` it measures:

- ``action``: ``POST /api/games/{id}/commands``, from the request to its answer;
- ``ws``: from sending that request to the moment the table view's socket gets a message with the new
  ``next_seq`` (the table view is numbered in the spectator's own feed, found on a mirror folded from the
  answers' events; a move hidden from it, a night shot or a check, sends it nothing and is not waited for).

Prints one JSON line:
{"bench": "console", "tables": 50, "action_p50_ms": .., "action_p99_ms": .., "ws_p99_ms": .., "actions": N, "seconds": S}
Target: both p99 under 50 ms. Run: ``make bench`` or ``python bench/console.py [--tables 50] [--seconds 30]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

from sportmafia.bots.random_play import random_command
from sportmafia.engine import Game, command_from_json, event_from_json, feed_length
from sportmafia.rules import get_ruleset

ADMIN_PASSWORD = "bench admin password"
BURST_STEPS = {"voting", "lift"}
CHANCE = {"deal", "draw_first_speaker", "draw_lot"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server that ``start_server`` started (SIGTERM, then SIGKILL after 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def start_server(data: Path, port: int, database_url: str | None = None, redis_url: str | None = None,
                 log_name: str = "server.log", pin_cores: bool = False) -> subprocess.Popen[bytes]:
    """``sportmafia serve`` on 127.0.0.1:``port`` with its data in ``data`` (SQLite there, unless
    ``database_url`` names another database; ``redis_url``: the live hub's link to the other processes;
    ``pin_cores``: ``--pin-cores``, the slots of the cores in ``data``, shared by the servers started there);
    returns once it answers."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPORTMAFIA_")}
    env.update(SPORTMAFIA_DATA=str(data), SPORTMAFIA_ADMIN_PASSWORD=ADMIN_PASSWORD,
               SPORTMAFIA_SECRET_KEY="bench-secret", PYTHONUNBUFFERED="1")
    if database_url:
        env["SPORTMAFIA_DATABASE_URL"] = database_url
    if redis_url:
        env["SPORTMAFIA_REDIS_URL"] = redis_url
    if pin_cores:
        env["SPORTMAFIA_CORES_DIR"] = str(data / "cores")
    log = (data / log_name).open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "sportmafia.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             *(["--pin-cores"] if pin_cores else [])],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start:\n" + (data / log_name).read_text(errors="replace"))
        time.sleep(0.1)


class _Legal:
    """What ``random_command`` needs of a game: its legal commands (here from the API's ``legal`` list)."""

    def __init__(self, legal: list[dict[str, Any]]) -> None:
        self._commands = [command_from_json(c) for c in legal]

    def legal_commands(self) -> list[Any]:
        return self._commands


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    cmd = random_command(_Legal(legal), rng)  # type: ignore[arg-type]
    if cmd.type in CHANCE:
        return {"type": cmd.type}  # drawn by the server
    out: dict[str, Any] = cmd.to_json()
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _event(item: dict[str, Any]) -> Any:
    """An event of a host's numbered list (``{"seq", **event}``, an undone's ``undoes``) as the engine's."""
    data = {k: v for k, v in item.items() if k != "seq"}
    if "undoes" in data:
        data["seq"] = data.pop("undoes")
    return event_from_json(data)


class Table:
    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.rng = random.Random(index)
        self.game_id = ""
        self.seen = 0  # the highest next_seq its table view has got (a number of the spectator's feed)
        self.waiting: list[tuple[int, float]] = []  # (next_seq wanted, when the request was sent)
        self.mirror = Game(get_ruleset("club"), 10)  # the game as the answers' events fold: the table's numbers
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def new_game(self) -> None:
        b = self.bench
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        if self.ws is not None:
            await self.ws.close()
        r = await b.client.post("/api/games", json={"preset": "club", "players": 10, "roster": b.roster},
                                headers=b.csrf)
        r.raise_for_status()
        self.game_id = r.json()["id"]
        self.seen = 0
        self.mirror = Game(get_ruleset("club"), 10)
        self.waiting = []
        self.ws = await websockets.connect(f"{b.ws_base}/ws/games/{self.game_id}?view=table",
                                           additional_headers={"Cookie": b.cookie, "Origin": b.base},
                                           max_size=2**22)
        first = json.loads(await self.ws.recv())
        assert first["type"] == "state", first
        self.seen = first["next_seq"]
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            m = json.loads(raw)
            seq = m.get("next_seq")
            if m.get("type") not in ("state", "events") or not isinstance(seq, int):
                continue
            self.seen = max(self.seen, seq)
            still = []
            for want, sent in self.waiting:
                if want <= seq:
                    if self.bench.measuring:
                        self.bench.ws_ms.append((now - sent) * 1000)
                else:
                    still.append((want, sent))
            self.waiting = still

    async def run(self, until: float) -> None:
        b = self.bench
        await asyncio.sleep(self.rng.random())  # the tables do not act in lockstep
        next_at = time.perf_counter()
        while time.perf_counter() < until:
            r = await b.client.get(f"/api/games/{self.game_id}")
            r.raise_for_status()
            state = r.json()
            if state["view"]["over"]:
                await self.new_game()
                continue
            cmd = pick(state["legal"], self.rng)
            body = {"command": cmd, "expected_seq": state["next_seq"], "command_id": f"{self.game_id}-{state['next_seq']}"}
            sent = time.perf_counter()
            r = await b.client.post(f"/api/games/{self.game_id}/commands", json=body, headers=b.csrf)
            done = time.perf_counter()
            if r.status_code != 200:
                b.errors += 1
                if b.errors <= 5:
                    print(f"refused: {r.status_code} {r.text[:200]}", file=sys.stderr)
                continue
            before = feed_length(self.mirror, "spectator")
            self.mirror.fold_in(_event(e) for e in r.json()["events"])
            head = feed_length(self.mirror, "spectator")  # the table view is numbered in the spectator's feed
            if b.measuring:
                b.action_ms.append((done - sent) * 1000)
                b.actions += 1
            if head == before:
                pass  # hidden from the table (a night shot, a check): nothing is sent to it
            elif head > self.seen:
                self.waiting.append((head, sent))
            elif b.measuring:
                b.ws_ms.append((time.perf_counter() - sent) * 1000)  # the socket was faster than the answer
            if state["view"]["step"] in BURST_STEPS:
                continue  # a vote: the hands come one after another
            next_at = max(next_at + 1.0, time.perf_counter())
            await asyncio.sleep(next_at - time.perf_counter())


class Bench:
    def __init__(self, base: str) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.client = httpx.AsyncClient(base_url=base, timeout=30,
                                        limits=httpx.Limits(max_connections=200, max_keepalive_connections=200))
        self.csrf: dict[str, str] = {}
        self.cookie = ""
        self.roster: list[int] = []
        self.action_ms: list[float] = []
        self.ws_ms: list[float] = []
        self.actions = 0
        self.errors = 0
        self.measuring = False

    async def login(self) -> None:
        r = await self.client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
        r.raise_for_status()
        self.csrf = {"X-CSRF-Token": r.json()["csrf_token"]}
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.client.cookies.items())
        players = (await self.client.get("/api/players")).json()["players"]
        self.roster = [p["id"] for p in players[:10]]


async def main_async(base: str, tables: int, seconds: float, warmup: float) -> dict[str, Any]:
    bench = Bench(base)
    await bench.login()
    all_tables = [Table(bench, i) for i in range(tables)]
    for t in all_tables:
        await t.new_game()
    start = time.perf_counter()
    until = start + warmup + seconds
    runs = [asyncio.create_task(t.run(until)) for t in all_tables]
    await asyncio.sleep(warmup)
    bench.measuring = True
    measured_from = time.perf_counter()
    await asyncio.gather(*runs)
    await asyncio.sleep(0.5)  # the last sockets' messages
    elapsed = time.perf_counter() - measured_from
    for t in all_tables:
        if t.reader is not None:
            t.reader.cancel()
        await t.ws.close()
    await bench.client.aclose()
    lost = sum(len(t.waiting) for t in all_tables)
    return {"bench": "console", "tables": tables,
            "action_p50_ms": round(percentile(bench.action_ms, 0.50), 1),
            "action_p99_ms": round(percentile(bench.action_ms, 0.99), 1),
            "ws_p50_ms": round(percentile(bench.ws_ms, 0.50), 1),
            "ws_p99_ms": round(percentile(bench.ws_ms, 0.99), 1),
            "actions": bench.actions, "actions_per_s": round(bench.actions / elapsed, 1),
            "ws_missing": lost, "errors": bench.errors, "seconds": round(elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring")
    parser.add_argument("--url", help="a running server to use instead of starting one (logs in as admin "
                                      "with $SPORTMAFIA_ADMIN_PASSWORD)")
    args = parser.parse_args()
    if args.url:
        global ADMIN_PASSWORD
        ADMIN_PASSWORD = os.environ.get("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
        print(json.dumps(asyncio.run(main_async(args.url.rstrip("/"), args.tables, args.seconds, args.warmup))))
        return
    with tempfile.TemporaryDirectory(prefix="sportmafia-bench-") as tmp:
        port = free_port()
        proc = start_server(Path(tmp), port)
        try:
            result = asyncio.run(main_async(f"http://127.0.0.1:{port}", args.tables, args.seconds, args.warmup))
        finally:
            stop_server(proc)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
