"""What the public sees of an online table (docs/online.md; web/online/stream.py, live/online.py): the judge's
delayed open stream, and the spectators' sockets following the table code to the table's next game (here, and
passed on by another process)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from sportmafia.engine import Game, rule_values, view
from sportmafia.live import hub as live
from sportmafia.live import subscriber as live_subscriber
from sportmafia.live.online import public_game_key
from sportmafia.store import online as db
from sportmafia.store.models import GameEvent, utcnow
from sportmafia.web import online

from .conftest import Api
from .test_online import (
    ORIGIN,
    dealt_game,
    open_table,
    quiet,
    recv,
    until,
)


# ------------------------------------------------------------------------------------------ helpers
def end_game(api: Api, game_id: str) -> None:
    """The judge ends the game: he decides the result (A.judge)."""
    seq = len(api.store.load(game_id).log)
    r = api.command(game_id, {"type": "override", "winner": "red", "reason": "test"}, seq, f"end-{game_id}")
    assert r.status_code == 200, r.text
    assert api.store.game(game_id).status == "over"


# ------------------------------------------------------------------------------------------ the open stream
def test_open_stream_is_delayed(api: Api) -> None:
    game_id, game = dealt_game(api, seed=2)
    open_table(api, game_id)
    r = api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 10})
    assert r.status_code == 200
    token = r.json()["token"]
    assert api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 0}).status_code == 422
    headers = {online.STREAM_HEADER: token}
    body = api.client.get("/api/stream/state", headers=headers).json()
    assert body["next_seq"] == 0 and body["view"]["step"] == "deal"  # nothing is 10 minutes old
    assert body["rules"] == rule_values(game.rules)  # the board's values: the foul dots, the speeches, the black roles
    # age the first events (the deal) by an hour: the stream shows the game as it stood then
    with api.store._write.begin() as s:
        s.execute(update(GameEvent).where(GameEvent.game_id == game_id, GameEvent.seq < 2)
                  .values(created_at=utcnow() - timedelta(hours=1)))
    body = api.client.get("/api/stream/state", headers=headers).json()
    past = Game.from_events(game.rules, game.n, game.log[:2], game.names)
    assert body["next_seq"] == 2 and body["view"] == view(past, "host")
    assert all(s["role"] for s in body["view"]["seats"])  # roles, but late
    assert api.client.get("/api/stream/state", headers={online.STREAM_HEADER: "x"}).status_code == 401
    page = api.client.get(f"/stream/{token}")
    assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
    # a new link ends the old one; closing ends both
    token2 = api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 5}).json()["token"]
    assert api.client.get("/api/stream/state", headers=headers).status_code == 401
    api.client.delete(f"/api/games/{game_id}/online/stream", headers={"X-CSRF-Token": api.csrf or ""})
    assert api.client.get("/api/stream/state", headers={online.STREAM_HEADER: token2}).status_code == 401


# ------------------------------------------------------------------------------------------ the table's next game
def test_the_table_code_passes_to_the_next_game_and_its_spectators_follow(api: Api) -> None:
    """The next game at a table takes the table's code (``POST .../online {"code"}``): its join page, spectators'
    page and overlay stay where they were, and a spectator's open socket goes on with the new game (``table``,
    then the new game's ``state`` from its start); a reconnecting page whose seq is of the previous game gets
    the new one from its start. The previous game gets a new code. Refused while the game that has the code is
    being played, and for a code of no table of the club."""
    first, game = dealt_game(api, seed=7)
    code = open_table(api, first)["code"]
    second = api.new_game()
    with api.client.websocket_connect(f"/ws/watch/{code.lower()}", headers=ORIGIN) as watch:
        table = recv(watch)
        assert table == {"type": "table", "code": code, "game": public_game_key(first)}
        assert until(watch, "state")["next_seq"] == len(game.log)
        r = api.post(f"/api/games/{second}/online", {"code": code})
        assert r.status_code == 409 and r.json()["error"]["code"] == "in-play", r.text
        assert {"en", "ru"} <= set(r.json()["error"]) and api.get(f"/api/games/{second}/online").json()["open"] is False
        assert quiet(watch) == []  # nothing changed for the spectator
        end_game(api, first)
        last = until(watch, "events")
        assert last["next_seq"] == len(api.store.load(first).log) and last["view"]["over"]
        moved = api.post(f"/api/games/{second}/online", {"code": code.lower()})
        assert moved.status_code == 200, moved.text
        assert moved.json()["code"] == code and moved.json()["game_id"] == second
        new_code = api.get(f"/api/games/{first}/online").json()["code"]
        assert new_code != code and len(new_code) == len(code)
        assert recv(watch) == {"type": "table", "code": code, "game": public_game_key(second)}
        state = recv(watch)
        assert state["type"] == "state" and state["since"] == 0 and state["next_seq"] == 0
        assert state["view"]["viewer"] == "spectator" and [s["name"] for s in state["view"]["seats"]] == list(
            api.store.game(second).names)
        roles = ["civilian"] * 6 + ["sheriff", "don", "mafia", "mafia"]
        assert api.command(second, {"type": "deal", "roles": roles}, 0, "deal-2").status_code == 200
        events = until(watch, "events")
        assert events["since"] == 0 and events["next_seq"] == len(api.store.load(second).log)
        assert "role" not in json.dumps(events["events"][0]) and all(s.get("role") is None
                                                                     for s in events["view"]["seats"])
        held = events["next_seq"]
    assert api.post(f"/api/games/{second}/online", {"code": code}).json()["code"] == code  # its own: unchanged
    # a page reconnecting: with a seq of the previous game (its key) it gets the new game from the start ...
    with api.client.websocket_connect(
            f"/ws/watch/{code}?since=300&game={public_game_key(first)}", headers=ORIGIN) as watch:
        assert recv(watch)["game"] == public_game_key(second)
        state = recv(watch)
        assert (state["type"], state["since"], state["next_seq"]) == ("state", 0, held)
    # ... and with a seq of this game, only what it missed
    with api.client.websocket_connect(
            f"/ws/watch/{code}?since={held}&game={public_game_key(second)}", headers=ORIGIN) as watch:
        recv(watch)
        state = recv(watch)
        assert (state["since"], state["events"]) == (held, [])
    # the previous game is watched by its new code
    with api.client.websocket_connect(f"/ws/watch/{new_code}", headers=ORIGIN) as watch:
        assert recv(watch)["game"] == public_game_key(first)
    for bad in ("ZZZZZZ", new_code + "X"):
        r = api.post(f"/api/games/{second}/online", {"code": bad})
        assert r.status_code == 404 and r.json()["error"]["code"] == "no-table", r.text
    assert api.get(f"/api/games/{second}/online").json()["code"] == code


def test_only_a_code_of_the_hosts_own_club_passes(api: Api) -> None:
    first = api.new_game()
    code = open_table(api, first)["code"]
    other_club = api.store.create_club("Another club")
    game = api.store.create_game(other_club, "club", 10)
    with pytest.raises(db.OnlineRefused) as refused:
        db.take_code(api.store, game, code, None)
    assert refused.value.code == "no-table" and db.table(api.store, first).code == code  # type: ignore[union-attr]
    assert db.table(api.store, game) is None


def test_a_code_passed_on_between_its_read_and_the_subscription_is_followed(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator's socket reads the code's game, then subscribes: a pass made in between is in the hub's moves
    (told before the subscription), and the socket goes to the new game at once."""
    first = api.new_game()
    code = open_table(api, first)["code"]
    second = api.new_game()
    real = db.table_by_code
    passed: list[str] = []

    def read_then_pass(store: Any, wanted: str) -> Any:
        out = real(store, wanted)
        if not passed:
            db.take_code(store, second, code, None)
            live.get_hub(api.client.app).publish_code_moved(first, code, second)  # type: ignore[arg-type]
            passed.append(second)
        return out
    monkeypatch.setattr(db, "table_by_code", read_then_pass)
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert passed and recv(watch)["game"] == public_game_key(second)
        assert until(watch, "state")["next_seq"] == 0


def _past_pings(ws: Any) -> dict[str, Any]:
    """The socket's next message that is not a keepalive ping (after at most a hundred pings: not a hang)."""
    m: dict[str, Any] = recv(ws)
    for _ in range(100):
        if m["type"] != "ping":
            break
        m = recv(ws)
    return m


def test_a_code_passed_on_by_another_process_is_followed(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server process passes the code: told through Redis, the spectators here follow at once; without
    Redis to tell them, at their keepalive (the code read again, once for the sockets of a table)."""
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 0.3)
    first, second, third = api.new_game(), api.new_game(), api.new_game()
    code = open_table(api, first)["code"]
    hub = live.get_hub(api.client.app)  # type: ignore[arg-type]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        until(watch, "state")
        db.take_code(api.store, second, code, None)  # as another process does it: this one is not told
        hub._from_redis(json.dumps({"origin": "another process", "game": first, "code": code, "code_to": second}))
        assert _past_pings(watch)["game"] == public_game_key(second)  # a keepalive (0.3 s) may come first
        until(watch, "state")
        db.take_code(api.store, third, code, None)  # and nothing through Redis: the keepalive finds it
        assert _past_pings(watch)["game"] == public_game_key(third)
        assert until(watch, "state")["next_seq"] == 0


def test_the_open_stream_shows_the_claims_with_the_same_delay(api: Api) -> None:
    """What the seats said (docs/bots.md, "Claims") reaches the open stream only once the moment it was said is
    as old as the stream's delay: a claim never runs ahead of the board it was said on."""
    from sportmafia.bots.claims import speaker
    from sportmafia.services.table_bots import say

    game_id, _game = dealt_game(api, seed=2)
    open_table(api, game_id)
    seat = speaker(api.store.load(game_id))
    assert seat is not None
    say(api.store, game_id, seat, {"kind": "suspect", "target": seat % 10 + 1})
    headers = {online.STREAM_HEADER: api.post(f"/api/games/{game_id}/online/stream",
                                              {"delay_minutes": 10}).json()["token"]}
    with api.store._write.begin() as s:
        s.execute(update(GameEvent).where(GameEvent.game_id == game_id, GameEvent.seq < 2)
                  .values(created_at=utcnow() - timedelta(hours=1)))
    body = api.client.get("/api/stream/state", headers=headers).json()
    assert body["next_seq"] == 2 and body["claims"] == []  # said after the moment the stream shows
    with api.store._write.begin() as s:
        s.execute(update(GameEvent).where(GameEvent.game_id == game_id)
                  .values(created_at=utcnow() - timedelta(hours=1)))
    body = api.client.get("/api/stream/state", headers=headers).json()
    [claim] = body["claims"]
    assert claim["seat"] == seat and claim["kind"] == "suspect" and claim["n"] == 0
    assert claim["text"]["en"] == f"#{seat}: I suspect #{seat % 10 + 1}."
