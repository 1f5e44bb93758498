"""Web tests run on SQLite and on PostgreSQL, like the store tests (the same ``db_url`` fixture: each
PostgreSQL test in a fresh schema; skipped with the reason when PostgreSQL cannot be reached, failing when
``CI=true``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sportmafia.engine import Game, feed_position
from sportmafia.store import Store, open_store
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.security import CSRF_HEADER
from tests.store.conftest import db_url, store

__all__ = ["db_url", "store"]

ADMIN_PASSWORD = "correct horse battery"


@dataclass
class Api:
    """A test client with the session's CSRF token added to every change."""

    client: TestClient
    store: Store
    club_id: int
    csrf: str | None = None

    def login(self, login: str = "admin", password: str = ADMIN_PASSWORD) -> dict[str, Any]:
        r = self.client.post("/api/login", json={"login": login, "password": password},
                             headers=self._headers())
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        self.csrf = body["csrf_token"]
        return body

    def _headers(self) -> dict[str, str]:
        return {CSRF_HEADER: self.csrf} if self.csrf else {}

    def post(self, path: str, json: Any = None, **kwargs: Any) -> Any:
        return self.client.post(path, json=json, headers=self._headers(), **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(path, **kwargs)

    def new_game(self, players: int = 10, **body: Any) -> str:
        roster = [p["id"] for p in self.get("/api/players").json()["players"]][:players]
        r = self.post("/api/games", {"preset": "club", "players": players, "roster": roster, **body})
        assert r.status_code == 201, r.text
        game_id: str = r.json()["id"]
        return game_id

    def command(self, game_id: str, command: dict[str, Any], expected_seq: int, command_id: str) -> Any:
        return self.post(f"/api/games/{game_id}/commands",
                         {"command": command, "expected_seq": expected_seq, "command_id": command_id})


def own_client(client: TestClient) -> TestClient:
    """Another client of ``client``'s app, with cookies of its own (another person's browser or phone), whose
    requests run on the app's running event loop like ``client``'s, instead of on a loop and thread started for
    each request."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


@pytest.fixture
def app_client(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, int]]:
    monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
    setup = ensure_demo(store)
    assert setup.created and setup.password is None and setup.club_id is not None
    app = create_app(store, secret_key="test-secret")
    with TestClient(app) as client:
        yield client, setup.club_id


@pytest.fixture
def api(app_client: tuple[TestClient, int], store: Store) -> Api:
    """Logged in as the demo club's admin."""
    client, club_id = app_client
    a = Api(client, store, club_id)
    a.login()
    return a


@pytest.fixture
def anon(app_client: tuple[TestClient, int], store: Store) -> Api:
    """Not logged in."""
    client, club_id = app_client
    return Api(client, store, club_id)


# ------------------------------------------------------------------------------------------ Redis
REDIS_URL = os.environ.get("SPORTMAFIA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _redis_unreachable() -> str | None:
    try:
        import redis
    except ImportError:
        return "the redis package is not installed"
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:
        return f"Redis at {REDIS_URL} cannot be reached ({type(exc).__name__}: {exc})"
    return None


@pytest.fixture
def redis_url() -> str:
    return require_redis()


def require_redis() -> str:
    """The test Redis's URL; skips the test when it cannot be reached (fails under CI=true)."""
    reason = _redis_unreachable()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI=true: the Redis test must run)", pytrace=False)
        print(f"\nskipping the Redis test: {reason}", file=sys.stderr)
        pytest.skip(reason)
    return REDIS_URL


@pytest.fixture
def second_store(db_url: str, store: Store) -> Iterator[Store]:
    """Another store object on the same database (as another server process would have)."""
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()


def game_at(final: Game, viewer: str | int, cursor: int) -> Game:
    """The game as it stood when ``viewer``'s feed had ``cursor`` entries (the log up to his last one): what a
    message numbered ``cursor`` in his feed was built on. What came after it, up to his next entry, is hidden
    from him and changes nothing he is sent (tests/engine/test_feeds.py)."""
    return Game.from_events(final.rules, final.n, final.log[:feed_position(final, viewer, cursor)], final.names)
