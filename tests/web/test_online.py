"""Online play (docs/online.md): opening a table, seats' links (hashed, revocable, re-issued), joining with the
table code and the host's approval, the pages, the rate limit and the access log's token mask; the helpers of
the online tests. A player's side is in test_online_play.py, the spectators' following the table code and the
delayed open stream in test_online_stream.py."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from sportmafia.engine import BLACK_ROLES, Game, rule_values
from sportmafia.engine.state import SPEECH_STEPS
from sportmafia.live import hub as live
from sportmafia.live.socket import CLOSE_NOT_AUTHORIZED
from sportmafia.store import Store
from sportmafia.store import online as db
from sportmafia.store.models import SeatToken
from sportmafia.web import create_app, online
from sportmafia.web.online.links import qr_svg
from sportmafia.web.security import LoginLimiter

from .conftest import Api, own_client
from .seeded_draws import seeded_server
from .test_live import _wait_connected

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

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
    # before it is opened: its state, not an error (the console asks at every keepalive: no 404 in its log)
    closed = api.get(f"/api/games/{game_id}/online")
    assert closed.status_code == 200 and closed.json() == {"game_id": game_id, "open": False}, closed.text
    table = open_table(api, game_id)
    assert table["open"] is True and table["join_form_url"].endswith("/join")
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


def test_a_join_request_reaches_the_hosts_console_on_another_server_process_at_once(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two app instances linked by Redis: a phone asks for a seat through one, the host's console is open on the
    other; it is told at once (not at its 20 s keepalive), and again when the request is approved through the
    first."""
    game_id = api.new_game()
    with two_processes(api, second_store, redis_url, monkeypatch) as (_c1, c2, host):
        code = open_table(host, game_id)["code"]
        Api(c2, second_store, api.club_id).login()
        with c2.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as console:
            until(console, "state")
            r = host.post(f"/api/join/{code}", {"seat": 4, "name": "Лиса"})  # through the first process
            assert r.status_code == 200, r.text
            assert until(console, "requests", timeout=3) == {"type": "requests"}
            assert host.post(f"/api/games/{game_id}/online/requests/{r.json()['id']}",
                             {"approve": True}).status_code == 200
            assert until(console, "requests", timeout=3) == {"type": "requests"}


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


def test_a_games_first_message_carries_the_rule_values_the_board_is_drawn_with(api: Api) -> None:
    """A.foul.four, the speaker's mark, the black roles: the players' and the spectators' boards draw with the
    rule set's values the server sends with a game's first message (engine.rule_values), never with constants
    of the scripts; the events that follow do not repeat them."""
    game_id = api.new_game(options={"foul_remove": 5})
    code = open_table(api, game_id)["code"]
    token = issue(api, game_id, 2)
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(ws, token)
        for message in (until(ws, "state"), until(watch, "state")):
            assert message["rules"] == rule_values(api.store.load(game_id).rules)
            assert message["rules"]["foul_remove"] == 5
            assert message["rules"]["speech_steps"] == sorted(SPEECH_STEPS)
            assert message["rules"]["black_roles"] == sorted(BLACK_ROLES)
        assert api.command(game_id, {"type": "deal"}, 0, "d").status_code == 200
        assert "rules" not in until(watch, "events")


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


def test_on_sqlite_a_new_games_set_up_and_its_sockets_reads_run_on_the_event_loop(
        api: Api, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite: a new game's set-up requests (the game, the online table, every seat's link), the seat's read when
    a player's socket opens, the table's when a spectator's does, and the first read of the game for its
    messages all run on the event loop (each a fraction of a millisecond of local work; a worker thread's
    hand-over and the fight for the interpreter's lock cost more). PostgreSQL: in worker threads."""
    sqlite = db_url.startswith("sqlite")
    seen: dict[str, list[bool]] = {}
    # PostgreSQL without Redis: the hub's fallback re-reads the table's code in a worker thread every second
    # (live/poll.py); not what this test counts
    live.get_hub(api.client.app).poll_without_redis = False  # type: ignore[arg-type]

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
