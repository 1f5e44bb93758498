"""The team Elo (seasons/elo.py): worked examples by hand, the weights, and rating one by one = from scratch."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sportmafia.seasons.elo import MAFIARATINGS, EloState, RatedGame, rate

T0 = datetime(2025, 1, 10, 20, 0, tzinfo=UTC)
CLUB10 = ("red",) * 7 + ("black",) * 3


def game(game_id: str, people: list[str | None], winner: str | None, *, teams: tuple[str, ...] = CLUB10,
         kind: str = "club", minutes: int = 0) -> RatedGame:
    return RatedGame(game_id, T0 + timedelta(minutes=minutes), tuple(people), teams, winner, kind)


def ps(*numbers: int) -> list[str | None]:
    return [f"p{i}" for i in numbers]


def test_a_first_game_of_new_players_is_even() -> None:
    # p = 1/(1+10^0) = 0.5; club weights 4/3: a red winner gains 4*(1-0.5) = 2.0, a black loser loses 3*(1-0.5) = 1.5
    r = rate([game("g1", ps(*range(1, 11)), "red")])
    assert r.odds["g1"] == 0.5
    assert [r.colour(f"p{i}", "red") for i in range(1, 8)] == [1002.0] * 7
    assert [r.colour(f"p{i}", "black") for i in range(8, 11)] == [998.5] * 3
    assert r.colour("p1", "black") == 1000.0 and r.colour("p8", "red") == 1000.0   # the other colour stays
    assert r.overall("p1") == 1002.0 and r.overall("p8") == 998.5
    first = r.history["p1"][0]
    assert (first.colour, first.before, first.change, first.after) == ("red", 1000.0, 2.0, 1002.0)


def test_a_second_game_with_unequal_means() -> None:
    # red: p1-p5 (red 1002 each), p8 (red 1000: he was black), p11 (new, 1000): R = 7010/7 = 1001.428571
    # black: p6 (black 1000: he was red), p9, p10 (black 998.5 each): B = 2997/3 = 999.0
    # p = 1/(1+10^((999.0-1001.428571)/400)) = 1/(1+10^-0.0060714) = 1/(1+0.9861173) = 0.5034949
    # black wins: a red loses 3p = 1.5104848, a black gains 4p = 2.0139798
    games = [game("g1", ps(*range(1, 11)), "red"),
             game("g2", ps(1, 2, 3, 4, 5, 8, 11, 6, 9, 10), "black", minutes=90)]
    r = rate(games)
    assert r.odds["g2"] == pytest.approx(0.5034949, abs=1e-7)
    assert r.colour("p1", "red") == pytest.approx(1000.4895152, abs=1e-7)
    assert r.colour("p8", "red") == pytest.approx(998.4895152, abs=1e-7)
    assert r.colour("p9", "black") == pytest.approx(1000.5139798, abs=1e-7)
    assert r.colour("p6", "black") == pytest.approx(1002.0139798, abs=1e-7)
    assert r.colour("p6", "red") == 1002.0 and r.overall("p6") == pytest.approx(1004.0139798, abs=1e-7)
    assert [c.game_id for c in r.history["p1"]] == ["g1", "g2"]


@pytest.mark.parametrize(("kind", "players", "win", "loss"), [
    ("club", 10, 4, 3), ("tournament", 10, 16, 12), ("elite", 10, 64, 48), ("tournament", 12, 16, 12),
    ("club", 9, 2, 1.5), ("tournament", 8, 8, 6), ("elite", 7, 32, 24)])
def test_weights_by_kind_and_table_size(kind: str, players: int, win: float, loss: float) -> None:
    teams = ("red",) * (players - 3) + ("black",) * 3
    # new players: p = 0.5, so a winner gains W/2 and a loser loses L/2
    r = rate([game("g", ps(*range(1, players + 1)), "black", teams=teams, kind=kind)])
    assert r.colour("p1", "red") == 1000 - loss / 2 and r.colour(f"p{players}", "black") == 1000 + win / 2
    assert MAFIARATINGS.weights(kind, players).win == win


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        rate([game("g", ps(*range(1, 11)), "red", kind="friendly")])


def test_excluded_games_and_games_without_winner_change_nothing() -> None:
    games = [game("g1", ps(*range(1, 11)), "red"), game("g2", ps(*range(1, 11)), None, minutes=1),
             game("g3", ps(*range(1, 11)), "black", minutes=2)]
    r = rate(games, excluded={"g1"})
    assert set(r.odds) == {"g3"} and r.colour("p1", "red") == 998.5
    assert [c.game_id for c in r.history["p1"]] == ["g3"]


def test_guests_are_not_rated_nor_counted_in_the_means() -> None:
    # g1 makes p8 a 998.5 black; in g2 black is p8 and two guests: B = 998.5, R = 1000 (all new reds)
    games = [game("g1", ps(*range(1, 11)), "red"),
             game("g2", [*ps(*range(21, 28)), "p8", None, None], "red", minutes=1)]
    r = rate(games)
    p = 1 / (1 + 10 ** ((998.5 - 1000) / 400))
    assert r.odds["g2"] == pytest.approx(p)
    assert r.colour("p21", "red") == pytest.approx(1000 + 4 * (1 - p))
    assert len(r.history) == 17


def test_a_team_of_guests_gives_red_odds_zero_as_mafiaratings() -> None:
    r = rate([game("g", [*ps(*range(1, 8)), None, None, None], "red")])
    assert r.odds["g"] == 0.0 and r.colour("p1", "red") == 1004.0


def test_a_person_at_two_seats_or_a_game_out_of_order_is_refused() -> None:
    state = EloState()
    with pytest.raises(ValueError):
        state.apply(game("g", ps(1, 1, *range(3, 11)), "red"))
    state.apply(game("g2", ps(*range(1, 11)), "red", minutes=5))
    with pytest.raises(ValueError):
        state.apply(game("g1", ps(*range(1, 11)), "red"))


def reference(games: list[RatedGame]) -> dict[tuple[str, str], float]:
    """The rule as the issue states it, written plainly."""
    ratings: dict[tuple[str, str], float] = {}
    for g in sorted(games, key=lambda g: (g.ended, g.game_id)):
        if g.winner is None:
            continue
        seats = [(p, t) for p, t in zip(g.people, g.teams, strict=True) if p is not None]
        red = [ratings.get((p, t), 1000.0) for p, t in seats if t == "red"]
        black = [ratings.get((p, t), 1000.0) for p, t in seats if t == "black"]
        p = 1 / (1 + 10 ** ((sum(black) / len(black) - sum(red) / len(red)) / 400)) if red and black else 0.0
        w, loss = (4, 3) if len(g.people) >= 10 else (2, 1.5)
        for person, t in seats:
            won = t == g.winner
            delta = (w * (1 - p) if won else -loss * p) if t == "red" else (w * p if won else -loss * (1 - p))
            ratings[(person, t)] = ratings.get((person, t), 1000.0) + delta
    return ratings


@st.composite
def seasons(draw: st.DrawFn) -> list[RatedGame]:
    rng = random.Random(draw(st.integers(0, 10**6)))
    pool = [f"p{i}" for i in range(14)]
    games = []
    for i in range(draw(st.integers(1, 40))):
        n = rng.choice([7, 9, 10, 10, 10])
        people: list[str | None] = list(rng.sample(pool, n))
        if rng.random() < 0.2:
            people[rng.randrange(n)] = None
        teams = tuple(rng.sample(["red"] * (n - 3) + ["black"] * 3, n))
        games.append(RatedGame(f"g{i:03}", T0 + timedelta(hours=rng.randrange(30)), tuple(people), teams,
                               rng.choice(["red", "black", "red", None])))
    return games


@settings(max_examples=60, deadline=None)
@given(seasons(), st.integers(0, 40))
def test_one_by_one_equals_from_scratch_and_the_plain_rule(games: list[RatedGame], cut: int) -> None:
    ordered = sorted(games, key=lambda g: (g.ended, g.game_id))
    state = EloState()
    for g in ordered[:cut]:
        state.apply(g)
    early = state.ratings()
    for g in ordered[cut:]:
        state.apply(g)
        state.ratings()  # a copy after every game, as a server makes one: only the histories that moved are new
    scratch = rate(reversed(games))
    assert state.ratings() == scratch
    assert early == rate(ordered[:cut])
    for (person, colour), value in reference(games).items():
        assert math.isclose(scratch.colour(person, colour), value, abs_tol=1e-9)
    for history in scratch.history.values():
        last = {"red": 1000.0, "black": 1000.0}
        for change in history:
            assert change.before == last[change.colour] and change.after == change.before + change.change
            last[change.colour] = change.after
