"""Claims at an online table (docs/bots.md, "Claims"; web/online/play.py, live/socket.py): the speaker's claim, made
over his socket or by HTTP, is kept beside the log and reaches every screen (every seat, the spectators, the host's
table view, in both languages), on another server process too; a claim out of turn is refused naming the rule
and changes nothing; a reconnecting screen gets the claims from the first."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sportmafia.store import Store
from sportmafia.store import claims as db

from .conftest import Api
from .test_online import ORIGIN, dealt_game, hello, issue, open_table, quiet, recv, stranger, two_processes, until


def claims_of(ws: Any) -> dict[str, Any]:
    """The next ``claims`` message (pings, timers and events before it skipped)."""
    while True:
        message = recv(ws)
        if message["type"] == "claims":
            return message
        assert message["type"] in ("ping", "timer", "table", "events", "ack"), message


def test_the_speakers_claim_reaches_every_screen_and_a_reconnect(api: Api) -> None:
    game_id, game = dealt_game(api)
    code = open_table(api, game_id)["code"]
    speaker = game.seat
    other = speaker % 10 + 1
    tokens = {s: issue(api, game_id, s) for s in (speaker, other)}
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws2, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch, \
            api.client.websocket_connect(f"/ws/games/{game_id}?view=table", headers=ORIGIN) as table:
        hello(ws, tokens[speaker])
        hello(ws2, tokens[other])
        for sock in (ws, ws2, watch, table):
            until(sock, "state")
            assert not [m for m in quiet(sock) if m["type"] == "claims"]  # none made yet: no claims message
        ws.send_text(json.dumps({"type": "claim", "game_id": game_id, "command_id": "c1",
                                 "claim": {"kind": "check", "target": other, "color": "black"}}))
        expected = {"n": 0, "at": len(game.log), "seat": speaker, "kind": "check", "target": other, "color": "black",
                    "text": {"en": f"#{speaker}: I checked #{other}: black.",
                             "ru": f"№{speaker}: Я проверил №{other}: чёрный."}}
        for sock in (ws, ws2, watch, table):
            got = claims_of(sock)
            assert got == {"type": "claims", "since": 0, "claims": [expected]}
        assert db.claims(api.store, game_id)[0].claim.target == other
        # the same claim again at the same moment (a retry): kept once, nothing new on the screens
        ws.send_text(json.dumps({"type": "claim", "game_id": game_id, "command_id": "c2",
                                 "claim": {"kind": "check", "target": other, "color": "black"}}))
        assert not [m for m in quiet(ws2, 0.5) if m["type"] == "claims"]
    # a screen that opens now gets every claim after its state
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, tokens[other])
        until(ws, "state")
        assert claims_of(ws)["claims"] == [expected]


def test_a_claim_by_http_and_the_refusals(api: Api) -> None:
    game_id, game = dealt_game(api)
    open_table(api, game_id)
    speaker = game.seat
    other = speaker % 10 + 1
    tokens = {s: issue(api, game_id, s) for s in (speaker, other)}
    phone = stranger(api)

    def post(seat: int, claim: Any, gid: str = game_id) -> Any:
        return phone.post("/api/play/claims", json={"game_id": gid, "claim": claim},
                          headers={"X-Play-Token": tokens[seat]})

    r = post(other, {"kind": "suspect", "target": speaker})  # not his speech
    assert r.status_code == 409 and r.json()["error"]["code"] == "not-your-word"
    assert r.json()["error"]["clause"] == "A.speech.order" and r.json()["error"]["ru"]
    for bad in ({"kind": "boast"}, {"kind": "suspect"}, {"kind": "suspect", "target": speaker},
                {"kind": "suspect", "target": other, "seat": other}, {"kind": "role", "role": "don"}, []):
        r = post(speaker, bad)
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] in ("bad-claim", "invalid"), r.text
    r = post(speaker, {"kind": "role", "role": "commissar"})  # no Commissar at a club table
    assert r.status_code == 409 and r.json()["error"]["clause"] == "A.setup"
    assert post(speaker, {"kind": "suspect", "target": other}, gid="another-game").status_code == 403
    r = phone.post("/api/play/claims", json={"game_id": game_id, "claim": {"kind": "suspect", "target": other}})
    assert r.status_code == 401  # no link
    assert db.claims(api.store, game_id) == []  # nothing kept by any refusal
    r = post(speaker, {"kind": "suspect", "target": other})
    assert r.status_code == 200 and r.json() == {"claim": 0}
    # the record (with the claims) is given once the game is over: before, it would tell the roles
    r = phone.get("/api/play/record", headers={"X-Play-Token": tokens[speaker]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not-over"
    me = phone.get("/api/play/me", headers={"X-Play-Token": tokens[speaker]}).json()
    assert me["seat"] == speaker and me["players"] == 10 and me["rules"]["name"] == "club"


def test_a_claim_reaches_a_screen_on_another_server_process(
        api: Api, second_store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, game = dealt_game(api)
    speaker = game.seat
    with two_processes(api, second_store, redis_url, monkeypatch) as (c1, c2, host):
        code = open_table(host, game_id)["code"]
        token = issue(host, game_id, speaker)
        with c2.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
            until(watch, "state")
            r = c1.post("/api/play/claims", json={"game_id": game_id, "claim": {"kind": "role", "role": "sheriff"}},
                        headers={"X-Play-Token": token, "X-CSRF-Token": host.csrf or ""})
            assert r.status_code == 200, r.text
            got = claims_of(watch)
            assert [c["text"]["en"] for c in got["claims"]] == [f"#{speaker}: I am the Sheriff."]
