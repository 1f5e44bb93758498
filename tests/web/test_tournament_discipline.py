"""B.sanctions across games and bans carried forward, through the API (SQLite and PostgreSQL): the
tournament counts a participant's offences over his games and applies the step due on acceptance; the judge
records and confirms steps; a disqualification with a ban enters the club's list, and registering a banned
player in a later tournament is refused unless the judge overrides with a reason."""

from __future__ import annotations

import random

import pytest

from sportmafia.engine import DealCards, Remove, Sanction
from sportmafia.store import Store

from .conftest import Api
from .test_tournaments_api import add_names, create, put, user_client


def play(store: Store, game_id: str, offences: list[tuple[int, str]], seed: int) -> None:
    """Deal, let the host record ``offences`` (seat, offence), then remove the mafia from the game (for
    leaving their seats, no sanction beyond the game): the game ends (red wins)."""
    rng = random.Random(seed)
    n = 0

    def run(cmd: object) -> None:
        nonlocal n
        game = store.load(game_id)
        store.append(game_id, cmd, expected_seq=len(game.log), command_id=f"{game_id[:8]}-{n}", rng=rng)  # type: ignore[arg-type]
        n += 1

    run(DealCards())
    for seat, offence in offences:
        run(Sanction(seat, offence))
    for seat, role in enumerate(store.load(game_id).roles):
        game = store.load(game_id)
        if role == "mafia" and not game.over and seat not in game.removed:
            run(Remove(seat, reason="left_seat", scope="game"))
    assert store.load(game_id).over


def tournament(api: Api, names: list[str], rounds: int) -> tuple[int, list[int], Api]:
    tid = create(api, preset="tournament", name=f"Cup {len(names)}-{rounds}")
    ids = add_names(api, tid, names)
    host, host_id = user_client(api, f"host{tid}", "host")
    assert put(api, f"/api/tournaments/{tid}/staff", {"staff": [{"user_id": host_id, "role": "host"}]}).status_code == 200
    assert api.post(f"/api/tournaments/{tid}/seating", {"rounds": rounds, "hosts": [host_id]}).status_code == 200
    return tid, ids, host


def round_game(api: Api, tid: int, number: int) -> tuple[str, list[int]]:
    r = api.post(f"/api/tournaments/{tid}/rounds/{number}/open")
    assert r.status_code == 200, r.text
    game = api.get(f"/api/tournaments/{tid}/games").json()["games"][-1]
    return game["game_id"], game["seats"]


def sign_accept(api: Api, host: Api, tid: int, gid: str) -> None:
    assert host.post(f"/api/games/{gid}/sheet/sign").status_code == 200
    r = api.post(f"/api/tournaments/{tid}/games/{gid}/accept")
    assert r.status_code == 200, r.text


def offences_of(api: Api, tid: int, pid: int) -> list[dict[str, object]]:
    body = api.get(f"/api/tournaments/{tid}/offences").json()
    return next(p["offences"] for p in body["participants"] if p["participant_id"] == pid)


NAMES = [f"Player {i}" for i in range(1, 13)]


@pytest.mark.clause("B.sanctions")
def test_eyes_open_twice_over_two_rounds_disqualifies_and_arguing_waits_for_the_judge(api: Api, store: Store) -> None:
    tid, _ids, host = tournament(api, [*NAMES, "Player 13"], 3)
    # round 1: Player at seat 2 opens his eyes (removal from the round); seat 5 argues twice
    gid1, seats1 = round_game(api, tid, 1)
    eyes, arguer = seats1[1], seats1[4]
    play(store, gid1, [(2, "eyes_open"), (5, "arguing"), (5, "arguing")], 1)
    sign_accept(api, host, tid, gid1)
    assert api.get(f"/api/tournaments/{tid}").json()["sanctions"] == []
    # round 2: both again; the engine alone gives a removal from the round and a warning
    gid2, seats2 = round_game(api, tid, 2)
    play(store, gid2, [(seats2.index(eyes) + 1, "eyes_open"), (seats2.index(arguer) + 1, "arguing")], 2)
    history = offences_of(api, tid, eyes)
    assert [(h["number"], h["applied"], h["due"], h["pending"], h["accepted"]) for h in history] == [
        (1, "round", "round", False, True), (2, "round", "disqualification", False, False)]
    sign_accept(api, host, tid, gid2)
    history = offences_of(api, tid, eyes)
    assert [(h["game_id"], h["round"], h["table"], h["steps"], h["pending"]) for h in history] == [
        (gid1, 1, 1, ["round"], False), (gid2, 2, 1, ["round", "disqualification"], False)]
    assert history[0]["by_login"] == f"host{tid}"
    detail = api.get(f"/api/tournaments/{tid}").json()
    assert sorted((s["participant_id"], s["kind"], s["round"]) for s in detail["sanctions"]) == sorted(
        [(eyes, "disqualification", None), (arguer, "round", 2)])
    assert next(p for p in detail["participants"] if p["id"] == eyes)["status"] == "disqualified"
    rows = api.get(f"/api/tournaments/{tid}/standings").json()["standings"]
    assert next(r for r in rows if r["participant_id"] == eyes)["disqualified"]
    # the arguer's third offence (a warning in its game) was due the removal from the round: applied
    argued = offences_of(api, tid, arguer)
    assert [(h["number"], h["due"], h["steps"], h["pending"]) for h in argued] == [
        (1, "warning", ["warning"], False), (2, "warning", ["warning"], False),
        (3, "round", ["warning", "round"], False)]
    # round 3 (the seating redone without the disqualified): a fourth arguing is "systematic": due
    # disqualification, but only on the judge's confirmation
    assert api.post(f"/api/tournaments/{tid}/seating/regenerate", {}).status_code == 200
    gid3, seats3 = round_game(api, tid, 3)
    assert eyes not in seats3
    play(store, gid3, [(seats3.index(arguer) + 1, "arguing")], 3)
    sign_accept(api, host, tid, gid3)
    last = offences_of(api, tid, arguer)[-1]
    assert (last["number"], last["due"], last["confirm"], last["pending"]) == (4, "disqualification", True, True)
    assert api.get(f"/api/tournaments/{tid}/offences").json()["pending"] == 1
    r = api.post(f"/api/tournaments/{tid}/offences", {"participant_id": arguer, "offence": "arguing",
                                                      "game_id": gid3, "reason": "argues in every game"})
    assert r.status_code == 201, r.text
    assert (r.json()["number"], r.json()["step"], r.json()["sanction"]["kind"]) == (4, "disqualification",
                                                                                     "disqualification")
    assert offences_of(api, tid, arguer)[-1]["steps"] == ["warning", "disqualification"]
    # the judge records an offence himself: the next step for that participant
    calm = next(p for p in seats3 if p != arguer)
    r = api.post(f"/api/tournaments/{tid}/offences", {"participant_id": calm, "offence": "rudeness",
                                                      "reason": "insulted a host in the break"})
    assert (r.status_code, r.json()["step"], r.json()["sanction"]) == (201, "warning", None)
    assert offences_of(api, tid, calm)[-1]["source"] == "judge"
    # refusals: no reason, unknown offence, nothing due for a game, a host
    for body, code in (({"participant_id": arguer, "offence": "arguing", "reason": " "}, "reason-required"),
                       ({"participant_id": arguer, "offence": "spitting", "reason": "x"}, "bad-offence"),
                       ({"participant_id": eyes, "offence": "eyes_open", "reason": "x", "game_id": gid1},
                        "nothing-due")):
        r = api.post(f"/api/tournaments/{tid}/offences", body)
        assert r.status_code in (409, 422) and r.json()["error"]["code"] == code, r.text
        assert r.json()["error"]["ru"]
    assert host.post(f"/api/tournaments/{tid}/offences", {"participant_id": arguer, "offence": "rudeness",
                                                          "reason": "x"}).status_code == 403


@pytest.mark.clause("B.sanctions")
def test_a_ban_carries_forward_to_the_clubs_later_tournaments(api: Api, store: Store) -> None:
    """"Снятие с турнира с запрещением участия в дальнейших турнирах": deliberate disruption disqualifies
    and enters the club's list; the next tournament refuses the player (409, naming the rule and the ban)
    unless the judge overrides with a reason, which is recorded; a judge lifts a ban with a reason."""
    tid, _ids, host = tournament(api, NAMES, 1)
    gid, _seats = round_game(api, tid, 1)
    play(store, gid, [(3, "disruption")], 3)
    sign_accept(api, host, tid, gid)
    bans = api.get("/api/bans").json()["bans"]
    assert [(b["nickname"], b["tournament_id"], b["active"]) for b in bans] == [("Player 3", tid, True)]
    assert "disruption" in bans[0]["reason"] and bans[0]["by_login"] == "admin"
    assert api.get(f"/api/tournaments/{tid}/bans").json()["bans"][0]["id"] == bans[0]["id"]
    # a later tournament of the club
    later = create(api, preset="tournament", name="Spring cup")
    r = api.post(f"/api/tournaments/{later}/participants", {"text": "Ann\nplayer 3"})
    assert r.status_code == 409, r.text
    err = r.json()["error"]
    assert err["code"] == "banned" and err["clause"] == "B.sanctions"
    assert "player 3" in err["en"] and "Cup 12-1" in err["en"] and "дальнейших турнирах" in err["ru"]
    assert r.json()["bans"][0]["id"] == bans[0]["id"]
    assert api.get(f"/api/tournaments/{later}/participants").json()["participants"] == []  # nobody added
    r = api.post(f"/api/tournaments/{later}/participants", {"text": "Ann\nplayer 3",
                                                             "ban_override": "apologised; the board agreed"})
    assert r.status_code == 201, r.text
    overrides = api.get(f"/api/tournaments/{later}/bans").json()["overrides"]
    assert [(o["nickname"], o["reason"]) for o in overrides] == [("player 3", "apologised; the board agreed")]
    archive = api.get(f"/api/tournaments/{later}/archive.json").json()
    assert [o["reason"] for o in archive["ban_overrides"]] == ["apologised; the board agreed"]
    assert [b["nickname"] for b in api.get(f"/api/tournaments/{tid}/archive.json").json()["bans"]] == ["Player 3"]
    # the list by hand: a judge adds and lifts with a reason; a host may not
    assert host.get("/api/bans").status_code == 403
    assert api.post("/api/bans", {"nickname": "Bob", "reason": " "}).status_code == 422
    assert api.post("/api/bans", {"reason": "x"}).json()["error"]["code"] == "bad-ban"
    r = api.post("/api/bans", {"nickname": "Bob", "reason": "threatened a host"})
    assert r.status_code == 201 and r.json()["tournament_id"] is None
    third = create(api, preset="tournament", name="Summer cup")
    assert api.post(f"/api/tournaments/{third}/participants", {"text": "BOB"}).status_code == 409
    lifted = api.post(f"/api/bans/{r.json()['id']}/lift", {"reason": "the ban was served"})
    assert lifted.status_code == 200 and lifted.json()["active"] is False
    assert api.post(f"/api/bans/{r.json()['id']}/lift", {"reason": "again"}).status_code == 404
    assert api.post(f"/api/tournaments/{third}/participants", {"text": "BOB"}).status_code == 201
