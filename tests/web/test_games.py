"""The games API: a whole club game played through POST /commands, the append contract (idempotent retry,
stale seq, illegal commands), authorization, input limits and the OpenAPI schema."""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sportmafia.engine import COMMANDS, replay, summary
from sportmafia.live import writes as live
from sportmafia.store import Store
from sportmafia.web.security import hash_password
from tests.store.conftest import another_thread_writing

from .conftest import Api
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

RARE = {"undo", "foul", "sanction", "remove", "award", "team_defeat", "override", "protest"}


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal command, the host's rare actions left out while others exist; templates get a reason."""
    common = [c for c in legal if c["type"] not in RARE]
    cmd = dict(rng.choice(common or legal))
    if COMMANDS[cmd["type"]].needs_reason:
        cmd["reason"] = "judge's decision"
    return cmd


def test_play_a_whole_club_game(api: Api) -> None:
    game_id = api.new_game()
    state = api.get(f"/api/games/{game_id}").json()
    assert state["id"] == game_id and state["next_seq"] == 0
    assert [c["type"] for c in state["legal"]] == ["deal"]
    assert state["view"]["seats"][0]["name"] == "Ворон"
    r = api.command(game_id, {"type": "deal"}, 0, "deal")  # drawn by the server
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["seq"] == 0 and r.json()["events"][0]["type"] == "dealt"
    rng = random.Random(5)
    for n in range(3000):
        state = api.get(f"/api/games/{game_id}").json()
        if state["view"]["over"]:
            break
        cmd = choose(state["legal"], rng)
        r = api.command(game_id, cmd, state["next_seq"], f"c{n}")
        assert r.status_code == 200, (cmd, r.text)
        out = r.json()
        assert out["replayed"] is False
        assert [e["seq"] for e in out["events"]] == list(range(state["next_seq"], out["next_seq"]))
    else:
        raise AssertionError("the game did not end")
    final = state["view"]
    assert final["winner"] in ("red", "black")
    record = api.get(f"/api/games/{game_id}/record").json()
    assert record["meta"]["game_id"] == game_id
    again = replay(record)
    assert again.winner == final["winner"] and summary(again)["result"] == final["result"]
    assert len(api.get(f"/api/games/{game_id}/events").json()["events"]) == state["next_seq"]
    listed = api.get("/api/games").json()["games"]
    assert [(g["id"], g["status"], g["winner"]) for g in listed] == [(game_id, "over", final["winner"])]


def test_idempotent_retry(api: Api) -> None:
    game_id = api.new_game()
    first = api.command(game_id, {"type": "deal"}, 0, "deal-1").json()
    again = api.command(game_id, {"type": "deal"}, 0, "deal-1")
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first["events"] and again.json()["next_seq"] == first["next_seq"]
    events = api.get(f"/api/games/{game_id}/events").json()
    assert events["next_seq"] == first["next_seq"] == len(events["events"])
    tail = api.get(f"/api/games/{game_id}/events", params={"since": 1}).json()["events"]
    assert [e["seq"] for e in tail] == list(range(1, first["next_seq"]))


def test_stale_expected_seq(api: Api) -> None:
    game_id = api.new_game()
    head = api.command(game_id, {"type": "deal"}, 0, "deal").json()["next_seq"]
    r = api.command(game_id, {"type": "advance"}, 0, "late")
    assert r.status_code == 409
    body = r.json()
    assert body["error"]["code"] == "stale" and body["error"]["ru"]
    assert body["next_seq"] == head
    assert body["view"]["step"] == api.get(f"/api/games/{game_id}").json()["view"]["step"]
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == head


def test_illegal_command_has_a_clause_and_writes_nothing(api: Api) -> None:
    game_id = api.new_game()
    head = api.command(game_id, {"type": "deal"}, 0, "deal").json()["next_seq"]
    r = api.command(game_id, {"type": "nominate", "by": 2, "target": 5}, head, "nom")
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["clause"] and error["code"] and error["en"] and error["ru"]
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == head
    # the refused command's id is not used up
    r = api.command(game_id, {"type": "advance"}, head, "nom")
    assert r.status_code == 200 and r.json()["replayed"] is False


def test_another_clubs_host_sees_nothing(api: Api, app_client: tuple[TestClient, int]) -> None:
    game_id = api.new_game()
    other_club = api.store.create_club("Other club")
    api.store.create_user(other_club, "stranger", hash_password("stranger-password"), "host")
    other = Api(TestClient(app_client[0].app), api.store, other_club)
    other.login("stranger", "stranger-password")
    for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/events", f"/api/games/{game_id}/record"):
        r = other.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not-found", path
    r = other.command(game_id, {"type": "deal"}, 0, "x")
    assert r.status_code == 404
    assert other.get("/api/games").json()["games"] == []
    assert other.get("/api/games/no-such-game").status_code == 404
    # the admin's roster ids are not the stranger's
    roster = [p["id"] for p in api.get("/api/players").json()["players"]][:10]
    r = other.post("/api/games", {"players": 10, "roster": roster})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad-game"
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == 0


def test_not_logged_in(anon: Api) -> None:
    for method, path in (("GET", "/api/games"), ("POST", "/api/games"), ("GET", "/api/games/x"),
                         ("GET", "/api/players")):
        r = anon.client.request(method, path, json={"players": 10} if method == "POST" else None)
        assert r.status_code == 401, path


def test_oversized_body(api: Api) -> None:
    game_id = api.new_game()
    big = {"command": {"type": "foul", "seat": 1, "reason": "x" * 70_000}, "expected_seq": 0, "command_id": "big"}
    r = api.post(f"/api/games/{game_id}/commands", big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"

    def chunks() -> Any:  # no Content-Length: streamed
        for _ in range(70):
            yield b" " * 1024

    r = api.client.post(f"/api/games/{game_id}/commands", content=chunks(),
                        headers={"content-type": "application/json", **api._headers()})
    assert r.status_code == 413
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == 0


def test_bad_json_and_types(api: Api) -> None:
    game_id = api.new_game()
    path = f"/api/games/{game_id}/commands"
    r = api.client.post(path, content=b"{not json", headers={"content-type": "application/json", **api._headers()})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid"
    bad = [
        {"command": {"type": "deal"}, "expected_seq": "0", "command_id": "a"},          # a string for a number
        {"command": {"type": "deal"}, "expected_seq": -1, "command_id": "a"},
        {"command": {"type": "deal"}, "expected_seq": 0, "command_id": ""},
        {"command": {"type": "deal"}, "expected_seq": 0, "command_id": "a", "extra": 1},  # unknown field
        {"command": {"type": "fly"}, "expected_seq": 0, "command_id": "a"},             # unknown command
        {"command": {"type": "nominate", "by": 99, "target": 1}, "expected_seq": 0, "command_id": "a"},
        {"command": {"type": "nominate", "by": "1", "target": 2}, "expected_seq": 0, "command_id": "a"},
        {"command": {"type": "nominate", "by": 1, "target": 2, "colour": "red"}, "expected_seq": 0,
         "command_id": "a"},
        {"command": [1, 2], "expected_seq": 0, "command_id": "a"},
    ]
    for body in bad:
        r = api.post(path, body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] in ("invalid", "bad-command"), r.text
        assert r.json()["error"]["en"] and r.json()["error"]["ru"]
    for body in ({"players": 10, "names": ["a"] * 10, "roster": [1]}, {"players": "10"}, {"players": 10, "x": 1},
                 {"players": 99}, {"players": 10, "names": ["a"] * 9}, {"players": 12},
                 {"preset": "nope", "players": 10}, {"players": 10, "options": {"no_such_option": 1}}):
        r = api.post("/api/games", body)
        assert r.status_code == 422, (body, r.text)
    assert api.get(f"/api/games/{game_id}").json()["next_seq"] == 0
    assert len(api.get("/api/games").json()["games"]) == 1


def test_create_with_names_options_and_filters(api: Api) -> None:
    named = api.post("/api/games", {"preset": "club", "players": 10, "names": [f"Игрок {i}" for i in range(1, 11)]})
    assert named.status_code == 201
    variant = api.post("/api/games", {"preset": "club", "players": 10, "options": {"name": "our-club"}})
    assert variant.status_code == 201, variant.text
    rostered = api.new_game()
    games = api.get("/api/games").json()["games"]
    assert {g["id"] for g in games} == {named.json()["id"], variant.json()["id"], rostered}
    assert [g["id"] for g in api.get("/api/games", params={"player": "игрок 3"}).json()["games"]] \
        == [named.json()["id"]]
    assert [g["id"] for g in api.get("/api/games", params={"player": "Ворон"}).json()["games"]] == [rostered]
    today = datetime.now(UTC).date().isoformat()
    assert len(api.get("/api/games", params={"date": today}).json()["games"]) == 3
    assert api.get("/api/games", params={"date": "2001-01-01"}).json()["games"] == []
    assert api.get("/api/games", params={"date": "yesterday"}).status_code == 422
    assert api.get(f"/api/games/{variant.json()['id']}/record").json()["ruleset"]["name"] == "our-club"


def test_openapi_lists_the_routes(anon: Api) -> None:
    schema = anon.get("/openapi.json").json()
    paths = schema["paths"]
    expected = {
        ("/api/login", "post"), ("/api/logout", "post"), ("/api/me", "get"), ("/api/users", "post"),
        ("/api/players", "get"), ("/api/games", "post"), ("/api/games", "get"), ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/commands", "post"), ("/api/games/{game_id}/events", "get"),
        ("/api/games/{game_id}/record", "get"),
    }
    assert expected <= {(p, m) for p, ops in paths.items() for m in ops}
    for path, method in expected:
        assert paths[path][method]["summary"], (path, method)


def test_an_undo_in_the_numbered_feed(api: Api) -> None:
    """Every entry's ``seq`` is its place in the log; an ``undone`` event names what it undoes as ``undoes``."""
    game_id = api.new_game()
    r = api.command(game_id, {"type": "deal"}, 0, "deal").json()
    foul = api.command(game_id, {"type": "foul", "seat": 3, "reason": "gesture"}, r["next_seq"], "foul").json()
    undo = api.command(game_id, {"type": "undo"}, foul["next_seq"], "undo")
    assert undo.status_code == 200, undo.text
    answer = undo.json()["events"]
    assert answer[0] == {"seq": foul["next_seq"], "type": "undone", "undoes": foul["events"][0]["seq"]}
    feed = api.get(f"/api/games/{game_id}/events").json()["events"]
    assert [e["seq"] for e in feed] == list(range(len(feed)))
    assert feed[-1]["undoes"] == foul["events"][0]["seq"]


def test_an_append_runs_on_the_event_loop_when_no_other_thread_writes(
        api: Api, store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite: a command's append runs right on the event loop (no worker thread's hand-over) when no other
    thread of the process is writing; while one is, in a worker thread, which waits its turn and then answers.
    PostgreSQL: always in a worker thread."""
    game_id = api.new_game()
    on_loop: list[bool] = []
    real_append = store.append

    def spy(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real_append(*args, **kwargs)
    monkeypatch.setattr(store, "append", spy)
    sqlite = db_url.startswith("sqlite")
    assert api.command(game_id, {"type": "deal"}, 0, "deal").status_code == 200
    assert on_loop == [sqlite]

    answers: list[Any] = []
    head = api.get(f"/api/games/{game_id}").json()["next_seq"]
    poster = threading.Thread(target=lambda: answers.append(api.command(game_id, {"type": "advance"}, head, "adv")))
    with another_thread_writing(store):
        poster.start()
        poster.join(0.5)
        if sqlite:  # waiting for the other writer, in a worker thread (the loop still answers reads)
            assert not answers
            assert api.get(f"/api/games/{game_id}").json()["next_seq"] == head
    poster.join(10)
    assert answers and answers[0].status_code == 200, answers
    assert on_loop == [sqlite, False]

    # another thread's write that ends within WRITE_TURN_WAIT: the append waits for it on the loop
    monkeypatch.setattr(live, "WRITE_TURN_WAIT", 5.0)
    head = api.get(f"/api/games/{game_id}").json()["next_seq"]
    with another_thread_writing(store, timeout=0.1):
        assert api.command(game_id, {"type": "advance"}, head, "adv2").status_code == 200
    assert on_loop == [sqlite, False, sqlite]


def test_a_command_answers_with_the_state_after_it_when_asked(
        api: Api, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """``?state=true``: the answer also carries the game's state after the command, the same as GET
    /api/games/{id} gives then (the console's one request per action), made of the append's own fold of the
    game, with no read of the log; a replay carries it too (read then)."""
    game_id = api.new_game()
    plain = api.command(game_id, {"type": "deal"}, 0, "deal")
    assert plain.status_code == 200 and "state" not in plain.json()
    head = plain.json()["next_seq"]
    loads: list[str] = []
    real_load = store.load
    monkeypatch.setattr(store, "load", lambda gid: loads.append(gid) or real_load(gid))
    body = {"command": {"type": "advance"}, "expected_seq": head, "command_id": "adv"}
    r = api.post(f"/api/games/{game_id}/commands?state=true", body)
    assert r.status_code == 200, r.text
    assert loads == []
    answer = r.json()
    assert answer["state"] == api.get(f"/api/games/{game_id}").json()
    assert answer["state"]["next_seq"] == answer["next_seq"] > head
    loads.clear()
    again = api.post(f"/api/games/{game_id}/commands?state=true", body).json()
    assert again["replayed"] is True and again["state"] == answer["state"] and loads == [game_id]
    refused = api.post(f"/api/games/{game_id}/commands?state=true", {**body, "command_id": "adv-stale"})
    assert refused.status_code == 409 and "state" not in refused.json()
