"""Ids and text at the edge (docs/api.md, "Ids and text"): an id of 2^31 and beyond (PostgreSQL's integer), 2^63
and beyond (SQLite's), or below 1, in any route's path, and in a body, answers 404 or 422, never 500; a NUL or
another control character in a name, a command id, a login, a query or an uploaded file answers 422 with the
reason in English and Russian. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts

from .edge import Server, server
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

BIG = (2**31, 2**63, 2**64, -1)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as mp, server(request.param, tmp_path_factory.mktemp("edge"), mp) as s:
        yield s


def refused(r: Any, *statuses: int) -> dict[str, Any]:
    assert r.status_code in statuses, (r.request.method, r.request.url, r.status_code, r.text)
    if r.headers.get("content-type", "").startswith("application/json"):
        err: dict[str, Any] = r.json()["error"]
        assert err["en"] and err["ru"]
        return err
    return {}


def int_path_routes(srv: Server) -> list[tuple[str, str, list[str]]]:
    """Every HTTP route with an integer in its path: (method, path, the integer parameters)."""
    found = []
    for route in iter_route_contexts(srv.client.app.routes):  # type: ignore[attr-defined]
        dependant = getattr(route, "dependant", None)
        methods = getattr(route, "methods", None)
        if dependant is None or not methods:
            continue
        ints = [p.name for p in dependant.path_params if p.field_info.annotation is int]
        found += [(method, route.path, ints) for method in sorted(methods - {"HEAD"}) if ints]
    return found


def test_every_integer_id_beyond_the_database_is_refused(srv: Server) -> None:
    admin = srv.admin
    tid = admin.post("/api/tournaments", {"name": "Cup", "preset": "club"}).json()["id"]
    pid = admin.post(f"/api/tournaments/{tid}/participants", {"text": "A\nB"}).json()["added"][0]["id"]
    game_id = admin.new_game()
    real = {"tournament_id": tid, "participant_id": pid, "game_id": game_id, "number": 1, "seat": 1,
            "request_id": 1, "variant_id": 1, "person_id": 1, "club_id": 1, "name": "rating", "fmt": "svg",
            "season_id": 1}
    routes = int_path_routes(srv)
    assert len(routes) >= 25  # the tournaments' routes, the public ones, the pages, variants, seat links
    for method, path, ints in routes:
        for name in ints:
            for value in BIG:
                url = re.sub(r"\{(\w+)\}", lambda m, name=name, value=value: str(  # type: ignore[misc]
                    value if m.group(1) == name else real[m.group(1)]), path)
                r = admin.client.request(method, url, headers=admin._headers())
                refused(r, 404, 422)


def test_ids_in_a_body_beyond_the_database_are_refused(srv: Server) -> None:
    admin = srv.admin
    tid = admin.post("/api/tournaments", {"name": "Cup 2", "preset": "club"}).json()["id"]
    for value in BIG[:3]:
        refused(admin.post("/api/games", {"preset": "club", "players": 10, "variant": value}), 422)
        refused(admin.post("/api/games", {"preset": "club", "players": 10, "roster": [value] * 10}), 422)
        refused(admin.client.put(f"/api/tournaments/{tid}/staff", json={"staff": [{"user_id": value, "role": "host"}]},
                                 headers=admin._headers()), 422)
        refused(admin.post(f"/api/tournaments/{tid}/sanctions",
                           {"participant_id": value, "kind": "tournament", "reason": "r"}), 404, 422)
        refused(admin.post(f"/api/tournaments/{tid}/participants",
                           {"participants": [{"nickname": "X", "user_id": value}]}), 404, 422)
        refused(admin.post("/api/tournaments", {"name": "V", "variant": value}), 404, 422)
        refused(admin.client.get(f"/api/games/{admin.new_game()}/events", params={"since": value}), 422)


def test_a_control_character_in_text_is_refused(srv: Server) -> None:
    admin = srv.admin
    names = [f"Player {i}" for i in range(1, 10)]
    err = refused(admin.post("/api/games", {"preset": "club", "players": 10, "names": [*names, "Ni\x00ck"]}), 422)
    assert err["code"] == "bad-text" and "U+0000" in err["en"] and "U+0000" in err["ru"]
    game_id = admin.new_game()
    deal = admin.get(f"/api/games/{game_id}").json()["legal"][0]
    err = refused(admin.command(game_id, deal, 0, "id\x001"), 422)
    assert err["code"] == "bad-text"
    refused(admin.command(game_id, deal, 0, "id\x071"), 422)
    tid = admin.post("/api/tournaments", {"name": "Cup 3", "preset": "club"}).json()["id"]
    for body in ({"text": "A\x00\nB"}, {"participants": [{"nickname": "A\x00"}]},
                 {"participants": [{"nickname": "A", "club": "C\x1b"}]}):
        assert refused(admin.post(f"/api/tournaments/{tid}/participants", body), 422)["code"] == "bad-text"
    refused(admin.post("/api/tournaments", {"name": "Cup\x00"}), 422)
    r = admin.post(f"/api/tournaments/{tid}/participants/csv",
                   files={"file": ("p.csv", b"nickname,club\nA\x00,B\n", "text/csv")})
    refused(r, 422)
    anon = srv.anonymous()
    assert refused(anon.post("/api/login", {"login": "ad\x00min", "password": "x"}), 422)["code"] == "bad-text"
    assert refused(admin.get("/api/games", params={"player": "a\x00b"}), 422)["code"] == "bad-text"
    refused(admin.get("/games/a%00b"), 404, 422)
    # tabs and line breaks stay where text holds them: a pasted list is one name a line
    r = admin.post(f"/api/tournaments/{tid}/participants", {"text": "Tab\tName\r\nOther"})
    assert r.status_code == 201, r.text
    assert admin.get(f"/api/tournaments/{tid}/participants").status_code == 200


def test_a_control_character_in_a_spectators_socket_code_is_no_table(srv: Server) -> None:
    """The spectator's socket skips the app's routes (``SocketShortcut``): its code is checked by the store."""
    from starlette.websockets import WebSocketDisconnect

    for code in ("AB%00CD", "%00", "AB%1BCD"):
        with srv.anonymous().client.websocket_connect(f"/ws/watch/{code}") as ws:
            try:
                message = ws.receive_json()
            except WebSocketDisconnect as exc:
                assert exc.code == 4404
            else:
                assert message["error"]["code"] == "no-table", message
