"""The tournament pages: the judge's pages need a login and the tournament's club; the public pages need no
login and exist only for a published tournament; Russian and English; the staff picker shows logins and roles
only."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from sportmafia.store import Store
from sportmafia.web.security import hash_password

from .conftest import Api

PASSWORD = "tournament password"


def _other(api: Api, login: str, role: str, club_id: int) -> Api:
    api.store.create_user(club_id, login, hash_password(PASSWORD), role)
    other = Api(TestClient(api.client.app), api.store, club_id)
    other.login(login, PASSWORD)
    return other


def _anon(api: Api) -> Api:
    return Api(TestClient(api.client.app), api.store, api.club_id)


def _create(api: Api, name: str = "Spring Cup", **body: Any) -> int:
    r = api.post("/api/tournaments", {"name": name, **body})
    assert r.status_code == 201, r.text
    tid: int = r.json()["id"]
    return tid


def _publish(api: Api, tid: int, on: bool = True) -> None:
    r = api.client.patch(f"/api/tournaments/{tid}", json={"published": on}, headers=api._headers())
    assert r.status_code == 200, r.text


def test_judge_pages_need_a_login(api: Api) -> None:
    tid = _create(api)
    anon = _anon(api)
    for path in ("/tournaments", f"/tournaments/{tid}", f"/tournaments/{tid}/print"):
        r = anon.get(path, follow_redirects=False)
        assert r.status_code == 303, path
        assert r.headers["location"] == f"/login?next={path}"


def test_the_list_and_the_judges_desk(api: Api) -> None:
    tid = _create(api)
    api.client.cookies.set("lang", "en")
    r = api.get("/tournaments")
    assert r.status_code == 200
    assert "New tournament" in r.text and "/static/tournament.js" in r.text
    r = api.get(f"/tournaments/{tid}")
    assert r.status_code == 200
    assert "Spring Cup" in r.text and 'data-can-judge="yes"' in r.text
    for tab in ("Participants", "Seating", "Rounds", "Sheets", "Sanctions", "Standings", "Final", "Exports"):
        assert f">{tab} " in r.text or f">{tab}<" in r.text, tab
    for export in ("standings.csv", "standings.xlsx", "archive.json", f"/tournaments/{tid}/print"):
        assert export in r.text
    api.client.cookies.set("lang", "ru")
    r = api.get(f"/tournaments/{tid}")
    assert "Участники" in r.text and "Рассадка" in r.text and "Опубликовать таблицу" in r.text
    assert "Новый турнир" in api.get("/tournaments").text
    # the print view works for the judge before publication
    r = api.get(f"/tournaments/{tid}/print")
    assert r.status_code == 200 and f"/api/tournaments/{tid}/standings" in r.text


def test_the_staff_picker_shows_logins_and_roles_only(api: Api, store: Store) -> None:
    tid = _create(api)
    _other(api, "host-anna", "host", api.club_id)
    other_club = store.create_club("Elsewhere")
    store.create_user(other_club, "stranger", hash_password(PASSWORD), "host")
    text = api.get(f"/tournaments/{tid}").text
    assert '"login": "host-anna"' in text and '"role": "host"' in text
    assert "stranger" not in text
    # no stored hash nor any password field of the users reaches the page (its one password input is the new
    # account form's, empty)
    assert "argon2" not in text and "password_hash" not in text and '"password":' not in text


def test_other_clubs_and_missing_tournaments_are_not_found(api: Api, store: Store) -> None:
    tid = _create(api)
    outsider = _other(api, "outsider", "admin", store.create_club("Other club"))
    outsider.client.cookies.set("lang", "en")
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/print", f"/tournaments/{tid + 50}"):
        r = outsider.get(path)
        assert r.status_code == 404, path
        assert "No such tournament" in r.text and "Spring Cup" not in r.text
    assert "Spring Cup" not in outsider.get("/tournaments").text


def test_a_host_sees_the_desk_without_the_judges_tools(api: Api) -> None:
    tid = _create(api)
    host = _other(api, "host-bob", "host", api.club_id)
    r = host.get(f"/tournaments/{tid}")
    assert r.status_code == 200 and 'data-can-judge="no"' in r.text
    assert 'id="new-tournament-form"' not in host.get("/tournaments").text
    assert 'id="new-tournament-form"' in api.get("/tournaments").text


def test_public_pages_only_when_published(api: Api) -> None:
    tid = _create(api)
    pid = api.post(f"/api/tournaments/{tid}/participants", {"text": "Ann\nBen"}).json()["added"][0]["id"]
    anon = _anon(api)
    anon.client.cookies.set("lang", "en")
    for path in (f"/t/{tid}", f"/t/{tid}/players/{pid}"):
        r = anon.get(path)
        assert r.status_code == 404, path
        assert "No such tournament" in r.text and "Spring Cup" not in r.text
    _publish(api, tid)
    r = anon.get(f"/t/{tid}")
    assert r.status_code == 200
    assert "Spring Cup" in r.text and f"/api/public/tournaments/{tid}/standings" in r.text
    assert "/static/standings.js" in r.text and 'data-public="yes"' in r.text
    assert "Log out" not in r.text
    r = anon.get(f"/t/{tid}/players/{pid}")
    assert r.status_code == 200 and f'data-participant="{pid}"' in r.text
    assert anon.get(f"/t/{tid}/players/{pid + 100}").status_code == 404
    anon.client.cookies.set("lang", "ru")
    assert "<h2 id=\"st-main-title\">Таблица</h2>" in anon.get(f"/t/{tid}").text
    # hidden again: gone again
    _publish(api, tid, False)
    assert anon.get(f"/t/{tid}").status_code == 404
    assert anon.get(f"/t/{tid + 7}").status_code == 404


def test_the_pages_static_files(api: Api) -> None:
    for name in ("tournament.js", "standings.js", "tournament.css"):
        r = api.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert "http://" not in r.text and "https://" not in r.text, name
