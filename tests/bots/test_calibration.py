"""The first round's single votes (``sportmafia.bots.calibration``), counted as the mafiaratings analysis of
1,237 rated games counts them."""

from __future__ import annotations

from sportmafia.bots.calibration import REAL, first_round, single_votes
from sportmafia.engine import Undo, Vote
from tests.conftest import new_game
from tests.engine.helpers import DON, MAFIA_A, SHERIFF, cast, nominate_all, run


def test_single_votes_are_counted_by_the_voters_and_the_targets_team() -> None:
    game = new_game("club")
    nominate_all(game, [1, MAFIA_A, 5])
    assert game.step == "voting"
    # 1 gets the Don's hand alone, the mafia at 4 gets the Sheriff's alone; the rest go to 5 by default
    run(game, Vote(2, 1))
    run(game, Undo())  # a hand taken back is no vote
    cast(game, {1: [DON], MAFIA_A: [SHERIFF]})
    hands = first_round(game)
    assert hands is not None and hands[1] == [DON] and hands[MAFIA_A] == [SHERIFF] and len(hands[5]) == 8
    counted = single_votes([game])
    assert (counted.black_at_red, counted.red_at_black, counted.red_at_red, counted.black_at_black) == (1, 1, 0, 0)
    assert counted.figures() == {"red_share_of_single_votes": 0.5, "red_targets": 0.5, "black_votes_at_reds": 1.0,
                                 "single_votes": 2, "games": 1}


def test_a_game_without_a_vote_counts_no_single_vote() -> None:
    game = new_game("club")
    counted = single_votes([game])
    assert first_round(game) is None and counted.total == 0 and counted.games == 1
    assert counted.figures()["red_targets"] is None


def test_the_articles_figures() -> None:
    assert REAL == {"red_share_of_single_votes": 0.57, "red_targets": 0.645, "black_votes_at_reds": 0.841}
