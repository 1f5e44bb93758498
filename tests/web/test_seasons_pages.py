"""The season pages and their API (docs/seasons.md): a player's public profile and the club's players in both
languages, their charts, hostile input refused, and the staff's merges and rating exclusions."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sportmafia.services import seasons
from sportmafia.store import Store
from tests.store.test_season_index import played
from tests.web.conftest import Api, own_client


def club_games(api: Api, names: list[str], games: int = 3) -> list[int]:
    """Persons with those names in the api's club, who played ``games`` finished games together."""
    people = api.store.add_club_players(api.club_id, names)
    for seed in range(games):
        played(api.store, api.club_id, seed, people)
    return people


NAMES = ["Ворон", "Лиса", "Кот", "Сова", "Ёж", "Волк", "Заяц", "Медведь", "Барсук", "<script>x()</script>"]


@pytest.mark.parametrize(("lang", "words"), [("ru", ["Рейтинг", "Победы по ролям", "За столом", "за красных"]),
                                             ("en", ["Rating", "Wins by role", "At the table", "as red"])])
def test_a_players_profile_is_public_and_in_the_pages_language(anon: Api, lang: str, words: list[str]) -> None:
    people = club_games(anon, NAMES)
    anon.client.cookies.set("lang", lang)
    r = anon.get(f"/players/{people[0]}")
    assert r.status_code == 200
    assert all(w in r.text for w in words) and "Ворон" in r.text
    assert f"/players/{people[0]}/charts/rating.svg?lang={lang}" in r.text
    hacker = anon.get(f"/players/{people[9]}").text
    assert "<script>x()</script>" not in hacker and "&lt;script&gt;x()&lt;/script&gt;" in hacker
    club = anon.get(f"/clubs/{anon.club_id}/players")
    assert club.status_code == 200 and f'href="/players/{people[0]}"' in club.text


def test_the_profiles_json_carries_the_statistics_and_ratings(anon: Api) -> None:
    people = club_games(anon, NAMES)
    body = anon.get(f"/api/players/{people[1]}").json()
    assert body["games"] == 3 and body["stats"]["games"]["all"] == 3
    assert {r["key"] for r in body["roles"]} == {"red", "sheriff", "black", "don", "all"}
    page = seasons.profile(anon.store, people[1])
    assert page is not None and body["stats"] == page.stats.to_json()
    narrowed = anon.get(f"/api/players/{people[1]}", params={"since": "2000-01-01", "until": "2000-01-02"}).json()
    assert narrowed["stats"]["games"]["all"] == 0
    club = anon.get(f"/api/clubs/{anon.club_id}/players").json()
    assert club["games"] >= 3 and {p["id"] for p in club["players"]} >= set(people)


@pytest.mark.parametrize("query", [{"role": "king"}, {"ruleset": "poker"}, {"since": "2026-02-30"},
                                   {"since": "2026-05-02", "until": "2026-05-01"}, {"tournament": "0"}])
def test_a_bad_filter_is_refused_with_a_reason(anon: Api, query: dict[str, str]) -> None:
    people = club_games(anon, NAMES, games=1)
    r = anon.get(f"/players/{people[0]}", params=query)
    assert r.status_code == 422
    assert anon.get(f"/api/players/{people[0]}", params=query).status_code == 422


def test_no_such_player_club_or_chart_is_a_404(anon: Api) -> None:
    people = club_games(anon, NAMES, games=1)
    assert anon.get("/players/999999").status_code == 404
    assert anon.get("/api/players/999999").status_code == 404
    assert anon.get("/clubs/999999/players").status_code == 404
    assert anon.get(f"/players/{people[0]}/charts/secrets.svg").status_code == 404
    assert anon.get(f"/players/{people[0]}/charts/rating.gif").status_code in (404, 422)
    assert anon.get("/players/0").status_code == 422


@pytest.mark.parametrize("path", ["/players/{p}/charts/rating", "/players/{p}/charts/roles",
                                  "/clubs/{c}/charts/rulesets", "/clubs/{c}/charts/weekdays",
                                  "/clubs/{c}/charts/tables"])
def test_every_chart_is_an_svg_and_a_png_under_its_own_strict_policy(anon: Api, path: str) -> None:
    people = club_games(anon, NAMES, games=2)
    base = path.format(p=people[0], c=anon.club_id)
    svg = anon.get(base + ".svg", params={"lang": "ru"})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.headers["content-security-policy"].startswith("default-src 'none'")
    ET.fromstring(svg.text)  # well-formed
    png = anon.get(base + ".png", params={"download": "1"})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert "attachment" in png.headers["content-disposition"]


def test_staff_merge_a_duplicate_with_a_reason_and_others_may_not(api: Api) -> None:
    people = club_games(api, NAMES, games=1)
    [dup] = api.store.add_club_players(api.club_id, ["Ворон 2"])
    played(api.store, api.club_id, 9, [dup, *people[1:]])
    body = {"from_id": dup, "into_id": people[0], "reason": "typed twice"}
    stranger = own_client(api.client)  # another browser, not logged in
    assert stranger.post("/api/players/merge", json=body).status_code in (401, 403)
    assert api.client.post("/api/players/merge", json=body).status_code == 403  # no CSRF token
    r = api.post("/api/players/merge", body)
    assert r.status_code == 200, r.text
    assert r.json()["merge"]["reason"] == "typed twice" and r.json()["merge"]["by"] == "admin"
    assert api.get(f"/api/players/{people[0]}").json()["games"] == 2
    assert api.get(f"/players/{dup}").status_code == 404  # his page is the one he joined
    assert "Ворон 2: typed twice (admin," in api.get(f"/players/{people[0]}").text  # the audit trail, for the staff
    again = api.post("/api/players/merge", body)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already-merged"
    assert api.post("/api/players/merge", {**body, "from_id": people[0]}).status_code == 422
    assert api.post("/api/players/merge", {**body, "reason": ""}).status_code == 422


def test_a_host_may_not_merge_nor_leave_games_out(api: Api, store: Store) -> None:
    people = club_games(api, NAMES, games=1)
    r = api.post("/api/users", {"login": "host1", "password": "a long password 1", "role": "host"})
    assert r.status_code in (200, 201), r.text
    api.post("/api/logout")
    api.login("host1", "a long password 1")
    r = api.post("/api/players/merge", {"from_id": people[1], "into_id": people[0], "reason": "x"})
    assert r.status_code == 403 and r.json()["error"]["ru"]
    game = seasons.club_ratings(store, api.club_id).elo.history[str(people[0])][0].game_id
    assert api.post(f"/api/games/{game}/rating-exclusion", {"reason": "x"}).status_code == 403


def test_a_game_left_out_by_the_staff_leaves_the_ratings_and_comes_back(api: Api, store: Store) -> None:
    people = club_games(api, NAMES, games=2)
    game = seasons.club_ratings(store, api.club_id).elo.history[str(people[0])][0].game_id
    assert api.post(f"/api/games/{game}/rating-exclusion", {"reason": "a player swapped seats"}).json() == {"ok": True}
    assert game not in seasons.club_ratings(store, api.club_id).elo.odds
    page = api.get(f"/players/{people[0]}").text
    assert "Count again" in page or "Учитывать снова" in page
    assert api.post(f"/api/games/{game}/rating-exclusion", {"reason": "again"}).status_code == 409
    assert api.post(f"/api/games/{game}/rating-exclusion/lift", {"reason": "kept"}).status_code == 200
    assert game in seasons.club_ratings(store, api.club_id).elo.odds
    assert api.post("/api/games/nope/rating-exclusion", {"reason": "x"}).status_code == 404


def test_the_clubs_page_kept_between_views_follows_every_change_of_the_index(api: Api) -> None:
    from sportmafia.store import seasons as db

    people = club_games(api, NAMES, games=1)
    version = db.index_version(api.store, api.club_id)
    first = api.get(f"/api/clubs/{api.club_id}/players").json()
    assert api.get(f"/api/clubs/{api.club_id}/players").json() == first  # kept: the same answer
    played(api.store, api.club_id, 5, people)
    assert db.index_version(api.store, api.club_id) == (version or 0) + 1
    assert api.get(f"/api/clubs/{api.club_id}/players").json()["games"] == first["games"] + 1
    [dup] = api.store.add_club_players(api.club_id, ["Ворон-2"])
    assert api.post("/api/players/merge", {"from_id": dup, "into_id": people[0], "reason": "dup"}).status_code == 200
    assert dup not in {p["id"] for p in api.get(f"/api/clubs/{api.club_id}/players").json()["players"]}
    game = seasons.club_ratings(api.store, api.club_id).elo.history[str(people[0])][0].game_id
    before = api.get(f"/api/clubs/{api.club_id}/players").json()["players"]
    assert api.post(f"/api/games/{game}/rating-exclusion", {"reason": "x"}).status_code == 200
    assert api.get(f"/api/clubs/{api.club_id}/players").json()["players"] != before  # the ratings moved


def test_a_season_narrows_a_profile_to_its_days(api: Api) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from sportmafia.store import GameIndex, SeatIndex

    people = club_games(api, NAMES, games=3)
    games = [g.game_id for g in seasons.db.index_games(api.store, api.club_id)]
    for day, game in zip((1, 15, 40), games, strict=True):  # Mar 1, Mar 15 and Apr 9, 2026, at 19:00 Moscow
        when = datetime(2026, 2, 28, 16, tzinfo=UTC) + timedelta(days=day)
        with api.store.write() as s:
            s.execute(update(GameIndex).where(GameIndex.game_id == game).values(ended_at=when))
            s.execute(update(SeatIndex).where(SeatIndex.game_id == game).values(ended_at=when))
    r = api.post("/api/seasons", {"name": "Март", "starts_on": "2026-03-01", "ends_on": "2026-03-31"})
    assert r.status_code == 201, r.text
    season = r.json()["season"]["id"]
    assert api.get(f"/api/players/{people[0]}", params={"season": season}).json()["stats"]["games"]["all"] == 2
    narrowed = api.get(f"/api/players/{people[0]}", params={"season": season, "since": "2026-03-10"}).json()
    assert narrowed["stats"]["games"]["all"] == 1  # the season's days and the dates asked for, both
    page = api.get(f"/players/{people[0]}", params={"season": season})
    assert page.status_code == 200 and "Март" in page.text
    other = api.store.create_club("Other")
    [stranger] = api.store.add_club_players(other, ["X"])
    assert api.get(f"/api/players/{stranger}", params={"season": season}).status_code == 422
    assert api.get(f"/api/players/{people[0]}", params={"season": 999999}).status_code == 422


def test_a_season_or_a_tournament_narrows_the_clubs_statistics(api: Api) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from sportmafia.store import GameIndex, SeatIndex

    club_games(api, NAMES, games=3)
    games = [g.game_id for g in seasons.db.index_games(api.store, api.club_id)]
    for day, game in zip((1, 15, 40), games, strict=True):  # Mar 1, Mar 15 and Apr 9, 2026
        when = datetime(2026, 2, 28, 16, tzinfo=UTC) + timedelta(days=day)
        with api.store.write() as s:
            s.execute(update(GameIndex).where(GameIndex.game_id == game).values(ended_at=when))
            s.execute(update(SeatIndex).where(SeatIndex.game_id == game).values(ended_at=when))
    season = api.post("/api/seasons", {"name": "Март", "starts_on": "2026-03-01",
                                       "ends_on": "2026-03-31"}).json()["season"]["id"]
    assert api.get(f"/api/clubs/{api.club_id}/players", params={"season": season}).json()["games"] == 2
    assert api.get(f"/api/clubs/{api.club_id}/players", params={"tournament": 12345}).json()["games"] == 0
    api.client.cookies.set("lang", "ru")
    page = api.get(f"/clubs/{api.club_id}/players", params={"season": season})
    assert page.status_code == 200 and f'<option value="{season}" selected>Март</option>' in page.text
    assert "игр: 2" in page.text and "since=2026-03-01" in page.text  # the charts narrowed alike
    chart = api.get(f"/clubs/{api.club_id}/charts/rulesets.svg", params={"tournament": 12345})
    assert chart.status_code == 200
    other = api.store.create_club("Other")
    assert api.get(f"/api/clubs/{other}/players", params={"season": season}).status_code == 422


def test_the_charts_addresses_move_with_the_clubs_index(api: Api) -> None:
    """The browser keeps a chart five minutes: its address names the club's index version, so after a game the
    pages ask for the new charts, not the copies kept before it."""
    import re

    people = club_games(api, NAMES, games=1)

    def charts() -> set[str]:
        return set(re.findall(r'src="(/(?:clubs|players)/[^"]+/charts/[^"]+)"',
                              api.get(f"/clubs/{api.club_id}/players").text + api.get(f"/players/{people[0]}").text))

    before = charts()
    assert len(before) == 5 and all("v=" in c for c in before)
    assert charts() == before  # no change, the same addresses: the browser's copies serve
    played(api.store, api.club_id, 9, people)
    after = charts()
    assert not after & before
    assert all(api.get(c.replace("&amp;", "&")).status_code == 200 for c in after)


def test_a_filter_sent_with_its_fields_left_empty_is_no_filter(anon: Api) -> None:
    """The pages' forms send every field, the empty ones as ``?since=&role=``: that is every game, not a 422."""
    people = club_games(anon, NAMES, games=2)
    empty = {"since": "", "until": "", "role": "", "ruleset": "", "season": "", "tournament": ""}
    assert anon.get(f"/players/{people[0]}", params=empty).status_code == 200
    assert anon.get(f"/api/players/{people[0]}", params=empty).json()["stats"]["games"]["all"] == 2
    assert anon.get(f"/clubs/{anon.club_id}/players", params=empty).status_code == 200
    assert anon.get(f"/api/clubs/{anon.club_id}/players", params=empty).json()["games"] == 2
    for bad in ({"since": "2026-13-01"}, {"season": "0"}, {"role": "x" * 17}, {"tournament": "abc"}):
        assert anon.get(f"/api/players/{people[0]}", params=bad).status_code == 422, bad
