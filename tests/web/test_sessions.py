"""Server-side sessions through the API (issue 14, item 6): the cookie carries only a random secret; logging
out, changing the password and an admin disabling a user end sessions on the server; the club's users, and
disabling and enabling them, are the admin's. One app for the module, with a cheap argon2 hasher for its
users (production keeps argon2-cffi's defaults)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from sportmafia.live import subscriber as live_subscriber
from sportmafia.store import Store, open_store
from sportmafia.store.models import LoginSession
from sportmafia.web import create_app
from sportmafia.web.sessions import Sessions
from sportmafia.web.throttle import PasswordChecker

from ..waiting import GUARD
from .conftest import Api, own_client

CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "the first password"


class Site:
    def __init__(self, client: TestClient, store: Store, club: int) -> None:
        self.client, self.store, self.club = client, store, club

    def user(self, login: str, role: str = "host", club: int | None = None) -> int:
        return self.store.create_user(club or self.club, login, CHEAP.hash(PASSWORD), role).id

    def browser(self, login: str | None = None, password: str = PASSWORD) -> Api:
        api = Api(own_client(self.client), self.store, self.club)
        if login is not None:
            api.login(login, password)
        return api


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    path: Path = tmp_path_factory.mktemp("sessions") / "sessions.db"
    store = open_store(f"sqlite:///{path}", migrate=True)
    club = store.create_club("Club")
    with TestClient(create_app(store, secret_key="sessions-test", passwords=PasswordChecker(CHEAP))) as client:
        yield Site(client, store, club)
    store.close()


def test_the_cookie_is_a_random_secret_stored_only_as_a_keyed_hash(site: Site) -> None:
    uid = site.user("cookie")
    a = site.browser("cookie")
    secret = a.client.cookies.get("sportmafia_session")
    assert secret and len(secret) == 43 and "." not in secret  # 32 random bytes; no signed data in it
    with site.store._read() as s:
        keys = list(s.scalars(select(LoginSession.key).where(LoginSession.user_id == uid)))
    assert len(keys) == 1 and secret not in keys[0] and keys[0] == site.client.app.state.sessions.key_of(secret)  # type: ignore[attr-defined]
    # a forged or unknown cookie is no session
    forged = TestClient(site.client.app, cookies={"sportmafia_session": "x" * 43})
    forged.portal = site.client.portal
    assert forged.get("/api/me").status_code == 401
    # a second login of the same browser replaces its session (the old secret is revoked)
    a.login("cookie", PASSWORD)
    assert a.client.cookies.get("sportmafia_session") != secret
    old = TestClient(site.client.app, cookies={"sportmafia_session": secret})
    old.portal = site.client.portal
    assert old.get("/api/me").status_code == 401


def test_logout_revokes_at_once_and_a_socket_with_the_old_cookie_is_refused(site: Site) -> None:
    site.user("leaver")
    a = site.browser("leaver")
    secret = a.client.cookies.get("sportmafia_session")
    assert a.get("/api/me").status_code == 200  # the session is now kept in this process's memory
    assert a.post("/api/logout").json() == {"ok": True}
    replay = TestClient(site.client.app, cookies={"sportmafia_session": secret or ""})
    replay.portal = site.client.portal
    assert replay.get("/api/me").status_code == 401
    with replay.websocket_connect("/ws/games/x", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["error"]["code"] == "not-logged-in"


def test_password_change_ends_the_other_sessions_and_a_wrong_old_password_counts(site: Site) -> None:
    site.user("changer")
    here, there = site.browser("changer"), site.browser("changer")
    r = here.post("/api/me/password", {"old": "not it", "new": "a new password"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong-password"
    assert r.json()["error"]["ru"] == "Текущий пароль неверен."
    r = here.post("/api/me/password", {"old": PASSWORD, "new": "short"})
    assert r.status_code == 422
    r = here.post("/api/me/password", {"old": PASSWORD, "new": "a new password"})
    assert r.status_code == 200 and r.json() == {"ok": True, "revoked": 1}
    assert here.get("/api/me").status_code == 200  # this session stays
    assert there.get("/api/me").status_code == 401  # every other one ended
    fresh = site.browser()
    assert fresh.client.post("/api/login", json={"login": "changer", "password": PASSWORD}).status_code == 401
    fresh.login("changer", "a new password")
    # wrong old passwords are failed logins: after three, the pair (address, account) waits
    for _ in range(3):
        assert here.post("/api/me/password", {"old": "guess", "new": "another one!"}).status_code == 403
    r = here.post("/api/me/password", {"old": "guess", "new": "another one!"})
    assert r.status_code == 429 and "Retry-After" in r.headers


def test_the_admin_lists_disables_and_enables_users(site: Site) -> None:
    site.user("boss", "admin")
    host_id = site.user("worker")
    other_club = site.store.create_club("Other")
    stranger_id = site.user("stranger", club=other_club)
    admin, host = site.browser("boss"), site.browser("worker")
    users = admin.get("/api/users").json()["users"]
    by_login = {u["login"]: u for u in users}
    assert "stranger" not in by_login and by_login["worker"] == {
        "id": host_id, "login": "worker", "role": "host", "club_id": site.club, "player_id": None, "disabled": False}
    r = host.get("/api/users")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert host.post(f"/api/users/{host_id}/disable").status_code == 403
    me = admin.get("/api/me").json()["user"]["id"]
    r = admin.post(f"/api/users/{me}/disable")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own-account"
    assert admin.post(f"/api/users/{stranger_id}/disable").status_code == 404
    assert admin.post("/api/users/999999/disable").status_code == 404
    r = admin.post(f"/api/users/{host_id}/disable")
    assert r.status_code == 200 and r.json()["disabled"] is True
    assert host.get("/api/me").status_code == 401  # his session ended at once
    r = site.browser().client.post("/api/login", json={"login": "worker", "password": PASSWORD})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account-disabled"
    r = site.browser().client.post("/api/login", json={"login": "worker", "password": "wrong"})
    assert r.status_code == 401  # a wrong password says nothing about the account
    assert admin.post(f"/api/users/{host_id}/enable").json()["disabled"] is False
    site.browser("worker")


def test_the_account_and_users_pages(site: Site) -> None:
    site.user("pages-admin", "admin")
    site.user("pages-host")
    admin, host = site.browser("pages-admin"), site.browser("pages-host")
    for lang, title, users in (("en", "Your account", "Users"), ("ru", "Ваша учётная запись", "Пользователи")):
        for who in (admin, host):
            who.client.cookies.set("lang", lang)
        page = admin.get("/account")
        assert page.status_code == 200 and title in page.text and 'id="password-form"' in page.text
        home = admin.get("/")
        assert 'href="/account"' in home.text and 'href="/users"' in home.text and users in home.text
        assert 'href="/users"' not in host.get("/").text
        page = admin.get("/users")
        assert page.status_code == 200 and 'id="user-list"' in page.text
        assert host.get("/users").status_code == 403
    assert site.browser().get("/account", follow_redirects=False).headers["location"] == "/login?next=/account"


def test_an_open_socket_ends_with_its_session(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """A console's socket opened before its session was revoked is closed then (4401 `session-ended`): at once
    in this process (logging out, the password changed elsewhere, the admin disabling the user), and at its
    keepalive in another process. On a socket that stayed open a game's move would still be sent."""
    site.store.add_club_players(site.club, [f"Игрок {n}" for n in range(1, 11)])
    uid = site.user("sockets")
    site.user("sockets-admin", "admin")
    here, there, admin = site.browser("sockets"), site.browser("sockets"), site.browser("sockets-admin")
    game = here.new_game()
    moves = iter(range(100))

    def move() -> None:  # the admin (a judge of the club, not seated) sends a command the sockets would be sent
        seq = admin.get(f"/api/games/{game}").json()["next_seq"]
        assert admin.command(game, {"type": "deal"} if seq == 0 else {"type": "advance"}, seq,
                             f"m{next(moves)}").status_code == 200

    def ended(ws: Any) -> None:
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == "session-ended", message
        assert message["error"]["ru"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401

    url, origin = f"/ws/games/{game}", {"origin": "http://testserver"}
    with there.client.websocket_connect(url, headers=origin) as ws:  # the password changed on another device
        assert ws.receive_json()["type"] == "state"
        assert here.post("/api/me/password", {"old": PASSWORD, "new": "the second password"}).status_code == 200
        move()
        ended(ws)
    with here.client.websocket_connect(url, headers=origin) as ws:  # logged out
        assert ws.receive_json()["type"] == "state"
        assert here.post("/api/logout").status_code == 200
        move()
        ended(ws)
    here.login("sockets", "the second password")
    with here.client.websocket_connect(url, headers=origin) as ws:  # the admin disables him
        assert ws.receive_json()["type"] == "state"
        assert admin.post(f"/api/users/{uid}/disable").status_code == 200
        move()
        ended(ws)
    assert admin.post(f"/api/users/{uid}/enable").status_code == 200
    # another process (a second app on the same store) learns of a revocation at the socket's keepalive
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 0.2)
    here.login("sockets", "the second password")
    other = create_app(site.store, secret_key="sessions-test", passwords=PasswordChecker(CHEAP))
    with TestClient(other, cookies={"sportmafia_session": here.client.cookies.get("sportmafia_session") or ""}) as elsewhere:
        other.state.sessions.cache_seconds = 0.0
        with elsewhere.websocket_connect(url, headers=origin) as ws:
            assert ws.receive_json()["type"] == "state"
            assert ws.receive_json()["type"] == "ping"  # still live
            assert here.post("/api/logout").status_code == 200
            for _ in range(40):  # a few pings may be on their way (and on a socket left open, pings go on)
                if (message := ws.receive_json())["type"] != "ping":
                    break
            assert message["error"]["code"] == "session-ended", message


def test_concurrent_lookups_of_a_session_read_its_row_once(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """A console's tables share one session, and its kept copy expires for all of them at once: their requests
    then read the session's row once, not each in a worker thread of its own (which made the console's
    commands wait behind a burst of reads)."""
    from sportmafia.web import sessions as sessions_module

    uid = site.user("many-tables")
    kept_for_nothing = Sessions(site.store, "sessions-test", cache_seconds=0.0)  # every lookup reads the row
    secret, _record = kept_for_nothing.start(uid, None)
    reads: list[str] = []
    real = sessions_module.find_session

    arrived = threading.Event()

    def counted(store: Store, key: str) -> Any:
        reads.append(key)
        assert arrived.wait(GUARD)  # the read is held until every request of the burst has asked
        return real(store, key)

    monkeypatch.setattr(sessions_module, "find_session", counted)

    async def all_arrived() -> None:  # the burst's last task: it runs once the fifty lookups have asked
        arrived.set()

    async def burst() -> list[Any]:
        *found, _ = await asyncio.gather(*(kept_for_nothing.lookup(secret) for _ in range(50)), all_arrived())
        return found

    found = asyncio.run(burst())
    assert len(reads) == 1
    assert all(record is not None and record.user_id == uid for record, _touched in found)
    asyncio.run(burst())  # the next burst reads it again, once
    assert len(reads) == 2
