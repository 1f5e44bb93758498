"""Scenario tests of the `club` preset: the club vote: default votes, ties, revotes and the lift question (A.vote.*, A.tie.*).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Advance,
    LiftVote,
    Nominate,
    Remove,
    Vote,
    describe_event_line,
)
from sportmafia.engine import events as E
from sportmafia.rules import RuleSetError, get_ruleset
from tests.conftest import CLUB_DECK, advance_until, new_game, refused
from tests.engine.helpers import (
    CLUB,
    _nine_tied_twice,
    adv,
    cast,
    down_to_five,
    finish_day,
    four_players,
    miss_night,
    nine_players,
    nine_players_with,
    nominate_all,
    of,
    one,
    refused_as,
    run,
    shoot_all,
    steps,
)


@pytest.mark.clause("A.vote.order")
def test_vote_order_candidates_voted_one_by_one_in_nomination_order() -> None:
    """A.vote.order: after the last speech the candidates are voted one by one in nomination order,
    opened by the host's "в городе голосование, выставлены игроки под номерами…"."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    refused(game, Vote(1, 1), code="wrong-step", clause="A.vote.order")
    run(game, Nominate(1, 7))
    adv(game)
    run(game, Nominate(2, 4))
    adv(game)
    run(game, Nominate(3, 9))
    events: list[E.Event] = []
    while game.step == "speech":
        events += adv(game)
        if game.step == "speech":
            assert not of(events, E.VotingStarted)  # not before the last speech
    assert game.seat == 7 and game.step == "voting"
    started = one(events, E.VotingStarted)
    assert started.candidates == (7, 4, 9) and started.kind == "vote"
    assert describe_event_line(started, "ru").startswith("В городе голосование")
    assert "7" in describe_event_line(started, "ru")
    refused(game, Vote(1, 4), code="not-a-candidate", clause="A.vote.one")
    run(game, Vote(1, 7), Vote(2, 7))
    events = adv(game)
    assert steps(events) == [("voting", 4, 0)] and game.round == 1
    refused(game, Vote(3, 7), code="not-a-candidate")
    run(game, Vote(3, 4), Vote(4, 4), Vote(5, 4))
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.tally == ((7, 2), (4, 3), (9, 5))
    assert result.leaving == (9,) and result.outcome == "out"


@pytest.mark.clause("A.vote.one")
def test_vote_one_each_living_player_votes_at_most_once() -> None:
    """A.vote.one: each living player (candidates too) votes for at most one candidate."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    finish_day(game)
    shoot_all(game, 10)
    nominate_all(game, [5, 8, 1])
    assert game.step == "voting" and game.seat == 5
    run(game, Vote(5, 5))  # a candidate votes, even for himself
    refused(game, Vote(5, 5), code="already-voted", clause="A.vote.one")
    refused(game, Vote(10, 5), code="cannot-vote", clause="A.vote.one")  # killed last night
    refused_as(game, Vote(2, 5), actor=3, code="not-yours")
    game.execute(Vote(8, 5), actor=8)
    adv(game)
    assert game.seat == 8
    refused(game, Vote(5, 8), code="already-voted")  # he voted for 5 already
    refused(game, Vote(8, 8), code="already-voted")
    run(game, Vote(1, 8))
    assert {Vote(v, 8) for v in (2, 3, 4, 6, 7, 9)} <= set(game.legal_commands())
    assert not {Vote(v, 8) for v in (1, 5, 8, 10)} & set(game.legal_commands())
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.tally == ((5, 2), (8, 1), (1, 6))
    assert sum(v for _, v in result.tally) == 9  # 9 living voters, one vote each


@pytest.mark.clause("A.vote.default")
def test_vote_default_goes_to_the_last_candidate() -> None:
    """A.vote.default: a player who did not vote has his vote go to the last candidate in the order."""
    game = new_game("club")
    nominate_all(game, [2, 5, 9])
    events = cast(game, {2: [1, 3, 4, 6], 5: [2, 7]})
    default = one(events, E.DefaultVotes)
    assert default.candidate == 9 and default.voters == (5, 8, 9, 10)
    result = one(events, E.VoteResult)
    assert result.tally == ((2, 4), (5, 2), (9, 4))
    assert result.outcome == "tie"  # 2 and 9 share the most: 4 each


@pytest.mark.clause("A.vote.day1-single")
def test_vote_day1_single_candidate_not_voted_later_days_he_leaves() -> None:
    """A.vote.day1-single: on day 1 a single candidate is not voted on and night falls; on later days a
    single candidate receives every vote and leaves."""
    game = new_game("club")
    events = nominate_all(game, [5])
    result = one(events, E.VoteResult)
    assert result.outcome == "single-day1" and result.leaving == ()
    assert not of(events, E.VotingStarted) and not of(events, E.PlayerLeft)
    assert game.step == "shooting" and game.alive[5]
    miss_night(game)
    events = nominate_all(game, [5])
    started = one(events, E.VotingStarted)
    assert started.candidates == (5,)
    assert one(events, E.DefaultVotes).voters == tuple(range(1, 11))
    result = one(events, E.VoteResult)
    assert result.tally == ((5, 10),) and result.outcome == "out"
    assert not game.alive[5] and game.step == "last_word" and game.seat == 5


@pytest.mark.clause("A.vote.result")
def test_vote_result_most_votes_leaves_and_speaks() -> None:
    """A.vote.result: the candidate with the most votes leaves and speaks his last minute."""
    game = new_game("club")
    nominate_all(game, [8, 2, 10])
    events = cast(game, {8: [1, 2, 3, 4, 5, 6], 2: [7, 8]})
    result = one(events, E.VoteResult)
    assert result.tally == ((8, 6), (2, 2), (10, 2))
    assert result.leaving == (8,) and result.outcome == "out"
    left = one(events, E.PlayerLeft)
    assert (left.seat, left.how, left.day) == (8, "vote", 1)
    assert (game.step, game.seat, game.seconds) == ("last_word", 8, 60)
    assert game.alive == [False] + [True] * 7 + [False, True, True]
    adv(game)
    assert game.step == "shooting"


@pytest.mark.clause("A.tie")
def test_tie_speeches_then_revote_among_the_tied_only() -> None:
    """A.tie: the tied speak 30 s each in nomination order, then a revote among them only, in the same
    order (A.vote.default applies to the last of them)."""
    game = new_game("club")
    nominate_all(game, [9, 2, 5])
    events = cast(game, {9: [1, 2, 3, 4], 2: [5, 6]})  # 9: 4, 2: 2, 5: 4 by default
    tie = one(events, E.VoteResult)
    assert tie.outcome == "tie" and tie.leaving == (9, 5)
    assert of(events, E.VotingStarted) == [E.VotingStarted("revote", (9, 5))]
    assert steps(events)[-1] == ("tie_speech", 9, 30)
    assert game.alive_count == 10
    events = adv(game)
    assert steps(events) == [("tie_speech", 5, 30)]
    events = adv(game)
    assert steps(events) == [("voting", 9, 0)]
    refused(game, Vote(1, 2), code="not-a-candidate")  # 2 is out of the revote
    run(game, Vote(1, 9), Vote(2, 9), Vote(3, 9))
    events = adv(game)
    assert one(events, E.DefaultVotes) == E.DefaultVotes(5, (4, 5, 6, 7, 8, 9, 10))
    result = one(events, E.VoteResult)
    assert result.kind == "revote" and result.tally == ((9, 3), (5, 7))
    assert result.outcome == "out" and result.leaving == (5,)
    assert (game.step, game.seat, game.seconds) == ("last_word", 5, 60)


@pytest.mark.clause("A.tie.again")
def test_tie_again_different_number_revotes_same_number_asks_to_lift() -> None:
    """A.tie.again: a revote tying a different number of players is revoted among those; tying the same
    number (same or different composition) leads to "Кто за то, чтобы все голосуемые покинули игру?"."""
    game = new_game("club")
    nominate_all(game, [1, 2, 3, 4])
    events = cast(game, {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]})  # 3, 3, 3, 1
    assert one(events, E.VoteResult).leaving == (1, 2, 3)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 4, 4, 2: two tied now
    tie = one(events, E.VoteResult)
    assert tie.outcome == "tie" and tie.leaving == (1, 2)
    assert of(events, E.VotingStarted) == [E.VotingStarted("revote", (1, 2))]
    assert game.step == "tie_speech"
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4, 5]})  # 5, 5: the same number again
    assert one(events, E.VoteResult).leaving == (1, 2)
    lift = of(events, E.VotingStarted)[-1]
    assert lift == E.VotingStarted("lift", (1, 2))
    assert describe_event_line(lift, "ru").startswith("Кто за то, чтобы")
    assert game.step == "lift" and game.alive_count == 10


@pytest.mark.clause("A.tie.again")
def test_tie_again_same_number_different_composition_asks_to_lift() -> None:
    """A.tie.again: the same number tied, with a different composition, also goes to the lift question."""
    game = new_game("club")
    nominate_all(game, [1, 2, 3])
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 4, 4, 2
    assert one(events, E.VoteResult).leaving == (1, 2)
    while game.step == "tie_speech":
        adv(game)
    # the revote is among 1 and 2 only: the composition can only stay; revoting again keeps two tied
    events = cast(game, {1: [1, 2, 3, 4, 5]})
    assert of(events, E.VotingStarted)[-1].kind == "lift"
    # a three-way tie that comes back as a different pair of two after a two-way revote
    game = new_game("club")
    nominate_all(game, [1, 2, 3, 4])
    cast(game, {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]})  # 1, 2, 3 tied (3 each)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]})  # 1 and 2 tied (2 players)
    assert one(events, E.VoteResult).leaving == (1, 2)
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {1: [1, 2, 3, 4, 5]})
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("lift", (1, 2))


@pytest.mark.clause("A.tie.lift")
def test_tie_lift_more_than_half_sends_all_with_last_words() -> None:
    """A.tie.lift: the tied all leave if more than half of the living vote yes; each gets a last minute."""
    game = new_game("club")
    nominate_all(game, [2, 8])
    cast(game, {2: [1, 2, 3, 4, 5]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {2: [1, 2, 3, 4, 5]})
    assert game.step == "lift"
    refused(game, Vote(1, 2), code="wrong-step")
    run(game, *[LiftVote(v) for v in (1, 2, 3, 4, 5, 6)])
    refused(game, LiftVote(1), code="already-voted", clause="A.tie.lift")
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "lift" and result.leaving == (2, 8) and result.tally == ((0, 6),)
    assert [(e.seat, e.how) for e in of(events, E.PlayerLeft)] == [(2, "lift"), (8, "lift")]
    assert (game.step, game.seat, game.seconds) == ("last_word", 2, 60)
    events = adv(game)
    assert steps(events) == [("last_word", 8, 60)]
    events = adv(game)
    assert steps(events)[0][0] == "shooting"
    refused(game, LiftVote(3), code="wrong-step", clause="A.tie.lift")


@pytest.mark.clause("A.tie.lift")
def test_tie_lift_even_split_or_no_majority_all_stay() -> None:
    """A.tie.lift: if no is the majority or the votes split evenly, the tied all stay."""
    for yes in (5, 2):
        game = new_game("club")
        nominate_all(game, [2, 8])
        cast(game, {2: [1, 2, 3, 4, 5]})
        while game.step == "tie_speech":
            adv(game)
        cast(game, {2: [1, 2, 3, 4, 5]})
        run(game, *[LiftVote(v) for v in range(1, yes + 1)])
        events = adv(game)
        result = one(events, E.VoteResult)
        assert result.outcome == "stay" and result.leaving == () and result.tally == ((0, yes),)
        assert not of(events, E.PlayerLeft) and game.alive_count == 10
        assert game.step == "shooting"


@pytest.mark.clause("A.tie.four")
def test_tie_four_two_tied_lifted_together_at_four_players() -> None:
    """A.tie.four: with 4 players at the table two tied players may be lifted together."""
    game = four_players()
    nominate_all(game, [9, 3])
    assert game.step == "voting"
    cast(game, {9: [6, 9]})  # 2 and 2
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [6, 9]})
    assert game.step == "lift"
    run(game, LiftVote(6), LiftVote(9), LiftVote(10))  # 3 of 4
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "lift" and result.leaving == (9, 3)
    assert [e.seat for e in of(events, E.PlayerLeft)] == [9, 3]
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")  # the Don was lifted with 9


@pytest.mark.clause("A.tie.four")
def test_tie_four_two_of_four_lifted_gives_parity_when_red_goes() -> None:
    """A.tie.four: lifting two red players at four leaves 1 black and 1 red: black wins at once."""
    game = four_players()
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [3, 9]})
    run(game, LiftVote(3), LiftVote(6), LiftVote(9))
    events = adv(game)
    assert [e.seat for e in of(events, E.PlayerLeft)] == [9, 10]
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")


@pytest.mark.clause("A.tie.four")
def test_tie_four_lift_needs_three_of_four_and_is_an_option() -> None:
    """A.tie.four: at four the lift still needs more than half (3 of 4); the rule is an option
    (lift_two_at_four): with it off, two tied at four are not lifted."""
    game = four_players()
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {9: [3, 9]})
    run(game, LiftVote(3), LiftVote(9))  # 2 of 4: an even split
    events = adv(game)
    assert one(events, E.VoteResult).outcome == "stay" and game.living() == [3, 6, 9, 10]
    variant = CLUB.variant("club-no-lift4", lift_two_at_four=False)
    game = new_game(variant, roles=CLUB_DECK)
    down_to_five(game)
    shoot_all(game, 8)
    nominate_all(game, [9, 10])
    cast(game, {9: [3, 9]})
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {9: [3, 9]})
    assert one(events, E.VoteResult).outcome == "no-lift"
    assert game.step == "shooting" and game.alive_count == 4


@pytest.mark.clause("A.tie.nine")
def test_tie_nine_three_tied_are_put_to_the_lift_question_in_club() -> None:
    """A.tie.nine (D): seed A's lift rule has no exception at nine players (only four is special), so in
    `club` three players tied twice at nine are asked "все голосуемые покинули игру?" like any others."""
    game = nine_players()
    events = _nine_tied_twice(game)
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("lift", (2, 5, 8))
    assert game.step == "lift"
    run(game, *[LiftVote(v) for v in (2, 3, 4, 5, 6)])  # 5 of 9
    events = adv(game)
    assert one(events, E.VoteResult).outcome == "lift"
    assert [e.seat for e in of(events, E.PlayerLeft)] == [2, 5, 8]


@pytest.mark.clause("A.tie.nine")
def test_tie_nine_is_an_option_with_three_readings() -> None:
    """A.tie.nine: `lift_three_at_nine` is 'allowed' (club), 'never' (fiim) or 'not-day1'."""
    assert CLUB.lift_three_at_nine == "allowed" and get_ruleset("fiim").lift_three_at_nine == "never"
    never = CLUB.variant("club-never9", lift_three_at_nine="never")
    game = nine_players_with(never)
    events = _nine_tied_twice(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "no-lift" and result.leaving == ()
    assert not of(events, E.PlayerLeft) and game.alive_count == 9 and game.step == "shooting"
    not_day1 = CLUB.variant("club-day1", lift_three_at_nine="not-day1")
    game = nine_players_with(not_day1)  # day 2: the question is put
    _nine_tied_twice(game)
    assert game.step == "lift"
    # day 1 at nine players: 10 removed during the vote, three tied twice: no lift question
    game = new_game(not_day1, roles=CLUB_DECK)
    nominate_all(game, [2, 5, 8])
    run(game, Vote(1, 2), Vote(2, 2), Remove(10, "insult"), Vote(3, 2))
    events = cast(game, {5: [4, 5, 6]})  # 3, 3 and 7, 8, 9 by default
    assert one(events, E.VoteResult).leaving == (2, 5, 8) and game.alive_count == 9
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {2: [2, 3, 4], 5: [5, 6, 7]})
    assert one(events, E.VoteResult).outcome == "no-lift" and game.step == "shooting"
    with pytest.raises(RuleSetError):
        CLUB.variant("club-bad9", lift_three_at_nine="sometimes")


@pytest.mark.clause("A.tie.all")
def test_tie_all_the_whole_table_tied_speaks_and_revotes_first() -> None:
    """A.tie.all: a whole-table tie in the first vote is a tie like any other (A.tie): every player speaks
    30 s and the table votes again; nobody leaves only if the revote ties every living player again."""
    game = new_game("club")
    nominate_all(game, list(range(1, 11)))
    assert game.candidates == list(range(1, 11))
    events = cast(game, {c: [c] for c in range(1, 10)})  # one vote each; 10's is his default
    assert one(events, E.DefaultVotes) == E.DefaultVotes(10, (10,))
    result = one(events, E.VoteResult)
    assert result.outcome == "tie" and result.leaving == tuple(range(1, 11))
    assert of(events, E.VotingStarted)[-1] == E.VotingStarted("revote", tuple(range(1, 11)))
    assert steps(events)[-1] == ("tie_speech", 1, 30)
    speakers = []
    while game.step == "tie_speech":
        speakers.append(game.seat)
        adv(game)
    assert speakers == list(range(1, 11))
    events = cast(game, {c: [c] for c in range(1, 10)})
    result = one(events, E.VoteResult)
    assert result.kind == "revote" and result.outcome == "all-tied" and result.leaving == ()
    assert not of(events, E.PlayerLeft) and game.step == "shooting" and game.alive_count == 10
    # at four players: all four tied twice
    game = four_players()
    nominate_all(game, [6, 9, 10, 3])
    events = cast(game, {6: [6], 9: [9], 10: [10]})
    assert one(events, E.VoteResult).outcome == "tie" and game.step == "tie_speech"
    while game.step == "tie_speech":
        adv(game)
    events = cast(game, {6: [6], 9: [9], 10: [10]})
    assert one(events, E.VoteResult).outcome == "all-tied"
    assert game.step == "shooting" and game.alive_count == 4


@pytest.mark.clause("A.vote.default")
def test_without_the_default_vote_the_last_candidate_is_voted_on_too() -> None:
    """A.vote.default as an option: a club variant without it votes on the last candidate like the others,
    and a player who raised no hand gives no vote."""
    from sportmafia.rules import CLUB

    from ..conftest import CLUB_DECK

    game = new_game(CLUB.variant("no-default", default_vote=False), roles=CLUB_DECK)
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    advance_until(game, "voting")
    game.execute(Vote(1, 5))
    game.execute(Advance())
    assert (game.step, game.seat) == ("voting", 6)
    game.execute(Vote(2, 6))
    game.execute(Vote(3, 6))
    game.execute(Advance())
    result = [e for e in game.log if e.type == "vote_result"][-1]
    assert dict(result.tally) == {5: 1, 6: 2} and result.leaving == (6,)
    assert not any(e.type == "default_votes" for e in game.log)
