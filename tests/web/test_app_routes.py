"""The routes are assembled once per process and shared by every app it makes (``web.app.shared_routes``): two
apps on two stores share the route objects, and each still answers from its own store and its own sessions."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sportmafia.store import open_store
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.app import shared_routes
from tests.store.templates import migrated_sqlite

from .conftest import ADMIN_PASSWORD


def test_two_apps_share_their_routes_and_answer_from_their_own_stores(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with migrated_sqlite(tmp_path / "a") as url_a, migrated_sqlite(tmp_path / "b") as url_b:
        store_a, store_b = open_store(url_a), open_store(url_b)
        try:
            club_a = ensure_demo(store_a).club_id
            ensure_demo(store_b)
            assert club_a is not None
            store_a.add_club_players(club_a, ["Only in A"])
            app_a, app_b = create_app(store_a, secret_key="a"), create_app(store_b, secret_key="b")
            for app in (app_a, app_b):
                assert all(any(route is mine for mine in app.router.routes) for route in shared_routes())
            with TestClient(app_a) as a, TestClient(app_b) as b:
                for client in (a, b):
                    r = client.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
                    assert r.status_code == 200, r.text
                names_a = {p["name"] for p in a.get("/api/players").json()["players"]}
                names_b = {p["name"] for p in b.get("/api/players").json()["players"]}
                assert "Only in A" in names_a and "Only in A" not in names_b
                b.cookies.update(a.cookies)  # A's session is not B's
                assert b.get("/api/players").status_code == 401
        finally:
            store_a.close()
            store_b.close()
