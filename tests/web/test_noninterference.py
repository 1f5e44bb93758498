"""Non-interference through the real server: pairs of games that differ only in what some viewers may not see
(tests/pairs.py: who shot whom and how many black players shot on a miss, the order of a kill's shots, whom the
checker checked, a kill the host recorded after a wrong one undone, who got a foul at night; the three presets)
are played through the server's sockets, each with a socket per seat (its own link), a spectator's socket on the
table code and the projector's table view (the host's socket, ``view=table``). Every viewer who may not see the
difference must get byte-identical messages in both games, from the deal to the end (to the morning, for a
night foul): the same numbers, the same count of messages and the same texts.

Each command is followed by the hub's notification, and the test waits until every socket has what its feed
holds before the next command, so that the messages' boundaries are the commands' (a socket that coalesced two
moves into one message would differ by timing alone, which is not what is measured here). A player's command
goes now and then through his own route (``POST /api/play/commands``, numbered in his own feed). After the
last command, every socket is sent a frame it does not take, twice, and read up to the second answer: a socket
answers at the start of its sender's next round, so whatever a wake-up still pending would have sent (a
message after the last entry, which would differ) comes before that answer, and is kept.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from sportmafia.engine import feed_length
from sportmafia.live import get_hub
from sportmafia.store import online as db
from sportmafia.store import open_store
from sportmafia.web import create_app, online
from sportmafia.web.security import hash_password
from tests.depth import count
from tests.engine.test_noninterference import assert_non_interference, pairs
from tests.pairs import EVERY_KIND, Pair

from .conftest import ADMIN_PASSWORD, Api, own_client
from .test_online_leaks import ORIGIN

PAIRS = int(os.environ.get("SPORTMAFIA_SOCKET_PAIRS", "0")) or count(check=10, suite=12, deep=40)
"""The pairs played through the sockets (``$SPORTMAFIA_SOCKET_PAIRS`` or the run's depth, tests/depth.py): at
every depth each kind of hidden action on each preset that has it (the test checks it); the volume of pairs is
the in-process test's (tests/engine/test_noninterference.py), since the sockets change no message's content."""

Viewer = str | int


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, TestClient]]:
    path: Path = tmp_path_factory.mktemp("noninterference") / "ni.db"
    store = open_store(f"sqlite:///{path}", migrate=True)
    club = store.create_club("Non-interference")
    store.create_user(club, "admin", hash_password(ADMIN_PASSWORD), "admin")
    with TestClient(create_app(store, secret_key="ni-test")) as client:
        api = Api(client, store, club)
        api.login()
        yield api, own_client(client)
    store.close()


async def _receive(ws: Any, held: int, until: int, out: list[str], timeout: float = 20.0) -> int:
    """Receive until a message brings the socket to entry ``until`` of its viewer's feed, then whatever has
    already come besides; every text kept (pings and the host's timer aside; a ``table`` message with its
    code and game's digest left out, the two games of a pair being two tables). ``held``: the number the socket is at
    (-1 before its first message). Returns the number reached."""
    with anyio.fail_after(timeout):
        while True:
            if held >= until:
                try:
                    message = ws._send_rx.receive_nowait()
                except anyio.WouldBlock:
                    return held
            else:
                message = await ws._send_rx.receive()
            if "text" not in message:
                raise AssertionError(f"the socket closed: {message}")
            m = json.loads(message["text"])
            if m["type"] in ("ping", "timer"):
                continue
            if m["type"] == "table":
                out.append(json.dumps({**m, "code": "-", "game": "-"}))  # two tables
                continue
            out.append(message["text"])
            if m["type"] in ("state", "events"):
                held = max(held, m["next_seq"])


def _twin(rng: random.Random) -> random.Random:
    """A generator that draws what ``rng`` will draw (its state copied), for the store's copy of a command."""
    twin = random.Random(0)
    twin.setstate(rng.getstate())
    return twin


END = json.dumps("end")
"""A frame no socket takes (JSON, not a message): each answers it with an error, at its sender's next round."""


async def _to_answer(ws: Any, out: list[str], timeout: float = 20.0) -> None:
    """Send the socket ``END`` and receive up to its answer; what comes before it is kept as ``_receive`` keeps
    it (see the module doc)."""
    await ws._receive_tx.send({"type": "websocket.receive", "text": END})
    with anyio.fail_after(timeout):
        while True:
            message = await ws._send_rx.receive()
            if "text" not in message:
                raise AssertionError(f"the socket closed: {message}")
            m = json.loads(message["text"])
            if m["type"] == "error" and m["error"]["code"] == "bad-message":
                return
            if m["type"] in ("ping", "timer"):
                continue
            out.append(json.dumps({**m, "code": "-", "game": "-"}) if m["type"] == "table" else message["text"])


def play_pair_game(api: Api, phone: TestClient, pair: Pair,
                   which: str) -> tuple[dict[Viewer, list[str]], dict[Viewer, int]]:
    """Play game ``which`` of the pair through the server; every socket's messages and how many each had when
    the two games parted."""
    store, client = api.store, api.client
    n = pair.players
    game_id = store.create_game(api.club_id, pair.preset, n, [f"P{i}" for i in range(1, n + 1)])
    table = db.open_table(store, game_id, None)
    tokens = {auth.seat: token for token, auth, _ in db.issue_seats(store, game_id, range(1, n + 1))}
    hub = get_hub(client.app)  # type: ignore[arg-type]
    mirror = pair.game()
    feeds: dict[Viewer, Viewer] = {**{s: s for s in range(1, n + 1)}, "spectator": "spectator",
                                   "table": "spectator"}
    sockets: dict[Viewer, Any] = {}
    texts: dict[Viewer, list[str]] = {v: [] for v in feeds}
    parted: dict[Viewer, int] = {}
    held: dict[Viewer, int] = dict.fromkeys(feeds, -1)

    def collect() -> None:
        async def every_socket() -> None:  # one call into the app's loop for all of them
            for viewer, feed in feeds.items():
                held[viewer] = await _receive(sockets[viewer], held[viewer], feed_length(mirror, feed), texts[viewer])
        sockets["table"].portal.call(every_socket)

    try:
        for s in range(1, n + 1):
            ws = client.websocket_connect("/ws/play", headers=ORIGIN).__enter__()
            ws.send_text(json.dumps({"type": "hello", "token": tokens[s], "since": 0}))
            sockets[s] = ws
        sockets["spectator"] = client.websocket_connect(f"/ws/watch/{table.code}?since=0",
                                                        headers=ORIGIN).__enter__()
        sockets["table"] = client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN).__enter__()
        collect()
        for k, (cmd, rng) in enumerate(pair.steps(which)):
            if k == len(pair.prefix):
                parted.update({v: len(texts[v]) for v in feeds})
            seat = cmd.actor_seat()
            if seat is not None and k % 2:  # the player acts from his phone, on his own feed's count
                r = phone.post("/api/play/commands", headers={online.TOKEN_HEADER: tokens[seat]},
                               json={"game_id": game_id, "command": cmd.to_json(),
                                     "expected_seq": feed_length(mirror, seat), "command_id": f"c{k}"})
                assert r.status_code == 200, (cmd, r.text)
                mirror.execute(cmd, actor=seat)
            else:
                result = store.append(game_id, cmd, expected_seq=len(mirror.log), command_id=f"h{k}",
                                      rng=_twin(rng))
                mirror.execute(cmd, rng)
                hub.publish(game_id, result.next_seq)
            collect()
        assert store.load(game_id).log == mirror.log
        collect()

        async def nothing_more() -> None:  # a message after the last entry would be kept, and differ
            for _ in range(2):
                for viewer in feeds:
                    await _to_answer(sockets[viewer], texts[viewer])
        sockets["table"].portal.call(nothing_more)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return texts, parted


def test_a_viewer_cannot_tell_a_pair_apart_through_the_sockets(server: tuple[Api, TestClient]) -> None:
    api, phone = server
    compared = 0
    seen: set[tuple[str, str]] = set()
    for pair in pairs(PAIRS, seed=7):
        seen.add((pair.preset, pair.kind))
        a, parted_a = play_pair_game(api, phone, pair, "a")
        b, parted_b = play_pair_game(api, phone, pair, "b")
        assert parted_a == parted_b

        def cut(messages: list[str], pair: Pair, viewer: Viewer, parted: dict[Viewer, int] = parted_a) -> list[str]:
            if not pair.public_at_day:
                return messages
            for i in range(parted[viewer], len(messages)):
                m = json.loads(messages[i])
                if m.get("type") in ("state", "events") and m["view"]["phase"] != "night":
                    return messages[:i]
            return messages

        compared += assert_non_interference(pair, a, b, cut)
    print(f"\nnon-interference through the sockets: {PAIRS} pairs, {compared} messages compared")
    assert compared > PAIRS * 50
    assert seen == EVERY_KIND, f"through the sockets, each kind of hidden action on each preset: {sorted(seen)}"
