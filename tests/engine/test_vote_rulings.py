"""Votes, ties and removals during voting in every preset (issue 15, items 1, 2, 3, 9 and 10).

Each test drives a game with real commands and cites its clause; the helpers are the club scenario tests'
(fixed deck: Don 3, mafia 4 and 7, Sheriff 6).
"""

from __future__ import annotations

import pytest

from sportmafia.engine import Advance, Game, LiftVote, Remove, Vote
from sportmafia.engine import events as E
from sportmafia.engine.rules.club_vote import sole_leader
from sportmafia.rules import get_ruleset
from tests.conftest import new_game
from tests.engine.helpers import adv, cast, nominate_all, of, one, run

FIIM = get_ruleset("fiim")


def _vote_on_4_and_7(preset: str, hands_for_4: tuple[int, ...]) -> Game:
    """Day 1: 4 and 7 nominated; the listed players vote for 4 (the vote on 4 is still open)."""
    game = new_game(preset)
    nominate_all(game, [4, 7])
    assert game.step == "voting" and game.seat == 4
    run(game, *[Vote(v, 4) for v in hands_for_4])
    return game


def _lift_4_and_7(preset: str) -> Game:
    """Day 1: 4 and 7 tied 5-5 twice: the lift question is open."""
    game = new_game(preset)
    nominate_all(game, [4, 7])
    cast(game, {4: [1, 2, 3, 5, 6]})
    while game.step == "tie_speech":
        adv(game)
    cast(game, {4: [1, 2, 3, 5, 6]})
    assert game.step == "lift" and game.vote_candidates == [4, 7]
    return game


# --- item 1: a removed voter's hand ----------------------------------------------------------------
@pytest.mark.clause("F.remove.vote")
def test_fiim_a_removed_voters_hand_counts_toward_the_decided_result() -> None:
    """A.remove.vote / F.remove.vote: the hand given before the removal counts. 1, 2, 3, 5, 8 and 9 (the
    last removed) voted for 4: his sixth hand puts 4 out of reach of the four hands left, so the result
    was decided and the vote is kept; only the next day's vote is cancelled."""
    game = _vote_on_4_and_7("fiim", (1, 2, 3, 5, 8, 9))
    events = run(game, Remove(9, "insult"))
    assert one(events, E.VoteCancelled) == E.VoteCancelled(2, "F.remove.vote")
    assert game.step == "voting" and game.votes[9] == 4
    events = adv(game)  # 4, 6, 7 and 10 default to 7; 9 gives none
    assert one(events, E.DefaultVotes) == E.DefaultVotes(7, (4, 6, 7, 10))
    result = one(events, E.VoteResult)
    assert result.tally == ((4, 6), (7, 4)) and result.outcome == "out" and result.leaving == (4,)


@pytest.mark.clause("B.vote")
def test_tournament_a_removed_voters_hand_stays_counted() -> None:
    """A.remove.vote in `tournament` too: a leader's vote given by a player removed afterwards counts."""
    from tests.engine.test_tournament_rules import day1, defences, speeches
    game = day1()
    speeches(game, 1, {1: 4, 2: 6})
    defences(game)
    assert game.step == "voting"
    run(game, Vote(1, 4), Vote(2, 4), Vote(3, 6), Vote(5, 6), Remove(2, "rudeness"))
    events = run(game, Advance())
    result = one(events, E.VoteResult)
    assert dict(result.tally) == {4: 2, 6: 2} and result.outcome == "tie-out"


# --- item 2: the whole table tied (fiim) -------------------------------------------------------------
@pytest.mark.clause("A.tie.all")
def test_fiim_whole_table_tie_revotes_first_and_its_variant_votes_on_everyone_leaving() -> None:
    """A.tie.all (FIIM: nobody leaves only "в результате голосования, а затем и переголосования"): the
    first whole-table tie has its speeches and revote; the revote tied again sends nobody out. The
    variant (`tie_all_nobody` false) then asks the table whether everyone leaves."""
    for rules, after in ((FIIM, "shooting"), (FIIM.variant("fiim-all-lift", tie_all_nobody=False), "lift")):
        game = _all_nominated(rules)
        events = cast(game, {c: [c] for c in range(1, 10)})
        assert one(events, E.VoteResult).outcome == "tie" and game.step == "tie_speech"
        while game.step == "tie_speech":
            adv(game)
        events = cast(game, {c: [c] for c in range(1, 10)})
        assert game.step == after
        if after == "lift":
            assert of(events, E.VotingStarted)[-1] == E.VotingStarted("lift", tuple(range(1, 11)))
            run(game, *[LiftVote(v) for v in range(1, 6)])  # 5 of 10: not more than half
            assert one(adv(game), E.VoteResult).outcome == "stay" and game.alive_count == 10
        else:
            assert one(events, E.VoteResult).outcome == "all-tied" and game.alive_count == 10


def _all_nominated(rules: object) -> Game:
    from tests.conftest import CLUB_DECK
    game = new_game(rules, roles=CLUB_DECK)  # type: ignore[arg-type]
    nominate_all(game, list(range(1, 11)))
    return game


# --- item 3: three tied at nine (fiim) ---------------------------------------------------------------
@pytest.mark.clause("A.tie.nine")
def test_fiim_three_tied_at_nine_are_not_lifted() -> None:
    """A.tie.nine: `fiim` never puts three tied players to the lift question at nine."""
    from tests.engine.helpers import _nine_tied_twice, nine_players_with
    game = nine_players_with(FIIM)
    events = _nine_tied_twice(game)
    assert one(events, E.VoteResult).outcome == "no-lift" and game.alive_count == 9


# --- item 9: a tied player removed during the lift question ---------------------------------------------
@pytest.mark.clause("A.remove.vote")
def test_club_lift_question_goes_on_after_a_tied_player_is_removed() -> None:
    """A.remove.vote ("голосование продолжается"): removing one of the tied players during the lift
    question does not end it; it goes on for the others, and the hands raised before still count."""
    game = _lift_4_and_7("club")
    events = run(game, LiftVote(1), LiftVote(2), LiftVote(3), Remove(7, "insult"))
    assert not of(events, E.VoteResult) and game.step == "lift"
    run(game, LiftVote(5), LiftVote(6))  # 5 of the 9 at the table
    events = adv(game)
    result = one(events, E.VoteResult)
    assert result.outcome == "lift" and result.leaving == (4,)
    assert [(e.seat, e.how) for e in of(events, E.PlayerLeft)] == [(4, "lift")]


# --- item 10: FIIM 9.8, a removal after the result is decided ---------------------------------------------
@pytest.mark.clause("F.remove.vote")
def test_fiim_removal_before_the_result_is_decided_cancels_this_vote() -> None:
    """F.remove.vote: while the hands to come can still change who leaves, a removal stops the vote."""
    game = _vote_on_4_and_7("fiim", (1, 2, 3))
    events = run(game, Remove(9, "insult"))
    assert one(events, E.VoteCancelled) == E.VoteCancelled(1, "F.remove.vote")
    assert one(events, E.VoteResult).outcome == "cancelled" and game.step == "shooting"


@pytest.mark.clause("F.remove.vote")
def test_fiim_removal_of_the_decided_leaver_keeps_the_result_and_the_next_vote() -> None:
    """FIIM 9.8: the removed player is the one this vote sends out: nobody else leaves, no vote cancelled."""
    game = _vote_on_4_and_7("fiim", (1, 2, 3, 5, 6, 8))
    events = run(game, Remove(4, "oath"))
    assert not of(events, E.VoteCancelled) and game.step == "voting"
    result = one(adv(game), E.VoteResult)
    assert result.outcome == "removed-leads" and result.leaving == () and game.alive[7]
    assert game.cancelled_days == set()


@pytest.mark.clause("F.remove.vote")
def test_fiim_removal_after_a_decided_lift_keeps_it_and_cancels_the_next_vote() -> None:
    """FIIM 9.8 in the lift question: six of ten hands are up, the tied players leave whatever comes; a
    removal then keeps the result and cancels the next day's vote."""
    game = _lift_4_and_7("fiim")
    run(game, *[LiftVote(v) for v in (1, 2, 3, 5, 6, 8)])
    events = run(game, Remove(9, "insult"))
    assert one(events, E.VoteCancelled) == E.VoteCancelled(2, "F.remove.vote")
    events = adv(game)
    assert one(events, E.VoteResult).leaving == (4, 7)
    assert game.cancelled_days == {2}


def test_sole_leader_counts_every_hand_still_to_come() -> None:
    """engine/rules/club_vote.py: a candidate leads for certain only while no open candidate can reach him."""
    assert sole_leader({4: 6, 7: 0}, [4, 7], 4) == 4
    assert sole_leader({4: 5, 7: 0}, [4, 7], 5) is None  # 7 could tie
    assert sole_leader({4: 3, 7: 3, 9: 0}, [9], 0) is None  # a tie decides nothing
    assert sole_leader({4: 0, 7: 0}, [7], 0) is None


@pytest.mark.clause("A.tie.nine")
def test_stored_rule_sets_with_the_earlier_yes_no_option_still_load() -> None:
    """A.tie.nine: a rule set stored with the earlier `no_lift_three_at_nine` (true/false) reads as
    'never'/'allowed'."""
    from sportmafia.rules import RuleSet
    old = {k: v for k, v in get_ruleset("club").options().items() if k != "lift_three_at_nine"}
    assert RuleSet.from_options({**old, "no_lift_three_at_nine": True}).lift_three_at_nine == "never"
    assert RuleSet.from_options({**old, "no_lift_three_at_nine": False}).lift_three_at_nine == "allowed"
