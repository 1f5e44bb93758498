"""Deployment (docs/deploy.md): the security headers of every answer, the participants upload's own body limit,
the SQLite files made private, and ``serve``'s options for a TLS proxy (Secure cookies, trusted proxy headers)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sportmafia.store import database_url, open_store
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.security import load_secret_key
from sportmafia.web.throttle import LoginThrottle

from .conftest import ADMIN_PASSWORD
from .edge import Server, server


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as mp, server("sqlite", tmp_path_factory.mktemp("deploy"), mp) as s:
        yield s


def test_every_answer_carries_the_security_headers(srv: Server) -> None:
    admin, anon = srv.admin, srv.anonymous()
    game_id = admin.new_game()
    code = admin.post(f"/api/games/{game_id}/online").json()["code"]
    answers = {
        "page": anon.get("/login"), "console": admin.get(f"/games/{game_id}"), "api": anon.get("/api/me"),
        "json": admin.get("/api/games"), "static": anon.get("/static/common.js"), "missing": anon.get("/nothing"),
        "too large": anon.post("/api/login", content=b"x" * (65 * 1024)), "watch": anon.get(f"/watch/{code}"),
        "seat link": anon.get("/play/not-a-token"), "overlay": anon.get(f"/overlay/{code}"),
    }
    assert answers["too large"].status_code == 413 and answers["overlay"].status_code == 200
    for what, r in answers.items():
        csp = r.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "object-src 'none'" in csp, what
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, what
        assert r.headers.get("x-content-type-options") == "nosniff", what
        if what == "overlay":  # streamers embed it in OBS and on their sites
            assert "frame-ancestors *" in csp and "x-frame-options" not in r.headers
        else:
            assert "frame-ancestors 'none'" in csp and r.headers.get("x-frame-options") == "DENY", what
        # the seat's link holds its token in the address: not even this server's own assets get it
        assert r.headers.get("referrer-policy") == ("no-referrer" if what == "seat link" else "same-origin"), what


def test_the_participants_upload_takes_512_kib_other_bodies_64(srv: Server) -> None:
    admin = srv.admin
    tid = admin.post("/api/tournaments", {"name": "Big file", "preset": "club"}).json()["id"]
    big = ("nickname,club\nAnna,Club A\nBoris,Club B\n" + "\n" * (400 * 1024)).encode()
    r = admin.post(f"/api/tournaments/{tid}/participants/csv", files={"file": ("p.csv", big, "text/csv")})
    assert r.status_code == 201, r.text[:300]
    assert [p["nickname"] for p in r.json()["added"]] == ["Anna", "Boris"]
    r = admin.post(f"/api/tournaments/{tid}/participants/csv",
                   files={"file": ("p.csv", b"nickname\n" + b"\n" * (600 * 1024), "text/csv")})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"
    # any other body keeps the 64 KiB limit
    r = admin.post(f"/api/tournaments/{tid}/participants", {"text": "A\n" + " " * (70 * 1024)})
    assert r.status_code == 413 and r.json()["error"]["ru"]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_files_and_the_data_folder_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o022)  # the usual umask: files readable by everyone unless made private
    try:
        data = tmp_path / "data"
        monkeypatch.setenv("SPORTMAFIA_DATA", str(data))
        monkeypatch.delenv("SPORTMAFIA_DATABASE_URL", raising=False)
        monkeypatch.delenv("SPORTMAFIA_SECRET_KEY", raising=False)
        url = database_url()
        assert _mode(data) == 0o700
        store = open_store(url, migrate=True)
        try:
            monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
            ensure_demo(store)  # a write: the -wal and -shm files exist now
            files = sorted(data.glob("sportmafia.db*"))
            assert {f.name for f in files} >= {"sportmafia.db", "sportmafia.db-wal", "sportmafia.db-shm"}
            assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
        finally:
            store.close()
        load_secret_key()
        assert _mode(data / "secret_key") == 0o600 and _mode(data) == 0o700
    finally:
        os.umask(old)


def _failed_logins(client: TestClient, forwarded_for: str, count: int, start: int) -> list[int]:
    return [client.post("/api/login", json={"login": f"nobody{start + n}", "password": "wrong password"},
                        headers={"X-Forwarded-For": forwarded_for, "X-Forwarded-Proto": "https"}).status_code
            for n in range(count)]


def test_serve_behind_a_tls_proxy(tmp_path: Path) -> None:
    """``serve --proxy-headers --forwarded-allow-ips ... --secure-cookies``: the client's address (which the
    login limit counts) comes from X-Forwarded-For only when the peer is a trusted proxy; the cookie is Secure."""
    from sportmafia.cli import server_config

    store = open_store(f"sqlite:///{tmp_path / 'store.db'}", migrate=True)
    try:
        def client(peer: str, **options: object) -> TestClient:
            app = create_app(store, secret_key="k", https_only=True, login_throttle=LoginThrottle(address_budget=2))
            config = server_config(app, "127.0.0.1", 8000,
                                   **options)  # type: ignore[arg-type]
            config.load()
            return TestClient(config.loaded_app, client=(peer, 40000), base_url="https://mafia.example")

        trusted = client("10.0.0.2", proxy_headers=True, forwarded_allow_ips="10.0.0.2")
        assert _failed_logins(trusted, "203.0.113.5", 2, 0) == [401] * 2
        assert _failed_logins(trusted, "203.0.113.5", 1, 2) == [429]  # that client is blocked...
        assert _failed_logins(trusted, "198.51.100.7", 1, 3) == [401]  # ...not the others behind the proxy
        # a peer that is not the trusted proxy cannot choose its address with the header
        untrusted = client("10.0.0.3", proxy_headers=True, forwarded_allow_ips="10.0.0.2")
        assert _failed_logins(untrusted, "203.0.113.9", 2, 10) == [401] * 2
        assert _failed_logins(untrusted, "198.51.100.8", 1, 12) == [429]
        # without --proxy-headers the header is never trusted, not even from 127.0.0.1 (uvicorn's default)
        plain = client("127.0.0.1")
        assert _failed_logins(plain, "203.0.113.10", 2, 20) == [401] * 2
        assert _failed_logins(plain, "198.51.100.9", 1, 22) == [429]

        ensure_demo(store)
        r = trusted.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD},
                         headers={"X-Forwarded-For": "192.0.2.1", "X-Forwarded-Proto": "https"})
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"].lower()
        assert "sportmafia_session=" in cookie and "; secure" in cookie and "httponly" in cookie
    finally:
        store.close()
