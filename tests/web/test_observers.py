"""B.observers (seed B 7.3): the judge, or the game's host, closes a table to observers at once (the
spectators' page and the overlay: their sockets told and closed, new ones refused, nothing of the game sent)
and opens it again; the judge's delayed open stream is not closed with it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sportmafia.live import subscriber as live_subscriber
from sportmafia.live.socket import CLOSE_WATCH_CLOSED
from sportmafia.store import Store
from sportmafia.store import online as db
from sportmafia.web import online

from .conftest import Api
from .test_online import ORIGIN, open_table, recv, stranger, two_processes, until
from .test_tournaments_api import user_client


def put_watch(a: Api, game_id: str, is_open: bool, client: TestClient | None = None) -> object:
    return (client or a.client).put(f"/api/games/{game_id}/online/watch", json={"open": is_open},
                                    headers=a._headers())


def closed_notice(ws: object) -> None:
    """The socket is told the table is closed, in both languages, and closed with 4410."""
    m = until(ws, "error")
    assert m["error"] == {"code": "watch-closed", "en": "The judge has closed this table to observers.",
                          "ru": "Наблюдение за столом закрыто судьёй."}
    with pytest.raises(WebSocketDisconnect) as exc:
        recv(ws)
    assert exc.value.code == CLOSE_WATCH_CLOSED


@pytest.mark.clause("B.observers")
def test_the_judge_closes_the_table_to_observers_at_once_and_reopens_it(api: Api) -> None:
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    # who may: not anonymous, not another table's host
    assert put_watch(api, game_id, False, stranger(api)).status_code in (401, 403)  # type: ignore[attr-defined]
    other_host, _ = user_client(api, "another-host", "host")
    assert put_watch(other_host, game_id, False).status_code == 404  # type: ignore[attr-defined]
    assert put_watch(api, "no-such-game", False).status_code == 404  # type: ignore[attr-defined]
    stream = api.post(f"/api/games/{game_id}/online/stream", {"delay_minutes": 1}).json()["token"]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as overlay:
        until(watch, "state")
        until(overlay, "state")
        r = put_watch(api, game_id, False)
        assert r.status_code == 200 and r.json() == {"open": False, "closed": 2}  # type: ignore[attr-defined]
        closed_notice(watch)
        closed_notice(overlay)
    # new sockets are refused; the pages say so; the host's panel shows it
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        closed_notice(watch)
    assert api.get(f"/api/games/{game_id}/online").json()["watch_open"] is False
    for page in ("watch", "overlay"):
        ru = stranger(api).get(f"/{page}/{code}", headers={"Accept-Language": "ru"}).text
        en = stranger(api).get(f"/{page}/{code}", headers={"Accept-Language": "en"}).text
        assert "Наблюдение за столом закрыто судьёй" in ru and "The judge has closed this table to observers" in en
    # the judge's delayed stream is his own: it stays
    assert stranger(api).get("/api/stream/state", headers={online.STREAM_HEADER: stream}).status_code == 200
    # reopened, a spectator follows the game again
    assert put_watch(api, game_id, True).json() == {"open": True, "closed": 0}  # type: ignore[attr-defined]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert until(watch, "state")["view"]["players"] == 10
    assert api.get(f"/api/games/{game_id}/online").json()["watch_open"] is True


def test_a_closed_table_stays_closed_for_its_next_game(api: Api) -> None:
    first, second = api.new_game(), api.new_game()
    code = open_table(api, first)["code"]
    assert put_watch(api, first, False).status_code == 200  # type: ignore[attr-defined]
    tab, _ = db.take_code(api.store, second, code, None)
    assert tab.watch_closed and db.table_by_code(api.store, code).watch_closed  # type: ignore[union-attr]


def test_closed_on_another_server_process_ends_the_spectators_socket_at_once(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two app instances linked by Redis: the judge closes the table on one; the spectator's socket on the
    other is told and closed through Redis, not at a keepalive (there is none while the test runs)."""
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 3600.0)
    game_id = api.new_game()
    with two_processes(api, second_store, redis_url, monkeypatch) as (_c1, c2, host):
        code = open_table(host, game_id)["code"]
        with c2.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
            until(watch, "state")
            assert put_watch(host, game_id, False).json()["closed"] == 0  # type: ignore[attr-defined]
            closed_notice(watch)


def test_without_redis_another_process_closes_at_the_keepalive(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 0.3)
    game_id = api.new_game()
    code = open_table(api, game_id)["code"]
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        until(watch, "state")
        db.set_watch_closed(api.store, game_id, True)  # as another process does it: this one is not told
        closed_notice(watch)


def test_a_logout_on_another_server_process_ends_the_consoles_socket_through_redis(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two app instances linked by Redis, no keepalive while the test runs: the host's console socket, open on
    the second with his session, ends (``session-ended``) when he logs out on the first (tests/web/test_workers.py
    sees the same between two worker processes)."""
    monkeypatch.setattr(live_subscriber, "PING_SECONDS", 3600.0)
    game_id = api.new_game()
    with two_processes(api, second_store, redis_url, monkeypatch) as (c1, c2, host):
        cookie = f"sportmafia_session={c1.cookies.get('sportmafia_session')}"
        with c2.websocket_connect(f"/ws/games/{game_id}?view=host", headers={**ORIGIN, "Cookie": cookie}) as ws:
            until(ws, "state")
            assert host.post("/api/logout", {}).status_code == 200  # type: ignore[attr-defined]
            assert until(ws, "error")["error"]["code"] == "session-ended"
            with pytest.raises(WebSocketDisconnect):
                recv(ws)
