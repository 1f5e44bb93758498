"""Online play (docs/online.md): opening a table, seats' links (hashed, revocable, re-issued), joining with the
table code and the host's approval, the player's commands executed as his seat, the player's and the
spectator's sockets (state, then only new events; resuming from a seq), the delayed open stream, the pages,
the rate limit and the access log's token mask."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from starlette.websockets import WebSocketDisconnect

from sportmafia.engine import Advance, Game, feed_length, view, visible_events
from sportmafia.live import hub as live
from sportmafia.live.online import public_game_key
from sportmafia.live.socket import CLOSE_NOT_AUTHORIZED
from sportmafia.store import Store
from sportmafia.store import online as db
from sportmafia.store.models import GameEvent, SeatToken, utcnow
from sportmafia.web import create_app, online
from sportmafia.web.online.links import qr_svg
from sportmafia.web.security import LoginLimiter

from .conftest import Api, own_client
from .test_live import _wait_connected

ORIGIN = {"origin": "http://testserver"}


# ------------------------------------------------------------------------------------------ helpers
def recv(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The next JSON message, failing after ``timeout`` seconds (TestClient's own receive waits forever)."""
    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    out: dict[str, Any] = json.loads(message["text"])
    return out


def until(ws: Any, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of ``kind`` (keepalive pings, timers and a spectator's ``table`` skipped)."""
    while True:
        message = recv(ws, timeout)
        if message["type"] == kind:
            return message
        assert message["type"] in ("ping", "timer", "table"), message


def quiet(ws: Any, wait: float = 0.2) -> list[dict[str, Any]]:
    """Every message that arrives within ``wait`` seconds of each other."""
    out: list[dict[str, Any]] = []
    while True:
        async def get() -> Any:
            with anyio.move_on_after(wait):
                return await ws._send_rx.receive()
            return None

        message = ws.portal.call(get)
        if message is None:
            return out
        ws._raise_on_close(message)
        out.append(json.loads(message["text"]))


def open_table(api: Api, game_id: str) -> dict[str, Any]:
    r = api.post(f"/api/games/{game_id}/online")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def issue(api: Api, game_id: str, seat: int) -> str:
    r = api.post(f"/api/games/{game_id}/online/seats/{seat}/link")
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def player_post(client: TestClient, token: str, game_id: str, command: dict[str, Any], expected_seq: int,
                command_id: str, **extra: Any) -> Any:
    return client.post("/api/play/commands", headers={online.TOKEN_HEADER: token},
                       json={"game_id": game_id, "command": command, "expected_seq": expected_seq,
                             "command_id": command_id, **extra})


def hello(ws: Any, token: str, since: int = 0) -> None:
    ws.send_text(json.dumps({"type": "hello", "token": token, "since": since}))


def stranger(api: Api) -> TestClient:
    """A client of the same app with no cookies at all (a player's phone)."""
    return own_client(api.client)


def dealt_game(api: Api, seed: int = 1) -> tuple[str, Game]:
    """A club game for 10, dealt and played to day 1's first speech."""
    game_id = api.new_game()
    rng = random.Random(seed)
    roles = ["civilian"] * 6 + ["sheriff", "don", "mafia", "mafia"]
    rng.shuffle(roles)
    seq = 0
    for i, cmd in enumerate([{"type": "deal", "roles": roles}]):
        r = api.command(game_id, cmd, seq, f"setup-{i}")
        assert r.status_code == 200, r.text
        seq = r.json()["next_seq"]
    while api.store.load(game_id).step != "speech":
        r = api.command(game_id, {"type": "advance"} if api.store.load(game_id).step != "first_speaker"
                        else {"type": "draw_first_speaker", "seat": 1}, seq, f"adv-{seq}")
        assert r.status_code == 200, r.text
        seq = r.json()["next_seq"]
    return game_id, api.store.load(game_id)


def host_advance_to(api: Api, game_id: str, step: str, limit: int = 60) -> Game:
    for _ in range(limit):
        game = api.store.load(game_id)
        if game.step == step:
            return game
        r = api.command(game_id, {"type": "advance"}, len(game.log), f"to-{step}-{len(game.log)}")
        assert r.status_code == 200, r.text
    raise AssertionError(f"never reached {step}")


# ------------------------------------------------------------------------------------------ the table
def test_open_table_and_links(api: Api) -> None:
    game_id = api.new_game()
    assert stranger(api).post(f"/api/games/{game_id}/online").status_code == 401
    assert api.get(f"/api/games/{game_id}/online").json()["error"]["code"] == "no-table"
    table = open_table(api, game_id)
    assert len(table["code"]) == db.CODE_LENGTH and set(table["code"]) <= set(db.CODE_ALPHABET)
    assert open_table(api, game_id)["code"] == table["code"]  # opening again changes nothing
    assert [s["linked"] for s in table["seats"]] == [False] * 10
    assert table["join_url"].endswith(f"/join/{table['code']}")

    r = api.post(f"/api/games/{game_id}/online/seats/3/link")
    assert r.status_code == 200
    assert "qr_svg" not in r.json()  # a remote player gets the URL; the QR code is drawn only when asked for
    r = api.post(f"/api/games/{game_id}/online/seats/3/link?qr=true")  # re-issued, with the QR code to show
    assert r.status_code == 200 and r.json()["revoked"] == 1
    link = r.json()
    token = link["token"]
    assert len(token) >= 32 and link["url"].endswith(f"/play/{token}")
    assert link["qr_svg"].startswith("<svg") and "path" in link["qr_svg"]
    assert 'xmlns="http://www.w3.org/2000/svg"' in link["qr_svg"]  # renders as an <img> too
    assert link["qr_svg"] == qr_svg(link["url"])  # the code of this very link
    assert api.get(f"/api/games/{game_id}/online").json()["seats"][2]["linked"] is True
    assert api.post(f"/api/games/{game_id}/online/seats/11/link").status_code == 422
    assert api.post(f"/api/games/{game_id}/online/seats/0/link").status_code == 422

    # stored only hashed: neither the token nor any part of it is in the database
    with api.store._read() as s:
        hashes = list(s.scalars(select(SeatToken.token_hash)))
    assert db.hash_secret(token) in hashes and len(hashes) == 2  # the revoked first link and this one
    assert not any(token in h or link["url"] in h for h in hashes)

    me = api.client.get("/api/play/me", headers={online.TOKEN_HEADER: token})
    assert me.status_code == 200 and me.json()["seat"] == 3 and me.json()["game_id"] == game_id

    # the join QR code
    qr = api.get(f"/api/games/{game_id}/online/join-qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert qr.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')

    # another club's game: not found
    other = api.store.create_game(api.store.create_club("Другой"), "club", 10)
    assert api.post(f"/api/games/{other}/online").status_code == 404


def test_every_seats_link_in_one_request(api: Api) -> None:
    """``POST .../online/links``: the seats without a live link get one each, in one transaction; listed seats
    get new ones (their old links and sockets end at once); a bad seat refuses the whole request."""
    game_id = api.new_game()
    assert api.post(f"/api/games/{game_id}/online/links").json()["error"]["code"] == "no-table"
    open_table(api, game_id)
    first = issue(api, game_id, 4)
    r = api.post(f"/api/games/{game_id}/online/links")
    assert r.status_code == 200, r.text
    links = r.json()["links"]
    assert [x["seat"] for x in links] == [1, 2, 3, 5, 6, 7, 8, 9, 10] and r.json()["revoked"] == 0
    assert all("qr_svg" not in x for x in links)
    assert len({x["token"] for x in links} | {first}) == 10
    for x in links:
        me = api.client.get("/api/play/me", headers={online.TOKEN_HEADER: x["token"]}).json()
        assert me["seat"] == x["seat"] and me["game_id"] == game_id and x["url"].endswith(f"/play/{x['token']}")
    assert all(s["linked"] for s in api.get(f"/api/games/{game_id}/online").json()["seats"])
    assert api.post(f"/api/games/{game_id}/online/links").json()["links"] == []  # every seat has one

    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, first)
        until(ws, "state")
        r = api.post(f"/api/games/{game_id}/online/links?qr=true", {"seats": [4, 2]})
        assert r.status_code == 200 and r.json()["revoked"] == 2
        again = r.json()["links"]
        assert [x["seat"] for x in again] == [2, 4]
        assert all(x["qr_svg"] == qr_svg(x["url"]) for x in again)
        assert until(ws, "error")["error"]["code"] == "revoked"  # seat 4's old socket ends at once
        with pytest.raises(WebSocketDisconnect):
            recv(ws)
    for old in (first, links[1]["token"]):
        assert api.client.get("/api/play/me", headers={online.TOKEN_HEADER: old}).status_code == 401
    with api.store._read() as s:
        before = s.scalar(select(func.count()).select_from(SeatToken))
    for bad in ({"seats": [3, 11]}, {"seats": [0]}, {"seats": ["2"]}, {"seats": [1], "all": True}):
        assert api.post(f"/api/games/{game_id}/online/links", bad).status_code == 422, bad
    with api.store._read() as s:
        assert s.scalar(select(func.count()).select_from(SeatToken)) == before  # nothing issued
    assert stranger(api).post(f"/api/games/{game_id}/online/links").status_code == 401


def test_only_hosts_and_admins_run_the_table(api: Api) -> None:
    from sportmafia.web.security import hash_password

    game_id = api.new_game()
    api.store.create_user(api.club_id, "judy", hash_password("judge password!"), "judge")
    judge = Api(api.client, api.store, api.club_id)
    open_table(api, game_id)
    api.post("/api/logout")
    judge.login("judy", "judge password!")
    r = judge.post(f"/api/games/{game_id}/online/seats/1/link")
    assert r.status_code == 403 and r.json()["error"]["ru"]
    assert judge.post(f"/api/games/{game_id}/online/links").status_code == 403
    assert judge.get(f"/api/games/{game_id}/online").status_code == 200
    r = judge.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 5})
    assert r.status_code == 200 and "/stream/" in r.json()["url"]


def test_revoke_and_reissue_end_the_old_link_and_its_socket(api: Api) -> None:
    game_id = api.new_game()
    open_table(api, game_id)
    old = issue(api, game_id, 2)
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, old)
        first = until(ws, "state")
        assert first["view"]["viewer"] == 2
        new = issue(api, game_id, 2)  # the player changed his phone
        assert new != old
        error = until(ws, "error")
        assert error["error"]["code"] == "revoked"
        with pytest.raises(WebSocketDisconnect) as exc:
            recv(ws)
        assert exc.value.code == CLOSE_NOT_AUTHORIZED
    assert api.client.get("/api/play/me", headers={online.TOKEN_HEADER: old}).status_code == 401
    assert api.client.get("/api/play/me", headers={online.TOKEN_HEADER: new}).status_code == 200
    assert api.client.get(f"/play/{old}").status_code == 404
    assert api.client.get(f"/play/{new}").status_code == 200

    # revoking: the link ends, the socket closes
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, new)
        until(ws, "state")
        r = api.client.delete(f"/api/games/{game_id}/online/seats/2/link", headers={"X-CSRF-Token": api.csrf or ""})
        assert r.status_code == 200 and r.json()["revoked"] == 1
        assert until(ws, "error")["error"]["code"] == "revoked"
    assert api.client.get("/api/play/me", headers={online.TOKEN_HEADER: new}).status_code == 401
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, new)
        assert recv(ws)["error"]["code"] == "bad-link"
        with pytest.raises(WebSocketDisconnect) as exc:
            recv(ws)
        assert exc.value.code == CLOSE_NOT_AUTHORIZED


@contextmanager
def two_processes(api: Api, second_store: Store, redis_url: str,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, TestClient, Api]]:
    """Two app instances on the same database, linked by Redis (two server processes): their clients, each
    hub connected to Redis, and the admin logged in on the first."""
    monkeypatch.setenv(live.REDIS_ENV, redis_url)
    app1 = create_app(api.store, secret_key="test-secret")
    app2 = create_app(second_store, secret_key="test-secret")
    with TestClient(app1) as c1, TestClient(app2) as c2:
        for app, client in ((app1, c1), (app2, c2)):
            client.portal.call(_wait_connected, live.get_hub(app))  # type: ignore[attr-defined]
        host = Api(c1, api.store, api.club_id)
        host.login()
        yield c1, c2, host


def test_a_link_revoked_on_another_server_process_ends_its_socket_at_once(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two app instances linked by Redis: the host revokes a seat's link on one; the player's socket, open on
    the other, is told and closed within seconds (not at its 20 s keepalive)."""
    game_id = api.new_game()
    with two_processes(api, second_store, redis_url, monkeypatch) as (c1, c2, host):
        open_table(host, game_id)
        token = issue(host, game_id, 4)
        with c2.websocket_connect("/ws/play", headers=ORIGIN) as ws:
            hello(ws, token)
            assert until(ws, "state")["view"]["viewer"] == 4
            r = c1.delete(f"/api/games/{game_id}/online/seats/4/link", headers={"X-CSRF-Token": host.csrf or ""})
            assert r.status_code == 200 and r.json()["revoked"] == 1
            assert until(ws, "error", timeout=3)["error"]["code"] == "revoked"
            with pytest.raises(WebSocketDisconnect) as exc:
                recv(ws, timeout=3)
            assert exc.value.code == CLOSE_NOT_AUTHORIZED


def test_wrong_tokens_are_rate_limited(api: Api) -> None:
    api.client.app.state.online_limiter = LoginLimiter(max_failures=3, window=60)  # type: ignore[attr-defined]
    game_id = api.new_game()
    open_table(api, game_id)
    good = issue(api, game_id, 1)
    for i in range(3):
        r = api.client.get("/api/play/me", headers={online.TOKEN_HEADER: f"guess-{i}"})
        assert r.status_code == 401
    r = api.client.get("/api/play/me", headers={online.TOKEN_HEADER: good})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0 and r.json()["error"]["ru"]
    assert api.client.get(f"/play/{good}").status_code == 429
    assert api.client.get("/api/join/ABCDEF").status_code == 429
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        assert recv(ws)["error"]["code"] == "too-many-attempts"
    # another address is not blocked
    lim: LoginLimiter = api.client.app.state.online_limiter  # type: ignore[attr-defined]
    assert lim.retry_after("online:10.0.0.9") is None


def test_wrong_codes_are_rate_limited(api: Api) -> None:
    api.client.app.state.online_limiter = LoginLimiter(max_failures=4, window=60)  # type: ignore[attr-defined]
    for code in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD"):
        assert api.client.get(f"/api/join/{code}").status_code == 404
    assert api.client.get("/api/join/EEEEEE").status_code == 429


def test_tokens_never_reach_the_access_log(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    online.install_log_filter()
    game_id = api.new_game()
    open_table(api, game_id)
    token = issue(api, game_id, 4)
    access = logging.getLogger("uvicorn.access")
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/play/{token}", "1.1", 200)
        access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/stream/{token}?x=1", "1.1", 200)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert token not in text and "/play/***" in text and "/stream/***" in text
    assert online.mask(f"/play/{token}") == "/play/***"
    assert online.mask("/watch/ABCDEF") == "/watch/ABCDEF"

    # the app's own refusals never print the token either
    with caplog.at_level(logging.INFO, logger="sportmafia.online"):
        api.client.get("/api/play/me", headers={online.TOKEN_HEADER: token + "x"})
        player_post(stranger(api), token, "other-game", {"type": "advance"}, 0, "c1")
    assert caplog.records and all(token not in r.getMessage() for r in caplog.records)
    page = api.client.get(f"/play/{token}")
    assert page.headers["referrer-policy"] == "no-referrer"


# ------------------------------------------------------------------------------------------ joining
def test_join_with_the_code_and_approval(api: Api) -> None:
    phone = stranger(api)
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    issue(api, game_id, 1)
    info = phone.get(f"/api/join/{code.lower()}").json()
    assert info["free"] == list(range(2, 11)) and info["players"] == 10
    assert phone.post(f"/api/join/{code}", json={"seat": 1}).status_code == 409  # linked already
    assert phone.post(f"/api/join/{code}", json={"seat": 12}).status_code == 422
    r = phone.post(f"/api/join/{code}", json={"seat": 5, "name": "Лиса"})
    assert r.status_code == 200
    secret = r.json()["secret"]
    again = phone.post(f"/api/join/{code}", json={"seat": 5})
    assert again.status_code == 409 and again.json()["error"]["code"] == "pending"  # one pending request an address
    assert 5 in phone.get(f"/api/join/{code}").json()["free"]  # a pending request holds no seat
    pending = api.get(f"/api/games/{game_id}/online").json()["requests"]
    assert [(p["seat"], p["name"]) for p in pending] == [(5, "Лиса")]

    status = phone.post("/api/join/claim", headers={online.JOIN_HEADER: secret}).json()
    assert status["status"] == "pending" and "token" not in status
    r = api.post(f"/api/games/{game_id}/online/requests/{pending[0]['id']}", {"approve": True})
    assert r.status_code == 200 and r.json()["status"] == "approved"
    assert api.post(f"/api/games/{game_id}/online/requests/{pending[0]['id']}", {"approve": False}).status_code == 409
    got = phone.post("/api/join/claim", headers={online.JOIN_HEADER: secret}).json()
    assert got["status"] == "claimed" and got["url"] == f"/play/{got['token']}"
    again = phone.post("/api/join/claim", headers={online.JOIN_HEADER: secret}).json()
    assert "token" not in again  # given once
    me = phone.get("/api/play/me", headers={online.TOKEN_HEADER: got["token"]}).json()
    assert me["seat"] == 5
    assert phone.post("/api/join/claim", headers={online.JOIN_HEADER: "nope"}).status_code == 404

    # a denied request gives nothing, and frees the seat again
    r = phone.post(f"/api/join/{code}", json={"seat": 6})
    secret6 = r.json()["secret"]
    rid = api.get(f"/api/games/{game_id}/online").json()["requests"][0]["id"]
    api.post(f"/api/games/{game_id}/online/requests/{rid}", {"approve": False})
    assert phone.post("/api/join/claim", headers={online.JOIN_HEADER: secret6}).json()["status"] == "denied"
    assert 6 in phone.get(f"/api/join/{code}").json()["free"]


def test_players_and_spectators_sockets_skip_the_session_and_csrf_layers(api: Api) -> None:
    """Their sockets go straight to their handlers (online.SocketShortcut); the host's socket, which needs the
    session, still passes through every layer."""
    game_id, _game = dealt_game(api)
    open_table(api, game_id)
    token = issue(api, game_id, 1)
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    layer: Any = api.client.app.middleware_stack  # type: ignore[attr-defined]
    while not isinstance(layer, online.SocketShortcut):
        layer = layer.app
    inner, seen = layer.app, []

    async def spy(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope["type"], scope["path"]))
        await inner(scope, receive, send)

    layer.app = spy
    try:
        with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
                api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
            hello(ws, token)
            assert until(ws, "state")["view"]["you"]["seat"] == 1
            assert until(watch, "state")["view"]["viewer"] == "spectator"
        assert seen == []
        with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host:
            assert until(host, "state")["view"]["viewer"] == "host"
        assert seen == [("websocket", f"/ws/games/{game_id}")]
        # not a table code: the ordinary routes answer (none matches)
        with pytest.raises(WebSocketDisconnect), \
                api.client.websocket_connect(f"/ws/watch/{code}/more", headers=ORIGIN) as other:
            other.receive_text()
        assert seen[-1] == ("websocket", f"/ws/watch/{code}/more")
    finally:
        layer.app = inner


# ------------------------------------------------------------------------------------------ playing
def test_player_acts_as_his_seat_and_sockets_follow(api: Api) -> None:
    game_id, game = dealt_game(api)
    open_table(api, game_id)
    tokens = {s: issue(api, game_id, s) for s in range(1, 11)}
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    phone = stranger(api)
    speaker = game.seat
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(ws, tokens[speaker])
        state = until(ws, "state")
        assert state["view"] == view(game, speaker)
        assert state["events"] == visible_events(game, speaker, 0)
        assert {"type": "nominate", "by": speaker, "target": 3, "also": []} in state["legal"] or speaker == 3
        spect = until(watch, "state")
        assert spect["view"] == view(game, "spectator") and "legal" not in spect
        target = 4 if speaker != 4 else 5
        r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                        state["next_seq"], "n1")
        assert r.status_code == 200, r.text
        assert r.json() == {"replayed": False}  # not the log's next seq: it counts what the player may not see
        moved = until(ws, "events")
        assert moved["since"] == state["next_seq"] and [e["seq"] for e in moved["events"]] == [state["next_seq"]]
        assert moved["events"][0] == {"seq": state["next_seq"], "type": "nominated", "by": speaker,
                                      "target": target, "named": []}
        assert until(watch, "events")["events"] == moved["events"]
        # the same command id again: answered, not applied twice, nothing new sent
        r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                        state["next_seq"], "n1")
        assert r.json()["replayed"] is True
        assert quiet(ws) == [] and api.store.game(game_id).next_seq == len(game.log) + 1
    # a player cannot use the host's command ids (his are in their own namespace)
    r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                    state["next_seq"] + 1, "setup-0")
    assert r.status_code == 409  # nominated already; nothing replayed from the host's deal
    assert "events" not in r.json()


def test_resume_from_a_seq_gets_only_what_was_missed(api: Api) -> None:
    game_id, game = dealt_game(api, seed=3)
    open_table(api, game_id)
    token = issue(api, game_id, 7)
    since = feed_length(game, 7)
    for _ in range(3):
        g = api.store.load(game_id)
        api.command(game_id, {"type": "advance"}, len(g.log), f"a-{len(g.log)}")
    now = api.store.load(game_id)
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token, since)
        state = until(ws, "state")
        assert state["since"] == since and state["next_seq"] == feed_length(now, 7)
        assert state["events"] == visible_events(now, 7, since)
        assert [e["seq"] for e in state["events"]] == sorted({e["seq"] for e in state["events"]})
        assert all(e["seq"] >= since for e in state["events"])
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token, feed_length(now, 7) + 5)
        assert recv(ws)["error"]["code"] == "invalid"


def test_night_checks_reach_the_checker_alone(api: Api) -> None:
    game_id, game = dealt_game(api, seed=5)
    open_table(api, game_id)
    sheriff = game.seat_of("sheriff")
    don = game.seat_of("don")
    tokens = {s: issue(api, game_id, s) for s in (sheriff, don)}
    other = next(s for s in range(1, 11) if s not in (sheriff, don))
    tokens[other] = issue(api, game_id, other)
    phone = stranger(api)
    game = host_advance_to(api, game_id, "shooting")
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws_s, \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws_o:
        hello(ws_s, tokens[sheriff])
        hello(ws_o, tokens[other])
        until(ws_s, "state")
        until(ws_o, "state")
        game = host_advance_to(api, game_id, "check_sheriff")
        quiet(ws_s)
        quiet(ws_o)
        target = don
        r = player_post(phone, tokens[sheriff], game_id, {"type": "check", "checker": sheriff, "target": target},
                        len(game.log), "chk")
        assert r.status_code == 200, r.text
        mine = until(ws_s, "events")
        assert mine["view"]["you"]["checks"] == [{"night": 1, "checker": sheriff, "target": don, "found": True}]
        theirs = quiet(ws_o)
        for m in theirs:
            assert "checked" not in json.dumps(m) and m["view"]["you"]["checks"] == []


# ------------------------------------------------------------------------------------------ the open stream
def test_open_stream_is_delayed(api: Api) -> None:
    game_id, game = dealt_game(api, seed=2)
    open_table(api, game_id)
    r = api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 10})
    assert r.status_code == 200
    token = r.json()["token"]
    assert api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 0}).status_code == 422
    headers = {online.STREAM_HEADER: token}
    body = api.client.get("/api/stream/state", headers=headers).json()
    assert body["next_seq"] == 0 and body["view"]["step"] == "deal"  # nothing is 10 minutes old
    # age the first events (the deal) by an hour: the stream shows the game as it stood then
    with api.store._write.begin() as s:
        s.execute(update(GameEvent).where(GameEvent.game_id == game_id, GameEvent.seq < 2)
                  .values(created_at=utcnow() - timedelta(hours=1)))
    body = api.client.get("/api/stream/state", headers=headers).json()
    past = Game.from_events(game.rules, game.n, game.log[:2], game.names)
    assert body["next_seq"] == 2 and body["view"] == view(past, "host")
    assert all(s["role"] for s in body["view"]["seats"])  # roles, but late
    assert api.client.get("/api/stream/state", headers={online.STREAM_HEADER: "x"}).status_code == 401
    page = api.client.get(f"/stream/{token}")
    assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
    # a new link ends the old one; closing ends both
    token2 = api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 5}).json()["token"]
    assert api.client.get("/api/stream/state", headers=headers).status_code == 401
    api.client.delete(f"/api/games/{game_id}/online/stream", headers={"X-CSRF-Token": api.csrf or ""})
    assert api.client.get("/api/stream/state", headers={online.STREAM_HEADER: token2}).status_code == 401


# ------------------------------------------------------------------------------------------ pages
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_pages(api: Api, lang: str) -> None:
    api.client.cookies.set("lang", lang)
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    token = issue(api, game_id, 1)
    for path in (f"/play/{token}", f"/join/{code}", f"/watch/{code}", f"/overlay/{code}", f"/games/{game_id}/online"):
        r = api.client.get(path)
        assert r.status_code == 200, (path, r.text[:300])
        assert f'lang="{lang}"' in r.text
        assert token not in r.text, path  # the player's page reads its token from its own address
    assert api.client.get("/watch/ZZZZZZ").status_code == 404
    assert api.client.get("/play/not-a-token").status_code == 404


def test_store_functions(store: Store) -> None:
    club = store.create_club("c")
    game_id = store.create_game(club, "club", 10)
    with pytest.raises(db.OnlineRefused):
        db.issue_seat(store, game_id, 1)
    db.open_table(store, game_id, None)
    token, auth, revoked = db.issue_seat(store, game_id, 1)
    assert revoked == [] and db.resolve_token(store, token) == auth
    token2, auth2, revoked2 = db.issue_seat(store, game_id, 1)
    assert revoked2 == [auth.token_id] and db.resolve_token(store, token) is None
    assert db.live_token_ids(store, game_id) == {auth2.token_id}
    assert db.revoke_seat(store, game_id, 1) == [auth2.token_id] and db.resolve_token(store, token2) is None
    assert db.linked_seats(store, game_id) == {}
    with pytest.raises(db.OnlineRefused):
        db.issue_seat(store, game_id, 11)


def test_hands_raised_at_once_all_count(api: Api) -> None:
    """Players who vote on the same seq (the same candidate) all get their vote in; a vote decided on an
    earlier candidate is refused as stale."""
    from concurrent.futures import ThreadPoolExecutor

    game_id, game = dealt_game(api, seed=4)
    open_table(api, game_id)
    tokens = {s: issue(api, game_id, s) for s in range(1, 11)}
    phone = stranger(api)
    # two nominations, then to the vote
    for _ in range(2):
        g = api.store.load(game_id)
        target = next(t for t in range(1, 11) if t != g.seat and t not in g.candidates)
        assert player_post(phone, tokens[g.seat], game_id, {"type": "nominate", "by": g.seat, "target": target},
                           len(g.log), f"n{g.seat}").status_code == 200
        api.command(game_id, {"type": "advance"}, len(g.log) + 1, f"adv-n{g.seat}")
    game = host_advance_to(api, game_id, "voting")
    cand = game.seat
    seq = len(game.log)
    voters = [s for s in range(1, 11) if s != cand][:6]

    def vote(s: int) -> Any:
        return player_post(phone, tokens[s], game_id, {"type": "vote", "voter": s, "candidate": cand}, seq, f"v{s}")

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(vote, voters))
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    now = api.store.load(game_id)
    assert sorted(v for v, c in now.votes.items() if c == cand) == sorted(voters)
    # the host closes this candidate: a vote decided on it is stale now
    api.command(game_id, {"type": "advance"}, len(now.log), "close-1")
    late = next(s for s in range(1, 11) if s not in voters and s != cand)
    r = player_post(phone, tokens[late], game_id, {"type": "vote", "voter": late, "candidate": cand}, seq, "late")
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale"


def test_the_hosts_timer_reaches_players_and_spectators(api: Api) -> None:
    game_id, _game = dealt_game(api, seed=6)
    code = open_table(api, game_id)["code"]
    token = issue(api, game_id, 2)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host, \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        until(host, "state")
        hello(ws, token)
        until(ws, "state")
        until(watch, "state")
        host.send_text(json.dumps({"type": "timer", "running": True, "left": 42, "total": 60, "key": "k"}))
        for sock in (ws, watch):
            while True:
                m = recv(sock)
                if m["type"] == "timer":
                    break
            assert (m["running"], m["left"], m["total"]) == (True, 42, 60) and "now" in m and "at" in m
    # a player who connects later gets the timer as it stands
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token)
        until(ws, "state")
        m = recv(ws)
        assert m["type"] == "timer" and m["left"] == 42


def test_the_hub_keeps_the_highest_head_it_was_told_of() -> None:
    hub = live.Hub()
    assert hub.known_head("g") == 0
    hub.publish("g", 5)
    hub.publish("g", 3)  # an older notice (through Redis, late) does not lower it
    assert hub.known_head("g") == 5
    hub._from_redis(json.dumps({"origin": "another process", "game": "g", "next_seq": 9}))
    assert hub.known_head("g") == 9 and hub.known_head("other") == 0


def test_a_move_between_the_links_read_and_the_subscription_is_in_the_first_state(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket reads its link (and the game's head) before it subscribes: a move made in between is neither
    in that head nor notified to it; the hub's known head puts it in the socket's first message."""
    game_id, game = dealt_game(api, seed=5)
    open_table(api, game_id)
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    tokens = {s: issue(api, game_id, s) for s in (1, 2)}
    real = db.resolve_seat
    moved: list[int] = []

    def read_then_move(store: Any, token: str) -> Any:
        out = real(store, token)
        if not moved:  # the host moves on right after the read, before the socket subscribes (as his command
            # route does it: the append, then the hub told; the read may run on the app's loop, so not by HTTP)
            result = store.append(game_id, Advance(), expected_seq=len(game.log), command_id="in-between")
            live.get_hub(api.client.app).publish(game_id, result.next_seq)  # type: ignore[arg-type]
            moved.append(result.next_seq)
        return out
    monkeypatch.setattr(db, "resolve_seat", read_then_move)
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert until(watch, "state")["next_seq"] == len(game.log)  # a socket of the game: its feed is built
        with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
            hello(ws, tokens[1])
            first = until(ws, "state")
            assert moved and first["next_seq"] == moved[0] == len(api.store.load(game_id).log)
            assert first["events"][-1]["seq"] == moved[0] - 1
        assert until(watch, "events")["next_seq"] == moved[0]


def test_on_sqlite_a_new_games_set_up_and_its_sockets_reads_run_on_the_event_loop(
        api: Api, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite: a new game's set-up requests (the game, the online table, every seat's link), the seat's read when
    a player's socket opens, the table's when a spectator's does, and the first read of the game for its
    messages all run on the event loop (each a fraction of a millisecond of local work; a worker thread's
    hand-over and the fight for the interpreter's lock cost more). PostgreSQL: in worker threads."""
    sqlite = db_url.startswith("sqlite")
    seen: dict[str, list[bool]] = {}

    def spy(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
                seen.setdefault(name, []).append(True)
            except RuntimeError:
                seen.setdefault(name, []).append(False)
            return real(*args, **kwargs)
        return call
    store = api.store
    monkeypatch.setattr(store, "create_game", spy("game", store.create_game))
    monkeypatch.setattr(store, "load", spy("load", store.load))
    for name in ("open_table", "issue_seats", "resolve_seat", "table_by_code"):
        monkeypatch.setattr(db, name, spy(name, getattr(db, name)))
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    links = api.post(f"/api/games/{game_id}/online/links").json()["links"]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert until(watch, "state")["next_seq"] == 0
        with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
            hello(ws, links[0]["token"])
            assert until(ws, "state")["view"]["viewer"] == links[0]["seat"]
    assert seen == {"game": [sqlite], "open_table": [sqlite], "issue_seats": [sqlite], "table_by_code": [sqlite],
                    "load": [sqlite], "resolve_seat": [sqlite]}, seen


# ------------------------------------------------------------------------------------------ the table's next game
def end_game(api: Api, game_id: str) -> None:
    """The judge ends the game: he decides the result (A.judge)."""
    seq = len(api.store.load(game_id).log)
    r = api.command(game_id, {"type": "override", "winner": "red", "reason": "test"}, seq, f"end-{game_id}")
    assert r.status_code == 200, r.text
    assert api.store.game(game_id).status == "over"


def test_the_table_code_passes_to_the_next_game_and_its_spectators_follow(api: Api) -> None:
    """The next game at a table takes the table's code (``POST .../online {"code"}``): its join page, spectators'
    page and overlay stay where they were, and a spectator's open socket goes on with the new game (``table``,
    then the new game's ``state`` from its start); a reconnecting page whose seq is of the previous game gets
    the new one from its start. The previous game gets a new code. Refused while the game that has the code is
    being played, and for a code of no table of the club."""
    first, game = dealt_game(api, seed=7)
    code = open_table(api, first)["code"]
    second = api.new_game()
    with api.client.websocket_connect(f"/ws/watch/{code.lower()}", headers=ORIGIN) as watch:
        table = recv(watch)
        assert table == {"type": "table", "code": code, "game": public_game_key(first)}
        assert until(watch, "state")["next_seq"] == len(game.log)
        r = api.post(f"/api/games/{second}/online", {"code": code})
        assert r.status_code == 409 and r.json()["error"]["code"] == "in-play", r.text
        assert {"en", "ru"} <= set(r.json()["error"]) and api.get(f"/api/games/{second}/online").status_code == 404
        assert quiet(watch) == []  # nothing changed for the spectator
        end_game(api, first)
        last = until(watch, "events")
        assert last["next_seq"] == len(api.store.load(first).log) and last["view"]["over"]
        moved = api.post(f"/api/games/{second}/online", {"code": code.lower()})
        assert moved.status_code == 200, moved.text
        assert moved.json()["code"] == code and moved.json()["game_id"] == second
        new_code = api.get(f"/api/games/{first}/online").json()["code"]
        assert new_code != code and len(new_code) == len(code)
        assert recv(watch) == {"type": "table", "code": code, "game": public_game_key(second)}
        state = recv(watch)
        assert state["type"] == "state" and state["since"] == 0 and state["next_seq"] == 0
        assert state["view"]["viewer"] == "spectator" and [s["name"] for s in state["view"]["seats"]] == list(
            api.store.game(second).names)
        roles = ["civilian"] * 6 + ["sheriff", "don", "mafia", "mafia"]
        assert api.command(second, {"type": "deal", "roles": roles}, 0, "deal-2").status_code == 200
        events = until(watch, "events")
        assert events["since"] == 0 and events["next_seq"] == len(api.store.load(second).log)
        assert "role" not in json.dumps(events["events"][0]) and all(s.get("role") is None
                                                                     for s in events["view"]["seats"])
        held = events["next_seq"]
    assert api.post(f"/api/games/{second}/online", {"code": code}).json()["code"] == code  # its own: unchanged
    # a page reconnecting: with a seq of the previous game (its key) it gets the new game from the start ...
    with api.client.websocket_connect(
            f"/ws/watch/{code}?since=300&game={public_game_key(first)}", headers=ORIGIN) as watch:
        assert recv(watch)["game"] == public_game_key(second)
        state = recv(watch)
        assert (state["type"], state["since"], state["next_seq"]) == ("state", 0, held)
    # ... and with a seq of this game, only what it missed
    with api.client.websocket_connect(
            f"/ws/watch/{code}?since={held}&game={public_game_key(second)}", headers=ORIGIN) as watch:
        recv(watch)
        state = recv(watch)
        assert (state["since"], state["events"]) == (held, [])
    # the previous game is watched by its new code
    with api.client.websocket_connect(f"/ws/watch/{new_code}", headers=ORIGIN) as watch:
        assert recv(watch)["game"] == public_game_key(first)
    for bad in ("ZZZZZZ", new_code + "X"):
        r = api.post(f"/api/games/{second}/online", {"code": bad})
        assert r.status_code == 404 and r.json()["error"]["code"] == "no-table", r.text
    assert api.get(f"/api/games/{second}/online").json()["code"] == code


def test_only_a_code_of_the_hosts_own_club_passes(api: Api) -> None:
    first = api.new_game()
    code = open_table(api, first)["code"]
    other_club = api.store.create_club("Another club")
    game = api.store.create_game(other_club, "club", 10)
    with pytest.raises(db.OnlineRefused) as refused:
        db.take_code(api.store, game, code, None)
    assert refused.value.code == "no-table" and db.table(api.store, first).code == code  # type: ignore[union-attr]
    assert db.table(api.store, game) is None


def test_a_code_passed_on_between_its_read_and_the_subscription_is_followed(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator's socket reads the code's game, then subscribes: a pass made in between is in the hub's moves
    (told before the subscription), and the socket goes to the new game at once."""
    first = api.new_game()
    code = open_table(api, first)["code"]
    second = api.new_game()
    real = db.table_by_code
    passed: list[str] = []

    def read_then_pass(store: Any, wanted: str) -> Any:
        out = real(store, wanted)
        if not passed:
            db.take_code(store, second, code, None)
            live.get_hub(api.client.app).publish_code_moved(first, code, second)  # type: ignore[arg-type]
            passed.append(second)
        return out
    monkeypatch.setattr(db, "table_by_code", read_then_pass)
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert passed and recv(watch)["game"] == public_game_key(second)
        assert until(watch, "state")["next_seq"] == 0


def test_a_code_passed_on_by_another_process_is_followed(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server process passes the code: told through Redis, the spectators here follow at once; without
    Redis to tell them, at their keepalive (the code read again, once for the sockets of a table)."""
    monkeypatch.setattr(live, "PING_SECONDS", 0.3)
    first, second, third = api.new_game(), api.new_game(), api.new_game()
    code = open_table(api, first)["code"]
    hub = live.get_hub(api.client.app)  # type: ignore[arg-type]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        until(watch, "state")
        db.take_code(api.store, second, code, None)  # as another process does it: this one is not told
        hub._from_redis(json.dumps({"origin": "another process", "game": first, "code": code, "code_to": second}))
        assert recv(watch)["game"] == public_game_key(second)
        until(watch, "state")
        db.take_code(api.store, third, code, None)  # and nothing through Redis: the keepalive finds it
        deadline = time.monotonic() + 5
        m = recv(watch)
        while m["type"] == "ping" and time.monotonic() < deadline:
            m = recv(watch)
        assert m["game"] == public_game_key(third)
        assert until(watch, "state")["next_seq"] == 0
