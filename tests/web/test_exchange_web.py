"""Games imported and exported on the web (docs/exchange.md): the staff send a file of games and get a line per
game; others may not; the club's games download in each format; a large or malformed file is refused."""

from __future__ import annotations

import json

import pytest

from sportmafia.web.security import MAX_IMPORT
from tests.exchange.test_files import FIXTURES
from tests.web.conftest import Api


def upload(api: Api, body: bytes) -> object:
    return api.client.post("/api/club/games/import", content=body,
                           headers={"Content-Type": "application/json", **api._headers()})


def test_the_staff_import_a_file_and_get_a_line_per_game(api: Api) -> None:
    text = json.dumps([json.loads((FIXTURES / n).read_text(encoding="utf-8"))
                       for n in ("mafiaratings_documented.json", "polemica_334187.json", "polemica_333915.json")])
    r = upload(api, text.encode())
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    body = r.json()  # type: ignore[attr-defined]
    assert (body["imported"], body["refused"]) == (2, 1)
    assert [g["status"] for g in body["games"]] == ["imported", "imported", "refused"]
    assert body["games"][2]["clause"] == "A.win" and body["games"][2]["reason"]
    again = upload(api, text.encode()).json()  # type: ignore[attr-defined]
    assert [g["status"] for g in again["games"]] == ["already", "already", "refused"]
    export = api.get("/api/club/games/export", params={"format": "polemica"})
    assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
    data = export.json()
    assert data["format"] == "polemica" and len(data["games"]) == 1  # the result-only game has no log
    assert len(data["not_exported"]) == 1
    assert api.get("/api/club/games/export", params={"format": "xls"}).status_code == 422


def test_a_host_may_not_import_and_a_stranger_may_not_export(api: Api, anon: Api) -> None:
    r = api.post("/api/users", {"login": "host1", "password": "a long password 1", "role": "host"})
    assert r.status_code in (200, 201), r.text
    api.post("/api/logout")
    api.login("host1", "a long password 1")
    text = (FIXTURES / "mafiaratings_documented.json").read_bytes()
    assert upload(api, text).status_code == 403  # type: ignore[attr-defined]
    assert api.get("/api/club/games/export").status_code == 200  # a member downloads
    api.post("/api/logout")
    assert anon.get("/api/club/games/export").status_code == 401


@pytest.mark.parametrize(("body", "status"), [(b"\xff\xfe not utf-8", 422), (b"[1, 2]", 422), (b"{", 422)])
def test_a_file_that_is_not_games_is_refused_with_a_reason(api: Api, body: bytes, status: int) -> None:
    r = upload(api, body)
    assert r.status_code == status  # type: ignore[attr-defined]
    assert r.json()["error"]["ru"]  # type: ignore[attr-defined]


def test_a_file_over_the_limit_is_refused_before_it_is_read(api: Api) -> None:
    r = upload(api, b" " * (MAX_IMPORT + 1))
    assert r.status_code == 413  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "words", "raw"), [
    ("ru", ["по данным источника", "Полемика"], ["<td>source</td>", "polemica</"]),
    ("en", ["as its source records it", "Polemica"], ["<td>source</td>", "polemica</"])])
def test_imported_games_read_in_the_pages_words(api: Api, lang: str, words: list[str], raw: list[str]) -> None:
    """A result-only game's ending and the Polemica rule set are named in the page's language, not by their
    codes ("source", "polemica")."""
    text = json.dumps([json.loads((FIXTURES / n).read_text(encoding="utf-8"))
                       for n in ("mafiaratings_documented.json", "polemica_334187.json")])
    assert upload(api, text.encode()).status_code == 200  # type: ignore[attr-defined]
    player = next(g for g in api.get(f"/api/clubs/{api.club_id}/players").json()["players"] if g["games"])
    api.client.cookies.set("lang", lang)
    pages = api.get(f"/clubs/{api.club_id}/players").text + "".join(
        api.get(f"/players/{p['id']}").text for p in api.get(f"/api/clubs/{api.club_id}/players").json()["players"]
        if p["games"])
    assert player and all(w in pages for w in words), lang
    assert not any(r in pages for r in raw)
