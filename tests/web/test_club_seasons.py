"""A club's seasons on the web (docs/seasons.md, "Seasons"): the pages public in both languages, names escaped;
the standings by points from two real tournaments' places, computed here by hand; the staff's changes behind
the session and its CSRF token, bad input and hostile ids refused, a closed season frozen and refused."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import update

from sportmafia.store import Store
from sportmafia.store.models import TournamentParticipant
from tests.services.test_club_seasons import game
from tests.web.conftest import Api, own_client
from tests.web.test_tournaments_api import club_tournament, finish, patch, user_client

SPRING = {"name": "Весна <b>2026</b>", "starts_on": "2026-03-01", "ends_on": "2026-05-31"}


def new_season(api: Api, **body: Any) -> dict[str, Any]:
    r = api.post("/api/seasons", {**SPRING, **body})
    assert r.status_code == 201, r.text
    season: dict[str, Any] = r.json()["season"]
    return season


def played_in_spring(api: Api, count: int = 2) -> list[int]:
    people = api.store.add_club_players(api.club_id, [f"Игрок {i}" for i in range(1, 11)])
    for i in range(count):
        game(api.store, api.club_id, people, datetime(2026, 3, 2 + i, 18, tzinfo=UTC), "red" if i % 2 else "black")
    return people


@pytest.mark.parametrize(("lang", "words"), [("ru", ["Сезоны клуба", "по рейтингу", "открыт", "Место", "Победы красных"]),
                                             ("en", ["Seasons of", "by rating", "open", "Place", "Red&#39;s wins"])])
def test_the_season_pages_are_public_in_the_pages_language_with_names_escaped(api: Api, lang: str,
                                                                             words: list[str]) -> None:
    people = played_in_spring(api)
    season = new_season(api)
    anon = Api(own_client(api.client), api.store, api.club_id)
    anon.client.cookies.set("lang", lang)
    listing = anon.get(f"/clubs/{api.club_id}/seasons")
    page = anon.get(f"/clubs/{api.club_id}/seasons/{season['id']}")
    assert listing.status_code == page.status_code == 200
    text = listing.text + page.text
    assert all(w in text for w in words), [w for w in words if w not in text]
    assert "<b>2026</b>" not in text and "&lt;b&gt;2026&lt;/b&gt;" in text
    assert f'href="/players/{people[0]}"' in page.text
    assert 'id="season-form"' not in text and "season-close" not in text  # the staff's tools: not for the public
    staff_page = api.get(f"/clubs/{api.club_id}/seasons/{season['id']}").text
    assert 'id="season-form"' in staff_page and 'id="season-close"' in staff_page
    body = anon.get(f"/api/clubs/{api.club_id}/seasons/{season['id']}").json()
    assert body["games"] == 2 and body["red_wins"]["n"] == 2 and body["red_wins"]["successes"] == 1
    assert {r["person"] for r in body["standings"]} == set(people)
    assert [s["id"] for s in anon.get(f"/api/clubs/{api.club_id}/seasons").json()["seasons"]] == [season["id"]]


def _run_tournament(api: Api, store: Store, day: str, seed: int) -> int:
    """A published one-round tournament of ten, played to its end on ``day``."""
    tid, _ids, _host_id, host = club_tournament(api)
    assert patch(api, f"/api/tournaments/{tid}", {"starts_on": day, "ends_on": day}).status_code == 200
    [g] = api.post(f"/api/tournaments/{tid}/rounds/1/open").json()["games"]
    finish(store, g["game_id"], seed)
    assert host.post(f"/api/games/{g['game_id']}/sheet/sign").status_code == 200
    assert api.post(f"/api/tournaments/{tid}/games/{g['game_id']}/accept").status_code == 200
    assert api.post(f"/api/tournaments/{tid}/finish").status_code == 200
    assert patch(api, f"/api/tournaments/{tid}", {"published": True}).status_code == 200
    return tid


def test_the_standings_by_points_sum_two_tournaments_places_computed_by_hand(api: Api, store: Store) -> None:
    series = [10, 6, 4, 3, 2, 1]
    first, second = _run_tournament(api, store, "2026-03-14", 1), _run_tournament(api, store, "2026-04-18", 2)
    outside = _run_tournament(api, store, "2026-06-01", 3)  # after the season: not its tournament
    # "Player 1" to "Player 5" are made the club's persons "Person 1".."Person 5" in both tournaments; the others
    # keep the persons their game's end linked them to (a new person per nickname, the same in both tournaments)
    persons = store.add_club_players(api.club_id, [f"Person {i}" for i in range(1, 6)])
    with store.write() as s:
        for i, person in enumerate(persons, 1):
            s.execute(update(TournamentParticipant).where(TournamentParticipant.nickname == f"Player {i}")
                      .values(player_id=person))
    season = new_season(api, standings="points", series_points=series)
    expected: dict[str, float] = {}
    for tid in (first, second):
        for row in api.get(f"/api/tournaments/{tid}/standings").json()["standings"]:
            shared = range(row["place"], (row.get("place_to") or row["place"]) + 1)
            points = sum(series[p - 1] if p <= len(series) else 0 for p in shared) / len(shared)
            number = int(row["nickname"].split()[-1]) if "nickname" in row else None
            name = f"Person {number}" if number is not None and number <= 5 else row.get("nickname")
            expected[str(name)] = expected.get(str(name), 0) + points
    body = api.get(f"/api/clubs/{api.club_id}/seasons/{season['id']}").json()
    assert {r["name"]: r["points"] for r in body["standings"]} == pytest.approx(expected)
    assert [t["id"] for t in body["tournaments"]] == [first, second] and outside not in body["tournaments"]
    assert all(t["counted"] for t in body["tournaments"])
    linked = {r["name"]: r["person"] for r in body["standings"]}
    assert linked["Person 1"] == persons[0] and linked["Player 9"] is not None and linked["Player 9"] not in persons
    assert [r["points"] for r in body["standings"]] == sorted((r["points"] for r in body["standings"]), reverse=True)
    page = api.get(f"/clubs/{api.club_id}/seasons/{season['id']}").text
    assert f'href="/players/{persons[0]}"' in page and f'href="/t/{first}"' in page


def test_the_staff_create_edit_and_close_and_the_closed_season_is_frozen(api: Api) -> None:
    people = played_in_spring(api)
    season = new_season(api)
    r = api.post(f"/api/seasons/{season['id']}", {"name": "Весна", "series_points": [5, 3, 1]})
    assert r.status_code == 200 and r.json()["season"]["name"] == "Весна"
    assert r.json()["season"]["series_points"] == [5, 3, 1]
    before = api.get(f"/api/clubs/{api.club_id}/seasons/{season['id']}").json()
    closed = api.post(f"/api/seasons/{season['id']}/close")
    assert closed.status_code == 200 and closed.json()["season"]["closed"] is True
    game(api.store, api.club_id, people, datetime(2026, 3, 20, 18, tzinfo=UTC), "red")
    after = api.get(f"/api/clubs/{api.club_id}/seasons/{season['id']}").json()
    assert after["standings"] == before["standings"] and after["games"] == before["games"] == 2
    for path, body in ((f"/api/seasons/{season['id']}", {"name": "x"}), (f"/api/seasons/{season['id']}/close", None)):
        again = api.post(path, body)
        assert again.status_code == 409 and again.json()["error"]["code"] == "closed" and again.json()["error"]["ru"]
    page = api.get(f"/clubs/{api.club_id}/seasons/{season['id']}").text
    assert 'id="season-close"' not in page and 'id="season-form"' not in page


@pytest.mark.parametrize("body", [
    {**SPRING, "ends_on": "2026-02-28"}, {**SPRING, "starts_on": "2026-02-30"}, {**SPRING, "name": ""},
    {**SPRING, "name": "x" * 201}, {**SPRING, "standings": "luck"}, {**SPRING, "series_points": [10, -1]},
    {**SPRING, "series_points": [1] * 65}, {**SPRING, "series_points": ["10"]}, {**SPRING, "extra": 1},
    {"name": "x"}, {**SPRING, "series_points": [1e9]},
])
def test_bad_input_is_refused_and_nothing_is_written(api: Api, body: dict[str, Any]) -> None:
    r = api.post("/api/seasons", body)
    assert r.status_code == 422, (body, r.text)
    assert api.get(f"/api/clubs/{api.club_id}/seasons").json()["seasons"] == []


def test_who_may_change_a_season_and_hostile_ids(api: Api) -> None:
    season = new_season(api)
    sid = season["id"]
    stranger = own_client(api.client)  # not logged in
    assert stranger.post("/api/seasons", json=SPRING).status_code in (401, 403)
    assert api.client.post("/api/seasons", json=SPRING).status_code == 403  # no CSRF token
    assert api.client.post(f"/api/seasons/{sid}/close").status_code == 403
    host, _ = user_client(api, "host7", "host")
    r = host.post("/api/seasons", SPRING)
    assert r.status_code == 403 and r.json()["error"]["ru"]
    assert host.post(f"/api/seasons/{sid}/close").status_code == 403
    assert host.post(f"/api/seasons/{sid}", {"name": "mine"}).status_code == 403
    other = api.store.create_club("Другой клуб")
    outsider, _ = user_client(api, "admin9", "admin", club_id=other)
    assert outsider.post(f"/api/seasons/{sid}/close").status_code == 404
    assert outsider.post(f"/api/seasons/{sid}", {"name": "mine"}).status_code == 404
    assert api.get(f"/api/clubs/{other}/seasons/{sid}").status_code == 404
    assert api.get(f"/clubs/{other}/seasons/{sid}").status_code == 404
    for bad in ("0", "-1", "99999999999999999999", "abc"):
        assert api.get(f"/api/clubs/{api.club_id}/seasons/{bad}").status_code == 422
        assert api.post(f"/api/seasons/{bad}/close").status_code == 422
    assert api.get(f"/api/clubs/{api.club_id}/seasons/999999").status_code == 404
    assert api.get("/clubs/999999/seasons").status_code == 404
    assert api.get("/api/clubs/999999/seasons").status_code == 404
    assert api.post(f"/api/seasons/{sid}", {}).status_code == 422  # nothing to change
    assert api.post(f"/api/seasons/{sid}", {"name": None}).status_code == 422
    assert api.post(f"/api/seasons/{sid}", {"ends_on": "2026-01-01"}).json()["error"]["code"] == "bad-dates"
    assert api.get(f"/api/clubs/{api.club_id}/seasons/{sid}").json()["season"]["name"] == SPRING["name"]
