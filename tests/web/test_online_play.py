"""A player's side of online play (docs/online.md; web/online/play.py, live/online.py): his commands executed as
his seat, his socket (state, then only new events; resuming from a seq), what only he may see, hands raised at
once, and a move between his link's read and his socket's subscription."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sportmafia.engine import Advance, feed_length, view, visible_events
from sportmafia.live import hub as live
from sportmafia.store import online as db

from .conftest import Api
from .test_online import (
    ORIGIN,
    dealt_game,
    hello,
    host_advance_to,
    issue,
    open_table,
    player_post,
    quiet,
    recv,
    stranger,
    until,
)


# ------------------------------------------------------------------------------------------ playing
def test_player_acts_as_his_seat_and_sockets_follow(api: Api) -> None:
    game_id, game = dealt_game(api)
    open_table(api, game_id)
    tokens = {s: issue(api, game_id, s) for s in range(1, 11)}
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    phone = stranger(api)
    speaker = game.seat
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws, \
            api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        hello(ws, tokens[speaker])
        state = until(ws, "state")
        assert state["view"] == view(game, speaker)
        assert state["events"] == visible_events(game, speaker, 0)
        assert {"type": "nominate", "by": speaker, "target": 3, "also": []} in state["legal"] or speaker == 3
        spect = until(watch, "state")
        assert spect["view"] == view(game, "spectator") and "legal" not in spect
        target = 4 if speaker != 4 else 5
        r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                        state["next_seq"], "n1")
        assert r.status_code == 200, r.text
        assert r.json() == {"replayed": False}  # not the log's next seq: it counts what the player may not see
        moved = until(ws, "events")
        assert moved["since"] == state["next_seq"] and [e["seq"] for e in moved["events"]] == [state["next_seq"]]
        assert moved["events"][0] == {"seq": state["next_seq"], "type": "nominated", "by": speaker,
                                      "target": target, "named": []}
        assert until(watch, "events")["events"] == moved["events"]
        # the same command id again: answered, not applied twice, nothing new sent
        r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                        state["next_seq"], "n1")
        assert r.json()["replayed"] is True
        assert quiet(ws) == [] and api.store.game(game_id).next_seq == len(game.log) + 1
    # a player cannot use the host's command ids (his are in their own namespace)
    r = player_post(phone, tokens[speaker], game_id, {"type": "nominate", "by": speaker, "target": target},
                    state["next_seq"] + 1, "setup-0")
    assert r.status_code == 409  # nominated already; nothing replayed from the host's deal
    assert "events" not in r.json()


def test_resume_from_a_seq_gets_only_what_was_missed(api: Api) -> None:
    game_id, game = dealt_game(api, seed=3)
    open_table(api, game_id)
    token = issue(api, game_id, 7)
    since = feed_length(game, 7)
    for _ in range(3):
        g = api.store.load(game_id)
        api.command(game_id, {"type": "advance"}, len(g.log), f"a-{len(g.log)}")
    now = api.store.load(game_id)
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token, since)
        state = until(ws, "state")
        assert state["since"] == since and state["next_seq"] == feed_length(now, 7)
        assert state["events"] == visible_events(now, 7, since)
        assert [e["seq"] for e in state["events"]] == sorted({e["seq"] for e in state["events"]})
        assert all(e["seq"] >= since for e in state["events"])
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token, feed_length(now, 7) + 5)
        assert recv(ws)["error"]["code"] == "invalid"


def test_night_checks_reach_the_checker_alone(api: Api) -> None:
    game_id, game = dealt_game(api, seed=5)
    open_table(api, game_id)
    sheriff = game.seat_of("sheriff")
    don = game.seat_of("don")
    tokens = {s: issue(api, game_id, s) for s in (sheriff, don)}
    other = next(s for s in range(1, 11) if s not in (sheriff, don))
    tokens[other] = issue(api, game_id, other)
    phone = stranger(api)
    game = host_advance_to(api, game_id, "shooting")
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws_s, \
            api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws_o:
        hello(ws_s, tokens[sheriff])
        hello(ws_o, tokens[other])
        until(ws_s, "state")
        until(ws_o, "state")
        game = host_advance_to(api, game_id, "check_sheriff")
        quiet(ws_s)
        quiet(ws_o)
        target = don
        r = player_post(phone, tokens[sheriff], game_id, {"type": "check", "checker": sheriff, "target": target},
                        len(game.log), "chk")
        assert r.status_code == 200, r.text
        mine = until(ws_s, "events")
        assert mine["view"]["you"]["checks"] == [{"night": 1, "checker": sheriff, "target": don, "found": True}]
        theirs = quiet(ws_o)
        for m in theirs:
            assert "checked" not in json.dumps(m) and m["view"]["you"]["checks"] == []


def test_hands_raised_at_once_all_count(api: Api) -> None:
    """Players who vote on the same seq (the same candidate) all get their vote in; a vote decided on an
    earlier candidate is refused as stale."""
    from concurrent.futures import ThreadPoolExecutor

    game_id, game = dealt_game(api, seed=4)
    open_table(api, game_id)
    tokens = {s: issue(api, game_id, s) for s in range(1, 11)}
    phone = stranger(api)
    # two nominations, then to the vote
    for _ in range(2):
        g = api.store.load(game_id)
        target = next(t for t in range(1, 11) if t != g.seat and t not in g.candidates)
        assert player_post(phone, tokens[g.seat], game_id, {"type": "nominate", "by": g.seat, "target": target},
                           len(g.log), f"n{g.seat}").status_code == 200
        api.command(game_id, {"type": "advance"}, len(g.log) + 1, f"adv-n{g.seat}")
    game = host_advance_to(api, game_id, "voting")
    cand = game.seat
    seq = len(game.log)
    voters = [s for s in range(1, 11) if s != cand][:6]

    def vote(s: int) -> Any:
        return player_post(phone, tokens[s], game_id, {"type": "vote", "voter": s, "candidate": cand}, seq, f"v{s}")

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(vote, voters))
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    now = api.store.load(game_id)
    assert sorted(v for v, c in now.votes.items() if c == cand) == sorted(voters)
    # the host closes this candidate: a vote decided on it is stale now
    api.command(game_id, {"type": "advance"}, len(now.log), "close-1")
    late = next(s for s in range(1, 11) if s not in voters and s != cand)
    r = player_post(phone, tokens[late], game_id, {"type": "vote", "voter": late, "candidate": cand}, seq, "late")
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale"


def test_a_move_between_the_links_read_and_the_subscription_is_in_the_first_state(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket reads its link (and the game's head) before it subscribes: a move made in between is neither
    in that head nor notified to it; the hub's known head puts it in the socket's first message."""
    game_id, game = dealt_game(api, seed=5)
    open_table(api, game_id)
    code = api.get(f"/api/games/{game_id}/online").json()["code"]
    tokens = {s: issue(api, game_id, s) for s in (1, 2)}
    real = db.resolve_seat
    moved: list[int] = []

    def read_then_move(store: Any, token: str) -> Any:
        out = real(store, token)
        if not moved:  # the host moves on right after the read, before the socket subscribes (as his command
            # route does it: the append, then the hub told; the read may run on the app's loop, so not by HTTP)
            result = store.append(game_id, Advance(), expected_seq=len(game.log), command_id="in-between")
            live.get_hub(api.client.app).publish(game_id, result.next_seq)  # type: ignore[arg-type]
            moved.append(result.next_seq)
        return out
    monkeypatch.setattr(db, "resolve_seat", read_then_move)
    with api.client.websocket_connect(f"/ws/watch/{code}", headers=ORIGIN) as watch:
        assert until(watch, "state")["next_seq"] == len(game.log)  # a socket of the game: its feed is built
        with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
            hello(ws, tokens[1])
            first = until(ws, "state")
            assert moved and first["next_seq"] == moved[0] == len(api.store.load(game_id).log)
            assert first["events"][-1]["seq"] == moved[0] - 1
        assert until(watch, "events")["next_seq"] == moved[0]
