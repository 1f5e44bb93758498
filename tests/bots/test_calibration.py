"""The first round's single votes (``sportmafia.bots.calibration``), counted as the mafiaratings analysis of
1,237 rated games counts them."""

from __future__ import annotations

import random

from sportmafia.bots.baseline import PAIR, BaselineAgent
from sportmafia.bots.calibration import REAL, first_round, single_votes
from sportmafia.bots.claims import Claim, Said
from sportmafia.bots.table import play_table
from sportmafia.engine import Undo, Vote
from sportmafia.rules import get_ruleset
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


def test_the_baselines_first_round_is_near_real_play() -> None:
    """The baseline's first vote, over 600 seeded games, within 0.08 of each of the article's figures, with about
    as many single votes a game (real: 862 in 1,237 games, 0.70): its players' first impressions spread the first
    day's nominations and hands, a black player's hand goes to a teammate now and then, and a shield ("I trust
    N" with no check) reads as a pair."""
    rules = get_ruleset("club")
    counted = single_votes(play_table(rules, [BaselineAgent() for _ in range(10)], 7000 + k).game for k in range(600))
    figures = counted.figures()
    assert 0.5 <= counted.total / counted.games <= 1.0, figures
    for key, real in REAL.items():
        assert abs(float(figures[key] or 0.0) - real) <= 0.08, (key, figures)


def test_an_unfounded_trust_reads_as_a_pair_a_founded_one_does_not() -> None:
    agent = BaselineAgent()
    agent.start(1, get_ruleset("club"), 10, random.Random(1))
    agent.observe([{"type": "dealt", "seq": 0, "role": "civilian"}], [])
    before = {s: agent.suspicion(s) for s in (4, 7)}
    agent.observe([], [Said(1, Claim(4, "trust", target=7))])
    assert agent.suspicion(4) == before[4] + PAIR and agent.suspicion(7) == before[7] + PAIR / 2
    # once a Sheriff has told 7 red, trusting 7 is founded: nothing more is read into it
    agent.observe([], [Said(2, Claim(9, "role", role="sheriff")), Said(2, Claim(9, "check", target=7, color="red")),
                       Said(3, Claim(5, "trust", target=7))])
    assert agent.heat[5] == 0.0
