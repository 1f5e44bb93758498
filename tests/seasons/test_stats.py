"""Statistics over many games (seasons/stats.py): hand-checked figures on golden games, filters, result-only games."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sportmafia.seasons.facts import GameFacts, game_facts, result_only_facts
from sportmafia.seasons.stats import (
    Filter,
    PlayedGame,
    Rate,
    counted_group,
    counted_stats,
    game_counts,
    group_stats,
    person_stats,
    played_names,
    played_seat,
    seat_counts,
    seat_stats,
    select,
    wilson,
)
from tests.seasons import golden

FRIDAY_NIGHT = datetime(2025, 1, 10, 22, 30, tzinfo=UTC)   # Saturday 01:30 in Moscow


def played(name: str, game_id: str = "", *, hours: int = 0, host: str | None = "h1", table: str | None = "A",
           facts: GameFacts | None = None) -> PlayedGame:
    facts = facts or game_facts(golden(name))
    return PlayedGame(game_id or name, FRIDAY_NIGHT + timedelta(hours=hours), facts,
                      tuple(f"p{i}" for i in range(1, facts.players + 1)), club="c1", host=host, table=table)


def result_only(facts: GameFacts) -> GameFacts:
    """The same game as a result-only record would give it."""
    return result_only_facts(facts.ruleset, [s.name for s in facts.seats], [s.role for s in facts.seats],
                             facts.winner, facts.result, [s.fouls for s in facts.seats],
                             [(s.left, s.left_day, s.left_night) if s.left and s.left_day is not None else None
                              for s in facts.seats])


def test_wilson_interval() -> None:
    low, high = wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(50, 100)[0] == pytest.approx(1 - wilson(50, 100)[1])
    with pytest.raises(ValueError):
        wilson(3, 2)
    assert Rate(1, 4).to_json()["rate"] == 0.25 and Rate().rate is None


def test_the_sheriff_the_don_and_the_first_killed_of_a_golden_game() -> None:
    games = [played("fiim_best_move")]
    victim = person_stats("p8", games)
    assert victim.first_killed == 1 and victim.best_moves == 1
    assert victim.best_move_black == {0: 0, 1: 0, 2: 1, 3: 0}
    sheriff = person_stats("p6", games)
    assert sheriff.games["sheriff"] == 1 and sheriff.wins["sheriff"] == Rate(1, 1)
    assert sheriff.sheriff_checks == Rate(2, 2) and sheriff.sheriff_by_night == {1: Rate(1, 1), 2: Rate(1, 1)}
    don = person_stats("p3", games)
    assert don.don_checks == Rate(1, 1) and don.don_found_on == {1: 1} and don.wins["don"] == Rate(0, 1)
    assert don.departures == {"vote": 1}


def test_votes_and_nominations_by_team_and_day() -> None:
    games = [played("fiim_best_move")]
    red = person_stats("p5", games)   # votes 5 (red), then 3 and 7 (black); nominated 7
    assert red.votes_red == Rate(2, 3) and red.votes_red_by_day == {1: Rate(0, 1), 2: Rate(1, 1), 3: Rate(1, 1)}
    assert red.votes_black == Rate() and red.nominations_red == Rate(1, 1)
    black = person_stats("p7", games)   # votes 5, 7, 7
    assert black.votes_black == Rate(2, 3) and black.votes_red == Rate()


def test_result_only_games_count_only_in_what_they_tell() -> None:
    facts = game_facts(golden("fiim_best_move"))
    full = [played("fiim_best_move")]
    both = [*full, played("", "imported", hours=1, facts=result_only(facts))]
    for person in ("p3", "p5", "p6", "p8"):
        one, two = person_stats(person, full), person_stats(person, both)
        assert two.games["all"] == 2 * one.games["all"] and two.wins["all"].n == 2 * one.wins["all"].n
        assert two.fouls == 2 * one.fouls and two.first_killed == 2 * one.first_killed
        assert sum(two.departures.values()) == 2
        assert (two.detailed, one.detailed) == (1, 1)
        assert (two.votes_red, two.votes_black, two.sheriff_checks, two.don_checks, two.best_move_black,
                two.nominations_red, two.don_found_on) == \
               (one.votes_red, one.votes_black, one.sheriff_checks, one.don_checks, one.best_move_black,
                one.nominations_red, one.don_found_on)


def test_games_without_a_winner_count_as_games_not_in_win_rates() -> None:
    games = [played("club_protest_annul"), played("club_plain_red_win", hours=1)]
    stats = person_stats("p1", games)
    assert stats.games["all"] == 2 and stats.wins["all"] == Rate(1, 1)
    assert stats.results == {"black-gone": 1, "protest-annul": 1}
    group = group_stats(games)
    assert group.games == 2 and group.red_wins == Rate(1, 1)


def test_group_stats_by_ruleset_weekday_table_and_host() -> None:
    games = [played("club_plain_red_win", host="h1", table="A"),
             played("club_black_parity", hours=24, host="h2", table="B"),
             played("fiim_best_move", hours=48, host="h1", table=None),
             played("fiim_draw", hours=49, host=None)]
    group = group_stats(games)
    assert group.games == 4 and group.red_wins == Rate(2, 3)
    assert group.by_ruleset == {"club": Rate(1, 2), "fiim": Rate(1, 1)}
    assert group.by_weekday == {5: Rate(1, 1), 6: Rate(0, 1), 0: Rate(1, 1)}   # Saturday, Sunday, Monday in Moscow
    assert group_stats(games, timezone="UTC").by_weekday == {4: Rate(1, 1), 5: Rate(0, 1), 6: Rate(1, 1)}
    assert group.by_table == {"A": Rate(1, 1), "B": Rate(0, 1)}
    assert group.by_host == {"h1": Rate(2, 2), "h2": Rate(0, 1)}
    assert group.results == {"black-gone": 2, "draw": 1, "parity": 1}
    assert json.loads(json.dumps(group.to_json()))["red_wins"]["n"] == 3


def test_filters_by_date_in_a_timezone_ruleset_host_and_role_group() -> None:
    games = [played("club_plain_red_win"), played("fiim_best_move", hours=24, host="h2")]
    assert [g.game_id for g in select(games, Filter(since=date(2025, 1, 11)))] == ["club_plain_red_win",
                                                                                   "fiim_best_move"]
    assert [g.game_id for g in select(games, Filter(since=date(2025, 1, 11), timezone="UTC"))] == ["fiim_best_move"]
    assert [g.game_id for g in select(games, Filter(until=date(2025, 1, 11)))] == ["club_plain_red_win"]
    assert [g.game_id for g in select(games, Filter(ruleset="fiim"))] == ["fiim_best_move"]
    assert [g.game_id for g in select(games, Filter(host="h2"))] == ["fiim_best_move"]
    assert select(games, Filter(club="other")) == [] and select(games, Filter(tournament="t")) == []
    sheriff = person_stats("p6", games, Filter(role_group="sheriff"))
    assert sheriff.games["all"] == 2 and sheriff.games["sheriff"] == 2
    assert person_stats("p1", games, Filter(role_group="don")).games["all"] == 0
    with pytest.raises(ValueError):
        select(games, Filter(role_group="red"))


def test_person_stats_print_as_json() -> None:
    stats = person_stats("p6", [played("fiim_best_move"), played("club_plain_red_win", hours=1)])
    data = json.loads(json.dumps(stats.to_json()))
    assert data["games"]["all"] == 2 and data["sheriff_by_night"]["1"]["n"] == 2
    assert data["fouls_per_game"] == stats.fouls / 2


def _plausible_season() -> list[PlayedGame]:
    """Forty games of a club of fourteen played by the plausible bots, every fifth one result-only."""
    import random

    from sportmafia.bots.plausible import play_plausible
    from sportmafia.rules import get_ruleset

    rng, people, games = random.Random(3), [f"p{i}" for i in range(14)], []
    for k in range(40):
        preset = ("club", "fiim", "tournament")[k % 3]
        n = 12 if preset == "tournament" else 10
        seated = rng.sample(people, n)
        facts = game_facts(play_plausible(get_ruleset(preset), n, k, seated))
        games.append(PlayedGame(f"g{k:02}", FRIDAY_NIGHT + timedelta(hours=k),
                                result_only(facts) if k % 5 == 4 else facts, tuple(seated)))
    return games


SEASON = _plausible_season()


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(0, len(SEASON) - 1)), st.sampled_from([f"p{i}" for i in range(14)]))
def test_a_persons_statistics_are_the_sum_of_his_seats_counts_less_those_taken_away(gone: set[int],
                                                                                     person: str) -> None:
    """What a store keeps as games end: the counts of his seats added, those of games reopened taken away (in any
    order), through JSON, give the statistics read from his remaining seats."""
    mine = [played_seat(g, person) for g in SEASON if person in g.people]
    kept: Counter[str] = Counter()
    for seat in mine:
        kept.update(seat_counts(seat))
    stored = json.loads(json.dumps(dict(kept)))
    left = Counter(stored)
    for seat in mine:
        if int(seat.game_id[1:]) in gone:
            left.subtract(seat_counts(seat))
    remaining = [s for s in mine if int(s.game_id[1:]) not in gone]
    assert counted_stats(person, +left) == seat_stats(person, remaining)
    assert counted_stats(person, +left).to_json() == person_stats(person, [g for g in SEASON if g.game_id in
                                                                          {s.game_id for s in remaining}]).to_json()
    assert all(v >= 0 for v in left.values())


def test_the_names_a_person_played_under_come_from_his_counts() -> None:
    seats = [played_seat(g, "p1") for g in SEASON if "p1" in g.people]
    counts: Counter[str] = Counter()
    for seat in seats:
        counts.update(seat_counts(seat))
    assert played_names(counts) == ("p1",) and counts["name/p1"] == len(seats)
    counts.update({"name/Pavel": len(seats) + 1, "name/a/b": 1})
    assert played_names(counts) == ("Pavel", "p1", "a/b")


@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(0, len(SEASON) - 1)))
def test_a_groups_statistics_are_the_sum_of_its_games_counts_less_those_taken_away(gone: set[int]) -> None:
    """What a store keeps for a club: its games' counts added, those of games reopened taken away, through JSON,
    give the statistics of the remaining games (by rule set, weekday, table and host)."""
    from dataclasses import replace

    games = [replace(g, host=("1", "12", None)[i % 3], table=(None, "2", "10")[i % 3]) for i, g in enumerate(SEASON)]

    def counts(g: PlayedGame) -> Counter[str]:
        return game_counts(g.ended, g.facts.ruleset, g.facts.winner, g.facts.result, g.table, g.host)

    kept: Counter[str] = Counter()
    for g in games:
        kept.update(counts(g))
    left = Counter(json.loads(json.dumps(dict(kept))))
    for i in gone:
        left.subtract(counts(games[i]))
    remaining = [g for i, g in enumerate(games) if i not in gone]
    assert counted_group(+left) == group_stats(remaining)
    assert list(counted_group(+left).by_table) == list(group_stats(remaining).by_table)
    assert all(v >= 0 for v in left.values())
