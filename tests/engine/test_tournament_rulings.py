"""Rulings on the `tournament` preset where seed B speaks (issue 15): the 0:0 tie (B.tie), the simple
majority of the final vote with the worked examples of docs/rules/tournament.md (B.vote), repeated
nominations that count (B.leaders), and the Commissar waking first on night 0 too (B.flow, B.night);
each with the other reading as a `RuleSet` option.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import Advance, DealCards, DrawFirstSpeaker, Game, Nominate
from sportmafia.engine import events as E
from sportmafia.rules import RuleSet, get_ruleset
from tests.engine.test_tournament_rules import (
    DECK,
    ballots,
    day0,
    defences,
    last_words,
    of,
    speeches,
    vote,
)

TOURNAMENT = get_ruleset("tournament")
DECK13 = (*DECK, "civilian")  # mafia 2, 5, 9; Commissar 7; 13 players


def at_day1(rules: RuleSet = TOURNAMENT, deck: tuple[str, ...] = DECK) -> Game:
    game = Game(rules, len(deck))
    game.execute(DealCards(roles=deck))
    day0(game)
    assert (game.step, game.day) == ("first_speaker", 1)
    return game


def final_vote(game: Game, noms: dict[int, int], votes: dict[int, int]) -> E.VoteResult:
    """Play day 1's rounds with ``noms``, the defences, and the final vote with ``votes``."""
    speeches(game, 1, noms)
    defences(game)
    results = of(vote(game, votes), E.VoteResult)
    assert len(results) == 1
    result = results[0]
    assert isinstance(result, E.VoteResult)
    return result


# --- B.tie: 0:0 is a tie --------------------------------------------------------------------------
@pytest.mark.clause("B.tie")
def test_b_tie_zero_votes_is_a_tie_all_leaders_leave() -> None:
    """B.tie: "если на итоговом голосовании сохранилось равенство голосов между лидерами на посадку, игру
    покидают все лидеры": 0:0 (everyone abstained) is an equality, so both leaders leave, each with a last
    word."""
    game = at_day1()
    result = final_vote(game, {1: 4, 2: 6}, {})
    assert result == E.VoteResult("leaders", ((4, 0), (6, 0)), (4, 6), "tie-out")
    assert not game.alive[4] and not game.alive[6]
    assert [s for s, _ in last_words(game)] == [4, 6]
    assert game.step == "check_commissar"


@pytest.mark.clause("B.tie")
def test_b_tie_zero_votes_option_nobody_leaves() -> None:
    """B.tie, option zero_tie_nobody: the other reading, nobody leaves at 0:0 and night falls."""
    game = at_day1(TOURNAMENT.variant("zero-nobody", zero_tie_nobody=True))
    result = final_vote(game, {1: 4, 2: 6}, {})
    assert result == E.VoteResult("leaders", ((4, 0), (6, 0)), (), "nobody")
    assert len(game.living()) == 12 and game.step == "check_commissar"


# --- B.vote: the simple (relative) majority, the worked examples at 13 players ---------------------
@pytest.mark.clause("B.vote")
def test_b_vote_13_players_single_leader_with_6_votes_leaves() -> None:
    """B.vote: "простым большинством": a single leader is the leader with the most votes; 6 of 13 for
    him (7 abstain) send him out. Option single_leader_majority: 6 is not more than half, he stays."""
    game = at_day1(deck=DECK13)
    result = final_vote(game, {1: 4}, ballots(range(5, 11), 4))
    assert result == E.VoteResult("leaders", ((4, 6),), (4,), "out")
    assert not game.alive[4] and game.step == "last_word" and game.seat == 4
    game = at_day1(TOURNAMENT.variant("half", single_leader_majority=True), DECK13)
    result = final_vote(game, {1: 4}, ballots(range(5, 11), 4))
    assert result == E.VoteResult("leaders", ((4, 6),), (), "stay")
    assert game.alive[4] and game.step == "check_commissar"
    game = at_day1(TOURNAMENT.variant("half", single_leader_majority=True), DECK13)
    assert final_vote(game, {1: 4}, ballots(range(5, 12), 4)).outcome == "out"  # 7 of 13


@pytest.mark.clause("B.vote")
def test_b_vote_13_players_single_leader_without_votes() -> None:
    """B.vote with B.tie: a single leader nobody voted for still has the most votes and leaves; with the
    option zero_tie_nobody nobody voted, so nobody leaves."""
    game = at_day1(deck=DECK13)
    assert final_vote(game, {1: 4}, {}) == E.VoteResult("leaders", ((4, 0),), (4,), "out")
    game = at_day1(TOURNAMENT.variant("zero-nobody", zero_tie_nobody=True), DECK13)
    assert final_vote(game, {1: 4}, {}) == E.VoteResult("leaders", ((4, 0),), (), "stay")
    assert game.alive[4]


@pytest.mark.clause("B.vote")
def test_b_vote_13_players_two_leaders_1_to_0_and_three_leaders_4_4_1() -> None:
    """B.vote: two leaders 1:0 with the rest abstaining: the one with 1 vote leaves. Three leaders 4:4:1:
    the two with 4 leave together (B.tie), the third stays."""
    game = at_day1(deck=DECK13)
    result = final_vote(game, {1: 4, 2: 6}, {10: 6})
    assert result == E.VoteResult("leaders", ((4, 0), (6, 1)), (6,), "out")
    assert game.alive[4] and not game.alive[6]
    game = at_day1(deck=DECK13)
    votes = {**ballots((1, 2, 3, 5), 4), **ballots((6, 7, 9, 10), 6), 11: 8}
    result = final_vote(game, {1: 4, 2: 6, 3: 8}, votes)
    assert result == E.VoteResult("leaders", ((4, 4), (6, 4), (8, 1)), (4, 6), "tie-out")
    assert game.alive[8] and [s for s, _ in last_words(game)] == [4, 6]


# --- B.leaders: a repeated nomination counts -------------------------------------------------------
@pytest.mark.clause("B.leaders")
def test_b_leaders_repeated_nomination_counts_no_first_free() -> None:
    """B.leaders: naming an already nominated player adds to his count (A.nom.first-free does not apply):
    4 named by seats 1 and 2 (who also named 6) has 2, 8 has 1: the leaders are 4 and 8. With the option
    first_free the second naming goes to 6 and the three are tied."""
    game = at_day1()
    game.execute(DrawFirstSpeaker(seat=1))
    while game.step == "speech":
        if game.round == 1 and game.seat == 1:
            game.execute(Nominate(1, 4))
        elif game.round == 1 and game.seat == 2:
            assert game.execute(Nominate(2, 4, (6,))) == [E.Nominated(2, 4, (4, 6))]
        elif game.round == 1 and game.seat == 3:
            game.execute(Nominate(3, 8))
        game.execute(Advance())
    assert game.nominators == {4: [1, 2], 8: [3]}
    assert game.vote_candidates == [4, 8]
    game = at_day1(TOURNAMENT.variant("first-free", first_free=True))
    game.execute(DrawFirstSpeaker(seat=1))
    while game.step == "speech":
        if game.round == 1 and game.seat == 1:
            game.execute(Nominate(1, 4))
        elif game.round == 1 and game.seat == 2:
            assert game.execute(Nominate(2, 4, (6,))) == [E.Nominated(2, 6, (4, 6))]
        elif game.round == 1 and game.seat == 3:
            game.execute(Nominate(3, 8))
        game.execute(Advance())
    assert game.vote_candidates == [4, 6, 8]


# --- B.flow, B.night: the Commissar first on night 0 too -------------------------------------------
@pytest.mark.clause("B.night")
@pytest.mark.clause("B.flow")
def test_b_night_zero_commissar_meets_the_host_first_then_the_mafia() -> None:
    """B.night: the Commissar wakes first every night; on night 0 "комиссар только знакомится с Ведущим",
    then the mafia wakes and meets. Option first_night_meetings restores the mafia first."""
    game = Game(TOURNAMENT, 12)
    game.execute(DealCards(roles=DECK))
    game.execute(DrawFirstSpeaker(seat=1))
    steps = []
    while game.step != "first_speaker":
        if game.phase == "night":
            steps.append((game.step, game.seat))
        game.execute(Advance())
    assert steps == [("meet_commissar", 0), ("meet_black", 0)]
    assert TOURNAMENT.first_night_meetings == ("commissar", "black")
    other = TOURNAMENT.variant("mafia-first", first_night_meetings=("black", "commissar"))
    game = Game(other, 12)
    game.execute(DealCards(roles=DECK))
    game.execute(DrawFirstSpeaker(seat=1))
    while game.phase != "night":
        game.execute(Advance())
    assert game.step == "meet_black"
