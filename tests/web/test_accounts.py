"""Accounts: login, logout, me, the login rate limit, CSRF, users, the demo setup and the secret key."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sportmafia.store import Store
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.security import CSRF_HEADER, LoginLimiter, load_secret_key

from .conftest import ADMIN_PASSWORD, Api
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""


def test_login_me_logout(anon: Api) -> None:
    r = anon.get("/api/me")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "not-logged-in"
    body = anon.login()
    assert body["user"]["login"] == "admin" and body["user"]["role"] == "admin"
    assert body["user"]["club_id"] == anon.club_id
    cookie = anon.client.cookies.get("sportmafia_session")
    assert cookie
    me = anon.get("/api/me").json()
    assert body.pop("next") == "/"
    assert me == body
    # logging out is a change: it needs the token
    r = anon.client.post("/api/logout")
    assert r.status_code == 403
    assert anon.get("/api/me").status_code == 200
    assert anon.post("/api/logout").json() == {"ok": True}
    assert anon.get("/api/me").status_code == 401


def test_session_cookie_flags(anon: Api) -> None:
    r = anon.client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header


def test_wrong_password_and_unknown_login(anon: Api) -> None:
    for login in ("admin", "nobody"):
        r = anon.client.post("/api/login", json={"login": login, "password": "wrong"})
        assert r.status_code == 401
        assert r.json()["error"] == {"code": "bad-login", "en": "Wrong login or password.",
                                     "ru": "Неверный логин или пароль."}
    assert anon.get("/api/me").status_code == 401


def test_login_rate_limit(anon: Api) -> None:
    for _ in range(3):
        assert anon.client.post("/api/login", json={"login": "admin", "password": "wrong"}).status_code == 401
    r = anon.client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "too-many-attempts"
    assert r.json()["error"]["ru"].startswith("Слишком много")
    assert 1 <= int(r.headers["Retry-After"]) <= 2  # the backoff's first step (tests/web/test_login_throttle.py)
    # the pair (address, login) waits; another login from the same address does not
    assert anon.client.post("/api/login", json={"login": "other", "password": "x"}).status_code == 401


def test_limiter_window() -> None:
    now = [1000.0]
    limiter = LoginLimiter(max_failures=5, window=300, clock=lambda: now[0])
    for _ in range(4):
        limiter.failed("login:a", "addr:1")
        now[0] += 10
    assert limiter.retry_after("login:a") is None
    limiter.failed("login:a", "addr:1")
    assert limiter.retry_after("login:b", "addr:1") == pytest.approx(260)
    now[0] += 259
    assert limiter.retry_after("login:a") is not None
    now[0] += 2  # the first failure is now older than the window
    assert limiter.retry_after("login:a", "addr:1") is None


def test_csrf_missing_or_wrong_writes_nothing(api: Api) -> None:
    game_id = api.new_game()
    body = {"command": {"type": "deal"}, "expected_seq": 0, "command_id": "c1"}
    path = f"/api/games/{game_id}/commands"
    r = api.client.post(path, json=body)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf-missing"
    r = api.client.post(path, json=body, headers={CSRF_HEADER: "not-the-token"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf-wrong"
    assert set(r.json()["error"]) == {"code", "en", "ru"}
    r = api.client.post("/api/games", json={"players": 10})
    assert r.status_code == 403
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == 0
    assert api.get(f"/api/games/{game_id}/events").json()["events"] == []
    assert len(api.get("/api/games").json()["games"]) == 1
    assert api.command(game_id, {"type": "deal"}, 0, "c1").status_code == 200


def test_admin_creates_a_host(api: Api, app_client: tuple[TestClient, int]) -> None:
    r = api.post("/api/users", {"login": "host1", "password": "host-password", "role": "host"})
    assert r.status_code == 201, r.text
    assert r.json()["role"] == "host" and r.json()["club_id"] == api.club_id
    r = api.post("/api/users", {"login": "host1", "password": "host-password", "role": "host"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "login-taken"
    r = api.post("/api/users", {"login": "x", "password": "host-password", "role": "king"})
    assert r.status_code == 422
    host = Api(TestClient(app_client[0].app), api.store, api.club_id)
    assert host.login("host1", "host-password")["user"]["role"] == "host"
    r = host.post("/api/users", {"login": "host2", "password": "host-password", "role": "host"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"


def test_demo_roster_and_second_start(api: Api, store: Store) -> None:
    names = [p["name"] for p in api.get("/api/players").json()["players"]]
    assert len(names) == 16 and names[0] == "Ворон"
    assert ensure_demo(store).created is False


def test_generated_admin_password(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPORTMAFIA_ADMIN_PASSWORD", raising=False)
    setup = ensure_demo(store)
    assert setup.created and setup.password and len(setup.password) >= 12
    with TestClient(create_app(store, secret_key="k")) as client:
        r = client.post("/api/login", json={"login": "admin", "password": setup.password})
        assert r.status_code == 200


def test_secret_key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPORTMAFIA_SECRET_KEY", raising=False)
    monkeypatch.setenv("SPORTMAFIA_DATA", str(tmp_path / "data"))
    key = load_secret_key()
    path = tmp_path / "data" / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secret_key() == key and len(key) >= 32
    monkeypatch.setenv("SPORTMAFIA_SECRET_KEY", "from-env")
    assert load_secret_key() == "from-env"


def test_logout_ends_the_session_on_the_server(anon: Api) -> None:
    anon.login()
    stolen = anon.client.cookies.get("sportmafia_session")
    assert stolen and anon.get("/api/me").status_code == 200
    assert anon.post("/api/logout").status_code == 200
    replay = TestClient(anon.client.app, cookies={"sportmafia_session": stolen})
    replay.portal = anon.client.portal
    r = replay.get("/api/me")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not-logged-in"
    assert replay.get("/", follow_redirects=False).status_code == 303  # the pages too


NEXT_CASES = [
    ("/%5Cevil.example/phish", "/"),
    ("//evil", "/"),
    ("/\\evil", "/"),
    ("https://evil", "/"),
    ("%2F%2Fevil", "/"),
    ("/%2F%2Fevil", "/"),
    ("/%09/evil", "/"),
    ("javascript:alert(1)", "/"),
    ("/ok/path?x=1", "/ok/path?x=1"),
    ("/games/5f0c?view=table#top", "/games/5f0c?view=table#top"),
]


def test_login_goes_only_to_a_path_of_this_site(anon: Api) -> None:
    from urllib.parse import quote

    for given, expected in NEXT_CASES:
        page = anon.client.get("/login?next=" + quote(given, safe=""))
        assert page.status_code == 200
        assert f'data-next="{expected}"' in page.text, (given, page.text[:300])
    # the login's answer carries the server's decision too
    r = anon.client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD,
                                             "next": "/%5Cevil.example/phish"})
    assert r.status_code == 200 and r.json()["next"] == "/"
    anon.csrf = r.json()["csrf_token"]
    r = anon.post("/api/login", {"login": "admin", "password": ADMIN_PASSWORD, "next": "/ok/path?x=1"})
    assert r.status_code == 200 and r.json()["next"] == "/ok/path?x=1"


def test_club_settings_autostart_timer(api: Api, app_client: tuple[TestClient, int]) -> None:
    """The club's setting "start the speech timer when a speech begins": on by default; every user of the club
    reads it, only an admin changes it (a host is refused in both languages, a bad body with 422); the console
    page carries it (``data-autostart``) for its timer."""
    r = api.get("/api/club/settings")
    assert r.status_code == 200 and r.json()["autostart_timer"] is True
    game_id = api.new_game()
    assert 'data-autostart="1"' in api.get(f"/games/{game_id}").text
    api.post("/api/users", {"login": "host1", "password": "host-password", "role": "host"})
    host = Api(TestClient(app_client[0].app), api.store, api.club_id)
    host.login("host1", "host-password")
    assert host.get("/api/club/settings").json()["autostart_timer"] is True
    r = host.client.put("/api/club/settings", json={"autostart_timer": False}, headers=host._headers())
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert r.json()["error"]["ru"] == "Настройки клуба меняет только администратор."
    for bad in ({"autostart_timer": "no"}, {"autostart_timer": 0}, {}, {"autostart_timer": True, "x": 1}):
        assert api.client.put("/api/club/settings", json=bad, headers=api._headers()).status_code == 422, bad
    r = api.client.put("/api/club/settings", json={"autostart_timer": False}, headers=api._headers())
    assert r.status_code == 200 and r.json()["autostart_timer"] is False
    assert host.get("/api/club/settings").json()["autostart_timer"] is False
    assert 'data-autostart=""' in api.get(f"/games/{game_id}").text
    assert api.client.put("/api/club/settings", json={"autostart_timer": True}).status_code == 403  # no CSRF token
    assert Api(TestClient(app_client[0].app), api.store, api.club_id).get("/api/club/settings").status_code == 401
