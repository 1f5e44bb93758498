"""Join requests made with the public table code (docs/online.md, "Joining with the table code"; web/joins.py):
rate limits per address and per table, one pending request per address, a cap on pending requests, a cooldown
after a denial, no seat held by a pending request, and the host's consoles told at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sportmafia.web.online.joins import JoinLimits
from sportmafia.web.security import LoginLimiter

from .conftest import Api
from .test_online import ORIGIN, issue, open_table, until
from .test_socket_limits import BACKENDS, module_api


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    yield from module_api(request, tmp_path_factory)


@pytest.fixture
def limits(api: Api) -> Iterator[JoinLimits]:
    """This test's join limits (a fresh count of requests)."""
    app: Any = api.client.app
    app.state.join_limits = JoinLimits()
    app.state.join_guard = None
    yield app.state.join_limits
    app.state.join_limits = app.state.join_guard = None


def phone(api: Api, address: str) -> TestClient:
    """A client of the app from its own address, with no cookies (a player's phone)."""
    other = TestClient(api.client.app, client=(address, 50000))
    other.portal = api.client.portal
    return other


def table(api: Api, linked: int = 1) -> tuple[str, str]:
    """A new game open online, its first ``linked`` seats with links: its id and its code."""
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    for seat in range(1, linked + 1):
        issue(api, game_id, seat)
    return game_id, code


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == code and error["en"] and error["ru"], error
    return error


def requests_of(api: Api, game_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = api.get(f"/api/games/{game_id}/online").json()["requests"]
    return out


def test_requests_per_address_are_limited(api: Api, limits: JoinLimits) -> None:
    limits.per_address = 3
    _game, code = table(api)
    a = phone(api, "10.0.0.1")
    for _ in range(3):
        refused(a.post(f"/api/join/{code}", json={"seat": 1}), 409, "taken")
    r = a.post(f"/api/join/{code}", json={"seat": 2, "name": "Лиса"})
    error = refused(r, 429, "too-many-requests")
    assert 1 <= int(r.headers["Retry-After"]) <= 600 and r.headers["Retry-After"] in error["en"]
    assert r.headers["Retry-After"] in error["ru"]
    # another address still may
    assert phone(api, "10.0.0.2").post(f"/api/join/{code}", json={"seat": 2}).status_code == 200


def test_requests_per_table_are_limited(api: Api, limits: JoinLimits) -> None:
    limits.per_table = 4
    game_id, code = table(api, linked=5)
    for i in range(4):
        refused(phone(api, f"10.1.0.{i}").post(f"/api/join/{code}", json={"seat": 1}), 409, "taken")
    r = phone(api, "10.1.0.9").post(f"/api/join/{code}", json={"seat": 7})
    refused(r, 429, "too-many-requests")
    assert int(r.headers["Retry-After"]) >= 1
    assert requests_of(api, game_id) == []
    # another table is not held back by this one's count
    _other, code2 = table(api)
    assert phone(api, "10.1.0.9").post(f"/api/join/{code2}", json={"seat": 7}).status_code == 200


def test_one_pending_request_per_address_and_a_cap_on_pending_ones(api: Api, limits: JoinLimits) -> None:
    limits.max_pending = 3
    game_id, code = table(api)
    first = phone(api, "10.2.0.1")
    assert first.post(f"/api/join/{code}", json={"seat": 2, "name": "A"}).status_code == 200
    refused(first.post(f"/api/join/{code}", json={"seat": 3, "name": "A2"}), 409, "pending")
    assert phone(api, "10.2.0.2").post(f"/api/join/{code}", json={"seat": 3, "name": "B"}).status_code == 200
    assert phone(api, "10.2.0.3").post(f"/api/join/{code}", json={"seat": 4, "name": "C"}).status_code == 200
    r = phone(api, "10.2.0.4").post(f"/api/join/{code}", json={"seat": 5, "name": "D"})
    refused(r, 429, "full")
    assert int(r.headers["Retry-After"]) >= 1
    assert [q["name"] for q in requests_of(api, game_id)] == ["A", "B", "C"]
    # no more pending requests than free seats: one free seat, one pending request
    game2, code2 = table(api, linked=9)
    assert phone(api, "10.2.1.1").post(f"/api/join/{code2}", json={"seat": 10, "name": "E"}).status_code == 200
    refused(phone(api, "10.2.1.2").post(f"/api/join/{code2}", json={"seat": 10, "name": "F"}), 429, "full")
    assert len(requests_of(api, game2)) == 1


def test_a_pending_request_holds_no_seat(api: Api, limits: JoinLimits) -> None:
    """Strangers asking with the players' names leave the free seats as they were: the host picks."""
    limits.max_pending = 9
    game_id, code = table(api)
    names = api.store.game(game_id).names
    anyone = phone(api, "10.3.0.100")
    for seat in range(2, 8):
        r = phone(api, f"10.3.0.{seat}").post(f"/api/join/{code}", json={"seat": seat, "name": names[seat - 1]})
        assert r.status_code == 200, r.text
    assert anyone.get(f"/api/join/{code}").json()["free"] == list(range(2, 11))
    # two asking for the same seat: the host approves one; the other cannot be approved any more
    other = phone(api, "10.3.0.99").post(f"/api/join/{code}", json={"seat": 8, "name": "X"})
    assert other.status_code == 200, other.text
    pending = [q for q in requests_of(api, game_id) if q["seat"] == 2]
    assert len(pending) == 1
    assert api.post(f"/api/games/{game_id}/online/requests/{pending[0]['id']}", {"approve": True}).status_code == 200
    assert 2 not in anyone.get(f"/api/join/{code}").json()["free"]  # an approved request holds its seat
    refused(phone(api, "10.3.0.98").post(f"/api/join/{code}", json={"seat": 2}), 409, "taken")
    r = phone(api, "10.3.0.97").post(f"/api/join/{code}", json={"seat": 9, "name": "Y"})
    assert r.status_code == 200
    issue(api, game_id, 9)  # the host gives seat 9 a link himself meanwhile
    rid = r.json()["id"]
    refused(api.post(f"/api/games/{game_id}/online/requests/{rid}", {"approve": True}), 409, "taken")
    assert api.post(f"/api/games/{game_id}/online/requests/{rid}", {"approve": False}).status_code == 200


def test_a_denied_address_or_name_waits_before_asking_again(api: Api, limits: JoinLimits) -> None:
    game_id, code = table(api)
    a = phone(api, "10.4.0.1")
    assert a.post(f"/api/join/{code}", json={"seat": 3, "name": "Ivan"}).status_code == 200
    rid = requests_of(api, game_id)[0]["id"]
    assert api.post(f"/api/games/{game_id}/online/requests/{rid}", {"approve": False}).status_code == 200
    r = a.post(f"/api/join/{code}", json={"seat": 4, "name": "Somebody"})
    refused(r, 429, "cooldown")
    assert 100 <= int(r.headers["Retry-After"]) <= 120
    b = phone(api, "10.4.0.2")
    refused(b.post(f"/api/join/{code}", json={"seat": 4, "name": " ivan "}), 429, "cooldown")  # the same name
    assert b.post(f"/api/join/{code}", json={"seat": 4, "name": "Pyotr"}).status_code == 200
    # once the cooldown is over, he may ask again
    limits.cooldown = 0.0
    assert a.post(f"/api/join/{code}", json={"seat": 5, "name": "Ivan"}).status_code == 200


def test_the_hosts_console_is_told_of_requests_at_once(api: Api, limits: JoinLimits) -> None:
    game_id, code = table(api)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host, \
            api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as projector:
        until(host, "state")
        until(projector, "state")
        r = phone(api, "10.5.0.1").post(f"/api/join/{code}", json={"seat": 4, "name": "Лиса"})
        assert r.status_code == 200
        assert until(host, "requests") == {"type": "requests"}
        rid = r.json()["id"]
        assert api.post(f"/api/games/{game_id}/online/requests/{rid}", {"approve": True}).status_code == 200
        assert until(host, "requests") == {"type": "requests"}
        # the table view (the projector) is told nothing of them
        api.client.app.state.live.set_timer(game_id, {"running": False, "left": 1, "total": 2, "key": "k"})
        assert until(projector, "timer")["key"] == "k"  # the next thing it gets is the timer, no "requests"


# ------------------------------------------------------------------------------------- /join without a code
@pytest.fixture
def wrong_codes(api: Api) -> Iterator[None]:
    """A fresh limiter of wrong codes allowing three per address (the app's own again after the test)."""
    app: Any = api.client.app
    app.state.online_limiter = LoginLimiter(max_failures=3, window=60)
    yield
    app.state.online_limiter = None


@pytest.mark.parametrize(("lang", "words"), [("ru", ("Код стола", "Найти стол")), ("en", ("Table code", "Find the table"))])
def test_join_without_a_code_asks_for_it(api: Api, lang: str, words: tuple[str, str]) -> None:
    p = phone(api, f"10.6.0.{1 if lang == 'ru' else 2}")
    p.cookies.set("lang", lang)
    page = p.get("/join")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), page.text
    assert f'lang="{lang}"' in page.text and all(w in page.text for w in words)
    assert '<form method="get" action="/join"' in page.text and 'name="code"' in page.text
    assert p.get("/join?code=%20").status_code == 200  # an empty field: asked again, not a wrong code


def test_the_code_typed_on_join_opens_its_table(api: Api, wrong_codes: None) -> None:
    _, code = table(api)
    p = phone(api, "10.6.1.1")
    for typed in (code, code.lower(), f" {code[:3]} {code[3:].lower()} ", f"{code[:3]}-{code[3:]}"):
        r = p.get("/join", params={"code": typed}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/join/{code}", (typed, r.status_code, r.text)
    page = p.get("/join", params={"code": code.lower()})  # followed: the seats' page of that table
    assert page.status_code == 200 and f'data-code="{code}"' in page.text and "/static/join.js" in page.text


def test_a_wrong_code_typed_on_join_is_told_and_counted(api: Api, wrong_codes: None) -> None:
    p = phone(api, "10.6.2.1")
    p.cookies.set("lang", "ru")
    for typed in ("ZZZZZ9", "no such", "ЖЖЖЖЖЖ"):
        r = p.get("/join", params={"code": typed})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), r.text
        assert "Онлайн-стола с таким кодом нет" in r.text and 'name="code"' in r.text  # the field, to try again
        assert "/static/join.js" not in r.text
    r = p.get("/join", params={"code": "ABCDEF"})  # past the limit of wrong codes: 429, the field no more
    assert r.status_code == 429 and 'name="code"' not in r.text
    assert p.get("/api/join/ABCDEF").status_code == 429  # the same limiter as the API's
    assert phone(api, "10.6.2.2").get("/join", params={"code": "ABCDEF"}).status_code == 404  # another address


def test_a_wrong_code_in_the_join_address_offers_the_field(api: Api, wrong_codes: None) -> None:
    p = phone(api, "10.6.3.1")
    p.cookies.set("lang", "en")
    r = p.get("/join/QQQQQ2")
    assert r.status_code == 404 and "No online table has this code" in r.text and 'value="QQQQQ2"' in r.text
    # a wrong spectators' code keeps its own page: no join form there
    w = p.get("/watch/QQQQQ2")
    assert w.status_code == 404 and 'name="code"' not in w.text
