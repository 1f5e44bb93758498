"""Online-play benchmark: many online tables on one server process, each with a host, a socket per seat and
five spectators' sockets, the load raised until the delay from an action to its arrival at every client
passes 100 ms (p99).

Starts ``python -m sportmafia.cli serve`` on 127.0.0.1 (one process, SQLite in a temporary $SPORTMAFIA_DATA).
Tables alternate between the ``club`` preset (10 seats) and the ``tournament`` preset with 14 seats: 12 seats
on average. Per table the host creates the game, opens it online (``POST /api/games/{id}/online``) and issues
every seat's link (``POST /api/games/{id}/online/links``, one request); each seat's client opens ``/ws/play``
with its token and five spectators open ``/ws/watch/{code}``. A table's next game takes the table's code, and
the spectators' sockets follow it (``--reconnect-spectators``: a new code and new spectators' sockets). Every table then plays a plausible game
(``sportmafia.bots.plausible``, the chance draws made here and sent as explicit outcomes): the host acts once a
second through ``POST /api/games/{id}/commands?state=true``, as the console does (each answer also carries the
state the console shows next; ``--host-plain``: without it); the players' own commands go on their own sockets, as their
pages send them (``--player-http``: by ``POST /api/play/commands`` with their token), and a vote's hands all
at once (a burst: every voter of the candidate sends at the same moment).

A sample is one action: from sending it (a request, or a message on the player's socket) to the moment the
LAST of the table's clients (seats and spectators) that the action is visible to got a message whose ``next_seq``
covers it (each client's ``next_seq`` numbers its own viewer's feed: the target is the client's feed length on the
bench's mirror of the game after the action; a vote of a burst takes the mirror's order of the burst; an action
hidden from every client, a night shot, is answered and sends nothing). Levels of ``--step`` tables are added (each level
warmed up ``--warmup`` s, measured ``--seconds`` s) until p99 passes ``--limit-ms`` or ``--max-tables`` is
reached. ``answer_*``: the answer alone (HTTP, or ``ack`` on the socket); ``fanout_*``: from the answer to the last client's arrival (the
sockets' share). Prints one JSON line per level to stderr, and on stdout the largest load held:
{"bench": "online", "tables": .., "sockets": .., "p50_ms": .., "p99_ms": .., ...}
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import ADMIN_PASSWORD, free_port, percentile, start_server, stop_server
from sportmafia.bots.plausible import PlausibleTable
from sportmafia.engine import DealCards, DrawFirstSpeaker, DrawLot, Game, Vote, feed_length
from sportmafia.engine import events as E
from sportmafia.rules import get_ruleset

SPECTATORS = 5
SEQ = re.compile(r'"next_seq":(\d+)')
KINDS = re.compile(r'^\{"type":"(state|events)"')
TABLE = '{"type":"table"'
ANSWERS = re.compile(r'^\{"type":"(ack|refused)"')


class Table:
    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.rng = random.Random(index)
        self.preset, self.players = ("club", 10) if index % 2 == 0 else ("tournament", 14)
        self.names = [f"T{index}P{s}" for s in range(1, self.players + 1)]
        self.games = 0
        self.code: str | None = None
        self.spectators: list[Any] = []  # they follow the table's code from game to game
        self.spectator_readers: list[asyncio.Task[None]] = []
        self._new_game()
        self.broken = False

    def _new_game(self) -> None:
        self.games += 1
        self.game = Game(get_ruleset(self.preset), self.players, self.names)
        self.bot = PlausibleTable(self.game, self.rng)
        self.game_id = ""
        self.host_base = self.bench.bases[self.index % len(self.bench.bases)]
        self.tokens: dict[int, str] = {}
        self.sockets: list[Any] = []        # the seats' sockets, then the spectators'
        self.readers: list[asyncio.Task[None]] = []
        n = self.players + SPECTATORS
        self.seen: list[int] = [-1] * n   # per client: the highest next_seq of this game it got
        # a spectator's messages are of this game only after its "table" message for it
        self.current = [i < self.players for i in range(n)]
        self.waiting: list[list[Any]] = []  # [each client's target next_seq, sent at, clients still to get it, answered at]
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # command id -> its answer on the socket

    async def setup(self) -> None:
        b = self.bench
        base = self.host_base
        self.game_id = (await b.host_post("/api/games", {"preset": self.preset, "players": self.players,
                                                         "names": self.names}, base))["id"]
        # the table's next game takes the table's code: its spectators' sockets follow it
        follow = b.follow_code and self.code is not None
        self.code = (await b.host_post(f"/api/games/{self.game_id}/online",
                                       {"code": self.code} if follow else None, base))["code"]
        # remote players: every seat's link in one request (no QR codes asked for: they get the URLs)
        for link in (await b.host_post(f"/api/games/{self.game_id}/online/links", None, base))["links"]:
            self.tokens[link["seat"]] = link["token"]
        if b.no_sockets:  # the HTTP requests and appends alone (see --no-sockets)
            return
        for seat in range(1, self.players + 1):
            origin = b.socket_base(self)  # the next process, as a load balancer spreads connections (or the host's)
            ws = await b.sockets.ws_connect(f"{ws_of(origin)}/ws/play", headers={"Origin": origin},
                                           max_msg_size=2**22, compress=0, autoping=True)
            await ws.send_str(json.dumps({"type": "hello", "token": self.tokens[seat], "since": 0}))
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self.read(seat - 1, ws)))
        if not self.spectators:
            for j in range(SPECTATORS):
                ws = await b.sockets.ws_connect(f"{ws_of(b.socket_base(self))}/ws/watch/{self.code}?since=0",
                                               max_msg_size=2**22, compress=0)
                self.spectators.append(ws)
                self.spectator_readers.append(asyncio.create_task(self.read(self.players + j, ws)))
        self.sockets += self.spectators
        waited = time.perf_counter()
        while min(self.seen) < 0:  # every client's first message of this game
            if time.perf_counter() - waited > 30:
                raise RuntimeError(f"table {self.index}: a client got no state in 30 s")
            await asyncio.sleep(0.005)

    async def read(self, i: int, ws: Any) -> None:
        with contextlib.suppress(aiohttp.ClientError):
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                raw = msg.data
                if ANSWERS.match(raw):  # the answer to this seat's command sent on its socket
                    answer = json.loads(raw)
                    future = self.answers.pop(answer.get("command_id"), None)
                    if future is not None and not future.done():
                        future.set_result(answer)
                    continue
                if raw.startswith(TABLE):  # a spectator's socket: the game it follows from now on
                    self.current[i] = True
                    continue
                if not KINDS.match(raw) or not self.current[i]:
                    continue
                m = SEQ.search(raw[:120])
                if m is None:
                    continue
                seq = int(m.group(1))
                self.seen[i] = seq
                self.bench.messages += 1
                now = time.perf_counter()
                for w in self.waiting:
                    if seq >= w[0][i] and i in w[2]:
                        w[2].discard(i)
                        if not w[2]:
                            self.bench.done(now - w[1], now - w[3])
                self.waiting = [w for w in self.waiting if w[2]]

    def _explicit(self, cmd: Any) -> dict[str, Any]:
        """Run ``cmd`` on the mirror; a chance command is sent with the outcome drawn here."""
        events = self.game.execute(cmd, self.rng)
        if isinstance(cmd, DealCards):
            dealt = next(e for e in events if isinstance(e, E.Dealt))
            return {"type": "deal", "roles": list(dealt.roles)}
        if isinstance(cmd, DrawFirstSpeaker):
            return {"type": "draw_first_speaker", "seat": next(e.seat for e in events if isinstance(e, E.FirstSpeakerDrawn))}
        if isinstance(cmd, DrawLot):
            return {"type": "draw_lot", "seat": next(e.seat for e in events if isinstance(e, E.LotDrawn))}
        out: dict[str, Any] = cmd.to_json()
        return out

    def targets(self) -> list[int]:
        """Per client, the number of its viewer's feed that the mirror's last move brings it to: each client
        is numbered in its own feed (a seat's, a spectator's), and a move hidden from it sends it nothing."""
        game = self.game
        return [*(feed_length(game, s) for s in range(1, self.players + 1)),
                *([feed_length(game, "spectator")] * SPECTATORS)]

    async def send(self, body: dict[str, Any], seat: int | None, targets: list[int]) -> None:
        b = self.bench
        sent = time.perf_counter()
        if seat is not None and not b.player_http and self.sockets:
            # a player's command on his own socket, as his page sends it; the answer comes back on it
            future = self.answers[body["command_id"]] = asyncio.get_running_loop().create_future()
            await self.sockets[seat - 1].send_str(json.dumps({"type": "command", "game_id": self.game_id, **body}))
            try:
                answer = await asyncio.wait_for(future, 30)
            except TimeoutError:
                answer = {"type": "refused", "error": "no answer in 30 s"}
            if answer["type"] != "ack":
                self._refused(str(answer))
                return
        else:
            if seat is None:
                query = "?state=true" if b.host_state else ""
                r = await b.client.post(f"{self.host_base}/api/games/{self.game_id}/commands{query}", json=body,
                                        headers=b.csrf)
            else:
                r = await b.player.post(f"{b.next_base()}/api/play/commands", json={**body, "game_id": self.game_id},
                                        headers={"X-Play-Token": self.tokens[seat]})
            async with r:
                if r.status != 200:
                    self._refused(f"{r.status} {await r.text()}")
                    return
        late = {i for i, s in enumerate(self.seen) if s < targets[i]}
        b.actions += 1
        answered = time.perf_counter()
        if b.measuring:
            b.answers.append((answered - sent) * 1000)
        if late:
            self.waiting.append([targets, sent, late, answered])
        else:
            b.done(answered - sent, 0.0)

    def _refused(self, what: str) -> None:
        b = self.bench
        b.errors += 1
        self.broken = True
        if b.errors <= 5:
            print(f"refused: {what[:200]}", file=sys.stderr)

    async def run(self) -> None:
        """Play games at this table until the bench stops: a game that ends is followed at once by a new one
        (a new game, its links and its clients' sockets, as a club starts its next game)."""
        while not self.bench.stopping and not self.broken:
            await self.play()
            if self.game.over and not self.bench.stopping and not self.broken:
                for _ in range(100):  # the last action's messages still on their way
                    if not self.waiting:
                        break
                    await asyncio.sleep(0.01)
                await self.close(spectators=not self.bench.follow_code)
                self._new_game()
                await self.setup()

    async def play(self) -> None:
        b = self.bench
        await asyncio.sleep(self.rng.random())  # the tables do not act in lockstep
        next_at = time.perf_counter()
        while not b.stopping and not self.broken and not self.game.over:
            seq = len(self.game.log)
            cmd = self.bot.next_command()
            if isinstance(cmd, Vote):
                # a vote's hands: every voter the table planned for this candidate, at once, each on the number
                # of his own feed he decided on
                votes = [cmd]
                decided = {s: feed_length(self.game, s) for s in range(1, self.players + 1)}
                self.game.execute(cmd)
                targets = [self.targets()]
                while True:
                    more = self.bot.next_command()
                    if not isinstance(more, Vote):
                        break
                    self.game.execute(more)
                    votes.append(more)
                    targets.append(self.targets())
                await asyncio.gather(*(self.send({"command": v.to_json(), "expected_seq": decided[v.voter],
                                                  "command_id": f"v{seq}-{v.voter}"}, v.voter, t)
                                       for v, t in zip(votes, targets, strict=True)))
                b.bursts += 1
            else:
                seat = cmd.actor_seat()
                expected = seq if seat is None else feed_length(self.game, seat)
                body = {"command": self._explicit(cmd), "expected_seq": expected, "command_id": f"c{seq}"}
                await self.send(body, seat, self.targets())
            next_at = max(next_at + 1.0, time.perf_counter())
            await asyncio.sleep(next_at - time.perf_counter())

    async def close(self, spectators: bool = True) -> None:
        """Close the seats' sockets (a game's), and the spectators' too unless ``spectators`` is false."""
        tasks, sockets = list(self.readers), self.sockets[:self.players]
        if spectators:
            tasks += self.spectator_readers
            sockets += self.spectators
            self.spectators, self.spectator_readers = [], []
        for task in tasks:
            task.cancel()
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()


def ws_of(base: str) -> str:
    return base.replace("http://", "ws://")


class Bench:
    def __init__(self, base: str | list[str], no_sockets: bool = False, player_http: bool = False,
                 host_state: bool = True, follow_code: bool = True, table_affinity: bool = False) -> None:
        # several bases: the server processes behind a load balancer; each table's host talks to one of them
        # (his console's connection), and each socket goes to the next one in turn
        self.bases = [base] if isinstance(base, str) else list(base)
        self.base = self.bases[0]
        self._turn = 0
        self.host_state = host_state
        self.follow_code = follow_code
        self.table_affinity = table_affinity
        self.no_sockets = no_sockets
        self.player_http = player_http
        # aiohttp: a client light enough to leave the machine's other core to the server it measures
        timeout = aiohttp.ClientTimeout(total=60)
        self.client = aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=400),
                                            cookie_jar=aiohttp.CookieJar(unsafe=True))  # unsafe: an IP address
        self.player = aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=400),
                                            cookie_jar=aiohttp.DummyCookieJar())  # no cookies: phones
        self.sockets = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),  # as many as the tables need
                                             cookie_jar=aiohttp.DummyCookieJar())
        self.csrf: dict[str, str] = {}
        self.samples: list[float] = []
        self.answers: list[float] = []
        self.fanout: list[float] = []
        self.measuring = False
        self.stopping = False
        self.actions = 0
        self.bursts = 0
        self.messages = 0
        self.errors = 0
        self.tables_stopped = 0

    def table_stopped(self, task: asyncio.Task[None]) -> None:
        """A table's task that failed is counted (no level is held after it) and printed."""
        if not task.cancelled() and task.exception() is not None:
            self.tables_stopped += 1
            print(f"a table stopped: {task.exception()!r}", file=sys.stderr)

    def done(self, seconds: float, after_answer: float) -> None:
        if self.measuring:
            self.samples.append(seconds * 1000)
            self.fanout.append(max(0.0, after_answer) * 1000)

    async def login(self) -> None:
        async with self.client.post(f"{self.base}/api/login", json={"login": "admin", "password": ADMIN_PASSWORD}) as r:
            r.raise_for_status()
            self.csrf = {"X-CSRF-Token": (await r.json())["csrf_token"]}

    def socket_base(self, table: Table) -> str:
        """Where a client of ``table`` connects: the next process in turn, or with ``table_affinity`` the table
        host's (a load balancer that hashes on the table: its moves then reach every client without Redis)."""
        return table.host_base if self.table_affinity else self.next_base()

    def next_base(self) -> str:
        """The next server process in turn (one process: always the same)."""
        self._turn = (self._turn + 1) % len(self.bases)
        return self.bases[self._turn]

    async def host_post(self, path: str, body: dict[str, Any] | None = None, base: str | None = None) -> Any:
        async with self.client.post(f"{base or self.base}{path}", json=body, headers=self.csrf) as r:
            r.raise_for_status()
            return await r.json()


def machine_loop_ms() -> float:
    """This machine's speed now: the best of three runs of a fixed pure-Python loop, in ms (the same figure on
    another day tells whether the machine, not the code, got slower or faster)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)


def cpu_seconds(pid: int | list[int] | None) -> float:
    """User and system CPU time of a process (or of several, summed) so far (Linux /proc), 0.0 if unknown."""
    if isinstance(pid, list):
        return sum(cpu_seconds(p) for p in pid)
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main_async(base: str | list[str], step: int, max_tables: int, seconds: float, warmup: float,
                     limit_ms: float, server_pid: int | list[int] | None = None, no_sockets: bool = False,
                     player_http: bool = False, host_state: bool = True, follow_code: bool = True,
                     start: int | None = None, extra_pids: Callable[[], list[int]] | None = None,
                     table_affinity: bool = False) -> dict[str, Any]:
    """The ladder: ``start`` tables (default ``step``), then ``step`` more per level, up to ``max_tables``.
    ``server_pid``: the server process(es) whose CPU is counted; ``extra_pids``: lists the other processes of
    the set-up (the database's, Redis) whose CPU is printed apart (``other_cpu``)."""
    bench = Bench(base, no_sockets, player_http, host_state, follow_code, table_affinity)
    await bench.login()
    tables: list[Table] = []
    runs: list[asyncio.Task[None]] = []
    held: dict[str, Any] | None = None
    while len(tables) < max_tables:
        size = (start or step) if not tables else step
        new = [Table(bench, i) for i in range(len(tables), min(max_tables, len(tables) + size))]
        for t in new:
            await t.setup()
        tables += new
        for t in new:
            run = asyncio.create_task(t.run())
            run.add_done_callback(bench.table_stopped)
            runs.append(run)
        # the bench's own objects (tables, sockets) stay to the end: out of its collector's reach, so that its
        # pauses do not count as the server's delay (bench_gc_pauses_ms shows what is left)
        gc.collect()
        gc.freeze()
        await asyncio.sleep(warmup)
        bench.samples, bench.answers, bench.fanout, bench.actions, bench.bursts, bench.errors = [], [], [], 0, 0, 0
        bench.messages = 0
        GC_WATCH.pauses = []
        bench.measuring = True
        started = time.perf_counter()
        pids = server_pid if isinstance(server_pid, list) else [server_pid] if server_pid else []
        each = [cpu_seconds(p) for p in pids]
        others = extra_pids() if extra_pids else []
        other_each = [cpu_seconds(p) for p in others]
        cpu, own = sum(each), time.process_time()
        games = sum(t.games for t in tables)
        await asyncio.sleep(seconds)
        bench.measuring = False
        elapsed = time.perf_counter() - started
        each = [cpu_seconds(p) - c for p, c in zip(pids, each, strict=True)]
        cpu, own = sum(each), time.process_time() - own
        # a process of the set-up that ended meanwhile (a database backend) counts nothing
        other = sum(max(0.0, cpu_seconds(p) - c) for p, c in zip(others, other_each, strict=True))
        sockets = sum(len(t.sockets) for t in tables)
        level: dict[str, Any] = {"bench": "online", "tables": len(tables), "sockets": sockets,
                 "p50_ms": round(percentile(bench.samples, 0.50), 1),
                 "p99_ms": round(percentile(bench.samples, 0.99), 1),
                 "answer_p50_ms": round(percentile(bench.answers, 0.50), 1),
                 "answer_p99_ms": round(percentile(bench.answers, 0.99), 1),
                 "fanout_p50_ms": round(percentile(bench.fanout, 0.50), 1),
                 "fanout_p99_ms": round(percentile(bench.fanout, 0.99), 1),
                 "samples": len(bench.samples), "actions_per_s": round(bench.actions / elapsed, 1),
                 "vote_bursts": bench.bursts, "messages_per_action": round(bench.messages / max(1, bench.actions), 1), "new_games": sum(t.games for t in tables) - games,
                 "errors": bench.errors,
                 "server_cpu": round(cpu / elapsed, 2), "bench_cpu": round(own / elapsed, 2),
                 **({"server_cpu_each": [round(c / elapsed, 2) for c in each]} if len(each) > 1 else {}),
                 **({"other_cpu": round(other / elapsed, 2)} if extra_pids else {}),
                 "bench_gc_pauses_ms": [round(p) for p in GC_WATCH.pauses],
                 "server_cpu_ms_per_action": round(cpu * 1000 / max(1, bench.actions), 2),
                 "unfinished": sum(len(t.waiting) for t in tables), "tables_stopped": bench.tables_stopped,
                 "machine_loop_ms": machine_loop_ms()}
        print(json.dumps(level), file=sys.stderr, flush=True)
        if not bench.samples or level["p99_ms"] > limit_ms or bench.errors or bench.tables_stopped:
            break
        held = level
    bench.stopping = True
    for task in runs:
        task.cancel()
    for t in tables:
        await t.close()
    await bench.client.close()
    await bench.player.close()
    await bench.sockets.close()
    return held or {"bench": "online", "tables": 0, "sockets": 0, "p50_ms": None, "p99_ms": None,
                    "note": f"p99 over {limit_ms} ms already at {start or step} tables"}


async def setups_async(base: str, n: int, server_pid: int | None) -> dict[str, Any]:
    """``--setups``: what a new game costs the server, alone: ``n`` tables set up one after another (the game,
    its links, 17 sockets opened and their first messages), no action played."""
    bench = Bench(base)
    await bench.login()
    tables = [Table(bench, i) for i in range(n)]
    cpu, started = cpu_seconds(server_pid), time.perf_counter()
    for t in tables:
        await t.setup()
    cpu, elapsed = cpu_seconds(server_pid) - cpu, time.perf_counter() - started
    for t in tables:
        await t.close()
    await bench.client.close()
    await bench.player.close()
    await bench.sockets.close()
    return {"bench": "online-setups", "tables": n, "server_cpu_ms_per_setup": round(cpu * 1000 / n, 1),
            "wall_ms_per_setup": round(elapsed * 1000 / n, 1), "machine_loop_ms": machine_loop_ms()}


class GcWatch:
    """The bench's own garbage collections that paused it for more than 20 ms (they delay what it measures)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.pauses: list[float] = []
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif time.perf_counter() - self.started > 0.02:
            self.pauses.append((time.perf_counter() - self.started) * 1000)


GC_WATCH = GcWatch()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--step", type=int, default=50, help="tables added per level")
    parser.add_argument("--max-tables", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--limit-ms", type=float, default=100.0)
    parser.add_argument("--no-sockets", action="store_true",
                        help="open no client socket: what the HTTP requests and appends cost alone (a diagnosis)")
    parser.add_argument("--player-http", action="store_true",
                        help="players send their commands by POST /api/play/commands instead of on their sockets")
    parser.add_argument("--host-plain", action="store_true",
                        help="the host's commands do not ask for the state after them (the console's ask: "
                             "?state=true)")
    parser.add_argument("--reconnect-spectators", action="store_true",
                        help="a table's next game gets a new code, its spectators new sockets (instead of the next "
                             "game taking the table's code, the spectators' sockets following it)")
    parser.add_argument("--setups", type=int, default=0,
                        help="only set up this many tables one after another and print what a set-up costs")
    parser.add_argument("--database-url", help="the server's database (default: SQLite in a temporary folder); "
                                               "e.g. postgresql+psycopg://postgres@127.0.0.1:5432/bench")
    parser.add_argument("--pin-cores", action="store_true", help="the server on a core of its own "
                                                                 "(sportmafia serve --pin-cores)")
    args = parser.parse_args()
    gc.set_threshold(50_000, 20, 10)  # the bench's own young collections, rarer (see GcWatch)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server (a child) inherits it
    with tempfile.TemporaryDirectory(prefix="sportmafia-bench-") as tmp:
        port = free_port()
        proc = start_server(Path(tmp), port, args.database_url, pin_cores=args.pin_cores)
        try:
            if args.setups:
                print(json.dumps(asyncio.run(setups_async(f"http://127.0.0.1:{port}", args.setups, proc.pid))))
                return
            result = asyncio.run(main_async(f"http://127.0.0.1:{port}", args.step, args.max_tables,
                                            args.seconds, args.warmup, args.limit_ms, proc.pid,
                                            args.no_sockets, args.player_http, not args.host_plain,
                                            not args.reconnect_spectators))
        finally:
            stop_server(proc)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
