"""The leak test of online play: random games whose every message is checked against what the engine lets its
viewer see.

The games (plausible play with random host actions; most cut after ``MAX_COMMANDS`` commands, one in ten played
to its end): a player's command comes now and then from his phone (his own route, numbered in his own feed), the
host's are entered at the table and told to the sockets one by one or in bursts. Each game is played the same
way, move for move, by two drivers:

- in process (``GAMES`` games): the live layer's renderer (``live.online.payload``, the builder of every message
  a player's or a spectator's socket sends) builds every viewer's message at each notification, on the game
  folded forward with the new events and one ``Views`` of the moment for all the viewers (served in a shuffled
  order), as ``live.render.Feeds`` does; each message is sent as the sockets send it (``live.dumps``) and read
  back;
- through the real server's WebSocket layer (``SOCKET_GAMES`` of those games): a socket per seat (each seat's own
  link) and a spectator's socket per game, the players' commands through their own HTTP route
  (``POST /api/play/commands`` with the seat's token), the host's straight into the store (the host's API is
  not what is tested here) followed by the hub's notification, as the host's route does. What only this path
  could leak, and every game of it exercises: the process's texts built once per (viewer, cursor) and shared by
  a table's sockets (one viewer's text sent to another), the game as the process reads it back from the store
  and folds it forward, each socket's cursor across notifications coalesced or arriving mid-burst (an entry
  missed or sent twice), the phone route executing a command as its seat, the spectator's ``table`` message,
  the text on the wire.

For every message each client received, the test rebuilds the game as it stood at the message's seq (the
stored log's prefix) and asserts the message is EXACTLY what the engine lets that viewer see then: the
engine's ``view`` and ``visible_events`` from the seq the client held, and for a seat the commands
``legal_commands(actor=seat)``, and with a ``state`` the rule set's public values (``rule_values``: the same
for every viewer); nothing more (no extra field anywhere), nothing missed (each message starts
where the previous one ended), nothing twice. Another test adds a role to the spectator's messages and checks
that this check fails, on both paths.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import orjson
import pytest
from fastapi.testclient import TestClient

from sportmafia.bots.plausible import PlausibleTable
from sportmafia.bots.random_play import random_command
from sportmafia.engine import Command, Game, Views, feed_length, feed_position, rule_values, visible_events
from sportmafia.live import dumps, get_hub
from sportmafia.live import online as live_online
from sportmafia.rules import get_ruleset
from sportmafia.store import Store, open_store
from sportmafia.store import online as db
from sportmafia.web import create_app, online
from tests.depth import count

from .conftest import own_client

GAMES = count(check=40, suite=300, deep=2000)
"""Games checked in process, seeds 0 to GAMES - 1 (one in ten, seed % 10 == 0, played to its end): at the
suite's depth (tests/depth.py) 300, whose finished games end each way a club game ends (the test checks it)."""
SOCKET_GAMES = count(check=10, suite=30, deep=60)
"""Games played through the sockets: seeds 0 to 29, three of them (0, 10, 20) played to their end. The
mechanisms only the socket path has (see the module doc) are at work in every game, at every notification:
thousands of messages over eleven sockets a game."""
MAX_COMMANDS = 60
"""Games are cut after this many commands (most get through the first night and into day 2: the deal, the
black team's meeting, a day's speeches, nominations and votes, shots, the Don's and the Sheriff's checks,
the best move); one in ten is played to its end."""
ORIGIN = {"origin": "http://testserver"}
VIEWERS: tuple[str | int, ...] = (*range(1, 11), "spectator")
NAMES = [f"P{i}" for i in range(1, 11)]
Messages = dict[str | int, list[dict[str, Any]]]


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


class Pictures:
    """What the engine lets each viewer see at each point of the final log: the game folded from the log's
    prefix up to that point, and one ``Views`` of it for the viewers asked about there.

    The points asked for (:meth:`ask`) are read in the log's order by one game folded forward (``fold_in``),
    each point's views built once for all the viewers asked about there, rather than the whole prefix folded
    again for each point (the fold of a log in pieces is the fold of the log whole: tests/engine/test_feeds.py
    and the replays of tests/engine/test_properties.py check it)."""

    def __init__(self, final: Game) -> None:
        self.final = final
        self.asked: dict[int, set[tuple[str | int, int, str]]] = {}
        self.pictures: dict[tuple[int, str | int, int, str], dict[str, Any]] = {}

    def ask(self, position: int, viewer: str | int, held: int, kind: str) -> None:
        self.asked.setdefault(position, set()).add((viewer, held, kind))

    def build(self) -> None:
        f = self.final
        game = Game.from_events(f.rules, f.n, [], f.names)
        for position in sorted(self.asked):
            game.fold_in(f.log[len(game.log):position])
            views = Views(game)
            for viewer, held, kind in self.asked[position]:
                expected: dict[str, Any] = {"type": kind, "since": held, "next_seq": feed_length(game, viewer),
                                            "view": views(viewer), "events": visible_events(game, viewer, held)}
                if isinstance(viewer, int):
                    expected["legal"] = [c.to_json() for c in game.legal_commands(viewer)]
                if kind == "state":
                    expected["rules"] = rule_values(game.rules)
                self.pictures[position, viewer, held, kind] = expected
        self.asked = {}

    def at(self, position: int, viewer: str | int, held: int, kind: str) -> dict[str, Any]:
        return self.pictures[position, viewer, held, kind]


def _frames(messages: list[dict[str, Any]], viewer: str | int, final: Game,
            pictures: Pictures) -> list[tuple[dict[str, Any], int, int]]:
    """The viewer's game messages with the point of the log each stands at and the seq the client held before
    it, each asked of ``pictures``; the other messages checked here (see :func:`check_game`)."""
    held = 0
    frames: list[tuple[dict[str, Any], int, int]] = []
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
        position = feed_position(final, viewer, m["next_seq"])
        pictures.ask(position, viewer, held, kind)
        frames.append((m, position, held))
        held = m["next_seq"]
    end = feed_length(final, viewer)
    assert held == end, f"{viewer} ended at {held}, his feed at {end}"
    return frames


def check_game(messages: Messages, final: Game) -> int:
    """Assert that each message of each viewer holds exactly the engine's picture for him at its seq (see the
    module doc); returns how many messages were checked."""
    pictures = Pictures(final)
    framed = {viewer: _frames(ms, viewer, final, pictures) for viewer, ms in messages.items()}
    pictures.build()
    for viewer, frames in framed.items():
        for m, position, since in frames:
            expected = pictures.at(position, viewer, since, m["type"])
            assert m == expected, f"{viewer} at seq {m['next_seq']}: the message differs from the engine's view"
            seqs = [e["seq"] for e in m["events"]]
            assert seqs == sorted(set(seqs)) and all(since <= s < m["next_seq"] for s in seqs)
    return sum(len(frames) for frames in framed.values())


def check_messages(messages: list[dict[str, Any]], viewer: str | int, final: Game) -> int:
    """:func:`check_game` for one viewer's messages."""
    return check_game({viewer: messages}, final)


def _chance(seed: int, k: int) -> random.Random:
    """The chance of the host's k-th command of game ``seed`` (the deal, the first speaker, the lot)."""
    return random.Random(seed * 1000 + k)


@dataclass(frozen=True)
class Move:
    k: int
    command: Command
    seat: int | None
    """The seat that sends it from his phone, on his own feed's count; None: the host enters it."""
    expected: int
    """The count it is sent on: the seat's feed, or the log (the host's)."""
    tell: bool
    """Whether the hub is told after it: always after a phone's (its route tells it), after the host's one by
    one or in bursts (several hands raised at once)."""


def moves(mirror: Game, seed: int) -> Iterator[Move]:
    """The moves of game ``seed`` (one in ten, seed % 10 == 0, played to its end): the same course for both
    drivers. The driver makes each move and executes it on ``mirror`` (:func:`make`) before taking the next."""
    rng = random.Random(seed)
    bot = PlausibleTable(mirror, rng)
    limit = 10_000 if seed % 10 == 0 else MAX_COMMANDS
    unpublished = 0
    for k in range(limit):
        if mirror.over:
            break
        cmd = random_command(mirror, rng) if rng.random() < 0.1 else bot.next_command()
        seat = cmd.actor_seat()
        if seat is not None and rng.random() < 0.6:  # the player acts from his phone, on his own feed's count
            yield Move(k, cmd, seat, feed_length(mirror, seat), True)
        else:  # the host enters it (any command, a player's too: mixed tables)
            expected = len(mirror.log)
            unpublished += 1
            tell = unpublished >= rng.randint(1, 4)
            if tell:
                unpublished = 0
            yield Move(k, cmd, None, expected, tell)


def make(mirror: Game, move: Move, seed: int) -> None:
    """Execute ``move`` on the mirror: as its seat (a phone's), or with its chance (the host's)."""
    if move.seat is not None:
        mirror.execute(move.command, actor=move.seat)
    else:
        mirror.execute(move.command, rng=_chance(seed, move.k))


def play_in_process(seed: int) -> tuple[Messages, Game]:
    """Play game ``seed``; at each notification every viewer whose feed grew is sent the message the live
    layer's renderer builds for him (``live.online.payload``, as text), on the game folded forward with the new
    events and one ``Views`` of the moment for all the viewers, as a process serving the sockets does."""
    mirror = Game(get_ruleset("club"), 10, NAMES)
    served = Game(get_ruleset("club"), 10, NAMES)  # the game as the renderer reads it
    order = random.Random(-1 - seed)  # the order the viewers are served in (the batch's, a set's)
    held: dict[str | int, int] = dict.fromkeys(VIEWERS, 0)
    messages: Messages = {v: [] for v in VIEWERS}

    def tell(kind: str = "events") -> None:
        served.fold_in(mirror.log[len(served.log):])
        views = Views(served)
        for viewer in order.sample(VIEWERS, len(VIEWERS)):
            message = live_online.payload(kind, views, viewer, held[viewer])
            if message is not None:
                messages[viewer].append(orjson.loads(dumps(message)))
                held[viewer] = message["next_seq"]

    tell("state")  # each socket's first message, on connecting
    for move in moves(mirror, seed):
        make(mirror, move, seed)
        if move.tell:
            tell()
    tell()
    return messages, mirror


def play_through_sockets(client: TestClient, phone: TestClient, store: Store, club: int,
                         seed: int) -> tuple[Messages, Game]:
    """Play game ``seed`` through the server, a socket per seat and a spectator's; returns every message and the
    game as stored."""
    game_id = store.create_game(club, "club", 10, NAMES)
    table = db.open_table(store, game_id, None)
    tokens = {auth.seat: token for token, auth, _ in db.issue_seats(store, game_id, range(1, 11))}
    hub = get_hub(client.app)  # type: ignore[arg-type]
    mirror = Game(get_ruleset("club"), 10, NAMES)
    sockets: dict[str | int, Any] = {}
    messages: Messages = {}
    try:
        for s in range(1, 11):
            ws = client.websocket_connect("/ws/play", headers=ORIGIN).__enter__()
            ws.send_text(json.dumps({"type": "hello", "token": tokens[s], "since": 0}))
            sockets[s] = ws
        sockets["spectator"] = client.websocket_connect(f"/ws/watch/{table.code}?since=0",
                                                        headers=ORIGIN).__enter__()
        for move in moves(mirror, seed):
            cmd = move.command
            if move.seat is not None:  # the route executes it as his seat and tells the hub
                r = phone.post("/api/play/commands", headers={online.TOKEN_HEADER: tokens[move.seat]},
                               json={"game_id": game_id, "command": cmd.to_json(), "expected_seq": move.expected,
                                     "command_id": f"c{move.k}"})
                assert r.status_code == 200, (cmd, r.text)
            else:
                result = store.append(game_id, cmd, expected_seq=move.expected, command_id=f"h{move.k}",
                                      rng=_chance(seed, move.k))
                if move.tell:
                    hub.publish(game_id, result.next_seq)
            make(mirror, move, seed)
        hub.publish(game_id, len(mirror.log))
        final = store.load(game_id)
        assert final.log == mirror.log
        for viewer, ws in sockets.items():
            messages[viewer] = _drain(ws, feed_length(final, viewer))
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return messages, final


class Totals:
    """What the checked games reached: what must stay hidden (nights, checks, finished games)."""

    def __init__(self) -> None:
        self.games = self.messages = self.events = self.night_games = self.checks = self.over = 0
        self.endings: set[str] = set()

    def add(self, messages: Messages, final: Game) -> None:
        self.messages += check_game(messages, final)
        self.games += 1
        self.events += len(final.log)
        self.night_games += final.day >= 2
        self.checks += len(final.checks)
        self.over += final.over
        if final.over:
            self.endings.add(str(final.result))

    def assert_reached(self, games: int) -> None:
        assert self.games == games
        assert self.night_games >= games * 0.8 and self.checks >= games and self.over >= games // 10, vars(self)
        assert self.messages > games * 100, vars(self)


def test_random_games_leak_nothing() -> None:
    """GAMES games, every message of every viewer built by the renderer and checked (in process); at the
    suite's depth their finished games end each way a club game ends: the red team's win, the black team's,
    a win awarded and the judge's decision."""
    totals = Totals()
    for seed in range(GAMES):
        totals.add(*play_in_process(seed))
    print(f"\nleak test in process: {vars(totals)}")
    totals.assert_reached(GAMES)
    if GAMES >= 300:
        assert totals.endings >= {"black-gone", "parity", "award", "override"}, totals.endings


def test_random_games_leak_nothing_through_the_sockets(server: tuple[TestClient, Store]) -> None:
    """SOCKET_GAMES of those games through the real sockets, every message of every socket checked."""
    client, store = server
    phone = own_client(client)
    club = store.create_club("Leak test")
    totals = Totals()
    for seed in range(SOCKET_GAMES):
        totals.add(*play_through_sockets(client, phone, store, club, seed))
    print(f"\nleak test through the sockets: {vars(totals)}")
    totals.assert_reached(SOCKET_GAMES)


@pytest.mark.parametrize("path", ["in process", "through the sockets"])
def test_a_role_in_the_spectators_messages_is_caught(server: tuple[TestClient, Store],
                                                     monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    client, store = server
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
    if path == "in process":
        messages, final = play_in_process(424242)
    else:
        club = store.create_club("Leak test, a deliberate leak")
        messages, final = play_through_sockets(client, own_client(client), store, club, 424242)
    check_game({seat: messages[seat] for seat in range(1, 11)}, final)  # the seats' messages are still right
    with pytest.raises(AssertionError, match="spectator"):
        check_messages(messages["spectator"], "spectator", final)
