"""The OpenSkill rating (seasons/skill.py): the library's model per game, teams evened out, one by one = from scratch."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from sportmafia.seasons.elo import RatedGame
from sportmafia.seasons.skill import SkillState, rate_skill

T0 = datetime(2025, 1, 10, 20, 0, tzinfo=UTC)
CLUB10 = ("red",) * 7 + ("black",) * 3


def game(game_id: str, people: list[str | None], winner: str | None, minutes: int = 0) -> RatedGame:
    return RatedGame(game_id, T0 + timedelta(minutes=minutes), tuple(people), CLUB10, winner)


def ps(*numbers: int) -> list[str | None]:
    return [f"p{i}" for i in range(1, 11)] if not numbers else [f"p{i}" for i in numbers]


@pytest.mark.parametrize("winner", ["red", "black"])
def test_a_first_game_of_newcomers_is_even_whichever_team_wins(winner: str) -> None:
    r = rate_skill([game("g1", ps(), winner)])
    red, black = r.skill("p1"), r.skill("p8")
    gain = (red.mu - 25) if winner == "red" else (black.mu - 25)
    loss = (25 - black.mu) if winner == "red" else (25 - red.mu)
    assert gain > 0 and gain == pytest.approx(loss)
    assert red.sigma < 25 / 3 and red.ordinal == pytest.approx(red.mu - 3 * red.sigma)
    assert r.initial.mu == 25 and r.skill("nobody") == r.initial


def test_the_model_is_the_library_s_with_placeholders_evening_the_black_team() -> None:
    model = PlackettLuce()
    reds = [model.rating() for _ in range(7)]
    blacks = [model.rating() for _ in range(7)]   # 3 black players and 4 placeholders
    won, lost = model.rate([blacks, reds], ranks=[1, 2])
    r = rate_skill([game("g1", ps(), "black")])
    assert r.skill("p8").mu == pytest.approx(won[0].mu) and r.skill("p8").sigma == pytest.approx(won[0].sigma)
    assert r.skill("p1").mu == pytest.approx(lost[0].mu)


def test_guests_games_without_winner_and_excluded_games_rate_nobody() -> None:
    games = [game("g1", [*ps(1, 2, 3, 4, 5, 6), None, *ps(8, 9, 10)], "red"), game("g2", ps(), None, 1),
             game("g3", ps(), "black", 2)]
    r = rate_skill(games, excluded={"g3"})
    assert len(r.skills) == 9 and all(len(h) == 1 for h in r.history.values())
    assert r.history["p1"][0].colour == "red" and r.history["p8"][0].colour == "black"
    assert r.to_json()["people"]["p1"]["games"] == 1


def test_a_game_out_of_order_is_refused() -> None:
    state = SkillState()
    state.apply(game("g2", ps(), "red", 5))
    with pytest.raises(ValueError):
        state.apply(game("g1", ps(), "red"))


@st.composite
def seasons(draw: st.DrawFn) -> list[RatedGame]:
    rng = random.Random(draw(st.integers(0, 10**6)))
    pool = [f"p{i}" for i in range(13)]
    games = []
    for i in range(draw(st.integers(1, 15))):
        people: list[str | None] = list(rng.sample(pool, 10))
        if rng.random() < 0.2:
            people[rng.randrange(10)] = None
        games.append(RatedGame(f"g{i:03}", T0 + timedelta(hours=rng.randrange(20)), tuple(people),
                               tuple(rng.sample(CLUB10, 10)), rng.choice(["red", "black", None])))
    return games


@settings(max_examples=30, deadline=None)
@given(seasons(), st.integers(0, 15))
def test_one_by_one_equals_from_scratch(games: list[RatedGame], cut: int) -> None:
    ordered = sorted(games, key=lambda g: (g.ended, g.game_id))
    state = SkillState()
    for g in ordered[:cut]:
        state.apply(g)
    early = state.ratings()
    assert early == rate_skill(ordered[:cut])
    for g in ordered[cut:]:
        state.apply(g)
        state.ratings()  # a copy after every game, as a server makes one: only the histories that moved are new
    assert state.ratings() == rate_skill(reversed(games))
    assert early == rate_skill(ordered[:cut])  # an earlier copy is left as it was
    for history in state.ratings().history.values():
        for earlier, later in itertools.pairwise(history):
            assert later.before == earlier.after


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 11), st.integers(1, 11), st.integers(0, 12))
def test_the_model_gives_the_figures_of_the_librarys_rate(seed: int, winners: int, losers: int, size: int) -> None:
    """SkillModel.rate skips the copies of the library's ``rate``: the same figures, to the last bit, the teams
    evened out to ``size`` with newcomers' default ratings."""
    from sportmafia.seasons.skill import Skill, SkillModel

    rng = random.Random(seed)
    model, library = SkillModel(), PlackettLuce()
    teams = [[Skill(rng.uniform(10, 40), rng.uniform(0.5, 9), 0.0) for _ in range(n)] for n in (winners, losers)]
    mine = model.rate(*teams, size)
    model.rate(teams[1], teams[0])  # the work ratings reused: nothing of one game stays for the next
    theirs = library.rate([[library.rating(mu=s.mu, sigma=s.sigma) for s in team] +
                           [library.rating() for _ in range(size - len(team))] for team in teams], ranks=[1, 2])
    assert [[(s.mu, s.sigma, s.ordinal) for s in team] for team in mine] == \
        [[(r.mu, r.sigma, r.ordinal()) for r in team[:len(given)]] for team, given in zip(theirs, teams, strict=True)]
    assert model.rate(*teams, size) == mine
