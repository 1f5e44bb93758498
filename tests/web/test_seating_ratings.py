"""``GET /api/tournaments/{id}/seating/ratings``: the club's ratings of the participants for the seating
constraints (docs/tournament.md, "Seating constraints"), the judge's alone; what it gives can be put back as the
constraints' ``ratings``."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from sportmafia.services.seasons import club_ratings
from sportmafia.store import Store
from sportmafia.store.models import ClubPlayer, TournamentParticipant
from tests.services.test_club_seasons import game

from .conftest import Api
from .test_tournaments_api import add_names, create, put, user_client


def test_the_judge_reads_the_participants_club_ratings_and_puts_them_in_the_constraints(api: Api,
                                                                                        store: Store) -> None:
    names = [f"Rated {i}" for i in range(1, 11)]
    people = store.add_club_players(api.club_id, names)
    for day in range(1, 4):
        game(store, api.club_id, people, datetime(2026, 4, day, 20, tzinfo=UTC), "red" if day != 2 else "black")
    tid = create(api, preset="club")
    ids = add_names(api, tid, [*names, "Nobody Known"])
    with store.read() as s:
        roster = s.scalar(select(func.count()).select_from(ClubPlayer).where(ClubPlayer.club_id == api.club_id))
    url = f"/api/tournaments/{tid}/seating/ratings"
    now = club_ratings(store, api.club_id)
    r = api.get(url)  # elo by default
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == {"source": "elo",
                    "ratings": {**{str(pid): round(now.elo.overall(str(person)), 1)
                                   for pid, person in zip(ids, people, strict=False)},
                                str(ids[-1]): now.elo.system.initial},
                    "games": {**{str(pid): 3 for pid in ids[:-1]}, str(ids[-1]): 0},
                    "unrated": [ids[-1]]}
    assert len(set(body["ratings"].values())) > 1
    r = api.get(url, params={"source": "skill"})
    assert r.status_code == 200, r.text
    skill = r.json()
    assert skill["source"] == "skill" and skill["unrated"] == [ids[-1]]
    assert skill["ratings"][str(ids[0])] == round(now.skill.skill(str(people[0])).ordinal, 1)
    assert skill["ratings"][str(ids[-1])] == round(now.skill.initial.ordinal, 1)
    assert api.get(url, params={"source": "glicko"}).status_code == 422
    host, _ = user_client(api, f"host{tid}", "host")
    r = host.get(url)
    assert r.status_code == 403 and r.json()["error"]["ru"]
    # read only: nobody linked, nobody created
    with store.read() as s:
        assert s.scalar(select(func.count()).select_from(ClubPlayer).where(ClubPlayer.club_id == api.club_id)) \
            == roster
        assert not s.scalars(select(TournamentParticipant.player_id).where(
            TournamentParticipant.tournament_id == tid, TournamentParticipant.player_id.is_not(None))).all()
    # the judge puts them back as the constraints' ratings, with a tolerance: the tables are balanced by them
    r = put(api, f"/api/tournaments/{tid}/seating/constraints", {"ratings": body["ratings"], "tolerance": 30})
    assert r.status_code == 200, r.text
    assert r.json()["constraints"]["ratings"] == body["ratings"]
