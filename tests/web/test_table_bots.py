"""Bots at online tables (docs/bots.md, "Bots at an online table"; live/driver.py, web/online/bots.py): the practice
table played to its end (the person's passes end his turns; one who never answers gets the safe default), the
host's bots in the seats without a link of a table he runs, the refusals, and that what the server waits for
never depends on what only some seats see."""

from __future__ import annotations

import json
import logging
import random
import uuid
from typing import Any

import pytest

from sportmafia.engine import DealCards, Game, Nominate, Shoot, Vote, feed_length
from sportmafia.live import driver, get_hub
from sportmafia.rules import get_ruleset
from sportmafia.store import claims as db
from sportmafia.web.security import hash_password

from ..waiting import GUARD, wait_until
from .conftest import Api
from .server_chance import decided, seed_tables
from .test_online import ORIGIN, hello, issue, open_table, recv, stranger

SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
FAST = "0.05"
"""$SPORTMAFIA_PACE_SCALE for these tests: a whole game in seconds (answers within 0.5 s at the fast pace)."""


def practice(api: Api, **body: Any) -> Any:
    return stranger(api).post("/api/practice", json={"preset": "club", "agent": "baseline", "pace": "fast", **body})


def play_through(api: Api, token: str, game_id: str, answer: bool) -> dict[str, Any]:
    """Follow the seat's socket to the end; with ``answer``, pass at each turn and claim in the seat's speech.
    The last view."""
    said = 0
    spoke: set[tuple[Any, ...]] = set()
    with api.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:
        hello(ws, token)
        while True:
            m = recv(ws, timeout=GUARD)  # the table moves on by itself: only a hang stops it
            if m["type"] == "claims":
                said += len(m["claims"])
            if m["type"] not in ("state", "events"):
                continue
            v = m["view"]
            if v["over"]:
                v["claims_seen"] = said
                return dict(v)
            if not answer:
                continue
            me = v["viewer"]
            moment = (v["step"], v["day"], v["seat"], v["round"])
            if v["seat"] == me and moment not in spoke and v["step"] in ("speech",):
                spoke.add(moment)
                ws.send_text(json.dumps({"type": "claim", "game_id": game_id, "command_id": uuid.uuid4().hex,
                                         "claim": {"kind": "suspect", "target": me % 10 + 1}}))
            if m.get("legal") or v["seat"] == me:
                ws.send_text(json.dumps({"type": "pass", "game_id": game_id, "seen": m["next_seq"],
                                         "command_id": uuid.uuid4().hex}))


@SQLITE  # the driver's play; the store's part runs on both databases in tests/store/test_claims.py
def test_a_practice_table_is_played_to_its_end(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(driver.PACE_SCALE_ENV, FAST)
    seed_tables(monkeypatch, 4)  # the deal and the bots' play: the same game every run
    r = practice(api, seat=4, name="Аня")
    assert r.status_code == 200, r.text
    made = r.json()
    assert made["seat"] == 4 and made["url"].endswith(f"/play/{made['token']}")
    game_id = made["game_id"]
    summary = api.store.game(game_id)
    assert summary.club_id == db.practice_club(api.store) != api.club_id  # kept apart from the club's games
    assert summary.names[3] == "Аня" and summary.names[0] == "Bot 1"
    last = play_through(api, made["token"], game_id, answer=True)
    assert last["winner"] in ("red", "black")
    game = api.store.load(game_id)
    assert game.over
    made_claims = db.claims(api.store, game_id)
    assert any(s.claim.seat == 4 for s in made_claims)  # the person's own claims, in his speeches
    assert last["claims_seen"] == len(made_claims)  # every claim reached his phone
    record = stranger(api).get("/api/play/record", headers={"X-Play-Token": made["token"]})
    assert record.status_code == 200 and len(record.json()["claims"]) == len(made_claims)
    assert record.json()["meta"]["game_id"] == game_id
    # the practice page itself
    page = stranger(api).get("/practice")
    assert page.status_code == 200 and "p-form" in page.text


@SQLITE  # the driver's play; the store's part runs on both databases in tests/store/test_claims.py
def test_a_person_who_never_answers_gets_the_safe_default_and_a_left_table_stops(
        api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Each of his turns runs out and is played as a pass (logged); after ``ABANDONED_TURNS`` of them in a row the
    practice table counts as left: its bots stop, the game stays as it stands. Two turns here (every seat has at
    least two before a game of 12 can end: his first day's speech, then a vote, a night's move, his last words or
    the next day's speech); six, the server's number, a random game may end before."""
    monkeypatch.setenv(driver.PACE_SCALE_ENV, "0.03")
    monkeypatch.setattr(driver, "ABANDONED_TURNS", 2)
    seed_tables(monkeypatch, 6)  # his seat, the deal and the bots' play: the same game every run
    made = practice(api, preset="tournament", agent="random", seat=None).json()
    game_id = made["game_id"]
    assert 1 <= made["seat"] <= 12 and api.store.game(game_id).players == 12
    with caplog.at_level(logging.INFO, logger="sportmafia.bots"):
        def stopped() -> bool:
            assert not api.store.load(game_id).over, "the game ended before his turns ran out"
            return db.bots_of(api.store, game_id) is None
        wait_until(stopped, "the left table stopped", every=0.1)
    assert caplog.text.count(f"seat {made['seat']} did not answer") == driver.ABANDONED_TURNS
    assert "the practice table was left" in caplog.text
    game = api.store.load(game_id)
    assert not game.over and len(game.log) > 10  # the table went on past his turns, each played as a pass


def test_the_practice_tables_refusals(api: Api) -> None:
    for body, code in (({"preset": "street"}, "bad-preset"), ({"agent": "oracle"}, "bad-agent"),
                       ({"pace": "slow"}, "bad-pace"), ({"seat": 11}, "bad-seat")):
        r = practice(api, **body)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
        assert r.json()["error"]["ru"]
    assert practice(api, seat=0).status_code == 422
    for _ in range(12):
        assert practice(api).status_code == 200
    r = practice(api)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too-many-tables" and int(r.headers["Retry-After"]) > 0


@SQLITE  # the driver's play; the store's part runs on both databases in tests/store/test_claims.py
def test_the_host_seats_bots_and_they_play_his_table(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots in every seat but the linked one, the host running the game from his console: the bots nominate,
    vote, shoot and check as their seats, and speak; the host's refusals."""
    game_id = api.new_game()
    open_table(api, game_id)
    token = issue(api, game_id, 1)
    base = f"/api/games/{game_id}/online/bots"
    r = api.client.put(base, json={"agents": {"1": "baseline"}}, headers={"X-CSRF-Token": api.csrf or ""})
    assert r.status_code == 409 and r.json()["error"]["code"] == "taken"
    for agents, code in (({"11": "baseline"}, "bad-seat"), ({"2": "oracle"}, "bad-agent")):
        r = api.client.put(base, json={"agents": agents}, headers={"X-CSRF-Token": api.csrf or ""})
        assert r.status_code == 422 and r.json()["error"]["code"] == code
    api.store.create_user(api.club_id, "judy", hash_password("judge password!"), "judge")
    judge = Api(stranger(api), api.store, api.club_id)
    judge.login("judy", "judge password!")
    assert judge.client.put(base, json={"agents": {"2": "random"}},
                            headers={"X-CSRF-Token": judge.csrf or ""}).status_code == 403
    seed_tables(monkeypatch, 3)  # the bots' chance: the same play every run
    agents = {str(s): "baseline" for s in range(2, 11)}
    r = api.client.put(base, json={"agents": agents}, headers={"X-CSRF-Token": api.csrf or ""})
    assert r.status_code == 200 and r.json()["agents"] == agents and not r.json()["runs_table"]
    assert api.get(base).json()["agents"] == agents
    # the host deals and says "Next"; seat 1 (a person) never acts; the bots do the rest. Before each of his
    # commands the bots' driver has read the game as it stands (so the bots answer what they see first)
    hub = get_hub(api.client.app)
    table = wait_until(lambda: hub.tables.get(game_id), "the bots' driver running").__self__  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(5000):
        game = api.store.load(game_id)
        if game.over:
            break
        seen = len(game.log)
        wait_until(lambda: table.game is not None and len(table.game.log) >= seen,  # noqa: B023 (called at once)
                   "the bots' driver caught up with the game")
        game = api.store.load(game_id)
        if game.over:
            break
        legal = game.legal_commands(None, extras=False)
        chance = [c for c in legal if c.type in ("deal", "draw_first_speaker", "draw_lot")]
        pick = chance[0] if chance else next((c for c in legal if c.type == "advance"), None)
        if pick is None:
            pick = next((c for c in legal if c.actor_seat() == 1), None) or legal[0]
        if pick.type == "deal":
            pick = DealCards(roles=tuple(rng.sample(["civilian"] * 6 + ["sheriff", "don", "mafia", "mafia"], 10)))
        pick = decided(game, pick, rng)  # the first speaker or the lot, drawn by the host from his seed
        api.command(game_id, pick.to_json(), len(game.log), uuid.uuid4().hex)  # a bot's move first: 409, again
    game = api.store.load(game_id)
    assert game.over
    acted = {getattr(e, "by", None) or getattr(e, "voter", None) or getattr(e, "shooter", None) for e in game.log}
    assert acted & set(range(2, 11)), "the bots acted as their seats"
    assert {s.claim.seat for s in db.claims(api.store, game_id)} <= set(range(2, 11))
    assert stranger(api).get("/api/play/me", headers={"X-Play-Token": token}).status_code == 200
    r = api.client.delete(base, headers={"X-CSRF-Token": api.csrf or ""})
    assert r.status_code == 200 and r.json()["removed"] and api.get(base).json()["agents"] == {}


def club_game_at(step: str) -> Game:
    """A club game for 10 (seats 3, 4 and 7 black, 6 the Sheriff) dealt and moved on by "Next" to ``step``."""
    game = Game(get_ruleset("club"), 10)
    game.execute(DealCards(roles=("civilian", "civilian", "don", "mafia", "civilian", "sheriff", "mafia",
                                  "civilian", "civilian", "civilian")))
    while game.step != step:
        legal = game.legal_commands(None, extras=False)
        game.execute(next((c for c in legal if c.type == "advance"), legal[0]), random.Random(1))
    return game


def test_what_the_server_waits_for_never_depends_on_a_secret() -> None:
    """Two games that differ only in a black player's shot (what a red seat may not see until the morning): every
    red seat's feed, the moment the driver keys its waits by, and the time a night step lasts are the same."""
    games = []
    for target in (5, 6):
        game = club_game_at("shooting")
        game.execute(Shoot(shooter=4, target=target), actor=4)
        games.append(game)
    a, b = games
    assert [feed_length(a, s) for s in (1, 2, 5, 6)] == [feed_length(b, s) for s in (1, 2, 5, 6)]
    assert driver._moment(a) == driver._moment(b)
    pace = driver.pace_of("fast")
    assert pace.night == driver.PACES["fast"].night  # a fixed time, whoever acts in the night step


def test_a_pass_counts_for_the_phase_its_seat_saw() -> None:
    """A person's pass stands while the game is still in the phase he saw (others' hands raised since change
    nothing), and is dropped once the game has moved on (a new speaker): it never ends a turn he has not seen."""
    game = club_game_at("speech")
    record = db.BotsRecord("g", {s: "baseline" for s in range(2, 11)}, runs_table=True, pace="fast", seed=1,
                           practice=True)
    table = driver.TableDriver(store=None, hub=None, record=record, runner="here")  # type: ignore[arg-type]
    seen = feed_length(game, 1)
    speaker = game.seat
    table.told({"seat": 1, "seen": seen})
    table._take_passes(game)
    assert (1, driver._moment(game)) in table._done
    stale = feed_length(game, 1)
    game.execute(next(c for c in game.legal_commands(None, extras=False) if c.type == "advance"))
    assert game.seat != speaker  # the next speech: a new phase
    table.told({"seat": 1, "seen": stale})
    table._take_passes(game)
    assert (1, driver._moment(game)) not in table._done
    # the vote on a candidate: seat 1 saw it begin; seat 2's hand raised since does not make his pass stale
    for target in (3, 4):  # two candidates (a lone one on day 1 is not voted on: A.vote.day1-single)
        game.execute(Nominate(by=game.seat, target=target), actor=game.seat)
        game.execute(next(c for c in game.legal_commands(None, extras=False) if c.type == "advance"))
    while not any(c.type == "vote" for c in game.legal_commands(1)):
        game.execute(next(c for c in game.legal_commands(None, extras=False) if c.type == "advance"))
    seen = feed_length(game, 1)
    candidate = next(c for c in game.legal_commands(2) if c.type == "vote").candidate  # type: ignore[attr-defined]
    game.execute(Vote(voter=2, candidate=candidate), actor=2)
    assert feed_length(game, 1) > seen
    table.told({"seat": 1, "seen": seen})
    table._take_passes(game)
    assert (1, driver._moment(game)) in table._done
