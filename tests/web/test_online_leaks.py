"""The leak test of online play: random games played through the real server's WebSocket layer, with a socket
per seat (each seat's own link) and a spectator's socket per game. The players' commands go through their own
HTTP route (``POST /api/play/commands`` with the seat's token), the host's straight into the store (the
host's API is not what is tested here) followed by the hub's notification, as the host's route does.

For every message each client received, the test rebuilds the game as it stood at the message's seq (the
stored log's prefix) and asserts the message is EXACTLY what the engine lets that viewer see then: the
engine's ``view`` and ``visible_events`` from the seq the client held, and for a seat the commands
``legal_commands(actor=seat)``, and with a ``state`` the rule set's public values (``rule_values``: the same
for every viewer); nothing more (no extra field anywhere), nothing missed (each message starts
where the previous one ended), nothing twice. A second test adds a role to the spectator's messages and checks
that this check fails.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from sportmafia.bots.plausible import PlausibleTable
from sportmafia.bots.random_play import random_command
from sportmafia.engine import Command, Game, Views, feed_length, feed_position, rule_values, view, visible_events
from sportmafia.live import get_hub
from sportmafia.live import online as live_online
from sportmafia.rules import get_ruleset
from sportmafia.store import Store, open_store
from sportmafia.store import online as db
from sportmafia.web import create_app, online

from .conftest import own_client

GAMES = int(os.environ.get("SPORTMAFIA_LEAK_GAMES", "500"))
WORKERS = max(1, min(int(os.environ.get("SPORTMAFIA_LEAK_WORKERS", "2")), os.cpu_count() or 1))
MAX_COMMANDS = 60
"""Games are cut after this many commands (most get through the first night and into day 2: the deal, the
black team's meeting, a day's speeches, nominations and votes, shots, the Don's and the Sheriff's checks,
the best move); one in ten is played to its end."""
ORIGIN = {"origin": "http://testserver"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Store]]:
    path: Path = tmp_path_factory.mktemp("leaks") / "leaks.db"
    store = open_store(f"sqlite:///{path}", migrate=True)
    app = create_app(store, secret_key="leak-test")
    with TestClient(app) as client:
        yield client, store
    store.close()


def _drain(ws: Any, until_seq: int, timeout: float = 20.0) -> list[dict[str, Any]]:
    """Every message up to the one that brings the client to ``until_seq`` (each text parsed once)."""
    async def get_all() -> list[tuple[Any, Any]]:
        got: list[tuple[Any, Any]] = []
        with anyio.fail_after(timeout):
            while True:
                message = await ws._send_rx.receive()
                if "text" not in message:
                    got.append((message, None))
                    return got
                m = json.loads(message["text"])
                got.append((message, m))
                if m.get("type") in ("state", "events") and m["next_seq"] >= until_seq:
                    return got

    out: list[dict[str, Any]] = []
    for message, parsed in ws.portal.call(get_all):  # one call into the app's loop for all of them
        ws._raise_on_close(message)
        out.append(parsed)
    return out


class Prefixes:
    """The game as it stood at each seq (folded from the final log's prefix), shared by the viewers."""

    def __init__(self, final: Game) -> None:
        self.final = final
        self.cache: dict[int, Game] = {}

    def at(self, seq: int) -> Game:
        game = self.cache.get(seq)
        if game is None:
            f = self.final
            game = self.cache[seq] = Game.from_events(f.rules, f.n, f.log[:seq], f.names)
        return game


def check_messages(messages: list[dict[str, Any]], viewer: str | int, prefixes: Prefixes, since: int = 0) -> int:
    """Assert that each message holds exactly the engine's picture for ``viewer`` at its seq (see the module
    doc); returns how many messages were checked."""
    held = since
    checked = 0
    for m in messages:
        kind = m.get("type")
        if kind in ("ping", "timer"):
            assert set(m) <= {"type", "next_seq", "now", "running", "left", "total", "key", "at"}, m
            continue
        if kind == "table":  # a spectator's socket names the table's game it follows: a digest, not its id
            assert viewer == "spectator" and set(m) == {"type", "code", "game"}, m
            assert isinstance(m["code"], str) and re.fullmatch(r"[0-9a-f]{16}", m["game"]), m
            continue
        assert kind in ("state", "events"), m
        assert m["since"] == held, f"{viewer}: a message from seq {m['since']} while the client held {held}"
        assert m["next_seq"] >= held and (kind == "state" or m["next_seq"] > held), m["next_seq"]
        # numbered in the viewer's own feed: the game as it stood at his entry (what follows it up to his next
        # one is hidden from him and changes nothing he is sent)
        game = prefixes.at(feed_position(prefixes.final, viewer, m["next_seq"]))
        expected: dict[str, Any] = {"type": kind, "since": held, "next_seq": feed_length(game, viewer),
                                    "view": view(game, viewer), "events": visible_events(game, viewer, held)}
        if isinstance(viewer, int):
            expected["legal"] = [c.to_json() for c in game.legal_commands(viewer)]
        if kind == "state":
            expected["rules"] = rule_values(game.rules)
        assert m == expected, f"{viewer} at seq {m['next_seq']}: the message differs from the engine's view"
        seqs = [e["seq"] for e in m["events"]]
        assert seqs == sorted(set(seqs)) and all(held <= s < m["next_seq"] for s in seqs)
        held = m["next_seq"]
        checked += 1
    final = feed_length(prefixes.final, viewer)
    assert held == final, f"{viewer} ended at {held}, his feed at {final}"
    return checked


def _chance_free(cmd: Command, k: int) -> random.Random:
    return random.Random(k)


def play_one(client: TestClient, phone: TestClient, store: Store, club: int, seed: int,
             full: bool) -> tuple[dict[str | int, list[dict[str, Any]]], Game]:
    """Play one random game with a socket per seat and a spectator's; returns every message and the game."""
    rng = random.Random(seed)
    game_id = store.create_game(club, "club", 10, [f"P{i}" for i in range(1, 11)])
    table = db.open_table(store, game_id, None)
    tokens = {s: db.issue_seat(store, game_id, s)[0] for s in range(1, 11)}
    hub = get_hub(client.app)  # type: ignore[arg-type]
    mirror = Game(get_ruleset("club"), 10, [f"P{i}" for i in range(1, 11)])
    bot = PlausibleTable(mirror, rng)
    sockets: dict[str | int, Any] = {}
    messages: dict[str | int, list[dict[str, Any]]] = {}
    try:
        for s in range(1, 11):
            ws = client.websocket_connect("/ws/play", headers=ORIGIN).__enter__()
            ws.send_text(json.dumps({"type": "hello", "token": tokens[s], "since": 0}))
            sockets[s] = ws
        sockets["spectator"] = client.websocket_connect(f"/ws/watch/{table.code}?since=0",
                                                        headers=ORIGIN).__enter__()
        limit = 10_000 if full else MAX_COMMANDS
        unpublished = 0
        for k in range(limit):
            if mirror.over:
                break
            cmd = random_command(mirror, rng) if rng.random() < 0.1 else bot.next_command()
            seat = cmd.actor_seat()
            expected = len(mirror.log)
            if seat is not None and rng.random() < 0.6:  # the player acts from his phone, on his own feed's count
                r = phone.post("/api/play/commands", headers={online.TOKEN_HEADER: tokens[seat]},
                               json={"game_id": game_id, "command": cmd.to_json(),
                                     "expected_seq": feed_length(mirror, seat),
                                     "command_id": f"c{k}"})
                assert r.status_code == 200, (cmd, r.text)
                mirror.execute(cmd, actor=seat)
            else:  # the host enters it (any command, a player's too: mixed tables)
                result = store.append(game_id, cmd, expected_seq=expected, command_id=f"h{k}",
                                      rng=_chance_free(cmd, seed * 1000 + k))
                mirror.execute(cmd, rng=_chance_free(cmd, seed * 1000 + k))
                unpublished += 1
                # the host's actions come one by one or in bursts (several hands raised at once)
                if unpublished >= rng.randint(1, 4):
                    hub.publish(game_id, result.next_seq)
                    unpublished = 0
        hub.publish(game_id, len(mirror.log))
        final = store.load(game_id)
        assert final.log == mirror.log
        for viewer, ws in sockets.items():
            messages[viewer] = _drain(ws, feed_length(final, viewer))
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return messages, final


def _seeds_from(queue: Any) -> Iterator[int]:
    while (seed := queue.get()) is not None:
        yield seed


def run_games(seeds: Iterable[int], folder: str, name: str = "leaks") -> dict[str, Any]:
    """Play and check the games of ``seeds`` on a server of this process (a worker's share of the test)."""
    store = open_store(f"sqlite:///{folder}/{name}.db", migrate=True)
    totals: dict[str, Any] = {"games": 0, "messages": 0, "events": 0, "night_games": 0, "checks": 0, "over": 0,
                              "seeds": []}
    try:
        with TestClient(create_app(store, secret_key="leak-test")) as client:
            phone = own_client(client)
            club = store.create_club("Leak test")
            for seed in seeds:
                totals["seeds"].append(seed)
                messages, final = play_one(client, phone, store, club, seed, full=seed % 10 == 0)
                prefixes = Prefixes(final)
                for viewer, ms in messages.items():
                    totals["messages"] += check_messages(ms, viewer, prefixes)
                totals["games"] += 1
                totals["events"] += len(final.log)
                totals["night_games"] += final.day >= 2
                totals["checks"] += len(final.checks)
                totals["over"] += final.over
    finally:
        store.close()
    return totals


_queue: Any = None


def _worker_init(queue: Any) -> None:
    global _queue
    _queue = queue


def _worker(folder: str, name: str) -> dict[str, Any]:
    return run_games(_seeds_from(_queue), folder, name)


def test_random_games_leak_nothing(tmp_path: Path) -> None:
    """GAMES games, shared among WORKERS processes (each its own server and database). The processes take the
    next seed from a common queue as they finish a game, the long games (played to the end) first, so that
    they finish together."""
    started = time.monotonic()
    seeds = sorted(range(GAMES), key=lambda seed: seed % 10 != 0)  # the full games (seed % 10 == 0) first
    if WORKERS == 1:
        results = [run_games(seeds, str(tmp_path))]
    else:
        ctx = multiprocessing.get_context("spawn")
        queue = ctx.Queue()
        for seed in [*seeds, *[None] * WORKERS]:
            queue.put(seed)
        with ProcessPoolExecutor(WORKERS, mp_context=ctx, initializer=_worker_init, initargs=(queue,)) as pool:
            futures = [pool.submit(_worker, str(tmp_path), f"leaks-{w}") for w in range(WORKERS)]
            results = [f.result() for f in futures]
    totals = {k: sum(r[k] for r in results) for k in results[0] if k != "seeds"}
    elapsed = time.monotonic() - started
    print(f"\nleak test: {totals} in {elapsed:.0f} s ({WORKERS} processes: "
          f"{', '.join(str(len(r['seeds'])) for r in results)} games)")
    assert sorted(seed for r in results for seed in r["seeds"]) == list(range(GAMES))
    assert totals["games"] == GAMES
    # the games reached what must stay hidden: nights, checks, finished games
    assert totals["night_games"] >= GAMES * 0.8 and totals["checks"] >= GAMES and totals["over"] >= GAMES // 10


def test_a_role_in_the_spectators_messages_is_caught(server: tuple[TestClient, Store],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    client, store = server
    club = store.create_club("Leak test, a deliberate leak")
    real = live_online.payload

    def leaky(kind: str, views: Views, viewer: str | int, since: int) -> dict[str, Any] | None:
        out = real(kind, views, viewer, since)
        game = views.game
        if out is not None and viewer == "spectator" and game.roles[1]:
            # a copy: the views of one moment share their parts (the seats' views hold these seat rows too)
            seats = [{**out["view"]["seats"][0], "role": game.roles[1]}, *out["view"]["seats"][1:]]
            out["view"] = {**out["view"], "seats": seats}
        return out

    monkeypatch.setattr(live_online, "payload", leaky)
    messages, final = play_one(client, own_client(client), store, club, 424242, full=False)
    prefixes = Prefixes(final)
    for seat in range(1, 11):
        check_messages(messages[seat], seat, prefixes)  # the seats' messages are still right
    with pytest.raises(AssertionError, match="spectator"):
        check_messages(messages["spectator"], "spectator", prefixes)
