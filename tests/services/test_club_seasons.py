"""A club's seasons in the services (docs/seasons.md, "Seasons"): a season's games are exactly those that ended on
its days in Moscow time, its standings by rating are the team Elo of those games alone from scratch, closing
freezes what its page shows, and what may not be done is refused with its reason."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from sportmafia.seasons.elo import rate
from sportmafia.seasons.facts import result_only_facts
from sportmafia.services import club_seasons as svc
from sportmafia.services.club_seasons import SeasonSettings
from sportmafia.services.errors import Refusal
from sportmafia.store import Store, UserRecord
from sportmafia.store import seasons as db

ROLES = ["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"]
MARCH = SeasonSettings("Весна 2026", date(2026, 3, 1), date(2026, 3, 31))


def game(store: Store, club: int, people: list[int], ended: datetime, winner: str | None = "red") -> str:
    """A result-only game of the club that ended at ``ended``, the persons seated in order."""
    names = [f"P{p}" for p in people]
    facts = result_only_facts("club", names, ROLES, winner, "award" if winner else "draw", [0] * 10, [None] * 10)
    return db.import_game(store, club, facts=facts, ended_at=ended, people=list(people), source="sportmafia",
                          source_id=f"{ended.isoformat()}-{people[0]}")


def club(store: Store) -> tuple[int, list[int], UserRecord]:
    club_id = store.create_club("Клуб")
    people = store.add_club_players(club_id, [f"Игрок {i}" for i in range(1, 13)])
    return club_id, people, store.create_user(club_id, "judge", "x", "judge")


def at(day: int, hour: int, minute: int = 0, second: int = 0, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, minute, second, tzinfo=UTC)


def test_a_seasons_games_are_those_that_ended_on_its_days_in_moscow_time(store: Store) -> None:
    club_id, people, judge = club(store)
    edges = {at(28, 20, 59, 59, month=2): False, at(28, 21, month=2): True, at(15, 12): True,
             at(31, 20, 59, 59): True, at(31, 21): False}
    ids = {game(store, club_id, people[:10], moment): inside for moment, inside in edges.items()}
    season = svc.create(store, judge, MARCH)
    page = svc.page(store, club_id, season.id)
    assert page.shown["games"] == sum(ids.values()) == 3
    assert {r["games"] for r in page.shown["rows"]} == {3}
    assert page.red_wins.successes == page.red_wins.n == 3


def test_the_standings_by_rating_are_the_elo_of_the_seasons_games_alone(store: Store) -> None:
    club_id, people, judge = club(store)
    game(store, club_id, people[:10], at(20, 18, month=2), "black")  # before the season: not in its ratings
    inside = [game(store, club_id, people[:10], at(2, 18), "red"),
              game(store, club_id, people[2:12], at(9, 18), "black"),
              game(store, club_id, people[1:11], at(16, 18), "red")]
    db.exclude(store, club_id, inside[1], "seats swapped", judge.id)
    season = svc.create(store, judge, MARCH)
    rows = svc.page(store, club_id, season.id).shown["rows"]
    from sportmafia.services.seasons import rated
    games = [rated(g) for g in db.index_games(store, club_id) if g.game_id in inside]
    elo = rate(games, {inside[1]})
    assert {str(r["person"]): r["elo"] for r in rows} == {p: elo.overall(p) for p in elo.history}
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert {r["name"] for r in rows} <= {f"Игрок {i}" for i in range(1, 13)}
    assert str(people[11]) not in {str(r["person"]) for r in rows}  # he played only the game left out


def test_closing_freezes_the_page_a_merge_or_a_new_game_changes_nothing(store: Store) -> None:
    club_id, people, judge = club(store)
    game(store, club_id, people[:10], at(2, 18), "red")
    season = svc.create(store, judge, MARCH)
    closed = svc.close(store, judge, season.id)
    assert closed.closed and closed.closed_by == "judge"
    frozen = svc.page(store, club_id, season.id).shown
    assert frozen == svc.standings(store, season)
    db.merge(store, club_id, people[11], people[0], "one person", judge.id)
    game(store, club_id, people[2:12], at(3, 18), "black")
    assert svc.page(store, club_id, season.id).shown == frozen
    assert svc.standings(store, season) != frozen  # the same season open would have moved
    with pytest.raises(Refusal) as refused:
        svc.edit(store, judge, season.id, name="Другое имя")
    assert (refused.value.kind, refused.value.code) == ("conflict", "closed")
    with pytest.raises(Refusal) as again:
        svc.close(store, judge, season.id)
    assert again.value.code == "closed"


def test_an_open_season_is_edited_and_its_games_follow_its_days(store: Store) -> None:
    club_id, people, judge = club(store)
    game(store, club_id, people[:10], at(2, 18))
    game(store, club_id, people[:10], at(2, 18, month=4))
    season = svc.create(store, judge, MARCH)
    assert svc.page(store, club_id, season.id).shown["games"] == 1
    edited = svc.edit(store, judge, season.id, ends_on=date(2026, 4, 30), series_points=(3, 2, 1))
    assert edited.ends_on == date(2026, 4, 30) and edited.series_points == (3.0, 2.0, 1.0)
    assert svc.page(store, club_id, season.id).shown["games"] == 2


@pytest.mark.parametrize(("settings", "code"), [
    (SeasonSettings("x", date(2026, 3, 2), date(2026, 3, 1)), "bad-dates"),
    (SeasonSettings("   ", date(2026, 3, 1), date(2026, 3, 1)), "bad-name"),
    (SeasonSettings("x" * 201, date(2026, 3, 1), date(2026, 3, 1)), "bad-name"),
    (SeasonSettings("x", date(2026, 3, 1), date(2026, 3, 1), "luck"), "bad-standings"),
    (SeasonSettings("x", date(2026, 3, 1), date(2026, 3, 1), "points", (10, -1)), "bad-points"),
    (SeasonSettings("x", date(2026, 3, 1), date(2026, 3, 1), "points", (1,) * 65), "bad-points"),
])
def test_bad_settings_are_refused_and_nothing_is_written(store: Store, settings: SeasonSettings, code: str) -> None:
    club_id, _people, judge = club(store)
    with pytest.raises(Refusal) as refused:
        svc.create(store, judge, settings)
    assert (refused.value.kind, refused.value.code) == ("invalid", code)
    assert svc.club_seasons(store, club_id) == []


def test_only_the_staff_change_seasons_and_another_clubs_season_is_not_found(store: Store) -> None:
    club_id, _people, judge = club(store)
    host = store.create_user(club_id, "host", "x", "host")
    with pytest.raises(Refusal) as refused:
        svc.create(store, host, MARCH)
    assert refused.value.kind == "forbidden"
    season = svc.create(store, judge, MARCH)
    for act in (lambda: svc.edit(store, host, season.id, name="y"), lambda: svc.close(store, host, season.id)):
        with pytest.raises(Refusal) as no:
            act()
        assert no.value.kind == "forbidden"
    other = store.create_club("Другой клуб")
    stranger = store.create_user(other, "admin2", "x", "admin")
    for act in (lambda: svc.edit(store, stranger, season.id, name="y"), lambda: svc.close(store, stranger, season.id),
                lambda: svc.page(store, other, season.id)):
        with pytest.raises(Refusal) as missing:
            act()
        assert missing.value.kind == "not-found"
    assert svc.page(store, club_id, season.id).season.name == "Весна 2026"
