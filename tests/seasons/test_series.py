"""A season's standings as data (docs/seasons.md, "Seasons"): its days in Moscow time, series points for places
(a shared place shares them), the standings by points from two tournaments computed by hand with their
tie-breaks, and the standings by rating equal to the team Elo from scratch."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from sportmafia.seasons.elo import RatedGame, rate
from sportmafia.seasons.series import (
    Placing,
    check_series_points,
    in_season,
    place_points,
    points_standings,
    rating_standings,
)

MARCH = (date(2026, 3, 1), date(2026, 3, 31))


@pytest.mark.parametrize(("moment", "inside"), [
    (datetime(2026, 2, 28, 20, 59, 59, tzinfo=UTC), False),  # 23:59:59 in Moscow, the day before
    (datetime(2026, 2, 28, 21, 0, 0, tzinfo=UTC), True),  # midnight in Moscow: the first day
    (datetime(2026, 3, 31, 20, 59, 59, tzinfo=UTC), True),  # the last second of the last day
    (datetime(2026, 3, 31, 21, 0, 0, tzinfo=UTC), False),  # April 1st in Moscow
])
def test_a_games_day_is_its_end_in_moscow_time_both_edges_included(moment: datetime, inside: bool) -> None:
    assert in_season(moment, *MARCH) is inside


def test_series_points_are_zero_beyond_the_list_and_a_shared_place_shares_them() -> None:
    series = [25.0, 18.0, 15.0, 12.0]
    assert place_points(series, 1) == 25 and place_points(series, 4) == 12 and place_points(series, 5) == 0
    assert place_points(series, 2, 3) == (18 + 15) / 2
    assert place_points(series, 4, 5) == 6  # (12 + 0) / 2
    assert place_points([], 1) == 0


@pytest.mark.parametrize("points", [[-1.0], [float("nan")], [float("inf")], [10_001.0], [1.0] * 65])
def test_bad_series_points_are_refused(points: list[float]) -> None:
    with pytest.raises(ValueError):
        check_series_points(points)


def test_points_standings_from_two_tournaments_by_hand() -> None:
    series = [10.0, 6.0, 4.0, 3.0]
    placings = [
        # the spring cup: Anna 1st, Boris and Vera share 2nd-3rd, Gleb (not linked to a person) 4th, Dan 5th
        Placing("1", "1", "Anna", 1), Placing("1", "2", "Boris", 2, 3), Placing("1", "3", "Vera", 2, 3),
        Placing("1", "nick:gleb", "Gleb", 4), Placing("1", "4", "Dan", 5),
        # the autumn cup: Vera 1st, Gleb 2nd, Anna 3rd, Boris 4th
        Placing("2", "3", "Vera", 1), Placing("2", "nick:gleb", "Gleb", 2), Placing("2", "1", "Anna", 3),
        Placing("2", "2", "Boris", 4),
    ]
    rows = points_standings(placings, series, {"1": 1010.0, "3": 990.0})
    by_name = {r.name: r for r in rows}
    # by hand: Anna 10 + 4 = 14, Vera 5 + 10 = 15, Boris 5 + 3 = 8, Gleb 3 + 6 = 9, Dan 0
    assert {n: r.points for n, r in by_name.items()} == {"Anna": 14, "Vera": 15, "Boris": 8, "Gleb": 9, "Dan": 0}
    assert [(r.place, r.name) for r in rows] == [(1, "Vera"), (2, "Anna"), (3, "Gleb"), (4, "Boris"), (5, "Dan")]
    assert by_name["Vera"].won == 1 and by_name["Vera"].tournaments == 2
    assert by_name["Boris"].results == (("1", 2, 3, 5.0), ("2", 4, 4, 3.0))
    assert by_name["Gleb"].elo == 1000.0  # no person: the initial rating


def test_equal_points_are_split_by_tournaments_won_then_by_the_season_elo_else_shared() -> None:
    series = [10.0, 6.0, 4.0]
    # A and E win a tournament each (10); B, C and D take 2nd and 3rd in two others (10)
    placings = [Placing("1", "A", "A", 1), Placing("2", "B", "B", 2), Placing("3", "B", "B", 3),
                Placing("2", "C", "C", 3), Placing("3", "C", "C", 2), Placing("2", "D", "D", 2),
                Placing("3", "D", "D", 3), Placing("4", "E", "E", 1)]
    rows = points_standings(placings, series, {"B": 1001.0, "C": 1001.0, "D": 999.0})
    # A and E: 10 each and one tournament won: equal Elo (1000) -> shared 1st-2nd; B, C, D: 10 each, none won
    assert [(r.place, r.place_to, r.key) for r in rows] == [(1, 2, "A"), (1, 2, "E"), (3, 4, "B"), (3, 4, "C"),
                                                            (5, 5, "D")]


def _game(i: int, people: tuple[str | None, ...], winner: str | None) -> RatedGame:
    teams = ("red",) * 7 + ("black",) * 3
    return RatedGame(f"g{i}", datetime(2026, 3, 1 + i, 18, tzinfo=UTC), people, teams, winner)


def test_rating_standings_are_the_elo_of_the_seasons_games_alone_from_scratch() -> None:
    people = tuple(str(p) for p in range(1, 11))
    swapped = people[3:] + people[:3]
    games = [_game(0, people, "red"), _game(1, swapped, "black"), _game(2, (*people[:9], None), "black"),
             _game(3, people, None), _game(4, swapped, "red")]
    rows = rating_standings(games, excluded={"g4"})
    elo = rate(games, {"g4"})
    assert {r.person: r.elo for r in rows} == {p: elo.overall(p) for p in elo.history}
    assert [r.elo for r in rows] == sorted((r.elo for r in rows), reverse=True)
    one = next(r for r in rows if r.person == "1")
    assert (one.games, one.wins) == (3, 2)  # won g0 (red) and g1 (black there), lost g2; g3 no winner, g4 excluded
    assert (one.red, one.black) == (elo.colour("1", "red"), elo.colour("1", "black"))
    assert all(r.place <= r.place_to for r in rows) and rows[0].place == 1
