"""The club's history (GET /api/games filtered by date range, player and status) and a game's timeline page
(every event as a sentence in the page's language, its seq and time, grouped by day and night, undone events
marked; another club's game is a 404)."""

from __future__ import annotations

import html
import random
import re
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from sportmafia.engine import describe_event_line
from sportmafia.engine import events as E
from sportmafia.rules import get_ruleset
from sportmafia.store import StoredGame
from sportmafia.web.security import hash_password

from .conftest import Api
from .seeded_draws import seeded_server
from .test_games import choose

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""


def _created(api: Api, game_id: str, when: datetime) -> None:
    with api.store.engine.begin() as conn:
        conn.execute(update(StoredGame).where(StoredGame.id == game_id).values(created_at=when))


def _play(api: Api, game_id: str, commands: int, seed: int) -> None:
    rng = random.Random(seed)
    for n in range(commands):
        state = api.get(f"/api/games/{game_id}").json()
        if state["view"]["over"]:
            return
        r = api.command(game_id, choose(state["legal"], rng), state["next_seq"], f"{game_id}-{n}")
        assert r.status_code == 200, r.text


def _finish(api: Api, game_id: str) -> None:
    """Deal, then the judge awards the win: the game is over."""
    assert api.command(game_id, {"type": "deal"}, 0, f"{game_id}-deal").status_code == 200
    state = api.get(f"/api/games/{game_id}").json()
    award = [c for c in state["legal"] if c["type"] == "award"]
    assert award, state["legal"]
    r = api.command(game_id, {**award[0], "reason": "a test"}, state["next_seq"], f"{game_id}-award")
    assert r.status_code == 200, r.text


def test_history_filters(api: Api) -> None:
    names_a = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet"]
    a = api.post("/api/games", {"players": 10, "names": names_a}).json()["id"]
    b = api.new_game()  # the demo roster: Ворон, Лиса, ...
    c = api.new_game()
    _created(api, a, datetime(2026, 3, 1, 20, 0, tzinfo=UTC))
    _created(api, b, datetime(2026, 3, 5, 21, 0, tzinfo=UTC))
    _created(api, c, datetime(2026, 3, 9, 22, 0, tzinfo=UTC))
    api.command(b, {"type": "deal"}, 0, "deal-b")
    _finish(api, c)

    def ids(query: str) -> list[str]:
        r = api.get("/api/games" + query)
        assert r.status_code == 200, r.text
        return [g["id"] for g in r.json()["games"]]

    assert ids("") == [c, b, a]
    assert ids("?from=2026-03-02") == [c, b]
    assert ids("?to=2026-03-05") == [b, a]
    assert ids("?from=2026-03-02&to=2026-03-08") == [b]
    assert ids("?from=2026-03-10") == []
    assert ids("?date=2026-03-01") == [a]
    assert ids("?player=brav") == [a]
    assert ids("?player=лиса&from=2026-03-06") == [c]
    assert ids("?status=dealing") == [a]
    assert ids("?status=playing") == [b]
    assert ids("?status=over") == [c]
    assert ids("?status=signed") == []
    listed = {g["id"]: g for g in api.get("/api/games").json()["games"]}
    assert listed[c]["shown_status"] == "over" and listed[c]["winner"] in ("red", "black")
    r = api.post(f"/api/games/{c}/sheet/sign")  # the result sheet signed: "signed", no longer "over"
    assert r.status_code == 200, r.text
    assert ids("?status=signed") == [c] and ids("?status=over") == []
    assert api.get("/api/games?status=signed").json()["games"][0]["shown_status"] == "signed"
    assert listed[b]["shown_status"] == "playing" and listed[a]["names"] == names_a
    for bad in ("?from=yesterday", "?to=2026-13-01", "?status=lost"):
        r = api.get("/api/games" + bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid", bad


def test_timeline_page(api: Api) -> None:
    game_id = api.new_game()
    _play(api, game_id, 40, seed=3)
    state = api.get(f"/api/games/{game_id}").json()
    # a foul and an undo of it, so that the page has both
    foul = next(c for c in state["legal"] if c["type"] == "foul")
    seq = state["next_seq"]
    assert api.command(game_id, {**foul, "seat": 2, "reason": "gestures"}, seq, "foul-1").status_code == 200
    after_foul = api.get(f"/api/games/{game_id}").json()["next_seq"]
    assert api.command(game_id, {"type": "undo"}, after_foul, "undo-1").status_code == 200
    _play(api, game_id, 20, seed=4)
    game = api.store.load(game_id)
    timeline = api.store.timeline(game_id)
    assert [s for s, _e, _t in timeline] == list(range(len(game.log)))
    assert all(isinstance(at, datetime) and at.tzinfo is not None for _s, _e, at in timeline)

    for lang, day, night, undone_word in (("ru", "День 1", "Ночь 0", "отменено"), ("en", "Day 1", "Night 0", "undone")):
        r = api.get(f"/games/{game_id}/timeline", headers={"Accept-Language": lang})
        assert r.status_code == 200
        page = r.text
        assert f'lang="{lang}"' in page and day in page and night in page
        text = html.unescape(page)
        for i, ev in enumerate(game.log):
            line = describe_event_line(ev, lang, game.names)
            if line is not None:
                assert line in text, (lang, i, line)
            assert f'data-seq="{i}"' in page
        # the foul is struck through, marked with the undo's seq; the undo names what it undid
        items = re.findall(r'<li class="event ([^"]*)"\s+data-seq="(\d+)" data-category="(\w*)"', page)
        by_seq = {int(s): (cls.split(), cat) for cls, s, cat in items}
        assert len(by_seq) == len(game.log)
        assert by_seq[seq][0][:2] == ["ev-fouled", "undone"] and by_seq[seq][1] == "fouls"
        assert by_seq[after_foul][0] == ["ev-undone", "undo"] and by_seq[after_foul][1] == "fouls"
        assert isinstance(game.log[after_foul], E.Undone) and game.log[after_foul].seq == seq
        assert undone_word in text
        assert [i for i, (cls, _c) in by_seq.items() if "undone" in cls and "undo" not in cls] == \
            list(range(seq, after_foul))
        votes = [i for i, ev in enumerate(game.log) if isinstance(ev, E.VoteCast | E.Nominated)]
        assert all(by_seq[i][1] == "votes" for i in votes)
    assert "Хронология игры" in api.get(f"/games/{game_id}/timeline", headers={"Accept-Language": "ru"}).text
    assert "Timeline of the game" in api.get(f"/games/{game_id}/timeline", headers={"Accept-Language": "en"}).text


def test_timeline_is_club_scoped(api: Api, app_client: tuple[TestClient, int]) -> None:
    other_club = api.store.create_club("Other club")
    # names that no random token of the page (its CSRF token) can contain by chance
    foreign = api.store.create_game(other_club, get_ruleset("club"), 10, ["Чужой " + str(i) for i in range(10)])
    r = api.get(f"/games/{foreign}/timeline")
    assert r.status_code == 404 and "Чужой" not in r.text
    assert api.get("/games/no-such-game/timeline").status_code == 404
    mine = api.new_game()
    api.store.create_user(other_club, "stranger", hash_password("stranger-password"), "host")
    other = Api(TestClient(app_client[0].app), api.store, other_club)
    other.login("stranger", "stranger-password")
    assert other.get(f"/games/{mine}/timeline").status_code == 404
    assert other.get(f"/games/{foreign}/timeline").status_code == 200
    assert mine not in other.get("/").text
    anon = Api(TestClient(app_client[0].app), api.store, api.club_id)
    r = anon.get(f"/games/{mine}/timeline", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/login?next=/games/{mine}/timeline"


def test_games_page_has_the_new_game_and_history(api: Api) -> None:
    page = api.get("/", headers={"Accept-Language": "en"}).text
    for needle in ('id="new-game-form"', 'id="seats"', 'id="shuffle"', 'id="variant-form"', 'id="filter-from"',
                   'id="filter-to"', 'id="filter-player"', 'id="filter-status"', "/static/games.js"):
        assert needle in page, needle
    assert "Drag a name by its handle" in page
    assert "Перетащите имя за ручку" in api.get("/", headers={"Accept-Language": "ru"}).text
