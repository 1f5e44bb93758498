"""The vote's count in the views (``view["vote"]``: ``now``, ``results``, ``lines``): every outcome written the
way the screens show it, the day's counts kept until the next day (at night the last one only), and the same
count for every viewer (votes are cast openly: nothing in it depends on what a viewer may not see)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sportmafia.bots import random_command
from sportmafia.engine import Game, LiftVote, view
from sportmafia.rules import get_ruleset
from tests.conftest import new_game
from tests.engine.helpers import adv, cast, miss_night, nominate_all, run, to_speeches, vote_out
from tests.engine.test_tournament_rules import ballots, day1, defences, speeches
from tests.engine.test_tournament_rules import vote as leaders_vote


def lines(game: Game, lang: str = "en") -> list[str]:
    return [line[lang] for line in view(game, "spectator")["vote"]["lines"]]


def test_a_player_voted_out_is_named_through_his_last_word_and_the_night() -> None:
    game = new_game("club")
    vote_out(game, 5)
    assert game.step == "last_word" and game.seat == 5
    other = view(game, "host")["vote"]["results"][0]["tally"][1]["seat"]
    assert lines(game) == [f"Vote: #5 — 10, #{other} — 0: #5 leaves"]
    assert lines(game, "ru") == [f"Голосование: №5 — 10, №{other} — 0: уходит №5"]
    adv(game)
    assert game.phase == "night" and lines(game) == [f"Vote: #5 — 10, #{other} — 0: #5 leaves"]
    miss_night(game)
    to_speeches(game)
    assert game.day == 2 and lines(game) == [] and view(game, "spectator")["vote"]["results"] == []


def test_a_day_without_a_vote_has_its_result_but_no_line() -> None:
    game = new_game("club")
    to_speeches(game)
    while game.phase == "day":
        adv(game)
    vote = view(game, "spectator")["vote"]
    assert [r["outcome"] for r in vote["results"]] == ["no-candidates"] and vote["lines"] == []


def test_the_lift_passed_names_all_who_leave() -> None:
    game = new_game("club")
    nominate_all(game, [2, 8])
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert lines(game, "ru") == ["Голосование: №2 — 5, №8 — 5: перестрелка"]
    while game.step == "tie_speech":
        adv(game)
    cast(game, {2: [1, 2, 3, 4, 5]})
    run(game, *[LiftVote(v) for v in (1, 2, 3, 4, 5, 6)])
    adv(game)
    assert game.step == "last_word"
    assert lines(game)[-1] == "Lift: 6 of 10 — #2, #8 leave"
    assert lines(game, "ru")[-1] == "Подъём: 6 из 10 — уходят №2, №8"
    assert len(lines(game)) == 3


def test_the_tournament_leaders_vote() -> None:
    game = day1()
    speeches(game, 1, {1: 4, 2: 4, 3: 6})
    defences(game)
    assert view(game, "spectator")["vote"]["now"]["tally"] == [{"seat": 4, "votes": 0}, {"seat": 6, "votes": 0}]
    leaders_vote(game, {**ballots((1, 2, 3, 5, 7), 4), **ballots((8, 9), 6)})
    assert lines(game) == ["Vote: #4 — 5, #6 — 2: #4 leaves"]
    assert lines(game, "ru") == ["Голосование: №4 — 5, №6 — 2: уходит №4"]


everywhere = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@everywhere
@given(table=st.sampled_from([("club", 10), ("fiim", 10), ("tournament", 13)]), seed=st.integers(0, 2**32 - 1))
def test_the_count_is_the_same_for_every_viewer(table: tuple[str, int], seed: int) -> None:
    """At every move of a random game the vote's part of the view is the host's for every seat and the
    spectators (after the game: nothing shown)."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n)
    while not game.over:
        game.execute(random_command(game, rng), rng)
        host = view(game, "host")["vote"]
        for viewer in ("spectator", *range(1, n + 1)):
            assert view(game, viewer)["vote"] == host
    assert view(game, "spectator")["vote"]["lines"] == []
