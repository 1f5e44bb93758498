"""Scenario tests of the `club` preset: speeches: the order, last words and timings (A.speech.order, A.lastword, A.timing).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Foul,
    Remove,
    Shoot,
)
from sportmafia.engine import events as E
from tests.conftest import advance_until, new_game
from tests.engine.helpers import (
    BLACK,
    CLUB,
    DON,
    MAFIA_A,
    MAFIA_B,
    adv,
    cast,
    day_turns,
    finish_day,
    finish_night,
    four_players,
    miss_night,
    nominate_all,
    one,
    run,
    shoot_all,
    steps,
    to_shooting,
    to_speeches,
    vote_out,
)


@pytest.mark.clause("A.speech.order")
def test_speech_order_each_day_opens_with_the_next_living_seat() -> None:
    """A.speech.order: every living player speaks once, 60 s, in seat order; day 1 opens with seat 1 and
    each later day with the next living seat after the previous day's opener."""
    game = new_game("club")
    assert day_turns(game) == [("speech", s, 60) for s in range(1, 11)]
    shoot_all(game, 2)  # night 1: seat 2, the next after day 1's opener, is killed
    assert game.step == "last_word" and game.seat == 2
    assert [t[1] for t in day_turns(game)] == [3, 4, 5, 6, 7, 8, 9, 10, 1]  # the next living after 1
    shoot_all(game, 4)  # night 2: day 2's opener 3 lives; 4 is killed
    assert [t[1] for t in day_turns(game)] == [5, 6, 7, 8, 9, 10, 1, 3]
    miss_night(game)
    assert (game.day, game.step, game.seat) == (4, "speech", 6)


@pytest.mark.clause("A.speech.order")
def test_speech_order_opener_is_the_next_living_after_a_dead_opener() -> None:
    """A.speech.order: if the previous day's opener left, the day opens with the next living seat after
    him."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, 1)  # day 1's opener leaves by the vote
    shoot_all(game, 2)  # and the next seat dies at night
    to_speeches(game)
    assert (game.day, game.seat) == (2, 3)


@pytest.mark.clause("A.lastword")
def test_lastword_voted_out_at_once_killed_next_morning_removed_none() -> None:
    """A.lastword: voted out: a last minute at once; killed at night: at the start of the next day;
    a removed player gets none."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    events = vote_out(game, 5)
    left = one(events, E.PlayerLeft)
    assert (left.seat, left.how, left.night) == (5, "vote", False)
    assert (game.step, game.seat, game.seconds, game.day) == ("last_word", 5, 60, 1)
    events = adv(game)
    assert steps(events)[0] == ("shooting", 0, 0)  # night falls after the last word
    events = run(game, *[Shoot(s, 8) for s in BLACK])
    assert game.alive[8]  # killed at the end of the night, not at the shot
    events = finish_night(game)
    assert one(events, E.NightResult).killed == 8
    assert (game.day, game.step, game.seat, game.seconds) == (2, "last_word", 8, 60)
    events = adv(game)
    assert steps(events) == [("speech", 2, 60)]
    # a removal during the day: no last word, the speeches go on
    events = run(game, Remove(9, "insult"))
    assert one(events, E.PlayerLeft).how == "removal"
    assert all(s[0] != "last_word" for s in steps(events))
    assert game.step == "speech" and game.seat == 2
    # a removal at night: no last word either; the morning belongs to the night's victim only
    finish_day(game)
    to_shooting(game)
    run(game, Remove(MAFIA_A, "night_touch"), Shoot(DON, 1), Shoot(MAFIA_B, 1))
    events = finish_night(game)
    assert [s[:2] for s in steps(events) if s[0] == "last_word"] == [("last_word", 1)]
    events = adv(game)
    assert steps(events)[0][0] == "speech"


@pytest.mark.clause("A.timing")
def test_timing_speech_tie_last_word_short() -> None:
    """A.timing: speech 60 s; tie speech 30 s; last word 60 s; short speech 30 s."""
    assert CLUB.speech_rounds == (60,)
    assert (CLUB.tie_speech_seconds, CLUB.last_word_seconds, CLUB.short_speech_seconds) == (30, 60, 30)
    game = new_game("club")
    events = nominate_all(game, [2, 8])
    assert {s[2] for s in steps(events) if s[0] == "speech"} == {60}
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert (game.step, game.seconds) == ("tie_speech", 30)
    while game.step == "tie_speech":
        adv(game)
    cast(game, {2: [1, 2, 3, 4, 5, 6]})
    assert (game.step, game.seat, game.seconds) == ("last_word", 2, 60)
    game = four_players()
    run(game, Foul(10), Foul(10), Foul(10))
    advance_until(game, "muted", seat=10)
    assert game.seconds == 30
