"""A club's season in the services: the ratings kept per process equal the ratings computed from scratch after
every change of the index (a game ending, a merge, an exclusion and its lifting), and a profile's statistics are
those of the games' facts (docs/seasons.md)."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sportmafia.engine import Award, Undo
from sportmafia.seasons.elo import rate
from sportmafia.seasons.skill import rate_skill
from sportmafia.seasons.stats import Filter, PlayedGame, group_stats, person_stats
from sportmafia.services import seasons
from sportmafia.store import Store
from sportmafia.store import seasons as db
from tests.store.test_season_index import club_with_roster, played


def from_scratch(store: Store, club: int) -> tuple[dict[str, float], dict[str, float]]:
    games = [seasons.rated(g) for g in db.index_games(store, club)]
    excluded = db.exclusions(store, club)
    elo = rate(games, excluded)
    skill = rate_skill(games, excluded)
    return ({p: elo.overall(p) for p in elo.history}, {p: skill.skill(p).ordinal for p in skill.history})


def kept(store: Store, club: int) -> tuple[dict[str, float], dict[str, float]]:
    now = seasons.club_ratings(store, club)
    return ({p: now.elo.overall(p) for p in now.elo.history}, {p: now.skill.skill(p).ordinal for p in now.skill.history})


def test_the_ratings_kept_in_the_process_equal_the_ratings_from_scratch_after_every_change(store: Store) -> None:
    club, roster, admin = club_with_roster(store)
    [dup] = store.add_club_players(club, ["Twin"])
    games = []
    for seed in range(4):
        seats = [dup if seed % 2 else roster[0], *roster[1:]]
        games.append(played(store, club, seed, seats)[0])
        assert kept(store, club) == from_scratch(store, club)
    assert str(dup) in kept(store, club)[0]
    db.merge(store, club, dup, roster[0], "one person", admin)
    assert kept(store, club) == from_scratch(store, club) and str(dup) not in kept(store, club)[0]
    db.exclude(store, club, games[1], "a seat changed hands", admin)
    assert kept(store, club) == from_scratch(store, club)
    assert games[1] not in seasons.club_ratings(store, club).elo.odds
    db.lift_exclusion(store, club, games[1], "kept after all", admin)
    assert kept(store, club) == from_scratch(store, club)
    assert games[1] in seasons.club_ratings(store, club).elo.odds
    # a game imported that ended before all the others: the past changed, rated again from scratch
    first = db.index_games(store, club)[0]
    facts = db.indexed_facts(store, first.game_id)
    assert facts is not None
    old = db.import_game(store, club, facts=facts, ended_at=first.ended_at - timedelta(days=1),
                         people=list(first.people), source="polemica", source_id="earlier")
    assert kept(store, club) == from_scratch(store, club) and old in seasons.club_ratings(store, club).elo.odds
    # the newest game reopened by an undo, and ended again
    newest = games[-1]
    store.append(newest, Undo(), expected_seq=store.game(newest).next_seq, command_id=uuid.uuid4().hex)
    assert kept(store, club) == from_scratch(store, club) and newest not in seasons.club_ratings(store, club).elo.odds
    store.append(newest, Award("black", "judge's decision"), expected_seq=store.game(newest).next_seq,
                 command_id=uuid.uuid4().hex)
    assert kept(store, club) == from_scratch(store, club) and newest in seasons.club_ratings(store, club).elo.odds


def test_a_new_game_is_applied_on_top_of_what_the_process_kept(store: Store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    club, roster, _ = club_with_roster(store)
    played(store, club, 1, list(roster))
    seasons.club_ratings(store, club)
    reads: list[object] = []
    real = db.rating_games
    monkeypatch.setattr(db, "rating_games", lambda *a, **k: reads.append(k.get("since")) or real(*a, **k))
    played(store, club, 2, list(roster))
    assert kept(store, club) == from_scratch(store, club)
    assert reads[0] is not None  # only the games after the last one applied were read


def test_a_profile_counts_the_facts_of_his_games_and_the_filter_narrows_them(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    for seed in range(3):
        played(store, club, seed, list(roster))
    page = seasons.profile(store, roster[4])
    assert page is not None and page.person.games == 3 and len(page.games) == 3
    games = [PlayedGame(g.game_id, g.ended_at, g.facts, tuple(None if p is None else str(p) for p in g.people))
             for g in db.index_games(store, club)]
    assert page.stats == person_stats(str(roster[4]), games)
    role = page.games[0].seat
    assert role.name == "P5" and page.games[0].game_id == db.index_games(store, club)[-1].game_id  # newest first
    group = {"civilian": "red", "sheriff": "sheriff", "mafia": "black", "don": "don"}[role.role]
    narrowed = seasons.profile(store, roster[4], Filter(role_group=group))
    assert narrowed is not None and narrowed.stats.games["all"] == page.stats.games[group]
    assert seasons.profile(store, 10**6) is None


def test_reindex_indexes_what_is_missing_and_rewrites_everything_when_asked(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    played(store, club, 1, list(roster))
    before = db.index_games(store, club)
    assert seasons.reindex(store) == 0
    assert seasons.reindex(store, every=True) == 1
    assert db.index_games(store, club) == before


def test_sportmafia_check_finds_an_index_that_differs_from_the_log(store: Store) -> None:
    from sqlalchemy import delete, update

    from sportmafia.services.integrity import check
    from sportmafia.store import GameIndex, SeatIndex

    club, roster, _ = club_with_roster(store)
    first, _ = played(store, club, 1, list(roster))
    second, _ = played(store, club, 2, list(roster))
    assert check(store).ok
    with store.write() as s:
        s.execute(update(SeatIndex).where(SeatIndex.game_id == first, SeatIndex.seat == 1)
                  .values(facts={**s.get(SeatIndex, (first, 1)).facts, "fouls": 9}))  # type: ignore[union-attr]
        s.execute(delete(SeatIndex).where(SeatIndex.game_id == second))
        s.execute(delete(GameIndex).where(GameIndex.game_id == second))
    problems = check(store).problems
    assert any(first in p and "differs" in p for p in problems)
    assert any(second in p and "not in the index" in p for p in problems)
    seasons.reindex(store, every=True)
    assert check(store).ok


def test_a_judges_correction_of_the_sheet_reaches_the_index_and_the_ratings(store: Store) -> None:
    from sportmafia.services import sheets
    from sportmafia.services.integrity import check

    club, roster, admin = club_with_roster(store)
    game_id, game = played(store, club, 3, list(roster))
    before = db.indexed_facts(store, game_id)
    assert before is not None and before.winner == game.winner
    ended = db.index_games(store, club)[0].ended_at
    sheets.sign(store, game_id, admin)
    other = "black" if game.winner == "red" else "red"
    civilian = next(s.seat for s in before.seats if s.role == "civilian")
    sheets.correct(store, game_id, admin, "the host wrote the wrong winner and a mafia card as civilian",
                   [{"field": "winner", "new": other}, {"field": "result", "new": "override"},
                    {"field": "role", "seat": civilian, "new": "mafia"}])
    after = db.indexed_facts(store, game_id)
    assert after is not None and after.winner == other
    seat = after.seat(civilian)
    assert seat.team == "black" and seat.won == (other == "black")
    voted = [v for s in after.seats for v in s.votes if v[1] == civilian]
    assert all(black for _, _, black in voted)  # a vote for him is a vote for a black player now
    assert db.index_games(store, club)[0].ended_at == ended  # its place in the ratings' order kept
    red_changes = seasons.club_ratings(store, club).elo.history[str(roster[0])]
    assert red_changes[0].change > 0 if after.seat(1).won else red_changes[0].change < 0
    assert check(store).ok, check(store).problems


def test_one_person_at_two_seats_of_a_game_is_rated_at_neither(store: Store) -> None:
    club, roster, admin = club_with_roster(store)
    db.merge(store, club, roster[1], roster[0], "one person, seated twice by mistake", admin)
    played(store, club, 4, list(roster))  # seated before the merge was known: the index joins seats 1 and 2
    [game] = db.index_games(store, club)
    assert game.people[:2] == (roster[0], roster[0])
    assert seasons.people_of(game)[:2] == (None, None)
    ratings = seasons.club_ratings(store, club)  # no "a person sits at two seats" refusal: the page stands
    assert str(roster[0]) not in ratings.elo.history and str(roster[2]) in ratings.elo.history
    # nor do his statistics count that game (twice, as they did): his two seats are nobody's, like a guest's
    page = seasons.profile(store, roster[0])
    assert page is not None and page.stats.games["all"] == 0 and page.games == () and page.person.games == 0
    narrowed = seasons.profile(store, roster[0], Filter(ruleset="club"))
    assert narrowed is not None and narrowed.stats.games["all"] == 0 and narrowed.games == ()
    [(_, _, games, _last)] = [p for p in db.club_people(store, club) if p[0] == roster[0]]
    assert games == 0
    assert db.miscounted(store) == []
    _counted_right(store, club, roster[2])


def test_the_ratings_read_the_same_games_as_the_index_gives_them(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    for seed in range(3):
        played(store, club, seed, [*roster[:9], None])
    games = db.index_games(store, club)
    assert db.rating_games(store, club) == [seasons.rated(g) for g in games]
    since = (games[0].ended_at, games[0].game_id)
    assert db.rating_games(store, club, since=since) == [seasons.rated(g) for g in games[1:]]


def _counted_right(store: Store, club: int, person: int) -> None:
    """The kept counts are those of the index, and his page's statistics those of his games."""
    assert db.miscounted(store) == []
    page = seasons.profile(store, person)
    assert page is not None
    games = [PlayedGame(g.game_id, g.ended_at, g.facts, tuple(None if p is None else str(p) for p in g.people))
             for g in db.index_games(store, club)]
    assert page.stats == person_stats(str(person), games)
    lines = [seasons.played(g) for g in db.index_games(store, club)]
    assert seasons.club_stats(store, club) == group_stats(lines) and group_stats(lines).games == len(games)


def test_a_players_statistics_are_kept_as_games_end_and_follow_every_change_of_his_games(store: Store) -> None:
    """Statistics kept up to date incrementally (issue: not recomputed per page view): the profile and the club's
    page read one kept row each, brought forward by a game's end, its reopening by an undo, a merge and a
    reindex."""
    import random
    import uuid

    from sqlalchemy import update

    from sportmafia.engine import Award, DealCards, Undo
    from sportmafia.services.integrity import check
    from sportmafia.store.season_tables import ClubCounts, PersonCounts

    club, roster, admin = club_with_roster(store)
    [dup] = store.add_club_players(club, ["P1 again"])
    for seed in range(3):
        played(store, club, seed, list(roster))
        _counted_right(store, club, roster[0])
    played(store, club, 7, [dup, *roster[1:-1], None])
    assert db.counts(store, dup)["games/all"] == 1
    game_id = store.create_game(club, "club", 10, [f"P{i}" for i in range(1, 11)], seat_players=roster)
    store.append(game_id, DealCards(), expected_seq=0, command_id=uuid.uuid4().hex, rng=random.Random(4))
    store.append(game_id, Award("red", "judge's decision"), expected_seq=store.game(game_id).next_seq,
                 command_id=uuid.uuid4().hex)
    assert db.counts(store, roster[0])["games/all"] == 4
    _counted_right(store, club, roster[0])
    store.append(game_id, Undo(), expected_seq=store.game(game_id).next_seq, command_id=uuid.uuid4().hex)
    assert db.counts(store, roster[0])["games/all"] == 3  # reopened: taken away
    _counted_right(store, club, roster[0])
    db.merge(store, club, dup, roster[0], "the same man", admin)
    assert db.counts(store, roster[0])["games/all"] == 4 and db.counts(store, dup) == {}
    _counted_right(store, club, roster[0])
    assert db.person(store, roster[0]).names == ("P1",)  # type: ignore[union-attr]
    # the page reads the kept row: spoil it, and the page and the check both show it; a reindex mends it
    with store.write() as s:
        s.execute(update(PersonCounts).where(PersonCounts.player_id == roster[0]).values(counts={"games/all": 1}))
    assert seasons.profile(store, roster[0]).stats.games["all"] == 1  # type: ignore[union-attr]
    assert any(f"player {roster[0]}:" in p for p in check(store).problems)
    with store.write() as s:
        s.execute(update(ClubCounts).where(ClubCounts.club_id == club).values(counts={"games": 99}))
    assert seasons.club_stats(store, club).games == 99
    assert any(f"club {club}:" in p for p in check(store).problems)
    seasons.reindex(store, every=True)
    _counted_right(store, club, roster[0])
    assert check(store).ok, check(store).problems
