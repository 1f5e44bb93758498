"""Illegal commands are refused with a code, a clause and Russian and English messages; nothing changes."""

from __future__ import annotations

import random

import pytest

from sportmafia.engine import (
    Advance,
    Award,
    Check,
    DealCards,
    Foul,
    Game,
    Kill,
    Nominate,
    Override,
    Remove,
    RuleViolation,
    Shoot,
    Undo,
    Vote,
    command_from_json,
)
from sportmafia.rules import get_ruleset

from ..conftest import advance_until, new_game, refused


def test_nothing_before_the_deal_and_no_second_deal() -> None:
    game = Game(get_ruleset("club"), 10)
    refused(game, Advance(), "not-dealt")
    refused(game, Nominate(1, 2), "not-dealt")
    refused(game, Undo(), "nothing-to-undo")
    with pytest.raises(RuleViolation, match="random generator"):
        game.execute(DealCards())  # a chance step needs a generator or an outcome
    assert game.step == "deal" and not game.log
    refused(game, DealCards(roles=("civilian",) * 10), "bad-deal")
    refused(game, DealCards(roles=("don", "don", "mafia") + ("civilian",) * 6 + ("sheriff",)), "bad-deal")
    game.execute(DealCards(), random.Random(1))
    refused(game, DealCards(), "already-dealt")


def test_wrong_phase_commands_name_the_step_in_both_languages() -> None:
    game = new_game("club")
    assert game.step == "meet_black"
    err = refused(game, Nominate(1, 2), "wrong-step", "A.nom.own")
    assert "Night" not in err.message_ru and "договорка" in err.message_ru
    refused(game, Vote(1, 2), "wrong-step")
    refused(game, Shoot(3, 5), "wrong-step")
    refused(game, Kill(5), "wrong-step")


def test_seat_out_of_range() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1)
    for seat in (0, 11, -1):
        refused(game, Nominate(1, seat), "bad-seat")
        refused(game, Foul(seat), "bad-seat")


def test_second_nomination_and_dead_targets() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    refused(game, Nominate(1, 6), "one-nomination", "A.nom.own")
    game.execute(Remove(8, "insult"))
    game.execute(Advance())
    refused(game, Nominate(2, 8), "vote-cancelled")  # A.remove.day: no vote today after the removal


def test_nominating_a_player_who_left_is_refused() -> None:
    game = new_game("fiim")
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    advance_until(game, "voting")
    game.execute(Vote(1, 5))
    game.execute(Advance())  # 6 gets the rest by default and leaves
    assert not game.alive[6]
    advance_until(game, "speech", day=2)
    refused(game, Nominate(game.seat, 6), "not-alive", "A.nom.dead")


def test_vote_for_a_player_not_on_the_vote_and_double_votes() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 6))
    advance_until(game, "voting")
    refused(game, Vote(1, 7), "not-a-candidate", "A.vote.one")
    refused(game, Vote(1, 6), "not-a-candidate")  # 6 is voted on after 5
    game.execute(Vote(1, 5))
    refused(game, Vote(1, 5), "already-voted", "A.vote.one")


def test_a_shot_by_a_red_player_and_a_check_by_the_wrong_player() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1)
    advance_until(game, "shooting", day=1)
    refused(game, Shoot(1, 5), "not-black", "A.night.shoot")
    refused(game, Shoot(6, 5), "not-black")
    game.execute(Shoot(3, 5))
    game.execute(Shoot(4, 5))
    game.execute(Shoot(7, 5))
    game.execute(Advance())
    assert game.step == "check_don"
    refused(game, Check(6, 1), "not-checker", "A.night.checks")
    refused(game, Check(3, 3), "check-self")


def test_a_dead_sheriff_does_not_check() -> None:
    game = new_game("club")
    advance_until(game, "shooting", day=1)
    for black in (3, 4, 7):
        game.execute(Shoot(black, 6))
    advance_until(game, "speech", day=2)  # the Sheriff (6) was killed
    assert not game.alive[6]
    advance_until(game, "shooting", day=2)
    game.execute(Advance())
    game.execute(Advance())  # past the Don's check
    # the host still calls the Sheriff (skipping the step would tell the table he is gone), but the dead
    # Sheriff cannot check
    assert game.step == "check_sheriff" and game.seat == 0
    refused(game, Check(6, 3), "not-checker", "A.night.checks")
    assert [c.type for c in game.legal_commands(None, extras=False)] == ["advance"]


def test_commands_after_the_game_ended() -> None:
    game = new_game("club")
    advance_until(game, "speech", day=1)
    game.execute(Award("red", "a spectator's hint"))
    assert game.over and game.winner == "red"
    refused(game, Advance(), "game-over", "A.win")
    refused(game, Foul(1), "game-over")
    refused(game, Nominate(1, 2), "game-over")
    refused(game, Override("black", ""), "reason-required", "A.judge")


@pytest.mark.parametrize("data, problem", [
    ({"type": "nominate", "by": "1", "target": 2}, "whole number"),
    ({"type": "nominate", "by": 1}, "target"),
    ({"type": "fly"}, "unknown command"),
    ({"type": "vote", "voter": 1, "candidate": 2, "extra": 1}, "unknown field"),
    ({"type": "vote", "voter": True, "candidate": 2}, "whole number"),
    ([1, 2], "JSON object"),
])
def test_malformed_command_json_is_refused(data: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        command_from_json(data)  # type: ignore[arg-type]


def test_command_json_round_trip() -> None:
    for cmd in (Nominate(1, 2, (3, 4)), Vote(1, 2), Override(None, "why"), DealCards(black=3)):
        assert command_from_json(cmd.to_json()) == cmd
