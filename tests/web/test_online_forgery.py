"""Forged and replayed messages of online play: each kind is refused, logged without the token, and changes
nothing (the game's log is the same before and after)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sportmafia.engine import Game
from sportmafia.live import get_hub
from sportmafia.live.socket import CLOSE_NOT_AUTHORIZED
from sportmafia.store import online as online_db

from .conftest import Api
from .test_online import (
    ORIGIN,
    dealt_game,
    hello,
    host_advance_to,
    issue,
    open_table,
    player_post,
    quiet,
    recv,
    stranger,
    until,
)


@contextmanager
def unchanged(api: Api, *game_ids: str) -> Iterator[None]:
    before = {g: api.store.load(g).log for g in game_ids}
    yield
    for g in game_ids:
        assert api.store.load(g).log == before[g], f"game {g} changed"


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code and body["error"]["en"] and body["error"]["ru"], body


@dataclass
class Answer:
    """A socket's answer to a command, shaped like the HTTP response (status, JSON body)."""

    status_code: int
    body: dict[str, Any]

    def json(self) -> dict[str, Any]:
        return self.body

    @property
    def text(self) -> str:
        return json.dumps(self.body)


Act = Callable[..., Any]


def socket_post(api: Api, token: str, game_id: str, command: dict[str, Any], expected_seq: int, command_id: str,
                **extra: Any) -> Answer:
    """A player's command sent over his own socket (``/ws/play``), answered ``ack`` or ``refused`` on it."""
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token)
        first = recv(ws)
        if first["type"] == "error":  # the link itself is refused at the hello
            assert first["error"]["code"] == "bad-link", first
            return Answer(401, {"error": first["error"]})
        assert first["type"] == "state", first
        ws.send_text(json.dumps({"type": "command", "game_id": game_id, "command": command,
                                 "expected_seq": expected_seq, "command_id": command_id, **extra}))
        while True:
            m = recv(ws)
            if m["type"] == "ack":
                assert m["command_id"] == command_id
                return Answer(200, {k: v for k, v in m.items() if k not in ("type", "command_id")})
            if m["type"] == "refused":
                assert m["command_id"] == (command_id if len(command_id) <= 40 else None)
                return Answer(m["status"], {k: v for k, v in m.items() if k not in ("type", "command_id", "status")})
            assert m["type"] in ("events", "ping", "timer"), m


@pytest.fixture(params=["http", "socket"])
def act(request: pytest.FixtureRequest, api: Api) -> Act:
    """A player's command by ``POST /api/play/commands`` or over his socket: the same refusals either way."""
    if request.param == "http":
        phone = stranger(api)
        return lambda token, *args, **extra: player_post(phone, token, *args, **extra)
    return lambda token, *args, **extra: socket_post(api, token, *args, **extra)


@pytest.fixture
def table(api: Api) -> tuple[str, Game, dict[int, str], TestClient]:
    game_id, game = dealt_game(api, seed=11)
    open_table(api, game_id)
    tokens = {s: issue(api, game_id, s) for s in range(1, 11)}
    return game_id, game, tokens, stranger(api)


def test_another_seats_command_is_refused(api: Api, table: Any, act: Act, caplog: pytest.LogCaptureFixture) -> None:
    game_id, game, tokens, _phone = table
    speaker = game.seat
    other = speaker % 10 + 1
    with unchanged(api, game_id), caplog.at_level(logging.WARNING, logger="sportmafia.online"):
        # the other seat's token, the speaker's nomination
        r = act(tokens[other], game_id, {"type": "nominate", "by": speaker, "target": other}, len(game.log), "f1")
        refused(r, 403, "not-yours")
    assert any("not-yours" in rec.getMessage() and f"seat {other}" in rec.getMessage() for rec in caplog.records)
    assert all(tokens[other] not in rec.getMessage() for rec in caplog.records)


@pytest.mark.parametrize("command", [
    {"type": "advance"}, {"type": "foul", "seat": 1}, {"type": "undo"}, {"type": "kill", "target": 2},
    {"type": "override", "winner": "red", "reason": "mine"}, {"type": "remove", "seat": 4},
    {"type": "draw_lot"}, {"type": "deal"},
])
def test_host_commands_are_refused_to_players(api: Api, table: Any, act: Act, command: dict[str, Any]) -> None:
    game_id, game, tokens, _phone = table
    with unchanged(api, game_id):
        refused(act(tokens[game.seat], game_id, command, len(game.log), "h1"), 403, "not-yours")


def test_another_games_command_is_refused(api: Api, table: Any, act: Act) -> None:
    game_id, _game, tokens, _phone = table
    other_id, other = dealt_game(api, seed=12)
    open_table(api, other_id)
    with unchanged(api, game_id, other_id):
        r = act(tokens[other.seat], other_id, {"type": "nominate", "by": other.seat, "target": other.seat % 10 + 1},
                len(other.log), "g1")
        refused(r, 403, "wrong-game")


def test_stale_and_replayed_commands_change_nothing(api: Api, table: Any, act: Act) -> None:
    game_id, game, tokens, _phone = table
    speaker = game.seat
    target = speaker % 10 + 1
    nominate = {"type": "nominate", "by": speaker, "target": target}
    r = act(tokens[speaker], game_id, nominate, len(game.log), "once")
    assert r.status_code == 200
    after = api.store.load(game_id)
    with unchanged(api, game_id):
        # the same message again: answered as before, applied once
        again = act(tokens[speaker], game_id, nominate, len(game.log), "once")
        assert again.status_code == 200 and again.json()["replayed"] is True
        # a new id on the old seq, in the same phase: decided again on the new head, and the rules refuse it
        r = act(tokens[speaker], game_id, nominate, len(game.log), "twice")
        assert r.status_code == 409 and r.json()["error"]["code"] not in ("stale", "not-yours")
    # the phase moves on: a command of the past phase, on the current seq, is refused by the rules
    game = host_advance_to(api, game_id, "speech")
    api.command(game_id, {"type": "advance"}, len(after.log), "next-speaker")
    now = api.store.load(game_id)
    assert now.seat != speaker
    with unchanged(api, game_id):
        r = act(tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": 5},
                        len(now.log), "late")
        assert r.status_code == 409 and r.json()["error"]["code"] != "stale"
        # decided on a seq of his speech, sent after it ended: the phase changed, so stale
        refused(act(tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": 5},
                            len(after.log), "stale-phase"), 409, "stale")
        # and the replay of the first nomination still changes nothing
        assert act(tokens[speaker], game_id, nominate, len(now.log), "once").json()["replayed"]


def test_revoked_and_unknown_tokens_and_cookies_are_refused(api: Api, table: Any, act: Act) -> None:
    game_id, game, tokens, phone = table
    speaker = game.seat
    nominate = {"type": "nominate", "by": speaker, "target": speaker % 10 + 1}
    api.client.delete(f"/api/games/{game_id}/online/seats/{speaker}/link", headers={"X-CSRF-Token": api.csrf or ""})
    with unchanged(api, game_id):
        refused(act(tokens[speaker], game_id, nominate, len(game.log), "r1"), 401, "bad-link")
        refused(act("x" * 32, game_id, nominate, len(game.log), "r2"), 401, "bad-link")
        r = phone.post("/api/play/commands", json={"game_id": game_id, "command": nominate,
                                                   "expected_seq": len(game.log), "command_id": "r3"})
        refused(r, 401, "bad-link")
        # the host's session cookie (and CSRF token) does not make anyone a seat
        r = api.post("/api/play/commands", {"game_id": game_id, "command": nominate,
                                            "expected_seq": len(game.log), "command_id": "r4"})
        refused(r, 401, "bad-link")


def test_a_link_revoked_while_its_socket_is_open_acts_no_more(api: Api, table: Any,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """Revoked by another process that could not tell this one (no Redis): the socket is still open until its
    keepalive, but the command it sends meanwhile is refused when it would be written, and the socket ends."""
    game_id, game, tokens, _phone = table
    speaker = game.seat
    nominate = {"type": "nominate", "by": speaker, "target": speaker % 10 + 1}
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, unchanged(api, game_id), \
            caplog.at_level(logging.WARNING, logger="sportmafia.online"):
        hello(ws, tokens[speaker])
        until(ws, "state")
        assert online_db.revoke_seat(api.store, game_id, speaker)  # in the database only: no socket is told
        ws.send_text(json.dumps({"type": "command", "game_id": game_id, "command": nominate,
                                 "expected_seq": len(game.log), "command_id": "late"}))
        answer = until(ws, "refused")
        assert answer["status"] == 401 and answer["error"]["code"] == "bad-link", answer
        assert until(ws, "error")["error"]["code"] == "revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(ws)
        assert closed.value.code == CLOSE_NOT_AUTHORIZED
    assert any("bad-link" in rec.getMessage() and f"seat {speaker}" in rec.getMessage() for rec in caplog.records)
    assert all(tokens[speaker] not in rec.getMessage() for rec in caplog.records)


def test_commands_over_the_socket_are_answered_and_reach_every_screen(api: Api, table: Any) -> None:
    """A nomination sent over the speaker's socket: acknowledged on it, and the move reaches the other seats'
    and the spectators' sockets; sent again with the same id, answered as before and applied once."""
    game_id, game, tokens, _phone = table
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    speaker = game.seat
    other = speaker % 10 + 1
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws2, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(ws, tokens[speaker])
        hello(ws2, tokens[other])
        for w in (ws, ws2, watch):
            until(w, "state")
        message = {"type": "command", "game_id": game_id, "command": {"type": "nominate", "by": speaker,
                   "target": other}, "expected_seq": len(game.log), "command_id": "n1"}
        ws.send_text(json.dumps(message))
        seen = {m["type"]: m for m in (recv(ws), recv(ws))}  # the answer and the move, in either order
        assert seen["ack"] == {"type": "ack", "command_id": "n1", "replayed": False}  # the log's seq is not told
        assert seen["events"]["events"][-1]["type"] == "nominated"
        for w in (ws2, watch):
            moved = until(w, "events")
            assert moved["next_seq"] == len(game.log) + 1 and moved["events"][-1]["type"] == "nominated"
        ws.send_text(json.dumps(message))
        again = until(ws, "ack")
        assert again["replayed"] is True and "next_seq" not in again
        assert len(api.store.load(game_id).log) == len(game.log) + 1
        # legal for him no more (one nomination a speech): refused by the rules, with the clause
        ws.send_text(json.dumps({**message, "command_id": "n2", "expected_seq": len(game.log) + 1}))
        no = until(ws, "refused")
        assert no["status"] == 409 and no["command_id"] == "n2" and no["error"]["clause"], no
        assert len(api.store.load(game_id).log) == len(game.log) + 1
        quiet(ws)


def test_malformed_commands_are_refused(api: Api, table: Any, act: Act) -> None:
    game_id, game, tokens, _phone = table
    speaker = game.seat
    with unchanged(api, game_id):
        for command in ({"type": "nominate", "by": speaker, "target": "3"}, {"type": "fly"},
                        {"type": "nominate", "by": speaker, "target": 3, "secret": 1}):
            r = act(tokens[speaker], game_id, command, len(game.log), "m1")
            assert r.status_code == 422, r.text
        # a field beyond the command's (claiming a seat), an id too long, a seq that is not a number
        r = act(tokens[speaker], game_id, {"type": "advance"}, 0, "m2", seat=speaker)
        assert r.status_code == 422, r.text
        r = act(tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": 3}, len(game.log), "m" * 41)
        assert r.status_code == 422, r.text
        r = act(tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": 3}, "7", "m3")
        assert r.status_code == 422, r.text


def test_a_red_players_shot_is_refused(api: Api, table: Any, act: Act) -> None:
    game_id, game, tokens, _phone = table
    game = host_advance_to(api, game_id, "shooting")
    red = next(s for s in range(1, 11) if game.roles[s] in ("civilian", "sheriff"))
    with unchanged(api, game_id):
        r = act(tokens[red], game_id, {"type": "shoot", "shooter": red, "target": 1}, len(game.log), "s")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not-black"


def test_socket_messages_are_refused(api: Api, table: Any, caplog: pytest.LogCaptureFixture) -> None:
    game_id, game, tokens, _phone = table
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    speaker = game.seat
    with caplog.at_level(logging.WARNING, logger="sportmafia.online"), \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(ws, tokens[speaker])
        until(ws, "state")
        until(watch, "state")
        before = api.store.load(game_id).log
        forged = [
            {"type": "command", "command": {"type": "nominate", "by": speaker, "target": 2}, "expected_seq": len(game.log)},
            {"type": "hello", "token": tokens[speaker % 10 + 1]},  # becoming another seat mid-way
            {"type": "timer", "running": True, "left": 5, "total": 60, "key": "x"},
            {"type": "ping", "extra": 1},
        ]
        for message in forged:
            ws.send_text(json.dumps(message))
            if message["type"] == "command":  # a player's socket takes commands: this one lacks its ids
                answer = until(ws, "refused")
                assert answer["status"] == 422 and answer["error"]["code"] == "invalid", answer
                assert "game_id" in answer["error"]["en"] and "command_id" in answer["error"]["ru"]
            else:
                assert until(ws, "error")["error"]["code"] == "bad-message"
            watch.send_text(json.dumps(message))  # a spectator's socket takes nothing
            assert until(watch, "error")["error"]["code"] == "bad-message"
        ws.send_text("x" * 5000)
        assert until(ws, "error")["error"]["code"] == "bad-message"
        assert get_hub(api.client.app).timer(game_id) is None  # type: ignore[arg-type]
        assert api.store.load(game_id).log == before
        # the socket is still the speaker's, and still follows the game
        api.command(game_id, {"type": "advance"}, len(game.log), "after-forgery")
        moved = until(ws, "events")
        assert moved["view"]["viewer"] == speaker
        quiet(ws)
    refusals = [rec.getMessage() for rec in caplog.records if "refused" in rec.getMessage()]
    # the command's refusal, and each socket's first junk message (the rest are summed up in one line per socket
    # and minute: tests/web/test_socket_limits.py)
    assert len(refusals) >= 3
    assert all(t not in m for m in refusals for t in tokens.values())


def test_hello_is_required_first(api: Api, table: Any) -> None:
    game_id, _game, tokens, _phone = table
    for first in ({"type": "ping"}, {"type": "hello"}, {"type": "hello", "token": tokens[1], "game": game_id},
                  {"type": "hello", "token": tokens[1], "since": -1}):
        with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
            ws.send_text(json.dumps(first))
            assert recv_error(ws) == "invalid"
    with api.client.websocket_connect("/ws/play", headers={"origin": "http://evil.example"}) as ws:
        assert recv_error(ws) == "forbidden-origin"


def recv_error(ws: Any) -> str:
    message = until(ws, "error")
    code: str = message["error"]["code"]
    return code
