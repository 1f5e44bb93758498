"""The index of finished games (docs/seasons.md): written in the transaction of the append that ends a game,
dropped when an undo reopens it, rebuilt from the log alike; persons merged with a reason; games left out of the
ratings with a reason."""

from __future__ import annotations

import random
import uuid

import pytest
from sqlalchemy import delete, select

from sportmafia.bots import play_random
from sportmafia.engine import Award, DealCards, Game, Undo
from sportmafia.engine.record import command_for
from sportmafia.rules import get_ruleset
from sportmafia.seasons.facts import game_facts
from sportmafia.store import GameIndex, SeatIndex, Store
from sportmafia.store import seasons as people

NAMES = [f"P{i}" for i in range(1, 11)]


def cid() -> str:
    return uuid.uuid4().hex


def played(store: Store, club: int, seed: int, seat_players: list[int | None] | None = None) -> tuple[str, Game]:
    """A whole random game, appended command by command as the engine played it."""
    game = play_random(get_ruleset("club"), 10, seed, NAMES)
    game_id = store.create_game(club, "club", 10, NAMES, seat_players=seat_players)
    seq = 0
    for ev in game.log:
        if ev.action:
            seq = store.append(game_id, command_for(ev), expected_seq=seq, command_id=cid()).next_seq
    return game_id, game


def club_with_roster(store: Store) -> tuple[int, list[int], int]:
    club = store.create_club("Club")
    roster = store.add_club_players(club, NAMES)
    admin = store.create_user(club, "admin", "x", "admin").id
    return club, roster, admin


def test_a_game_is_indexed_in_the_append_that_ends_it_with_the_person_at_each_seat(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    game = play_random(get_ruleset("club"), 10, 3, NAMES)
    game_id = store.create_game(club, "club", 10, NAMES, seat_players=[*roster[:9], None])
    seq, actions = 0, [ev for ev in game.log if ev.action]
    for i, ev in enumerate(actions):
        seq = store.append(game_id, command_for(ev), expected_seq=seq, command_id=cid()).next_seq
        with store.read() as s:
            indexed = s.get(GameIndex, game_id)
        assert (indexed is not None) == (i == len(actions) - 1)  # not before the last action, at once after it
    games = people.index_games(store, club)
    assert [g.game_id for g in games] == [game_id]
    assert games[0].facts == game_facts(game)
    assert games[0].people == (*roster[:9], None)  # a typed name at seat 10: no person
    assert games[0].kind == "club" and games[0].source == "log"
    seats = people.person_seats(store, roster[0])
    assert [s.seat.seat for s in seats] == [1] and seats[0].winner == game.winner


def test_an_undo_after_the_end_drops_the_game_from_the_index_and_its_new_end_indexes_it_again(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    game_id = store.create_game(club, "club", 10, NAMES, seat_players=roster)
    store.append(game_id, DealCards(), expected_seq=0, command_id=cid(), rng=random.Random(4))
    head = store.game(game_id).next_seq
    store.append(game_id, Award("red", "judge's decision"), expected_seq=head, command_id=cid())
    assert [g.facts.winner for g in people.index_games(store, club)] == ["red"]
    head = store.game(game_id).next_seq
    store.append(game_id, Undo(), expected_seq=head, command_id=cid())
    assert people.index_games(store, club) == [] and people.person_seats(store, roster[0]) == []
    head = store.game(game_id).next_seq
    store.append(game_id, Award("black", "judge's decision"), expected_seq=head, command_id=cid())
    assert [g.facts.winner for g in people.index_games(store, club)] == ["black"]


def test_the_index_rebuilt_from_the_log_equals_the_one_written_as_the_game_ended(store: Store) -> None:
    club, roster, _ = club_with_roster(store)
    game_id, _ = played(store, club, 5, list(roster))
    before = people.index_games(store, club)
    assert people.unindexed_games(store) == []
    with store.write() as s:
        s.execute(delete(SeatIndex).where(SeatIndex.game_id == game_id))
        s.execute(delete(GameIndex).where(GameIndex.game_id == game_id))
    assert people.unindexed_games(store) == [game_id]
    people.reindex_game(store, game_id)
    assert people.index_games(store, club) == before  # dated by its last event, as when it ended


def test_a_merged_duplicate_counts_for_the_person_he_joined_and_the_merge_is_kept_with_its_reason(store: Store) -> None:
    club, roster, admin = club_with_roster(store)
    [dup] = store.add_club_players(club, ["p1 (again)"])
    played(store, club, 1, list(roster))
    played(store, club, 2, [dup, *roster[1:]])
    assert people.person(store, roster[0]).games == 1  # type: ignore[union-attr]
    record = people.merge(store, club, dup, roster[0], "the same man, typed twice", admin)
    assert (record.from_name, record.reason, record.login) == ("p1 (again)", "the same man, typed twice", "admin")
    merged = people.person(store, roster[0])
    assert merged is not None and merged.games == 2 and merged.merged == (dup,)
    assert set(merged.names) == {"P1"}
    assert dup not in [p.id for p in store.club_players(club)]  # off the roster the host picks from
    assert [m.from_id for m in people.merges(store, club, roster[0])] == [dup]
    assert all(g.people[0] == roster[0] for g in people.index_games(store, club))
    with store.read() as s:
        assert s.scalar(select(SeatIndex.player_id).where(SeatIndex.player_id == dup)) is None


@pytest.mark.parametrize("case", ["same-person", "already-merged", "not-found", "same-game"])
def test_a_merge_that_cannot_be_is_refused_and_changes_nothing(store: Store, case: str) -> None:
    club, roster, admin = club_with_roster(store)
    other = store.create_club("Other")
    [stranger] = store.add_club_players(other, ["X"])
    people.merge(store, club, roster[2], roster[3], "dup", admin)
    played(store, club, 1, list(roster))  # seats 3 and 4 (merged before) are one person; seats 5 and 6 are two
    source, target = {"same-person": (roster[0], roster[0]), "already-merged": (roster[2], roster[1]),
                      "not-found": (stranger, roster[0]), "same-game": (roster[4], roster[5])}[case]
    with pytest.raises(people.SeasonRefused) as info:
        people.merge(store, club, source, target, "why", admin)
    assert info.value.code == case
    assert len(people.merges(store, club)) == 1


def test_a_game_left_out_of_the_ratings_keeps_its_reason_and_can_be_counted_again(store: Store) -> None:
    club, roster, admin = club_with_roster(store)
    game_id, _ = played(store, club, 7, list(roster))
    mark = people.index_mark(store, club, None)
    people.exclude(store, club, game_id, "a player was replaced mid-game", admin)
    assert people.exclusions(store, club) == {game_id: "a player was replaced mid-game"}
    with pytest.raises(people.SeasonRefused) as info:
        people.exclude(store, club, game_id, "again", admin)
    assert info.value.code == "already-excluded"
    people.lift_exclusion(store, club, game_id, "the judge changed his mind", admin)
    assert people.exclusions(store, club) == {}
    assert people.index_mark(store, club, None)[2] == mark[2] + 2  # an exclusion and its lifting both count
    with pytest.raises(people.SeasonRefused):
        people.exclude(store, club, "no-such-game", "why", admin)


def test_tournament_participants_are_linked_to_the_clubs_persons_when_their_game_ends(store: Store) -> None:
    from datetime import date

    from sportmafia.store import tournaments as tdb
    from sportmafia.store.tournaments import NewParticipant
    from sportmafia.tournament import REGULATION

    club, roster, _ = club_with_roster(store)  # P1..P10 on the roster
    cups = []
    for name in ("Cup", "Second cup"):
        t = tdb.create_tournament(store, club, name, ruleset="club", ruleset_options={},
                                  scoring=REGULATION.to_json(), tie_breaks=["points"],
                                  final_settings={"finalists": 10, "games_each": 1, "carry_over": False},
                                  starts_on=date(2026, 11, 28), ends_on=date(2026, 11, 28))
        nicknames = [*[n.lower() for n in NAMES[:9]], "Guest"]  # the roster's names in another case, a visitor
        added = tdb.add_participants(store, t.id, [NewParticipant(n) for n in nicknames])
        game = play_random(get_ruleset("club"), 10, len(cups) + 11, NAMES)
        game_id = store.create_game(club, "club", 10, NAMES)
        tdb.link_games(store, t.id, "main", [(game_id, 1, 1, None, [p.id for p in added])])
        seq = 0
        for ev in game.log:
            if ev.action:
                seq = store.append(game_id, command_for(ev), expected_seq=seq, command_id=cid()).next_seq
        cups.append(game_id)
    games = people.index_games(store, club)
    assert [g.game_id for g in games] == cups
    first, second = games
    assert first.people[:9] == tuple(roster[:9])  # matched by name, any case
    guest = first.people[9]
    assert guest is not None and guest not in roster  # a person made for the visitor
    assert second.people == first.people  # the same visitor in the next tournament is the same person
    assert first.tournament_id is not None and first.kind == "tournament"
    from sportmafia.services.exchange import export_games

    exported, _ = export_games(store, club, "mafiaratings", first.tournament_id)
    assert len(exported) == 1  # that tournament's game only
    records, _ = export_games(store, club, "sportmafia", second.tournament_id)
    assert [r["meta"]["id"] for r in records] == [cups[1]] and records[0]["meta"]["tournament"] == second.tournament_id
