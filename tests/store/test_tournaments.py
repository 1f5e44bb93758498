"""The tournament tables (store/tournaments.py) on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from sportmafia.store import Store, StoredGame
from sportmafia.store import tournaments as db
from sportmafia.store.tournaments import (
    AlreadyAccepted,
    NewParticipant,
    NicknameTaken,
    RoundOpen,
    TournamentNotFound,
)
from sportmafia.tournament import REGULATION


def new_tournament(store: Store) -> tuple[int, int]:
    club = store.create_club("Club")
    t = db.create_tournament(store, club, "Cup", ruleset="tournament", ruleset_options={"min_players": 12},
                             scoring=REGULATION.to_json(), tie_breaks=["points", "wins"],
                             final_settings={"finalists": 12, "games_each": 3, "carry_over": True},
                             starts_on=date(2026, 11, 28), ends_on=date(2026, 11, 29))
    return club, t.id


def test_a_tournament_is_created_read_listed_and_updated(store: Store) -> None:
    club, tid = new_tournament(store)
    t = db.tournament(store, tid)
    assert (t.name, t.club_id, t.status, t.published, t.starts_on) == ("Cup", club, "setup", False, date(2026, 11, 28))
    assert t.scoring == REGULATION.to_json() and t.tie_breaks == ("points", "wins") and t.seating is None
    assert [x.id for x in db.club_tournaments(store, club)] == [tid]
    assert db.club_tournaments(store, store.create_club("Other")) == []
    seating = {"players": 2, "games": [{"round": 0, "table": 0, "seats": [1, 0]}], "participants": [7, 8]}
    t2 = db.update_tournament(store, tid, published=True, status="running", seating=seating, finalists=[8, 7])
    assert (t2.published, t2.status, t2.seating, t2.finalists) == (True, "running", seating, (8, 7))
    assert db.tournament(store, tid) == t2
    with pytest.raises(ValueError):
        db.update_tournament(store, tid, club_id=5)
    with pytest.raises(ValueError):
        db.update_tournament(store, tid, status="paused")
    with pytest.raises(TournamentNotFound):
        db.tournament(store, tid + 100)


def test_participants_are_written_all_or_none_with_nicknames_unique(store: Store) -> None:
    _club, tid = new_tournament(store)
    added = db.add_participants(store, tid, [NewParticipant("Ann", "Club A", "Reds"), NewParticipant("Bob")])
    assert [(p.nickname, p.club, p.team, p.status) for p in added] == [
        ("Ann", "Club A", "Reds", "active"), ("Bob", None, None, "active")]
    with pytest.raises(NicknameTaken) as exc:
        db.add_participants(store, tid, [NewParticipant("Cid"), NewParticipant("ANN")])
    assert exc.value.nickname == "ANN"
    with pytest.raises(NicknameTaken):
        db.add_participants(store, tid, [NewParticipant("Dan"), NewParticipant("dan")])
    assert [p.nickname for p in db.participants(store, tid)] == ["Ann", "Bob"]  # nothing of the refused lists
    # the same nickname in another tournament is fine
    _c2, other = new_tournament(store)
    assert db.add_participants(store, other, [NewParticipant("Ann")])[0].nickname == "Ann"
    p = db.set_participant_status(store, tid, added[1].id, "removed-from-round")
    assert p.status == "removed-from-round"
    with pytest.raises(ValueError):
        db.set_participant_status(store, tid, added[1].id, "gone")


def test_staff_are_users_of_the_club(store: Store) -> None:
    club, tid = new_tournament(store)
    host = store.create_user(club, "host", "x", "host")
    judge = store.create_user(club, "judge", "x", "host")  # a host of the club judges this tournament
    stranger = store.create_user(store.create_club("Other"), "stranger", "x", "judge")
    staff = db.set_staff(store, tid, [(host.id, "host"), (judge.id, "judge"), (host.id, "host")])
    assert [(s.login, s.role) for s in staff] == [("host", "host"), ("judge", "judge")]
    with pytest.raises(ValueError):
        db.set_staff(store, tid, [(stranger.id, "host")])
    with pytest.raises(ValueError):
        db.set_staff(store, tid, [(host.id, "admin")])
    assert len(db.staff(store, tid)) == 2  # unchanged by the refused calls
    assert db.tournaments_of_staff(store, judge.id) == [tid]
    assert db.tournaments_of_staff(store, stranger.id) == []


def test_games_link_once_per_table_and_are_accepted_once(store: Store) -> None:
    club, tid = new_tournament(store)
    judge = store.create_user(club, "judge", "x", "judge")
    people = db.add_participants(store, tid, [NewParticipant(f"P{i}") for i in range(12)])
    names = [p.nickname for p in people]
    g1 = store.create_game(club, "tournament", 12, names)
    db.link_games(store, tid, "main", [(g1, 1, 1, None, [p.id for p in people])])
    link = db.game(store, g1)
    assert link is not None and (link.round, link.table, link.stage, link.accepted_at) == (1, 1, "main", None)
    assert link.seats == tuple(p.id for p in people)
    assert db.game(store, store.create_game(club, "club", 10)) is None
    # the same table again: refused, and the game just created is deleted again
    g2 = store.create_game(club, "tournament", 12, names)
    with pytest.raises(RoundOpen):
        db.link_games(store, tid, "main", [(g2, 1, 1, None, [p.id for p in people])])
    with store.read() as s:
        assert s.scalar(select(StoredGame.id).where(StoredGame.id == g2)) is None
    # the final's round 1 is another table
    g3 = store.create_game(club, "tournament", 12, names)
    db.link_games(store, tid, "final", [(g3, 1, 1, None, [p.id for p in people])])
    assert [(g.stage, g.round) for g in db.games(store, tid)] == [("main", 1), ("final", 1)]
    assert [g.game_id for g in db.games(store, tid, "final")] == [g3]
    accepted = db.accept(store, g1, judge.id)
    assert accepted.accepted_by == judge.id and accepted.accepted_at is not None
    with pytest.raises(AlreadyAccepted):
        db.accept(store, g1, judge.id)
    assert db.game(store, g1) == accepted


def test_sanctions_are_kept_and_set_the_status(store: Store) -> None:
    club, tid = new_tournament(store)
    judge = store.create_user(club, "judge", "x", "judge")
    a, b, c = db.add_participants(store, tid, [NewParticipant("A"), NewParticipant("B"), NewParticipant("C")])
    db.add_sanction(store, tid, a.id, "round", "opened his eyes at night", judge.id, 2)
    db.add_sanction(store, tid, b.id, "tournament", "drunk", judge.id)
    db.add_sanction(store, tid, c.id, "disqualification", "revealed his card", judge.id)
    assert [(s.participant_id, s.kind, s.round, s.reason) for s in db.sanctions(store, tid)] == [
        (a.id, "round", 2, "opened his eyes at night"), (b.id, "tournament", None, "drunk"),
        (c.id, "disqualification", None, "revealed his card")]
    assert [p.status for p in db.participants(store, tid)] == ["active", "removed-from-tournament", "disqualified"]
    with pytest.raises(ValueError):
        db.add_sanction(store, tid, a.id, "warning", "x", judge.id)
    with pytest.raises(LookupError):
        db.add_sanction(store, tid + 1, a.id, "round", "x", judge.id, 1)
