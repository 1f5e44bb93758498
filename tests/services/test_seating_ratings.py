"""The club's ratings as a source of the seating constraints' ``ratings`` (docs/tournament.md, "Seating
constraints"): each participant read as the club's person without linking or creating anyone (his
``player_id``, his account's person, the roster's person of his name; after merges), his team Elo or OpenSkill
ordinal as the club's ratings give it, the initial rating for one without a person or a rated game; the judge's
alone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, update

from sportmafia.rules import get_ruleset
from sportmafia.services.errors import Refusal
from sportmafia.services.seasons import club_ratings
from sportmafia.services.tournament import TournamentService
from sportmafia.store import Store, UserRecord, access, club_seasons, tournaments
from sportmafia.store import seasons as db
from sportmafia.store.models import ClubPlayer, TournamentParticipant
from sportmafia.store.tournaments import NewParticipant
from tests.services.test_club_seasons import game


@dataclass
class Cup:
    club: int
    tid: int
    roster: list[int]
    """P1..P10 (all rated), then Twin (merged into P1) and Newbie (never played)."""
    ids: dict[str, int]
    """Participant ids by the case below."""
    judge: UserRecord
    host: UserRecord


def _cup(store: Store) -> Cup:
    club = store.create_club("Club")
    roster = store.add_club_players(club, [f"P{i}" for i in range(1, 11)] + ["Twin", "Newbie"])
    twin = roster[10]
    judge = store.create_user(club, "judge", "x", "judge")
    host = store.create_user(club, "host", "x", "host")
    player = store.create_user(club, "player", "x", "host")
    access.link_player(store, club, player.id, roster[2])
    for day in range(1, 4):
        game(store, club, roster[:10], datetime(2026, 3, day, 20, tzinfo=UTC), "red" if day % 2 else "black")
    game(store, club, [twin, *roster[1:10]], datetime(2026, 3, 5, 20, tzinfo=UTC), "black")
    db.merge(store, club, twin, roster[0], "one person", judge.id)
    t = tournaments.create_tournament(store, club, "Cup", ruleset="tournament",
                                      ruleset_options=get_ruleset("tournament").options(),
                                      scoring={"name": "regulation"}, tie_breaks=[], final_settings={})
    cases = {"linked": NewParticipant("P5"), "account": NewParticipant("P7", user_id=player.id),
             "named": NewParticipant("p4"), "merged": NewParticipant("Twin's alias"),
             "merged away name": NewParticipant("TWIN"), "stranger": NewParticipant("Stranger"),
             "newbie": NewParticipant("newbie"), "removed": NewParticipant("P9")}
    added = tournaments.add_participants(store, t.id, list(cases.values()))
    ids = {case: p.id for case, p in zip(cases, added, strict=True)}
    with store.write() as s:  # linked already (an earlier game of his did it): P5's name, P2's person
        s.execute(update(TournamentParticipant).where(TournamentParticipant.id == ids["linked"])
                  .values(player_id=roster[1]))
        s.execute(update(TournamentParticipant).where(TournamentParticipant.id == ids["merged"])
                  .values(player_id=twin))
    tournaments.add_sanction(store, t.id, ids["removed"], "disqualification", "insult", judge.id)
    return Cup(club, t.id, roster, ids, judge, host)


def _written(store: Store, cup: Cup) -> tuple[object, ...]:
    with store.read() as s:
        people = s.scalar(select(func.count()).select_from(ClubPlayer).where(ClubPlayer.club_id == cup.club))
        links = tuple(s.execute(select(TournamentParticipant.id, TournamentParticipant.player_id)
                                .where(TournamentParticipant.tournament_id == cup.tid)
                                .order_by(TournamentParticipant.id)).all())
    return people, links, db.index_version(store, cup.club)


def test_each_participant_is_read_as_the_clubs_person_without_linking_anyone(store: Store) -> None:
    cup = _cup(store)
    before = _written(store, cup)
    persons = club_seasons.participants_persons(store, cup.club, cup.tid)
    r, ids = cup.roster, cup.ids
    assert persons == {ids["linked"]: r[1],  # his player_id, not P5 by his name
                       ids["account"]: r[2],  # his account's person, not P7 by his name
                       ids["named"]: r[3],  # P4, in another case
                       ids["merged"]: r[0],  # Twin, merged into P1
                       ids["merged away name"]: None,  # Twin's name: merged away, no person of that name
                       ids["stranger"]: None, ids["newbie"]: r[11], ids["removed"]: r[8]}
    after = _written(store, cup)
    assert after == before  # no person created, no player_id set
    assert [p for _, p in after[1]].count(None) == 6


@pytest.mark.parametrize("source", ["elo", "skill"])
def test_the_judge_gets_the_clubs_ratings_of_the_active_participants(store: Store, source: str) -> None:
    cup = _cup(store)
    before = _written(store, cup)
    t = tournaments.tournament(store, cup.tid)
    got = TournamentService(store).seating_ratings(cup.judge, t, source)
    now = club_ratings(store, cup.club)
    history = now.elo.history if source == "elo" else now.skill.history
    initial = now.elo.system.initial if source == "elo" else now.skill.initial.ordinal

    def rating(person: int) -> float:
        return now.elo.overall(str(person)) if source == "elo" else now.skill.skill(str(person)).ordinal

    r, ids = cup.roster, cup.ids
    rated = {"linked": r[1], "account": r[2], "named": r[3], "merged": r[0]}
    assert got["source"] == source
    assert set(got["ratings"]) == set(got["games"]) == {str(p) for case, p in ids.items() if case != "removed"}
    for case, person in rated.items():
        pid = str(ids[case])
        assert got["ratings"][pid] == round(rating(person), 1) != round(initial, 1), case
        assert got["games"][pid] == len(history[str(person)]), case
    assert got["games"][str(ids["merged"])] == 4  # P1's three games and the one Twin played before the merge
    assert got["games"][str(ids["linked"])] == 4
    unrated = [ids["merged away name"], ids["stranger"], ids["newbie"]]
    assert sorted(got["unrated"]) == sorted(unrated)
    for pid in unrated:
        assert (got["ratings"][str(pid)], got["games"][str(pid)]) == (round(initial, 1), 0)
    assert _written(store, cup) == before
    # the judge can store them as they are, and balance tables by them
    service = TournamentService(store)
    stored = service.set_seating_constraints(cup.judge, t, {"ratings": got["ratings"], "tolerance": 50})
    assert stored.seating_constraints is not None and stored.seating_constraints["ratings"] == got["ratings"]


def test_only_the_judge_reads_them_and_the_source_is_elo_or_skill(store: Store) -> None:
    cup = _cup(store)
    t = tournaments.tournament(store, cup.tid)
    service = TournamentService(store)
    with pytest.raises(Refusal) as refused:
        service.seating_ratings(cup.host, t, "elo")
    assert refused.value.kind == "forbidden"
    with pytest.raises(Refusal) as refused:
        service.seating_ratings(cup.judge, t, "glicko")
    assert (refused.value.kind, refused.value.code) == ("invalid", "bad-source")
    assert "glicko" in refused.value.message("en") and refused.value.message("ru") != refused.value.message("en")
