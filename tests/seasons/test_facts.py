"""A game's facts (seasons/facts.py): hand-checked golden games, and invariants over many engine games."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sportmafia.engine import BLACK_ROLES, Game
from sportmafia.rules import get_ruleset
from sportmafia.seasons.facts import GameFacts, game_facts, result_only_facts
from sportmafia.tournament import from_game
from tests.seasons import GOLDEN, chaotic, golden, plausible


def test_best_move_first_killed_and_checks_of_a_golden_game() -> None:
    facts = game_facts(golden("fiim_best_move"))
    assert (facts.winner, facts.result, facts.detail) == ("red", "black-gone", True)
    assert facts.first_killed == 8
    victim = facts.seat(8)
    assert (victim.left, victim.left_day, victim.left_night) == ("kill", 1, True)
    assert (victim.guess, victim.guess_black) == ((3, 7, 10), 2)
    assert all(s.guess == () and s.guess_black is None for s in facts.seats if s.seat != 8)
    sheriff, don = facts.seat(6), facts.seat(3)
    assert (sheriff.role, sheriff.checks) == ("sheriff", ((1, 3, True), (2, 7, True)))
    assert (don.role, don.checks) == ("don", ((1, 6, True),))
    assert [s.seat for s in facts.seats if s.team == "black"] == [3, 4, 7]
    assert [s.won for s in facts.seats] == [s.team == "red" for s in facts.seats]
    assert (facts.days, facts.nights) == (3, 2)


def test_withdrawn_nominations_do_not_count() -> None:
    facts = game_facts(golden("club_withdraw"))
    assert facts.seat(2).nominations == ((1, 4, True), (2, 3, True))   # 7 and then 4 withdrawn
    assert facts.seat(3).nominations == ((1, 8, False),)               # 9 withdrawn


def test_undone_nominations_and_votes_do_not_count() -> None:
    facts = game_facts(golden("club_undo"))
    assert facts.seat(1).nominations == ((1, 7, True),)                # 4 undone: he said 7
    assert facts.seat(8).nominations == ((2, 4, True),)                # 2 undone: he said 4
    assert [v for v in facts.seat(6).votes if v[0] == 1] == [(1, 7, True)]   # his default vote for 4 undone
    assert [v for v in facts.seat(3).votes if v[0] == 1] == [(1, 4, True)]   # one default vote, not two


def test_revote_counts_each_ballot_and_lift_votes_apart() -> None:
    facts = game_facts(golden("club_tie_lift_passes"))
    assert [v for v in facts.seat(1).votes if v[0] == 1] == [(1, 4, True), (1, 4, True)]   # the vote and the revote
    lifted = [s.seat for s in facts.seats if s.lifts]
    assert lifted == [1, 2, 5, 6, 8, 10] and facts.seat(1).lifts == ((1, (4, 9)),)
    assert (facts.seat(4).left, facts.seat(9).left) == ("lift", "lift")


def test_removals_are_facts_of_the_seat() -> None:
    facts = game_facts(golden("club_remove_during_vote"))
    assert [(s.seat, s.left, s.left_day) for s in facts.seats if s.removed] == [(4, "removal", 1), (9, "removal", 2)]
    assert facts.seat(4).votes == ()                                    # removed before his hand


def test_no_winner_means_won_is_none() -> None:
    facts = game_facts(golden("club_protest_annul"))
    assert facts.winner is None and facts.result == "protest-annul"
    assert all(s.won is None for s in facts.seats)


def test_an_unfinished_game_is_refused() -> None:
    with pytest.raises(ValueError):
        game_facts(Game(get_ruleset("club"), 10))


def test_result_only_facts_know_roles_fouls_and_departures_only() -> None:
    roles = ["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"]
    left: list[tuple[str, int, bool] | None] = [None] * 10
    left[0], left[7] = ("kill", 1, True), ("removal", 2, False)
    facts = result_only_facts("club", [f"P{i}" for i in range(1, 11)], roles, "black", "parity", [0] * 7 + [4, 0, 1],
                              left)
    assert not facts.detail and facts.first_killed == 1
    assert [s.won for s in facts.seats] == [False] * 7 + [True] * 3
    assert facts.seat(8).removed and not facts.seat(1).removed and facts.seat(10).fouls == 1
    assert all(s.votes == s.checks == s.nominations == () and s.guess_black is None for s in facts.seats)
    assert GameFacts.from_json(json.loads(json.dumps(facts.to_json()))) == facts
    with pytest.raises(ValueError):
        result_only_facts("club", ["A"], ["civilian", "mafia"], "red", "black-gone", [0], [None])


def test_json_of_another_version_is_refused() -> None:
    data = game_facts(golden("club_plain_red_win")).to_json()
    with pytest.raises(ValueError):
        GameFacts.from_json({**data, "version": 2})


def check_invariants(game: Game) -> None:
    facts = game_facts(game)
    assert GameFacts.from_json(json.loads(json.dumps(facts.to_json()))) == facts
    black = {s.seat for s in facts.seats if s.team == "black"}
    assert black == {s for s in range(1, game.n + 1) if game.roles[s] in BLACK_ROLES}
    sheet = from_game(game, [f"p{i}" for i in range(1, game.n + 1)])
    assert facts.first_killed == sheet.first_killed
    for s in facts.seats:
        line = sheet.by_seat(s.seat)
        assert (s.role, s.fouls, s.left, s.left_day, s.left_night, s.removed) == \
            (line.role, line.fouls, line.left, line.left_day, line.left_night, line.removed is not None)
        assert s.won == (None if facts.winner is None else s.team == facts.winner)
        nights = [c[0] for c in s.checks]
        assert len(nights) == len(set(nights))                           # one check a night
        if s.checks:
            assert s.role in ("sheriff", "commissar", "don")
        for night, target, found in s.checks:
            assert 1 <= night <= facts.nights
            assert found == (game.roles[target] == "sheriff" if s.role == "don" else target in black)
        for day, seat, is_black in s.votes + s.nominations:
            assert is_black == (seat in black) and 1 <= day <= facts.days
            assert s.left_day is None or day <= s.left_day                # only while at the table
        if s.guess:
            assert s.first_killed and s.guess_black == len(set(s.guess) & black)
        for day, tied in s.lifts:
            assert len(tied) >= 2 and (s.left_day is None or day <= s.left_day)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([("club", 10), ("fiim", 10), ("tournament", 12), ("tournament", 15)]), st.integers(0, 10**6))
def test_facts_of_plausible_games_hold_together(table: tuple[str, int], seed: int) -> None:
    check_invariants(plausible(*table, seed))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([("club", 10), ("fiim", 10), ("tournament", 13)]), st.integers(0, 10**6))
def test_facts_of_random_games_with_undos_and_removals_hold_together(table: tuple[str, int], seed: int) -> None:
    check_invariants(chaotic(*table, seed))


def test_every_golden_game_gives_facts_that_hold_together() -> None:
    for path in sorted(GOLDEN.glob("*.json")):
        if path.stem != "expected":
            check_invariants(golden(path.stem))
