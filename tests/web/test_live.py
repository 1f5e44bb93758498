"""Live updates over WebSocket (``/ws/games/{id}``): refusals (no session, another club's game, a foreign
Origin, a bad view), the host's and the table's messages after commands posted through the API (in order,
none twice), resuming with ``since``, two host screens in step, the host's timer relayed, a whole random game
watched by the table view against the engine's spectator view (no secret leaks), and two app instances on one
database kept in step through Redis."""

from __future__ import annotations

import random
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sportmafia.bots.random_play import random_command
from sportmafia.engine import Game, feed_length, view, visible_events
from sportmafia.engine import views as engine_views
from sportmafia.live import hub as live_hub
from sportmafia.live import render
from sportmafia.live.socket import CLOSE_FORBIDDEN_ORIGIN, CLOSE_INVALID, CLOSE_NOT_AUTHORIZED, CLOSE_NOT_FOUND
from sportmafia.rules import get_ruleset
from sportmafia.store import Store
from sportmafia.web import create_app
from sportmafia.web.security import hash_password
from sportmafia.web.socket_guard import origin_matches

from .conftest import ADMIN_PASSWORD, Api, game_at
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

ORIGIN = {"origin": "http://testserver"}


def recv(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The next JSON message, failing after ``timeout`` seconds (TestClient's own receive waits forever)."""
    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    import json

    out: dict[str, Any] = json.loads(message["text"])
    return out


def nothing_more(ws: Any, wait: float = 0.3) -> None:
    async def get() -> Any:
        with anyio.move_on_after(wait):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(get)
    assert message is None, f"unexpected message {message}"


def until(ws: Any, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of ``kind`` (keepalive pings skipped)."""
    while True:
        message = recv(ws, timeout)
        if message["type"] == kind:
            return message
        assert message["type"] == "ping", message


def refused(client: TestClient, url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    with client.websocket_connect(url, headers=headers) as ws:
        error = recv(ws)
        with pytest.raises(WebSocketDisconnect) as exc:
            recv(ws)
    return exc.value.code, error


def play(api: Api, game_id: str, rng: random.Random, n: int) -> int:
    """Post ``n`` random legal commands (the first may be the deal); returns the next seq."""
    next_seq = 0
    for i in range(n):
        game = api.store.load(game_id)
        if game.over:
            break
        cmd = random_command(game, rng).to_json()
        r = api.command(game_id, cmd, len(game.log), f"{game_id}-{len(game.log)}-{i}")
        assert r.status_code == 200, (cmd, r.text)
        next_seq = r.json()["next_seq"]
    return next_seq


# ------------------------------------------------------------------------------------------ refusals
def test_refusals(api: Api, anon: Api) -> None:
    game_id = api.new_game()
    url = f"/ws/games/{game_id}?view=table"
    code, error = refused(api.client, url, {"origin": "http://evil.example"})
    assert code == CLOSE_FORBIDDEN_ORIGIN and error["error"]["code"] == "forbidden-origin"
    assert error["error"]["ru"] and error["error"]["en"]
    code, _ = refused(api.client, url, {})  # no Origin at all
    assert code == CLOSE_FORBIDDEN_ORIGIN
    code, _ = refused(api.client, url, {"origin": "http://testserver:8080"})
    assert code == CLOSE_FORBIDDEN_ORIGIN
    for bad in ("?view=seat", "?view=spectator", "?view=host&since=-1", "?view=host&since=x", "?since=999"):
        code, error = refused(api.client, f"/ws/games/{game_id}{bad}", ORIGIN)
        assert code == CLOSE_INVALID and error["error"]["code"] == "invalid", bad
    code, _ = refused(api.client, "/ws/games/no-such-game?view=host", ORIGIN)
    assert code == CLOSE_NOT_FOUND

    # another club's game: "not found", exactly like a missing one
    other_club = api.store.create_club("Другой клуб")
    other_game = api.store.create_game(other_club, "club", 10)
    code, error = refused(api.client, f"/ws/games/{other_game}?view=host", ORIGIN)
    assert code == CLOSE_NOT_FOUND and error["error"]["code"] == "not-found"

    # no session
    api.post("/api/logout")
    code, error = refused(api.client, url, ORIGIN)
    assert code == CLOSE_NOT_AUTHORIZED and error["error"]["code"] == "not-logged-in"
    code, _ = refused(anon.client, url, ORIGIN)
    assert code == CLOSE_NOT_AUTHORIZED


def test_origin_matches() -> None:
    assert origin_matches("http://club.example:8000", "club.example:8000")
    assert origin_matches("https://Club.Example", "club.example:443")
    assert origin_matches("http://club.example", "club.example")
    assert origin_matches("https://club.example", "club.example")  # behind TLS: Host names no scheme
    assert not origin_matches("https://club.example:8443", "club.example")
    assert not origin_matches("http://club.example", "club.example:8000")
    assert not origin_matches("http://club.example.evil", "club.example")
    assert not origin_matches("null", "club.example")
    assert not origin_matches(None, "club.example")
    assert not origin_matches("http://club.example:x", "club.example")
    assert not origin_matches("ftp://club.example", "club.example")


# ------------------------------------------------------------------------------------------ messages
def test_host_and_table_follow_commands(api: Api) -> None:
    game_id = api.new_game()
    rng = random.Random(11)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host, \
            api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
        first_host, first_table = until(host, "state"), until(table, "state")
        assert first_host["next_seq"] == first_table["next_seq"] == 0
        assert first_host["events"] == first_table["events"] == []
        assert first_host["view"]["viewer"] == "host" and first_table["view"]["viewer"] == "spectator"
        seen: dict[str, list[int]] = {"host": [], "table": []}
        heads = {"host": 0, "table": 0}
        for _ in range(40):
            play(api, game_id, rng, 1)
            game = api.store.load(game_id)
            for name, ws, viewer in (("host", host, "host"), ("table", table, "spectator")):
                while heads[name] < feed_length(game, viewer):  # the table's feed: what a spectator may see
                    m = until(ws, "events")
                    assert m["next_seq"] > heads[name]
                    # exactly the events after what it had, as the engine shows them to this viewer
                    at = game_at(game, viewer, m["next_seq"])
                    assert m["events"] == visible_events(at, viewer, heads[name])
                    assert m["view"] == view(at, viewer)
                    # (an "undone" event's own field "seq", the undone action, hides its place in the log)
                    seen[name] += [e["seq"] if e["type"] != "undone" else -1 for e in m["events"]]
                    heads[name] = m["next_seq"]
        assert heads["host"] == len(game.log) and heads["table"] == feed_length(game, "spectator")
        # every event once, in order
        assert len(seen["host"]) == len(game.log)
        assert [s for s in seen["host"] if s >= 0] == [i for i, ev in enumerate(game.log) if ev.type != "undone"]
        # the table's feed is numbered in its own count: every entry once, in order, no gap where a move was hidden
        table_seqs = [s for s in seen["table"] if s >= 0]
        assert table_seqs == sorted(set(table_seqs)) and set(seen["table"]) - {-1} <= set(range(heads["table"]))
        assert all("role" in s for s in view(game, "host")["seats"])  # the host sees roles, the table does not
        assert all("role" not in s for s in view(game, "spectator")["seats"])
        nothing_more(host)
        nothing_more(table)


def test_resume_with_since_gets_exactly_what_was_missed(api: Api) -> None:
    game_id = api.new_game()
    rng = random.Random(3)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as ws:
        until(ws, "state")
        head = play(api, game_id, rng, 5)
        while until(ws, "events")["next_seq"] < head:
            pass
    missed_from = head
    head = play(api, game_id, rng, 6)  # while no socket is open
    assert head > missed_from
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host&since={missed_from}", headers=ORIGIN) as ws:
        state = until(ws, "state")
        assert state["next_seq"] == head
        assert [e["seq"] for e in state["events"]] == list(range(missed_from, head))
        assert state["events"] == visible_events(api.store.load(game_id), "host", missed_from)
        nothing_more(ws)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=table&since={head}", headers=ORIGIN) as ws:
        state = until(ws, "state")
        assert state["events"] == [] and state["next_seq"] == head


def test_two_host_screens_stay_in_step(api: Api) -> None:
    game_id = api.new_game()
    rng = random.Random(8)
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as a, \
            api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as b:
        until(a, "state")
        until(b, "state")
        head = play(api, game_id, rng, 12)
        got: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
        for name, ws in (("a", a), ("b", b)):
            last = 0
            while last < head:
                m = until(ws, "events")
                got[name] += m["events"]
                last = m["next_seq"]
        assert got["a"] == got["b"] == visible_events(api.store.load(game_id), "host")


def test_timer_relays_to_the_table_and_bad_timers_are_refused(api: Api) -> None:
    game_id = api.new_game()
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host, \
            api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
        until(host, "state")
        until(table, "state")
        timer = {"type": "timer", "running": True, "left": 42.5, "total": 60, "key": "speech|1|3|0|60"}
        host.send_json(timer)
        m = until(table, "timer")
        assert {k: m[k] for k in ("running", "left", "total", "key")} == {k: timer[k] for k in
                                                                          ("running", "left", "total", "key")}
        assert isinstance(m["at"], float) and m["now"] >= m["at"]
        for bad in ({"type": "timer", "running": 1, "left": 1, "total": 2, "key": ""},
                    {"type": "timer", "running": True, "left": 70, "total": 60, "key": ""},
                    {"type": "timer", "running": True, "left": -1, "total": 60, "key": ""},
                    {"type": "timer", "running": True, "left": "5", "total": 60, "key": ""},
                    {"type": "timer", "running": True, "left": 5, "total": 99999, "key": ""},
                    {"type": "timer", "running": True, "left": 5, "total": 60, "key": "", "role": "don"},
                    {"type": "timer", "running": True, "left": 5, "total": 60},
                    {"type": "hello"}, [1, 2]):
            host.send_json(bad)
            error = until(host, "error")
            assert error["error"]["code"] in ("bad-timer", "bad-message") and error["error"]["ru"]
        host.send_text("not json")
        assert until(host, "error")["error"]["code"] == "bad-message"
        host.send_text("x" * 5000)
        assert until(host, "error")["error"]["code"] == "bad-message"
        # the table view may not set the timer
        table.send_json({"type": "timer", "running": False, "left": 1, "total": 2, "key": "k"})
        assert until(table, "error")["error"]["code"] == "forbidden"
        nothing_more(table)  # none of the refused timers reached the table
        nothing_more(host)
    # a screen that connects later gets the host's last timer
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as late:
        until(late, "state")
        m = until(late, "timer")
        assert m["left"] == 42.5 and m["running"] is True


# ------------------------------------------------------------------------------------------ no leaks
def _check_table_messages(messages: list[dict[str, Any]], final: Game) -> None:
    """Every table-view message equals the engine's spectator view and events at its number of the spectator's
    feed; no roles before the end, every role at the end."""
    last = 0
    for m in messages:
        at = game_at(final, "spectator", m["next_seq"])
        assert m["view"] == view(at, "spectator"), m["next_seq"]
        assert m["events"] == visible_events(at, "spectator", last), m["next_seq"]
        for seat in m["view"]["seats"]:  # no role before the end; every one at the end (then public)
            assert seat.get("role") == (final.roles[seat["seat"]] or None) if m["view"]["over"] else "role" not in seat
        for ev in m["events"]:
            assert "roles" not in ev and "role" not in ev
            assert ev["type"] not in ("shot_fired", "volley_fired", "kill_chosen", "checked")
        last = m["next_seq"]


def test_a_whole_game_leaks_nothing_to_the_table(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = api.new_game()
    rng = random.Random(2024)
    messages: list[dict[str, Any]] = []
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
        messages.append(until(table, "state"))
        for _ in range(3000):
            game = api.store.load(game_id)
            if game.over:
                break
            play(api, game_id, rng, 1)
            head = feed_length(api.store.load(game_id), "spectator")  # a hidden move sends the table nothing
            while messages[-1]["next_seq"] < head:
                messages.append(until(table, "events"))
        else:
            raise AssertionError("the game did not end")
        nothing_more(table)  # nothing after its last entry: the hidden moves sent it nothing
    final = api.store.load(game_id)
    assert final.over and messages[-1]["next_seq"] == feed_length(final, "spectator") < len(final.log)
    assert len(messages) > 50
    _check_table_messages(messages, final)

    # the check is strong enough: a spectator view that shows roles is caught
    class Leaky(engine_views.Views):
        def __call__(self, viewer: Any) -> dict[str, Any]:
            out = super().__call__(viewer)
            if viewer == "spectator":
                out["seats"] = [{**seat, "role": self.game.roles[seat["seat"]] or None} for seat in out["seats"]]
            return out

    monkeypatch.setattr(render, "Views", Leaky)
    game_id = api.new_game()
    leaked: list[dict[str, Any]] = []
    with api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
        leaked.append(until(table, "state"))
        play(api, game_id, random.Random(1), 3)
        head = feed_length(api.store.load(game_id), "spectator")
        while leaked[-1]["next_seq"] < head:
            leaked.append(until(table, "events"))
    with pytest.raises(AssertionError):
        _check_table_messages(leaked, api.store.load(game_id))


# ------------------------------------------------------------------------------------------ Redis
def test_two_app_instances_share_moves_through_redis(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(live_hub.REDIS_ENV, redis_url)
    app1 = create_app(api.store, secret_key="test-secret")
    app2 = create_app(second_store, secret_key="test-secret")
    host_user = api.store.create_user(api.club_id, "host2", hash_password(ADMIN_PASSWORD), "host")
    assert host_user.club_id == api.club_id
    game_id = api.store.create_game(api.club_id, get_ruleset("club"), 10, host_id=host_user.id)  # host2's game
    with TestClient(app1) as c1, TestClient(app2) as c2:
        hub1, hub2 = live_hub.get_hub(app1), live_hub.get_hub(app2)
        assert hub1.redis_url == hub2.redis_url == redis_url and hub1.origin != hub2.origin
        for hub, client in ((hub1, c1), (hub2, c2)):
            client.portal.call(_wait_connected, hub)  # type: ignore[attr-defined]
        one = Api(c1, api.store, api.club_id)
        one.login()
        two = Api(c2, second_store, api.club_id)
        two.login("host2")
        with c2.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table, \
                c2.websocket_connect(f"/ws/games/{game_id}?view=host", headers=ORIGIN) as host2:
            until(table, "state")
            until(host2, "state")
            r = one.command(game_id, {"type": "deal"}, 0, "redis-deal")  # posted on app 1
            assert r.status_code == 200, r.text
            head = r.json()["next_seq"]
            m = until(table, "events", timeout=3)  # reached a socket of app 2
            assert m["next_seq"] == head and m["events"] == visible_events(second_store.load(game_id), "spectator")
            assert until(host2, "events", timeout=3)["events"] == visible_events(api.store.load(game_id), "host")
            # and the host's timer, set on app 2, reaches a table view on app 1
            with c1.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table1:
                until(table1, "state")
                host2.send_json({"type": "timer", "running": False, "left": 30, "total": 60, "key": "k"})
                timer = until(table1, "timer", timeout=3)
                assert timer["left"] == 30 and timer["running"] is False
                assert until(table, "timer", timeout=3)["left"] == 30

            # Redis drops app 2's connections: it reconnects, and the moves reach its sockets again
            import redis

            admin = redis.Redis.from_url(redis_url)
            try:
                killed = [c["id"] for c in admin.client_list() if c.get("name") == hub2.client_name]
                assert killed
                for client_id in killed:
                    admin.client_kill_filter(_id=client_id)
            finally:
                admin.close()
            c2.portal.call(_wait_reconnected, hub2)  # type: ignore[attr-defined]
            state = api.get(f"/api/games/{game_id}").json()
            advance = next(c for c in state["legal"] if c["type"] == "advance")
            r = one.command(game_id, advance, state["next_seq"], "redis-after-drop")
            assert r.status_code == 200, r.text
            m = until(table, "events", timeout=3)
            assert m["next_seq"] == r.json()["next_seq"]


def test_another_process_folds_the_events_sent_with_the_signal(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move committed by app 1 reaches app 2's sockets with its events: app 2 folds them onto the game it holds
    and reads nothing of the log; events that do not continue what app 2 holds (a lost message) are dropped, and
    app 2 reads the log instead. The sockets' messages are the same either way."""
    monkeypatch.setenv(live_hub.REDIS_ENV, redis_url)
    app1 = create_app(api.store, secret_key="test-secret")
    app2 = create_app(second_store, secret_key="test-secret")
    reads: list[int] = []
    log_since = second_store.log_since
    monkeypatch.setattr(second_store, "log_since", lambda g, seq: reads.append(seq) or log_since(g, seq))
    game_id = api.new_game()
    with TestClient(app1) as c1, TestClient(app2) as c2:
        for hub, client in ((live_hub.get_hub(app1), c1), (live_hub.get_hub(app2), c2)):
            client.portal.call(_wait_connected, hub)  # type: ignore[attr-defined]
        one = Api(c1, api.store, api.club_id)
        one.login()
        Api(c2, second_store, api.club_id).login()
        with c2.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
            seen = until(table, "state")["next_seq"]
            for i in range(12):
                state = one.get(f"/api/games/{game_id}").json()
                command = next(c for c in state["legal"] if c["type"] == "advance") if i else {"type": "deal"}
                r = one.command(game_id, command, state["next_seq"], f"sent-{i}")
                assert r.status_code == 200, r.text
                head = feed_length(api.store.load(game_id), "spectator")
                while seen < head:
                    m = until(table, "events", timeout=3)
                    assert m["events"] == visible_events(api.store.load(game_id), "spectator", seen)
                    seen = m["next_seq"]
                if i == 8:
                    assert reads == []  # everything came with the signals
                    # a signal whose events do not continue what app 2 holds: dropped, the log is read
                    second_store._parsed.pop(game_id)
            assert reads  # after the gap, app 2 read the log
    game = api.store.load(game_id)
    assert second_store.load(game_id).log == game.log


async def _wait_reconnected(hub: live_hub.Hub) -> None:
    with anyio.fail_after(10):
        while hub.redis_connected.is_set():
            await anyio.sleep(0.02)
        await hub.redis_connected.wait()


async def _wait_connected(hub: live_hub.Hub) -> None:
    with anyio.fail_after(5):
        await hub.redis_connected.wait()


# ------------------------------------------------------------------------------------------ the table page
def test_the_table_page(api: Api) -> None:
    game_id = api.new_game()
    api.post("/api/logout")
    r = api.client.get(f"/games/{game_id}/table", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/login?next=/games/{game_id}/table"
    api.login()
    page = api.get(f"/games/{game_id}/table", headers={"Accept-Language": "en"})
    assert page.status_code == 200 and "Table screen" in page.text and 'data-game="' + game_id + '"' in page.text
    assert "/static/live.js" in page.text and "/static/table.js" in page.text
    # built from the spectator view only: the page itself carries no game state, and never the host's API
    assert "/api/games" not in page.text
    api.client.cookies.set("lang", "ru")
    assert "Экран стола" in api.get(f"/games/{game_id}/table").text
    other = api.store.create_game(api.store.create_club("Чужой клуб"), "club", 10)
    assert api.get(f"/games/{other}/table").status_code == 404
    assert api.get("/games/nope/table").status_code == 404
    for name in ("live.js", "table.js", "table.css", "console-live.js"):
        assert api.get(f"/static/{name}").status_code == 200
    table_js = api.get("/static/table.js").text
    assert "SM.api" not in table_js and "/api/" not in table_js


def test_the_log_is_read_every_second_only_where_another_process_may_write(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Redis, a process alone on its database reads nothing every second (every move there is its own);
    the processes of ``serve --workers N`` (``shared``) do, on PostgreSQL; on SQLite nobody does."""
    monkeypatch.delenv(live_hub.REDIS_ENV, raising=False)
    alone = live_hub.get_hub(create_app(api.store, secret_key="test-secret"))
    assert not alone.polling and not alone.poll_without_redis
    workers = live_hub.get_hub(create_app(api.store, secret_key="test-secret", shared=True))
    assert workers.polling is (not api.store.local)
