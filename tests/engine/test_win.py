"""Scenario tests of the `club` preset: the win and the final words (A.win).

Each test drives a game with real commands, names the rule it proves and cites the clause id in its
docstring and its ``clause`` marker. ``new_game("club")`` deals a fixed deck: Don at 3, mafia at 4 and 7,
Sheriff at 6, civilians at 1, 2, 5, 8, 9 and 10. Shared helpers: ``tests/engine/helpers.py``.
"""

from __future__ import annotations

import pytest

from sportmafia.engine import (
    Advance,
    Foul,
    Nominate,
    Override,
    Protest,
    Remove,
    Shoot,
    Undo,
    view,
)
from sportmafia.engine import events as E
from tests.conftest import advance_until, new_game, refused
from tests.engine.helpers import (
    DON,
    MAFIA_A,
    MAFIA_B,
    SHERIFF,
    one,
    run,
    shoot_all,
    vote_out,
)


@pytest.mark.clause("A.win")
def test_win_red_when_no_black_left_checked_at_the_departure() -> None:
    """A.win: red wins when no black player is left, checked at the moment of the departure; the final
    minute changes nothing (fouls during it are not taken)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, MAFIA_A)
    shoot_all(game, 1)
    vote_out(game, MAFIA_B)
    shoot_all(game, 2)
    events = vote_out(game, DON)
    assert [type(e) for e in events[-3:]] == [E.VoteResult, E.PlayerLeft, E.GameEnded]
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")
    assert (game.over, game.winner, game.result, game.phase) == (True, "red", "black-gone", "over")
    refused(game, Foul(DON), code="game-over", clause="A.win")
    refused(game, Foul(SHERIFF), code="game-over")
    refused(game, Advance(), code="game-over")
    refused(game, Remove(9), code="game-over")
    assert {type(c) for c in game.legal_commands()} <= {Override, Protest, Undo}


@pytest.mark.clause("A.win")
def test_win_black_at_parity_after_a_night_kill() -> None:
    """A.win: black wins when black players are at least as many as red ones (here after a night kill)."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    vote_out(game, 1)
    shoot_all(game, 2)
    vote_out(game, 5)
    events = shoot_all(game, 8)  # 3 black, 3 red
    assert one(events, E.PlayerLeft) == E.PlayerLeft(8, "kill", 2, True)
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")
    assert game.winner == "black" and game.over


@pytest.mark.clause("A.win")
def test_win_checked_after_removals_too() -> None:
    """A.win: the win is checked after every departure, removals included."""
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Remove(DON, "oath"), Remove(MAFIA_A, "oath"))
    assert not game.over
    events = run(game, Remove(MAFIA_B, "oath"))
    assert one(events, E.GameEnded) == E.GameEnded("red", "black-gone")
    # and removals of red players at parity give black the win
    game = new_game("club")
    advance_until(game, "speech", day=1, seat=1)
    run(game, Remove(1), Remove(2), Remove(5))
    assert not game.over  # 3 black, 4 red
    events = run(game, Remove(8))
    assert one(events, E.GameEnded) == E.GameEnded("black", "parity")


@pytest.mark.clause("A.win")
def test_the_player_whose_departure_ends_the_game_has_a_final_word() -> None:
    """A.win F: the last player to leave still speaks his final minute; fouls during it change nothing."""

    game = new_game("club")
    advance_until(game, "shooting", day=1)
    game.execute(Remove(3, "insult"))
    game.execute(Remove(4, "insult"))
    game.execute(Shoot(7, 1))
    game.execute(Advance())
    advance_until(game, "speech", day=2)
    game.execute(Nominate(game.seat, 7))
    while not game.over:  # the rest speak; 7 is the only candidate: every vote goes to him, and red wins
        game.execute(Advance())
    assert game.over and game.winner == "red"
    assert game.final_words() == [7]
    assert view(game, "spectator")["final_words"] == [7]
    refused(game, Foul(7), "game-over", "A.win")
